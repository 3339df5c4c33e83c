"""The Discord side of a game: answering interactions and telling everyone what a move did.

Cogs and components call `Table`; `Table` calls the `GameService` for every decision and turns the
outcome into Discord messages. Public messages are built only from public views and public event
lines; private ones go to the one seat they belong to (DM, or ephemeral), so nothing leaks.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
import re
import unicodedata
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.app import announcer
from bot.app.announcer import picture_alt
from bot.app.refusals import Refusal, UserError
from bot.app.service import GameService, Move, menu_digest
from bot.app.text import clip, escape_text
from bot.app.timing import when_text
from bot.interface import typed
from bot.interface.components import ROOT, GameButton, choice_menu, lobby_view, menu_node, section_buttons
from bot.interface.pictures import Painter
from bot.interface.reply import Reply
from bot.interface.trading import TradeDesk, trade_button
from bot.storage.store import Delivery, GameRecord, GameStatus, SeatRecord, Timer
from renderer.registry import overlays_for
from rules import words
from rules.core import Choice, Event, Game, RuleError, Seat, View
from rules.policy import policy_for

if TYPE_CHECKING:
    from bot.interface.client import HostBot

log = logging.getLogger(__name__)

MAX_CONTENT = 1900


class Table:
    def __init__(self, bot: HostBot, service: GameService) -> None:
        self.bot = bot
        self.service = service
        self._background: set[asyncio.Task[Any]] = set()
        self.painter = Painter(bot.settings.render_processes)
        self.trades = TradeDesk(self)

    # ---- running handlers ----------------------------------------------------------------
    async def guarded(
        self,
        interaction: discord.Interaction,
        work: Callable[[Reply], Awaitable[None]],
        *,
        update: bool = False,
    ) -> None:
        """Run a component's `work` with a Reply: the same error path as every command."""
        async with Reply(interaction, update=update) as reply:
            await work(reply)

    def spawn(self, coroutine: Awaitable[Any], name: str) -> None:
        """Background work (posting, DMs) that must not hold up the interaction's answer."""
        task = asyncio.ensure_future(coroutine)
        task.set_name(name)
        self._background.add(task)
        task.add_done_callback(self._finished_background)

    def _finished_background(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())

    async def drain(self) -> None:
        """Wait for the background work and for the outbox to be delivered (used before shutdown, by
        the local console and the tests)."""
        while True:
            while self._background:
                await asyncio.gather(*list(self._background), return_exceptions=True)
            courier = getattr(self.bot, "courier", None)
            if courier is not None:
                await courier.idle()
            if not self._background:
                return

    # ---- components ------------------------------------------------------------------------
    async def on_button(
        self, interaction: discord.Interaction, game_id: int, verb: str, menu: str | None, key: str | None
    ) -> None:
        handlers: dict[str, Callable[[Reply], Awaitable[None]]] = {
            "act": lambda reply: self._act(reply, game_id, key, menu),
            "menu": lambda reply: self._menu(reply, game_id),
            "grp": lambda reply: self._open_part(reply, game_id, menu, key),
            "up": lambda reply: self._open_part(reply, game_id, menu, key),
            "hand": lambda reply: self._hand(reply, game_id),
            "board": lambda reply: self._board(reply, game_id),
            "sec": lambda reply: self._section(reply, game_id, key),
            "log": lambda reply: self._log(reply, game_id),
            "join": lambda reply: self._lobby_button(reply, game_id, "join"),
            "leave": lambda reply: self._lobby_button(reply, game_id, "leave"),
            "start": lambda reply: self._lobby_button(reply, game_id, "start"),
            "yes": lambda reply: self._vote(reply, game_id, key, True),
            "no": lambda reply: self._vote(reply, game_id, key, False),
            "takeseat": lambda reply: self._take_seat(reply, game_id, key),
            "undo": lambda reply: self.ask_undo(reply, game_id),
            "trade": lambda reply: self.trades.open(reply, game_id),
            "tradeto": lambda reply: self.trades.ask(reply, game_id, key),
        }
        handler = handlers.get(verb)
        if handler is None:
            await self.guarded(interaction, _unknown_button)
            return
        # A move clicked in an ephemeral menu or a DM replaces that menu; lobby buttons edit the lobby;
        # a section button replaces the board picture it sits under.
        await self.guarded(interaction, handler, update=verb in {"act", "grp", "up", "join", "leave", "sec"})

    async def on_option(
        self, interaction: discord.Interaction, game_id: int, name: str, value: str | None
    ) -> None:
        async with Reply(interaction, update=True) as reply:
            game = await self._game(game_id)
            updated = await self.service.set_option(game.channel_id, interaction.user.id, name, value)
            content, view = await self.lobby_message(updated)
            await reply.send(content, view=view)

    # ---- moves -------------------------------------------------------------------------------
    async def play_move(
        self,
        reply: Reply,
        game: GameRecord,
        *,
        key: str | None = None,
        menu: str | None = None,
        text: str | None = None,
        action: dict[str, Any] | None = None,
    ) -> None:
        """Apply the caller's move, confirm it to them with their next choices, then tell everyone."""
        interaction = reply.interaction
        first: str | None = None
        if text is not None:
            group = re.fullmatch(r"([0-9a-f]{10}):grp:(r(?:\.\d+)*)", text.strip())
            if group:  # an autocomplete entry standing for many variants: their menu
                await self._open_part(reply, game.id, group.group(1), group.group(2))
                return
            steps = await self._resolve_typed_move(game, interaction.user.id, text)
            if len(steps) == 2:  # a phrase naming a two-step move ("Arsenal at F9")
                first = steps[0][0]
            key, menu = steps[-1]
        try:
            if first is not None:
                await self.service.play(
                    game.id, interaction.user.id, key=first, interaction_id=interaction.id
                )
            move = await self.service.play(
                game.id,
                interaction.user.id,
                key=key,
                menu=menu,
                action=action,
                interaction_id=interaction.id if first is None else None,
            )
        except UserError as refusal:
            if refusal.reason is Refusal.STALE:
                await self._stale(reply, game.id, refusal.message)
                return
            raise
        await self._confirm(reply, move)
        self.spawn(self.drive_ai(game.id), f"ai-{game.id}-{move.version}")

    async def _act(self, reply: Reply, game_id: int, key: str | None, menu: str | None) -> None:
        if key is None or menu is None:
            raise UserError("That button is broken; use `/play` instead.")
        await self.play_move(reply, await self._game(game_id), key=key, menu=menu)

    async def _resolve_typed_move(
        self, game: GameRecord, user_id: int, text: str
    ) -> list[tuple[str, str | None]]:
        """`/play` gets '<menu digest>:<key>' from autocomplete, or whatever the player typed: the
        words of one move in any order (small slips forgiven), or of a two-step move such as a build's
        piece then its square. Returns the (key, menu) steps to play, one or two."""
        match = re.fullmatch(r"([0-9a-f]{10}):(.+)", text.strip())
        if match:
            return [(match.group(2), match.group(1))]
        seat = await self.service.require_seat(game, user_id)
        choices = await self.service.choices(game, seat.seat)
        if not choices:
            waiting = await self._waiting_names(game)
            raise UserError(
                f"It is not your turn: waiting for {waiting}." if waiting else "Nobody can move now."
            )
        found = typed.find(choices, text)
        if len(found) == 1:
            return [(found[0].key, None)]
        if not found:
            pairs = await self._two_step(game, seat.seat, choices, text)
            if len(pairs) == 1:
                return [(pairs[0][0].key, None), (pairs[0][1].key, None)]
            if pairs:
                sample = ", ".join(f"`{second.label}`" for _, second in pairs[:5])
                quoted = escape_text(repr(_clip(text, 60)))
                raise UserError(f"{len(pairs)} moves match {quoted}; say which, e.g. {sample}.")
        sample = ", ".join(f"`{c.label}`" for c in (found or choices)[:5])
        quoted = escape_text(repr(_clip(text, 60)))
        if found:
            raise UserError(f"{len(found)} moves match {quoted}; pick one from the list, e.g. {sample}.")
        raise UserError(f"{quoted} is not one of your moves. You can: {sample}…")

    async def _two_step(
        self, game: GameRecord, seat: Seat, choices: list[Choice], text: str
    ) -> list[tuple[Choice, Choice]]:
        """The (first, second) moves a phrase names when the move takes two steps: the first step's
        choice leaves the same seat to choose again, and the typed words are found in the second
        step's label (or across both labels)."""
        wanted = typed.words(text)
        firsts = [c for c in choices if any(typed.score([w], c.label) > 0 for w in wanted)][:40]
        if not firsts:
            return []
        rules = self.service.rules_for(game.kind)
        state = await self.service.state(game)
        pairs: list[tuple[Choice, Choice]] = []
        for first in firsts:
            try:
                after = rules.apply(state, seat, first.action).state
            except RuleError:
                continue
            if rules.result(after) is not None or seat not in rules.to_act(after):
                continue
            seconds = rules.legal_actions(after, seat)
            named = typed.find(seconds, text)
            if len(named) != 1:
                named = [c for c in seconds if typed.score(wanted, f"{first.label} {c.label}") > 0]
            pairs += [(first, second) for second in named]
        return pairs

    async def _confirm(self, reply: Reply, move: Move) -> None:
        lines = [_event_line(event, move.seat) for event in move.events]
        content = "✅ " + "\n".join(lines) if lines else "✅ Done."
        view = None
        if move.result is None and move.seat in move.rules.to_act(move.after):
            choices = move.rules.legal_actions(move.after, move.seat)
            view = _seat_menu(move.game.id, move.rules, move.after, move.seat, choices)
            content += "\n\n**Your turn continues:**"
        undoable = False  # offered only when `/undo` would accept it
        if move.result is None and not any(event.reveals for event in move.events):
            try:
                undoable = await self.service.can_undo(move.game, reply.interaction.user.id)
            except Exception:  # the move is made: its confirmation and announcement still go
                log.exception("could not tell whether game %s can be undone", move.game.id)
        if undoable:
            view = view or discord.ui.View(timeout=None)
            view.add_item(GameButton(move.game.id, "undo", label="Undo", row=4))
        await reply.send(_clip(content), view=view)

    async def _stale(self, reply: Reply, game_id: int, message: str) -> None:
        game = await self._game(game_id)
        seat = await self.service.seat_of(game, reply.interaction.user.id)
        if seat is None or game.status != GameStatus.ACTIVE:
            raise UserError(message)
        choices = await self.service.choices(game, seat.seat)
        view = choice_menu(game.id, choices)
        headline = (await self.service.view(game, None)).headline
        text = f"⚠️ {message}\n{headline}"
        if choices:
            text += "\n**Your choices now:**"
        await reply.send(_clip(text), view=view if choices else None)

    # ---- personal views ------------------------------------------------------------------------
    async def _my_choices(self, reply: Reply, game_id: int) -> tuple[GameRecord, SeatRecord, list[Choice]]:
        """The presser's seat and choices now, or the refusal saying whom the game waits for."""
        game = await self._active(game_id)
        seat = await self.service.require_seat(game, reply.interaction.user.id)
        choices = await self.service.choices(game, seat.seat)
        if not choices:
            waiting = await self._waiting_names(game)
            raise UserError(
                f"It is not your turn: waiting for {waiting}." if waiting else "Nobody can move now."
            )
        return game, seat, choices

    async def _menu(self, reply: Reply, game_id: int) -> None:
        game, seat, choices = await self._my_choices(reply, game_id)
        rules = self.service.rules_for(game.kind)
        view = _seat_menu(game.id, rules, await self.service.state(game), seat.seat, choices)
        headline = (await self.service.view(game, seat.seat)).headline
        await reply.send(_clip(f"**{headline}**\nYour choices:"), view=view)

    async def _open_part(self, reply: Reply, game_id: int, menu: str | None, path: str | None) -> None:
        """A group button of a menu too big for one message: that group's choices (or its parts)."""
        game, seat, choices = await self._my_choices(reply, game_id)
        if menu != menu_digest(choices):
            await self._stale(
                reply,
                game.id,
                "That board has moved on since those buttons were posted; here is where it stands.",
            )
            return
        await self.show_part(reply, game, seat.seat, choices, path or ROOT)

    async def show_part(
        self, reply: Reply, game: GameRecord, seat: Seat, choices: list[Choice], path: str
    ) -> None:
        try:
            node = menu_node(choices, path)
        except ValueError:
            raise UserError("That button is from an older version of the bot; use `/play` instead.") from None
        headline = (await self.service.view(game, seat)).headline
        if path == ROOT:
            rules = self.service.rules_for(game.kind)
            view = _seat_menu(game.id, rules, await self.service.state(game), seat, choices)
            await reply.send(_clip(f"**{headline}**\nYour choices:"), view=view)
            return
        view = choice_menu(game.id, choices, path)
        count = len(node.members)
        await reply.send(_clip(f"**{headline}**\n{escape_text(node.title)}: {count} choices"), view=view)

    async def hand(self, reply: Reply, game: GameRecord) -> None:
        seat = await self.service.require_seat(game, reply.interaction.user.id)
        view = await self.service.view(game, seat.seat)
        file = await self._picture(view, f"hand-{game.id}-v{game.version}.png")
        await reply.send(f"**Your view** (only you can see this) · {view.headline}", file=file)

    async def _hand(self, reply: Reply, game_id: int) -> None:
        await self.hand(reply, await self._active(game_id))

    async def board(
        self,
        reply: Reply,
        game: GameRecord,
        *,
        public: bool = False,
        section: str | None = None,
        target: str | None = None,
        heading: str | None = None,
    ) -> None:
        """The public board, or one of the game's sections or overlays; all drawn from the public view
        only. Shown to one person, it carries a button per section (a phone user never types names)."""
        view = await self.service.view(game, None)
        name = self.service.rules_for(game.kind).info.name
        sections = [o.name for o in overlays_for(game.kind).values() if not o.target]
        if section and section != "board":
            overlays = overlays_for(game.kind)
            chosen = overlays.get(section)
            if chosen is None:
                offered = ", ".join(overlays) or "none for this game"
                raise UserError(f"There is no {section!r} section for {name} (sections: {offered}).")
            if chosen.target and not (target or "").strip():
                raise UserError(f"Say which one with `target:`: {chosen.target}.")
            png = await self.painter.overlay(view, chosen.name, target)
            file = discord.File(
                io.BytesIO(png),
                filename=f"{chosen.name}-{game.id}-v{game.version}.png",
                description=_clip(f"{chosen.description}. {view.headline}", 1000),
            )
            buttons = None if public or chosen.target else section_buttons(game.id, sections, chosen.name)
            await reply.send(
                f"**{name}** · {chosen.description}", file=file, view=buttons, ephemeral=not public
            )
            return
        file = await self._picture(view, f"board-{game.id}-v{game.version}.png")
        text = (
            f"**{name}** · {view.headline}" if heading is None else f"{heading}\n\n**Now:** {view.headline}"
        )
        buttons = None if public else section_buttons(game.id, sections)
        await reply.send(_clip(text), file=file, view=buttons, ephemeral=not public)

    async def _section(self, reply: Reply, game_id: int, section: str | None) -> None:
        await self.board(reply, await self._started(game_id), section=section or "board")

    async def catch_up_board(self, reply: Reply, game: GameRecord, since: int, *, heading: str) -> None:
        """The public board with what changed since log entry `since` framed, for the caller only.

        Both pictures come from public views (then and now), never from the caller's private view, so
        the image shows nothing a spectator could not have seen on the two turn posts."""
        rules = self.service.rules_for(game.kind)
        now = await self.service.view(game, None)
        then = rules.view(await self.service.state_at(game, since), None)
        png, changes = await self.painter.changes(then, now)
        said = "; ".join(changes) if changes else "nothing on the board changed"
        file = discord.File(
            io.BytesIO(png),
            filename=f"catchup-{game.id}-v{game.version}.png",
            description=picture_alt(now, f"Changed since your last move: {said}."),
        )
        await reply.send(_clip(f"{heading}\n\n**Now:** {now.headline}"), file=file)

    async def _board(self, reply: Reply, game_id: int) -> None:
        await self.board(reply, await self._started(game_id))

    async def log_text(self, game: GameRecord, lines: int = 15) -> str:
        entries = await self.service.log_lines(game, lines)
        if not entries:
            return "Nothing has happened yet."
        return _clip("**Latest moves**\n" + "\n".join(f"• {line}" for line in entries))

    async def _log(self, reply: Reply, game_id: int) -> None:
        await reply.send(await self.log_text(await self._started(game_id)))

    # ---- lobby -------------------------------------------------------------------------------
    async def lobby_message(self, game: GameRecord) -> tuple[str, discord.ui.View | None]:
        rules = self.service.rules_for(game.kind)
        seats = await self.service.seats(game.id)
        info = rules.info
        players = ", ".join(
            f"<@{seat.user_id}>" if seat.user_id > 0 else f"🤖 {escape_text(seat.name)}" for seat in seats
        )
        options = ", ".join(
            f"{spec.label}: {_option_text(game.options.get(spec.name))}" for spec in info.options
        )
        lines = [
            f"🎲 **{info.name}** — new game hosted by <@{game.host_id}>",
            f"_{info.summary}_",
            f"Players ({len(seats)}/{info.max_players}, need {info.min_players}): {players}",
        ]
        if options:
            lines.append(f"Options: {options}")
        lines.append("Press **Join** to take a seat. The host presses **Start** when everyone is in.")
        return "\n".join(lines), lobby_view(game.id, info.options, game.options)

    async def _lobby_button(self, reply: Reply, game_id: int, verb: str) -> None:
        game = await self._game(game_id)
        if game.status != GameStatus.LOBBY:
            raise UserError("This lobby is closed; the game has started or ended.")
        user = reply.interaction.user
        if verb == "join":
            await self.service.join(game.channel_id, user.id, display_name(user))
        elif verb == "leave":
            await self.service.leave(game.channel_id, user.id)
        else:
            await self.start(reply, game.channel_id)
            return
        content, view = await self.lobby_message(game)
        await reply.send(content, view=view)

    async def start(self, reply: Reply, channel_id: int) -> None:
        interaction = reply.interaction
        is_admin = _is_admin(interaction)
        started = await self.service.start(channel_id, interaction.user.id, is_admin=is_admin)
        names = ", ".join(escape_text(seat.name) for seat in started.seats)
        await reply.send(f"▶️ **{started.rules.info.name}** has started with {names}.", ephemeral=False)
        await self.close_lobby(started.game, f"▶️ Started with {names}.")
        self.spawn(self.drive_ai(started.game.id), f"ai-{started.game.id}-start")

    async def post_lobby(self, reply: Reply, game: GameRecord) -> None:
        content, view = await self.lobby_message(game)
        await reply.send(content, view=view, ephemeral=False)
        message = await reply.interaction.original_response()
        await self.service.remember_message(game.id, "lobby", game.channel_id, message.id, 0)

    async def refresh_lobby(self, game_id: int) -> None:
        """Show the lobby's current players and options after a /game join or leave."""
        game = await self.service.game(game_id)
        stored = await self.service.message(game_id, "lobby")
        channel = await self._channel(stored[0]) if stored else None
        if game is None or stored is None or channel is None:
            return
        content, view = await self.lobby_message(game)
        try:
            await channel.get_partial_message(stored[1]).edit(content=content, view=view)  # type: ignore[attr-defined]
        except discord.HTTPException:
            log.info("lobby message of game %s could not be refreshed", game_id)

    async def close_lobby(self, game: GameRecord, note: str) -> None:
        """The lobby's buttons go away once it is started or abandoned, so nobody joins a running game."""
        stored = await self.service.message(game.id, "lobby")
        channel = await self._channel(game.channel_id) if stored else None
        if stored is None or channel is None:
            return
        content, _ = await self.lobby_message(game)
        first_lines = content.split("\n")[:3]
        try:
            await channel.get_partial_message(stored[1]).edit(  # type: ignore[attr-defined]
                content="\n".join([*first_lines, note]),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.info("lobby message of game %s could not be closed", game.id)

    # ---- computer seats ----------------------------------------------------------------------
    async def drive_ai(self, game_id: int, *, limit: int = 400) -> int:
        """Play every move owed by computer seats (AI seats, autopiloted dropped seats). Each is
        announced like anyone's move: a run of computer moves edits the live post, and the next person
        to act gets the new post with all of their lines. Returns how many moves were made."""
        moves: list[Move] = []
        for _ in range(limit):
            game = await self.service.game(game_id)
            if game is None or game.status != GameStatus.ACTIVE:
                break
            seats = await self.service.seats(game_id)
            if not any(seat.user_id < 0 or seat.dropped for seat in seats):
                break  # a table of people only: nothing to play (the common case, kept cheap)
            clock = await self.service.table_settings(game)
            state = await self.service.state(game)
            rules = self.service.rules_for(game.kind)
            automated = [
                seat
                for seat in sorted(rules.to_act(state))
                if seats[seat].user_id < 0 or (seats[seat].dropped and clock.on_timeout == "autopilot")
            ]
            if not automated:
                break
            seat = automated[0]
            rng = random.Random(f"{game.seed}:{game.version}:{seat}")
            policy = policy_for(game.kind)
            choice = await asyncio.to_thread(policy.choose, rules, state, seat, rng, clock.ai_strength)
            try:
                moves.append(
                    await self.service.play_for_seat(game_id, seat, choice.key, expected_version=game.version)
                )
            except UserError:
                break  # a person moved meanwhile: their own post will trigger the next round
        return len(moves)

    # ---- slow play ---------------------------------------------------------------------------
    async def remind(self, game: GameRecord, seat: SeatRecord, timer: Timer) -> None:
        """A nudge in the channel (with a jump link to the turn) and, if their DMs are open, by DM."""
        info = self.service.rules_for(game.kind).info
        link = await self.turn_link(game)
        again = f" (reminder {timer.count + 1})" if timer.count else ""
        due = (await self.service.deadlines(game)).get(seat.seat)
        deadline = f" ⏳ Deadline {when_text(due)}." if due is not None else ""
        text = f"⏰ <@{seat.user_id}>, **{info.name}** is waiting for your move{again}.{deadline} {link}"
        owed = [_notice(game, text.strip(), ping=[seat.user_id])]
        if not seat.dm_closed:
            nudge = f"⏰ Your move in **{info.name}** in <#{game.channel_id}>.{deadline} {link}"
            owed.append(
                Delivery(kind="dm", target=seat.user_id, payload={"content": nudge.strip()}, due_at=0.0)
            )
        await self.service.owe(game, owed)

    async def time_out(self, game: GameRecord, seat: SeatRecord) -> None:
        """The seat's deadline passed: apply the table's policy."""
        settings = await self.service.table_settings(game)
        info = self.service.rules_for(game.kind).info
        name = escape_text(seat.name)
        if settings.on_timeout in ("replace", "autopilot"):
            await self.service.set_seat_flag(game.id, seat.seat, "dropped", True)
            text = (
                f"⌛ {name} ran out of time and was dropped from **{info.name}**."
                + (
                    " The computer plays the seat until a substitute takes it."
                    if settings.on_timeout == "autopilot"
                    else ""
                )
                + " Anyone not playing can take the seat, with its cards: press the button."
            )
            notice = _notice(game, text)
            notice.payload |= {"take_seat": seat.seat, "label": _clip(f"Take {seat.name}'s seat", 80)}
            await self.service.owe(game, [notice])
            if settings.on_timeout == "autopilot":
                self.spawn(self.drive_ai(game.id), f"autopilot-{game.id}-{game.version}")
            return
        state = await self.service.state(game)
        choice = self.service.rules_for(game.kind).timeout_choice(
            state, seat.seat, settings.on_timeout or "skip"
        )
        if choice is None:
            text = (
                f"⌛ <@{seat.user_id}> ran out of time, but the rules allow no pass here, so the table keeps"
                " waiting. A moderator can `/game replace` the player."
            )
            await self.service.owe(game, [_notice(game, text, ping=[seat.user_id])])
            return
        note = f"⌛ {name} ran out of time; the clock played **{choice.label}** for them."
        move = await self.service.play_for_seat(
            game.id, seat.seat, choice.key, expected_version=game.version, note=note
        )
        self.spawn(self.drive_ai(game.id), f"ai-{game.id}-{move.version}")

    async def ask_undo(self, reply: Reply, game_id: int) -> None:
        """The caller asks to take back their last move; the other players approve with buttons."""
        await self.undo_in_channel(reply, (await self._game(game_id)).channel_id)

    async def undo_in_channel(self, reply: Reply, channel_id: int) -> None:
        user = reply.interaction.user
        game, plan, others = await self.service.undo_request(channel_id, user.id)
        if not others:
            move = await self.service.undo_alone(channel_id, user.id)
            await reply.send(f"↩️ Done: {plan.describe().replace('their', 'your')} taken back.")
            self.spawn(self.drive_ai(game.id), f"ai-{game.id}-{move.version}")
            return
        lines = [event["text"] for move in plan.moves for event in move.events]
        what = "; ".join(words.clause(line) for line in lines) or "no visible change"
        request = (
            f"↩️ {user.mention} asks to take back {plan.describe()} ({_clip(what, 300)})."
            f" Waiting for: {', '.join(others)}."
        )
        buttons = _vote_buttons(game.id, f"undo-{plan.last_version}")
        if reply.interaction.channel_id == game.channel_id:
            await reply.send(request, view=buttons, ephemeral=False)
            return
        channel = await self._channel(game.channel_id)  # asked from a DM: the table decides in its channel
        if channel is None:
            raise UserError("The game's channel is gone.")
        await channel.send(request, view=buttons, allowed_mentions=discord.AllowedMentions.none())
        await reply.send(f"↩️ Your request is posted in <#{game.channel_id}>.")

    async def _vote(self, reply: Reply, game_id: int, key: str | None, approve: bool) -> None:
        """Approve or Refuse under a vote; the service refuses anyone not seated in the game now."""
        user = reply.interaction.user
        undo = re.fullmatch(r"undo-(\d+)", key or "")
        replacement = re.fullmatch(r"replace-(\d+)-(\d+)", key or "")
        if undo:
            outcome, move = await self.service.undo_vote(game_id, user.id, int(undo.group(1)), approve)
            if outcome == "refused":
                await reply.send(f"❌ {user.mention} refused the undo; the move stands.", ephemeral=False)
            elif outcome == "waiting":
                await reply.send(
                    f"👍 {user.mention} approves the undo; waiting for the others.", ephemeral=False
                )
            else:
                await reply.send("↩️ Everyone agreed: it was taken back.", ephemeral=False)
                assert move is not None
                self.spawn(self.drive_ai(game_id), f"ai-{game_id}-{move.version}")
            return
        if replacement:
            old, new = int(replacement.group(1)), int(replacement.group(2))
            if not approve:
                await self.service.replace_refuse(game_id, user.id, old, new)
                await reply.send(f"❌ {user.mention} refused the replacement.", ephemeral=False)
                return
            name = await self._display_name(reply.interaction, new)
            game, done, missing = await self.service.replace_vote(game_id, user.id, old, new, name)
            await self._after_replace(reply, game, old, new, done, missing)
            return
        raise UserError("That vote is from an older version of the bot.")

    async def request_replace(self, reply: Reply, old: discord.abc.User, new: discord.abc.User) -> None:
        interaction = reply.interaction
        game, done, missing = await self.service.replace_request(
            interaction.channel_id,
            interaction.user.id,
            old.id,
            new.id,
            display_name(new),
            is_admin=_is_admin(interaction),
        )
        await self._after_replace(reply, game, old.id, new.id, done, missing)

    async def _after_replace(
        self, reply: Reply, game: GameRecord, old: int, new: int, done: bool, missing: list[str]
    ) -> None:
        if not done:
            await reply.send(
                f"🔁 Proposal: <@{new}> takes over <@{old}>'s seat. Still to agree: {', '.join(missing)}.",
                view=_vote_buttons(game.id, f"replace-{old}-{new}"),
                ephemeral=False,
            )
            return
        await reply.send(f"🔁 <@{new}> now plays in <@{old}>'s seat.", ephemeral=False)
        self.spawn(self._welcome_substitute(game, new), f"substitute-{game.id}")

    async def _take_seat(self, reply: Reply, game_id: int, key: str | None) -> None:
        if key is None or not key.isdigit():
            raise UserError("That button is broken.")
        user = reply.interaction.user
        game = await self.service.take_seat(game_id, int(key), user.id, display_name(user))
        await reply.send(f"🪑 {user.mention} takes the empty seat and plays on.", ephemeral=False)
        self.spawn(self._welcome_substitute(game, user.id), f"substitute-{game.id}")

    async def _welcome_substitute(self, game: GameRecord, user_id: int) -> None:
        """The seat's private information goes to the new player only."""
        fresh = await self._game(game.id)
        seats = await self.service.seats(game.id)
        seat = next(s for s in seats if s.user_id == user_id)
        to_act = await self.service.to_act(fresh)
        view = await self.service.view(fresh, seat.seat)
        table = announcer.Table(game=fresh, rules=self.service.rules_for(fresh.kind), seats=seats)
        welcome = announcer.private_dm(
            table, fresh.version, seat, view, ["You took over this seat."], seat.seat in to_act, picture=True
        )
        await self.service.owe(fresh, [welcome])

    async def game_thread(self, game: GameRecord) -> discord.abc.Messageable | None:
        """The game's follow thread, created on first use under the game's channel."""
        stored = await self.service.message(game.id, "thread")
        if stored is not None:
            return await self._channel(stored[0])
        channel = await self._channel(game.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        info = self.service.rules_for(game.kind).info
        try:
            thread = await channel.create_thread(
                name=f"{info.name} #{game.id}"[:100], type=discord.ChannelType.public_thread
            )
        except discord.HTTPException:
            log.info("cannot create a follow thread in channel %s", channel.id)
            return None
        await self.service.remember_message(game.id, "thread", thread.id, thread.id, game.version)
        return thread

    async def deadline_line(self, game: GameRecord, seats: list[SeatRecord]) -> str:
        """The waiting seats' deadlines as Discord timestamps (each reader sees their own local time).
        One line when they agree; per player when quiet hours moved some of them."""
        deadlines = await self.service.deadlines(game)
        if not deadlines:
            return ""
        if len(set(deadlines.values())) == 1:
            return f"⏳ Deadline {when_text(next(iter(deadlines.values())))}"
        parts = [
            f"{escape_text(seats[seat].name)} {when_text(due)}" for seat, due in sorted(deadlines.items())
        ]
        return "⏳ Deadline " + "; ".join(parts)

    async def turn_link(self, game: GameRecord) -> str:
        """A jump link to the game's latest turn message, or '' before one was posted."""
        stored = await self.service.message(game.id, "turn")
        if stored is None or game.guild_id is None:
            return ""
        return f"https://discord.com/channels/{game.guild_id}/{stored[0]}/{stored[1]}"

    async def _display_name(self, interaction: discord.Interaction, user_id: int) -> str:
        guild = interaction.guild
        member = guild.get_member(user_id) if guild else None
        if member is not None:
            return display_name(member)
        try:
            return display_name(await self.bot.fetch_user(user_id))
        except discord.HTTPException:
            return f"player {user_id}"

    # ---- helpers ------------------------------------------------------------------------------
    async def _picture(self, view: View, filename: str, events: list[Event] = ()) -> discord.File:
        """The view's picture, with alt text from the same view and the move's public lines only."""
        png = await self.painter.png(view)
        news = ("Last move: " + " ".join(event.text for event in events)) if events else ""
        return discord.File(io.BytesIO(png), filename=filename, description=picture_alt(view, news))

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return channel  # type: ignore[return-value]

    async def _game(self, game_id: int) -> GameRecord:
        game = await self.service.game(game_id)
        if game is None:
            raise UserError("That game no longer exists.")
        return game

    async def _started(self, game_id: int) -> GameRecord:
        game = await self._game(game_id)
        if game.status in (GameStatus.LOBBY, GameStatus.ABANDONED) or game.state is None:
            raise UserError("That game is not being played.")
        return game

    async def _active(self, game_id: int) -> GameRecord:
        game = await self._started(game_id)
        if game.status != GameStatus.ACTIVE:
            raise UserError("That game is over. `/board` shows the final position.")
        return game

    async def _waiting_names(self, game: GameRecord) -> str:
        seats = await self.service.seats(game.id)
        return ", ".join(escape_text(seats[seat].name) for seat in sorted(await self.service.to_act(game)))


def display_name(user: discord.abc.User) -> str:
    """A player's name as the log shows it: their display name on one line, without control
    characters, cut to a sane length (the rules core and the pictures get it as it is here)."""
    raw = getattr(user, "display_name", None) or user.name
    cleaned = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in raw)
    return _clip(" ".join(cleaned.split()) or "player", 40)


def _notice(game: GameRecord, text: str, *, ping: list[int] = ()) -> Delivery:  # type: ignore[assignment]
    """A plain line in the game's channel, delivered through the outbox; only `ping` is pinged."""
    return Delivery(
        kind="notice",
        target=game.channel_id,
        payload={"content": _clip(text), "ping": list(ping)},
        due_at=0.0,
    )


def _vote_buttons(game_id: int, key: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        GameButton(game_id, "yes", menu="0", key=key, label="Approve", style=discord.ButtonStyle.success)
    )
    view.add_item(
        GameButton(game_id, "no", menu="0", key=key, label="Refuse", style=discord.ButtonStyle.danger)
    )
    return view


def _is_admin(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and (permissions.manage_channels or permissions.administrator))


def _event_line(event: Event, seat: Seat) -> str:
    return event.private.get(seat, event.text)


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _seat_menu(game_id: int, rules: Game, state: Any, seat: Seat, choices: list[Choice]) -> discord.ui.View:
    """A seat's choices as components, plus the trade composer's button when the seat may propose."""
    view = choice_menu(game_id, choices)
    if rules.trade_form(state, seat) is not None:
        view.add_item(trade_button(game_id))
    return view


def _clip(text: str, limit: int = MAX_CONTENT) -> str:
    return clip(text, limit)


async def _unknown_button(reply: Reply) -> None:
    raise UserError("That button is from an older version of the bot; use `/play` instead.")


is_admin = _is_admin
