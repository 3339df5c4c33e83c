"""Every picture a player can open is clean at a phone's 400 px (issue 36, "Pictures").

Found playing the four games through `--local`: change frames drawn over text ("rival 1(" in City
Heroes) and over a tile's ownership band, a land name cut mid-word ("Cloudholm (Flying island,
Mounta…"), bid discs over the bid digits on City of Iron's track, key sections 800×1394 and 800×1136,
"L" meaning both Limestone and a loan in Iron Bridge Gorge's legend, replay captions cut mid-sentence
and a last frame half blank. The issue asks: "no frame or disc over text; names fitted; every picture a
player can open ≤ 4:5 (split long keys into pages with buttons); the replay's caption wraps or shortens
whole sentences; the last frame is the final picture".

Each game is played by its computer player to its end at its smallest and largest table
(`tests.support.playouts`), and in the last position before the end and in the final one every
picture kind is drawn: the turn picture with what the last move changed framed, the same with
everything framed that changed since the start (every frame a renderer can draw, at once), every
seat's hand, every page of every section, and the overlays that need a target. Each drawing is
recorded from outside the renderer (`tests.support.drawing`: Pillow's drawing core is wrapped, so
every text's ink box and every later shape are seen, whoever drew them), and it fails on:
- a text drawn over another text, or a frame, disc, badge or line drawn over a text after it;
- a text across the edge of a disc (a digit half on a coin);
- a text cut mid-word ("…" inside a word that is not a player's name);
- a picture taller than 4:5, or a text under 11 px when the picture is shown 400 px wide.
"""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.app.replay import CAPTION_CHARS, frames
from renderer import animation, phone, registry
from renderer.canvas import Palette, wrap
from rules.core import Game
from tests.support.drawing import Drawing, record
from tests.support.playouts import offered_games, positions, table_sizes

GAMES = offered_games()
EVERY = {"city-of-iron": 40, "city-heroes": 100, "iron-and-brass": 60, "iron-bridge-gorge": 60}
TABLES = [(game, players) for game in GAMES for players in sorted(set(table_sizes(game)))]


def _late(game: Game, players: int):  # noqa: ANN202 - (start, positions)
    """The start, the last position before the end and the end of one game its computer player plays."""
    played = list(positions(game, players, seed=7, every=EVERY.get(game.info.id, 50)))
    going = [position for position in played if not position.finished]
    return played[0].state, [*going[-1:], *(position for position in played if position.finished)]


def _target(view) -> str:  # noqa: ANN001 - any game's view
    """A square with a unit on it, for the overlays that draw one piece's reach."""
    pieces = getattr(view, "pieces", [])
    units = [piece.square for piece in pieces if getattr(piece, "category", "") != "structure"]
    return (units or [piece.square for piece in pieces] or ["A1"])[0]


def _pictures(game: Game, players: int):  # noqa: ANN202 - yields (label, draw, names)
    start, late = _late(game, players)
    first = game.view(start, None)
    for position in late:
        public = game.view(position.state, None)
        at = f"move {position.move}{' (the end)' if position.finished else ''}"
        last = registry.marks_between(game.view(position.before, None), public)
        every = registry.marks_between(first, public)
        yield f"turn at {at}", lambda v=public, m=last: registry.render(v, m)
        yield f"turn at {at}, all framed", lambda v=public, m=every: registry.render(v, m)
        for seat in range(players):
            yield f"hand {seat} at {at}", lambda s=seat, p=position: registry.render(game.view(p.state, s))
        for overlay in registry.overlays_for(game.info.id).values():
            target = _target(public) if overlay.target else None
            count = overlay.page(public, target).count
            for number in range(count):
                yield (
                    f"section {overlay.name} page {number + 1}/{count} at {at}",
                    lambda o=overlay, v=public, t=target, n=number: o.page(v, t, n).png,
                )


def _faults(drawn: Drawing) -> list[str]:
    faults = drawn.problems()
    if drawn.aspect > phone.MAX_ASPECT + 1e-9:
        faults.append(f"taller than 4:5 ({drawn.width}×{drawn.height})")
    small = drawn.too_small()
    if small:
        faults.append(f"{len(small)} texts under 11 px at 400 px wide, e.g. {small[:3]}")
    return faults


@pytest.mark.parametrize(
    ("game", "players"), TABLES, ids=[f"{game.info.id}-{players}" for game, players in TABLES]
)
def test_every_picture_is_clean_at_a_phones_width(game: Game, players: int) -> None:
    problems: list[str] = []
    names = [*(f"{name}" for name in ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank")[:players])]
    for label, draw in _pictures(game, players):
        drawn = record(draw, names)
        problems.extend(f"{label}: {fault}" for fault in _faults(drawn))
    assert not problems, "\n".join(problems[:40]) + (
        f"\n… {len(problems) - 40} more" if len(problems) > 40 else ""
    )


# ---- the checks can fail -------------------------------------------------------------------------
def test_the_record_finds_each_fault_and_passes_a_clean_layout() -> None:
    """Two strings on one spot, a frame drawn after a text across it, a digit on a disc's rim and a
    word cut in half are each found; the same things laid out apart are clean."""
    from renderer import canvas
    from renderer.canvas import Sheet, draw_text, frame_changed

    def faulty(draw, y: int) -> None:  # noqa: ANN001 - Pillow's ImageDraw
        draw_text(draw, (30, y), "rival 101", size=26)
        draw_text(draw, (130, y), "(+5 at Cleanup)", size=26)
        draw.ellipse((400, y, 440, y + 40), fill=Palette.seat(0))
        draw_text(draw, (430, y + 8), "12", size=26)
        draw_text(draw, (30, y + 60), canvas.ellipsize("Reverberatory Furnace", 120, 26), size=26)
        frame_changed(draw, (20, y + 50, 300, y + 70))

    def clean(draw, y: int) -> None:  # noqa: ANN001
        draw_text(draw, (30, y), "rival 101", size=26)
        draw_text(draw, (200, y), "(+5 at Cleanup)", size=26)
        draw.ellipse((500, y, 540, y + 40), fill=Palette.seat(0))
        draw_text(draw, (550, y + 8), "12", size=26)
        draw_text(draw, (30, y + 60), canvas.ellipsize("Reverberatory Furnace", 250, 26), size=26)
        frame_changed(draw, (20, y + 110, 300, y + 130))

    sheets: dict[str, Sheet] = {}
    for name, paint in (("faulty", faulty), ("clean", clean)):
        sheets[name] = Sheet(width=800)
        sheets[name].block(200, paint)
    bad, good = record(sheets["faulty"].png), record(sheets["clean"].png)
    assert bad.overlaps and bad.covered and bad.crossing and bad.cut, bad.problems()
    assert not good.problems(), good.problems()


# ---- the replay ------------------------------------------------------------------------------
SENTENCE_END = re.compile(r"[.!?]$")


def _played(game: Game, players: int):  # noqa: ANN202 - (states, public event texts)
    import random

    from rules.policy import policy_for

    rng = random.Random(7)
    policy = policy_for(game.info.id)
    state = game.setup(["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"][:players], {}, 7)
    states, texts = [state], []
    while game.result(state) is None:
        seat = min(game.to_act(state))
        applied = game.apply(state, seat, policy.choose(game, state, seat, rng, 1).action)
        state = applied.state
        states.append(state)
        texts.append([event.text for event in applied.events])
    return states, texts


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.info.id)
def test_the_replay_fits_a_phone_and_ends_on_the_final_picture(game: Game) -> None:
    """Every frame is at most 4:5 with its caption readable at 400 px; a caption shows whole sentences
    (one too long for its band keeps its latest sentences after "…", never half of one; only a first sentence
    longer than the band's most lines is shortened, after a whole word); the last frame is the final
    picture with the end's caption, not a board over a blank half."""
    states, texts = _played(game, game.info.min_players if game.info.min_players > 1 else 1)
    views, captions = frames(game, states, texts)
    cut = [caption for caption in captions if caption.endswith("…") or len(caption) > CAPTION_CHARS]
    assert not cut, f"captions cut mid-sentence: {cut[:2]}"
    chosen = [0, 1, len(views) - 2, len(views) - 1]
    pictures = animation.boards([views[index] for index in chosen], [captions[index] for index in chosen])
    layout = animation.layout_for(pictures, animation.WIDTHS[0])
    room, size = layout.width - 2 * animation.PADDING, animation.caption_size(layout.width)
    for index, picture in enumerate(pictures):
        final = index == len(pictures) - 1
        drawn = record(lambda p=picture, e=final: animation.captioned(p, layout, last=e), views[-1].players)
        assert drawn.aspect <= phone.MAX_ASPECT + 1e-9, (drawn.width, drawn.height)
        assert not drawn.problems(), drawn.problems()
        assert not drawn.too_small(), drawn.too_small()
        shown = " ".join(text.text for text in sorted(drawn.texts, key=lambda text: text.box[1]))
        assert shown, "a frame without a caption"
        whole = picture.caption.startswith(shown) and (shown == picture.caption or SENTENCE_END.search(shown))
        first = re.split(r"(?<=[.!?])\s+", picture.caption, maxsplit=1)[0]
        too_long = len(wrap(first, room, size)) > animation.MAX_CAPTION_LINES
        shortened = too_long and shown.endswith("…") and first.startswith(shown[:-1].rstrip(" ,;:·"))
        assert whole or shortened, f"caption {picture.caption!r} drawn as {shown!r}"
    data = animation.animate(pictures)
    with Image.open(io.BytesIO(data)) as webp:
        assert webp.n_frames == len(pictures)
        webp.seek(webp.n_frames - 1)
        last = webp.convert("RGB")
    assert last.size == (layout.width, layout.height)
    assert _blank_rows(last) <= 0.1 * last.height, "the last frame is half blank"


def _blank_rows(image: Image.Image) -> int:
    """Rows of one flat colour at the bottom of a frame (the padding under a picture too short for it)."""
    rows = 0
    for y in range(image.height - 1, -1, -1):
        extrema = image.crop((0, y, image.width, y + 1)).getextrema()
        if any(high - low > 12 for low, high in extrema):
            break
        rows += 1
    return rows
