"""`python -m bench`: every figure, printed with the machine it was measured on (never asserted).

Sections: rules (per registered game: apply / legal_actions, random games per second, the public
board late in a 4-player game), sqlite (a move's commit; the same on PostgreSQL with --postgres URL),
latency (a bot process under many channels playing at once, through the emulator), memory (a bot
process with many stored games), scale (SQLite with one process against PostgreSQL with 1, 2 and 4
sharded processes, 1000 active games), strategies (Iron & Brass: the ECONOMIC and MILITARY strategies
against each other and the random player), policies (each game's computer player against a random
one: win rate, games without a winner, illegal moves, decision time). `policies` runs only when asked
for (`--only policies`, or `--policies N` with the other sections): its 200 games per game take about
17 minutes on two shared cores.
"""

from __future__ import annotations

import argparse
import asyncio
import logging

from bench import memory, platform_speed, policies, rules_speed, scale, strategies
from bench.machine import describe

SECTIONS = ("rules", "sqlite", "latency", "memory", "scale", "strategies")
OPTIONAL = ("policies",)


def main() -> None:
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
        help="with the policies section: only this game id (repeatable; default: every game)",
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
        "--quick",
        action="store_true",
        help="small sizes (5 games, 20 channels, 1000/100 stored): a smoke run",
    )
    args = parser.parse_args()
    if args.quick:
        args.games, args.channels, args.moves, args.stored, args.active = 5, 20, 3, 1_000, 100
        args.strategy_games = 4
        args.think = 2.0
    sections = args.only or SECTIONS
    logging.basicConfig(level=logging.ERROR)
    print(describe())
    print("(a shared, noisy machine: compare figures from one run, not across days)")
    if "rules" in sections:
        rules_speed.run(args.games)
    if "sqlite" in sections:
        asyncio.run(platform_speed.sqlite_commits())
        if args.postgres:
            asyncio.run(platform_speed.postgres_commits(args.postgres))
    if "latency" in sections:
        # Paced like real tables, with boards drawn; the same with drawing stubbed (the move's own
        # path); and with no pause at all, which measures the bot's capacity rather than a latency.
        for rendering, think in ((True, args.think), (False, args.think), (False, 0.0)):
            asyncio.run(
                platform_speed.interaction_latency(
                    args.channels, args.moves, rendering=rendering, think=think
                )
            )
    if "memory" in sections:
        asyncio.run(memory.stored_games(args.stored, args.active))
    if "scale" in sections:
        scale.run(args.active)
    if "strategies" in sections:
        strategies.run(args.strategy_games)
    if "policies" in sections or args.policies:
        policies.run(args.policies or 200, only=args.game)


if __name__ == "__main__":
    main()
