"""City of Iron's choices: how moves become `Choice` objects (`rules.core.built_choice`, which cuts
labels to length; keys are cut here) and the helpers more than one family of moves uses (card names, payment sets).

Choices that depend only on their content are built once (`lru_cache`) in the families and shared:
treat choices as read-only."""

from __future__ import annotations

import hashlib
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

from rules import words
from rules.city_of_iron.scoring import card

_SET_FIELDS = frozenset({"key", "label", "action", "group", "style"})

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


def card_names(uids: list[str]) -> str:
    return words.listed((card(uid).name for uid in uids), empty="nothing")


@cache
def _kind_of(uid: str) -> str:
    """The card type of a citizen or military card instance ("scholar.0a" -> "scholar")."""
    return uid.rsplit(".", 1)[0]


@lru_cache(maxsize=4096)
def _minimal_sets(
    cards: tuple[str, ...], skill: str, need: int, flag: str | None, limit: int
) -> tuple[tuple[str, ...], ...]:
    """The minimal sets as card instances: the sets found for the cards' types (`_minimal_positions`,
    which hands of other seats and copies share) mapped back to the cards at those positions."""
    found = _minimal_positions(tuple(map(_kind_of, cards)), skill, need, flag, limit)
    return tuple(tuple(cards[index] for index in positions) for positions in found)


@lru_cache(maxsize=8192)
def _minimal_positions(
    kinds: tuple[str, ...], skill: str, need: int, flag: str | None, limit: int
) -> tuple[tuple[int, ...], ...]:
    """`_minimal_sets` by positions in the list of card types: what makes a set minimal, valid or a
    duplicate depends only on the types and their order, never on which copy (or whose) a card is, so
    this is cached per hand of types (a far better hit rate than per hand of instances)."""
    if need <= 0 and flag is None:
        return ((),)
    useful: list[int] = []
    per_name: dict[str, int] = {}
    for index, kind_id in enumerate(kinds):
        kind = card(kind_id)
        useful_card = getattr(kind, skill) > 0 or (flag and getattr(kind, flag))
        if useful_card and per_name.get(kind_id, 0) < max(need, 1):
            per_name[kind_id] = per_name.get(kind_id, 0) + 1
            useful.append(index)
    useful.sort(key=lambda index: -getattr(card(kinds[index]), skill))
    values = {index: getattr(card(kinds[index]), skill) for index in useful}
    flags = {index: bool(flag and getattr(card(kinds[index]), flag)) for index in useful}
    results: list[tuple[int, ...]] = []
    seen: set[tuple[str, ...]] = set()

    def valid(chosen: tuple[int, ...]) -> bool:
        if sum(values[index] for index in chosen) < need:
            return False
        return flag is None or any(flags[index] for index in chosen)

    for size in range(1, min(len(useful), need + (1 if flag else 0)) + 1):
        for chosen in combinations(useful, size):
            if not valid(chosen):
                continue
            if any(valid(chosen[:index] + chosen[index + 1 :]) for index in range(size)):
                continue
            signature = tuple(sorted(kinds[index] for index in chosen))
            if signature in seen:
                continue
            seen.add(signature)
            results.append(chosen)
            if len(results) >= limit:
                return tuple(results)
    return tuple(results)


def payment_sets(
    cards: list[str], skill: str, need: int, flag: str | None = None, limit: int = PAYMENT_LIMIT
) -> list[list[str]]:
    """Minimal sets of cards whose `skill` adds up to `need` (with one `flag` card if given)."""
    return [list(found) for found in _minimal_sets(tuple(cards), skill, need, flag, limit)]


def payments(cards: list[str], work: int, distance: int, flag: str | None) -> list[list[str]]:
    """Payer sets for a card action needing work and distance skills (and maybe a ship/airship)."""
    if not work and not distance and flag is None:
        return [[]]
    if not distance and flag is None:
        return payment_sets(cards, "work", work)
    out: list[list[str]] = []
    for work_set in payment_sets(cards, "work", work) if work else [[]]:
        rest = [uid for uid in cards if uid not in work_set]
        for distance_set in payment_sets(rest, "distance", distance, flag, limit=3):
            out.append(work_set + distance_set)
            if len(out) >= PAYMENT_LIMIT:
                return out
    return out
