"""`python -m bench`: every figure, printed with the machine it was measured on (never asserted)."""

from __future__ import annotations

import argparse
import asyncio
import logging

from bench import platform_speed, rules_speed
from bench.machine import describe


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--channels", type=int, default=20, help="channels playing at once (default 20)")
    parser.add_argument("--moves", type=int, default=10, help="moves per channel (default 10)")
    parser.add_argument("--games", type=int, default=20, help="random games per rules benchmark (default 20)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    print(describe())
    rules_speed.run(args.games)
    asyncio.run(platform_speed.sqlite_commits())
    asyncio.run(platform_speed.interaction_latency(args.channels, args.moves))


if __name__ == "__main__":
    main()
