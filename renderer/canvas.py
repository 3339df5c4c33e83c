"""Drawing primitives shared by every game's renderer: fonts, palette, text fitting, cards, PNG output.

Boards are read on phones: Discord shows an image about 400-550 px wide, so a 1080 px canvas is
scaled to roughly half. Hence the large default sizes (body 26 px, never below 20 px) and strong
contrast. Fonts come from the system (DejaVu, which Debian ships in fonts-dejavu-core) and fall
back to the font bundled in Pillow, never from the network.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDTH = 1080
"""Default canvas width: about twice a phone's preview width, so text stays crisp when scaled down."""
MARGIN = 28
MIN_TEXT = 20

Color = tuple[int, int, int]


class Palette:
    """High-contrast colours; seat colours are distinguishable for the common colour-blindnesses."""

    background: Color = (246, 241, 230)
    panel: Color = (255, 252, 245)
    ink: Color = (28, 28, 30)
    muted: Color = (96, 96, 104)
    line: Color = (200, 192, 176)
    accent: Color = (150, 60, 20)
    good: Color = (30, 120, 60)
    bad: Color = (180, 30, 30)
    highlight: Color = (255, 214, 102)
    changed: Color = (222, 0, 132)
    """Frames around what changed since a player's last move: a magenta no seat colour is close to."""
    seats: tuple[Color, ...] = (
        (0, 114, 178),  # blue
        (213, 94, 0),  # vermillion
        (0, 158, 115),  # green
        (204, 121, 167),  # purple-pink
        (230, 159, 0),  # orange
        (86, 180, 233),  # sky
    )

    @classmethod
    def seat(cls, seat: int) -> Color:
        return cls.seats[seat % len(cls.seats)]


_FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts"),
    Path("/Library/Fonts"),
    Path("C:/Windows/Fonts"),
)
_FONT_FILES = {
    False: ("DejaVuSans.ttf", "Arial.ttf", "arial.ttf"),
    True: ("DejaVuSans-Bold.ttf", "Arial Bold.ttf"),
}


@cache
def _font_path(bold: bool) -> str | None:
    for folder in _FONT_DIRS:
        for name in _FONT_FILES[bold]:
            candidate = folder / name
            if candidate.is_file():
                return str(candidate)
    return None


@lru_cache(maxsize=256)
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    size = max(size, 8)
    path = _font_path(bold) or (_font_path(False) if bold else None)
    if path is not None:
        return ImageFont.truetype(path, size)
    return ImageFont.load_default(size=size)


def text_width(text: str, size: int, *, bold: bool = False) -> int:
    return int(font(size, bold=bold).getlength(text))


def fit_size(text: str, max_width: int, size: int, *, bold: bool = False, minimum: int = MIN_TEXT) -> int:
    """The largest size not above `size` at which `text` fits `max_width` (never below `minimum`)."""
    while size > minimum and text_width(text, size, bold=bold) > max_width:
        size -= 1
    return size


def ellipsize(text: str, max_width: int, size: int, *, bold: bool = False) -> str:
    if text_width(text, size, bold=bold) <= max_width:
        return text
    while text and text_width(text + "…", size, bold=bold) > max_width:
        text = text[:-1]
    return text + "…"


def wrap(text: str, max_width: int, size: int, *, bold: bool = False) -> list[str]:
    """Greedy word wrap; a single word wider than the line is cut with an ellipsis."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split(" "):
            attempt = f"{current} {word}".strip()
            if text_width(attempt, size, bold=bold) <= max_width or not current:
                current = attempt
            else:
                lines.append(current)
                current = word
        lines.append(ellipsize(current, max_width, size, bold=bold))
    return lines


def line_height(size: int) -> int:
    return int(size * 1.3)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    *,
    size: int = 26,
    bold: bool = False,
    fill: Color = Palette.ink,
    anchor: str = "la",
) -> None:
    draw.text(xy, text, font=font(size, bold=bold), fill=fill, anchor=anchor)


def rounded_box(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    *,
    fill: Color = Palette.panel,
    outline: Color | None = Palette.line,
    width: int = 2,
    radius: int = 12,
) -> None:
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def pill(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    *,
    fill: Color = Palette.accent,
    ink: Color = (255, 255, 255),
    size: int = 22,
) -> int:
    """A small rounded label (a cost, a count); returns its width so pills can be laid in a row."""
    pad = size // 2
    width = text_width(text, size, bold=True) + 2 * pad
    height = line_height(size) + 4
    x, y = xy
    draw.rounded_rectangle((x, y, x + width, y + height), radius=height // 2, fill=fill)
    draw.text((x + pad, y + height // 2), text, font=font(size, bold=True), fill=ink, anchor="lm")
    return width


def seat_dot(draw: ImageDraw.ImageDraw, center: tuple[int, int], seat: int, radius: int = 11) -> None:
    x, y = center
    draw.ellipse(
        (x - radius, y - radius, x + radius, y + radius), fill=Palette.seat(seat), outline=Palette.ink
    )


def to_png(image: Image.Image) -> bytes:
    """PNG bytes; boards are flat colour, so a 128-colour palette keeps files small without visible loss.

    The palette is built from every 4th row (fast octree) and the whole image mapped onto it, then
    saved at compression level 3: on a 1080x3700 board this takes ~35 ms where quantizing the whole
    image at the default level took ~600 ms. Flat colours and text survive; the output is deterministic.
    """
    image = image.convert("RGB")
    sample = image.resize((image.width, max(image.height // 4, 1)), Image.Resampling.NEAREST)
    palette = sample.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    indexed.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


@dataclass
class Sheet:
    """A vertical flow of blocks for boards whose height depends on content.

    Each block is measured first and drawn afterwards, so the image is exactly as tall as it needs.
    Renderers add titles, text, key/value rows and custom blocks, then call `png()`.
    """

    width: int = WIDTH
    background: Color = Palette.background
    changed: frozenset[str] = frozenset()
    """Keys of the parts that changed since the viewer's last move (the renderer's own names, such as
    "C5" or "coins:1"); painters check them and call `mark` with where they drew that part."""
    _blocks: list[tuple[int, object]] = field(default_factory=list)
    _marks: list[tuple[int, int, int, int]] = field(default_factory=list)

    @property
    def inner(self) -> int:
        return self.width - 2 * MARGIN

    def title(self, text: str, *, subtitle: str = "") -> None:
        size = fit_size(text, self.inner, 40, bold=True, minimum=28)
        height = line_height(size) + (line_height(24) if subtitle else 0) + 12

        def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
            draw_text(draw, (MARGIN, y), text, size=size, bold=True)
            if subtitle:
                draw_text(
                    draw,
                    (MARGIN, y + line_height(size)),
                    ellipsize(subtitle, self.inner, 24),
                    size=24,
                    fill=Palette.muted,
                )

        self._blocks.append((height, paint))

    def heading(self, text: str, *, color: Color = Palette.accent) -> None:
        def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
            draw_text(draw, (MARGIN, y + 6), text, size=28, bold=True, fill=color)
            draw.line((MARGIN, y + 44, self.width - MARGIN, y + 44), fill=Palette.line, width=2)

        self._blocks.append((52, paint))

    def paragraph(self, text: str, *, size: int = 26, color: Color = Palette.ink, bold: bool = False) -> None:
        lines = wrap(text, self.inner, size, bold=bold)

        def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
            for index, line in enumerate(lines):
                draw_text(
                    draw, (MARGIN, y + index * line_height(size)), line, size=size, fill=color, bold=bold
                )

        self._blocks.append((len(lines) * line_height(size) + 6, paint))

    def rows(
        self, rows: Sequence[tuple[str, str]], *, size: int = 26, seat_colors: Sequence[int | None] = ()
    ) -> None:
        """Label on the left, value right-aligned: scoreboards, resources, counters."""
        height = line_height(size) + 8

        def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
            for index, (label, value) in enumerate(rows):
                top = y + index * height
                if index % 2 == 0:
                    draw.rectangle(
                        (MARGIN - 8, top, self.width - MARGIN + 8, top + height), fill=Palette.panel
                    )
                x = MARGIN
                seat = seat_colors[index] if index < len(seat_colors) else None
                if seat is not None:
                    seat_dot(draw, (x + 12, top + height // 2), seat)
                    x += 34
                value_width = text_width(value, size, bold=True)
                label_room = self.width - MARGIN - x - value_width - 16
                draw_text(draw, (x, top + 4), ellipsize(label, label_room, size), size=size)
                draw_text(draw, (self.width - MARGIN, top + 4), value, size=size, bold=True, anchor="ra")

        self._blocks.append((len(rows) * height + 8, paint))

    def block(self, height: int, paint: object) -> None:
        """A custom block: `paint(draw, y)` draws within [y, y + height)."""
        self._blocks.append((height, paint))

    def space(self, height: int = 16) -> None:
        self._blocks.append((height, lambda draw, y: None))

    def mark(self, key: str, box: tuple[int, int, int, int]) -> None:
        """Frame `box` once everything is drawn, if the part called `key` changed."""
        if key in self.changed:
            self._marks.append(box)

    def image(self) -> Image.Image:
        total = MARGIN * 2 + sum(height for height, _ in self._blocks)
        image = Image.new("RGB", (self.width, max(total, 200)), self.background)
        draw = ImageDraw.Draw(image)
        y = MARGIN
        self._marks.clear()
        for height, paint in self._blocks:
            paint(draw, y)  # type: ignore[operator]
            y += height
        for box in self._marks:  # on top of every block, so no later block hides a frame
            frame_changed(draw, box)
        return image

    def png(self) -> bytes:
        return to_png(self.image())


def frame_changed(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """A thick magenta frame with a white inner edge: visible on light cells and on seat colours."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), outline=Palette.changed, width=6)
    draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=(255, 255, 255), width=2)


def join_nonempty(parts: Iterable[str], separator: str = " · ") -> str:
    return separator.join(part for part in parts if part)
