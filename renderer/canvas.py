"""Drawing primitives shared by every game's renderer: fonts, palette, text fitting, cards, PNG output.

Boards are read on phones: Discord shows an image about 400-550 px wide, so a 1080 px canvas is
scaled to roughly half. Hence the large default sizes (body 26 px, never below 20 px) and strong
contrast. Fonts are the DejaVu Sans files shipped in `renderer/fonts/`, else the system's (DejaVu,
Arial), else the font bundled in Pillow; never from the network.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import TypedDict

from PIL import Image, ImageDraw, ImageFont, features

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


_BUNDLED_FONTS = resources.files("renderer") / "fonts"
"""DejaVu Sans and Sans Bold shipped with the package (licence: fonts/LICENSE), tried first so a board is
drawn alike on every machine, slim containers without system fonts included."""
_EXTRACTED_FONTS = contextlib.ExitStack()
"""FreeType opens a font by file name: a package imported from a zip has its font copied to a temporary
file, kept until the process exits."""
atexit.register(_EXTRACTED_FONTS.close)


def _bundled_font(name: str) -> str | None:
    entry = _BUNDLED_FONTS / name
    if not entry.is_file():
        return None
    return str(_EXTRACTED_FONTS.enter_context(resources.as_file(entry)))


@cache
def _font_path(bold: bool) -> str | None:
    for name in _FONT_FILES[bold]:
        bundled = _bundled_font(name)
        if bundled is not None:
            return bundled
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


# ---- text: any Unicode made drawable, measured and fitted ---------------------------------------
# Player names are Discord display names and reach the views unchanged: they may hold newlines (raqm
# refuses a paragraph break inside a line), control and format characters, bidi overrides, stacks of
# combining marks, emoji the font lacks, or run to 200 characters. Every string a renderer draws or
# measures goes through `drawable` (draw_text, text_width, ellipsize and wrap call it), and a player's
# name through `player_name`, which also fits it to the room it has.

PLACEHOLDER = "?"
"""What a name with nothing visible in it (empty, blanks, only control characters) is drawn as."""
ELLIPSIS = "…"
MAX_MARKS = 2
"""Combining marks kept on one base character: enough for Vietnamese, Hebrew points or Arabic harakat;
a "Zalgo" stack of dozens would climb into the lines above and below."""
NAME_WIDTH = 360
"""The most a player's name takes inside a sentence (px at the sentence's size), so a 200-character name
still leaves the sentence readable."""

RAQM = features.check("raqm")
"""With libraqm, Pillow lays out right-to-left runs (Arabic, Hebrew) and shapes them; without it text is
drawn in stored order, unshaped, but still never raises."""
_FSI, _LRI, _RLI, _PDI = "\u2068", "\u2066", "\u2067", "\u2069"
_ISOLATES = frozenset({_FSI, _LRI, _RLI})
_ZWJ = "\u200d"
_INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters (Hangul fillers, the blank Braille pattern) that draw nothing: treated as spaces, so a name
made of them gets the placeholder instead of an empty space."""
_EMOJI_MODIFIERS = range(0x1F3FB, 0x1F400)
_REGIONAL_INDICATORS = range(0x1F1E6, 0x1F200)
_VARIATION_SELECTORS = frozenset(chr(c) for c in [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])


class _Layout(TypedDict, total=False):
    direction: str


def _layout(face: ImageFont.FreeTypeFont | ImageFont.ImageFont) -> _Layout:
    """Keyword arguments for laying text out: a left-to-right paragraph where raqm is used, so a name in
    a right-to-left script stays where it is written instead of turning the whole line around."""
    if isinstance(face, ImageFont.FreeTypeFont) and face.layout_engine == ImageFont.Layout.RAQM:
        return {"direction": "ltr"}
    return {}


def _glyph_key(face: ImageFont.FreeTypeFont | ImageFont.ImageFont, char: str) -> bytes | None:
    image = Image.new("L", (48, 32))
    try:
        ImageDraw.Draw(image).text((8, 4), char, font=face, fill=255, **_layout(face))
    except Exception:  # noqa: BLE001 - a font that cannot even encode the character lacks it
        return None
    return image.tobytes()


@cache
def _missing_glyph(bold: bool) -> bytes | None:
    """How the font draws a character it has no glyph for (U+10FFFD is in no font we use)."""
    return _glyph_key(font(16, bold=bold), "\U0010fffd")


@lru_cache(maxsize=8192)
def has_glyph(char: str) -> bool:
    """True when both the regular and the bold font draw `char` as itself rather than as a box."""
    for bold in (False, True):
        drawn = _glyph_key(font(16, bold=bold), char)
        if drawn is None or drawn == _missing_glyph(bold):
            return False
    return True


@cache
def _replacement() -> str:
    """What stands for a character the fonts cannot draw: U+FFFD, or '?' in a font without it."""
    return "\ufffd" if has_glyph("\ufffd") else "?"


def _balanced_isolates(chars: list[str]) -> list[str]:
    """`chars` without the isolate controls that are not closed (or PDIs that close nothing): a closed
    isolate keeps its content to itself, an open one would take in the rest of the line."""
    keep = [True] * len(chars)
    opened: list[int] = []
    for index, char in enumerate(chars):
        if char in _ISOLATES:
            opened.append(index)
            keep[index] = False
        elif char == _PDI:
            if opened:
                keep[opened.pop()] = True
            else:
                keep[index] = False
    return [char for char, kept in zip(chars, keep, strict=True) if kept]


@lru_cache(maxsize=8192)
def drawable(text: str) -> str:
    """`text` made safe to lay out and draw as one line, whatever it holds; never raises.

    - NFC first (a letter and its accent become one character where Unicode has one);
    - newlines, tabs and every other whitespace character (and letters that draw nothing) become a
      space each (`player_name` also folds runs of them into one and trims the ends);
    - control and format characters (Cc, Cf: zero-width spaces and joiners, soft hyphens, bidi marks,
      embeddings and overrides) are removed, so nothing in a name can reorder the rest of the line.
      Isolates (LRI, RLI, FSI ... PDI) are removed too unless closed (and only with raqm): a closed
      isolate keeps its content to itself, which is what `player_name` uses them for;
    - a character neither font has (emoji, scripts DejaVu lacks) and surrogate, private-use and
      unassigned code points become U+FFFD, one for an emoji sequence (ZWJ, skin tone, flag pair);
    - combining marks are kept up to MAX_MARKS per character, and dropped where they have nothing to
      sit on (the start, a space, a replaced character).

    The result may be empty; `drawable(drawable(t)) == drawable(t)`.
    """
    text = str(text)
    for _ in range(4):  # removing a character can let NFC join its neighbours: clean until nothing moves
        cleaned = _clean(text)
        if cleaned == text:
            break
        text = cleaned
    return text


def _clean(text: str) -> str:
    out: list[str] = []
    marks = 0
    joined = False  # the last character was a ZWJ: an emoji sequence goes on
    regional = False  # the last replacement stands for the first half of a flag
    replacement = _replacement()
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if char.isspace() or char in _INVISIBLE_LETTERS:
            out.append(" ")
            marks, joined, regional = 0, False, False
            continue
        if char in _ISOLATES or char == _PDI:
            if RAQM:
                out.append(char)
            continue
        if char == _ZWJ:
            joined = bool(out) and out[-1] == replacement
            continue
        if category in ("Cc", "Cf") or char in _VARIATION_SELECTORS:
            continue
        after_replacement = bool(out) and out[-1] == replacement
        if category[0] == "M":
            base = out[-1] if out else " "
            if marks < MAX_MARKS and base not in (" ", replacement) and base not in _ISOLATES | {_PDI}:
                out.append(char)
                marks += 1
            continue
        code = ord(char)
        if after_replacement and (
            joined or code in _EMOJI_MODIFIERS or (regional and code in _REGIONAL_INDICATORS)
        ):
            joined, regional = False, False  # the same emoji goes on: one replacement for all of it
            continue
        marks, joined, regional = 0, False, False
        if category in ("Cs", "Co", "Cn") or not has_glyph(char):
            out.append(replacement)
            regional = code in _REGIONAL_INDICATORS
            continue
        out.append(char)
    return "".join(_balanced_isolates(out) if RAQM else out)


def _visible(text: str) -> bool:
    return any(char not in _ISOLATES and char != _PDI and char != " " for char in text)


def player_name(name: str, max_width: int | None = None, size: int = 26, *, bold: bool = False) -> str:
    """A player's name as drawn: `drawable`, PLACEHOLDER when nothing visible is left, ellipsized to
    `max_width` px at `size` when given, and with raqm isolated when it holds right-to-left letters (so
    "مرحبا 3 VP" keeps the number after the name and a list of such names keeps its order)."""
    text = " ".join(word for word in drawable(name).split(" ") if word)
    if not _visible(text):
        text = PLACEHOLDER
    if RAQM and any(unicodedata.bidirectional(char) in ("R", "AL") for char in text):
        text = _FSI + text + _PDI
    if max_width is not None:
        text = ellipsize(text, max_width, size, bold=bold)
    return text


def with_names(text: str, names: Sequence[str], size: int = 26, *, bold: bool = False) -> str:
    """Text the rules wrote with player names in it (a headline, a trade offer): each name that drawing
    would change is drawn as `player_name` gives it, fitted to NAME_WIDTH at `size`, so that a long name
    leaves the sentence readable and a right-to-left name cannot pull the words after it into its run
    ("Round 5 - مرحبا: 1 action left"). Names with nothing visible are left alone."""
    replacements: dict[str, str] = {}
    for name in names:
        if not name or not _visible(" ".join(drawable(name).split(" "))):
            continue
        shown = player_name(name, NAME_WIDTH, size, bold=bold)
        if shown != name:  # keep the spaces around a name that starts or ends with one
            lead, trail = (" " if name[:1].isspace() else ""), (" " if name[-1:].isspace() else "")
            replacements[name] = lead + shown + trail
    if not replacements:
        return text
    pattern = "|".join(re.escape(name) for name in sorted(replacements, key=len, reverse=True))
    return re.sub(pattern, lambda match: replacements[match.group(0)], text)


def fit_name(
    name: str,
    max_width: int,
    size: int,
    *,
    suffix: str = "",
    bold: bool = False,
    minimum: int | None = None,
) -> tuple[str, int]:
    """A player's name followed by `suffix` (tags such as "  (you)") in `max_width` px: the size goes
    down from `size` to `minimum` (when given) until it fits, then the name is ellipsized so that the
    suffix still shows. Returns the text and its size."""
    if minimum is not None:
        size = fit_size(player_name(name) + suffix, max_width, size, bold=bold, minimum=minimum)
    room = max_width - text_width(suffix, size, bold=bold)
    return ellipsize(player_name(name, room, size, bold=bold) + suffix, max_width, size, bold=bold), size


def initial(name: str) -> str:
    """The first letter of a player's name (with its marks), upper-cased: for a seat's disc."""
    text = "".join(char for char in player_name(name) if char not in _ISOLATES and char != _PDI)
    end = 1
    while end < len(text) and unicodedata.category(text[end])[0] == "M":
        end += 1
    return drawable(text[:end].upper())


def _length(text: str, size: int, bold: bool) -> float:
    face = font(size, bold=bold)
    return face.getlength(text, **_layout(face))


@lru_cache(maxsize=8192)
def text_width(text: str, size: int, *, bold: bool = False) -> int:
    """Rounded up, so a text said to fit a width does fit it (`ellipsize` checks the exact width)."""
    return math.ceil(_length(drawable(text), size, bold))


def fit_size(text: str, max_width: int, size: int, *, bold: bool = False, minimum: int = MIN_TEXT) -> int:
    """The largest size not above `size` at which `text` fits `max_width` (never below `minimum`)."""
    while size > minimum and text_width(text, size, bold=bold) > max_width:
        size -= 1
    return size


def _close_isolates(text: str) -> str:
    depth = 0
    for char in text:
        if char in _ISOLATES:
            depth += 1
        elif char == _PDI and depth:
            depth -= 1
    return text + _PDI * depth


_CUT_TRAILING = " ,;:·-–—(/[&+"
"""What a text shortened at a word boundary does not end on before its "…" (a comma, an opening
bracket, a dangling "·")."""


@lru_cache(maxsize=4096)
def ellipsize(text: str, max_width: int, size: int, *, bold: bool = False) -> str:
    """`text` made `drawable`, cut with "…" so that it is at most `max_width` px wide at `size` in the
    font it is drawn with (empty when not even "…" fits).

    The cut falls at a word boundary ("Cloudholm (Flying island…", never "…Mounta…"): only a text whose
    first word alone is too wide (a long player's name) is cut inside a word."""
    text = drawable(text)
    if _length(text, size, bold) <= max_width:
        return text

    def cut(count: int) -> str:
        return _close_isolates(text[:count].rstrip() + ELLIPSIS)

    def at_word(count: int) -> str | None:
        """The longest cut at a space within the first `count` characters, or None without one."""
        space = text.rfind(" ", 0, count + 1)
        kept = text[:space].rstrip(_CUT_TRAILING) if space > 0 else ""
        return _close_isolates(kept + ELLIPSIS) if kept else None

    low, high = 0, len(text)  # the longest prefix that fits, found by halving (widths grow with length)
    while low < high:
        middle = (low + high + 1) // 2
        if _length(cut(middle), size, bold) <= max_width:
            low = middle
        else:
            high = middle - 1
    while low > 0 and _length(cut(low), size, bold) > max_width:  # shaping may break monotony
        low -= 1
    whole = at_word(low)
    if whole is not None and _length(whole, size, bold) <= max_width:
        return whole
    fitted = cut(low)
    return fitted if _length(fitted, size, bold) <= max_width else ""


def _words(paragraph: str) -> list[str]:
    """`paragraph` split at its spaces, but never inside an isolate (a name)."""
    words, current, depth = [], "", 0
    for char in paragraph:
        if char == " " and depth == 0:
            words.append(current)
            current = ""
            continue
        if char in _ISOLATES:
            depth += 1
        elif char == _PDI and depth:
            depth -= 1
        current += char
    return [*words, current]


def wrap(text: str, max_width: int, size: int, *, bold: bool = False) -> list[str]:
    """Greedy word wrap of `drawable` text; the renderer's own newlines start new paragraphs, and a word
    wider than the line is cut with an ellipsis."""
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        current = ""
        for word in _words(drawable(paragraph)):
            attempt = f"{current} {word}".strip()
            if text_width(attempt, size, bold=bold) <= max_width or not current:
                current = attempt
            else:
                lines.append(ellipsize(current, max_width, size, bold=bold))
                current = word
        lines.append(ellipsize(current, max_width, size, bold=bold))
    return lines


def line_height(size: int) -> int:
    return int(size * 1.3)


@lru_cache(maxsize=4096)
def _glyphs(text: str, size: int, bold: bool, anchor: str) -> tuple[object, tuple[int, int]]:
    """The coverage mask of `text` and its offset from the anchor point, cached: boards repeat most
    strings move after move, and drawing a cached mask is much faster than laying the text out."""
    face = font(size, bold=bold)
    if isinstance(face, ImageFont.FreeTypeFont):
        return face.getmask2(text, "L", anchor=anchor, **_layout(face))
    return face.getmask(text), (0, 0)  # Pillow's bitmap font: no anchors


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    *,
    size: int = 26,
    bold: bool = False,
    fill: Color = Palette.ink,
    anchor: str = "la",
) -> None:
    """`text` (made `drawable`) at `xy`; it is not fitted: callers pass what `ellipsize`, `wrap` or
    `player_name` fitted to the room they have."""
    text = drawable(text)
    if not text:
        return
    mask, (dx, dy) = _glyphs(text, size, bold, anchor)
    ink = draw.draw.draw_ink(fill)
    draw.draw.draw_bitmap((round(xy[0]) + dx, round(xy[1]) + dy), mask, ink)


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
    draw_text(draw, (x + pad, y + height // 2), text, size=size, bold=True, fill=ink, anchor="lm")
    return width


def seat_dot(draw: ImageDraw.ImageDraw, center: tuple[int, int], seat: int, radius: int = 11) -> None:
    x, y = center
    draw.ellipse(
        (x - radius, y - radius, x + radius, y + radius), fill=Palette.seat(seat), outline=Palette.ink
    )


def to_png(image: Image.Image) -> bytes:
    """PNG bytes; boards are flat colour, so a 128-colour palette keeps files small without visible loss.

    The palette is built from a 1/16 sample (every other column of every 8th row: the flat colours are
    everywhere, and an anti-aliasing shade the sample misses maps to its nearest neighbour), the whole
    image is mapped onto it and saved at compression level 1. On an 800 x 1000 picture this takes about
    10 ms; quantizing the whole image at the default level took ~20 times longer, for files only ~15%
    smaller. An image that is already RGB is not copied. The output is deterministic.
    """
    if image.mode != "RGB":
        image = image.convert("RGB")
    size = (max(image.width // 2, 1), max(image.height // 8, 1))
    sample = image.resize(size, Image.Resampling.NEAREST)
    palette = sample.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    indexed.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


Paint = Callable[..., object]
"""A block's painter, called as `paint(draw, y)` (lambdas may bind more through default arguments)."""


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
    _blocks: list[tuple[int, Paint]] = field(default_factory=list)
    _marks: list[tuple[int, int, int, int]] = field(default_factory=list)
    _header: int = 0
    """How many of the first blocks head every page (`keep_header`)."""
    _bound: set[int] = field(default_factory=set)
    """Blocks that stay on the page of the block after them (`keep_with_next`): headings."""

    @property
    def inner(self) -> int:
        return self.width - 2 * MARGIN

    # ---- pages: a sheet too tall for a phone screen, cut between its blocks ---------------------
    def keep_header(self) -> None:
        """The blocks added so far (a title, a short legend) head every page `pages` cuts."""
        self._header = len(self._blocks)

    def keep_with_next(self) -> None:
        """The last block added is never the last of a page (a heading stays with what it heads)."""
        if self._blocks:
            self._bound.add(len(self._blocks) - 1)

    def pages(self, max_height: int) -> list[Sheet]:
        """This sheet as pages no taller than `max_height` where it can be: the header on each, then
        "Page n of m", then as many of the other blocks as fit, cut only between blocks. A sheet that
        fits is its own one page; a block taller than a page gets a page of its own, still too tall
        (the picture tests find it), so a renderer keeps its blocks small."""
        if self.height <= max_height:
            return [self]
        header = self._blocks[: self._header]
        note = _page_note_height(self.width)
        room = max_height - 2 * MARGIN - sum(height for height, _ in header) - note
        groups: list[list[int]] = [[]]
        used = 0
        for index in range(self._header, len(self._blocks)):
            height = self._blocks[index][0]
            current = groups[-1]
            if current and used + height > room:
                carried: list[int] = []
                while len(current) > 1 and current[-1] in self._bound:
                    carried.insert(0, current.pop())
                groups.append(carried)
                used = sum(self._blocks[block][0] for block in carried)
            groups[-1].append(index)
            used += height
        pages = []
        for number, group in enumerate(groups):
            page = Sheet(width=self.width, background=self.background, changed=self.changed)
            page._blocks = [
                *header,
                _page_note(self.width, number, len(groups)),
                *(self._blocks[i] for i in group),
            ]
            pages.append(page)
        return pages

    def title(self, text: str, *, subtitle: str = "") -> None:
        size = fit_size(text, self.inner, 40, bold=True, minimum=28)
        height = line_height(size) + (line_height(24) if subtitle else 0) + 12
        text = ellipsize(text, self.inner, size, bold=True)

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
        text = ellipsize(text, self.inner, 28, bold=True)

        def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
            draw_text(draw, (MARGIN, y + 6), text, size=28, bold=True, fill=color)
            draw.line((MARGIN, y + 44, self.width - MARGIN, y + 44), fill=Palette.line, width=2)

        self._blocks.append((52, paint))
        self.keep_with_next()

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

    def block(self, height: int, paint: Paint) -> None:
        """A custom block: `paint(draw, y)` draws within [y, y + height)."""
        self._blocks.append((height, paint))

    def space(self, height: int = 16) -> None:
        self._blocks.append((height, lambda draw, y: None))

    def mark(self, key: str, box: tuple[int, int, int, int]) -> None:
        """Frame `box` once everything is drawn, if the part called `key` changed."""
        if key in self.changed:
            self._marks.append(box)

    @property
    def used(self) -> int:
        """The height the blocks added so far take, margins included: what a layout that must fit a
        phone screen has left to fill is the limit minus this."""
        return MARGIN * 2 + sum(height for height, _ in self._blocks)

    @property
    def height(self) -> int:
        """The height `image()` will have (never under 200 px), known before anything is drawn."""
        return max(self.used, 200)

    def image(self) -> Image.Image:
        image = Image.new("RGB", (self.width, self.height), self.background)
        draw = ImageDraw.Draw(image)
        y = MARGIN
        self._marks.clear()
        for height, paint in self._blocks:
            paint(draw, y)
            y += height
        for box in self._marks:  # on top of every block, so no later block hides a frame
            frame_changed(draw, box)
        return image

    def png(self) -> bytes:
        return to_png(self.image())


def _page_text(width: int) -> int:
    from renderer.phone import min_text

    return min_text(width)


def _page_note_height(width: int) -> int:
    return line_height(_page_text(width)) + 8


def _page_note(width: int, number: int, count: int) -> tuple[int, Paint]:
    """The block saying which page this is, under the header of every page."""
    size = _page_text(width)
    text = f"Page {number + 1} of {count}"

    def paint(draw: ImageDraw.ImageDraw, y: int) -> None:
        draw_text(draw, (width - MARGIN, y), text, size=size, bold=True, fill=Palette.accent, anchor="ra")

    return _page_note_height(width), paint


def frame_changed(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """A magenta frame with a white inner edge, visible on light cells and on seat colours, drawn
    around `box` and never inside it: what the box holds (a number, a word) stays whole. It takes 5 px
    around the box, so a painter leaves that much room to the next text."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0 - 5, y0 - 5, x1 + 5, y1 + 5), outline=Palette.changed, width=4)
    draw.rectangle((x0 - 1, y0 - 1, x1 + 1, y1 + 1), outline=(255, 255, 255), width=1)


def join_nonempty(parts: Iterable[str], separator: str = " · ") -> str:
    return separator.join(part for part in parts if part)
