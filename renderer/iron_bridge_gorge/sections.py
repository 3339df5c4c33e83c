"""The on-demand sections (`OVERLAYS`): the row's full cards, each player's holdings by name, the event
and innovation texts, and the key."""

from __future__ import annotations

from renderer.canvas import (
    MARGIN,
    Palette,
    Sheet,
    draw_text,
    fit_name,
    line_height,
    rounded_box,
    seat_dot,
    text_width,
    wrap,
)
from renderer.iron_bridge_gorge.key import KEY_ITEMS
from renderer.iron_bridge_gorge.layout import (
    BODY,
    GAP,
    INNER,
    MAJORITY_VP,
    TYPE_ORDER,
    TYPES,
    Draw,
    Flow,
    event_text,
    full_cards,
    full_tiles,
    game_view,
    header_block,
    heading,
    lines_block,
    new_flow,
    seat_order,
    tile_width,
)
from renderer.phone import PHONE_WIDTH
from renderer.registry import Overlay
from rules import words
from rules.core import View
from rules.iron_bridge_gorge.view import IronBridgeGorgeView, SeatView


def section(view: View, title: str) -> tuple[IronBridgeGorgeView, Flow]:
    game = game_view(view)
    flow = new_flow()
    where = "game over" if game.finished else f"round {game.round} of {game.rounds}"
    header_block(flow, title=f"Iron Bridge Gorge · {title}", subtitle=f"Public view, {where}")
    flow.sheet.keep_header()
    return game, flow


def render_cards(view: View, target: str | None = None) -> Sheet:
    """The Opportunity row as full cards: requirements and notes the turn picture's tiles leave out."""
    game, flow = section(view, "cards on offer")
    lines_block(
        flow,
        [f"Deck {words.count(game.deck_count, 'card')} · discard {words.count(game.discard_count, 'card')}"],
        color=Palette.muted,
    )
    if game.row:
        full_tiles(flow, full_cards(game.row))
    else:
        lines_block(flow, ["Nothing is on offer now."], color=Palette.muted)
    lines_block(
        flow,
        wrap(
            "5c: build cost (a Land Lease in play takes 1 off). +2: revenue a round. "
            "Each requirement you lack costs 1 coin a round.",
            INNER,
            BODY,
        ),
        color=Palette.muted,
    )
    return flow.sheet


def _holdings(seat: SeatView) -> list[tuple[str, list[str]]]:
    """A seat's resources in play by type, named, wrapped to the panel."""
    groups: dict[str, list[str]] = {}
    for card in seat.resources:
        groups.setdefault(card.type, []).append(card.name)
    lines = []
    for card_type in TYPE_ORDER:
        if card_type in groups:
            names = groups[card_type]
            text = f"{TYPES[card_type][0]} {len(names)}: " + ", ".join(names)
            lines.append((card_type, wrap(text, INNER - 64, BODY)))
    return lines


def _player_panel(flow: Flow, seat: SeatView) -> None:
    """One player: name, VP, last round's net income and a loan on one line, then the resources in
    play by type and name (the turn picture has the other numbers)."""
    facts = [f"{seat.vp} VP", f"income {seat.income:+d}", *(["loan 10"] if seat.loan else [])]
    facts_text = " · ".join(facts)
    facts_width = text_width(facts_text, BODY, bold=True)
    title, size = fit_name(seat.name, INNER - 70 - facts_width, 26, bold=True, minimum=BODY)
    holdings = _holdings(seat)
    body = sum(len(lines) for _, lines in holdings) * line_height(BODY) + 4 * len(holdings) or line_height(
        BODY
    )
    height = 8 + line_height(26) + 4 + body + 14

    def paint(draw: Draw, y: int) -> None:
        rounded_box(
            draw, (MARGIN, y, PHONE_WIDTH - MARGIN, y + height - 6), outline=Palette.seat(seat.seat), width=3
        )
        middle = y + 8 + line_height(26) // 2
        seat_dot(draw, (MARGIN + 24, middle), seat.seat, radius=11)
        draw_text(draw, (MARGIN + 44, middle), title, size=size, bold=True, anchor="lm")
        draw_text(
            draw,
            (PHONE_WIDTH - MARGIN - 14, middle),
            facts_text,
            size=BODY,
            bold=True,
            fill=Palette.bad if seat.loan else Palette.accent,
            anchor="rm",
        )
        line_y = y + 8 + line_height(26) + 4
        if not holdings:
            draw_text(draw, (MARGIN + 14, line_y), "No resources in play.", size=BODY, fill=Palette.muted)
        for card_type, lines in holdings:
            _, band, ink = TYPES[card_type]
            draw.rounded_rectangle((MARGIN + 14, line_y, MARGIN + 42, line_y + 27), radius=6, fill=band)
            draw_text(
                draw, (MARGIN + 28, line_y + 14), card_type, size=BODY, bold=True, fill=ink, anchor="mm"
            )
            for line in lines:
                draw_text(draw, (MARGIN + 52, line_y), line, size=BODY)
                line_y += line_height(BODY)
            line_y += 4

    flow.add(height, paint)


def render_players(view: View, target: str | None = None) -> Sheet:
    """Each player's holdings by name: what the turn picture's counts stand for."""
    game, flow = section(view, "players")
    for seat in seat_order(game):
        _player_panel(flow, seat)
    return flow.sheet


def _scoring_text() -> str:
    """The Scoring Step in words, from the VP each type's majority is worth."""
    parts = []
    for points in sorted(set(MAJORITY_VP.values()), reverse=True):
        names = [TYPES[letter][0] for letter, value in MAJORITY_VP.items() if value == points]
        parts.append(f"the most {' or '.join(names)} in play scores {points} VP")
    return "Each round " + "; ".join(parts) + ". A tie for the most scores nothing."


def render_events(view: View, target: str | None = None) -> Sheet:
    """The round's event and every innovation in play, with their full texts, and what scores."""
    game, flow = section(view, "events")
    title, note = event_text(game)
    heading(flow, title)
    lines_block(flow, wrap(note, INNER, BODY))
    heading(flow, f"Innovations in play ({len(game.innovations)})")
    if not game.innovations:
        lines_block(flow, ["None yet."], color=Palette.muted)
    for entry in game.innovations:
        lines_block(flow, wrap(f"{entry.name}: {entry.note}", INNER, BODY))
    heading(flow, "Scoring step, every round")
    lines_block(flow, wrap(_scoring_text(), INNER, BODY))
    return flow.sheet


def render_key(view: View, target: str | None = None) -> Sheet:
    """The key: the type colours drawn, then every symbol and abbreviation in words."""
    _, flow = section(view, "key")
    width = tile_width(3)

    def swatches(draw: Draw, y: int) -> None:
        for index, letter in enumerate(TYPE_ORDER):
            label, band, ink = TYPES[letter]
            x = MARGIN + (index % 3) * (width + GAP)
            top = y + (index // 3) * 44
            draw.rounded_rectangle((x, top, x + width, top + 38), radius=8, fill=band)
            draw_text(
                draw, (x + 12, top + 19), f"{letter}  {label}", size=BODY, bold=True, fill=ink, anchor="lm"
            )

    flow.add(2 * 44 + 8, swatches)
    for item in KEY_ITEMS:
        lines_block(flow, wrap("• " + item[0].upper() + item[1:] + ".", INNER, BODY))
    return flow.sheet


OVERLAYS = (
    Overlay("cards", "The cards on offer in full: requirements, notes, deck and discard.", render_cards),
    Overlay("players", "Every player's resources in play by name, last income and loan.", render_players),
    Overlay("events", "This round's event, the innovations in play and what scores.", render_events),
    Overlay("key", "What every colour, letter and number on the pictures means.", render_key),
)
