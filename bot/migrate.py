"""`python -m bot migrate --from URL --to URL`: copy every game to another database, then prove the copy.

Moving from the embedded SQLite file to PostgreSQL (to run several workers) must not lose or bend a
game. So the copy is checked the way the bot checks itself: every copied game is replayed with the
rules core from its seed and its copied action log (undo entries included), and the replay must
arrive at the copied snapshot, and at the copied result for a finished game. Any game that does not
is named, and the command exits non-zero. Row counts of every table are compared as well.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.app.service import GameService
from bot.storage.database import parse_url
from bot.storage.store import GameRecord, Store
from rules import registry, words

BATCH = 200
"""Games copied per transaction: bounded memory however large the source is."""


@dataclass
class Report:
    copied: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class MigrationRefused(Exception):
    """The copy was not started (nothing was written to the target)."""


async def migrate(source_url: str, target_url: str, *, say: Callable[[str], None] = print) -> Report:
    if parse_url(source_url) == parse_url(target_url):
        raise MigrationRefused("--from and --to are the same database.")
    source = await Store.open(source_url)
    try:
        target = await Store.open(target_url)
        try:
            return await _copy_and_check(source, target, say)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy_and_check(source: Store, target: Store, say: Callable[[str], None]) -> Report:
    if await target.game_ids():
        raise MigrationRefused("the target database already holds games; migrate into an empty database.")
    tables = await source.tables()
    target_tables = await target.tables()
    for name, columns in tables.items():
        missing = set(columns) - set(target_tables.get(name, []))
        if missing:
            raise MigrationRefused(
                f"the target has no {words.plural('column', len(missing))} {sorted(missing)} in table {name}."
            )
    per_game = [
        "games",
        *sorted(name for name, cols in tables.items() if "game_id" in cols and name != "games"),
    ]
    shared = sorted(name for name in tables if name not in per_game)
    report = Report(copied=dict.fromkeys(tables, 0))

    ids = await source.game_ids()
    for start in range(0, len(ids), BATCH):
        chunk = ids[start : start + BATCH]
        batch = []
        for name in per_game:
            rows = await source.export_rows(name, tables[name], chunk)
            batch.append((name, tables[name], rows))
            report.copied[name] += len(rows)
        await target.import_rows(batch)
        say(f"copied games {start + 1}-{start + len(chunk)} of {len(ids)}")
    batch = []
    for name in shared:
        rows = await source.export_rows(name, tables[name])
        batch.append((name, tables[name], rows))
        report.copied[name] += len(rows)
    await target.import_rows(batch)

    for name in tables:
        there = len(await target.export_rows(name, tables[name][:1]))
        if there != report.copied[name]:
            report.problems.append(f"table {name}: {report.copied[name]} rows read, {there} in the target")

    service = GameService(target)
    for game_id in ids:
        game = await target.game(game_id)
        assert game is not None
        problem = await replay_problem(service, game)
        if problem is None:
            report.replayed += game.state is not None
        else:
            report.problems.append(f"game #{game.id} ({game.kind}, {game.status.value}): {problem}")
    return report


async def replay_problem(service: GameService, game: GameRecord) -> str | None:
    """Why this game does not replay to its stored snapshot and result, or None if it does."""
    if game.state is None:
        return None  # a lobby: nothing has been played
    try:
        rules = registry.get(game.kind)
    except KeyError:
        return "no such game in this version of the bot"
    try:
        final = (await service.replay(game))[-1]
    except Exception as error:  # a rule refused a logged move: that is exactly what we look for
        return f"the action log does not replay ({type(error).__name__}: {error})"
    # The snapshot may be as an earlier version of the rules wrote it, at the end of a log it wrote.
    matched = [state for state, text in rules.saved_forms(final) if _same_json(text, game.state)]
    if not matched:
        return "the replayed state differs from the stored snapshot"
    final = matched[0]
    if game.result is not None and game.status == "finished":
        result = rules.result(final)
        if result is None or not _same_json(result.model_dump_json(), game.result):
            return "the replayed result differs from the stored result"
    return None


def _same_json(left: str, right: str) -> bool:
    return left == right or _loads(left) == _loads(right)


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def print_report(report: Report, source: str, target: str, say: Callable[[str], None] = print) -> None:
    say(f"from {parse_url(source)} to {parse_url(target)}")
    for name, count in sorted(report.copied.items()):
        say(f"  {name}: {count} rows")
    say(f"{report.replayed} started games replayed to their stored snapshot")
    if report.problems:
        say(f"{words.count(len(report.problems), 'problem')}:")
        for problem in report.problems:
            say(f"  - {problem}")
    else:
        say("every game was copied and checked")
