"""The sizes a picture is drawn at, because most players read it on a phone.

Discord shows an attached picture about 400 px wide in a phone's chat column, scaled down from
whatever width it was drawn at. So a picture is readable when every text in it is still at least
11 px tall at 400 px wide, and when it fits one phone screen without scrolling: no taller than 4:5
(Discord crops taller previews and makes the reader open them). A renderer draws turn and hand
pictures `PHONE_WIDTH` wide with text no smaller than `MIN_TEXT`, and puts the detail that does not
fit into sections shown on demand (`/board section:...`).

`measure()` checks this from the outside: it draws a picture while recording every text Pillow
draws and the font size it used, so a test can hold every renderer to the same numbers without
trusting the renderer's own bookkeeping.
"""

from __future__ import annotations

import io
import math
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from unittest import mock

from PIL import Image, ImageFont

SHOWN_WIDTH = 400
"""How wide a phone shows an attached picture in the chat column, in px."""
MIN_SHOWN_TEXT = 11
"""The smallest text size (font size in px) a player can read at `SHOWN_WIDTH`."""
MAX_ASPECT = 1.25
"""Height over width of a picture that fits a phone screen in Discord's preview: 4:5."""
PHONE_WIDTH = 800
"""The canvas width of turn and hand pictures: twice the shown width, so text stays crisp."""


def min_text(width: int = PHONE_WIDTH) -> int:
    """The smallest font size in px that stays readable when a picture `width` wide is shown at 400 px."""
    return math.ceil(MIN_SHOWN_TEXT * width / SHOWN_WIDTH)


MIN_TEXT = min_text(PHONE_WIDTH)
"""22 px on a `PHONE_WIDTH` canvas."""
MAX_HEIGHT = int(PHONE_WIDTH * MAX_ASPECT)
"""1000 px: the tallest a `PHONE_WIDTH` turn or hand picture may be."""

_height = ContextVar("picture_height", default=MAX_HEIGHT)


def max_height() -> int:
    """The tallest a turn, final or hand picture may be drawn now: `MAX_HEIGHT`, or less inside
    `height_limit` (a replay's frame keeps room for its caption under the same 4:5)."""
    return _height.get()


@contextmanager
def height_limit(height: int) -> Iterator[None]:
    """Pictures drawn inside are laid out to be at most `height` px tall (less detail, a smaller map)
    where their renderer can; one that cannot is as tall as it must be."""
    token = _height.set(min(height, MAX_HEIGHT))
    try:
        yield
    finally:
        _height.reset(token)


@dataclass
class Measured:
    """A drawn picture's size and the texts drawn into it."""

    width: int
    height: int
    texts: list[tuple[float, str]] = field(default_factory=list)
    """(font size in px, text) of every text drawn."""

    @property
    def aspect(self) -> float:
        return self.height / self.width

    @property
    def smallest(self) -> float:
        return min((size for size, _ in self.texts), default=math.inf)

    @property
    def smallest_shown(self) -> float:
        """The smallest text's size when the picture is shown `SHOWN_WIDTH` wide."""
        return self.smallest * SHOWN_WIDTH / self.width

    def too_small(self) -> list[tuple[float, str]]:
        """Texts under `MIN_SHOWN_TEXT` px at the shown width, with their shown size."""
        scale = SHOWN_WIDTH / self.width
        return sorted(
            {(round(size * scale, 1), text) for size, text in self.texts if size * scale < MIN_SHOWN_TEXT}
        )


_lock = threading.Lock()


def _clear_caches() -> None:
    """Forget cached sprites (badges, chips drawn once and pasted): their text must be drawn again to be seen."""
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "renderer" or name.startswith("renderer.")):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()


@contextmanager
def _recording(texts: list[tuple[float, str]]) -> Iterator[None]:
    """Record every text laid out into glyphs: `canvas.draw_text` draws cached glyph masks and Pillow's
    own `ImageDraw.text` makes them the same way, so `getmask2` sees both. The canvas's probes for
    missing glyphs (a character drawn at 16 px on a scratch image) are not texts on the picture."""
    from renderer import canvas

    original_mask = ImageFont.FreeTypeFont.getmask2
    original_probe = canvas._glyph_key
    probing = threading.local()

    def getmask2(self, text, *args, **kwargs):  # noqa: ANN001, ANN202 - Pillow's own signature
        if not getattr(probing, "on", False) and str(text).strip():
            texts.append((float(self.size), str(text)))
        return original_mask(self, text, *args, **kwargs)

    def probe(face, char):  # noqa: ANN001, ANN202
        probing.on = True
        try:
            return original_probe(face, char)
        finally:
            probing.on = False

    with (
        mock.patch.object(ImageFont.FreeTypeFont, "getmask2", getmask2),
        mock.patch.object(canvas, "_glyph_key", probe),
    ):
        yield


def measure(draw: Callable[[], bytes]) -> Measured:
    """Call `draw` (which returns PNG bytes) and measure what it drew.

    It assumes a renderer pastes text 1:1 into the picture it returns; one that draws text and then
    scales the image would be measured at the size before scaling. A text drawn without a font size
    (Pillow's 10 px default bitmap font) counts as 10 px.
    """
    texts: list[tuple[float, str]] = []
    with _lock:
        _clear_caches()
        with _recording(texts):
            png = draw()
    with Image.open(io.BytesIO(png)) as image:
        width, height = image.size
    return Measured(width=width, height=height, texts=texts)
