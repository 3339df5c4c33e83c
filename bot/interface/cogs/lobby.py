"""/game: create, join, leave, start, inspect and abandon the channel's game."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import archive
from bot.app.limits import PUBLIC_REPLAY
from bot.app.refusals import UserError
from bot.app.service import parse_options
from bot.app.text import escape_text
from bot.app.timing import TIMEOUT_POLICIES, hours_text
from bot.interface.permissions import check_channel_permissions, check_thread_permissions
from bot.interface.reply import Reply
from bot.interface.table import display_name, is_admin
from bot.interface.where import channel_id
from bot.storage.store import GameRecord, GameStatus
from rules import registry, words
from rules.core import Result

if TYPE_CHECKING:
    from bot.interface.client import HostBot
    from bot.storage.store import GameRecord


@app_commands.guild_only()
class Lobby(
    commands.GroupCog, group_name="game", group_description="Start, join and manage this channel's game"
):
    def __init__(self, bot: HostBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def table(self):  # noqa: ANN201 - the bot's Table
        return self.bot.table

    @app_commands.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        game="Which game to play",
        seed="Optional: a number that fixes the shuffles and dice, to replay a game exactly",
        options="Optional: game options as name=value pairs, e.g. rounds=10",
        ai="Optional: computer players to fill seats",
        ai_strength="How well the computer players play: 1 casual, 2 solid, 3 their best",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[str, 1, 60],
        seed: app_commands.Range[int, 0, 2_147_483_647] | None = None,
        options: app_commands.Range[str, 0, 300] | None = None,
        ai: app_commands.Range[int, 0, 5] = 0,
        ai_strength: app_commands.Range[int, 1, 3] = 2,
    ) -> None:
        async with Reply(interaction) as reply:
            check_channel_permissions(interaction)
            record = await self.bot.service.new_game(
                kind=game.strip(),
                guild_id=interaction.guild_id,
                channel_id=channel_id(interaction),
                user_id=interaction.user.id,
                name=display_name(interaction.user),
                options=parse_options(options or ""),
                seed=seed,
                ai=ai,
                ai_strength=ai_strength,
            )
            await self.table.post_lobby(reply, record)

    @new.autocomplete("game")
    async def _game_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        wanted = current.lower()
        return [
            app_commands.Choice(name=f"{g.info.name} ({g.info.players_text()})", value=g.info.id)
            for g in registry.all_games()
            if wanted in g.info.name.lower() or wanted in g.info.id
        ][:25]

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            game, seat = await self.bot.service.join(
                channel_id(interaction), interaction.user.id, display_name(interaction.user)
            )
            await reply.send(f"🪑 {interaction.user.mention} joined (seat {seat + 1}).", ephemeral=False)
            await self.table.refresh_lobby(game.id)

    @app_commands.command(name="leave", description="Leave this channel's lobby before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            game = await self.bot.service.leave(channel_id(interaction), interaction.user.id)
            await reply.send(f"👋 {interaction.user.mention} left the lobby.", ephemeral=False)
            await self.table.refresh_lobby(game.id)

    @app_commands.command(name="start", description="Start the game (host or a moderator)")
    async def start(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            await self.table.start(reply, interaction.channel_id)

    @app_commands.command(name="status", description="What is happening in this channel's game")
    async def status(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            service = self.bot.service
            game = await service.latest_game_in(channel_id(interaction))
            if game is None:
                raise UserError("No game has been played in this channel yet. Start one with `/game new`.")
            info = service.rules_for(game.kind).info
            seats = await service.seats(game.id)
            lines = [f"**{info.name}** · {game.status.value} · game #{game.id}"]
            lines.append("Players: " + ", ".join(f"{s.seat + 1}. {escape_text(s.name)}" for s in seats))
            if game.channel_lost:
                lines.append(
                    f"⚠️ This game has lost its channel: {game.channel_lost}. Its moves are kept; the turn"
                    " posts resume once the bot can post here again."
                )
            owed = await service.undelivered(game)
            if owed:
                lines.append(f"📮 {words.count(owed, 'message')} still on the way to Discord.")
            if game.state is not None:
                view = await service.view(game, None)
                lines.append(f"Now: {escape_text(view.headline)} (move {await service.move_count(game)})")
                deadline = await self.table.deadline_line(game, seats)
                if deadline:
                    lines.append(deadline)
            options = "; ".join(info.option_lines(game.options))
            if options:
                lines.append(f"Options: {options}")
            lines.append(f"Seed: {game.seed}")
            await reply.send("\n".join(lines))

    @app_commands.command(
        name="abandon", description="End this channel's game (all players agree, or a moderator)"
    )
    async def abandon(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            game, done, missing = await self.bot.service.abandon(
                channel_id(interaction),
                interaction.user.id,
                is_admin=is_admin(interaction),
                name=display_name(interaction.user),
            )
            key = f"abandon:{game.version}"
            if not done:
                await self.table.open_vote(
                    reply,
                    game,
                    key,
                    f"🗳️ {interaction.user.mention} wants to abandon the game.",
                    f"Still to agree with `/game abandon`: {', '.join(escape_text(name) for name in missing)}"
                    " (a move made before then keeps the game going and cancels this vote).",
                )
                return
            # The vote's message shows its outcome; the channel (and whoever asked) is told by the decision.
            await self.table.close_vote(game, key, "🛑 Decided: the game is abandoned.")
            if game.status == GameStatus.ACTIVE:  # the channel is told by the decision, in the outbox
                await reply.send("🛑 Done: the game is abandoned.")
            else:
                await reply.send(_abandoned(game, interaction), ephemeral=False)
            self.table.spawn(self.bot.calendar.sync(game.id), f"calendar-{game.id}")
            await self.table.close_lobby(game, "🛑 Abandoned.")

    @app_commands.command(name="clock", description="This table's reminders and move deadline")
    @app_commands.describe(
        reminder_hours="Hours before a waiting player is reminded (0 = never)",
        deadline_hours="Hours per move (0 = no deadline)",
        on_timeout="What happens when a player runs out of time",
        strict="Exact deadlines even in a player's quiet hours (default: a deadline waits until they end)",
    )
    async def clock(
        self,
        interaction: discord.Interaction,
        reminder_hours: app_commands.Range[float, 0.0, 336.0] | None = None,
        deadline_hours: app_commands.Range[float, 0.0, 720.0] | None = None,
        on_timeout: Literal["skip", "default", "replace", "autopilot"] | None = None,
        strict: bool | None = None,
    ) -> None:
        async with Reply(interaction) as reply:
            game, clock = await self.bot.service.set_table_clock(
                channel_id(interaction),
                interaction.user.id,
                is_admin=is_admin(interaction),
                reminder_hours=reminder_hours,
                deadline_hours=deadline_hours,
                on_timeout=on_timeout,
                strict_clocks=strict,
            )
            reminders = f"after {hours_text(clock.reminder_hours)}" if clock.reminder_hours else "off"
            deadline = (
                f"{hours_text(clock.deadline_hours)} per move; then {TIMEOUT_POLICIES[clock.on_timeout or 'skip']}"
                + (
                    " (strict: quiet hours do not move it)"
                    if clock.strict_clocks
                    else " (moved to the end of a player's quiet hours)"
                )
                if clock.deadline_hours
                else "none"
            )
            await reply.send(
                f"⏱️ Table clock — reminders: {reminders}; deadline: {deadline}.", ephemeral=False
            )

    @app_commands.command(name="posts", description="How this table posts in the channel")
    @app_commands.describe(
        style="compact: one post per handoff, edited while a player acts on (default); every_move: a post per move"
    )
    async def posts(self, interaction: discord.Interaction, style: Literal["compact", "every_move"]) -> None:
        async with Reply(interaction) as reply:
            await self.bot.service.set_table_clock(
                channel_id(interaction), interaction.user.id, is_admin=is_admin(interaction), posts=style
            )
            said = (
                "one post per handoff, edited in place while a player goes on acting"
                if style == "compact"
                else "a new post for every move"
            )
            await reply.send(f"🗞️ This table now posts {said}.", ephemeral=False)

    @app_commands.command(
        name="vacation", description="Pause your clock in this game (no reminders or deadline)"
    )
    @app_commands.describe(on="true to go on vacation, false to come back")
    async def vacation(self, interaction: discord.Interaction, on: bool = True) -> None:
        async with Reply(interaction) as reply:
            game = await self.bot.service.set_vacation(channel_id(interaction), interaction.user.id, on)
            self.table.spawn(self.bot.calendar.sync(game.id), f"calendar-{game.id}")
            text = (
                f"🏖️ {interaction.user.mention} is on vacation: no reminders or deadline for them until they are back."
                if on
                else f"👋 {interaction.user.mention} is back; their clock runs again."
            )
            await reply.send(text, ephemeral=False)

    @app_commands.command(
        name="replace", description="Seat a substitute in a player's place (table agrees, or a moderator)"
    )
    @app_commands.describe(old="The player who leaves", new="The substitute who takes the seat and its cards")
    async def replace(self, interaction: discord.Interaction, old: discord.User, new: discord.User) -> None:
        async with Reply(interaction) as reply:
            if new.bot:
                raise UserError("A bot cannot take a seat.")
            await self.table.request_replace(reply, old, new)

    @app_commands.command(name="follow", description="Follow this channel's game by DM or in a thread")
    @app_commands.describe(mode="dm: a DM after every move; thread: a thread for this game; off: stop")
    async def follow(
        self, interaction: discord.Interaction, mode: Literal["dm", "thread", "off"] = "dm"
    ) -> None:
        async with Reply(interaction) as reply:
            game = await self.bot.service.open_game(channel_id(interaction))
            if mode == "thread":
                check_thread_permissions(interaction)
            await self.bot.service.set_follower(game.id, interaction.user.id, None if mode == "off" else mode)
            if mode == "off":
                await reply.send("🔕 You no longer follow this game.")
            elif mode == "dm":
                await reply.send(
                    "🔔 You will get a DM with every move of this game (public information only)."
                )
            else:
                thread = await self.table.game_thread(game)
                if thread is None:
                    raise UserError("I cannot create a thread here; try `/game follow mode:dm`.")
                await thread.send(f"🔔 {interaction.user.mention} follows this game here.")
                await reply.send(f"🔔 Every move of this game will be posted in <#{thread.id}>.")

    @app_commands.command(
        name="history", description="The whole public log of this channel's game, as a text file"
    )
    async def history(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            self.table.paced(interaction.user.id)  # the whole log, read and written out
            service = self.bot.service
            game = await service.latest_game_in(channel_id(interaction))
            if game is None:
                raise UserError("No game has been played in this channel yet.")
            text = await self.bot.service.history_text(game)
            file = discord.File(io.BytesIO(text.encode()), filename=f"game-{game.id}-history.txt")
            await reply.send(f"📜 The public log of game #{game.id}.", file=file)

    @app_commands.command(
        name="export",
        description="Save a game as a file (anyone once it is over; in play, all players agree)",
    )
    @app_commands.describe(game_id="Which of this channel's games (default: the latest)")
    async def export(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        async with Reply(interaction) as reply:
            saved = await self.bot.service.export(channel_id(interaction), interaction.user.id, game_id)
            key = f"export:{saved.game.version}"
            if saved.data is None:
                await self.table.open_vote(
                    reply,
                    saved.game,
                    key,
                    f"🗳️ {interaction.user.mention} wants to save game #{saved.game.id} as a file (it shows "
                    "every hidden card, so only the players get it).",
                    "Still to agree with `/game export`: "
                    f"{', '.join(escape_text(name) for name in saved.missing)}.",
                )
                return
            said = (
                f"💾 Game #{saved.game.id}, saved at move {saved.moves}. `/game import` opens it in any "
                "channel."
            )
            await reply.send(said, file=discord.File(io.BytesIO(saved.data), filename=saved.filename))
            if saved.agreed:  # a game in progress: the players who asked before are owed their file
                outcome = "💾 Everyone agreed: each player who asked has the file, privately."
                if await self.table.close_vote(saved.game, key, outcome) is not None:
                    others = [user for user in saved.agreed if user != interaction.user.id]
                    self.table.spawn(self.table.send_files(saved, others, said), f"export-{saved.game.id}")

    @app_commands.command(name="replay", description="Watch a game of this channel as one animated picture")
    @app_commands.describe(game_id="Which of this channel's games (default: the latest)")
    async def replay(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        async with Reply(interaction) as reply:
            user_id = interaction.user.id
            self.table.paced(user_id)
            game, views, captions = await self.bot.service.replay_frames(channel_id(interaction), game_id)
            kept = await self._replay_kept(interaction, game)
            if not interaction.response.is_done():  # seconds of drawing: say so while it is drawn
                await interaction.response.defer(thinking=True, ephemeral=kept is not None)
            data = await self.table.painter.replay(views, captions)
            name = self.bot.service.rules_for(game.kind).info.name
            file = discord.File(io.BytesIO(data), filename=f"game-{game.id}-replay.webp")
            file.description = f"{name}, game #{game.id}: the public board in {words.count(len(views), 'picture')}, one per turn."
            said = f"🎞️ {name}, game #{game.id}: the public board turn by turn."
            await reply.send(said + (f"\n{kept}" if kept else ""), file=file, ephemeral=kept is not None)

    async def _replay_kept(self, interaction: discord.Interaction, game: GameRecord) -> str | None:
        """Why this replay goes to the asker only (None: to the channel): a replay is a large animated
        picture, so the channel gets one when a player of the game (or a moderator) asks, at most once
        per game in `PUBLIC_REPLAY`."""
        user_id = interaction.user.id
        played = any(seat.user_id == user_id for seat in await self.bot.service.seats(game.id))
        if not (played or is_admin(interaction)):
            return "Only you see this: the channel gets a replay when one of the game's players asks."
        return self.table.kept_private("replay", game.id, user_id, PUBLIC_REPLAY)

    @app_commands.command(
        name="import", description="Open a lobby from a saved game (a file from /game export)"
    )
    @app_commands.describe(file="The .json file `/game export` gave")
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        async with Reply(interaction) as reply:
            if file.size > archive.MAX_BYTES:
                raise UserError(f"That file is {file.size // 1000} kB; a saved game is far smaller.")
            record, _ = await self.bot.service.import_game(
                guild_id=interaction.guild_id,
                channel_id=channel_id(interaction),
                user_id=interaction.user.id,
                name=display_name(interaction.user),
                raw=await file.read(),
            )
            await self.table.post_lobby(reply, record)

    @app_commands.command(
        name="seat", description="In a lobby from a saved game: who takes which saved seat (host)"
    )
    @app_commands.describe(
        player="Someone who joined", saved_seat="The seat's number in the file, as the lobby lists"
    )
    async def seat(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        saved_seat: app_commands.Range[int, 1, 8],
    ) -> None:
        async with Reply(interaction) as reply:
            who, seat = await self.bot.service.place(
                channel_id(interaction), interaction.user.id, player.id, saved_seat
            )
            await reply.send(f"🪑 {escape_text(who)} will play {escape_text(seat)}'s seat.", ephemeral=False)
            game = await self.bot.service.open_game(channel_id(interaction))
            await self.table.refresh_lobby(game.id)

    @app_commands.command(name="list", description="Games of this channel, this server, or yours")
    @app_commands.describe(scope="channel, server or mine")
    async def list_games(
        self, interaction: discord.Interaction, scope: Literal["channel", "server", "mine"] = "channel"
    ) -> None:
        async with Reply(interaction) as reply:
            self.table.paced(interaction.user.id)  # up to a server's every game
            service = self.bot.service
            if scope == "channel":
                games = await service.list_games(channel_id=interaction.channel_id)
            elif scope == "server":
                games = await service.list_games(guild_id=interaction.guild_id)
            else:
                games = await service.list_games(user_id=interaction.user.id)
            if not games:
                await reply.send("No games yet.")
                return
            lines = [f"**Games ({scope})**"]
            for game in games:
                lines.append(await self._summary(game))
            await reply.send("\n".join(lines)[:1900])

    async def _summary(self, game) -> str:  # noqa: ANN001
        service = self.bot.service
        name = service.rules_for(game.kind).info.name
        seats = await service.seats(game.id)
        players = ", ".join(escape_text(seat.name) for seat in seats)
        line = f"• #{game.id} **{name}** in <#{game.channel_id}> — {game.status.value} — {players}"
        if any(seat.user_id < 0 for seat in seats):
            line += " (with AI seats)"
        if game.result:
            result = Result.model_validate_json(game.result)
            if result.winners:
                line += " — won by " + ", ".join(escape_text(seats[s].name) for s in result.winners)
            else:
                line += " — nobody won"
        elif game.state is not None and game.status.value == "active":
            line += f" — {escape_text((await service.view(game, None)).headline)}"
        return line


def _abandoned(game: GameRecord, interaction: discord.Interaction) -> str:
    """Who ended the game, as the service decided it: a moderator (named, not pinged) ends it at once,
    a host closes their lobby, and a game in play ends when every player agreed, so the last to agree
    did not end it alone."""
    if is_admin(interaction):
        return f"🛑 The game was abandoned by a moderator, {escape_text(display_name(interaction.user))}."
    if game.status == GameStatus.LOBBY:
        return f"🛑 The lobby was closed by its host, {escape_text(display_name(interaction.user))}."
    return "🛑 The game was abandoned by vote of the players."


async def setup(bot: HostBot) -> None:
    await bot.add_cog(Lobby(bot))
