"""`/game replay`: a whole game as one animated picture, for spectators who want it in a few seconds.

One frame per handoff (the public board each time the turn passed), each under a caption saying what
happened, at a phone's preview width. Discord shows animated WebP inline, and libwebp's inter-frame
compression keeps a hundred boards far under the upload limit; when a long game still does not fit,
frames are thinned (the first and last always kept) and the width reduced until it does.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderer.canvas import Palette, draw_text, line_height, wrap
from rules.core import View

MAX_BYTES = 8 * 1024 * 1024
"""Discord's upload limit for a server without boosts."""
WIDTHS = (480, 400, 320)
CAPTION_SIZE = 20
CAPTION_LINES = 3
PADDING = 10
MAX_FRAMES = 120
TARGET_MS = 30_000
"""A whole game in about half a minute: slow enough for short games to read each caption, and a long
one becomes a time-lapse of the board (frames thinned to `MAX_FRAMES`)."""
FRAME_MS = (250, 1500)
LAST_FRAME_MS = 5000


@dataclass(frozen=True)
class Frame:
    """One board (a PNG as the renderers make it) and what the caption says about it."""

    png: bytes
    caption: str


def _captioned(frame: Frame, width: int) -> Image.Image:
    """The board shrunk to `width`, under a caption band of up to three wrapped lines."""
    board = Image.open(io.BytesIO(frame.png)).convert("RGB")
    height = round(board.height * width / board.width)
    board = board.resize((width, height), Image.Resampling.LANCZOS)
    lines = wrap(frame.caption, width - 2 * PADDING, CAPTION_SIZE)[:CAPTION_LINES]
    band = 2 * PADDING + line_height(CAPTION_SIZE) * CAPTION_LINES
    image = Image.new("RGB", (width, band + height), Palette.panel)
    draw = ImageDraw.Draw(image)
    for index, line in enumerate(lines):
        draw_text(draw, (PADDING, PADDING + index * line_height(CAPTION_SIZE)), line, size=CAPTION_SIZE)
    draw.line([(0, band - 1), (width, band - 1)], fill=Palette.line, width=1)
    image.paste(board, (0, band))
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
    """Animated WebP; frames of different heights are padded to the tallest, at the top."""
    width = max(image.width for image in images)
    height = max(image.height for image in images)
    padded = []
    for image in images:
        if image.size != (width, height):
            canvas = Image.new("RGB", (width, height), Palette.background)
            canvas.paste(image, (0, 0))
            image = canvas
        padded.append(image)
    each = min(max(TARGET_MS // len(padded), FRAME_MS[0]), FRAME_MS[1])
    durations = [each] * (len(padded) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    padded[0].save(
        out,
        "WEBP",
        save_all=True,
        append_images=padded[1:],
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
            data = _encode([_captioned(frame, width) for frame in _thinned(frames, keep)])
            if len(data) <= max_bytes:
                return data
            keep = max(1, keep * 2 // 3) if keep > 1 else 0
        keep = min(len(frames), MAX_FRAMES)
    raise ValueError("the replay does not fit in the upload limit even as one small frame")


def replay(views: Sequence[View], captions: Sequence[str], max_bytes: int = MAX_BYTES) -> bytes:
    """Each public view drawn by its game's renderer, captioned and animated (run in the worker pool)."""
    from renderer.registry import render

    return animate(
        [Frame(render(view), caption) for view, caption in zip(views, captions, strict=True)], max_bytes
    )
