"""`changes(old, new)`: what the turn picture shows that changed since the previous post, as marks
(squares, each side's numbers, the Gold Mined marker, the battle line) and the same in words.
"""

from __future__ import annotations

from renderer.canvas import player_name
from renderer.changes import BANNER_SIZE, Changes, change
from renderer.iron_and_brass.layout import TOKEN_NAMES, battle_line, game_view
from rules.core import View
from rules.iron_and_brass.view import IronAndBrassView


# ---- changes ------------------------------------------------------------------------------------------
def changes(old: View, new: View) -> Changes:
    """What the turn picture shows that changed: squares whose piece or build changed (moved, arrived,
    destroyed, disabled, repaired), each side's gold, crew, army and tokens, the Gold Mined marker and
    the battle line, with the same changes in words."""
    old, new = game_view(old), game_view(new)
    names = [player_name(name, 240, BANNER_SIZE) for name in new.players]
    marks: set[str] = set()
    lines: list[str] = []
    _square_changes(old, new, names, marks, lines)
    for before, after in zip(old.seats, new.seats, strict=True):
        who = names[after.seat]
        for key, label, was, now in (
            ("gold", "gold", before.gold, after.gold),
            ("crew", "crew", before.crew, after.crew),
        ):
            if was != now:
                marks.add(f"{key}:{after.seat}")
                lines.append(change(f"{who}: {label}", was, now))
        if (before.units, before.structures) != (after.units, after.structures):
            marks.add(f"army:{after.seat}")
            if before.units != after.units:
                lines.append(change(f"{who}: units", before.units, after.units))
            if before.structures != after.structures:
                lines.append(change(f"{who}: structures", before.structures, after.structures))
        if before.advantage_tokens != after.advantage_tokens:
            marks.add(f"tokens:{after.seat}")
            line = change(f"{who}: advantage tokens", before.advantage_tokens, after.advantage_tokens)
            kinds = [
                TOKEN_NAMES.get(kind, kind)
                for kind, count in after.played.items()
                if count > before.played.get(kind, 0)
            ]
            lines.append(line + (f" ({', '.join(kinds)})" if kinds else ""))
        if (before.mined, before.spent) != (after.mined, after.spent):
            marks.add(f"mined:{after.seat}")
    if old.gold_left != new.gold_left:
        marks.add("gold-left")
        lines.append(change("Gold Mined marker", old.gold_left, new.gold_left))
    if (old.combat, old.last_combat) != (new.combat, new.last_combat):
        battle = battle_line(new)
        if battle:
            marks.add("battle")
            lines.append(battle.rstrip("."))
    return Changes(marks=frozenset(marks), lines=tuple(lines))


def _square_changes(
    old: IronAndBrassView, new: IronAndBrassView, names: list[str], marks: set[str], lines: list[str]
) -> None:
    def piece(view: IronAndBrassView, square: str) -> tuple[int, str, bool] | None:
        found = view.piece_at(square)
        return (found.owner, found.name, found.disabled) if found else None

    def build(view: IronAndBrassView, square: str) -> tuple[int, str] | None:
        found = next((b for b in view.builds if b.square == square), None)
        return (found.owner, found.name) if found else None

    squares = {p.square for p in [*old.pieces, *new.pieces]} | {b.square for b in [*old.builds, *new.builds]}
    for square in sorted(squares, key=lambda sq: (sq[0], int(sq[1:]))):
        was, now = piece(old, square), piece(new, square)
        if was != now:
            marks.add(square)
            if now is None:
                assert was is not None, "was != now"
                lines.append(f"{square}: {names[was[0]]}'s {was[1]} is gone")
            elif was is None or was[:2] != now[:2]:
                lines.append(
                    f"{square}: {names[now[0]]}'s {now[1]} now here" + (" (disabled)" if now[2] else "")
                )
            else:
                lines.append(
                    f"{square}: {names[now[0]]}'s {now[1]} " + ("disabled" if now[2] else "repaired")
                )
        planned, planned_now = build(old, square), build(new, square)
        if planned != planned_now:
            marks.add(square)
            if planned_now is not None:
                article = "an" if planned_now[1][:1].lower() in "aeiou" else "a"
                lines.append(f"{square}: {names[planned_now[0]]} is building {article} {planned_now[1]}")
