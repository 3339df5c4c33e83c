"""`python -m bot` runs the bot on Discord; `python -m bot --local` runs it against the local emulator;
`python -m bot migrate --from URL --to URL` copies every game to another database and checks the copy."""

from __future__ import annotations

import argparse
import asyncio
import sys

from pydantic import ValidationError

from bot.config import Settings
from bot.logs import configure as configure_logs

NO_TOKEN = """\
No Discord token is set, so the bot cannot connect to Discord.

  * To run it on Discord: create an application and a bot at https://discord.com/developers/applications,
    copy its token, and put it in a .env file (see .env.example) or the environment:
        DISCORD_TOKEN=your-token python -m bot
  * To try it without a Discord account, on this machine only:
        python -m bot --local
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "--local", action="store_true", help="play against a local Discord emulator in this terminal"
    )
    parser.add_argument("--script", help="--local: read console lines from this file instead of the keyboard")
    commands = parser.add_subparsers(dest="command", metavar="migrate|backup|restore|invite")
    migrate = commands.add_parser(
        "migrate",
        help="copy every game from one database to another and replay each copy to check it",
        description="Copy every game (seats, moves, messages, timers, settings) from one database to an"
        " empty one, e.g. from the SQLite file to PostgreSQL, then replay every copied game from its seed"
        " and log. Exits with 1 if a game does not replay to its stored state.",
    )
    migrate.add_argument(
        "--from", dest="source", required=True, metavar="URL", help="e.g. sqlite:///ironhost.db"
    )
    migrate.add_argument(
        "--to", dest="target", required=True, metavar="URL", help="e.g. postgresql://user:pass@host/db"
    )
    backup = commands.add_parser(
        "backup",
        help="copy the SQLite database consistently, even while the bot runs",
        description="Copy the SQLite database of DATABASE_URL (or --database) to PATH with SQLite's online"
        " backup, which is consistent while the bot keeps writing, and print what the copy holds. PATH may"
        " be a folder (the copy is then named after the database and the time).",
    )
    backup.add_argument("path", metavar="PATH", help="a file (e.g. copy.db), or a folder (no suffix)")
    backup.add_argument("--database", metavar="URL", help="default: DATABASE_URL")
    restore = commands.add_parser(
        "restore",
        help="put a backup back into an empty database, after checking that every game in it replays",
        description="Replay every game of the backup from its seed and moves; if each arrives at its stored"
        " position, copy them all into the empty database of DATABASE_URL (or --database). Stop the bot"
        " first. Exits with 1 if a game does not replay (nothing is written), 2 if the target holds games.",
    )
    restore.add_argument("path", metavar="PATH")
    restore.add_argument("--database", metavar="URL", help="default: DATABASE_URL")
    invite = commands.add_parser(
        "invite", help="print the invite link with exactly the permissions the bot uses"
    )
    invite.add_argument("--client-id", type=int, help="the Application ID (default: read from DISCORD_TOKEN)")
    args = parser.parse_args(argv)
    if args.command == "migrate":
        return asyncio.run(_migrate(args.source, args.target))
    if args.command in ("backup", "restore", "invite"):
        return _operator_command(args)
    try:
        settings = Settings()
    except ValidationError as error:
        problems = "\n".join(f"  * {item['msg'].removeprefix('Value error, ')}" for item in error.errors())
        print(f"The configuration is not valid:\n{problems}", file=sys.stderr)
        return 2
    configure_logs(settings.log_level, settings.log_format)
    if args.local:
        from bot.interface.console import run_console

        return asyncio.run(run_console(settings, script=args.script))
    if not settings.discord_token.strip():
        print(NO_TOKEN, file=sys.stderr)
        return 2
    return asyncio.run(_run(settings))


def _operator_command(args: argparse.Namespace) -> int:
    from bot.operations import back_up, invite, restore

    try:
        settings = Settings()
    except ValidationError:
        settings = None  # the commands below need little of it; say so if they do
    if args.command == "invite":
        return invite(args.client_id, settings.discord_token if settings else "")
    url = args.database or (settings.database_url if settings else "sqlite:///ironhost.db")
    if args.command == "backup":
        return back_up(url, args.path)
    return restore(args.path, url)


async def _migrate(source: str, target: str) -> int:
    from bot.migrate import MigrationRefused, migrate, print_report

    try:
        report = await migrate(source, target)
    except (MigrationRefused, ValueError, RuntimeError) as reason:
        print(f"Nothing was copied: {reason}", file=sys.stderr)
        return 2
    print_report(report, source, target)
    return 0 if report.ok else 1


async def _run(settings: Settings) -> int:
    import discord

    from bot.interface.client import create_bot
    from bot.storage.store import SchemaMismatch

    if settings.discord_api_base:
        from bot.emulator.connect import point_discord_py_at

        point_discord_py_at(settings.discord_api_base)
    from bot.interface.lifecycle import EXIT_GRACE, arm_exit_ceiling, install_stop_signals

    bot = create_bot(settings)

    stopping, stopped = asyncio.Event(), asyncio.Event()

    async def stop() -> None:
        stopping.set()
        arm_exit_ceiling(settings.stop_timeout + EXIT_GRACE)  # this process's hard ceiling, not a library's
        try:
            await bot.shutdown()
        finally:
            stopped.set()

    install_stop_signals(stop)
    try:
        async with bot:
            await bot.start(settings.discord_token.strip())
        if stopping.is_set():  # the gateway closes before the store: let the stop close the store too
            await stopped.wait()
    except discord.LoginFailure:
        print(
            "Discord refused the token: check DISCORD_TOKEN (Bot tab of your application).", file=sys.stderr
        )
        return 2
    except SchemaMismatch as reason:
        print(f"The bot did not start: {reason}", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("Discord refused the intents; this bot needs no privileged intent.", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
