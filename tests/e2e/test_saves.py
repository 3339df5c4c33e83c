"""Saving and replaying games through the real bot and the emulator (issue 21): `/game export` and
`/game replay`. The seed and log reveal every hidden card, so who gets a file is the point."""

from __future__ import annotations

import io
import json

from PIL import Image

from bot.app import archive
from rules import registry
from tests.e2e.harness import is_over, open_game, play_out, take_turn, world


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
        shown = await dave.slash(table, "game replay")
        assert not shown.ephemeral and "🎞️" in shown.content
        ((name, data, alt),) = shown.files
        assert name.endswith(".webp") and data[8:12] == b"WEBP" and len(data) <= 8 * 1024 * 1024
        with Image.open(io.BytesIO(data)) as image:
            assert image.n_frames >= 3
        assert "public board" in alt
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
