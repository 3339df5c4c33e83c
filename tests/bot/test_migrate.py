"""`python -m bot migrate`: every game is copied to the other database and proven by replaying it.

Source games are played through the GameService (real moves, an undo, finished, running, abandoned
and lobby games); the target is each backend in turn (`store_url`).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from bot.__main__ import _migrate
from bot.app.service import UNDO, GameService
from bot.migrate import MigrationRefused, migrate, replay_problem
from bot.storage.store import GameStatus, Store

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB = 100, 200


async def _play(service: GameService, game_id: int, rng: random.Random, moves: int | None) -> None:
    """Random legal moves until the game ends (or `moves` were made)."""
    made = 0
    while moves is None or made < moves:
        game = await service.store.game(game_id)
        if game.status != GameStatus.ACTIVE:
            return
        seat = min(await service.to_act(game))
        choices = await service.choices(game, seat)
        await service.play(game_id, (ALICE, BOB)[seat], key=rng.choice(choices).key)
        made += 1


async def fill(url: str, count: int = 10, kind: str = "test-highcard", options: dict | None = None) -> Store:
    """`count` games in every state, plus the tables beside them; returns the open store."""
    store = await Store.open(url)
    service = GameService(store)
    for number in range(count):
        channel = 1000 + number
        game = await service.new_game(
            kind=kind, guild_id=1, channel_id=channel, user_id=ALICE, name="alice",
            options=options or {"rounds": 2}, seed=number + 1,
        )  # fmt: skip
        await service.join(channel, BOB, "bob")
        shape = number % 5
        if shape == 3:
            continue  # stays in its lobby
        await service.start(channel, ALICE)
        rng = random.Random(number)
        if number == 0:  # a taken-back move is in the log as an undo entry
            await _play(service, game.id, rng, 1)
            _, plan, _ = await service.undo_request(channel, ALICE)
            assert (await service.undo_vote(game.id, BOB, plan.last_version, True))[0] == "done"
        await _play(service, game.id, rng, 3 if shape in (2, 4) else None)
        if shape == 4:
            await service.abandon(channel, ALICE, is_admin=True)
        await store.set_follower(game.id, BOB, "dm")
        await store.remember_message(game.id, "turn", channel, 9_000_000_000_000 + number, 1)
    await store.set_player(ALICE, 22, 7, 60)
    await store.set_guild_settings(1, {"reminder_hours": 12})
    await store.set_setting("commands:1:global", "abc")
    return store


async def test_every_game_is_copied_and_replays(tmp_path, store_url):
    source_url = f"sqlite:///{tmp_path / 'source.db'}"
    source = await fill(source_url)
    report = await migrate(source_url, store_url, say=lambda _: None)
    assert report.ok, report.problems
    assert report.copied["games"] == 10 and report.replayed == 8
    assert report.copied["actions"] > 20 and report.copied["followers"] == 8 and report.copied["players"] == 1

    target = await Store.open(store_url)
    try:
        statuses = []
        for game_id in await source.game_ids():
            original, copy = await source.game(game_id), await target.game(game_id)
            assert copy == original
            assert await target.actions(game_id) == await source.actions(game_id)
            assert await target.seats(game_id) == await source.seats(game_id)
            assert await target.timers(game_id) == await source.timers(game_id)
            statuses.append(copy.status)
        assert {GameStatus.FINISHED, GameStatus.ACTIVE, GameStatus.LOBBY, GameStatus.ABANDONED} <= set(
            statuses
        )
        assert any(record.action.get("kind") == UNDO for record in await target.actions(1))
        assert await target.player(ALICE) == await source.player(ALICE)
        assert await target.get_setting("commands:1:global") == "abc"
        # New games continue after the copied ids.
        fresh = await target.create_game(
            kind="test-highcard", guild_id=1, channel_id=5, host_id=ALICE, host_name="a", options={}, seed=1
        )
        assert fresh.id == 11
    finally:
        await target.close()
        await source.close()


async def test_a_game_that_does_not_replay_is_reported_and_the_exit_code_says_so(tmp_path, store_url, capsys):
    source_url = f"sqlite:///{tmp_path / 'source.db'}"
    source = await fill(source_url, count=3)
    # Game 1: its snapshot was edited behind the log's back. Game 2: a logged move was forged.
    first = await source.game(1)
    state = json.loads(first.state)
    state["round"] = state.get("round", 0) + 5
    await source._db.execute("UPDATE games SET state = ? WHERE id = 1", (json.dumps(state),))
    await source._db.execute(
        "UPDATE actions SET action = ? WHERE game_id = 2 AND version = 1", (json.dumps({"kind": "forged"}),)
    )
    await source.close()

    assert await _migrate(source_url, store_url) == 1
    out = capsys.readouterr().out
    assert "2 problems:" in out
    assert "game #1 (test-highcard, finished): the replayed state differs from the stored snapshot" in out
    assert "game #2 (test-highcard, finished): the action log does not replay" in out
    assert "game #3" not in out


async def test_a_target_with_games_is_refused_untouched(tmp_path, store_url, capsys):
    source_url = f"sqlite:///{tmp_path / 'source.db'}"
    await (await fill(source_url, count=2)).close()
    await (await fill(store_url, count=1)).close()
    assert await _migrate(source_url, store_url) == 2
    assert "Nothing was copied" in capsys.readouterr().err
    target = await Store.open(store_url)
    assert await target.game_ids() == [1]
    await target.close()
    try:
        await migrate(source_url, source_url)
    except MigrationRefused as refused:
        assert "same database" in str(refused)
    else:
        raise AssertionError("copying a database onto itself was not refused")


async def test_the_command_line_copies_a_real_game(tmp_path, store_url):
    """The installed command, in a process of its own with only the real games registered."""
    source_url = f"sqlite:///{tmp_path / 'source.db'}"
    await (await fill(source_url, count=3, kind="iron-bridge-gorge", options={"rounds": 1})).close()
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot", "migrate", "--from", source_url, "--to", store_url],
        cwd=tmp_path,
        env={**environment, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 started games replayed" in done.stdout and "every game was copied and checked" in done.stdout
    assert "Traceback" not in done.stderr


BEFORE_41 = ROOT / "tests" / "rules" / "iron_and_brass" / "before_issue_41"


async def _stored_before_issue_41(url: str) -> Store:
    """Two Iron & Brass games as the database held them before issue 41: their logs, their snapshots with
    each side's tokens left of each kind of the 2-of-each mix, the finished one's result."""
    store = await Store.open(url)
    for channel, name in enumerate(("finished-seed-13", "in-progress-seed-13"), start=2000):
        saved = json.loads((BEFORE_41 / f"{name}.json").read_text(encoding="utf-8"))
        record = await store.create_game(
            kind="iron-and-brass", guild_id=1, channel_id=channel, host_id=ALICE, host_name="Ada",
            options=saved["options"], seed=saved["seed"],
        )  # fmt: skip
        moves = [(move["seat"], move["action"], []) for move in saved["moves"]]
        state = (BEFORE_41 / f"{name}.state.json").read_text(encoding="utf-8").rstrip("\n")
        seats = [(ALICE, "Ada"), (BOB, "Brunel")]
        assert await store.start_imported(record.id, seats=seats, moves=moves, state=state)
        if saved["finished"]:
            result = (BEFORE_41 / f"{name}.result.json").read_text(encoding="utf-8").rstrip("\n")
            assert await store.set_status(record.id, GameStatus.FINISHED, result=result)
    return store


async def test_iron_and_brass_games_stored_before_issue_41_replay_and_go_on(tmp_path, store_url):
    """The audit replays the old logs (the old rule's unasked Surge answers made by the replay) to the
    stored snapshots as they were written ("each of these tokens may be used ... for any 1 of the
    actions listed on the token" changed the state's shape, not the games), and the game in progress
    goes on under the new rule: its next move is stored in today's shape, and its log still replays."""
    source_url = f"sqlite:///{tmp_path / 'source.db'}"
    await (await _stored_before_issue_41(source_url)).close()
    report = await migrate(source_url, store_url, say=lambda _: None)
    assert report.ok, report.problems
    assert report.replayed == 2
    target = await Store.open(store_url)
    try:
        service = GameService(target)
        game = await target.open_game_in(2001)
        assert game is not None and '"tokens":{' in game.state
        seat = min(await service.to_act(game))
        await service.play(game.id, (ALICE, BOB)[seat], key="end")
        game = await target.game(game.id)
        assert '"advantage_tokens":' in game.state and '"tokens":{' not in game.state
        assert await replay_problem(service, game) is None
        assert len(await service.replay(game)) == 182
        # Ada hires a crew and takes it back: the undo replays the whole log, old moves included.
        before = game.state
        await service.play(game.id, ALICE, key="hire")
        _, plan, others = await service.undo_request(2001, ALICE)
        assert others == []  # her own turn in progress: taken back at once, nobody asked
        await service.undo_alone(2001, ALICE)
        game = await target.game(game.id)
        assert json.loads(game.state) == json.loads(before)
    finally:
        await target.close()
