"""One map of per-key asyncio locks for the whole bot, that forgets a key once nobody holds or awaits it.

A game's moves, timeouts, undos and substitutions are serialised on ("game", id); its calendar event
is kept in step under ("calendar", id), so a slow calendar call never holds up a move. Entries go when
unused, so a bot that has hosted a hundred thousand games does not keep a hundred thousand locks.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager


class KeyedLocks:
    def __init__(self) -> None:
        self._held: dict[Hashable, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        """Hold the lock of `key` (made on first use) for the body of an `async with`."""
        lock, users = self._held.get(key, (None, 0))
        lock = lock or asyncio.Lock()
        self._held[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            _, users = self._held[key]
            if users == 1:
                del self._held[key]
            else:
                self._held[key] = (lock, users - 1)

    def __len__(self) -> int:
        """How many keys are held or awaited now."""
        return len(self._held)
