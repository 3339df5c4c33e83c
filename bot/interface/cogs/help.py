"""/help, /rules and /card: everything a player needs to learn and look up, one command away.

/help is generated from the command tree, so it lists every command the bot registers. /rules shows
`data/<game>/rules.md` topic by topic (`rules/help.py`), /card a game's catalogue (`Game.catalogue()`).
All three answer ephemerally and work in DMs too. When the bot joins a server it posts a short welcome
in the server's system channel, if it may.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.refusals import UserError
from bot.app.text import quoted
from bot.interface.reply import Reply
from rules import help as rules_help
from rules import registry
from rules.core import CatalogueEntry, Game

if TYPE_CHECKING:
    from bot.interface.client import HostBot

log = logging.getLogger(__name__)

COLOUR = discord.Colour(0xB5651D)
EMBED_TOTAL = 6000
"""Discord's limit on all embeds of one message together."""
FIELD_VALUE = 1024
DESCRIPTION = 4096

PURPOSES: dict[str, str] = {
    "Lobby": "Start and manage a game",
    "Play": "Play your turns",
    "Help": "Learn the rules",
    "SlowPlay": "Pace, reminders and settings",
}
"""Headings of /help by cog; a cog not listed here gets its own name, so nothing is ever left out."""


class Help(commands.Cog):
    def __init__(self, bot: HostBot) -> None:
        self.bot = bot

    # ---- /help ---------------------------------------------------------------------------------
    @app_commands.command(name="help", description="What this bot does, how a game runs, and every command")
    async def help(self, interaction: discord.Interaction) -> None:
        async with Reply(interaction) as reply:
            await send_embeds(reply, help_embeds(self.bot.tree, self._bot_name()))

    # ---- /rules --------------------------------------------------------------------------------
    @app_commands.command(name="rules", description="A game's rules, topic by topic, from setup to scoring")
    @app_commands.describe(game="Which game", topic="Start typing: the list shows the game's topics in order")
    async def rules(self, interaction: discord.Interaction, game: str, topic: str | None = None) -> None:
        async with Reply(interaction) as reply:
            found = find_game(game)
            if topic is None or not topic.strip():
                await send_embeds(reply, [contents_embed(found)])
            else:
                await send_embeds(reply, [topic_embed(found, find_topic(found, topic))])

    @rules.autocomplete("game")
    async def _rules_games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @rules.autocomplete("topic")
    async def _topics(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = _lookup_game(str(getattr(interaction.namespace, "game", "") or ""))
        if game is None:
            return []
        try:
            topics = rules_help.topics(game.info.id)
        except rules_help.RulesFileError:
            return []
        wanted = current.lower().strip()
        return [
            app_commands.Choice(name=f"{number}. {topic.title}"[:100], value=topic.id)
            for number, topic in enumerate(topics, start=1)
            if wanted in topic.title.lower() or wanted in topic.id
        ][:25]

    # ---- /card ---------------------------------------------------------------------------------
    @app_commands.command(name="card", description="Look up a card, building, town, unit... of a game")
    @app_commands.describe(
        game="Which game", name="Start typing: every card, building, town, unit... of the game"
    )
    async def card(self, interaction: discord.Interaction, game: str, name: str) -> None:
        async with Reply(interaction) as reply:
            found = find_game(game)
            await send_embeds(reply, [card_embed(found, find_entry(found, name))])

    @card.autocomplete("game")
    async def _card_games(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return game_choices(current)

    @card.autocomplete("name")
    async def _names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = _lookup_game(str(getattr(interaction.namespace, "game", "") or ""))
        if game is None:
            return []
        wanted = current.lower().strip()
        entries = game.catalogue()
        starts = [entry for entry in entries if entry.name.lower().startswith(wanted)]
        inside = [entry for entry in entries if wanted in entry.name.lower() and entry not in starts]
        kinds = [entry for entry in entries if wanted and wanted in entry.kind.lower()]
        picked: list[CatalogueEntry] = []
        for entry in [*starts, *inside, *kinds]:
            if entry not in picked:
                picked.append(entry)
        return [
            app_commands.Choice(name=f"{entry.name} · {entry.kind}"[:100], value=entry.name[:100])
            for entry in picked[:25]
        ]

    # ---- welcome ---------------------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """A short welcome in the system channel, only where the bot may post."""
        channel = guild.system_channel
        if channel is None or not channel.permissions_for(guild.me).send_messages:
            log.info("joined %s; no system channel to greet in", guild.id)
            return
        try:
            await channel.send(
                welcome_text(self._bot_name()), allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException:
            log.info("joined %s; the welcome could not be posted", guild.id)

    def _bot_name(self) -> str:
        return self.bot.user.name if self.bot.user is not None else "Ironhost"


# ---- sending -----------------------------------------------------------------------------------------
async def send_embeds(reply: Reply, embeds: list[discord.Embed]) -> None:
    """Ephemeral embeds, as many per message as Discord's 6,000-character total allows: the first message
    answers the interaction, the rest are followups."""
    batches: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        if not batches or size + len(embed) > EMBED_TOTAL or len(batches[-1]) == 10:
            batches.append([])
            size = 0
        batches[-1].append(embed)
        size += len(embed)
    for batch in batches:
        await reply.send(embeds=batch)


# ---- games -------------------------------------------------------------------------------------------
def _lookup_game(text: str) -> Game | None:
    wanted = text.strip().lower()
    for game in registry.all_games():
        if wanted in (game.info.id, game.info.name.lower(), rules_help.game_dir(game.info.id)):
            return game
    return None


def find_game(text: str) -> Game:
    game = _lookup_game(text)
    if game is None:
        names = ", ".join(f"`{game.info.id}`" for game in registry.all_games())
        raise UserError(f"There is no game called {quoted(text)}. The games are: {names}.")
    return game


def game_choices(current: str) -> list[app_commands.Choice[str]]:
    wanted = current.lower().strip()
    return [
        app_commands.Choice(name=game.info.name, value=game.info.id)
        for game in registry.all_games()
        if wanted in game.info.name.lower() or wanted in game.info.id
    ][:25]


# ---- /rules ------------------------------------------------------------------------------------------
def _topics(game: Game) -> list[rules_help.Topic]:
    try:
        return rules_help.topics(game.info.id)
    except rules_help.RulesFileError:
        log.exception("the rules summary of %s could not be read", game.info.id)
        raise UserError(f"The rules summary of {game.info.name} is not available yet.") from None


def find_topic(game: Game, text: str) -> rules_help.Topic:
    topics = _topics(game)
    wanted = text.strip().lower()
    for topic in topics:
        if wanted in (topic.id, topic.title.lower()) or topic.id == rules_help.slug(text):
            return topic
    partial = [topic for topic in topics if wanted in topic.title.lower()]
    if len(partial) == 1:
        return partial[0]
    names = ", ".join(f"`{topic.id}`" for topic in topics)
    raise UserError(f"{game.info.name} has no rules topic {quoted(text)}. Its topics: {names}.")


def _command(game: Game, topic: rules_help.Topic) -> str:
    return f"`/rules game:{game.info.id} topic:{topic.id}`"


def topic_embed(game: Game, topic: rules_help.Topic) -> discord.Embed:
    """One topic: the summary, a pointer to the next topic, and the rule text's section as the footer."""
    following = rules_help.next_topic(game.info.id, topic.id)
    if following is not None:
        pointer = f"**Next:** {following.title} · {_command(game, following)}"
    else:
        pointer = f"That was the last topic. All topics: `/rules game:{game.info.id}`"
    number = [found.id for found in _topics(game)].index(topic.id) + 1
    embed = discord.Embed(
        title=f"{game.info.name} · {number}. {topic.title}"[:256],
        description=f"{topic.text}\n\n{pointer}"[:DESCRIPTION],
        colour=COLOUR,
    )
    embed.set_footer(text=f"Full text: {topic.source}"[:2048])
    return embed


def contents_embed(game: Game) -> discord.Embed:
    topics = _topics(game)
    lines = [f"{number}. **{topic.title}** · `{topic.id}`" for number, topic in enumerate(topics, start=1)]
    embed = discord.Embed(
        title=f"{game.info.name} · rules"[:256],
        description=(
            f"{game.info.summary}\n\n" + "\n".join(lines) + f"\n\nStart with {_command(game, topics[0])}, "
            "or pick a topic from the list as you type."
        )[:DESCRIPTION],
        colour=COLOUR,
    )
    embed.set_footer(text=game.info.players_text())
    return embed


# ---- /card -------------------------------------------------------------------------------------------
def find_entry(game: Game, text: str) -> CatalogueEntry:
    entries = game.catalogue()
    if not entries:
        raise UserError(f"{game.info.name} has no cards to look up.")
    wanted = text.strip().lower()
    exact = [entry for entry in entries if entry.name.lower() == wanted]
    if exact:
        return exact[0]
    partial = [entry for entry in entries if wanted and wanted in entry.name.lower()]
    if len(partial) == 1:
        return partial[0]
    if partial:
        sample = ", ".join(f"`{entry.name}`" for entry in partial[:8])
        raise UserError(
            f"{len(partial)} entries of {game.info.name} match {quoted(text)}: {sample}. Pick one."
        )
    raise UserError(
        f"{game.info.name} has no card, building or piece called {quoted(text)}. Start typing to see the list."
    )


def card_embed(game: Game, entry: CatalogueEntry) -> discord.Embed:
    embed = discord.Embed(
        title=entry.name[:256],
        description=f"*{entry.kind}* · {game.info.name}\n{entry.summary}"[:DESCRIPTION],
        colour=COLOUR,
    )
    for label, value in entry.details[:25]:
        embed.add_field(
            name=label[:256] or "\u200b", value=(value or "—")[:FIELD_VALUE], inline=len(value) <= 40
        )
    if entry.designed:
        embed.set_footer(text="designed by the project: the rule text does not give these values")
    return embed


# ---- /help -------------------------------------------------------------------------------------------
def _leaves(command: app_commands.Command | app_commands.Group) -> Iterator[app_commands.Command]:
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from _leaves(child)
    else:
        yield command


def _usage(command: app_commands.Command) -> str:
    options = " ".join(
        f"{param.display_name}:<…>" if param.required else f"[{param.display_name}]"
        for param in command.parameters
    )
    return f"/{command.qualified_name}" + (f" {options}" if options else "")


def _guild_only(command: app_commands.Command) -> bool:
    node: app_commands.Command | app_commands.Group | None = command
    while node is not None:
        if getattr(node, "guild_only", False):
            return True
        node = node.parent
    return False


def command_lines(tree: app_commands.CommandTree) -> dict[str, list[str]]:
    """Every slash command of the tree (subcommands of groups included), one line each, by purpose."""
    groups: dict[str, list[tuple[str, bool]]] = {}
    for top in tree.get_commands(type=discord.AppCommandType.chat_input):
        for command in _leaves(top):
            cog = command.binding
            cog_name = type(cog).__name__ if cog is not None else ""
            heading = PURPOSES.get(cog_name) or (getattr(cog, "qualified_name", "") or "Other commands")
            line = f"`{_usage(command)}` — {command.description}"
            groups.setdefault(heading, []).append((line, _guild_only(command)))
    order = list(PURPOSES.values())
    out: dict[str, list[str]] = {}
    for heading in sorted(groups, key=lambda name: (order.index(name) if name in order else 99, name)):
        lines = groups[heading]
        # "In a server" once for a heading whose commands all need one, else on each such line.
        if all(server for _, server in lines):
            out[f"{heading} (in a server)"] = [line for line, _ in lines]
        else:
            out[heading] = [line + (" (in a server)" if server else "") for line, server in lines]
    return out


def _fields(heading: str, lines: list[str]) -> Iterator[tuple[str, str]]:
    """A heading's lines as embed fields of at most 1,024 characters."""
    chunk: list[str] = []
    for line in lines:
        line = line[: FIELD_VALUE - 1]
        if chunk and len("\n".join([*chunk, line])) > FIELD_VALUE:
            yield heading, "\n".join(chunk)
            heading, chunk = f"{heading} (more)", []
        chunk.append(line)
    if chunk:
        yield heading, "\n".join(chunk)


def help_embeds(tree: app_commands.CommandTree, bot_name: str) -> list[discord.Embed]:
    games = ", ".join(game.info.name for game in registry.all_games())
    intro = discord.Embed(
        title=f"{bot_name}: board games on Discord, played slowly",
        description=(
            f"I host board games in your channels, played over hours or days: {games}.\n\n"
            "**How a game runs here**\n"
            "1. `/game new` opens a lobby in a channel; players press **Join**, the host presses **Start**.\n"
            "2. After every move the channel gets a **turn message**: the board, what happened, and who "
            "must act now (pinged), with a link to the rules of the current step.\n"
            "3. On your turn press **Take my turn** (or type `/play`): you see only your legal moves, "
            "and only you see them. Buttons keep working after a restart.\n"
            "4. Hidden cards and bids come to you by **DM**. DMs closed? `/hand` shows them to you alone.\n"
            "5. Forgot a rule? `/rules` explains each game topic by topic; `/card` shows any card, building "
            "or unit, even while others are moving.\n"
            "Every refusal (not your turn, an illegal move) is a private message and changes nothing."
        ),
        colour=COLOUR,
    )
    embeds = [intro]
    current = discord.Embed(title="Commands", colour=COLOUR)
    for heading, lines in command_lines(tree).items():
        for name, value in _fields(heading, lines):
            if len(current.fields) == 25 or len(current) + len(name) + len(value) > EMBED_TOTAL - 500:
                embeds.append(current)
                current = discord.Embed(title="Commands (more)", colour=COLOUR)
            current.add_field(name=name, value=value, inline=False)
    embeds.append(current)
    return embeds


def welcome_text(bot_name: str) -> str:
    games = ", ".join(game.info.name for game in registry.all_games())
    return (
        f"👋 Hello! I'm **{bot_name}**: I host slow board games in your channels ({games}).\n"
        "Start one in any channel with `/game new`; players press **Join**, the host presses **Start**, and "
        "everyone plays at their own pace with buttons.\n"
        "`/help` lists every command, `/rules` explains each game and `/card` looks up any card."
    )


async def setup(bot: HostBot) -> None:
    await bot.add_cog(Help(bot))
