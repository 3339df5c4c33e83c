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
    INTERFACE / "components.py",
    INTERFACE / "table.py",
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


def _runtime_imports(path: Path) -> set[str]:
    """The `bot.*` modules a module imports when it runs (not the ones named only for type checking)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom) and child.module and child.module.split(".")[0] == "bot":
                found.add(child.module)
                found.update(f"{child.module}.{alias.name}" for alias in child.names)
            elif isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names if alias.name.split(".")[0] == "bot")
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _modules() -> dict[str, set[str]]:
    modules = {}
    for path in BOT.rglob("*.py"):
        parts = path.relative_to(BOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = _runtime_imports(path)
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
    """Every module of `bot/` can be read without the ones that import it: the runtime import graph has
    no cycle (imports only for type checking do not run and are left out)."""
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]  # the check sees one
    assert _cycle({"a": {"b"}, "b": set()}) == []
    found = _cycle(_modules())
    assert not found, " -> ".join(found)


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
