"""Point discord.py at a local emulator instead of discord.com (process-wide).

discord.py builds every REST URL (including the webhook adapter used for interaction
callbacks and followups) from ``http.Route.BASE``, and a plain ``Client`` connects the
gateway to ``DiscordWebSocket.DEFAULT_GATEWAY`` without asking ``GET /gateway``. Setting
those two class attributes is all it takes. Call before ``bot.start()``/``bot.login()``.
In local mode also pass ``guild_ready_timeout=0.1`` to the client so ``on_ready`` is quick.
"""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def gateway_for(api_base: str) -> str:
    """``http://host:port/api/v10`` -> ``ws://host:port/gateway`` (``https`` -> ``wss``)."""
    url = yarl.URL(api_base)
    scheme = "wss" if url.scheme == "https" else "ws"
    return str(url.with_scheme(scheme).with_path("/gateway").with_query(None))


def point_discord_py_at(api_base: str, gateway_url: str | None = None) -> None:
    """Send all of this process's discord.py traffic to ``api_base`` / ``gateway_url``."""
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url or gateway_for(api_base))


def reset_discord_py() -> None:
    """Undo :func:`point_discord_py_at` (back to discord.com)."""
    discord.http.Route.BASE = "https://discord.com/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("wss://gateway.discord.gg/")
