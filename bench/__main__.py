"""`python -m bench`: every figure, printed with the machine it was measured on (never asserted).

Sections: rules (per registered game: apply / legal_actions, random games per second, the public
board late in a 4-player game), render (each kind of picture of each game: p50/p95 ms and size), sqlite (a move's commit; the same on PostgreSQL with --postgres URL),
latency (a bot process under many channels playing at once, through the emulator), memory (a bot
process with many stored games), scale (SQLite with one process against PostgreSQL with 1, 2 and 4
sharded processes, 1000 active games), strategies (Iron & Brass: the ECONOMIC and MILITARY strategies
against each other and the random player), policies (each game's computer player against a random
one: win rate, games without a winner, illegal moves, decision time). `policies` runs only when asked
for (`--only policies`, or `--policies N` with the other sections): its 200 games per game take about
17 minutes on two shared cores. posts (what a move costs the channel: posts, edits, pictures and DMs
per 100 moves for every game, and the turn message's delay after the move's answer, with and without
faults) also runs only when asked for (`--only posts`).

Before and after in one run: `--baseline REF` (default a52a295; `none` to skip) makes a git worktree of
REF under .bench-baseline/ and runs the rules (warm playouts), render, latency, scale and posts sections against its code
first, then against the working tree's, printing both.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from pathlib import Path

from bench import (
    baseline,
    memory,
    operations,
    platform_speed,
    policies,
    posts,
    render_speed,
    rules_speed,
    scale,
    search,
    strategies,
)
from bench.machine import describe

SECTIONS = ("rules", "render", "sqlite", "latency", "memory", "scale", "strategies")
OPTIONAL = ("policies", "posts", "search", "operations")


def build_parser() -> argparse.ArgumentParser:
    """Every option `main` reads (tests/bench check that each `args.X` it reads is one)."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "--only", choices=SECTIONS + OPTIONAL, action="append", help="run only these sections"
    )
    parser.add_argument("--games", type=int, default=20, help="random games per rules benchmark (default 20)")
    parser.add_argument("--channels", type=int, default=200, help="channels playing at once (default 200)")
    parser.add_argument("--moves", type=int, default=5, help="moves per channel (default 5)")
    parser.add_argument(
        "--think", type=float, default=20.0, help="mean seconds between a channel's moves (default 20)"
    )
    parser.add_argument(
        "--loads",
        nargs="+",
        choices=("paced-drawn", "paced-stubbed", "capacity-stubbed", "capacity-drawn"),
        help="latency: only these loads (default: all four)",
    )
    parser.add_argument(
        "--season-moves",
        type=int,
        default=100_000,
        help="operations: moves of the simulated season (default 100000)",
    )
    parser.add_argument(
        "--kills", type=int, default=10, help="operations: SIGKILLs of a bot process (default 10)"
    )
    parser.add_argument(
        "--stop-channels",
        type=int,
        default=200,
        help="operations: channels playing when the bot is sent SIGTERM (default 200)",
    )
    parser.add_argument("--stored", type=int, default=10_000, help="stored games (default 10000)")
    parser.add_argument("--active", type=int, default=1_000, help="of which active (default 1000)")
    parser.add_argument(
        "--policies",
        type=int,
        default=0,
        metavar="N",
        help="games per game of the computer player against a random one (default: 200 with "
        "--only policies, else skip)",
    )
    parser.add_argument(
        "--game",
        action="append",
        metavar="ID",
        help="with the policies, posts and search sections: only this game id (repeatable; default: every game)",
    )
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="sqlite section: also time commits on this (empty, throwaway) PostgreSQL database",
    )
    parser.add_argument(
        "--strategy-games",
        type=int,
        default=40,
        metavar="N",
        help="Iron & Brass strategy games per board size and pairing (default 40)",
    )
    parser.add_argument(
        "--baseline",
        default=baseline.DEFAULT_REF,
        metavar="REF",
        help="rules, render, latency, scale and posts: also run the code of this git ref (a worktree under .bench-baseline/)"
        f" before the working tree's, side by side (default {baseline.DEFAULT_REF}; 'none': working tree only)",
    )
    parser.add_argument(
        "--posts-moves", type=int, default=300, metavar="M", help="posts: moves per table (default 300)"
    )
    parser.add_argument(
        "--posts-tables", type=int, default=1, metavar="N", help="posts: tables per game (default 1)"
    )
    parser.add_argument(
        "--posts-fault-moves",
        type=int,
        default=100,
        metavar="M",
        help="posts: moves per table in the pass with faults injected (default 100)",
    )
    parser.add_argument(
        "--posts-faults",
        choices=("current", "both", "none"),
        default="current",
        help="posts: which checkouts get the pass with faults (default: the working tree only)",
    )
    parser.add_argument(
        "--posts-computers",
        choices=("people", "computer", "both"),
        default="both",
        help="posts: tables of people only, with a computer seat, or both (default)",
    )
    parser.add_argument(
        "--posts-render",
        action="store_true",
        help="posts: draw real boards (default: pictures stubbed, the counts do not depend on them)",
    )
    parser.add_argument(
        "--posts-quiet",
        type=float,
        default=0.15,
        metavar="S",
        help="posts: after each round, wait until the bot made no request for S seconds (default 0.15)",
    )
    parser.add_argument(
        "--search-games",
        type=int,
        default=200,
        metavar="N",
        help="search: games per table size (default 200)",
    )
    parser.add_argument(
        "--search-ledger",
        type=Path,
        metavar="FILE",
        help="search: append each finished game to FILE and reuse the games already there for the same code",
    )
    parser.add_argument(
        "--search-players",
        type=int,
        action="append",
        metavar="N",
        help="search: only tables of N players (repeatable; default every size from 2 to 4 the game seats)",
    )
    parser.add_argument(
        "--search-strength", type=int, default=3, choices=(1, 2, 3), help="search: ai_strength (default 3)"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="small sizes (5 games, 20 channels, 1000/100 stored): a smoke run",
    )
    return parser


def main() -> None:
    args = build_parser().parse_args()
    if args.quick:
        args.games, args.channels, args.moves, args.stored, args.active = 5, 20, 3, 1_000, 100
        args.strategy_games = 4
        args.think = 2.0
        args.posts_moves, args.posts_fault_moves = 30, 15
    sections = args.only or SECTIONS
    logging.basicConfig(level=logging.ERROR)
    print(describe())
    print("(a shared, noisy machine: compare figures from one run, not across days)")
    checkouts = [baseline.CURRENT]
    if {"latency", "scale", "posts", "render", "rules"} & set(sections):
        checkouts = baseline.checkouts(args.baseline)
        for checkout in checkouts:
            print(f"{baseline.short(checkout)}: {checkout.label}, the bot runs from {checkout.source}")
    if "rules" in sections:
        rules_speed.run(args.games, checkouts)
    if "render" in sections:
        render_speed.run(checkouts, every=40 if args.quick else 15)
    if "sqlite" in sections:
        asyncio.run(platform_speed.sqlite_commits())
        if args.postgres:
            asyncio.run(platform_speed.postgres_commits(args.postgres))
    if "latency" in sections:
        # Paced like real tables, with boards drawn; the same with drawing stubbed (the move's own
        # path); and with no pause at all, which measures the bot's capacity rather than a latency,
        # with pictures stubbed and with boards drawn. Each load against every checkout in turn.
        rows = []
        loads = {
            "paced-drawn": (True, args.think),
            "paced-stubbed": (False, args.think),
            "capacity-stubbed": (False, 0.0),
            "capacity-drawn": (True, 0.0),
        }
        for name in args.loads or list(loads):
            rendering, think = loads[name]
            for checkout in checkouts:
                rows.append(
                    asyncio.run(
                        platform_speed.interaction_latency(
                            args.channels, args.moves, rendering=rendering, think=think, checkout=checkout
                        )
                    )
                )
        platform_speed.print_latency_comparison(rows)
    if "memory" in sections:
        asyncio.run(memory.stored_games(args.stored, args.active))
    if "scale" in sections:
        scale.run(args.active, checkouts=checkouts)
    if "strategies" in sections:
        strategies.run(args.strategy_games)
    if "policies" in sections or args.policies:
        policies.run(args.policies or 200, only=args.game)
    if "search" in sections:
        search.decision_times(1, only=args.game)
        search.decision_times(3, only=args.game)
        search.run(
            args.search_games,
            only=args.game,
            strength=args.search_strength,
            ledger=args.search_ledger,
            tables=args.search_players,
        )
    if "posts" in sections:
        posts.run(
            checkouts,
            moves=args.posts_moves,
            tables_per_game=args.posts_tables,
            quiet=args.posts_quiet,
            render=args.posts_render,
            faults=args.posts_faults,
            fault_moves=args.posts_fault_moves,
            computers=args.posts_computers,
            games=args.game,
        )
    if "operations" in sections:
        operations.run(
            moves=args.season_moves, games=args.stored, kills=args.kills, channels=args.stop_channels
        )


if __name__ == "__main__":
    main()
