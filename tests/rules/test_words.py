"""Words that read right, over every registered game: no "1 coins", "a Arsenal", "card(s)" or "G5.; ".

Seeded random playouts of each game the bot offers collect every line a player reads: event lines and
private lines, choice labels, every seat's and the spectator's headline and alt text, the result's
reason and the opening events (what setup rolled). Each is checked for a singular count with a plural
noun, a wrong indefinite article, a hand-built "(s)" and doubled or misplaced punctuation. The nouns and articles are judged by `inflect`,
the library `rules.words` wraps, so the test knows English rather than a list of the games' words.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from rules import registry, words
from rules.core import Game

GAMES = [game for game in registry.all_games() if type(game).__module__.startswith(registry.BUILTIN_MODULES)]
"""The games the bot offers (not the tests' own High Card game)."""
NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")
SEEDS = (0, 1, 2)
MOVES = 250
LONG_MOVES = 4000
"""One game per table size is played on to its end (or this many moves), so result reasons are read."""
OPTIONS: dict[str, list[dict[str, object]]] = {
    "city-heroes": [{"turns": 1}, {"turns": 2}],
    "city-of-iron": [{"nations": "pick", "abilities": True, "expansion": True, "stored_penalty": "per_two"}],
    "iron-and-brass": [{"max_rounds": 1}, {"max_rounds": 2, "board_size": 10}],
    "iron-bridge-gorge": [{"rounds": 1}, {"rounds": 2}],
}
"""Lobby options played too, most of them short games, so lines like "after 1 round" are read; each is
played at the smallest and largest table with the first seed."""
WEIGHT = {"trade": 0.1, "trading": 0.1}
"""Choice groups the random player picks less often than the rest, as people do."""
BACK = ("back", "undo", "cancel")

NOT_NOUNS = frozenset(
    [
        "is",
        "was",
        "has",
        "this",
        "its",
        "as",
        "us",
        "his",
        "hers",
        "yours",
        "ours",
        "plus",
        "minus",
        "bonus",
        "always",
        "perhaps",
        "thus",
        "yes",
        "begins",
        "ends",
        "vs",  # versus: 'attack 1 vs defence 0' (City Heroes' pillage)
    ]
)
"""Words after a "1" that look like plurals to inflect but are not nouns."""

_ONE = re.compile(r"(?<![\w./])1 ([A-Za-z]+)\b")
COUNTED = [
    "coin",
    "card",
    "ducat",
    "worker",
    "round",
    "turn",
    "action",
    "weapon",
    "lot",
    "tile",
    "resource",
    "step",
    "square",
    "token",
    "point",
]
"""The games' countable nouns: after any number but 1 they take their plural."""
_MANY = re.compile(r"(?<![\w./])(?:0|[2-9]|\d{2,}) (" + "|".join(COUNTED) + r")\b")
_ARTICLE = re.compile(r"(?:(?<=^)|(?<=[.!?] )|(?<=[\s(\"'“]))(a|an|A|An) ([A-Za-z][\w-]*)")
_PUNCTUATION = {
    "(s)": re.compile(r"\(s\)|\(es\)"),
    "..": re.compile(r"(?<!\.)\.\s*\.(?!\.)"),
    ".;": re.compile(r"\.\s*;"),
    ";.": re.compile(r";\s*\."),
    ".,": re.compile(r"(?<![A-Za-z]\.[a-z])\.\s*,"),
    ",.": re.compile(r",\s*\."),
    ",,": re.compile(r",\s*,"),
    ";;": re.compile(r";\s*;"),
    ":.": re.compile(r":\s*[.;,]"),
    " ,": re.compile(r"\s,"),
    " .": re.compile(r"\s\.(?!\d|\.\.)"),
    " ;": re.compile(r"\s;"),
    "double space": re.compile(r"\S  +\S"),
    "empty ()": re.compile(r"\(\s*\)"),
    "internal key": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "bare amount": re.compile(
        r"\b(?:for|paying|paid(?: [A-Z]\w*| the bank)?|bids?|loan of|earned|costs?) \d+"
        r"(?=\s*[.;,()]|\s*$|\s+(?:and|for|to)\b)"
    ),
    "said twice": re.compile(r"\b(free)\b[^.]*\b\1 action\b", re.IGNORECASE),
}
"""Issue 36 added the last three: a snake_case key ('per_card', 'stored_penalty'), an amount without its
unit ('built Coal Mine for 5': 5 what?) and 'Free: Junkbot: Free action: ...'."""


def problems(line: str) -> list[str]:
    """What reads wrong in one line, in words; empty when it reads right."""
    found: list[str] = []
    for match in _ONE.finditer(line):
        word = match.group(1)
        low = word.lower()
        if low in NOT_NOUNS or low in words.UNCOUNTABLE:
            continue
        singular = words.engine().singular_noun(low)
        if singular and singular != low and words.engine().plural_noun(singular) == low:
            found.append(f"plural after 1: {match.group(0)!r}")
    found += [f"singular after a count: {match.group(0)!r}" for match in _MANY.finditer(line)]
    for match in _ARTICLE.finditer(line):
        article, word = match.group(1).lower(), match.group(2)
        if word[0].isdigit():
            continue
        right = words.article(word)
        if article != right:
            found.append(f"article: {match.group(0)!r} should be {right!r}")
    for name, pattern in _PUNCTUATION.items():
        for match in pattern.finditer(line):
            start = max(0, match.start() - 15)
            found.append(f"{name}: {line[start : match.end() + 15]!r}")
    return found


def test_the_checks_catch_what_they_should() -> None:
    """The checks find the old wording (lines the games wrote before `rules.words`) and pass the new, so
    the sweep below can fail."""
    bad = [
        "Alice has 1 coins.",
        "Bob built a Arsenal.",
        "Buy 1 weapons",
        "after 1 turns",
        "drew 2 card(s)",
        "Alice moved to G5.; Bob hired a crew.",
        "Game over..",
        "Bob paid 3 coins , then passed.",
        "an Foundry",
        "Revenue: Alice 3;.",
        "A Ironworks was built.",
        "+1 coins",
        "3 coin",
        "0 card",
        "Stored building penalty: per_card",
        "Alice built Coal Mine for 5.",
        "alice bids 2 (space 3).",
        "Alice earned 7; paid Bob 1 for Iron Ore; paid the bank 1 for Limestone.",
        "bob paid 10 to draw a card.",
        "Drawing a card costs 10; you have 4.",
        "Free: Junkbot: Free action: gain 1 coin.",
    ]
    for line in bad:
        assert problems(line), line
    good = [
        "Alice has 1 coin.",
        "Alice has 0 coins and 1 ore.",
        "Bob built an Arsenal and a Foundry.",
        "a unit, a one-way road, a use, an hour, an HQ",
        "Alice moved to G5; Bob hired a crew.",
        "Bob wins on points after round 3: 12 VP to 9.",
        "Spotter +1 range. B1 units. 1 VP. 1.5 coins...",
        "Wait...",
        "1 is enough.",
        "1 Barracks, 2 Barracks, 1 Headquarters, 3 Iron Infantry, 2 Foundries",
        "+1 coin, -2 coins, 1 round, 10 rounds",
        "Alice built Coal Mine for 5 coins and gained 2 VP.",
        "alice bids 2 coins (space 3).",
        "Junkbot (free action): gain 1 coin.",
        "Mine gold (roll a D3; 48 mining left)",
    ]
    for line in good:
        assert not problems(line), (line, problems(line))


def _pick(rng: random.Random, choices: list) -> object:
    weights = [
        WEIGHT.get(choice.group.lower(), 1.0) * (0.05 if choice.label.lower().startswith(BACK) else 1.0)
        for choice in choices
    ]
    return rng.choices(choices, weights)[0]


def _lines(
    game: Game, players: int, seed: int, moves: int, options: dict[str, object] | None = None
) -> Iterator[tuple[str, str]]:
    """(where, line) for every line the players of one seeded random game read."""
    rng = random.Random(seed)
    state = game.setup(list(NAMES[:players]), options or {}, seed)
    for event in game.opening_events(state):  # what setup rolled, told in the first post
        yield "opening", event.text
    played = 0
    last_view: dict[int | None, tuple[str, str]] = {}
    while True:
        result = game.result(state)
        to_act = sorted(game.to_act(state))
        # The spectator's view and those of the seats to act (the ones reading now); every seat's at the end.
        readers = [None, *(range(players) if result is not None or played >= moves else to_act)]
        for seat in readers:
            view = game.view(state, seat)
            pair = (view.headline, view.alt_text())
            if last_view.get(seat) != pair:  # views change less often than moves: read each once
                last_view[seat] = pair
                yield "headline", view.headline
                yield "alt text", view.alt_text()
        if result is not None:
            yield "result", result.reason
            return
        if played >= moves:
            return
        choices = {seat: game.legal_actions(state, seat) for seat in to_act}
        for offered in choices.values():
            for choice in offered:
                yield "label", choice.label
        seat = rng.choice(to_act)
        choice = _pick(rng, choices[seat])
        applied = game.apply(state, seat, choice.action)
        state = applied.state
        played += 1
        for event in applied.events:
            yield "event", event.text
            for private in event.private.values():
                yield "private", private


def _tables(game: Game) -> list[int]:
    info = game.info
    return sorted({info.min_players, min(3, info.max_players), info.max_players})


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.info.id)
def test_every_line_reads_right(game: Game) -> None:
    bad: dict[str, str] = {}
    kinds: set[str] = set()
    games = [
        (players, seed, LONG_MOVES if index == 0 else MOVES, {})
        for players in _tables(game)
        for index, seed in enumerate(SEEDS)
    ]
    tables = _tables(game)
    games += [
        (players, SEEDS[0], LONG_MOVES, options)
        for options in OPTIONS.get(game.info.id, [])
        for players in {tables[0], tables[-1]}
    ]
    for players, seed, moves, options in games:
        for kind, line in _lines(game, players, seed, moves, options):
            kinds.add(kind)
            for problem in problems(line):
                bad.setdefault(problem, f"{kind} ({players} players, seed {seed}, {options}): {line}")
    report = "\n".join(f"{problem}\n    in {where}" for problem, where in sorted(bad.items()))
    assert not bad, f"{words.count(len(bad), 'line')} read wrong:\n{report}"
    assert {"event", "label", "headline", "alt text", "result"} <= kinds


def test_the_helper() -> None:
    """`rules.words` as the games use it."""
    assert [words.count(n, "coin") for n in (0, 1, 3)] == ["0 coins", "1 coin", "3 coins"]
    assert words.count(1, "weapons") == "1 weapon" and words.count(3, "weapons") == "3 weapons"
    assert (
        words.count(2, "ore") == "2 ore"
        and words.count(5, "VP") == "5 VP"
        and words.count(2, "crew") == "2 crew"
    )
    assert words.count(2, "Foundry") == "2 Foundries" and words.count(2, "Barracks") == "2 Barracks"
    assert words.count(1, "ready weapon") == "1 ready weapon" and words.count(-1, "coin") == "-1 coin"
    assert (
        words.a("Arsenal") == "an Arsenal"
        and words.a("Foundry") == "a Foundry"
        and words.a("unit") == "a unit"
    )
    assert words.a("Armored Wall", start=True) == "An Armored Wall" and words.a("8") == "an 8"
    assert (
        words.listed([]) == ""
        and words.listed(["a"]) == "a"
        and words.listed(["a", "b", "c"]) == "a, b and c"
    )
    assert words.listed(["a", "b"], "or") == "a or b" and words.listed([], empty="nothing") == "nothing"
    assert words.sentences(["moved to G5.", "hired a crew."]) == "moved to G5; hired a crew."
    assert words.sentence("Game over..") == "Game over." and words.sentence("Wait...") == "Wait..."
