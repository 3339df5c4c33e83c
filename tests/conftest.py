"""The test-only game is registered for every test; real games register themselves.

`store_url` runs a test once per database backend: a SQLite file, and a fresh database on a real
PostgreSQL server (see tests/support/postgres.py).
"""

from __future__ import annotations

import pytest

from rules import registry
from tests.support import highcard
from tests.support.postgres import NoPostgres, PostgresServer

registry.register(highcard.GAME)

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres_server():
    try:
        server = PostgresServer()
    except NoPostgres as reason:
        pytest.skip(f"PostgreSQL backend not tested: {reason}")
    yield server
    server.stop()


@pytest.fixture
async def postgres_url(postgres_server):
    """A fresh, empty PostgreSQL database for one test."""
    url = await postgres_server.create_database()
    yield url
    await postgres_server.drop_database(url)


@pytest.fixture(params=BACKENDS)
async def store_url(request, tmp_path):
    """DATABASE_URL of an empty database, on each backend in turn."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    server = request.getfixturevalue("postgres_server")
    url = await server.create_database()
    yield url
    await server.drop_database(url)
