"""Posts per move, before and after: what a move costs the channel (posts, edits, pictures, DMs).

For each checkout (a baseline ref's tree, then the working tree; `bench/baseline.py`) one real
`python -m bot` process serves one table per game (`--posts-tables` for more): 3 players, 2 for
Iron & Brass, fixed seeds. The simulated players move in rounds: every table makes one move (a player
whose turn it is presses "Take my turn", or keeps using the menu their last move left open when their
turn continues, and picks uniformly at random, seeded, among the offered buttons and select options;
choices beyond the menu's 25-per-select are not offered, so not picked), then the bench waits for
each table's turn message to change (a new post or an edit) and for the bot to settle
(`FakeDiscord.settle`), so every move's delivery is complete before the next. A table whose game ends
starts a new one (next seed) and goes on until it made its moves.

Each checkout plays twice: tables of people only, then tables where one seat is a computer's (`ai:1`:
2 people and a computer, Iron & Brass one person against it; `--posts-computers` picks).

Counted from the emulator's message log (`message_versions`), for the moves only (lobbies, starts and
first boards excluded): public channel messages created by the bot, edits of public messages, pictures
newly attached to public messages (created or edited), the people pinged by the public messages (an
edit never pings), DMs sent, DM edits and DM pictures, and the *DMs without new private content*
(`bench/news.py`: a DM whose text lines are all lines the channel had shown or the player had been
shown privately, their move's confirmation included, or that has no text line), which must be 0.
Counted from the bot's database after the run, with the tree's own store and rules
(`bench/posts_replay.py`): moves applied (the computer's included), handoffs (moves after which the
set of seats to act changed), handoffs to a person (a person newly to act) and urgent moves.

Delivery delay: for each move, from the bot's answer to the move's interaction (its first callback)
to the turn message showing the move (the first new turn message or edit of one whose text or
pictures changed; polled every 5 ms), and to the first such change that brought a new picture.
Without faults for every checkout; with faults injected on POST/PATCH channel messages (503s, 429s,
responses dropped after the message was created) in a second pass, for the working tree only
(`--posts-faults both` for the baseline too), when the emulator has fault injection
(`FakeDiscord.faults`).

Pictures are stubbed by default (`bench/bot_no_render.py`: a tiny PNG per view, distinct views
distinct bytes): counts do not depend on drawing, and the delays are then the delivery's own;
`--posts-render` draws real boards (one render process).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.baseline import Checkout, short
from bench.bot_process import BotProcess
from bench.machine import percentile
from bench.news import direct_messages
from bench.platform_speed import TurnWatcher, _options, open_tables, press_a_move
from bot.emulator.driver import EmulatorUsageError, InteractionFailed, UserSession
from bot.emulator.model import DM, StoredMessage
from bot.emulator.server import FakeDiscord
from rules import registry

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = {"iron-and-brass": 2}
DEFAULT_PLAYERS = 3
#: How long the bench waits for a move's turn message to show, at most; and how long the bot may make
#: no request at all before the bench stops waiting (a move that shows nothing must not stall the run).
#: With faults the bot may be quiet longer: between its own retries.
VISIBLE_TIMEOUT = 20.0
IDLE = {False: 2.0, True: 8.0}
#: Faults on the bot's channel-message requests (public posts, edits and DMs), as (label, options).
FAULTS = (
    ("10% 503", {"status": 503, "probability": 0.10}),
    ("5% 429 retry_after 0.5 s", {"status": 429, "retry_after": 0.5, "probability": 0.05}),
    ("5% dropped after create", {"after_create": True, "drop": True, "probability": 0.05}),
)
MESSAGE_PATH = r".*/channels/\d+/messages(?:/\d+)?"


@dataclass
class Table:
    game: str
    channel: int
    users: list[UserSession]
    rng: random.Random
    seed: int
    computers: int = 0
    moves: int = 0
    restarts: int = 0
    failed: int = 0
    over: bool = False
    stuck: int = 0
    done: bool = False
    #: (the user, their ephemeral menu) when the last move left the same seat more choices
    continuation: tuple[UserSession, int] | None = None
    #: moves waiting for their delays: (turn changes seen before the move, answer time)
    pending: list[tuple[int, float]] = field(default_factory=list)
    visible: list[float] = field(default_factory=list)
    pictured: list[float] = field(default_factory=list)
    never: int = 0


@dataclass
class Pass:
    """One run of the load against one checkout, with or without faults."""

    checkout: Checkout
    faults: bool
    computers: bool = False
    source: str = ""
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    database: dict[str, dict[str, int]] = field(default_factory=dict)
    tables: list[Table] = field(default_factory=list)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    errors: int = 0


def _players(game: str) -> int:
    return PLAYERS.get(game, DEFAULT_PLAYERS)


def _games() -> list[str]:
    return sorted(game.info.id for game in registry.all_games() if game.info.id != "test")


# ---- the load ----------------------------------------------------------------------------------
async def _menu(server: FakeDiscord, watcher: TurnWatcher, table: Table) -> tuple[UserSession, Any] | None:
    """A player whose turn it is, with their menu (an ephemeral message); None when nobody has one."""
    if table.continuation is not None:
        user, message_id = table.continuation
        table.continuation = None
        message = server.world.messages.get(message_id)
        if message is not None and _options(message):
            return user, message
    turn = watcher.latest.get(table.channel)
    answers: list[str] = []
    if turn is not None:
        menu_id = next(cid for _, cid, _ in turn.buttons() if cid and cid.endswith(":menu"))
        for user in table.rng.sample(table.users, len(table.users)):
            try:
                menu = await user.click(turn.id, menu_id)
            except EmulatorUsageError:
                answers.append("the turn message has no Take my turn button: over")
                break
            except InteractionFailed:
                table.failed += 1
                continue
            if menu.message is not None and not menu.answer.startswith("⚠️") and _options(menu.message):
                return user, menu.message
            answers.append(menu.answer)
    if any("over" in answer.lower() for answer in answers):
        table.over = True
    else:
        table.stuck += 1
        table.done = table.stuck >= 5
    return None


async def _wait_visible(
    server: FakeDiscord, watcher: TurnWatcher, channel: int, seen: int, *, idle: float
) -> bool:
    """Until the channel's turn message changed more than `seen` times (True), the bot made no request
    for `idle` seconds, or VISIBLE_TIMEOUT passed (False)."""
    now = time.monotonic()
    deadline, requests, since = now + VISIBLE_TIMEOUT, len(server.requests), now
    while watcher.changes.get(channel, 0) <= seen:
        now = time.monotonic()
        if len(server.requests) != requests:
            requests, since = len(server.requests), now
        elif now - since >= idle or now > deadline:
            return False
        await asyncio.sleep(0.005)
    return True


async def _move(server: FakeDiscord, watcher: TurnWatcher, table: Table, *, idle: float) -> None:
    """One move at the table, then wait until its turn message shows it (or the bot stays idle)."""
    found = await _menu(server, watcher, table)
    if found is None:
        return
    user, menu = found
    seen = watcher.changes.get(table.channel, 0)
    try:
        result = await press_a_move(user, menu, table.rng)
    except InteractionFailed:
        table.failed += 1
        return
    if not result.answer.startswith("✅"):
        table.failed += 1
        return
    table.moves += 1
    table.stuck = 0
    answered = result.record.callback_mono or time.monotonic()
    table.pending.append((seen, answered))
    if result.message is not None and _options(result.message):
        table.continuation = (user, result.message.id)
    await _wait_visible(server, watcher, table.channel, seen, idle=idle)


def _resolve_delays(watcher: TurnWatcher, table: Table) -> None:
    """Each pending move's delays, from the turn changes between it and the table's next move (or the
    end of the round that made it); a move without any is counted as never shown."""
    if not table.pending:
        return
    changes = watcher.changed_at.get(table.channel, [])
    bounds = [seen for seen, _ in table.pending[1:]] + [len(changes)]
    for (seen, answered), until in zip(table.pending, bounds, strict=True):
        window = changes[seen:until]
        if not window:
            table.never += 1
        else:
            table.visible.append((window[0][0] - answered) * 1000)
            pictured = next((at for at, picture in window if picture), None)
            if pictured is not None:
                table.pictured.append((pictured - answered) * 1000)
    table.pending.clear()


async def _restart(server: FakeDiscord, watcher: TurnWatcher, table: Table) -> tuple[int, int]:
    """A finished table starts its next game (next seed); returns the message versions it made."""
    first = len(server.message_versions)
    table.seed += 1000
    table.restarts += 1
    table.over = False
    table.continuation = None
    host, *guests = table.users
    seen = watcher.changes.get(table.channel, 0)
    extra = {"ai": table.computers} if table.computers else {}
    result = await host.slash(table.channel, "game new", game=table.game, seed=table.seed, **extra)
    if result.answer.startswith("⚠️") or "already has a game" in result.answer:
        table.done = True  # the game was not over after all: stop this table rather than guess
        return first, len(server.message_versions)
    for guest in guests:
        await guest.slash(table.channel, "game join")
    await host.slash(table.channel, "game start")
    await watcher.wait_change(table.channel, seen, timeout=VISIBLE_TIMEOUT)
    await server.settle(quiet=0.3, timeout=60)
    return first, len(server.message_versions)


# ---- faults ------------------------------------------------------------------------------------
def _inject_faults(server: FakeDiscord) -> tuple[list[str], list[str]]:
    """Faults on POST/PATCH of channel messages, each rule seeded so a run replays; returns (what was
    added, what the emulator refused)."""
    faults = getattr(server, "faults", None)
    if faults is None:
        return [], ["this emulator has no fault injection (FakeDiscord.faults)"]
    added, refused = [], []
    for offset, method in enumerate(("POST", "PATCH")):
        for index, (label, options) in enumerate(FAULTS):
            try:
                faults.add(method=method, path=MESSAGE_PATH, seed=offset * 10 + index, **options)
            except (TypeError, ValueError) as problem:
                refused.append(f"{method} {label}: {problem}")
            else:
                added.append(f"{method} {label}")
    return added, refused


def _clear_faults(server: FakeDiscord) -> None:
    faults = getattr(server, "faults", None)
    for name in ("clear", "reset", "remove_all"):
        method = getattr(faults, name, None)
        if callable(method):
            method()
            return


# ---- counting ----------------------------------------------------------------------------------
COUNTS = ("posts", "edits", "images", "pings", "dms", "dm_edits", "dm_images", "stale_dms")


def _count(
    server: FakeDiscord,
    start: int,
    excluded: list[tuple[int, int, int]],
    table_of_channel: dict[int, Table],
    table_of_user: dict[int, Table],
) -> dict[str, dict[str, int]]:
    """Per game: the bot's public posts, edits and new pictures, DMs, DM edits and DM pictures, from
    the message versions stored since `start`, leaving out each restart's (channel, first, end)."""
    world = server.world
    per_game: dict[str, dict[str, int]] = {}
    previous: dict[int, StoredMessage] = {}
    stale = {
        told.message
        for told in direct_messages(server.message_versions, world.channels, server.bot_user_id)
        if told.stale
    }
    for index, message in enumerate(server.message_versions):
        before = previous.get(message.id)
        previous[message.id] = message
        if index < start or message.ephemeral_for is not None or message.author_id != server.bot_user_id:
            continue
        channel = world.channels[message.channel_id]
        dm = channel.type == DM
        table = table_of_user.get(channel.recipient_id) if dm else table_of_channel.get(message.channel_id)
        if table is None:
            continue
        if any(table.channel == where and first <= index < end for where, first, end in excluded):
            continue
        pictures = {attachment.id for attachment in message.attachments}
        new_pictures = len(
            pictures - {attachment.id for attachment in before.attachments} if before else pictures
        )
        counts = per_game.setdefault(table.game, dict.fromkeys(COUNTS, 0))
        prefix = "dm_" if dm else ""
        if before is None:
            counts["dms" if dm else "posts"] += 1
            if dm:
                counts["stale_dms"] += message.id in stale
            else:
                counts["pings"] += len(message.pinged_users)
        else:
            counts[f"{prefix}edits"] += 1
        counts[f"{prefix}images"] += new_pictures
    return per_game


def _database(source: Path, url: str) -> tuple[str, dict[str, dict[str, int]]]:
    """Moves, handoffs and urgent moves per game, read by the checkout's own code (a subprocess)."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(source), os.environ.get("PYTHONPATH")]))
    )
    script = str(ROOT / "bench" / "posts_replay.py")
    runner = "import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"
    with tempfile.TemporaryDirectory() as folder:  # an empty cwd: nothing shadows the tree's packages
        done = subprocess.run(
            [sys.executable, "-c", runner, script, url], cwd=folder, env=env, capture_output=True, text=True
        )
    if done.returncode != 0:
        raise RuntimeError(f"replaying the bench database failed:\n{done.stderr[-3000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(report["bot"]).resolve().parent != source.resolve() / "bot":
        raise RuntimeError(f"the database was read with {report['bot']}, not the bot of {source}")
    per_game: dict[str, dict[str, int]] = {}
    for game in report["games"]:
        totals = per_game.setdefault(
            game["kind"], {"moves": 0, "handoffs": 0, "people_handoffs": 0, "urgent": 0, "games": 0}
        )
        for key in ("moves", "handoffs", "people_handoffs", "urgent"):
            totals[key] += game.get(key, 0)
        totals["games"] += 1
    return report["bot"], per_game


# ---- one pass ----------------------------------------------------------------------------------
async def _run_pass(
    checkout: Checkout,
    *,
    games: list[str],
    tables_per_game: int,
    moves: int,
    faults: bool,
    quiet: float,
    render: bool,
    computers: bool = False,
) -> Pass:
    result = Pass(checkout=checkout, faults=faults, computers=computers)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "posts.db"
        server = FakeDiscord()
        await server.start()
        guild = server.add_guild("Bench posts")
        tables: list[Table] = []
        for game in games:
            players = _players(game) - computers
            for number in range(tables_per_game):
                channel = server.add_channel(guild, f"{game}-{number}")
                users = [server.user(server.add_user(f"{game}-{number}-{seat}")) for seat in range(players)]
                seed = 1 + number
                tables.append(
                    Table(game, channel, users, random.Random(f"{game}:{number}"), seed, int(computers))
                )
        bot = BotProcess(
            server,
            Path(folder),
            db_path,
            render_processes=1 if render else 0,
            module="bot" if render else "bench.bot_no_render",
            source=checkout.source,
        )
        await bot.start()
        result.source = bot.describe_source()
        watcher = TurnWatcher(server)
        try:
            for game in games:
                mine = [table for table in tables if table.game == game]
                await open_tables(
                    server,
                    watcher,
                    [table.channel for table in mine],
                    [user for table in mine for user in table.users],
                    game,
                    timeout=300,
                    players=_players(game) - computers,
                    seeds=[table.seed for table in mine],
                    computers=int(computers),
                )
            if faults:
                added, refused = _inject_faults(server)
                result.notes += [f"faults: {', '.join(added) or 'none'}"] + [f"refused: {r}" for r in refused]
            start = len(server.message_versions)
            excluded: list[tuple[int, int, int]] = []
            for _ in range(moves * 3):  # rounds; a table that restarts or fails uses more than `moves`
                playing = [table for table in tables if not table.done and table.moves < moves]
                if not playing:
                    break
                for table in playing:
                    if table.over:
                        excluded.append((table.channel, *await _restart(server, watcher, table)))
                moving = [table for table in playing if not table.done]
                await asyncio.gather(*(_move(server, watcher, table, idle=IDLE[faults]) for table in moving))
                try:
                    await server.settle(quiet=quiet, timeout=60)
                except TimeoutError:
                    result.notes.append("the bot was still busy 60 s after a round")
                watcher.read()
                for table in playing:
                    _resolve_delays(watcher, table)
            _clear_faults(server)
            try:
                await server.settle(quiet=1.0, timeout=120)  # late deliveries (retries) are counted too
            except TimeoutError:
                result.notes.append("the bot was still busy 120 s after the last move")
            watcher.read()
            table_of_user = {user.id: table for table in tables for user in table.users}
            result.counts = _count(server, start, excluded, {t.channel: t for t in tables}, table_of_user)
            result.errors = len(server.errors)
        finally:
            watcher.stop()
            bot.stop()
            await server.stop()
        result.tables = tables
        _, result.database = _database(checkout.source, f"sqlite:///{db_path}")
    result.seconds = time.perf_counter() - started
    stuck = [f"{t.game} #{t.channel}" for t in tables if t.done and t.moves < moves]
    if stuck:
        result.notes.append(f"tables that stopped early (nobody could move): {', '.join(stuck)}")
    return result


# ---- printing ----------------------------------------------------------------------------------
def _per100(value: int, moves: int) -> float:
    return 100 * value / moves if moves else float("nan")


def _ratio(before: float, after: float) -> str:
    if not after:
        return "n/a" if not before else "inf"
    return f"{before / after:.2f}x"


def _seats(run: Pass) -> str:
    return "+computer" if run.computers else "people"


def _print_counts(passes: list[Pass], games: list[str]) -> None:
    """Per game and pass: the totals, then per 100 moves (the computer's moves included), and posts
    per handoff to a person; `stale DMs` are the DMs without new private content (must be 0)."""
    names = {game.info.id: game.info.name for game in registry.all_games()}
    print(
        f"  {'game':<18}{'checkout':<10}{'seats':<10}{'moves':>6}{'handoffs':>9}{'to people':>10}{'urgent':>7}"
        f"{'posts':>7}{'edits':>7}{'images':>7}{'pings':>7}{'DMs':>6}{'DM edits':>9}{'DM img':>7}"
        f"{'stale DMs':>10}  | per 100 moves:{'posts':>7}{'edits':>7}{'pings':>7}{'DMs':>6}"
        f"  | posts per handoff to a person"
    )
    for game in games:
        rates: dict[tuple[bool, bool], dict[str, float]] = {}
        for run in passes:
            counts = run.counts.get(game, dict.fromkeys(COUNTS, 0))
            database = run.database.get(game, {"moves": 0, "handoffs": 0, "people_handoffs": 0, "urgent": 0})
            moves = database["moves"]
            people = database.get("people_handoffs", 0)
            rates[(run.checkout.baseline, run.computers)] = {
                key: _per100(value, moves) for key, value in counts.items()
            } | {"all_images": _per100(counts["images"] + counts["dm_images"], moves)}
            label = names.get(game, game) if run is passes[0] else ""
            print(
                f"  {label:<18}{short(run.checkout):<10}{_seats(run):<10}{moves:>6}{database['handoffs']:>9}"
                f"{people:>10}{database['urgent']:>7}{counts['posts']:>7}{counts['edits']:>7}"
                f"{counts['images']:>7}{counts['pings']:>7}{counts['dms']:>6}{counts['dm_edits']:>9}"
                f"{counts['dm_images']:>7}{counts['stale_dms']:>10}  | {'':>14}"
                f"{_per100(counts['posts'], moves):>7.1f}{_per100(counts['edits'], moves):>7.1f}"
                f"{_per100(counts['pings'], moves):>7.1f}{_per100(counts['dms'], moves):>6.1f}"
                f"  | {counts['posts'] / people if people else float('nan'):.2f}"
            )
        for computers in (False, True):
            if (True, computers) in rates and (False, computers) in rates:
                before, after = rates[(True, computers)], rates[(False, computers)]
                print(
                    f"  {'':<18}baseline/current per 100 moves ({'with a computer seat' if computers else 'people only'}):"
                    f" posts {_ratio(before['posts'], after['posts'])},"
                    f" pings {_ratio(before['pings'], after['pings'])},"
                    f" DMs {_ratio(before['dms'], after['dms'])},"
                    f" public images {_ratio(before['images'], after['images'])},"
                    f" all images {_ratio(before['all_images'], after['all_images'])}"
                )


def _print_delays(passes: list[Pass], games: list[str]) -> None:
    names = {game.info.id: game.info.name for game in registry.all_games()}
    print(
        f"  {'game':<18}{'checkout':<10}{'pass':<8}{'moves':>6}{'visible p50':>13}{'p99 ms':>8}"
        f"{'picture p50':>13}{'p99 ms':>8}{'never':>7}{'failed':>8}"
    )
    for game in [*games, "all"]:
        for run in passes:
            tables = [t for t in run.tables if game in ("all", t.game)]
            visible = [d for t in tables for d in t.visible]
            pictured = [d for t in tables for d in t.pictured]
            label = (names.get(game, game) if game != "all" else "all games") if run is passes[0] else ""
            print(
                f"  {label:<18}{short(run.checkout):<10}"
                f"{('faults' if run.faults else 'clean') + ('+ai' if run.computers else ''):<8}"
                f"{sum(t.moves for t in tables):>6}{percentile(visible, 0.5):>13.0f}"
                f"{percentile(visible, 0.99):>8.0f}{percentile(pictured, 0.5):>13.0f}"
                f"{percentile(pictured, 0.99):>8.0f}{sum(t.never for t in tables):>7}"
                f"{sum(t.failed for t in tables):>8}"
            )


def run(
    checkouts: list[Checkout],
    *,
    moves: int = 300,
    tables_per_game: int = 1,
    quiet: float = 0.15,
    render: bool = False,
    faults: str = "current",
    fault_moves: int = 100,
    games: list[str] | None = None,
    computers: str = "both",
) -> None:
    """The load against every checkout (baseline first), with tables of people only and with a
    computer seat as `computers` says ("people", "computer" or "both"); the faults pass (people only)
    as `faults` says ("current", "both" or "none"), when the emulator can inject faults."""
    games = games or _games()
    settings = {"games": games, "tables_per_game": tables_per_game, "quiet": quiet, "render": render}
    kinds = {"people": [False], "computer": [True], "both": [False, True]}[computers]
    clean = [
        asyncio.run(_run_pass(c, moves=moves, faults=False, computers=with_computer, **settings))
        for with_computer in kinds
        for c in checkouts
    ]
    faulty: list[Pass] = []
    fault_notes: list[str] = []
    if faults != "none":
        if not hasattr(FakeDiscord(), "faults"):
            fault_notes.append("skipped: this emulator has no fault injection (FakeDiscord.faults)")
        else:
            for checkout in checkouts:
                if checkout.current or faults == "both":
                    faulty.append(
                        asyncio.run(_run_pass(checkout, moves=fault_moves, faults=True, **settings))
                    )
    pictures = "boards drawn (1 render process)" if render else "pictures stubbed: a tiny PNG per view"
    print(
        f"\nPosts per move: {tables_per_game} table(s) per game, {moves} moves per table"
        f" ({DEFAULT_PLAYERS} players, 2 for Iron & Brass, one of them a computer in the +computer pass;"
        " seeded random choices among the offered ones);"
        f" {pictures}; after every round the bench waits for each turn message and for the bot to be quiet"
        f" {quiet:g} s"
    )
    for run_ in clean:
        print(
            f"  {short(run_.checkout)} ({_seats(run_)}): {run_.checkout.label}, {run_.source};"
            f" {run_.seconds:.0f} s"
        )
        restarts = sum(t.restarts for t in run_.tables)
        extra = [f"games restarted after game over: {restarts}"] if restarts else []
        extra += [f"emulator complaints: {run_.errors}"] if run_.errors else []
        for note in extra + run_.notes:
            print(f"    {note}")
    _print_counts(clean, games)
    print(
        "\nTurn message after the move's answer: visible = the first new turn message or edit showing"
        " the move; picture = the first one bringing a new picture; never = not seen before the round"
        f" ended (the bench waits up to {VISIBLE_TIMEOUT:g} s, or until the bot made no request for"
        f" {IDLE[False]:g} s, {IDLE[True]:g} s with faults)"
    )
    for run_ in faulty:
        print(f"  faults pass, {short(run_.checkout)}: {fault_moves} moves per table; {run_.seconds:.0f} s")
        for note in run_.notes:
            print(f"    {note}")
    for note in fault_notes:
        print(f"  faults pass {note}")
    _print_delays(clean + faulty, games)
    if faulty:
        print("  Posts per move under faults (duplicates from dropped responses show here):")
        _print_counts(faulty, games)
