"""The package installs anywhere (issue 20): what pyproject.toml puts in the wheel, the data lookup outside a
checkout, the pins of constraints.txt, the Dockerfile and compose file, and .ci/console-expect, which judges
the scripted games of .ci/wheel-check (that script builds and plays the real wheel; this file stays fast)."""

from __future__ import annotations

import fnmatch
import importlib.machinery
import importlib.util
import os
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from renderer import canvas
from rules import data

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
CODE = ("bot", "rules", "renderer")
GAMES = ("city-heroes", "city-of-iron", "iron-and-brass", "iron-bridge-gorge")


def _covered(relative: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatch(relative, pattern) for pattern in patterns)


# ---- what the wheel holds ----------------------------------------------------------------------


def test_every_code_package_is_listed_and_data_is_installed_inside_rules():
    """The package list is explicit (data/ is mapped under another name), so a new package folder left
    out of it would be missing from the wheel while every test run from the checkout still passes."""
    folders = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in CODE
        for init in (ROOT / top).rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert set(SETUPTOOLS["packages"]) == folders | {"rules._data"}
    assert SETUPTOOLS["package-dir"] == {"rules._data": "data"}
    assert "data" not in SETUPTOOLS["packages"]


def test_package_data_takes_every_data_file_migration_and_font():
    patterns = SETUPTOOLS["package-data"]
    data = ROOT / "data"
    files = [path.relative_to(data).as_posix() for path in data.rglob("*") if path.is_file()]
    assert {path.split("/")[0] for path in files} == {game.replace("-", "_") for game in GAMES}
    assert [path for path in files if not _covered(path, patterns["rules._data"])] == []
    migrations = [f"migrations/{path.name}" for path in (ROOT / "bot" / "storage" / "migrations").iterdir()]
    assert migrations and all(_covered(path, patterns["bot.storage"]) for path in migrations)
    fonts = [f"fonts/{path.name}" for path in (ROOT / "renderer" / "fonts").iterdir()]
    assert sorted(fonts) == ["fonts/DejaVuSans-Bold.ttf", "fonts/DejaVuSans.ttf", "fonts/LICENSE"]
    assert all(_covered(path, patterns["renderer"]) for path in fonts)


def test_in_a_checkout_the_data_is_the_top_level_folder_and_the_fonts_are_the_bundled_ones():
    assert data.root() == ROOT / "data"
    assert data.game_folder("city-of-iron") == ROOT / "data" / "city_of_iron"
    assert canvas._font_path(False) == str(ROOT / "renderer" / "fonts" / "DejaVuSans.ttf")
    assert canvas._font_path(True) == str(ROOT / "renderer" / "fonts" / "DejaVuSans-Bold.ttf")


# ---- the lookup outside a checkout: the packages imported from a zip, laid out as in the wheel --------

READ_EVERYTHING = """
import sys
from rules import data, help
from rules.city_heroes.data import load_catalogue as heroes
from rules.city_of_iron.data import load_data as iron
from rules.iron_and_brass.data import load_catalogue as brass
from rules.iron_bridge_gorge.data import load_catalogue as gorge
from renderer import canvas

assert str(data.root()).startswith(sys.argv[1]), data.root()
heroes(), iron(), brass(), gorge()
print(*(len(help.topics(game)) for game in sys.argv[2:]))
print(canvas._font_path(False), canvas.font(30, bold=True).getname())
"""


def _zip_like_the_wheel(target: Path, *, with_data: bool = True) -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        for top in ("rules", "renderer"):
            for path in (ROOT / top).rglob("*"):
                if path.is_file() and "__pycache__" not in path.parts:
                    archive.write(path, path.relative_to(ROOT).as_posix())
        if with_data:
            for path in (ROOT / "data").rglob("*"):
                if path.is_file():
                    archive.write(path, f"rules/_data/{path.relative_to(ROOT / 'data').as_posix()}")
    return target


def _python(code: str, zipped: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, str(zipped), *args],
        cwd=zipped.parent,  # no rules/ or data/ here: only the zip can provide them
        env={**os.environ, "PYTHONPATH": str(zipped)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_from_a_zip_every_game_reads_its_data_and_rules_and_the_fonts_load(tmp_path):
    zipped = _zip_like_the_wheel(tmp_path / "ironhost.zip")
    result = _python(READ_EVERYTHING, zipped, *GAMES)
    assert result.returncode == 0, result.stderr[-3000:]
    topics, font = result.stdout.splitlines()
    assert all(int(count) >= 5 for count in topics.split())
    assert font.endswith("DejaVuSans.ttf ('DejaVu Sans', 'Bold')")


def test_without_the_data_the_lookup_says_the_install_is_broken(tmp_path):
    zipped = _zip_like_the_wheel(tmp_path / "no-data.zip", with_data=False)
    result = _python("from rules import data; data.root()", zipped)
    assert result.returncode == 1
    assert "DataFolderMissing: the games' data is not installed" in result.stderr


# ---- pins, image, compose ------------------------------------------------------------------------


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([0-9][0-9A-Za-z.+!-]*)", line.strip())
        assert match, f"constraints.txt: not an exact pin: {line!r}"
        pins[re.sub(r"[-_.]+", "-", match.group(1)).lower()] = match.group(2)
    return pins


def test_constraints_pin_every_runtime_dependency_within_what_pyproject_allows():
    """Transitive dependencies are checked by .ci/wheel-check (pip freeze after installing with the pins
    must equal constraints.txt); here, each direct one is pinned to a version its requirement accepts."""
    pins = _pins()
    project = PYPROJECT["project"]
    for text in [*project["dependencies"], *project["optional-dependencies"]["postgres"]]:
        requirement = Requirement(text)
        name = re.sub(r"[-_.]+", "-", requirement.name).lower()
        assert name in pins, f"{requirement.name} is not pinned in constraints.txt"
        assert requirement.specifier.contains(pins[name], prereleases=True), (text, pins[name])


def _final_stage(dockerfile: str) -> list[str]:
    stages = re.split(r"(?m)^FROM ", dockerfile)
    return [line.strip() for line in stages[-1].splitlines() if line.strip() and not line.startswith("#")]


def test_the_image_is_built_from_the_wheel_with_the_pins_and_runs_as_a_user_with_a_data_volume():
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.findall(r"(?m)^FROM (\S+)", dockerfile) == ["python:3.11-slim", "python:3.11-slim"]
    assert "pip wheel --no-cache-dir --no-deps" in dockerfile
    final = _final_stage(dockerfile)
    installs = [line for line in final if "pip install" in line]
    assert installs and all("-c /tmp/constraints.txt" in line for line in installs)
    users = [line.split()[1] for line in final if line.startswith("USER ")]
    assert users and users[-1] not in {"root", "0"}
    volumes = [line for line in final if line.startswith("VOLUME ")]
    database = re.search(r"DATABASE_URL=sqlite:///(\S+)", dockerfile)
    assert database and volumes
    assert any(f'"{Path(database.group(1)).parent}"' in line for line in volumes)
    assert final[-1] == 'CMD ["ironhost"]'
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {".env", "*.db", ".venv/"} <= set(ignored)


def test_compose_runs_the_built_image_and_installs_nothing_at_start():
    compose = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    worker = compose.split("x-worker: &worker", 1)[1].split("\nservices:", 1)[0]
    assert re.search(r"(?m)^  build: \.$", worker)
    assert "pip install" not in compose and ".:/app" not in compose
    assert "python:3.11-slim" not in compose


# ---- .ci/console-expect, which judges each scripted game ------------------------------------------


@pytest.fixture(scope="module")
def expect():
    loader = importlib.machinery.SourceFileLoader("console_expect", str(ROOT / ".ci" / "console-expect"))
    spec = importlib.util.spec_from_loader("console_expect", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


SCRIPT = "alice> /game start\n// expect: has started\nbob> click 1\n// expect: ✅ You bid 0.\n"


def _session(tmp_path: Path, *lines: str) -> str:
    picture = tmp_path / "board.png"
    picture.write_bytes(b"\x89PNG" + bytes(4000))
    return "\n".join([*lines, f"   🖼  {picture} — the board"])


def test_console_expect_passes_a_session_that_played(tmp_path, expect):
    output = _session(tmp_path, "▶️ **Game** has started with alice, bob.", "   ✅ You bid 0.")
    assert expect.problems(SCRIPT, output) == []


def test_console_expect_fails_a_refused_move_an_error_reply_and_an_unexpected_order(tmp_path, expect):
    refused = _session(tmp_path, "has started", "✅ You bid 0.", "   ⚠️ It is not your turn: waiting for bob.")
    assert any("It is not your turn" in problem for problem in expect.problems(SCRIPT, refused))
    broken = _session(tmp_path, "⚠️ Something went wrong on our side, and nothing was changed.")
    assert len(expect.problems(SCRIPT, broken)) == 3  # the error, and both expectations unmet
    backwards = _session(tmp_path, "✅ You bid 0.", "has started")
    assert expect.problems(SCRIPT, backwards) == [
        "not in the output (after the previous expectation): ✅ You bid 0."
    ]


def test_console_expect_fails_without_expectations_or_pictures(tmp_path, expect):
    assert expect.problems("alice> /game start\n", _session(tmp_path, "x")) != []
    assert expect.problems(SCRIPT, "has started\n✅ You bid 0.") == ["no picture was drawn"]
    missing = "has started\n✅ You bid 0.\n🖼  /nowhere/board.png — gone"
    assert expect.problems(SCRIPT, missing) == ["picture missing or empty: /nowhere/board.png"]


def test_the_image_and_compose_check_the_bots_health_on_its_health_port():
    """Docker restarts an unhealthy container only if it knows how to ask: both ask /healthz on the
    port the image sets (bot/interface/health.py)."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    port = re.search(r"HEALTH_PORT=(\d+)", dockerfile)
    assert port
    assert re.search(r"(?m)^HEALTHCHECK .*\n?.*/healthz", dockerfile)
    assert f"127.0.0.1:{port.group(1)}/healthz" in dockerfile
    compose = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    worker = compose.split("x-worker: &worker", 1)[1].split("\nservices:", 1)[0]
    assert "healthcheck:" in worker and f"127.0.0.1:{port.group(1)}/healthz" in worker
    assert compose.count(f'HEALTH_PORT: "{port.group(1)}"') == compose.count("<<: *worker")
