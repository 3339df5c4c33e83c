"""One shape for every game (issue 20): a newcomer who learned where one game keeps a rule, a picture or
a test finds the same thing in the same place in every other game.

Checked on the tree, so a fifth game that skips a file, or a module that grows past what one reads in a
sitting, fails here rather than in review. Complexity is ruff's job (`C901`, max 15, in pyproject.toml).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rules import registry

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(
    game.info.id.replace("-", "_")
    for game in registry.all_games()
    if type(game).__module__.startswith(registry.BUILTIN_MODULES)
)

RULES_FILES = {
    "__init__.py",
    "engine.py",
    "choices.py",
    "scoring.py",
    "state.py",
    "view.py",
    "data.py",
    "catalogue.py",
    "policy.py",
    "determinize.py",
}
"""Every game's rules folder has these, with the same roles (README, "How it is built")."""
RULES_OPTIONAL = {"board.py"}
"""Map geometry, for the games with a map."""
RENDERER_FILES = {
    "__init__.py",
    "layout.py",
    "turn.py",
    "hand.py",
    "final.py",
    "sections.py",
    "marks.py",
    "key.py",
}
RENDERER_SURFACE = ("render", "changes", "OVERLAYS", "KEY")
MAX_LINES = 800
LIMITED = ("rules", "renderer", "bot")


def _modules(folder: Path) -> set[str]:
    return {path.name for path in folder.glob("*.py")}


def test_the_four_games_are_found():
    assert GAMES == ["city_heroes", "city_of_iron", "iron_and_brass", "iron_bridge_gorge"]


@pytest.mark.parametrize("game", GAMES)
def test_every_rules_folder_has_the_same_files(game):
    folder = ROOT / "rules" / game
    files = _modules(folder)
    assert files >= RULES_FILES, f"rules/{game} lacks {sorted(RULES_FILES - files)}"
    assert files <= RULES_FILES | RULES_OPTIONAL, (
        f"rules/{game} has extra modules {sorted(files - RULES_FILES - RULES_OPTIONAL)}"
    )
    moves = folder / "moves"
    assert (moves / "__init__.py").is_file(), f"rules/{game}/moves/ is not a package"
    assert len(_modules(moves) - {"__init__.py"}) >= 2, (
        f"rules/{game}/moves/ should hold one module per family of moves"
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_the_same_renderer_files_and_surface(game):
    import importlib

    folder = ROOT / "renderer" / game
    assert _modules(folder) == RENDERER_FILES, f"renderer/{game}: {sorted(_modules(folder) ^ RENDERER_FILES)}"
    module = importlib.import_module(f"renderer.{game}")
    missing = [name for name in RENDERER_SURFACE if not hasattr(module, name)]
    assert not missing, f"renderer.{game} does not offer {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_data_folder_and_test_folder(game):
    assert (ROOT / "data" / game).is_dir()
    tests = ROOT / "tests" / "rules" / game
    for name in ("helpers.py", "test_data.py", "test_playouts.py", "test_urgent_events.py"):
        assert (tests / name).is_file(), f"tests/rules/{game}/{name} is missing"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_loads_its_data_through_the_one_loader(game):
    """`rules/data.py` reads and checks every game's files and owns the one DataError: a game's data.py
    imports it rather than keeping a copy of read-validate-report."""
    source = (ROOT / "rules" / game / "data.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    imports = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "rules.data"
        for alias in node.names
    } | {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "rules"
        for alias in node.names
        if alias.name == "data"
    }
    assert imports, f"rules/{game}/data.py does not use rules.data"
    classes = [
        node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name.endswith("Error")
    ]
    assert not classes, f"rules/{game}/data.py defines its own error class {classes}"
    assert "json.loads" not in source, f"rules/{game}/data.py reads JSON itself"


def test_no_module_is_longer_than_one_sitting():
    long = {
        str(path.relative_to(ROOT)): lines
        for top in LIMITED
        for path in (ROOT / top).rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_the_complexity_limit_is_configured():
    """The limit lives in pyproject.toml so `ruff check` (run by .ci/run) enforces it everywhere."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]
    assert "C901" in config["select"] or "C90" in config["select"]
    assert config["mccabe"]["max-complexity"] == 15
