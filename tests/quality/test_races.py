"""Races: concurrent clicks and commands on one game, and two bot processes on one SQLite file.

Of every conflicting pair exactly one applies; the other is refused with a sentence and changes
nothing. The two bots are two `HostBot`s in this process with their own store connections (so
only the database's version check and unique interaction ids keep them apart), connected to the
emulator at once (`Gateway.routing`).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path

from bot.config import Settings
from bot.emulator.driver import InteractionResult, UserSession
from bot.emulator.server import FakeDiscord
from bot.emulator.testing import run_bot, stop_bot
from bot.interface.client import HostBot
from tests.e2e.harness import World, world
from tests.quality.support import handoffs, move_options, open_menu, turn_messages


def applied(result: InteractionResult) -> bool:
    return result.answer.startswith("✅")


def refused(result: InteractionResult) -> bool:
    return result.answer.startswith("⚠️") and result.ephemeral


async def menu_of(server: FakeDiscord, channel: int, user: UserSession) -> InteractionResult:
    menu = await open_menu(user, turn_messages(server, channel)[-1])
    assert menu is not None and menu.message is not None, f"{user.name} has no move to make"
    return menu


def button(menu: InteractionResult, label_start: str) -> str:
    assert menu.message is not None
    return next(cid for label, cid, _ in menu.message.buttons() if (label or "").startswith(label_start))


async def pledge_round(server: FakeDiscord, channel: int, users: list[UserSession]) -> None:
    for user in users:
        menu = await menu_of(server, channel, user)
        assert applied(await user.click(menu.message.id, move_options(menu.message)[0][0]))


async def test_concurrent_clicks_and_commands_on_one_game(tmp_path: Path) -> None:
    async with world(tmp_path, users=("alice", "bob", "carol", "dave")) as w:
        alice, bob, carol, dave = (w.users[n] for n in ("alice", "bob", "carol", "dave"))
        table = w.channels["table"]
        await alice.slash(table, "game new", game="test-highcard", seed=3)
        await asyncio.gather(bob.slash(table, "game join"), carol.slash(table, "game join"))
        await alice.slash(table, "game start")
        await w.settle()
        store = w.bot.service.store
        game = await store.latest_game_in(table)

        # A simultaneous step: each seat pledges once, however many clicks and commands race.
        menus = {user.name: await menu_of(w.server, table, user) for user in (alice, bob, carol)}
        state = await w.bot.service.state(game)
        a_menu, b_menu = menus["alice"], menus["bob"]
        a_ids = [cid for cid, _ in move_options(a_menu.message)]
        results = await asyncio.gather(
            alice.click(a_menu.message.id, a_ids[0]),
            alice.click(a_menu.message.id, a_ids[1]),
            alice.slash(table, "play", move=f"Pledge {state.hands[0][2]}"),
            bob.click(b_menu.message.id, move_options(b_menu.message)[0][0]),
            bob.click(b_menu.message.id, move_options(b_menu.message)[0][0]),
            dave.slash(table, "play", move="Pledge 1"),
        )
        assert sum(applied(r) for r in results[:3]) == 1, [r.answer for r in results[:3]]
        assert sum(applied(r) for r in results[3:5]) == 1, [r.answer for r in results[3:5]]
        assert refused(results[5]) and "not playing" in results[5].content
        assert all(applied(r) or refused(r) for r in results)
        log = await store.actions(game.id)
        assert sorted(r.seat for r in log) == [0, 1]

        # carol's pledge reveals; then a sequential step: alice draws or passes, exactly once.
        await pledge_round(w.server, table, [carol])
        await w.settle()
        menu = await menu_of(w.server, table, alice)
        version = (await store.game(game.id)).version
        results = await asyncio.gather(
            alice.click(menu.message.id, button(menu, "Draw")),
            alice.click(menu.message.id, button(menu, "Pass")),
            alice.slash(table, "play", move="Pass"),
            bob.slash(table, "play", move="Draw a card"),
            carol.click(turn_messages(w.server, table)[-1].id, f"g:{game.id}:menu"),
        )
        assert sum(applied(r) for r in results[:3]) == 1, [r.answer for r in results]
        assert all(refused(r) for r in results[3:]), [r.answer for r in results[3:]]
        assert (await store.game(game.id)).version == version + 1
        await w.settle()
        assert not w.server.errors, w.server.errors


async def test_lobby_races_seat_exactly_the_table(tmp_path: Path) -> None:
    names = ("alice", "bob", "carol", "dave", "erin", "frank", "gina")
    async with world(tmp_path, users=names) as w:
        table = w.channels["table"]
        users = [w.users[n] for n in names]
        # Two /game new at once in one channel: one lobby.
        opened = await asyncio.gather(
            users[0].slash(table, "game new", game="test-highcard"),
            users[1].slash(table, "game new", game="test-highcard"),
        )
        assert sorted(r.ephemeral for r in opened) == [False, True], [r.answer for r in opened]
        game = await w.bot.service.store.open_game_in(table)
        # Six players race for the four free seats of a five-seat table.
        joins = await asyncio.gather(*(u.slash(table, "game join") for u in users if u.id != game.host_id))
        assert sum(not r.ephemeral for r in joins) == 4, [r.answer for r in joins]
        seats = await w.bot.service.store.seats(game.id)
        assert [s.seat for s in seats] == [0, 1, 2, 3, 4] and len({s.user_id for s in seats}) == 5
        await w.settle()
        assert not w.server.errors, w.server.errors


async def start_bots(
    server: FakeDiscord, database_url: str, count: int = 2
) -> list[tuple[HostBot, asyncio.Task[None]]]:
    """`count` HostBots on one database, started together as N workers would be, all connected."""

    async def one() -> tuple[HostBot, asyncio.Task[None]]:
        settings = Settings(
            discord_token="emulator-token",
            database_url=database_url,
            discord_api_base=server.api_base,
            render_processes=0,
            _env_file=None,
        )
        bot = HostBot(settings, guild_ready_timeout=0.1)
        return bot, await run_bot(bot, server)

    started = await asyncio.gather(*(one() for _ in range(count)), return_exceptions=True)
    failed = [outcome for outcome in started if isinstance(outcome, BaseException)]
    if failed:
        await stop_bots([outcome for outcome in started if not isinstance(outcome, BaseException)])
        raise failed[0]
    return list(started)  # type: ignore[arg-type]


async def stop_bots(bots: list[tuple[HostBot, asyncio.Task[None]]]) -> None:
    for bot, task in bots:
        await bot.table.drain()
        await stop_bot(bot, task)


@contextlib.asynccontextmanager
async def two_bots(tmp_path: Path, database_url: str | None = None):
    """One emulator, two HostBots on one database (a SQLite file unless given), both connected;
    interactions alternate between them."""
    server = FakeDiscord()
    await server.start()
    server.gateway.routing = "round_robin"
    guild = server.add_guild("Two bots")
    table = server.add_channel(guild, "table")
    users = {n: server.user(server.add_user(n)) for n in ("alice", "bob", "carol")}
    bots: list[tuple[HostBot, asyncio.Task[None]]] = []
    try:
        bots = await start_bots(server, database_url or f"sqlite:///{tmp_path / 'games.db'}")
        assert len(server.gateway.connected_sessions()) == 2
        w = World(
            server=server,
            db_path=tmp_path / "games.db",
            guild=guild,
            channels={"table": table},
            users=users,
            database_url=database_url,
        )
        w.bot = bots[0][0]
        yield w, bots
    finally:
        await stop_bots(bots)
        await server.stop()


async def settle_all(server: FakeDiscord, bots: list[HostBot]) -> None:
    await server.settle()
    for bot in bots:
        await bot.table.drain()
    await server.settle()


async def test_two_bot_processes_on_one_database_apply_each_conflict_once(
    tmp_path: Path, store_url: str
) -> None:
    async with two_bots(tmp_path, store_url) as (w, started):
        bots = [bot for bot, _ in started]
        server, table = w.server, w.channels["table"]
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        # The lobby is served by both processes in turn; racing joins still seat each user once.
        assert not (await alice.slash(table, "game new", game="test-highcard", seed=5)).ephemeral
        joins = await asyncio.gather(bob.slash(table, "game join"), bob.slash(table, "game join"))
        assert sorted(r.ephemeral for r in joins) == [False, True], [r.answer for r in joins]
        assert not (await carol.slash(table, "game join")).ephemeral
        assert "has started" in (await alice.slash(table, "game start")).content
        await settle_all(server, bots)
        store = bots[0].service.store
        game = await store.latest_game_in(table)

        async def conflicting(user: UserSession) -> None:
            """The same seat picks two different moves at once; one goes to each process."""
            menu = await menu_of(server, table, user)
            options = [cid for cid, _ in move_options(menu.message)]
            version = (await store.game(game.id)).version
            first, second = await asyncio.gather(
                user.click(menu.message.id, options[0]), user.click(menu.message.id, options[-1])
            )
            assert applied(first) != applied(second), (first.answer, second.answer)
            assert refused(first) or refused(second)
            assert (await store.game(game.id)).version == version + 1
            await settle_all(server, bots)

        for user in (alice, bob, carol):  # pledges: the simultaneous step
            await conflicting(user)
        for user in (alice, bob, carol):  # draw or pass: the sequential step
            await conflicting(user)

        # Now one interaction delivered to both processes (a duplicated delivery): applied once.
        server.gateway.routing = "all"
        menu = await menu_of(server, table, alice)
        version = (await store.game(game.id)).version
        result = await alice.click(menu.message.id, move_options(menu.message)[0][0])
        await settle_all(server, bots)
        log = await store.actions(game.id)
        assert [r.interaction_id for r in log].count(result.record.id) == 1
        assert (await store.game(game.id)).version == version + 1
        # Both processes answered; Discord takes the first callback and refuses the second (40060).
        assert all("40060" in e for e in server.errors), server.errors
        server.errors.clear()

        states = await bots[1].service.replay(await store.game(game.id))
        assert states[-1].model_dump_json() == (await store.game(game.id)).state
        posted = [
            int(found.group(1))
            for m in turn_messages(server, table)
            if (found := re.search(r"· move (\d+)", m.content))
        ]
        owed, _ = await handoffs(bots[1].service, await store.game(game.id))
        assert len(posted) == len(set(posted)), "a move was announced twice"
        assert set(owed) - {0} == set(posted), "each handoff is posted once, by one process"


async def test_workers_restarting_together_post_a_lost_announcement_once(
    tmp_path: Path, store_url: str, monkeypatch
) -> None:
    """Both workers die between a move's commit and its post; both restart at once and both look for
    moves owed an announcement: the move is posted exactly once."""
    async with two_bots(tmp_path, store_url) as (w, started):
        server, table = w.server, w.channels["table"]
        alice, bob = w.users["alice"], w.users["bob"]
        assert not (await alice.slash(table, "game new", game="test-highcard", seed=5)).ephemeral
        assert not (await bob.slash(table, "game join")).ephemeral
        assert "has started" in (await alice.slash(table, "game start")).content
        await settle_all(server, [bot for bot, _ in started])

        async def died_holding_the_claim(queue):
            return None  # claimed, never sent, never released: what a SIGKILL leaves

        for bot, _ in started:
            monkeypatch.setattr(bot.courier, "_deliver_game", died_holding_the_claim)
        # alice and bob pledge: bob's pledge reveals both and hands the game on, a new post is owed
        for user in (alice, bob):
            menu = await menu_of(server, table, user)
            assert applied(await user.click(menu.message.id, move_options(menu.message)[0][0]))
        await server.settle()
        posted = len(turn_messages(server, table))

        async def no_drain() -> None:
            return None  # a killed worker flushes nothing (a graceful close would wait for the outbox)

        for bot, task in started:  # killed: the claim stays behind
            monkeypatch.setattr(bot.table, "drain", no_drain)
            await stop_bot(bot, task)
        started.clear()

        started += await start_bots(server, store_url)
        await settle_all(server, [bot for bot, _ in started])
        turns = turn_messages(server, table)
        assert len(turns) == posted + 1, [m.content for m in turns[posted:]]
        assert "move 2" in turns[-1].content and "alice pledged a card." in turns[-1].content
        versions = len(server.message_versions)
        await settle_all(server, [bot for bot, _ in started])
        assert len(server.message_versions) == versions  # nothing was sent twice
        assert not server.errors, server.errors
