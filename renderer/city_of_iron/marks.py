"""City of Iron's `changes(old, new)`: what changed between two views, as marks to frame and words."""

from __future__ import annotations

from renderer.canvas import NAME_WIDTH, player_name
from renderer.changes import BANNER_SIZE, Changes, change
from renderer.city_of_iron.layout import _acts, _leads
from rules.city_of_iron.view import CityOfIronView, PlayerInfo
from rules.core import View


def _numbers(view: CityOfIronView, info: PlayerInfo, leads: int) -> dict[str, int | str]:
    return {
        "vp": info.vp,
        "income": info.income + info.income_bonus,
        "coins": info.coins,
        "science": info.science,
        "hand": info.hand_size,
        "lead": leads,
    }


def _banner_name(name: str) -> str:
    return player_name(name, NAME_WIDTH, BANNER_SIZE)


def _built(info: PlayerInfo) -> list[str]:
    return sorted(
        [building.name for city in info.cities for building in city.buildings]
        + [town.name for town in info.towns]
    )


def _gained(before: list[str], after: list[str]) -> tuple[list[str], list[str]]:
    """What is in `after` and not `before`, and the other way round (as multisets)."""
    rest = list(before)
    gained = []
    for name in after:
        if name in rest:
            rest.remove(name)
        else:
            gained.append(name)
    return gained, rest


LABELS = {
    "vp": "VP",
    "income": "income",
    "coins": "coins",
    "science": "science",
    "hand": "cards in hand",
    "lead": "goods led",
}
"""The nations table's numbers and their names in words."""


def _seat_changes(old: CityOfIronView, new: CityOfIronView, marks: set[str], lines: list[str]) -> None:
    """Each seat's table cells, and what it gained or lost (nations section)."""
    old_leads, new_leads = _leads(old), _leads(new)
    for seat, (before, after) in enumerate(zip(old.seats, new.seats, strict=True)):
        name = _banner_name(after.name)
        was, now = _numbers(old, before, old_leads[seat]), _numbers(new, after, new_leads[seat])
        for key, label in LABELS.items():
            if was[key] != now[key]:
                marks.add(f"{key}:{seat}")
                lines.append(change(f"{name}: {label}", was[key], now[key]))
        if _acts(old, before) != _acts(new, after) and new.phase in ("actions", "purchase"):
            marks.add(f"acts:{seat}")
        gained, lost = _gained(_built(before), _built(after))
        if gained:
            lines.append(f"{name} gained {', '.join(gained)} (nations section)")
        if lost:
            lines.append(f"{name} lost {', '.join(lost)} (nations section)")


def _goods_changes(old: CityOfIronView, new: CityOfIronView, marks: set[str], lines: list[str]) -> None:
    """The goods section's cells."""
    goods_before = {good.id: good.amounts for good in old.goods}
    for good in new.goods:
        amounts = goods_before.get(good.id, [0] * len(good.amounts))
        for seat, (was_amount, now_amount) in enumerate(zip(amounts, good.amounts, strict=False)):
            if was_amount != now_amount:
                marks.add(f"good:{good.id}:{seat}")
                lines.append(
                    change(
                        f"Goods section: {_banner_name(new.seats[seat].name)}'s {good.name}",
                        was_amount,
                        now_amount,
                    )
                )


def _row_and_track_changes(
    old: CityOfIronView, new: CityOfIronView, marks: set[str], lines: list[str]
) -> None:
    """The building row's spaces and the turn-order track's spaces."""
    old_row = [info.uid if info else None for info in old.row]
    for index, info in enumerate(new.row):
        if (old_row[index] if index < len(old_row) else None) != (info.uid if info else None):
            marks.add(f"row:{index}")
            lines.append(f"Building row: {info.name if info else 'an empty space'} in space {index + 1}")
    for index, who in enumerate(new.track):
        was = old.track[index] if index < len(old.track) else None
        if was != who:
            marks.add(f"track:{index}")
            if who is not None:
                lines.append(
                    f"Track: {_banner_name(new.seats[who].name)} bid {new.bid_costs[index]} (space {index + 1})"
                )


def _round_changes(old: CityOfIronView, new: CityOfIronView, marks: set[str], lines: list[str]) -> None:
    """The deck, the scorings, the alerts and the round, the last three put first in the words."""
    if old.deck_count != new.deck_count or old.cards_to_next_score != new.cards_to_next_score:
        marks.add("deck")
    if old.scorings != new.scorings:
        marks.add("scorings")
        lines.insert(0, f"Scoring {new.scorings} of 3 done")
    for key, flag, text in (
        ("score_due", new.score_due, "A Score card was drawn"),
        ("last_round", new.last_round, "This is the last round"),
    ):
        if flag and not getattr(old, key):
            marks.add(key)
            lines.insert(0, text)
    if old.round != new.round:
        marks.add("round")
        lines.insert(0, f"Round {old.round} → {new.round}")


def changes(old: View, new: View) -> Changes:
    """The parts of the turn picture that changed between two views of the same viewer (nations table
    cells, track spaces, building tiles, round, scorings, deck), with those and the goods section's
    changes in words."""
    assert isinstance(old, CityOfIronView) and isinstance(new, CityOfIronView)
    marks: set[str] = set()
    lines: list[str] = []
    _seat_changes(old, new, marks, lines)
    _goods_changes(old, new, marks, lines)
    _row_and_track_changes(old, new, marks, lines)
    _round_changes(old, new, marks, lines)
    return Changes(marks=frozenset(marks), lines=tuple(lines))
