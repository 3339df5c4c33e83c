"""Copying between databases (`python -m bot migrate`): every table's rows out of one store and into
another, ids included.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.storage.database import POSTGRESQL, Database


class CopyQueries:
    """The store's whole-database reads and writes (a part of `Store`)."""

    _db: Database
    _now: Callable[[], str]

    async def tables(self) -> dict[str, list[str]]:
        """The tables a copy carries, with their columns: all but the migrations' own bookkeeping."""
        return {
            name: columns
            for name, columns in (await self._db.columns()).items()
            if name not in ("schema_version", "schema_checksums")
        }

    async def game_ids(self) -> list[int]:
        return [int(row[0]) for row in await self._db.fetchall("SELECT id FROM games ORDER BY id")]

    async def export_rows(
        self, table: str, columns: list[str], game_ids: list[int] | None = None
    ) -> list[tuple]:
        """Rows of `table` (only those of `game_ids` when given) as tuples in `columns`' order."""
        listed = ", ".join(f'"{column}"' for column in columns)
        if game_ids is None:
            rows = await self._db.fetchall(f'SELECT {listed} FROM "{table}"')
        else:
            key = "id" if table == "games" else "game_id"
            marks = ",".join("?" for _ in game_ids)
            rows = await self._db.fetchall(
                f'SELECT {listed} FROM "{table}" WHERE {key} IN ({marks})', tuple(game_ids)
            )
        return [tuple(row) for row in rows]

    async def import_rows(self, batch: list[tuple[str, list[str], list[tuple]]]) -> None:
        """Insert rows as they are (ids included), in one transaction, parents before children."""
        async with self._db.transaction() as tx:
            for table, columns, rows in batch:
                if rows:
                    listed = ", ".join(f'"{column}"' for column in columns)
                    marks = ", ".join("?" for _ in columns)
                    await tx.executemany(f'INSERT INTO "{table}" ({listed}) VALUES ({marks})', rows)
            if self._db.dialect == POSTGRESQL:
                # Copied ids were given explicitly: move the id sequence past them for new games.
                for table in ("games", "outbox"):
                    await tx.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                    )
