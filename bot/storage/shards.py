"""Which of the bot's shards this process runs, and so which guilds' games it looks after.

Discord sends a guild's events to shard `(guild_id >> 22) % shard_count`, and a process only hears
the shards it runs. Work a process starts on its own (firing timers, posting what a crash left
unposted) must follow the same rule, or two processes would both act on one game: the store applies
this filter in its queries, so a process never even claims another's timers. Games without a guild
belong to shard 0, the shard Discord sends direct messages to.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shards:
    count: int
    ids: tuple[int, ...]
    """Sorted, distinct, each in 0..count-1."""

    @classmethod
    def parse(cls, count: int | None, ids: str) -> Shards | None:
        """From SHARD_COUNT and SHARD_IDS ("0,2"); None when unsharded (neither is set).

        Raises ValueError with a sentence for the operator when the pair makes no sense.
        """
        text = ids.strip()
        if count is None:
            if text:
                raise ValueError("SHARD_IDS needs SHARD_COUNT: set how many shards the bot has in all.")
            return None
        if count < 1:
            raise ValueError(f"SHARD_COUNT must be at least 1, not {count}.")
        if not text:
            return cls(count, tuple(range(count)))
        try:
            chosen = sorted({int(part) for part in text.split(",") if part.strip()})
        except ValueError:
            raise ValueError(
                f"SHARD_IDS must be shard numbers separated by commas, like 0,1 (got {ids!r})."
            ) from None
        wrong = [shard for shard in chosen if not 0 <= shard < count]
        if wrong or not chosen:
            raise ValueError(
                f"SHARD_IDS must be between 0 and {count - 1} (SHARD_COUNT={count}); got {ids!r}."
            )
        return cls(count, tuple(chosen))

    @property
    def owns_all(self) -> bool:
        return len(self.ids) == self.count

    def shard_of(self, guild_id: int | None) -> int:
        return 0 if guild_id is None else (guild_id >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        return self.shard_of(guild_id) in self.ids


def owns(shards: Shards | None, guild_id: int | None) -> bool:
    """Whether this process looks after the guild; an unsharded process looks after every guild."""
    return shards is None or shards.owns(guild_id)


def games_on(shards: Shards | None, game_id_column: str) -> str:
    """An extra " AND ..." keeping rows whose game's guild is on `shards` ("" keeps every row).

    The shard is Discord's `(guild_id >> 22) % shard_count`; a game without a guild is shard 0's. The
    numbers are validated integers, written into the SQL so the clause needs no parameters (and it
    reads the same on SQLite and PostgreSQL).
    """
    if shards is None or shards.owns_all:
        return ""
    ids = ", ".join(str(int(shard)) for shard in shards.ids)
    return (
        f" AND {game_id_column} IN (SELECT id FROM games"
        f" WHERE ((COALESCE(guild_id, 0) >> 22) % {int(shards.count)}) IN ({ids}))"
    )
