"""The search benchmark's ledger (`bench/search.py`): 200 games per table size do not fit one sitting,
so finished games are kept with the code they ran on and a later run only plays the missing ones."""

from __future__ import annotations

import json

from bench import search
from rules import registry


class InlinePool:
    """A process pool that runs in this process, recording what it was asked to play."""

    def __init__(self) -> None:
        self.played: list[int] = []

    def map(self, function, *columns):
        for args in zip(*columns, strict=True):
            self.played.append(args[2])
            yield search.Outcome(share=1.0 if args[2] % 2 else 0.0, illegal=0, times=[1.0])


def test_a_second_run_plays_only_the_games_the_ledger_lacks(tmp_path, capsys):
    game = registry.get("iron-and-brass")
    book = search.Ledger(tmp_path / "ledger.jsonl", code="abc")
    first = InlinePool()
    search._table(first, game, 2, 3, 3, book)
    assert first.played == [0, 1, 2]
    again = InlinePool()
    search._table(again, game, 2, 5, 3, book)
    assert again.played == [3, 4]
    assert "wins  40.0%" in capsys.readouterr().out.splitlines()[-2]
    rows = [json.loads(line) for line in (tmp_path / "ledger.jsonl").read_text().splitlines()]
    assert [row["index"] for row in rows] == [0, 1, 2, 3, 4] and {row["code"] for row in rows} == {"abc"}


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
