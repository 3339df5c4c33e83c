"""The Discord layer talks to the service only (issue 20): commands, components and the table's
Discord-facing logic never reach past the service into the store, so the store's queries can change
without touching them. Checked on the source: any `.store` attribute in those modules is a finding."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
DISCORD_SIDE = [
    *sorted((BOT / "cogs").glob("*.py")),
    BOT / "components.py",
    BOT / "table.py",
    BOT / "trading.py",
]


def _store_reads(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.name}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "store"
    ]


def test_commands_and_components_use_the_service_only():
    found = [where for path in DISCORD_SIDE for where in _store_reads(path)]
    assert not found, "the Discord layer reads the store directly at " + ", ".join(found)


def test_the_check_sees_a_store_read(tmp_path):
    sample = tmp_path / "cog.py"
    sample.write_text("async def f(self):\n    return await self.bot.service.store.game(1)\n")
    assert _store_reads(sample) == ["cog.py:2"]
