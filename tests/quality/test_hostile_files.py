"""Every file refused in one sentence (issue 37): `/game import` of thousands of hostile files.

The files start as real exports (`archive.export`, the function `/game export` calls) of games of all
four games played a few moves in, then are mutated the ways a file goes wrong or is made to: cut
short, bits flipped, bytes dropped or doubled, moves swapped, dropped, doubled or given to another
seat, values replaced by huge numbers (a seed beyond 64 bits, thousands of digits, `1e400`,
`Infinity`), huge strings, deep nesting (deeper than Python's recursion limit), the wrong type, keys
removed, added or named twice, broken characters. Hypothesis adds any JSON value at any place.

Each file goes to `GameService.import_game` on a real store, as the command does (the bulk at the app
level, without Discord; `tests/e2e/test_saves.py` sends the issue's three through the emulator).
Every outcome must be a lobby (the mutation left a good save: whitespace, the `source` note) or one
of the reader's sentences, with no lobby created; nothing may escape as another exception, and
nothing may be logged at ERROR. The figures (files, outcome kinds) are printed.

`FUZZ_FILES` sets how many seeded mutations run (default 2,000).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import archive
from bot.app.archive import ArchivedSeat
from bot.app.refusals import UserError
from bot.app.service import GameService
from bot.storage.store import Store
from tests.support.playouts import offered_games

FILES = int(os.environ.get("FUZZ_FILES", "2000"))
SMALL = {"city-heroes": {"turns": 2}, "iron-and-brass": {"max_rounds": 3}}

SENTENCES = {
    "too big": r"That file is [\d,]+ kB; a saved game is far smaller\.|That file cannot be a saved game: .+\.",
    "not JSON": r"That file is not a saved game: .+\.",
    "not ours": r"That file is not an Ironhost saved game \(use a file from `/game export`\)\.",
    "other version": r"That saved game is format version .+; this bot reads version 1\.",
    "damaged": r"That saved game is damaged: .+\.",
    "not hosted": r"That saved game is of .+, which this bot does not host\.",
    "seat count": r"That saved game has \d+ seats; .+\.",
    "does not replay": r"That saved game does not replay here.+[.)]",
    "other position": r"That saved game replays to a different position than it was saved at: .+\.",
    "over": r"That saved game is over, so there is nothing to carry on; .+\.",
    "no person": r"That saved game has no seat for a person\.",
}
"""Every sentence the reader and the import may answer, by kind (the figures count them)."""


def sentence_kind(message: str) -> str | None:
    if "\n" in message or len(message) > 500:
        return None
    return next((kind for kind, pattern in SENTENCES.items() if re.fullmatch(pattern, message)), None)


# ---- the real files ------------------------------------------------------------------------------
def exported(game, seed: int, moves: int) -> bytes:
    """A real export of `game` after `moves` seeded random legal moves (a game in progress)."""
    players = max(2, game.info.min_players)
    names = ["Alice", "Bob", "Carol"][:players]
    options = game.resolve_options(SMALL.get(game.info.id, {}))  # stored resolved, as the bot does
    rng = random.Random(seed)
    state = game.setup(names, options, seed)
    log = []
    for _ in range(moves):
        seat = min(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat)).action
        log.append((seat, action))
        state = game.apply(state, seat, action).state
    return archive.export(
        game,
        options=options,
        seed=seed,
        seats=[ArchivedSeat(name=name) for name in names],
        moves=log,
        state=state,
        exported_at="2025-01-01T00:00:00+00:00",
        source="game #1",
    )


@pytest.fixture(scope="module")
def originals() -> list[bytes]:
    return [exported(game, seed, moves) for game in offered_games() for seed, moves in ((3, 9), (8, 16))]


# ---- the mutations -------------------------------------------------------------------------------
Mutation = Callable[[bytes, random.Random], bytes]
_VALUE = re.compile(rb'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null')


def _parsed(raw: bytes) -> dict | None:
    """The file as JSON, for the mutations that edit its structure; None when an earlier mutation left
    it unreadable (they then leave it as it is)."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("moves"), list) else None


def _spans(raw: bytes, pattern: re.Pattern[bytes] = _VALUE) -> list[tuple[int, int]]:
    return [match.span() for match in pattern.finditer(raw)]


def _replace_value(raw: bytes, rng: random.Random, new: bytes, *, numbers: bool = False) -> bytes:
    """One value of the file (a number when `numbers`) replaced by `new`, keys left alone."""
    spans = [
        (start, end)
        for start, end in _spans(raw)
        if raw[end : end + 1] != b":" and (not numbers or raw[start : start + 1] in b"-0123456789")
    ]
    if not spans:
        return new
    start, end = rng.choice(spans)
    return raw[:start] + new + raw[end:]


def truncate(raw: bytes, rng: random.Random) -> bytes:
    return raw[: rng.randrange(len(raw))]


def flip_bits(raw: bytes, rng: random.Random) -> bytes:
    data = bytearray(raw)
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


def splice(raw: bytes, rng: random.Random) -> bytes:
    """A slice dropped, doubled or overwritten with noise."""
    start = rng.randrange(len(raw))
    end = min(len(raw), start + rng.randint(1, 40))
    how = rng.randrange(3)
    if how == 0:
        return raw[:start] + raw[end:]
    if how == 1:
        return raw[:end] + raw[start:end] + raw[end:]
    return raw[:start] + bytes(rng.randrange(256) for _ in range(end - start)) + raw[end:]


def _moves_edit(change: Callable[[list, random.Random], None]) -> Mutation:
    def mutate(raw: bytes, rng: random.Random) -> bytes:
        data = _parsed(raw)
        if data is None:
            return raw
        if len(data["moves"]) >= 2 and all(isinstance(move, dict) for move in data["moves"]):
            change(data["moves"], rng)
        return json.dumps(data, ensure_ascii=False).encode()

    mutate.__name__ = change.__name__.strip("_") + " moves"
    return mutate


def _swap(moves: list, rng: random.Random) -> None:
    i, j = rng.sample(range(len(moves)), 2)
    moves[i], moves[j] = moves[j], moves[i]


def _swap_actions(moves: list, rng: random.Random) -> None:
    i, j = rng.sample(range(len(moves)), 2)
    moves[i]["action"], moves[j]["action"] = moves[j]["action"], moves[i]["action"]


def _reseat(moves: list, rng: random.Random) -> None:
    rng.choice(moves)["seat"] = rng.choice([1, 2, 5, 7, 8, -1, 2**64, "0", None])


def _drop(moves: list, rng: random.Random) -> None:
    del moves[rng.randrange(len(moves))]


def _double(moves: list, rng: random.Random) -> None:
    index = rng.randrange(len(moves))
    moves.insert(index, moves[index])


def _flood(moves: list, rng: random.Random) -> None:
    moves.extend(moves * rng.choice([20, 300]))  # a longer log than the game had


HUGE_NUMBERS = [
    b"18446744073709551616",  # 2**64
    str(2**70).encode(),
    b"9223372036854775808",  # 2**63
    b"-9223372036854775809",
    b"9" * 4300,
    b"9" * 5000,
    b"1" + b"0" * 100_000,
    b"1e400",
    b"-1e400",
    b"1.5",
    b"-0",
    b"Infinity",
    b"-Infinity",
    b"NaN",
]


def huge_number(raw: bytes, rng: random.Random) -> bytes:
    return _replace_value(raw, rng, rng.choice(HUGE_NUMBERS), numbers=rng.random() < 0.7)


def huge_seed(raw: bytes, rng: random.Random) -> bytes:
    return re.sub(rb'"seed": \d+', b'"seed": ' + rng.choice(HUGE_NUMBERS + [b"-1", b'"7"', b"true"]), raw)


def huge_string(raw: bytes, rng: random.Random) -> bytes:
    text = rng.choice(["x" * 101, "y" * 2_001, "z" * 300_000, "<@1> **b** @everyone\n\u202e", "\\ud800", ""])
    return _replace_value(raw, rng, json.dumps(text, ensure_ascii=rng.random() < 0.5).encode())


def deep_value(raw: bytes, rng: random.Random) -> bytes:
    depth = rng.choice([10, 15, 17, 100, 3_000, 200_000])
    nested = b"[" * depth + b"]" * depth if rng.random() < 0.5 else b'{"a":' * depth + b"1" + b"}" * depth
    return _replace_value(raw, rng, nested)


def wrong_type(raw: bytes, rng: random.Random) -> bytes:
    return _replace_value(raw, rng, rng.choice([b"null", b"true", b"[]", b"{}", b'""', b"0", b"[[1]]"]))


def keys(raw: bytes, rng: random.Random) -> bytes:
    """A key removed, added, renamed or named twice."""
    data = _parsed(raw)
    if data is None:
        return raw
    moves = [move for move in data["moves"] if isinstance(move, dict) and move]
    where = data if rng.random() < 0.6 or not moves else rng.choice(moves)
    key = rng.choice(sorted(where))
    how = rng.randrange(4)
    if how == 0:
        del where[key]
    elif how == 1:
        where["**extra** <@1>"] = 1
    elif how == 2:
        where[key + "_"] = where.pop(key)
    else:
        text = json.dumps(data)
        return text.replace(f'"{key}":', f'"{key}": 1, "{key}":', 1).encode()
    return json.dumps(data).encode()


def characters(raw: bytes, rng: random.Random) -> bytes:
    """Broken or strange characters: invalid UTF-8, a lone surrogate, UTF-16, a byte order mark."""
    how = rng.randrange(5)
    if how == 0:
        return raw.replace(b'"Alice"', b'"Al\xffice"')
    if how == 1:
        return raw.replace(b'"Alice"', b'"\\ud800Alice"')
    if how == 2:
        return raw.decode("utf-8", "replace").encode("utf-16")
    if how == 3:
        return b"\xef\xbb\xbf" + raw  # a byte order mark: still the same save
    return raw.replace(b'"Alice"', b'"Alice\\u0000\\n\\u202e<@1>"')


def sizes(raw: bytes, rng: random.Random) -> bytes:
    data = _parsed(raw)
    if data is None or not data["moves"] or not isinstance(data["moves"][0], dict):
        return raw
    how = rng.randrange(4)
    if how == 0:
        data["seats"] = data["seats"] * rng.choice([2, 5, 100])
    elif how == 1:
        data["options"] = {f"o{i}": i for i in range(rng.choice([3, 60]))}
    elif how == 2:
        data["moves"][0]["action"] = {"kind": "x", "list": list(range(rng.choice([10, 500])))}
    else:
        return raw + b" " * (archive.MAX_BYTES + 1 - len(raw)) if rng.random() < 0.5 else raw * 3
    return json.dumps(data).encode()


def fields(raw: bytes, rng: random.Random) -> bytes:
    """The header's fields given other values: format, version, game, finished, seats' names."""
    data = _parsed(raw)
    if data is None:
        return raw
    field, values = rng.choice(
        [
            ("format", ["chess-pgn", None, 1]),
            ("version", [2, 0, True, "1", 1.0, None]),
            ("game", ["go", "", "test-highcard", "x" * 61]),
            ("game_name", ["<@1> **Go**", ""]),
            ("finished", [True, "no"]),
            ("position", ["sha256:" + "0" * 64, "md5:1"]),
            ("options", [{"rounds": 10**18}, {"rounds": "Infinity"}, {"no_such": 1}, [], {"x": [[[]]]}]),
        ]
    )
    data[field] = rng.choice(values)
    if rng.random() < 0.3 and isinstance(data.get("seats"), list) and data["seats"]:
        data["seats"][0]["name"] = rng.choice(["", "x" * 101, "<@1>\n**b**", " "])
        data["seats"][-1]["computer"] = rng.random() < 0.5
    return json.dumps(data).encode()


MUTATIONS: list[Mutation] = [
    truncate,
    flip_bits,
    splice,
    _moves_edit(_swap),
    _moves_edit(_swap_actions),
    _moves_edit(_reseat),
    _moves_edit(_drop),
    _moves_edit(_double),
    _moves_edit(_flood),
    huge_number,
    huge_seed,
    huge_string,
    deep_value,
    wrong_type,
    keys,
    characters,
    sizes,
    fields,
]


# ---- importing them -------------------------------------------------------------------------------
class Importer:
    """`/game import` at the app level: each file into a channel of its own, on a real store."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.channel = 1000
        self.outcomes: Counter[str] = Counter()
        self.failures: list[str] = []

    async def run(self, raw: bytes, label: str) -> None:
        self.channel += 1
        try:
            await self.service.import_game(
                guild_id=1, channel_id=self.channel, user_id=7, name="Importer", raw=raw
            )
        except UserError as refusal:
            kind = sentence_kind(refusal.message)
            if kind is None:
                self.failures.append(f"{label}: not one of the sentences: {refusal.message[:300]!r}")
            elif await self.service.store.open_game_in(self.channel) is not None:
                self.failures.append(f"{label}: refused ({kind}) but a lobby was created")
            self.outcomes[kind or "unknown sentence"] += 1
            return
        except Exception as error:  # noqa: BLE001 - the very thing under test: nothing else escapes
            self.failures.append(f"{label}: {type(error).__name__}: {str(error)[:200]}")
            self.outcomes["exception"] += 1
            return
        assert await self.service.store.open_game_in(self.channel) is not None
        self.outcomes["accepted (still a good save)"] += 1


@pytest.fixture
async def importer(tmp_path: Path):
    store = await Store.open(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        yield Importer(GameService(store))
    finally:
        await store.close()


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


async def test_thousands_of_mutated_exports_each_get_one_sentence_and_create_nothing(
    importer: Importer, originals: list[bytes], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    rng = random.Random(37)
    tried: Counter[str] = Counter()
    for original in originals:  # the unmutated files import: the mutations start from good saves
        await importer.run(original, "original")
    assert importer.outcomes == {"accepted (still a good save)": len(originals)}, importer.failures
    for number in range(FILES):
        mutation = MUTATIONS[number % len(MUTATIONS)]
        original = rng.choice(originals)
        raw = mutation(original, rng)
        if rng.random() < 0.15 and raw.strip():  # now and then a second mutation on top of the first
            with contextlib.suppress(TypeError, KeyError, IndexError, AttributeError, ValueError):
                raw = rng.choice(MUTATIONS)(raw, rng)  # unless the first left nothing it can edit
        tried[mutation.__name__] += 1
        await importer.run(raw, f"#{number} {mutation.__name__}")
    games = await importer.service.store.list_games(limit=100_000)
    accepted = importer.outcomes["accepted (still a good save)"]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and "broke its replay" in r.message]
    print(f"\nhostile files: {FILES + len(originals)} imported ({len(originals)} originals, {FILES} mutated)")
    print("  mutations: " + ", ".join(f"{name} {count}" for name, count in sorted(tried.items())))
    print("  outcomes: " + ", ".join(f"{kind} {count}" for kind, count in importer.outcomes.most_common()))
    print(f"  lobbies created: {len(games)} (= accepted); ERROR lines: {len(_errors(caplog))}")
    print(f"  replays the rules broke on (told as a sentence, logged as a warning): {len(warnings)}")
    assert not importer.failures, "\n".join(importer.failures[:20])
    assert len(games) == accepted
    assert not _errors(caplog), _errors(caplog)[:5]
    assert set(importer.outcomes) - {"accepted (still a good save)"} >= {
        "too big",
        "not JSON",
        "damaged",
        "does not replay",
        "other position",
    }


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
async def test_any_json_anywhere_in_a_save_gets_one_sentence(
    importer: Importer, originals: list[bytes], caplog: pytest.LogCaptureFixture, data: st.DataObject
) -> None:
    """Hypothesis puts any JSON value at any place of a real save (a field, a move, inside an action),
    or makes the whole file one."""
    caplog.set_level(logging.WARNING)
    original = json.loads(data.draw(st.sampled_from(originals)))
    value = data.draw(JSON)
    place = data.draw(st.sampled_from(["root", "field", "move", "action", "seat"]))
    if place == "root":
        document = value
    else:
        document = original
        if place == "field":
            document[data.draw(st.sampled_from(sorted(original)))] = value
        elif place == "seat":
            document["seats"][0][data.draw(st.sampled_from(["name", "computer", "new"]))] = value
        else:
            move = original["moves"][data.draw(st.integers(0, len(original["moves"]) - 1))]
            if place == "move" or not isinstance(move["action"], dict):
                move[data.draw(st.sampled_from(["seat", "action", "new"]))] = value
            else:
                move["action"][data.draw(st.sampled_from([*sorted(move["action"]), "new"]))] = value
    before = importer.outcomes.total()
    await importer.run(json.dumps(document).encode(), f"{place} = {value!r:.80}")
    assert importer.outcomes.total() == before + 1
    assert not importer.failures, importer.failures
    assert not _errors(caplog), _errors(caplog)[:5]
