"""The platform's figures: SQLite commit per move, and interaction latency through the emulator.

The latency is measured from the moment the emulator dispatches INTERACTION_CREATE to the moment it
receives the bot's first callback, with many channels playing at once. The bot is a real `python -m
bot` subprocess; the emulator and the simulated users share the bench's process, whose own work is in
the figures too (they are upper bounds for the bot).
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.baseline import CURRENT, Checkout, short
from bench.bot_process import BotProcess
from bench.machine import percentile, summary
from bot.emulator.driver import InteractionFailed, UserSession
from bot.emulator.model import StoredMessage
from bot.emulator.server import FakeDiscord
from bot.storage.store import Store
from tests.quality.support import choose, move_options


async def sqlite_commits(moves: int = 500) -> None:
    with tempfile.TemporaryDirectory() as folder:
        durations = await _commits(str(Path(folder) / "bench.db"), moves)
    print(f"\nSQLite commit per move (20 KB snapshot, WAL)\n  commit         {summary(durations)}")


async def postgres_commits(url: str, moves: int = 500, workers: int = 4) -> None:
    """The same commit on PostgreSQL (an empty database at `url`), alone and with `workers` stores
    (as many processes' pools) committing to their own games at once."""
    durations = await _commits(url, moves)
    print(f"\nPostgreSQL commit per move (20 KB snapshot)\n  commit         {summary(durations)}")
    stores = [await Store.open(url) for _ in range(workers)]
    start = time.perf_counter()
    results = await asyncio.gather(*(_commits_on(store, moves // workers) for store in stores))
    elapsed = time.perf_counter() - start
    for store in stores:
        await store.close()
    together = [duration for batch in results for duration in batch]
    print(f"  {workers} stores at once {summary(together)}; {len(together) / elapsed:.0f} commits/s in total")


async def _commits(url: str, moves: int) -> list[float]:
    store = await Store.open(url)
    try:
        return await _commits_on(store, moves)
    finally:
        await store.close()


async def _commits_on(store: Store, moves: int) -> list[float]:
    game = await store.create_game(
        kind="bench", guild_id=1, channel_id=random.randrange(1, 2**62), host_id=1, host_name="a",
        options={}, seed=1,
    )  # fmt: skip
    await store.start_game(game.id, "{}")
    game = await store.game(game.id)
    state = '{"board": "' + "x" * 20_000 + '"}'  # a realistic snapshot size (20 KB)
    durations = []
    for index in range(moves):
        start = time.perf_counter()
        version = await store.commit_move(
            game,
            seat=0,
            user_id=1,
            action={"kind": "x", "i": index},
            events=[{"text": "moved"}],
            state=state,
            interaction_id=random.randrange(1, 2**62),
        )
        durations.append((time.perf_counter() - start) * 1000)
        game = game.model_copy(update={"version": version})
    return durations


TURN_BUTTONS = (":menu", ":board", ":log")


def is_turn_message(message: StoredMessage) -> bool:
    """A game's public turn message: a channel message (not a DM, not ephemeral) under the turn
    buttons (Take my turn, Board, Log; a finished game's keeps Board and Log)."""
    return (
        message.ephemeral_for is None
        and message.guild_id is not None
        and any((cid or "").endswith(TURN_BUTTONS) for _, cid, _ in message.buttons())
    )


class TurnWatcher:
    """The latest turn message of each channel, from the emulator's message log (read incrementally),
    and when each channel's turn message last *changed*.

    A change is a new turn message, or an edit of one whose content or pictures differ from its
    previous version: a bot that posts a new message per move and one that edits a live post in place
    are measured alike. `changes[channel]` counts them; `changed_at[channel]` holds the monotonic time
    each was seen (polled every 5 ms) and whether it brought a new picture."""

    def __init__(self, server: FakeDiscord) -> None:
        self.server = server
        self.latest: dict[int, StoredMessage] = {}
        self.changes: dict[int, int] = {}
        self.changed_at: dict[int, list[tuple[float, bool]]] = {}
        self._last: dict[int, tuple[str, tuple[int, ...]]] = {}
        self._read = 0
        self._task = asyncio.create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            self.read()
            await asyncio.sleep(0.005)

    def read(self) -> None:
        """Take in the message versions stored since the last look."""
        versions = self.server.message_versions
        now = time.monotonic()
        for message in versions[self._read :]:
            if not is_turn_message(message):
                continue
            channel = message.channel_id
            if any((cid or "").endswith(":menu") for _, cid, _ in message.buttons()):
                known = self.latest.get(channel)
                if known is None or message.id >= known.id:
                    self.latest[channel] = message
            pictures = tuple(attachment.id for attachment in message.attachments)
            before = self._last.get(message.id)
            self._last[message.id] = (message.content, pictures)
            if before is not None and before == (message.content, pictures):
                continue  # an edit that shows nothing new (buttons only)
            new_picture = bool(set(pictures) - set(before[1] if before else ()))
            self.changes[channel] = self.changes.get(channel, 0) + 1
            self.changed_at.setdefault(channel, []).append((now, new_picture))
        self._read = len(versions)

    async def wait_change(
        self,
        channel: int,
        seen: int,
        timeout: float = 60.0,  # noqa: ASYNC109 - how long to look, not a cancellation
    ) -> tuple[float, bool] | None:
        """Wait until the channel's turn message changed more than `seen` times; returns that change
        (when it was seen, whether it brought a picture), or None after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while self.changes.get(channel, 0) <= seen:
            if time.monotonic() > deadline:
                return None
            await asyncio.sleep(0.005)
        return self.changed_at[channel][seen]

    def stop(self) -> None:
        self._task.cancel()


def _options(message: StoredMessage) -> list[tuple[str, str | None]]:
    """The presses a menu offers (moves and groups, never Back): the tests' simulated player's."""
    return move_options(message)


async def press_a_move(user: UserSession, message: StoredMessage, rng: random.Random):  # noqa: ANN201
    """Press a random offer of `message`, opening groups as a player would (every move is reachable
    in three presses); the answer to the last press. The same player as the quality tests'."""
    return await choose(user, message, rng.choice(move_options(message)), rng)


async def _one_move(
    watcher: TurnWatcher,
    channel: int,
    users: list[UserSession],
    rng: random.Random,
    latencies: dict[str, list[float]],
) -> bool:
    turn = watcher.latest.get(channel)
    if turn is None or "Game over" in turn.content:
        return False
    menu_id = next(cid for _, cid, _ in turn.buttons() if cid and cid.endswith(":menu"))
    for user in rng.sample(users, len(users)):
        menu = await user.click(turn.id, menu_id)
        latencies["menu (Take my turn)"].append(menu.latency * 1000)
        options = _options(menu.message) if menu.message is not None else []
        if menu.answer.startswith("⚠️") or not options:
            continue
        started = time.perf_counter()
        seen = watcher.changes.get(channel, 0)
        result = await press_a_move(user, menu.message, rng)
        latencies["move (first response)"].append(result.latency * 1000)
        if result.answer.startswith("✅"):
            # up to 60 s: the turn message (a new one, or the live one edited) follows the rendering
            await watcher.wait_change(channel, seen, timeout=60.0)
            latencies["move + board posted"].append((time.perf_counter() - started) * 1000)
        return True
    return False


def fresh_latencies() -> dict[str, list[float]]:
    return {"menu (Take my turn)": [], "move (first response)": [], "move + board posted": []}


async def open_tables(
    server: FakeDiscord,
    watcher: TurnWatcher,
    channels: list[int],
    users: list[UserSession],
    game: str,
    *,
    timeout: float,  # noqa: ASYNC109 - how long the setup may take, not a cancellation
    players: int = 2,
    seeds: list[int] | None = None,
    computers: int = 0,
) -> float:
    """A game of `players` people in every channel (users players*i .. players*i+players-1, the first
    one hosting; seed i unless `seeds` says), with `computers` computer seats besides, 25 lobbies at a
    time, until every first board is posted; returns the seconds it took."""
    started = time.perf_counter()

    async def open_table(index: int) -> None:
        host, *guests = users[players * index : players * (index + 1)]
        seed = seeds[index] if seeds is not None else index
        extra = {"ai": computers} if computers else {}
        await host.slash(channels[index], "game new", game=game, seed=seed, **extra)
        for guest in guests:
            await guest.slash(channels[index], "game join")
        await host.slash(channels[index], "game start")

    for first in range(0, len(channels), 25):
        await asyncio.gather(*(open_table(i) for i in range(first, min(len(channels), first + 25))))
    while len(watcher.latest) < len(channels) and time.perf_counter() - started < timeout:  # noqa: ASYNC110
        await asyncio.sleep(0.1)
    await server.settle(quiet=0.5, timeout=timeout)
    return time.perf_counter() - started


async def interaction_latency(
    channels: int = 200,
    moves_per_channel: int = 5,
    game: str = "iron-bridge-gorge",
    render_processes: int = 1,
    *,
    rendering: bool = True,
    think: float = 20.0,
    checkout: Checkout = CURRENT,
) -> dict[str, Any]:
    """A `python -m bot` process (of `checkout`'s tree) serving `channels` games at once; every channel
    plays concurrently. Prints the figures and returns them for a before/after table."""
    with tempfile.TemporaryDirectory() as folder:
        server = FakeDiscord()
        await server.start()
        guild = server.add_guild("Bench")
        channel_ids = [server.add_channel(guild, f"t{i}") for i in range(channels)]
        users = [server.user(server.add_user(f"u{index}")) for index in range(channels * 2)]
        bot = BotProcess(
            server,
            Path(folder),
            Path(folder) / "bench.db",
            render_processes=render_processes,
            module="bot" if rendering else "bench.bot_no_render",
            source=checkout.source,
        )
        await bot.start()
        watcher = TurnWatcher(server)
        setup = await open_tables(server, watcher, channel_ids, users, game, timeout=600)
        latencies = fresh_latencies()
        unanswered: list[int] = []

        async def channel_loop(index: int, channel: int) -> None:
            rng = random.Random(index)
            table = [users[2 * index], users[2 * index + 1]]
            await asyncio.sleep(rng.uniform(0, think) if think else rng.random())
            for _ in range(moves_per_channel):
                try:
                    if not await _one_move(watcher, channel, table, rng, latencies):
                        return
                except InteractionFailed:  # not answered in 3 s: the users saw "interaction failed"
                    unanswered.append(channel)
                    return
                if (
                    think
                ):  # players think between moves: an open load of about channels / think moves a second
                    await asyncio.sleep(rng.expovariate(1 / think))

        start = time.perf_counter()
        await asyncio.gather(*(channel_loop(i, channel) for i, channel in enumerate(channel_ids)))
        elapsed = time.perf_counter() - start
        await server.settle(quiet=0.5, timeout=600)
        own, peak, children = bot.rss_mb()
        watcher.stop()
        bot.stop()
        await server.stop()
    print(
        f"\nInteraction to first response through the emulator: a `python -m bot` process serving"
        f" {channels} channels of {game} at once ({2 * channels} users; "
        + (f"render processes: {render_processes}" if rendering else "rendering stubbed: a tiny PNG per view")
        + (f"; a move every {think:g} s per channel on average)" if think else "; no pause: saturation)")
    )
    print(f"  checkout       {checkout.label}: {bot.describe_source()}")
    print(f"  setup          {setup:.0f} s for {channels} lobbies, joins, starts and first boards")
    for name, values in latencies.items():
        print(f"  {name:<22} {summary(values)}")
    moves = len(latencies["move (first response)"])
    drawn = "boards drawn and posted" if rendering else "pictures stubbed, messages posted"
    print(f"  throughput     {moves / elapsed:.1f} moves/s ({drawn})")
    print(f"  bot RSS        {own:.0f} MB (peak {peak:.0f} MB) + render workers {children:.0f} MB")
    problems = [e for e in server.errors if "not acknowledged" in e or "10062" in e]
    if unanswered:
        print(
            f"  unanswered     {len(unanswered)} interactions not answered within 3 s (that channel stopped)"
        )
    if problems:
        print(f"  late answers: {len(problems)}, e.g. {problems[0]}")
    move, posted = latencies["move (first response)"], latencies["move + board posted"]
    return {
        "checkout": checkout,
        "load": ("boards drawn" if rendering else "pictures stubbed")
        + (f", paced ({think:g} s)" if think else ", no pause (capacity)"),
        "rate": moves / elapsed,
        "move": (percentile(move, 0.5), percentile(move, 0.99)),
        "posted": (percentile(posted, 0.5), percentile(posted, 0.99)),
        "late": len(problems) + len(unanswered),
    }


def print_latency_comparison(rows: list[dict[str, Any]]) -> None:
    """The latency section's loads, each checkout on its own line: before and after in one table."""
    print("\nInteraction latency, before and after (same loads, same run)")
    print(
        f"  {'load':<40}{'checkout':<10}{'moves/s':>9}{'move p50':>10}{'p99 ms':>8}"
        f"{'posted p50':>12}{'p99 ms':>8}{'late':>6}"
    )
    for row in rows:
        print(
            f"  {row['load']:<40}{short(row['checkout']):<10}{row['rate']:>9.1f}{row['move'][0]:>10.0f}"
            f"{row['move'][1]:>8.0f}{row['posted'][0]:>12.0f}{row['posted'][1]:>8.0f}{row['late']:>6}"
        )
