"""Saving and replaying games through the real bot and the emulator (issue 21): `/game export` and
`/game replay`. The seed and log reveal every hidden card, so who gets a file is the point."""

from __future__ import annotations

import io
import json
import logging

import pytest
from PIL import Image

from bot.app import archive
from rules import registry
from tests.e2e.harness import is_over, open_game, play_out, take_turn, world

SAVE = "ironhost-test-highcard-1.json"


async def test_a_finished_game_is_saved_by_anyone_and_replays_to_its_position(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "dave")) as w:
        alice, bob, dave = w.users["alice"], w.users["bob"], w.users["dave"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], seed=7, options="rounds=2")
        await play_out(w, "table", [alice, bob], seed=3)
        assert is_over(w)
        saved = await dave.slash(table, "game export")  # a spectator
        assert saved.ephemeral and "💾" in saved.content
        ((name, data, _),) = saved.files
        assert name.startswith("ironhost-test-highcard-") and name.endswith(".json")
        loaded, rules = archive.read(data, registry.get)
        assert loaded.finished and [seat.name for seat in loaded.seats] == ["alice", "bob"]
        game = await w.bot.service.store.latest_game_in(table)
        final = archive.replay(rules, loaded)[-1]
        assert rules.dump_state(final) == game.state
        assert not w.server.errors, w.server.errors


async def test_a_game_in_progress_is_saved_only_when_every_player_agrees_and_only_to_them(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "dave")) as w:
        alice, bob, dave = w.users["alice"], w.users["bob"], w.users["dave"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], seed=7, options="rounds=3")
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        refused = await dave.slash(table, "game export")
        assert refused.ephemeral and "only by its players" in refused.content and not refused.files
        asked = await alice.slash(table, "game export")
        assert not asked.ephemeral and not asked.files and "Still to agree" in asked.content
        assert "bob" in asked.content and "alice" not in asked.content.split("Still to agree")[1]
        agreed = await bob.slash(table, "game export")
        assert agreed.ephemeral and agreed.files, "the last to agree gets the file, privately"
        again = await alice.slash(table, "game export")
        assert again.ephemeral and again.files and again.files[0][1] == agreed.files[0][1]
        loaded, rules = archive.read(agreed.files[0][1], registry.get)
        assert not loaded.finished and len(loaded.moves) == 1
        # a move ends the agreement: the file would now show a later position
        await take_turn(w, "table", bob, lambda c: c[0])
        await w.settle()
        later = await alice.slash(table, "game export")
        assert not later.files and "Still to agree" in later.content
        public = [m for m in w.public() if m.attachments]
        assert all(not a.filename.endswith(".json") for m in public for a in m.attachments)
        assert not w.server.errors, w.server.errors


async def test_a_replay_is_one_animated_picture_in_the_channel(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "dave")) as w:
        alice, bob, dave = w.users["alice"], w.users["bob"], w.users["dave"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], seed=7, options="rounds=2")
        await play_out(w, "table", [alice, bob], seed=3)
        shown = await alice.slash(table, "game replay")  # a player: to the channel
        assert not shown.ephemeral and "🎞️" in shown.content
        ((name, data, alt),) = shown.files
        assert name.endswith(".webp") and data[8:12] == b"WEBP" and len(data) <= 8 * 1024 * 1024
        with Image.open(io.BytesIO(data)) as image:
            assert image.n_frames >= 3
        assert "public board" in alt
        watched = await dave.slash(table, "game replay")  # a spectator: the same picture, to him only
        assert watched.ephemeral and "the game's players" in watched.content
        assert watched.files[0][1] == data
        nothing = await dave.slash(w.channels["other"], "game replay")
        assert nothing.ephemeral and "No game has been played in this channel yet." in nothing.content
        missing = await dave.slash(table, "game replay", game_id=999)
        assert missing.ephemeral and "no game #999" in missing.content
        assert not w.server.errors, w.server.errors


def test_the_file_is_readable_json_with_the_format_named():
    rules = registry.get("iron-bridge-gorge")
    state = rules.setup(["a", "b"], {}, 1)
    data = archive.export(
        rules,
        options={},
        seed=1,
        seats=[archive.ArchivedSeat(name="a"), archive.ArchivedSeat(name="b")],
        moves=[],
        state=state,
    )
    assert json.loads(data)["format"] == "ironhost-game"


async def _saved_in_progress(w, moves: int = 2) -> bytes:
    alice, bob = w.users["alice"], w.users["bob"]
    table = w.channels["table"]
    await open_game(w, "table", alice, [bob], seed=7, options="rounds=3")
    for number in range(moves):
        await take_turn(w, "table", [alice, bob][number % 2], lambda c: c[0])
        await w.settle()
    await alice.slash(table, "game export")
    saved = await bob.slash(table, "game export")
    return saved.files[0][1]


async def test_an_exported_game_is_imported_elsewhere_and_goes_on_from_the_same_position(tmp_path):
    """The round trip: export in one channel, import in another with other people, who map the seats;
    the game replays to the saved position (hash checked) and carries on with moves."""
    async with world(tmp_path, users=("alice", "bob", "carol", "dave")) as w:
        carol, dave = w.users["carol"], w.users["dave"]
        data = await _saved_in_progress(w)
        loaded, rules = archive.read(data, registry.get)
        other = w.channels["other"]
        opened = await carol.slash(other, "game import", file=(SAVE, data))
        assert not opened.ephemeral and "From a saved game, saved at move 2" in opened.content
        assert "1. alice →" in opened.content and "2. bob → free" in opened.content
        await dave.slash(other, "game join")
        placed = await carol.slash(other, "game seat", player=dave.id, saved_seat=1)
        assert "dave will play alice's seat" in placed.content
        started = await carol.slash(other, "game start")
        assert "has started with dave, carol" in started.content
        game = await w.bot.service.store.open_game_in(other)
        seats = await w.bot.service.store.seats(game.id)
        assert [(s.user_id, s.name) for s in seats] == [(dave.id, "dave"), (carol.id, "carol")]
        assert game.version == 2 and len(await w.bot.service.store.actions(game.id)) == 2
        replayed = archive.replay(rules, loaded, names=["dave", "carol"])[-1]
        assert game.state == rules.dump_state(replayed)
        await w.settle()
        assert any("Carried on from a saved game at move 2." in m.content for m in w.public("other"))
        await play_out(w, "other", [dave, carol], seed=2)
        assert is_over(w, "other")
        assert not w.server.errors, w.server.errors


async def test_an_import_lobby_fills_only_the_saved_seats_and_keeps_the_options(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "carol", "dave", "erin")) as w:
        carol, dave, erin = w.users["carol"], w.users["dave"], w.users["erin"]
        data = await _saved_in_progress(w)
        other = w.channels["other"]
        await carol.slash(other, "game import", file=(SAVE, data))
        early = await carol.slash(other, "game start")
        assert early.ephemeral and "2 player seats and 1 person has joined" in early.content
        await dave.slash(other, "game join")
        full = await erin.slash(other, "game join")
        assert full.ephemeral and "they are all taken" in full.content
        wrong = await dave.slash(other, "game seat", player=dave.id, saved_seat=1)
        assert wrong.ephemeral and "Only the host" in wrong.content
        game = await w.bot.service.store.open_game_in(other)
        from bot.app.refusals import UserError

        try:
            await w.bot.service.set_option(other, carol.id, "rounds", 5)
            raise AssertionError("options changed in an import lobby")
        except UserError as error:
            assert "keeps the options" in error.message
        assert (await w.bot.service.store.game(game.id)).options == game.options
        assert not w.server.errors, w.server.errors


def _edited(raw: bytes, **fields) -> bytes:
    return json.dumps({**json.loads(raw), **fields}).encode()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda raw: b"not json", "not JSON"),
        (lambda raw: raw.replace(b'"seed": 7', b'"seed": 8'), "does not replay here"),
        (lambda raw: _edited(raw, position="sha256:" + "0" * 64), "different position"),
        (lambda raw: raw.replace(b'"test-highcard"', b'"chess"'), "does not host"),
    ],
)
async def test_a_bad_file_is_refused_in_one_sentence_and_nothing_is_created(tmp_path, change, words):
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        carol = w.users["carol"]
        data = await _saved_in_progress(w)
        other = w.channels["other"]
        refused = await carol.slash(other, "game import", file=(SAVE, change(data)))
        assert refused.ephemeral and words in refused.content
        assert await w.bot.service.store.open_game_in(other) is None
        assert not w.server.errors, w.server.errors


HOSTILE = {
    "a seed beyond 64 bits": lambda raw: raw.replace(b'"seed": 7', b'"seed": ' + str(2**70).encode()),
    "a number of 5,000 digits": lambda raw: raw.replace(b'"seed": 7', b'"seed": ' + b"9" * 5000),
    "JSON nested deeper than the recursion limit": lambda raw: raw.replace(
        b'"options": {', b'"deep": ' + b"[" * 100_000 + b"]" * 100_000 + b', "options": {'
    ),
    "Infinity": lambda raw: raw.replace(b'"seed": 7', b'"seed": Infinity'),
    "cut short": lambda raw: raw[: len(raw) // 2],
    "a broken character": lambda raw: raw.replace(b'"alice"', b'"\\ud800 <@1> **x**"'),
}


async def test_hostile_files_get_one_sentence_through_discord_and_no_error(tmp_path, caplog):
    """The files the adversarial run found answered with the generic apology and an ERROR traceback
    (issue 37): each is now one ephemeral sentence, nothing is created, nothing is logged at ERROR."""
    caplog.set_level(logging.WARNING)
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        carol, other = w.users["carol"], w.channels["other"]
        data = await _saved_in_progress(w)
        for label, change in HOSTILE.items():
            refused = await carol.slash(other, "game import", file=(SAVE, change(data)))
            assert refused.ephemeral, label
            assert refused.content.startswith("⚠️ That ") and "\n" not in refused.content, (
                label,
                refused.content,
            )
            assert "Something went wrong" not in refused.content, label
            assert await w.bot.service.store.open_game_in(other) is None, label
        assert not w.server.errors, w.server.errors
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text[-2000:]


async def test_a_finished_game_cannot_be_carried_on(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        alice, bob, carol = w.users["alice"], w.users["bob"], w.users["carol"]
        await open_game(w, "table", alice, [bob], seed=7, options="rounds=1")
        await play_out(w, "table", [alice, bob], seed=3)
        data = (await carol.slash(w.channels["table"], "game export")).files[0][1]
        refused = await carol.slash(w.channels["other"], "game import", file=(SAVE, data))
        assert refused.ephemeral and "over" in refused.content
        assert await w.bot.service.store.open_game_in(w.channels["other"]) is None


GAME_OPTIONS = {"city-heroes": "turns=1", "iron-and-brass": "max_rounds=3"}


@pytest.mark.parametrize("kind", ["city-of-iron", "iron-bridge-gorge", "iron-and-brass", "city-heroes"])
async def test_every_game_round_trips_through_export_and_import(tmp_path, kind):
    """For each of the four games: a few moves through the buttons, everyone agrees to export, the file
    opens a lobby in another channel, and the started game stands where the saved one stood."""
    async with world(tmp_path, users=("alice", "bob", "carol", "dave")) as w:
        alice, bob, carol, dave = (w.users[name] for name in ("alice", "bob", "carol", "dave"))
        table, other = w.channels["table"], w.channels["other"]
        extra = {"options": GAME_OPTIONS[kind]} if kind in GAME_OPTIONS else {}
        await open_game(w, "table", alice, [bob], game=kind, seed=5, **extra)
        await play_out(w, "table", [alice, bob], seed=1, moves_wanted=6)
        await alice.slash(table, "game export")
        data = (await bob.slash(table, "game export")).files[0][1]
        original = await w.bot.service.store.open_game_in(table)
        await carol.slash(other, "game import", file=(f"ironhost-{kind}.json", data))
        await dave.slash(other, "game join")
        started = await carol.slash(other, "game start")
        assert not started.ephemeral, started.content
        copy = await w.bot.service.store.open_game_in(other)
        loaded, rules = archive.read(data, registry.get)
        assert copy.version == len(loaded.moves) == len(await w.bot.service.effective_moves(original))
        assert archive.position_hash(rules, rules.load_state(original.state)) == loaded.position
        assert copy.state == rules.dump_state(archive.replay(rules, loaded, names=["carol", "dave"])[-1])
        assert rules.to_act(rules.load_state(copy.state)) == rules.to_act(rules.load_state(original.state))
        await w.settle()
        assert not w.server.errors, w.server.errors
