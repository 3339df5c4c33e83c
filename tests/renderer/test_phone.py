"""Every picture of every game is readable on a phone (issue 19, "Pictures made for a phone").

Positions come from games each game's computer player plays to the end, at the smallest and largest
table. For each position the test draws what the bot sends:
- the turn picture (the public view, with what the last move changed framed),
- every seat's hand picture,
- every page of every section shown on demand (`/board section:...`) that needs no target,
and measures them from the outside (`renderer.phone.measure` records each text Pillow draws):
- every picture is no taller than 4:5 (Discord's preview shows it whole on a phone; a long section is
  cut into pages, issue 36);
- every text of every picture is at least 11 px when the picture is shown 400 px wide;
- every text drawn reads right: no "1 cards", "a Arsenal", "(s)" or doubled punctuation (the same
  checks `tests/rules/test_words.py` applies to the games' lines).
"""

from __future__ import annotations

import pytest

from renderer import phone, registry
from tests.rules.test_words import problems as wording_problems
from tests.support.playouts import offered_games, positions, table_sizes

GAMES = offered_games()
EVERY = {"city-of-iron": 40, "city-heroes": 40, "iron-and-brass": 30, "iron-bridge-gorge": 30}


def _pictures(game, players: int, seed: int):  # noqa: ANN001, ANN202 - yields (kind, draw)
    sections = {
        name: section for name, section in registry.overlays_for(game.info.id).items() if not section.target
    }
    for position in positions(game, players, seed, every=EVERY.get(game.info.id, 30)):
        public = game.view(position.state, None)
        marks = registry.marks_between(game.view(position.before, None), public)
        kind = "final" if position.finished else "turn"
        yield f"{kind} at move {position.move}", True, lambda v=public, m=marks: registry.render(v, m)
        for seat in range(players):
            mine = game.view(position.state, seat)
            if mine.model_dump(exclude={"seat"}) == public.model_dump(exclude={"seat"}):
                continue
            yield f"hand of seat {seat} at move {position.move}", True, lambda v=mine: registry.render(v)
        for name, section in sections.items():
            for number in range(section.page(public).count):
                yield (
                    f"section {name} page {number + 1} at move {position.move}",
                    True,
                    lambda v=public, s=section, n=number: s.page(v, None, n).png,
                )


def _counts(why: str) -> bool:
    """The checks that apply to a picture's texts: counts and '(s)'. Not articles or double spaces: a
    key lists codes ("A Arsenal") and tables align columns with spaces."""
    return not why.startswith(("article", "double space"))


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.info.id)
def test_every_picture_fits_a_phone(game) -> None:  # noqa: ANN001
    problems: list[str] = []
    for players in sorted(set(table_sizes(game))):
        for label, sized, draw in _pictures(game, players, seed=7):
            drawn = phone.measure(draw)
            where = f"{players} players, {label} ({drawn.width}×{drawn.height})"
            if sized and drawn.aspect > phone.MAX_ASPECT + 1e-9:
                problems.append(f"{where}: taller than 4:5 ({drawn.aspect:.2f})")
            misworded = sorted(
                {
                    f"{text!r}: {why}"
                    for _, text in drawn.texts
                    for why in wording_problems(text)
                    if _counts(why)
                }
            )
            if misworded:
                problems.append(f"{where}: reads wrong: {'; '.join(misworded[:3])}")
            small = drawn.too_small()
            if small:
                shown = ", ".join(f"{text[:30]!r} {size} px" for size, text in small[:4])
                problems.append(f"{where}: {len(small)} texts under 11 px at 400 px wide: {shown}")
    assert not problems, "\n".join(problems[:30]) + (
        f"\n… {len(problems) - 30} more" if len(problems) > 30 else ""
    )


def test_the_measure_sees_small_text() -> None:
    """The measure is not blind: a 1080 px picture with 20 px text reads 7.4 px at 400 px wide."""
    from renderer.canvas import Sheet

    sheet = Sheet(width=1080)
    sheet.paragraph("small print", size=20)
    drawn = phone.measure(sheet.png)
    assert drawn.width == 1080
    assert drawn.too_small() == [(7.4, "small print")]
    assert phone.min_text(phone.PHONE_WIDTH) == 22
