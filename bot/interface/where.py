"""Where a server-only command came from, as plain ids.

discord.py types `Interaction.channel_id` and `guild_id` as optional because a command may be used in a
direct message; the game commands are declared `guild_only`, so Discord sends them (and their
autocompletes) from a server's channel only, and both ids are always there.
"""

from __future__ import annotations

import discord


def channel_id(interaction: discord.Interaction) -> int:
    """The channel a guild-only command was used in."""
    assert interaction.channel_id is not None, "guild-only commands come from a server's channel"
    return interaction.channel_id


def guild_id(interaction: discord.Interaction) -> int:
    """The server a guild-only command was used in."""
    assert interaction.guild_id is not None, "guild-only commands come from a server"
    return interaction.guild_id
