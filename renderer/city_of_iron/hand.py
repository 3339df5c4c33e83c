"""City of Iron's hand picture: only what one seat alone sees (its hand, its piles, and during the
secret purchase what it can buy and has chosen) under a one-line header."""

from __future__ import annotations

from collections.abc import Sequence

from renderer.canvas import (
    Palette,
    Sheet,
    draw_text,
    ellipsize,
    line_height,
    player_name,
    rounded_box,
    text_width,
    wrap,
)
from renderer.city_of_iron.layout import (
    CARD_DECKS,
    GOLD,
    INNER,
    LEFT,
    PHASES,
    RIGHT,
    SCIENCE,
    SMALL,
    WHITE,
    WIDTH,
    Draw,
    Item,
    _band,
    _cost,
    _draw_flow,
    _flow,
    _flow_height,
    _skills,
    _small_heading,
    _text_block,
    _tiles,
    _tint,
)
from rules import words
from rules.city_of_iron.view import CardInfo, CityOfIronView


def _hand_header(sheet: Sheet, view: CityOfIronView) -> None:
    """One line: game, the seat's name, round and phase."""
    seat = view.seat or 0
    tail = f" · Round {view.round} · {PHASES.get(view.phase, view.phase)}"
    head = "City of Iron · "
    room = INNER - text_width(head + tail, 26, bold=True)
    name = player_name(view.seats[seat].name, max(room, 80), 26, bold=True)
    text = ellipsize(head + name + tail, INNER, 26, bold=True)

    def paint(draw: Draw, y: int) -> None:
        draw.rounded_rectangle((LEFT, y, RIGHT, y + 44), radius=10, fill=Palette.seat(seat))
        draw_text(
            draw,
            (LEFT + 12, y + 22),
            ellipsize(text, INNER - 24, 26, bold=True),
            size=26,
            bold=True,
            fill=WHITE,
            anchor="lm",
        )

    sheet.block(54, paint)


def _card_layout(
    card: CardInfo, width: int, *, cost: bool, action: bool
) -> tuple[list[list[Item]], list[str], int]:
    items = (_cost(card.coins, card.science) if cost else []) + _skills(card)
    lines = _flow(items, width - 16)
    text = wrap(card.action, width - 16, SMALL)[:3] if action and card.action else []
    height = 40 + _flow_height(lines) + len(text) * line_height(SMALL) + 4
    return lines, text, max(height, 76)


def _card_tile(
    draw: Draw,
    box: tuple[int, int, int, int],
    card: CardInfo,
    *,
    cost: bool,
    action: bool,
    count: int = 1,
    chosen: int = 0,
) -> None:
    x, y, x1, y1 = box
    width = x1 - x
    _, band = CARD_DECKS.get(card.deck, (card.deck, Palette.ink))
    rounded_box(
        draw,
        box,
        fill=_tint(Palette.highlight, 0.5) if chosen else Palette.panel,
        outline=Palette.ink if chosen else band,
        width=5 if chosen else 3,
        radius=10,
    )
    _band(draw, box, band)
    tag = f"×{count}" if count > 1 else ""
    if chosen:
        tag = f"✓{chosen}" if count > 1 else "✓"
    tag_width = text_width(tag, SMALL, bold=True) + 8 if tag else 0
    room = width - 16 - tag_width
    draw_text(
        draw,
        (x + 8, y + 17),
        ellipsize(card.name, room, SMALL, bold=True),
        size=SMALL,
        bold=True,
        fill=WHITE,
        anchor="lm",
    )
    if tag:
        draw_text(
            draw,
            (x1 - 8, y + 17),
            tag,
            size=SMALL,
            bold=True,
            fill=Palette.highlight if chosen else WHITE,
            anchor="rm",
        )
    lines, text, _ = _card_layout(card, width, cost=cost, action=action)
    _draw_flow(draw, x + 8, y + 40, lines)
    top = y + 40 + _flow_height(lines)
    for line in text:
        draw_text(draw, (x + 8, top), line, size=SMALL)
        top += line_height(SMALL)


def _card_grid(
    sheet: Sheet,
    cards: Sequence[CardInfo],
    columns: int,
    *,
    cost: bool,
    action: bool,
    counts: Sequence[int] = (),
    chosen: Sequence[int] = (),
) -> None:
    def layout(index: int, width: int) -> int:
        return _card_layout(cards[index], width, cost=cost, action=action)[2]

    def paint(draw: Draw, index: int, x: int, y: int, width: int, height: int) -> None:
        _card_tile(
            draw,
            (x, y, x + width, y + height),
            cards[index],
            cost=cost,
            action=action,
            count=counts[index] if counts else 1,
            chosen=chosen[index] if chosen else 0,
        )

    _tiles(sheet, len(cards), columns, layout, paint)


def _chips(sheet: Sheet, items: list[Item], max_lines: int | None) -> None:
    lines = _flow(items, INNER, max_lines=max_lines)
    if lines:
        sheet.block(_flow_height(lines) + 2, lambda draw, y: _draw_flow(draw, LEFT, y, lines))


def _hand(sheet: Sheet, view: CityOfIronView, level: int) -> None:
    """The hand: tiles with the card's action (level 0), tiles with skills only (1), or name chips."""
    private = view.private
    assert private is not None
    hand = private.hand
    _small_heading(sheet, f"Your hand ({words.count(len(hand), 'card')})", Palette.seat(view.seat or 0))
    if not hand:
        _text_block(sheet, "No cards in hand.", size=SMALL, color=Palette.muted)
    elif level == 0:
        _card_grid(sheet, hand, 2, cost=False, action=True)
    elif level == 1:
        _card_grid(sheet, hand, 3, cost=False, action=False)
    else:
        chips: list[Item] = [("chip", card.name, CARD_DECKS[card.deck][1], Palette.panel) for card in hand]
        _chips(sheet, chips, 3 if level >= 3 else None)


def _piles(sheet: Sheet, view: CityOfIronView, *, contents: bool) -> None:
    """The seat's draw and discard piles: counts, and with `contents` the draw piles top first."""
    private = view.private
    assert private is not None
    _small_heading(sheet, "Your piles", Palette.seat(view.seat or 0))
    counts: list[Item] = []
    for deck, draw_pile, discard in (
        ("citizen", private.citizen_draw, private.citizen_discard),
        ("military", private.military_draw, private.military_discard),
    ):
        label, color = CARD_DECKS[deck]
        counts.append(("badge", f"{label}: draw {len(draw_pile)} · discard {len(discard)}", color, WHITE))
    _chips(sheet, counts, None)
    if not contents:
        return
    for deck, draw_pile in (("citizen", private.citizen_draw), ("military", private.military_draw)):
        if not draw_pile:
            continue
        label, color = CARD_DECKS[deck]
        items: list[Item] = [("label", f"{label} draws next:", color, Palette.ink)]
        items.extend(("chip", card.name, color, Palette.panel) for card in draw_pile)
        _chips(sheet, items, 2)


def _skills_text(card: CardInfo) -> str:
    """A card's skills in one short string for a chip ("⚒1 ➜2"), the same symbols as its badges."""
    return " ".join(text for _, text, _, _ in _skills(card))


def _purchase(sheet: Sheet, view: CityOfIronView, *, tiles: bool, limit: bool) -> None:
    """The secret purchase: what is chosen, what is left to spend, and the cards still affordable, as
    tiles (cost and skills as badges) or as chips (the same in one line each), `limit`ed to 4 lines."""
    private = view.private
    assert private is not None and view.seat is not None
    me = view.seats[view.seat]
    chosen_coins = sum(card.coins for card in private.selected)
    chosen_science = sum(card.science for card in private.selected)
    coins_left, science_left = me.coins - chosen_coins, me.science - chosen_science
    groups: dict[str, list[CardInfo]] = {}
    for card in private.unpurchased:
        groups.setdefault(card.name + "/" + card.deck, []).append(card)
    chosen_names: dict[str, int] = {}
    for card in private.selected:
        key = card.name + "/" + card.deck
        chosen_names[key] = chosen_names.get(key, 0) + 1
    entries = sorted(
        groups.items(), key=lambda entry: (entry[1][0].deck, entry[1][0].coins, entry[1][0].name)
    )

    def buyable(key: str, card: CardInfo) -> bool:
        return bool(chosen_names.get(key)) or (card.coins <= coins_left and card.science <= science_left)

    shown = [(key, cards) for key, cards in entries if buyable(key, cards[0])]
    dear = len(entries) - len(shown)
    status = "choosing" if me.choosing else "done choosing"
    _small_heading(sheet, f"Buy cards in secret · {status}", Palette.seat(view.seat))
    summary: list[Item] = [
        ("label", "Chosen", Palette.ink, Palette.ink),
        *_cost(chosen_coins, chosen_science),
    ]
    summary += [("label", "  left", Palette.ink, Palette.ink), ("coin", str(coins_left), GOLD, Palette.ink)]
    summary.append(("badge", f"⚗{science_left}", SCIENCE, WHITE))
    _chips(sheet, summary, None)
    if not entries:
        _text_block(sheet, "No cards left to buy.", size=SMALL, color=Palette.muted)
        return
    if tiles:
        cards = [cards[0] for _, cards in shown]
        _card_grid(
            sheet,
            cards,
            3,
            cost=True,
            action=False,
            counts=[len(cards) for _, cards in shown],
            chosen=[chosen_names.get(key, 0) for key, _ in shown],
        )
    else:
        items: list[Item] = []
        for key, cards in shown:
            card = cards[0]
            mark = "✓ " if chosen_names.get(key) else ""
            count = f" ×{len(cards)}" if len(cards) > 1 else ""
            price = f" {card.coins}●" + (f" ⚗{card.science}" if card.science else "")
            skills = _skills_text(card)
            text = mark + card.name + count + price + (f" · {skills}" if skills else "")
            box = _tint(Palette.highlight, 0.5) if mark else Palette.panel
            items.append(("chip", text, CARD_DECKS[card.deck][1], box))
        _chips(sheet, items, 4 if limit else None)
    if dear:
        _text_block(
            sheet,
            f"{dear} more kind{'s' if dear != 1 else ''} of card cost more than you have left.",
            size=SMALL,
            color=Palette.muted,
        )


def _seat(view: CityOfIronView, level: int) -> Sheet:
    """The hand picture at a detail level. Outside the purchase: 0 cards with actions and the draw
    piles' contents, 1 cards with skills, 2 name chips, 3 chips cut to a few lines and pile counts
    only. In the purchase, what to buy comes first: 0 buyable cards as tiles, 1 the same with pile
    counts only, 2 buyable cards as chips, 3 chips cut to a few lines."""
    sheet = Sheet(width=WIDTH)
    _hand_header(sheet, view)
    if view.private is None:
        _text_block(sheet, "Nothing private to show: everything you see is on the turn picture.", size=SMALL)
        return sheet
    if view.phase == "purchase":
        _purchase(sheet, view, tiles=level <= 1, limit=level >= 3)
        _hand(sheet, view, 3 if level >= 3 else 2)
        _piles(sheet, view, contents=level in (0, 2))
    else:
        _hand(sheet, view, level)
        _piles(sheet, view, contents=level < 3)
    return sheet
