"""The bot as a real `python -m bot` subprocess pointed at the emulator: its own process, its own RSS.

`source` picks the tree the bot is run from: the working tree by default, or a baseline checkout
(`bench/baseline.py`). The subprocess gets `PYTHONPATH=<source>` first, so `bot`, `rules` and
`renderer` are that tree's, not the editable install's; a launcher prints where each was imported
from and `start()` refuses a process that imported them from anywhere else. A `bench.*` module (the
picture stub) is always the working tree's file, run by path, so both trees get the same stub.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.emulator.server import FakeDiscord

ROOT = str(Path(__file__).resolve().parent.parent)
IMPORTS_TAG = "bench-imports:"
PACKAGES = ("bot", "rules", "renderer")

# What `python -m <module>` does, after one line saying where the tree's packages come from.
LAUNCHER = f"""
import importlib, json, runpy, sys
where = {{name: importlib.import_module(name).__file__ for name in {PACKAGES!r}}}
print({IMPORTS_TAG!r}, json.dumps(where), file=sys.stderr, flush=True)
module, script = sys.argv[1], sys.argv[2]
sys.argv = [sys.argv[0]]
if script:
    runpy.run_path(script, run_name="__main__")
else:
    runpy.run_module(module, run_name="__main__", alter_sys=True)
"""


class BotProcess:
    def __init__(
        self,
        server: FakeDiscord,
        folder: Path,
        db_path: Path,
        *,
        render_processes: int = 1,
        module: str = "bot",
        database_url: str | None = None,
        shards: tuple[int, int] | None = None,
        source: Path | str | None = None,
    ) -> None:
        """`shards` is (shard count, the one shard this process runs); `database_url` defaults to
        the SQLite file `db_path`; `source` is the tree the bot runs from (default: this one)."""
        self.source = Path(source or ROOT).resolve()
        #: Where the subprocess imported bot, rules and renderer from (read from its log at start).
        self.imported: dict[str, str] = {}
        self.server = server
        self.module = module
        self.folder = folder
        self.db_path = db_path
        self.render_processes = render_processes
        self.process: subprocess.Popen[bytes] | None = None
        self.database_url = database_url or f"sqlite:///{db_path}"
        self.shards = shards
        self.log = folder / (f"bot-{shards[1]}.log" if shards else "bot.log")

    async def start(self, timeout: float = 60.0) -> None:  # noqa: ASYNC109
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "SHARD_"))}
        if self.shards is not None:
            env.update(SHARD_COUNT=str(self.shards[0]), SHARD_IDS=str(self.shards[1]))
        env.update(
            DISCORD_TOKEN="bench-token",
            DISCORD_API_BASE=self.server.api_base,
            DATABASE_URL=self.database_url,
            RENDER_PROCESSES=str(self.render_processes),
            LOG_LEVEL="WARNING",
            DEV_GUILD_ID="",
        )
        before = len(self.server.gateway.sessions)
        # the source tree first, so its packages win over the editable install; the cwd stays the
        # temporary folder, so no .env of any tree is read
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(self.source), env.get("PYTHONPATH")]))
        script = ""
        if self.module.startswith("bench."):
            script = str(Path(ROOT, *self.module.split(".")).with_suffix(".py"))
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(  # noqa: ASYNC220 - starting it does not block
                [sys.executable, "-c", LAUNCHER, self.module, script],
                cwd=self.folder,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while len(self.server.gateway.sessions) <= before:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the bot did not start:\n{self.log.read_text(errors='replace')[-3000:]}")
            await asyncio.sleep(0.05)
        self.imported = self._check_imports()

    def _check_imports(self) -> dict[str, str]:
        """Where the subprocess imported each package from; raises unless every one is in `source`."""
        for line in self.log.read_text(errors="replace").splitlines():
            if line.startswith(IMPORTS_TAG):
                where = json.loads(line.removeprefix(IMPORTS_TAG))
                break
        else:
            raise RuntimeError(f"the bot process did not say where it imported from (see {self.log})")
        # exactly <source>/<package>/__init__.py: "inside the working tree" would also admit the
        # baseline trees under .bench-baseline/
        wrong = {
            name: path for name, path in where.items() if Path(path).resolve().parent != self.source / name
        }
        if wrong:
            raise RuntimeError(f"the bot process imported {wrong}, not from {self.source}")
        return where

    def describe_source(self) -> str:
        """One line for the output: which file `bot` came from in the subprocess."""
        return f"bot imported from {self.imported.get('bot', '?')}"

    def rss_mb(self) -> tuple[float, float, float]:
        """(RSS, peak RSS) of the bot process and the RSS of its children (render workers), in MB."""
        assert self.process is not None
        own, peak = _status(self.process.pid)
        children = 0.0
        for pid in _children(self.process.pid):
            children += _status(pid)[0]
        return own, peak, children

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def _status(pid: int) -> tuple[float, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = task / "children"
        if children.exists():
            found += [int(child) for child in children.read_text().split()]
    return found + [grandchild for child in found for grandchild in _children(child)]
