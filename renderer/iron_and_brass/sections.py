"""The on-demand sections (`OVERLAYS`): `range` (the reach of the unit on a square), `players`,
`game` and `key`.
"""

from __future__ import annotations

from renderer.canvas import MARGIN, Sheet, fit_name, to_png, with_names
from renderer.iron_and_brass.key import key_section
from renderer.iron_and_brass.layout import (
    BODY,
    INNER,
    WIDTH,
    battle_line,
    cell_for,
    draw_map,
    game_view,
    header,
    name_of,
    paragraphs,
    seat_tags,
    section,
    side_color,
    subheading,
    tokens_left,
    tokens_played,
    wrapped_height,
)
from renderer.phone import MAX_HEIGHT, MIN_TEXT
from renderer.registry import Overlay
from rules import words
from rules.core import View
from rules.iron_and_brass.state import COLUMNS, parse_square
from rules.iron_and_brass.view import IronAndBrassView


def render_range(view: View, square: str) -> bytes:
    """The map with the moves (green) and attack range (red) of the unit on `square` highlighted."""
    game = game_view(view)
    target = parse_square(square, game.size)
    piece = game.piece_at(f"{COLUMNS[target[0]]}{target[1] + 1}") if target is not None else None
    sheet = Sheet(width=WIDTH)
    if piece is None:
        header(sheet, f"Iron & Brass · nothing stands on {square.upper()[:4]}")
        draw_map(sheet, game, cell_for(game.size, MAX_HEIGHT))
        return to_png(sheet.image())
    where = parse_square(piece.square, game.size)
    assert where is not None
    attacks = {
        f"{COLUMNS[col]}{row + 1}"
        for col in range(game.size)
        for row in range(game.size)
        if 0 < abs(col - where[0]) + abs(row - where[1]) <= piece.range
    }
    owner = name_of(game, piece.owner, 24, bold=True)
    used = header(sheet, f"{owner}'s {piece.name} {piece.square}", size=24)
    notes = [
        (
            f"Attack {piece.attack:+d}, range {piece.range}, move {piece.move}, defence {piece.defence:+d}.",
            True,
            "",
        )
    ]
    if piece.category == "structure":
        notes.append(("Structures never move.", False, ""))
    else:
        notes.append((f"Green: the {len(piece.reach)} squares it may move to.", False, ""))
    if piece.range:
        enemies = [p.square for p in game.pieces if p.owner != piece.owner and p.square in attacks]
        notes.append(
            (f"Red: within range {piece.range}. Targets: {', '.join(enemies) or 'none'}.", False, "")
        )
    else:
        notes.append(("It cannot attack.", False, ""))
    if piece.disabled:
        notes.append(("Disabled: -2 attack and defence until repaired or healed.", False, ""))
    used += wrapped_height((text, bold) for text, bold, _ in notes)
    draw_map(
        sheet,
        game,
        cell_for(game.size, MAX_HEIGHT - 2 * MARGIN - used),
        moves=piece.reach,
        attacks=attacks,
        focus=piece.square,
    )
    paragraphs(sheet, notes)
    return to_png(sheet.image())


def game_section(view: View, target: str | None = None) -> bytes:
    game = game_view(view)
    sheet = section("Iron & Brass · game")
    first = name_of(game, game.first, BODY)
    lines: list[tuple[str, bool, str]] = [
        (with_names(game.opening, game.players, BODY), False, ""),
        (f"Player 1: {first} ({game.seats[game.first].side}).", True, ""),
        (f"Round {game.round} of at most {game.max_rounds}; 4 actions a turn.", False, ""),
        (f"Gold Mined marker: {game.gold_left} mining actions left.", False, ""),
    ]
    if game.finished:
        lines.insert(0, (with_names(game.reason, game.players, BODY, bold=True) + ".", True, ""))
    battle = battle_line(game)
    if battle:
        lines.append((battle, True, ""))
    record = game.last_combat
    if record is not None and game.combat is None:
        lines.append(
            (
                f"Dice: attack {' + '.join(map(str, record.attack_dice))}, "
                f"defence {' + '.join(map(str, record.defence_dice))}.",
                False,
                "",
            )
        )
        lines.append((with_names(record.text, game.players, BODY), False, ""))
    paragraphs(sheet, lines)
    return to_png(sheet.image())


def _army(view: IronAndBrassView, seat: int) -> list[str]:
    """A side's pieces grouped by kind ('MG Mechanized Gunner Patrol: E5, F6 disabled'), then its builds."""
    groups: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    for piece in view.pieces:
        if piece.owner == seat:
            names[piece.code] = piece.name
            groups.setdefault(piece.code, []).append(piece.square + (" disabled" if piece.disabled else ""))
    lines = [f"{code} {names[code]}: {', '.join(squares)}" for code, squares in groups.items()]
    builds = [f"{b.code} {b.square}" for b in view.builds if b.owner == seat]
    if builds:
        lines.append("Ready next turn: " + ", ".join(builds))
    return lines or ["No pieces on the map."]


def players_section(view: View, target: str | None = None) -> bytes:
    game = game_view(view)
    sheet = section("Iron & Brass · players")
    for seat in game.seats:
        color = side_color(seat.seat)
        title, _ = fit_name(seat.name, INNER, 24, suffix=seat_tags(game, seat), bold=True, minimum=MIN_TEXT)
        subheading(sheet, title, color)
        lines = [
            f"{seat.gold} gold · {seat.crew} crew · mined {seat.mined} · spent {seat.spent}",
            f"{words.count(seat.units, 'unit')} · {words.count(seat.structures, 'structure')}",
            f"{tokens_left(seat)} (played: {tokens_played(seat)})",
            *_army(game, seat.seat),
        ]
        paragraphs(sheet, [(line, index == 0, "") for index, line in enumerate(lines)])
    return to_png(sheet.image())


def _range_overlay(view: View, target: str | None) -> bytes:
    return render_range(view, target or "")


def _range_refusal(view: View, target: str) -> str | None:
    """'Z99 is not on the map (A1–P16)': the board's size is an option, so its corners are named."""
    size = game_view(view).size
    if parse_square(target, size) is not None:
        return None
    return f"{target.strip().upper()[:8]} is not on the map (A1–{COLUMNS[size - 1]}{size})."


OVERLAYS = (
    Overlay(
        name="range",
        description="Where the unit on a square can move (green) and attack (red)",
        paint=_range_overlay,
        target="the unit's square, e.g. C5",
        refuse=_range_refusal,
    ),
    Overlay(
        name="players",
        description="Each side's gold, crew, tokens and pieces by square",
        paint=players_section,
    ),
    Overlay(
        name="game",
        description="The opening roll, the turn limit and the last battle's dice",
        paint=game_section,
    ),
    Overlay(
        name="key", description="What every symbol, code and stat token on the map means", paint=key_section
    ),
)
