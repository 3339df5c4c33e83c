"""`python -m bot --local`: the real bot on the embedded Discord emulator, driven from a terminal.

A newcomer tries the bot here without a Discord account, and we debug here. You type as one of
several users (`alice> /game new game:test`), and the console prints what each user would see:
channel messages, their ephemeral replies and their DMs, embeds included, each message numbered
(`[5]`) and its buttons numbered for `click N` (or `click N on 5` for an earlier message).
Images are written to a folder and their paths printed. Interactive lines have a history (readline).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import Settings
from bot.emulator.driver import EmulatorUsageError, InteractionFailed, InteractionResult, UserSession
from bot.emulator.model import StoredMessage
from bot.emulator.server import FakeDiscord
from bot.emulator.testing import run_bot, stop_bot
from bot.interface.trading import text_inputs

if TYPE_CHECKING:  # imported where the bot starts: the console loads before discord.py
    from bot.interface.client import HostBot

USERS = ("alice", "bob", "carol", "dave")
CHANNELS = ("table", "side")
MANAGE_CHANNELS = 1 << 4
STARTUP_SECONDS = 60.0
"""How long the bot may take to get ready: loading the wording engine alone takes seconds on a slow or
busy machine (a CI runner shared with other jobs), where the emulator helpers' 10 s default is too short."""
ANSWER_SECONDS = 60.0
"""How long a deferred answer (a replay, a board drawn) may take before the console says it did not come:
Discord waits 15 minutes for one, and drawing a replay on a busy machine takes longer than the emulator
helpers' 10 s default. A late answer is still printed when it comes."""

HELP = """\
Type as a user:  NAME> COMMAND      (users: alice, bob, carol, dave; alice is a moderator)
  alice> /game new game:iron-bridge-gorge seed:7   a slash command, options as name:value
  bob> /game join          alice> /game start         bob> /play move:"Pledge 3"
  carol> complete /play move:ple    the autocomplete list for an option
  bob> click 2             press button 2 of the last message bob saw with buttons
  bob> click Join          ... or press it by its label
  bob> select 1 3          pick option 3 of select menu 1 of that message
  bob> click 2 on 5        press button 2 of message [5] (the number in its header), any earlier one
  bob> click Join on 5     ... by its label;   bob> select 1 3 on 5   a menu of message [5]
  bob> submit give:"2 coins, Coal Mine" get:"1 VP"   fill in the form a button opened
  alice> /game seat player:@bob saved_seat:1    @name is a user; carol> /game import file:<out/game.json  attaches a file
Other commands:
  #side / #table           switch channel          show     reprint this channel
  dm off dave / dm on dave close or open a user's DMs
  restart                  stop the bot and start it again (games continue)
  help                     this text               quit     leave
Up/down arrows recall earlier lines (kept in the output folder's .history) where readline exists.
"""


@dataclass
class Console:
    server: FakeDiscord
    settings: Settings
    out_dir: Path
    channels: dict[str, int]
    users: dict[str, UserSession]
    channel: str = "table"
    bot: HostBot | None = None
    task: asyncio.Task[None] | None = None
    printed: dict[int, int] = field(default_factory=dict)  # message id -> edits printed
    last_with_components: dict[str, int] = field(default_factory=dict)
    numbers: dict[int, int] = field(default_factory=dict)  # message id -> its number in the console
    numbered: list[int] = field(default_factory=list)  # message ids, numbered from 1
    forms: dict[str, InteractionResult] = field(default_factory=dict)  # user -> the click that opened a form

    # ---- bot lifecycle ----------------------------------------------------------------------
    async def start_bot(self) -> None:
        from bot.interface.client import HostBot

        bot = HostBot(self.settings, guild_ready_timeout=0.1)
        self.task = await run_bot(bot, self.server, timeout=STARTUP_SECONDS)
        self.bot = bot

    async def stop_bot(self) -> None:
        if self.bot is not None:
            await stop_bot(self.bot, self.task)
            self.bot = None

    async def settle(self) -> None:
        with contextlib.suppress(TimeoutError):
            await self.server.settle(timeout=15)
        if self.bot is not None:
            await self.bot.table.drain()
        with contextlib.suppress(TimeoutError):
            await self.server.settle(timeout=15)

    # ---- one line of input --------------------------------------------------------------------
    async def handle(self, line: str) -> bool:
        """Run one console line; False means quit."""
        line = line.strip()
        if not line or line.startswith("//"):
            return True
        if line in {"quit", "exit"}:
            return False
        if line == "help":
            print(HELP)
            return True
        if line.startswith("#"):
            name = line[1:]
            if name not in self.channels:
                print(f"  no channel #{name}; channels: {', '.join('#' + c for c in self.channels)}")
            else:
                self.channel = name
                print(f"  now in #{name}")
            return True
        if line == "show":
            for message in self.server.public_messages(self.channels[self.channel]):
                self._print_message(message, force=True)
            return True
        if line == "restart":
            print("  restarting the bot…")
            await self.stop_bot()
            await self.start_bot()
            print("  the bot is back; games and buttons continue.")
            return True
        match = re.fullmatch(r"dm (on|off) (\w+)", line)
        if match:
            user = self.users.get(match.group(2))
            if user is None:
                print(f"  no user {match.group(2)}")
            else:
                self.server.set_dms_open(user.id, match.group(1) == "on")
                print(f"  {user.name}'s DMs are now {match.group(1)}")
            return True
        match = re.fullmatch(r"(\w+)\s*>\s*(.+)", line)
        if not match or match.group(1) not in self.users:
            print(
                f"  I did not understand that. Start with a user name, e.g. `alice> /game new`. {_users_hint()}"
            )
            return True
        await self._act(self.users[match.group(1)], match.group(2).strip())
        return True

    def _resolved(self, options: dict[str, object]) -> dict[str, object]:
        """`@bob` names a user of the console (a user option); `<path` attaches that file (a file option,
        e.g. a saved game the bot wrote to the output folder)."""
        out: dict[str, object] = {}
        for key, value in options.items():
            if isinstance(value, str) and value.startswith("@") and value[1:] in self.users:
                value = self.users[value[1:]].id
            elif isinstance(value, str) and value.startswith("<"):
                path = Path(value[1:]).expanduser()
                try:
                    value = (path.name, path.read_bytes())
                except OSError as error:
                    raise ValueError(f"cannot attach {path}: {error.strerror}") from None
            out[key] = value
        return out

    async def _act(self, user: UserSession, command: str) -> None:
        channel_id = self.channels[self.channel]
        try:
            if command.startswith("/"):
                name, options = _parse_slash(command[1:])
                await user.slash(channel_id, name, timeout=ANSWER_SECONDS, **self._resolved(options))
            elif command.startswith("complete "):
                name, options = _parse_slash(command[len("complete ") :].lstrip("/"))
                if not options:
                    print("  say which option to complete, e.g. `complete /play move:bu`")
                    return
                focused = list(options)[-1]
                value = str(options.pop(focused))
                choices = await user.autocomplete(channel_id, name, focused=focused, value=value, **options)
                print(f"  {user.name} sees {len(choices)} suggestions:")
                for choice in choices:
                    print(f"    {choice['name']}   (value {choice['value']})")
                return
            elif command.startswith("click "):
                which, number = _on_message(command[len("click ") :])
                if number is not None and self._last_label(user, command[len("click ") :].strip()):
                    which, number = command[len("click ") :].strip(), None  # a label "… on 3"
                await self._click(user, which, self._message_for(user, number))
            elif command.startswith("select "):
                which, number = _on_message(command[len("select ") :])
                await self._select(user, which.split(), self._message_for(user, number))
            elif command.startswith("submit"):
                await self._submit(user, command[len("submit") :])
            else:
                print(
                    "  commands: /slash command, click N [on MESSAGE], select N M [on MESSAGE],"
                    " complete /cmd option:text, submit f:v"
                )
                return
        except EmulatorUsageError as error:
            print(f"  Discord would not allow that: {error}")
            return
        except InteractionFailed as error:
            print(f"  ✖ the bot did not answer in time: {error}")
        except ValueError as error:
            print(f"  {error}")
            return
        await self.settle()
        self.print_new()

    async def _click(self, user: UserSession, which: str, message: StoredMessage) -> None:
        buttons = [(label, cid) for label, cid, disabled in user.buttons(message.id) if cid and not disabled]
        if which.isdigit() and 1 <= int(which) <= len(buttons):
            custom_id = buttons[int(which) - 1][1]
        else:
            found = [cid for label, cid in buttons if (label or "").lower() == which.lower()]
            if not found:
                raise ValueError(
                    f"no button {which!r} on message [{self.numbers.get(message.id, '?')}]; "
                    f"its buttons: {_numbered(buttons)}"
                )
            custom_id = found[0]
        result = await user.click(message.id, custom_id, timeout=ANSWER_SECONDS)
        if result.modal is not None:
            self.forms[user.name] = result
            fields = [
                f"{c['custom_id']} ({c.get('label', '')})"
                for c in text_inputs(result.modal.get("components", []))
            ]
            print(f"  📝 {user.name} sees a form «{result.modal.get('title')}»: {', '.join(fields)}")
            print(f'     fill it in with: {user.name}> submit {fields[0].split()[0]}:"…" …' if fields else "")

    async def _submit(self, user: UserSession, text: str) -> None:
        opened = self.forms.pop(user.name, None)
        if opened is None:
            raise ValueError(f"{user.name} has no open form; a button opens one")
        _, values = _parse_slash("form " + text.strip())
        await user.submit_modal(opened, {name: str(value) for name, value in values.items()})

    async def _select(self, user: UserSession, args: list[str], message: StoredMessage) -> None:
        if len(args) != 2 or not all(arg.isdigit() for arg in args):
            raise ValueError("use `select MENU OPTION [on MESSAGE]`, e.g. `select 1 3` or `select 1 3 on 5`")
        selects = [c for row in message.components for c in row.get("components", []) if c.get("type") == 3]
        menu, option = int(args[0]), int(args[1])
        if not 1 <= menu <= len(selects):
            raise ValueError(f"that message has {len(selects)} select menus")
        options = selects[menu - 1]["options"]
        if not 1 <= option <= len(options):
            raise ValueError(f"that menu has {len(options)} options")
        await user.select(
            message.id, selects[menu - 1]["custom_id"], [options[option - 1]["value"]], timeout=ANSWER_SECONDS
        )

    def _last_label(self, user: UserSession, label: str) -> bool:
        """Whether the last message this user saw with buttons has a button with this very label."""
        message_id = self.last_with_components.get(user.name)
        if message_id is None or message_id not in self.server.world.messages:
            return False
        return any((found or "").lower() == label.lower() for found, _, _ in user.buttons(message_id))

    def _message_for(self, user: UserSession, number: int | None) -> StoredMessage:
        """Message [number] as the console numbered it, or the last one this user saw with buttons."""
        if number is None:
            message_id = self.last_with_components.get(user.name)
            if message_id is None:
                raise ValueError(f"{user.name} has not seen any buttons yet")
            return self.server.message(message_id)
        if not 1 <= number <= len(self.numbered):
            last = f"messages are [1] to [{len(self.numbered)}]" if self.numbered else "none is printed yet"
            raise ValueError(f"there is no message [{number}]; {last}")
        message = self.server.world.messages.get(self.numbered[number - 1])
        if message is None or message.deleted:
            raise ValueError(f"message [{number}] was deleted")
        if not user.can_see(message):
            audience = self._audience(message)
            whose = audience[0] if audience else "not for them"
            raise ValueError(f"{user.name} cannot see message [{number}] ({whose})")
        return message

    # ---- output ---------------------------------------------------------------------------------
    def print_new(self) -> None:
        for message in sorted(self.server.world.messages.values(), key=lambda m: m.id):
            self._print_message(message)

    def _print_message(self, message: StoredMessage, *, force: bool = False) -> None:
        seen = self.printed.get(message.id)
        if message.deleted or (not force and seen is not None and seen >= message.edits):
            return
        self.printed[message.id] = message.edits
        audience = self._audience(message)
        if audience is None:
            return
        where, viewers = audience
        number = self.numbers.get(message.id)
        if number is None:
            self.numbered.append(message.id)
            number = self.numbers[message.id] = len(self.numbered)
        edited = " (edited)" if seen is not None and not force else ""
        print(f"\n── [{number}] {where}{edited}")
        paths = {}
        for attachment in message.attachments:
            path = self.out_dir / f"{message.id}-{attachment.filename}"
            path.write_bytes(attachment.data)
            paths[attachment.filename] = path
        if message.content or not message.embeds:
            for line in self._readable(message.content).splitlines() or [""]:
                print(f"   {line}")
        shown: set[str] = set()
        for index, embed in enumerate(message.embeds):
            if index:
                print("   ┃")
            for line in self._embed_lines(embed, paths, shown):
                print(f"   ┃ {line}" if line else "   ┃")
        for attachment in message.attachments:
            if attachment.filename in shown:
                continue
            alt = f" — {attachment.description}" if attachment.description else ""
            print(f"   🖼  {paths[attachment.filename]}{alt}")
        controls = self._controls(message)
        if controls:
            print("   " + controls)
            for viewer in viewers:
                self.last_with_components[viewer] = message.id

    def _embed_lines(self, embed: dict, paths: dict[str, Path], shown: set[str]) -> list[str]:
        """An embed as a reader sees it: author, title, description, fields, images, footer."""
        lines: list[str] = []
        author = (embed.get("author") or {}).get("name")
        if author:
            lines.append(self._readable(author))
        if embed.get("title"):
            lines.append(f"« {self._readable(embed['title'])} »")
        if embed.get("description"):
            lines.extend(self._readable(embed["description"]).splitlines())
        row: list[str] = []  # inline fields with a one-line value share a line, three at most
        for found in embed.get("fields") or []:
            name, value = self._readable(found.get("name", "")), self._readable(found.get("value", ""))
            if found.get("inline") and "\n" not in value and len(row) < 3:
                row.append(f"{name}: {value}")
                continue
            if row:
                lines.append(" │ ".join(row))
                row = []
            if found.get("inline") and "\n" not in value:
                row.append(f"{name}: {value}")
            else:
                lines.append(f"▸ {name}")
                lines.extend(f"  {line}" for line in value.splitlines())
        if row:
            lines.append(" │ ".join(row))
        for kind in ("thumbnail", "image"):
            url = (embed.get(kind) or {}).get("url")
            if not url:
                continue
            name = url.removeprefix("attachment://")
            if name in paths:
                shown.add(name)
                lines.append(f"🖼  {kind}: {paths[name]}")
            else:
                lines.append(f"🖼  {kind}: {url}")
        footer = (embed.get("footer") or {}).get("text")
        if footer:
            lines.append(f"— {self._readable(footer)}")
        return lines

    def _audience(self, message: StoredMessage) -> tuple[str, list[str]] | None:
        channel = self.server.world.channels.get(message.channel_id)
        if channel is None:
            return None
        names = {session.id: name for name, session in self.users.items()}
        if channel.recipient_id is not None:
            name = names.get(channel.recipient_id, "?")
            return f"DM to {name} (only {name} sees this)", [name]
        label = f"#{channel.name}"
        if message.ephemeral:
            name = names.get(message.ephemeral_for or 0, "?")
            return f"{label} · only {name} sees this", [name]
        return f"{label} · everyone", list(self.users)

    def _controls(self, message: StoredMessage) -> str:
        parts = []
        button = 0
        select = 0
        for row in message.components or []:
            for component in row.get("components", []):
                if component.get("type") == 2 and component.get("custom_id") and component.get("disabled"):
                    parts.append(f"[– {component.get('label')}]")  # greyed out: no number to press
                elif component.get("type") == 2 and component.get("custom_id"):
                    button += 1
                    parts.append(f"[{button} {component.get('label')}]")
                elif component.get("type") == 3:
                    select += 1
                    options = " / ".join(
                        f"{i}:{o['label']}" for i, o in enumerate(component["options"], start=1)
                    )
                    parts.append(f"\n   select {select} ({component.get('placeholder', '')}): {options}")
        return " ".join(parts).strip()

    def _readable(self, text: str) -> str:
        names = {str(session.id): name for name, session in self.users.items()}
        channels = {str(cid): name for name, cid in self.channels.items()}
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + names.get(m.group(1), m.group(1)), text)
        return re.sub(r"<#(\d+)>", lambda m: "#" + channels.get(m.group(1), m.group(1)), text)


def _parse_slash(text: str) -> tuple[str, dict[str, Any]]:
    """'game new game:x seed:5' -> ('game new', {'game': 'x', 'seed': 5})."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise ValueError(f"could not read that: {error}") from None
    name_parts: list[str] = []
    options: dict[str, Any] = {}  # option values as typed: str, int or bool
    for word in words:
        key, sep, value = word.partition(":")
        if sep and key and not options and not name_parts:
            raise ValueError("start with the command name, e.g. /game new game:test")
        if sep and key:
            options[key] = _typed(value)
        elif options:
            raise ValueError(f"{word!r}: options look like name:value")
        else:
            name_parts.append(word)
    return " ".join(name_parts), options


def _typed(value: str) -> object:
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    if value.lower() in {"true", "false"}:
        return value.lower() == "true"
    return value


def _on_message(text: str) -> tuple[str, int | None]:
    """'2 on 5' -> ('2', 5); 'Join on [5]' -> ('Join', 5); 'Join' -> ('Join', None)."""
    match = re.fullmatch(r"(.*?)\s+on\s+\[?(\d+)\]?", text.strip())
    if match:
        return match.group(1).strip(), int(match.group(2))
    return text.strip(), None


def _numbered(buttons: list[tuple[str | None, str]]) -> str:
    return ", ".join(f"{i}:{label}" for i, (label, _) in enumerate(buttons, start=1)) or "none"


def _users_hint() -> str:
    return f"Users: {', '.join(USERS)}."


def _fresh_output(settings: Settings) -> tuple[Path, Path]:
    """The image folder, and a new database in it: each local session starts from an empty table."""
    out_dir = Path(settings.output_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    database = out_dir / "local.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    return out_dir, database


def _line_history(out_dir: Path) -> Callable[[], None]:
    """Up/down arrows and a history file for a person typing (readline); nothing without a terminal
    or without readline (Windows). Returns what saves the history."""
    if not sys.stdin.isatty():
        return lambda: None
    try:
        import readline
    except ImportError:  # pragma: no cover - Windows
        return lambda: None
    history = out_dir / ".history"
    readline.set_history_length(1000)
    with contextlib.suppress(OSError):
        readline.read_history_file(history)

    def save() -> None:
        with contextlib.suppress(OSError):
            readline.write_history_file(history)

    return save


def _script_lines(script: str | None) -> list[str] | None:
    return Path(script).read_text(encoding="utf-8").splitlines() if script else None


async def run_console(settings: Settings, *, script: str | None = None) -> int:
    out_dir, database = _fresh_output(settings)
    settings = settings.model_copy(update={"database_url": f"sqlite:///{database}", "discord_token": "local"})
    if logging.getLogger().level < logging.WARNING and settings.log_level.upper() == "INFO":
        logging.getLogger().setLevel(logging.WARNING)  # keep the console readable; LOG_LEVEL=DEBUG shows all

    server = FakeDiscord()
    await server.start()
    guild = server.add_guild("Local Table")
    channels = {name: server.add_channel(guild, name) for name in CHANNELS}
    users = {name: server.user(server.add_user(name)) for name in USERS}
    server.set_permissions(guild, users["alice"].id, MANAGE_CHANNELS)
    console = Console(server=server, settings=settings, out_dir=out_dir, channels=channels, users=users)
    stack = contextlib.ExitStack()
    try:
        await console.start_bot()
        print(f"The bot is running on a local Discord emulator. Images go to {out_dir}")
        print(HELP)
        from rules import registry

        print("Games: " + ", ".join(f"{g.info.id} ({g.info.name})" for g in registry.all_games()))
        lines = _script_lines(script)
        if lines is None:
            save_history = _line_history(out_dir)
            stack.callback(save_history)
        while True:
            if lines is not None:
                if not lines:
                    break
                line = lines.pop(0)
                print(f"\n#{console.channel} {line}")
            else:
                try:
                    line = await asyncio.to_thread(input, f"\n#{console.channel} ")
                except EOFError:
                    break
            if not await console.handle(line):
                break
    finally:
        stack.close()
        await console.stop_bot()
        await server.stop()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(asyncio.run(run_console(Settings())))
