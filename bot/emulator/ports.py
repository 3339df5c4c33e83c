"""What the emulator's gateway and its user sessions see of the server, as small Protocols, so neither
imports the module that builds them (`server.FakeDiscord` makes the gateway and hands out sessions
with ``server.user(uid)``). `FakeDiscord` matches both as it is."""

from __future__ import annotations

from typing import Any, Protocol

from .model import InteractionRecord, World


class GatewayHost(Protocol):
    """The server as the gateway uses it: the world it announces, and the identify checks."""

    world: World

    @property
    def gateway_url(self) -> str: ...

    def token_ok(self, token: str) -> bool: ...


class SessionHost(Protocol):
    """The server as a user session (`driver.UserSession`) uses it to click, type and read."""

    world: World
    ack_timeout: float
    attachment_size_limit: int
    errors: list[str]

    @property
    def app_id(self) -> int: ...

    @property
    def bot_user_id(self) -> int: ...

    @property
    def base_url(self) -> str: ...

    def new_interaction_token(self) -> str: ...

    async def dispatch_interaction(self, rec: InteractionRecord, payload: dict[str, Any]) -> None: ...

    async def settle(self, quiet: float = 0.15, timeout: float = 10.0) -> None: ...  # noqa: ASYNC109
