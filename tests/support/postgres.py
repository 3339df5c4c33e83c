"""A real PostgreSQL server for the tests, never a mock: the one CI started, or one started here.

`.ci/run` starts a server with `.ci/postgres start` and exports TEST_POSTGRES_URL. Without it, the
session starts its own with the same script (no install: only where the server binaries already are)
and stops it at the end. Each test gets a database of its own, dropped afterwards.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

SCRIPT = Path(__file__).resolve().parents[2] / ".ci" / "postgres"


class NoPostgres(Exception):
    """Why PostgreSQL-backed tests cannot run here (the skip reason)."""


class PostgresServer:
    """The server's admin URL; `stop()` ends it only if this session started it."""

    def __init__(self) -> None:
        self.url = os.environ.get("TEST_POSTGRES_URL", "")
        self._data = ""
        if not self.url:
            self._start()

    def _start(self) -> None:
        try:
            import asyncpg  # noqa: F401
        except ImportError:
            raise NoPostgres("asyncpg is not installed (pip install -e '.[test]')") from None
        done = subprocess.run(
            ["bash", str(SCRIPT), "start", "--no-install"], capture_output=True, text=True, check=False
        )
        if done.returncode == 3:
            raise NoPostgres("no PostgreSQL server binaries (initdb, pg_ctl) on this machine")
        if done.returncode != 0:
            raise RuntimeError(f".ci/postgres start failed:\n{done.stderr}")
        exports = dict(
            line.removeprefix("export ").split("=", 1)
            for line in done.stdout.splitlines()
            if line.startswith("export ")
        )
        self.url, self._data = exports["TEST_POSTGRES_URL"], exports["TEST_POSTGRES_DATA"]

    def stop(self) -> None:
        if self._data:
            subprocess.run(["bash", str(SCRIPT), "stop", self._data], check=False, capture_output=True)
            self._data = ""

    def with_database(self, name: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path=f"/{name}"))

    async def create_database(self) -> str:
        """A new empty database; returns its URL."""
        import asyncpg

        name = f"test_{uuid.uuid4().hex[:16]}"
        connection = await asyncpg.connect(self.url)
        try:
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()
        return self.with_database(name)

    async def drop_database(self, url: str) -> None:
        import asyncpg

        name = urlsplit(url).path.lstrip("/")
        connection = await asyncpg.connect(self.url)
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await connection.close()
