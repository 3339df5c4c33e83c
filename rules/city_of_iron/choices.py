"""City of Iron's choices: how moves become `Choice` objects (`rules.core.built_choice`, which cuts
labels to length; keys are cut here) and the helpers more than one family of moves uses (card names, payment sets).

Choices that depend only on their content are built once (`lru_cache`) in the families and shared:
treat choices as read-only. Payments are found once per set of paying card *types* and handed to the
first copies in the hand, and labels are worded per card types: the search samples thousands of hands
a decision, of the same few types in ever new orders."""

from __future__ import annotations

import hashlib
from functools import cache, lru_cache
from typing import Any

from rules import words
from rules.city_of_iron.data import rules_data
from rules.city_of_iron.scoring import card

PAYMENT_LIMIT = 6
"""Most payment combinations offered per card action or per attack target and role."""


def action_of(model: Any, **fields: Any) -> dict[str, Any]:
    """An action as the JSON dict `apply` accepts (what `model(**fields).model_dump()` gives, minus defaults)."""
    return {"kind": model.__pydantic_fields__["kind"].default, **fields}


def fit_key(text: str) -> str:
    if len(text) <= 60:
        return text
    digest = hashlib.sha1(text.encode()).hexdigest()[:10]
    return f"{text[:49]}~{digest}"


def card_names(uids: list[str] | tuple[str, ...]) -> str:
    """'Soldier and Tank' for these cards (instances or types); 'nothing' for none."""
    return _names(tuple(uids))


@lru_cache(maxsize=4096)
def _names(uids: tuple[str, ...]) -> str:
    return words.listed((card(uid).name for uid in uids), empty="nothing")


@cache
def kind_of(uid: str) -> str:
    """The card type of a citizen or military card instance ("scholar.0a" -> "scholar")."""
    return uid.rsplit(".", 1)[0]


@lru_cache(maxsize=4096)
def minimal_sets(
    cards: tuple[str, ...], skill: str, need: int, flag: str | None, limit: int
) -> tuple[tuple[str, ...], ...]:
    """The minimal sets as card instances: the sets of card types (`_minimal_kinds`) with each type
    taken by its first copies in the hand, so the same hand always pays with the same cards."""
    if need <= 0 and flag is None:
        return ((),)
    paying = _paying_kinds(skill, flag)
    copies: dict[str, list[str]] = {}
    for uid in cards:
        kind_id = kind_of(uid)
        if kind_id in paying:
            copies.setdefault(kind_id, []).append(uid)
    if not copies:
        return ()
    cap = max(need, 1)
    useful: list[str] = []
    for kind_id, found in copies.items():
        useful += [kind_id] * min(len(found), cap)
    useful.sort()
    sets = []
    for kinds in _minimal_kinds(tuple(useful), skill, need, flag, limit):
        taken: dict[str, int] = {}
        chosen = []
        for kind_id in kinds:
            index = taken.get(kind_id, 0)
            taken[kind_id] = index + 1
            chosen.append(copies[kind_id][index])
        sets.append(tuple(chosen))
    return tuple(sets)


@cache
def _paying_kinds(skill: str, flag: str | None) -> frozenset[str]:
    """The card types with some `skill`, or with `flag` (a ship or airship pays its status too)."""
    return frozenset(
        kind_id
        for kind_id, kind in rules_data().cards.items()
        if getattr(kind, skill) > 0 or bool(flag and getattr(kind, flag))
    )


@lru_cache(maxsize=8192)
def _minimal_kinds(
    useful: tuple[str, ...], skill: str, need: int, flag: str | None, limit: int
) -> tuple[tuple[str, ...], ...]:
    """The minimal sets as card types, from the sorted types that can pay (each at most `need` times:
    more copies never make a set minimal), tried largest `skill` first. What makes a set minimal or
    valid depends only on the types, never on which copy (or whose) a card is, so one entry serves
    every hand with these paying types in any order and with any other cards (the search meets the same
    few types in thousands of hands).

    Smallest sets first, each size in the order of `itertools.combinations` over the sorted types,
    each set of types once (by its first copies); `_SetSearch` walks that order but skips the branches
    that cannot hold a minimal set, which trying every combination spent most of its time on."""
    useful = tuple(sorted(useful, key=lambda kind_id: -getattr(card(kind_id), skill)))
    search = _SetSearch(useful, skill, need, flag, limit)
    for size in range(1, min(len(useful), need + (1 if flag else 0)) + 1):
        if search.collect(size):
            break
    return tuple(search.results)


class _SetSearch:
    """The minimal sets of one `_minimal_kinds` call, walked depth first in combinations order.

    The types come largest value first, with the copies of a type next to each other: a branch whose
    largest possible completion cannot reach `need` holds no valid set, a branch already valid before
    its last card holds no minimal one, and a copy skipped at one depth would only repeat the set of
    types its first copy gives."""

    def __init__(self, useful: tuple[str, ...], skill: str, need: int, flag: str | None, limit: int) -> None:
        self.useful = useful
        self.values = [getattr(card(kind_id), skill) for kind_id in useful]
        self.flags = [bool(flag and getattr(card(kind_id), flag)) for kind_id in useful]
        self.prefix = [0]
        for value in self.values:
            self.prefix.append(self.prefix[-1] + value)
        self.need = need
        self.flagged = flag is not None
        self.limit = limit
        self.results: list[tuple[str, ...]] = []

    def valid(self, chosen: list[int], total: int) -> bool:
        return total >= self.need and (not self.flagged or any(self.flags[index] for index in chosen))

    def collect(self, size: int) -> bool:
        """Add the minimal sets of `size` types; True once `limit` sets are found."""
        return self._walk([], 0, 0, size)

    def _walk(self, chosen: list[int], total: int, start: int, size: int) -> bool:
        left = size - len(chosen)
        if not left:
            if self.valid(chosen, total) and not any(
                self.valid(chosen[:at] + chosen[at + 1 :], total - self.values[index])
                for at, index in enumerate(chosen)
            ):
                self.results.append(tuple(self.useful[index] for index in chosen))
                return len(self.results) >= self.limit
            return False
        if chosen and self.valid(chosen, total):
            return False
        for index in range(start, len(self.useful) - left + 1):
            if index > start and self.useful[index] == self.useful[index - 1]:
                continue
            if total + self.prefix[index + left] - self.prefix[index] < self.need:
                break
            chosen.append(index)
            found = self._walk(chosen, total + self.values[index], index + 1, size)
            chosen.pop()
            if found:
                return True
        return False


@lru_cache(maxsize=4096)
def payments(
    cards: tuple[str, ...], work: int, distance: int, flag: str | None
) -> tuple[tuple[str, ...], ...]:
    """Payer sets for a card action needing work and distance skills (and maybe a ship/airship);
    cached, as the lands of a settle mostly ask the same of the same hand."""
    if not work and not distance and flag is None:
        return ((),)
    if not distance and flag is None:
        return minimal_sets(cards, "work", work, None, PAYMENT_LIMIT)
    out: list[tuple[str, ...]] = []
    for work_set in minimal_sets(cards, "work", work, None, PAYMENT_LIMIT) if work else ((),):
        rest = tuple(uid for uid in cards if uid not in work_set)
        for distance_set in minimal_sets(rest, "distance", distance, flag, 3):
            out.append(work_set + distance_set)
            if len(out) >= PAYMENT_LIMIT:
                return tuple(out)
    return tuple(out)
