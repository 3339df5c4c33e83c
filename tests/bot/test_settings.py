"""`.env.example` is the operator's list of settings: every setting the bot reads is in it, and nothing
it names is unknown to the bot."""

from __future__ import annotations

import re
from pathlib import Path

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_ONLY = {"POSTGRES_PASSWORD"}


def _example_keys() -> set[str]:
    keys = set()
    for line in (ROOT / ".env.example").read_text().splitlines():
        found = re.match(r"#?\s*([A-Z][A-Z0-9_]*)=", line)
        if found:
            keys.add(found.group(1))
    return keys


def test_env_example_names_every_setting_and_only_settings() -> None:
    settings = {name.upper() for name in Settings.model_fields}
    example = _example_keys()
    assert settings - example == set(), "missing from .env.example"
    assert example - settings - COMPOSE_ONLY == set(), "in .env.example but not a setting"


def test_env_example_values_are_valid_settings(tmp_path, monkeypatch) -> None:
    env = tmp_path / ".env"
    env.write_text((ROOT / ".env.example").read_text())
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    settings = Settings(_env_file=env)
    assert settings.stop_timeout == 10 and settings.health_port is None and settings.backup_dir is None


def test_the_discord_py_requirement_is_the_version_the_tests_run() -> None:
    import discord

    pyproject = (ROOT / "pyproject.toml").read_text()
    pins = (ROOT / "constraints.txt").read_text()
    assert f'"discord.py>={discord.__version__},<3"' in pyproject
    assert f"discord.py=={discord.__version__}" in pins
