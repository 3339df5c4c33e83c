"""`/game replay`: a whole game as one animated picture, for spectators who want it in a few seconds.

One frame per handoff (the public board each time the turn passed), each under a caption saying what
happened, at a phone's preview width. Discord shows animated WebP inline, and libwebp's inter-frame
compression keeps a hundred boards far under the upload limit; when a long game still does not fit,
frames are thinned (the first and last always kept) and the width reduced until it does.

Each frame is at most 4:5 like every other picture: the boards are drawn for a frame with room for a
two-line caption (`phone.height_limit`), so they need no shrinking below the phone picture's scale.
A caption shows whole sentences: those that do not fit its lines are left out, never cut in half. The
last frame is the final picture with the end's caption in all the room the (shorter) final picture
leaves, rather than a board over a blank half.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderer.canvas import ELLIPSIS, Palette, draw_text, ellipsize, line_height, wrap
from renderer.phone import MAX_ASPECT, PHONE_WIDTH, height_limit, min_text
from rules.core import View

MAX_BYTES = 8 * 1024 * 1024
"""Discord's upload limit for a server without boosts."""
WIDTHS = (480, 400, 320)
CAPTION_SIZE = 18
"""At 480 px wide, 15 px as a phone shows it; never under `min_text` of the frame's width."""
CAPTION_LINES = 2
"""The lines every frame keeps for its caption (the last frame may have more): the boards are drawn
for a frame with this many."""
MAX_CAPTION_LINES = 4
"""A caption whose first sentence needs more lines than two gets them, up to this many, in every frame
of the replay (the boards then shrink a little)."""
PADDING = 10
MAX_FRAMES = 120
TARGET_MS = 30_000
"""A whole game in about half a minute: slow enough for short games to read each caption, and a long
one becomes a time-lapse of the board (frames thinned to `MAX_FRAMES`)."""
FRAME_MS = (250, 1500)
LAST_FRAME_MS = 5000
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class Frame:
    """One board (a PNG as the renderers make it) and what the caption says about it."""

    png: bytes
    caption: str


def caption_size(width: int) -> int:
    return max(CAPTION_SIZE * width // WIDTHS[0], min_text(width))


def band_height(width: int, lines: int = CAPTION_LINES) -> int:
    return 2 * PADDING + lines * line_height(caption_size(width))


def board_limit(width: int = WIDTHS[0]) -> int:
    """How tall a board drawn `PHONE_WIDTH` wide may be for its frame, caption included, to be 4:5."""
    return math.floor(PHONE_WIDTH * MAX_ASPECT) - math.ceil(band_height(width) * PHONE_WIDTH / width)


def _board(frame: Frame, width: int, room: int) -> Image.Image:
    """The board at `width` (the phone picture's own scale), or smaller when taller than `room`."""
    board = Image.open(io.BytesIO(frame.png)).convert("RGB")
    scale = min(width / board.width, room / board.height)
    size = (max(1, round(board.width * scale)), max(1, round(board.height * scale)))
    return board.resize(size, Image.Resampling.LANCZOS)


@dataclass(frozen=True)
class Layout:
    """Every frame's size and how many caption lines its band holds."""

    width: int
    height: int
    lines: int


def _first_sentence_lines(caption: str, width: int) -> int:
    first = _SENTENCE.split(caption.strip(), maxsplit=1)[0]
    return len(wrap(first, width - 2 * PADDING, caption_size(width)))


def layout_for(frames: Sequence[Frame], width: int) -> Layout:
    """`width` wide, a band tall enough for every caption's first sentence (2 to `MAX_CAPTION_LINES`
    lines), and as tall as the tallest board under it, at most 4:5 (a board too tall is shrunk)."""
    tallest = 0
    for frame in frames:
        with Image.open(io.BytesIO(frame.png)) as board:
            tallest = max(tallest, round(board.height * width / board.width))
    needed = max((_first_sentence_lines(frame.caption, width) for frame in frames), default=0)
    lines = min(max(CAPTION_LINES, needed), MAX_CAPTION_LINES)
    return Layout(width, min(math.floor(width * MAX_ASPECT), tallest + band_height(width, lines)), lines)


def sentences_in(caption: str, room: int, size: int, lines: int) -> list[str]:
    """The caption's lines: its whole sentences, as many as fit `lines` lines `room` px wide. A first
    sentence too long alone (longer than `MAX_CAPTION_LINES`) is cut after its last whole word that
    fits, with "…"."""
    shown: list[str] = []
    for sentence in _SENTENCE.split(caption.strip()):
        attempt = wrap(" ".join([*(line for line in shown), sentence]).strip(), room, size)
        if len(attempt) <= lines and not any(line.endswith(ELLIPSIS) for line in attempt):
            shown = attempt
            continue
        if not shown:
            wrapped = wrap(sentence, room, size)
            shown = wrapped[:lines]
            if len(wrapped) > lines and shown:  # it goes on: "…" after the last whole word that fits
                shown[-1] = ellipsize(f"{shown[-1]} {wrapped[lines]}", room, size)
        break
    return shown


def captioned(frame: Frame, layout: Layout, *, last: bool = False) -> Image.Image:
    """A frame of `layout`: the caption's band on top, the board under it. The band holds the layout's
    lines and the board keeps its place from frame to frame; in the `last` frame the board (the final
    picture, often shorter than a turn's) sits at the bottom and the end's caption has all the room
    above it."""
    width, height = layout.width, layout.height
    board = _board(frame, width, height - band_height(width, layout.lines))
    size = caption_size(width)
    band = height - board.height if last else band_height(width, layout.lines)
    lines = sentences_in(frame.caption, width - 2 * PADDING, size, (band - 2 * PADDING) // line_height(size))
    image = Image.new("RGB", (width, height), Palette.panel)
    draw = ImageDraw.Draw(image)
    for index, line in enumerate(lines):
        draw_text(draw, (PADDING, PADDING + index * line_height(size)), line, size=size)
    draw.rectangle((0, band, width, height), fill=Palette.background)
    draw.line([(0, band - 1), (width, band - 1)], fill=Palette.line, width=1)
    image.paste(board, ((width - board.width) // 2, band))
    return image


def _thinned(frames: Sequence[Frame], keep: int) -> list[Frame]:
    """`keep` frames spread evenly over the game, the first and the last among them."""
    if keep >= len(frames):
        return list(frames)
    if keep < 2:
        return [frames[-1]]
    step = (len(frames) - 1) / (keep - 1)
    return [frames[round(index * step)] for index in range(keep)]


def _encode(images: Sequence[Image.Image]) -> bytes:
    """Animated WebP of frames of one size."""
    each = min(max(TARGET_MS // len(images), FRAME_MS[0]), FRAME_MS[1])
    durations = [each] * (len(images) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    images[0].save(
        out,
        "WEBP",
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        quality=70,
        method=4,
    )
    return out.getvalue()


def animate(frames: Sequence[Frame], max_bytes: int = MAX_BYTES) -> bytes:
    """The game as an animated WebP of at most `max_bytes`; ValueError when there are no frames."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    keep = min(len(frames), MAX_FRAMES)
    for width in WIDTHS:
        while keep >= 1:
            chosen = _thinned(frames, keep)
            layout = layout_for(chosen, width)
            data = _encode(
                [
                    captioned(frame, layout, last=index == len(chosen) - 1)
                    for index, frame in enumerate(chosen)
                ]
            )
            if len(data) <= max_bytes:
                return data
            keep = max(1, keep * 2 // 3) if keep > 1 else 0
        keep = min(len(frames), MAX_FRAMES)
    raise ValueError("the replay does not fit in the upload limit even as one small frame")


def boards(views: Sequence[View], captions: Sequence[str]) -> list[Frame]:
    """Each public view drawn by its game's renderer for a frame with its caption."""
    from renderer.registry import render

    with height_limit(board_limit()):
        return [Frame(render(view), caption) for view, caption in zip(views, captions, strict=True)]


def replay(views: Sequence[View], captions: Sequence[str], max_bytes: int = MAX_BYTES) -> bytes:
    """The boards captioned and animated (seconds of drawing: run in the worker pool)."""
    return animate(boards(views, captions), max_bytes)
