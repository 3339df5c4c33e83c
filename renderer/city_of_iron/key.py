"""City of Iron's key: `KEY` (the alt text's key), the short key under the turn picture and the
`key` section."""

from __future__ import annotations

from renderer.canvas import Palette, Sheet, draw_text, line_height, wrap
from renderer.city_of_iron.layout import (
    CARD_DECKS,
    DISTANCE,
    GOLD,
    INNER,
    LANDS,
    LEFT,
    SCIENCE,
    SKILL,
    SMALL,
    STEP,
    VP_COLOR,
    WHITE,
    Draw,
    Item,
    _draw_item,
    _land_icon,
    _section_sheet,
    _small_heading,
    _text_block,
)
from rules.city_of_iron.view import CityOfIronView
from rules.core import View

KEY = (
    "● coins, ⚗ science, ♛ goods led (the most of a good; 2nd second most; +1 the amount for 1 more VP "
    "reached), Income 3+1 = income track + coins for leading, Acts = actions left (… choosing, ✓ done), "
    "▶ to act, disc numbers = turn order, track: bid costs, turn order runs ◀ right to left, ×2 copies. "
    "Tiles: cost, land (coloured square), goods, +VP at scorings, +inc income, +⚗/rd science, +cit/+mil "
    "cards drawn a round, +sp spaces, ◉ eye (a town deeper); cards: ⚒ work, ➜ distance, ⚔ attack or "
    "defence, ⚓ ship, ☁ airship, FREE action; citizen 1·4 = 1 to draw, 4 discarded; ★ town stars."
)
"""What every symbol and abbreviation on the pictures means, short enough for the alt text (the bot
cuts it at 1000 characters); the `key` section says the same at length."""


def _footer(sheet: Sheet, lines: int) -> None:
    """A short key on the picture itself; the full one is the `key` section and the alt text."""
    texts = [
        "● coins · ⚗ science · ♛ goods led · Income 3+1 = track + coins for leading goods · Acts = actions left",
        "More: /board section: goods · nations · buildings · towns · lands · key",
    ]
    if lines == 1:
        texts = ["Key and more: /board section: key · goods · nations · towns"]
    wrapped = [part for text in texts for part in wrap(text, INNER, SMALL)]

    def paint(draw: Draw, y: int) -> None:
        for index, line in enumerate(wrapped):
            draw_text(draw, (LEFT, y + index * line_height(SMALL)), line, size=SMALL, fill=Palette.muted)

    sheet.space(4)
    sheet.block(len(wrapped) * line_height(SMALL) + 2, paint)


KEY_LINES: tuple[tuple[Item, str], ...] = (
    (("coin", "3", GOLD, Palette.ink), "coins: a cost, or an amount owned"),
    (("badge", "⚗1", SCIENCE, WHITE), "science: a cost, or an amount owned"),
    (("badge", "♛", Palette.seat(0), WHITE), "goods a nation has the most of (ties share it)"),
    (("label", "3+1", Palette.good, Palette.ink), "income: 3 from the track + 1 coin for leading goods"),
    (("label", "Acts", Palette.muted, Palette.ink), "actions left this round (… choosing cards, ✓ done)"),
    (("badge", "+3 VP", VP_COLOR, WHITE), "VP at each scoring while 1st or 2nd in its good"),
    (("badge", "+1 inc", GOLD, Palette.ink), "income: coins at every income"),
    (("badge", "+1⚗/rd", SCIENCE, WHITE), "science at every End Round"),
    (("badge", "+1 cit", CARD_DECKS["citizen"][1], WHITE), "citizen cards drawn every round (mil: military)"),
    (("badge", "+2 sp", Palette.ink, WHITE), "building spaces in its city"),
    (("badge", "◉", Palette.ink, WHITE), "eye: attack one card deeper into a town pile"),
    (("badge", "⚒1", SKILL, WHITE), "work skill"),
    (("badge", "➜2", DISTANCE, WHITE), "distance skill (on towns and lands: distance)"),
    (("badge", "⚔2", CARD_DECKS["military"][1], WHITE), "attack (on towns: defence)"),
    (("badge", "⚓ ship", LANDS["coast"][1], WHITE), "ship, or ☁ airship, needed for some lands"),
    (("badge", "FREE", Palette.good, WHITE), "a free action, played before your action"),
    (("badge", "citizen 1·4", CARD_DECKS["citizen"][1], WHITE), "1 card in the draw pile, 4 discarded"),
    (("badge", "Track", Palette.muted, WHITE), "bid costs; turn order runs right to left"),
    (("label", "★★", Palette.accent, Palette.ink), "a town's stars (its pile)"),
)
"""The key section's rows: a sample of the symbol as drawn, and what it means."""


def _key_section(view: View, target: str | None = None) -> Sheet:
    """Every symbol as drawn and what it means, a block a row, so that the key can be cut into pages."""
    assert isinstance(view, CityOfIronView)
    sheet = _section_sheet(view, "key")
    sample = 170
    for item, text in KEY_LINES:
        lines = wrap(text, INNER - sample, SMALL)

        def paint(draw: Draw, y: int, item: Item = item, lines: list[str] = lines) -> None:
            _draw_item(draw, LEFT, y, item)
            for index, line in enumerate(lines):
                draw_text(draw, (LEFT + sample, y + 4 + index * line_height(SMALL)), line, size=SMALL)

        sheet.block(max(STEP, len(lines) * line_height(SMALL) + 8), paint)
    lands = list(LANDS.items())

    def paint_lands(draw: Draw, y: int) -> None:
        for index, (land_id, (label, _)) in enumerate(lands):
            x = LEFT + (index % 3) * (INNER // 3)
            top = y + (index // 3) * 40
            _land_icon(draw, x, top, land_id, 32)
            draw_text(draw, (x + 40, top + 16), label, size=SMALL, anchor="lm")

    _small_heading(sheet, "Land types", Palette.accent)
    sheet.block(((len(lands) + 2) // 3) * 40 + 4, paint_lands)
    _text_block(
        sheet,
        "Building tiles: A, B, C decks by band colour. Magenta frames: what changed since the last turn post.",
        size=SMALL,
        color=Palette.muted,
    )
    return sheet
