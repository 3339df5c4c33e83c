"""Moves typed with `/play`: matching words in any order with small slips, and what autocomplete offers.

Pure functions over a seat's choices, so the cog and the table share them and tests need no Discord.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher

from bot.interface.components import ROOT, path_to, subgroup_of
from rules import words as wording
from rules.core import Choice

MAX_SUGGESTIONS = 25
COMMON_WORDS = frozenset(
    {"draw", "tax", "end", "pass", "bank", "mine", "hire", "done", "finish", "heal", "repair", "undo", "skip"}
)
"""First words of the moves a seat makes most (drawing, taxing, ending a turn): offered first."""
COMMON_GROUPS = frozenset({"turn", "other", "economy", "bank (round action)"})
SLIP = 0.75
"""How alike a typed word and a label's word must be (difflib ratio) to count as a slip of it."""


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _word_score(typed: str, label_words: Iterable[str]) -> float:
    best = 0.0
    for word in label_words:
        if word == typed:
            return 1.0
        if word.startswith(typed):
            best = max(best, 0.9)
        elif len(typed) >= 3 and typed in word:
            best = max(best, 0.8)
        elif len(typed) >= 3 and len(word) >= 3:
            ratio = SequenceMatcher(None, typed, word).ratio()
            if ratio >= SLIP:
                best = max(best, ratio * 0.9)
    return best


def score(query: str | list[str], label: str) -> float:
    """How well the typed words match a label, in any order: 0 when some typed word matches no
    word of the label (allowing prefixes and small slips), else up to 1."""
    typed = words(query) if isinstance(query, str) else query
    if not typed:
        return 1.0
    label_words = words(label)
    total = 0.0
    for word in typed:
        found = _word_score(word, label_words)
        if found == 0.0:
            return 0.0
        total += found
    return total / len(typed)


def is_common(choice: Choice) -> bool:
    """A move offered first: a common first word or group, or the game's declared pass. Not a 'safe'
    timeout choice: that is only what the clock falls back on (the menu's first build, say)."""
    first = (words(choice.label) or [""])[0]
    return choice.timeout == "pass" or first in COMMON_WORDS or choice.group.strip().lower() in COMMON_GROUPS


@dataclass
class Suggestion:
    name: str
    value: str
    """'<menu>:<key>' for one move, '<menu>:grp:<menu path>' for a group of variants (its menu)."""


def suggestions(choices: list[Choice], query: str, menu: str) -> list[Suggestion]:
    """What autocomplete lists: the most-used moves first, single moves next, and moves with many
    variants (payments, targets) as one entry each that opens their menu, unless the words typed
    narrow the list to one such group."""
    typed = words(query)
    matched = [(score(typed, c.label), index, c) for index, c in enumerate(choices)]
    matched = [item for item in matched if item[0] > 0]
    parts: dict[tuple[str, str], list[tuple[float, int, Choice]]] = {}
    for item in matched:
        parts.setdefault((item[2].group, subgroup_of(item[2])), []).append(item)
    ranked: list[tuple[tuple[int, float, int], Suggestion, str]] = []
    narrowed = len(parts) == 1
    for (group, sub), members in parts.items():
        if len(members) >= 3 and not narrowed:
            everyone = {c.key for c in choices if c.group == group and subgroup_of(c) == sub}
            ranked.append(_group_entry(choices, sub, members, everyone, menu, group))
            continue
        for value, index, choice in members:
            rank = 0 if is_common(choice) else 1
            suggestion = Suggestion(_clip(choice.label, 100), f"{menu}:{choice.key}")
            ranked.append(((rank, -value, index), suggestion, choice.group))
    # still too many: whole groups (the games' own, e.g. "Buy a tile") become one entry each
    collapsed: set[str] = set()
    while len(ranked) > MAX_SUGGESTIONS and not narrowed:
        sizes: dict[str, int] = {}
        for _, _, group in ranked:
            if group not in collapsed:
                sizes[group] = sizes.get(group, 0) + 1
        if not sizes or max(sizes.values()) < 2:
            break
        biggest = max(sizes, key=lambda g: sizes[g])
        collapsed.add(biggest)
        members = [item for item in matched if item[2].group == biggest]
        everyone = {c.key for c in choices if c.group == biggest}
        ranked = [item for item in ranked if item[2] != biggest]
        ranked.append(_group_entry(choices, biggest or "Moves", members, everyone, menu, biggest))
    ranked.sort(key=lambda item: item[0])
    return [suggestion for _, suggestion, _ in ranked[:MAX_SUGGESTIONS]]


def _group_entry(
    choices: list[Choice],
    title: str,
    members: list[tuple[float, int, Choice]],
    everyone: set[str],
    menu: str,
    group: str,
) -> tuple[tuple[int, float, int], Suggestion, str]:
    """One autocomplete entry for many variants; picking it opens the menu that holds them."""
    path = path_to(choices, everyone)
    best = max(m[0] for m in members)
    name = f"{_clip(title, 80)} … ({wording.count(len(members), 'way')})"
    return (2, -best, min(m[1] for m in members)), Suggestion(name, f"{menu}:grp:{path}"), group


def find(choices: list[Choice], text: str) -> list[Choice]:
    """The choices a typed phrase means: an exact label or key, else every choice whose label holds
    all the typed words (any order, small slips), the best matches only."""
    wanted = text.strip().lower()
    exact = [c for c in choices if wanted in (c.label.lower(), c.key.lower())]
    if exact:
        return exact
    partial = [c for c in choices if wanted and wanted in c.label.lower()]
    if len(partial) == 1:
        return partial
    scored = [(score(wanted, c.label), c) for c in choices]
    scored = [(value, c) for value, c in scored if value > 0]
    if not scored:
        return partial
    best = max(value for value, _ in scored)
    return [c for value, c in scored if value >= best - 1e-9]


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["ROOT", "Suggestion", "find", "is_common", "score", "suggestions", "words"]
