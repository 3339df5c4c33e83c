"""The search benchmark's ledger (`bench/search.py`): 200 games per table size do not fit one sitting,
so finished games are kept with the code they ran on and a later run only plays the missing ones."""

from __future__ import annotations

import json

from bench import search
from rules import registry
from rules.policy import GreedyPolicy


class InlinePool:
    """A process pool that runs in this process, recording what it was asked to play."""

    def __init__(self) -> None:
        self.played: list[int] = []
        self.baseline: list[int] = []
        self.shipped: list[int] = []

    def map(self, function, *columns):
        for _game, _players, index, strength in zip(*columns, strict=True):
            if strength > 0:
                self.played.append(index)
            elif strength == 0:
                self.baseline.append(index)
            else:
                self.shipped.append(index)
            # the search wins odd games, the reference heuristic 0 and 1, the shipped one every game
            won = index % 2 if strength > 0 else index < 2 if strength == 0 else 1
            yield search.Outcome(share=float(won), illegal=0, times=[1.0])


def test_a_second_run_plays_only_the_games_the_ledger_lacks(tmp_path, capsys):
    game = registry.get("iron-and-brass")
    book = search.Ledger(tmp_path / "ledger.jsonl", code="abc")
    first = InlinePool()
    search._table(first, game, 2, 3, 3, book)
    assert first.played == [0, 1, 2]
    again = InlinePool()
    search._table(again, game, 2, 5, 3, book)
    assert again.played == [3, 4] and again.baseline == [3, 4] and again.shipped == [3, 4]
    table, baseline, shipped, _ = capsys.readouterr().out.splitlines()[-4:]
    assert "wins  40.0%" in table
    assert "same seeds:  40.0%; games the search did better in: 1, worse in: 1" in baseline
    assert "today's heuristic (the search's hint) in its seat: 100.0%" in shipped
    rows = [json.loads(line) for line in (tmp_path / "ledger.jsonl").read_text().splitlines()]
    assert [(row["index"], row["strength"]) for row in rows] == [
        *[(0, 3), (1, 3), (2, 3), (0, 0), (1, 0), (2, 0), (0, -1), (1, -1), (2, -1)],
        *[(3, 3), (4, 3), (3, 0), (4, 0), (3, -1), (4, -1)],
    ]
    assert {row["code"] for row in rows} == {"abc"}


def test_games_of_other_code_or_another_table_are_not_reused(tmp_path):
    game = registry.get("iron-and-brass")
    path = tmp_path / "ledger.jsonl"
    search._table(InlinePool(), game, 2, 2, 3, search.Ledger(path, code="old"))
    for book, players, strength in (
        (search.Ledger(path, code="new"), 2, 3),
        (search.Ledger(path, code="old"), 2, 1),
    ):
        pool = InlinePool()
        search._table(pool, game, players, 2, strength, book)
        assert pool.played == [0, 1]


def test_the_fingerprint_covers_the_rules_code():
    assert len(search.fingerprint()) == 16 and search.fingerprint() == search.fingerprint()


def test_the_baseline_puts_a_heuristic_in_the_search_seat():
    """Strength 0 is the same seed and seat played by the reference heuristic, `HEURISTIC` by the
    shipped one: real games, no search."""
    for strength in (0, search.HEURISTIC):
        outcome = search._one("iron-and-brass", 2, 1, strength)
        assert outcome.share in (0.0, 0.5, 1.0) and outcome.illegal == 0 and outcome.times


def test_the_reference_heuristic_evaluates_as_the_issue_found_it():
    """Issue 21 measures the search against "today's heuristic": where a game's evaluation has since
    been retuned (City of Iron: the rival's weight at two players, owned cards at four), the
    reference evaluates with the old weights at every table size; where the computer player has become
    another policy object (Iron & Brass: `POLICY` plays the MILITARY plan at the top strength), the
    reference is the one kept as `REFERENCE_POLICY`, the greedy heuristic on the game's `evaluate` and
    `prior` with the advantage-token prices of before issue 41 (`REFERENCE`)."""
    from rules.city_of_iron import policy as city
    from rules.policy import policy_for
    from tests.support.playouts import positions

    game = registry.get("city-of-iron")
    reference, shipped = search.reference_policy("city-of-iron"), policy_for("city-of-iron")
    for players in (2, 4):
        views = [game.view(p.state, 0) for p in positions(game, players, 3, every=30) if not p.finished]
        old = [city.evaluate(v, 0, rival=city.RIVAL_DEFAULT, owned=0.0) for v in views]
        assert [reference.evaluate(v, 0) for v in views] == old
        assert any(shipped.evaluate(v, 0) != value for v, value in zip(views, old, strict=True)), players
    from rules.iron_and_brass import policy as iron

    assert search.reference_policy("iron-and-brass") is iron.REFERENCE_POLICY
    assert (iron.REFERENCE_POLICY.evaluate.func, iron.REFERENCE_POLICY.prior.func) == (
        iron.evaluate,
        iron.prior,
    )
    assert iron.REFERENCE_POLICY.prior.keywords == iron.REFERENCE == {"priced_tokens": False}
    assert GreedyPolicy(evaluate=iron.evaluate, prior=iron.prior) == iron.GREEDY
    assert policy_for("iron-and-brass") is not iron.REFERENCE_POLICY
