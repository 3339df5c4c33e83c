"""The `/rules` summaries: `data/<game>/rules.md`, one `## <topic title>` section per topic.

Pure: reads a text file, no Discord. Each section is written for a player and ends with a line
`Full text: <section name of the rule text>`; a topic's id is its title slugified ("End of round" ->
"end-of-round"). A malformed file fails with a `RulesFileError` naming the file and the section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib.resources.abc import Traversable

from rules import data, words
from rules.core import CatalogueEntry

DATA_DIR = data.root()
RULES_FILE = "rules.md"
MAX_TOPIC_CHARS = 1800
"""A topic's text must fit one Discord message (2,000) or embed description, with room for a heading."""
SOURCE_PREFIX = "Full text:"


class RulesFileError(ValueError):
    """A rules.md file is malformed; the message names the file and the section."""


@dataclass(frozen=True)
class Topic:
    id: str
    """The title slugified: 'end-of-round'."""
    title: str
    text: str
    """The summary, without the final 'Full text:' line."""
    source: str
    """The section name of the rule text this summarises."""


def slug(title: str) -> str:
    """'End of round' -> 'end-of-round'; '&' and other signs drop out."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def game_dir(game_id: str) -> str:
    return data.folder_name(game_id)


def rules_path(game_id: str, data_dir: Traversable = DATA_DIR) -> Traversable:
    return data_dir / game_dir(game_id) / RULES_FILE


def parse(text: str, where: str = RULES_FILE) -> list[Topic]:
    """The topics of one rules.md text, in file order; `where` names the file in errors."""
    sections: list[tuple[str, list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## "):
            title = line[3:].strip()
            if not title:
                raise RulesFileError(f"{where}: line {number}: a '## ' heading needs a topic title")
            sections.append((title, []))
        elif sections:
            sections[-1][1].append(line.rstrip())
        elif line.strip() and not line.startswith("# "):
            raise RulesFileError(
                f"{where}: line {number}: text before the first '## ' topic (only a '# ' title may stand there)"
            )
    if not sections:
        raise RulesFileError(f"{where}: no '## <topic title>' section")
    topics: list[Topic] = []
    seen: set[str] = set()
    for title, lines in sections:
        body = "\n".join(lines).strip()
        section = f"{where}: section {title!r}"
        topic_id = slug(title)
        if not topic_id:
            raise RulesFileError(f"{section}: the title has no letters or digits for an id")
        if topic_id in seen:
            raise RulesFileError(f"{section}: a second topic with the id {topic_id!r}")
        seen.add(topic_id)
        *rest, last = body.splitlines() or [""]
        if not last.startswith(SOURCE_PREFIX) or not last[len(SOURCE_PREFIX) :].strip():
            raise RulesFileError(
                f"{section}: must end with a line '{SOURCE_PREFIX} <section name of the rule text>'"
            )
        summary = "\n".join(rest).strip()
        if not summary:
            raise RulesFileError(f"{section}: the summary is empty")
        if len(summary) > MAX_TOPIC_CHARS:
            raise RulesFileError(
                f"{section}: {len(summary)} characters, more than {MAX_TOPIC_CHARS}: split the topic"
            )
        topics.append(Topic(topic_id, title, summary, last[len(SOURCE_PREFIX) :].strip()))
    return topics


def load(path: Traversable) -> list[Topic]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RulesFileError(f"{path}: cannot be read ({error.strerror or error})") from None
    return parse(text, str(path))


@cache
def topics(game_id: str) -> list[Topic]:
    """The `/rules` topics of a game (by registry id or data folder name), in order from setup to scoring."""
    return load(rules_path(game_id))


def topic(game_id: str, topic_id: str) -> Topic:
    """One topic by id; KeyError names the game's topics when it is unknown."""
    for found in topics(game_id):
        if found.id == topic_id:
            return found
    known = ", ".join(found.id for found in topics(game_id))
    raise KeyError(f"{game_id} has no rules topic {topic_id!r} (topics: {known})")


def next_topic(game_id: str, topic_id: str) -> Topic | None:
    """The topic after this one, or None for the last."""
    ids = [found.id for found in topics(game_id)]
    index = ids.index(topic_id)
    return topics(game_id)[index + 1] if index + 1 < len(ids) else None


# ---- the /card catalogues ---------------------------------------------------------------------------
def unique_names(entries: list[CatalogueEntry]) -> list[CatalogueEntry]:
    """`/card` looks entries up by name: a name used twice gets its kind added, then a number."""
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry.name.lower()] = counts.get(entry.name.lower(), 0) + 1
    out: list[CatalogueEntry] = []
    taken: set[str] = set()
    for entry in entries:
        name = entry.name if counts[entry.name.lower()] == 1 else f"{entry.name} ({entry.kind})"
        candidate, number = name, 2
        while candidate.lower() in taken:
            candidate = f"{name} {number}"
            number += 1
        taken.add(candidate.lower())
        out.append(entry if candidate == entry.name else entry.model_copy(update={"name": candidate}))
    return out


def plural(count: int, word: str) -> str:
    """'1 coin', '3 coins', '2 goods': `rules.words.count`, kept under its old name for the catalogues."""
    return words.count(count, word)
