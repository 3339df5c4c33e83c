"""The Discord layer talks to the service only (issue 20): commands, components and the table's
Discord-facing logic never reach past the service into the store, so the store's queries can change
without touching them. Checked on the source: any `.store` attribute in those modules is a finding."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
INTERFACE = BOT / "interface"
DISCORD_SIDE = [
    *sorted((INTERFACE / "cogs").glob("*.py")),
    *sorted((INTERFACE / "table").glob("*.py")),
    INTERFACE / "components.py",
    INTERFACE / "trading.py",
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


def _imports(path: Path, name: str) -> set[str]:
    """The `bot.*` modules a module imports: when it runs, inside functions, and also the ones named
    only for type checking (`if TYPE_CHECKING:`), since those too tie the modules together; relative
    imports (`from .model import World`) are resolved against the module's package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            module = node.module
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            if module and module.split(".")[0] == "bot":
                found.add(module)
                found.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == "bot")
    return found


def _modules() -> dict[str, set[str]]:
    modules = {}
    for path in BOT.rglob("*.py"):
        parts = path.relative_to(BOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = _imports(path, name)
    return {name: {d for d in deps if d in modules and d != name} for name, deps in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of `graph` (module -> modules it imports), or [] when there is none."""
    state: dict[str, int] = {}

    def walk(node: str, trail: list[str]) -> list[str]:
        state[node] = 1
        for dep in sorted(graph[node]):
            if state.get(dep) == 1:
                return [*trail[trail.index(dep) :], node, dep] if dep in trail else [node, dep]
            found = walk(dep, [*trail, node]) if dep not in state else []
            if found:
                return found
        state[node] = 2
        return []

    for name in sorted(graph):
        found = walk(name, []) if name not in state else []
        if found:
            return found
    return []


def test_no_import_cycles_inside_the_bot():
    """Every module of `bot/` can be read without the ones that import it: the import graph has no
    cycle, counting the imports made only for type checking (a part that needs another's type sees it
    through a small Protocol, as in `bot/interface/ports.py` and `bot/emulator/ports.py`)."""
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]  # the check sees one
    assert _cycle({"a": {"b"}, "b": set()}) == []
    found = _cycle(_modules())
    assert not found, " -> ".join(found)


def test_the_import_check_sees_type_checking_and_relative_imports(tmp_path):
    sample = tmp_path / "driver.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "from .model import World\n"
        "if TYPE_CHECKING:\n"
        "    from .server import FakeDiscord\n"
        "def f():\n"
        "    from bot.app import text\n"
    )
    found = _imports(sample, "bot.emulator.driver")
    assert {"bot.emulator.model", "bot.emulator.server", "bot.app", "bot.app.text"} <= found
    package = tmp_path / "__init__.py"
    package.write_text("from .driver import UserSession\nfrom ..app import service\n")
    assert {"bot.emulator.driver", "bot.app"} <= _imports(package, "bot.emulator")


def test_the_layers_only_look_down():
    """storage imports no other layer of the bot, app imports storage only, and only the interface
    (and the entry points above it) talk to Discord's side of the bot."""
    graph = _modules()
    above = {"bot.storage": ("bot.app", "bot.interface"), "bot.app": ("bot.interface",)}
    wrong = [
        f"{name} imports {dep}"
        for name, deps in graph.items()
        for layer, forbidden in above.items()
        if name.startswith(layer)
        for dep in deps
        if dep.startswith(forbidden)
    ]
    assert not wrong, wrong
    assert {"bot.app.service", "bot.storage.store", "bot.interface.client"} <= set(graph)
