"""Where every text of a picture landed and what was drawn over it, recorded from outside the renderer.

`renderer.phone.measure` records which texts a picture draws and at what size; this records where: it
wraps Pillow's drawing core for the time of one drawing, so every glyph mask stamped (by
`canvas.draw_text`, by Pillow's own `ImageDraw.text` or by a renderer stamping masks itself), every
shape (rectangles, polygons, ellipses, lines, arcs, stamped masks) and every paste (cached sprites,
textures) is seen with its place, whichever module drew it. From that it finds:

- texts drawn over texts: the ink boxes of two strings intersect (one written over the other);
- shapes drawn over texts: a frame, disc, badge, line or paste drawn *after* a text changes pixels
  inside that text's ink box (a shape drawn first is the text's background, which is fine);
- names cut mid-word: a string `canvas.ellipsize` shortened at a place that is not a word boundary,
  unless the cut falls inside a player's name (a 200-character name has to be cut somewhere).

Sprites (badges and discs drawn once and pasted) carry their texts to the picture they are pasted on;
the renderers' caches are emptied first so that every sprite and glyph is drawn while recording.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageChops, ImageDraw, ImageFont

from renderer import canvas, phone

Box = tuple[int, int, int, int]
"""left, top, right, bottom; right and bottom excluded."""
GRID = 64
INSET = 1
"""Ink boxes lose a pixel on each side before they are compared: the anti-aliased rim of a glyph may
touch its neighbour's without either being hard to read."""


def _intersection(a: Box, b: Box) -> Box | None:
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[0] < box[2] and box[1] < box[3] else None


def _inset(box: Box, by: int = INSET) -> Box:
    x0, y0, x1, y1 = box
    if x1 - x0 > 2 * by:
        x0, x1 = x0 + by, x1 - by
    if y1 - y0 > 2 * by:
        y0, y1 = y0 + by, y1 - by
    return x0, y0, x1, y1


def _inside(inner: Box, outer: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _meets_ellipse(box: Box, ellipse: Box) -> bool:
    """Whether the rectangle `box` and the ellipse inscribed in `ellipse` share a point."""
    cx, cy = (ellipse[0] + ellipse[2]) / 2, (ellipse[1] + ellipse[3]) / 2
    rx, ry = max((ellipse[2] - ellipse[0]) / 2, 0.5), max((ellipse[3] - ellipse[1]) / 2, 0.5)
    nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    return ((nx - cx) / rx) ** 2 + ((ny - cy) / ry) ** 2 < 1


def _coords(xy: object) -> list[float]:
    """The flat coordinates of a Pillow `xy` argument (pairs, flat numbers or a box), in order."""
    if isinstance(xy, int | float):
        return [float(xy)]
    if isinstance(xy, list | tuple):
        return [value for item in xy for value in _coords(item)]
    return []


def _box_of(xy: object, margin: int) -> Box | None:
    flat = _coords(xy)
    if len(flat) < 2:
        return None
    xs, ys = flat[0::2], flat[1::2]
    return (
        int(min(xs)) - margin,
        int(min(ys)) - margin,
        int(max(xs)) + 1 + margin,
        int(max(ys)) + 1 + margin,
    )


@dataclass(frozen=True)
class Text:
    text: str
    size: float
    box: Box
    """The ink box in the picture."""
    origin: tuple[int, int]


@dataclass
class _Canvas:
    """What was drawn on one image so far (a picture, a sprite or a scratch image)."""

    image: Image.Image
    texts: list[Text] = field(default_factory=list)
    cells: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    overlaps: list[str] = field(default_factory=list)
    covered: list[str] = field(default_factory=list)
    discs: list[Box] = field(default_factory=list)
    """Ellipses drawn (discs, coins): a text is inside one or clear of it, never across its edge."""

    def near(self, box: Box) -> list[int]:
        found: set[int] = set()
        for gx in range(box[0] // GRID, (box[2] - 1) // GRID + 1):
            for gy in range(box[1] // GRID, (box[3] - 1) // GRID + 1):
                found.update(self.cells.get((gx, gy), ()))
        return sorted(found)

    def add(self, text: Text) -> None:
        inner = _inset(text.box)
        for index in self.near(text.box):
            other = self.texts[index]
            if other.text == text.text and (_inside(text.box, other.box) or _inside(other.box, text.box)):
                continue  # the same string again on the same spot: an outline and its fill
            if _intersection(inner, _inset(other.box)) is not None:
                self.overlaps.append(f"{text.text!r} drawn over {other.text!r} at {other.box}")
        self.texts.append(text)
        index = len(self.texts) - 1
        box = text.box
        for gx in range(box[0] // GRID, (box[2] - 1) // GRID + 1):
            for gy in range(box[1] // GRID, (box[3] - 1) // GRID + 1):
                self.cells.setdefault((gx, gy), []).append(index)


@dataclass
class Drawing:
    """One picture as drawn: its size and texts, and what the checks found."""

    width: int
    height: int
    texts: list[Text]
    overlaps: list[str]
    """Texts drawn over texts."""
    covered: list[str]
    """Shapes drawn over texts (after them)."""
    cut: list[str]
    """Texts shortened mid-word."""
    crossing: list[str] = field(default_factory=list)
    """Texts across the edge of a disc."""

    @property
    def aspect(self) -> float:
        return self.height / self.width

    def too_small(self) -> list[tuple[float, str]]:
        """Texts under `phone.MIN_SHOWN_TEXT` px when the picture is shown `phone.SHOWN_WIDTH` wide."""
        scale = phone.SHOWN_WIDTH / self.width
        return sorted(
            {
                (round(text.size * scale, 1), text.text)
                for text in self.texts
                if text.size * scale < phone.MIN_SHOWN_TEXT
            }
        )

    def problems(self) -> list[str]:
        return [
            *(f"text over text: {line}" for line in self.overlaps),
            *(f"drawn over text: {line}" for line in self.covered),
            *(f"cut mid-word: {line}" for line in self.cut),
            *(f"across a disc: {line}" for line in self.crossing),
        ]


class _Recorder:
    def __init__(self) -> None:
        self.canvases: dict[int, _Canvas] = {}
        self.masks: dict[int, tuple[str, float, object]] = {}
        self.shortened: list[tuple[str, str]] = []
        self.last: Image.Image | None = None

    def canvas(self, image: Image.Image) -> _Canvas:
        key = id(image.im)
        found = self.canvases.get(key)
        if found is None or found.image.im is not image.im:
            found = self.canvases[key] = _Canvas(image)
        return found

    def text(self, image: Image.Image, xy: tuple[int, int], mask: object, text: str, size: float) -> None:
        ink = mask.getbbox(False)  # type: ignore[attr-defined]
        if ink is None:
            return
        x, y = int(xy[0]), int(xy[1])
        box = (x + ink[0], y + ink[1], x + ink[2], y + ink[3])
        self.canvas(image).add(Text(text, size, box, (x, y)))

    def shape(self, image: Image.Image, box: Box | None, run: Callable[[], object], what: str) -> object:
        """Run a drawing operation within `box`; report each earlier text whose ink it changed."""
        target = self.canvas(image)
        if box is not None:
            box = _intersection(box, (0, 0, image.width, image.height))
        candidates = [
            index
            for index in (target.near(box) if box is not None else [])
            if _intersection(box, _inset(target.texts[index].box)) is not None  # type: ignore[arg-type]
        ]
        if not candidates:
            return run()
        before = image.crop(box)
        result = run()
        after = image.crop(box)
        changed = ImageChops.difference(before, after)
        for index in candidates:
            text = target.texts[index]
            part = _intersection(_inset(text.box), box)  # type: ignore[arg-type]
            if part is None:
                continue
            local = (part[0] - box[0], part[1] - box[1], part[2] - box[0], part[3] - box[1])  # type: ignore[index]
            if changed.crop(local).getbbox() is not None:
                target.covered.append(f"{what} over {text.text!r} at {text.box}")
        return result

    def disc(self, image: Image.Image, box: Box | None) -> None:
        discs = self.canvas(image).discs
        if box is not None and box not in discs:
            discs.append(box)

    def pasted(self, target: Image.Image, source: Image.Image, at: tuple[int, int]) -> None:
        """A sprite's texts, now part of the picture it was pasted on."""
        drawn = self.canvases.get(id(source.im))
        if drawn is None:
            return
        here = self.canvas(target)
        dx, dy = at
        for text in drawn.texts:
            x0, y0, x1, y1 = text.box
            moved = Text(
                text.text,
                text.size,
                (x0 + dx, y0 + dy, x1 + dx, y1 + dy),
                (text.origin[0] + dx, text.origin[1] + dy),
            )
            here.add(moved)
        for x0, y0, x1, y1 in drawn.discs:
            self.disc(target, (x0 + dx, y0 + dy, x1 + dx, y1 + dy))


class _Core:
    """Pillow's drawing core for one image, with every drawing call recorded."""

    def __init__(self, core: object, image: Image.Image, recorder: _Recorder) -> None:
        self._core = core
        self._image = image
        self._recorder = recorder

    def __getattr__(self, name: str) -> object:
        attribute = getattr(self._core, name)
        if not name.startswith("draw_") or name in ("draw_ink", "draw_outline"):
            return attribute
        recorder, image = self._recorder, self._image

        def operation(*args: object) -> object:
            if name == "draw_bitmap":
                xy, mask = args[0], args[1]
                known = recorder.masks.get(id(mask))
                if known is not None and known[2] is mask:
                    result = attribute(*args)
                    recorder.text(image, xy, mask, known[0], known[1])  # type: ignore[arg-type]
                    return result
                width, height = mask.size  # type: ignore[attr-defined]
                x, y = int(xy[0]), int(xy[1])  # type: ignore[index]
                return recorder.shape(
                    image, (x, y, x + width, y + height), lambda: attribute(*args), "a mask"
                )
            box = _box_of(args[0], 12)
            if name == "draw_ellipse":
                recorder.disc(image, _box_of(args[0], 0))
            return recorder.shape(image, box, lambda: attribute(*args), name.removeprefix("draw_"))

        return operation


@contextlib.contextmanager
def _recording(recorder: _Recorder, modules: Sequence[object]) -> Iterator[None]:
    original_init = ImageDraw.ImageDraw.__init__
    original_mask = ImageFont.FreeTypeFont.getmask2
    original_paste = Image.Image.paste
    original_ellipsize = canvas.ellipsize
    original_png = canvas.to_png

    def init(self, im, mode=None):  # noqa: ANN001, ANN202 - Pillow's signature
        original_init(self, im, mode)
        self.draw = _Core(self.draw, im, recorder)

    def getmask2(self, text, *args, **kwargs):  # noqa: ANN001, ANN202
        mask, offset = original_mask(self, text, *args, **kwargs)
        if str(text).strip():
            recorder.masks[id(mask)] = (str(text), float(self.size), mask)
        return mask, offset

    def paste(self, im, box=None, mask=None):  # noqa: ANN001, ANN202
        at = (int(box[0]), int(box[1])) if isinstance(box, tuple) and len(box) in (2, 4) else (0, 0)
        if isinstance(box, tuple) and len(box) == 4:
            region: Box = tuple(int(v) for v in box)  # type: ignore[assignment]
        elif isinstance(im, Image.Image):
            region = (at[0], at[1], at[0] + im.width, at[1] + im.height)
        else:
            region = (0, 0, self.width, self.height)
        result = recorder.shape(self, region, lambda: original_paste(self, im, box, mask), "a paste")
        if isinstance(im, Image.Image):
            recorder.pasted(self, im, at)
        return result

    def ellipsize(text, max_width, size, *, bold=False):  # noqa: ANN001, ANN202
        out = original_ellipsize(text, max_width, size, bold=bold)
        recorder.shortened.append((str(text), out))
        return out

    def to_png(image):  # noqa: ANN001, ANN202
        recorder.last = image
        return original_png(image)

    patched: list[tuple[object, str, object]] = []
    for module in modules:
        for name, replacement, original in (
            ("ellipsize", ellipsize, original_ellipsize),
            ("to_png", to_png, original_png),
        ):
            if getattr(module, name, None) is original:
                patched.append((module, name, original))
                setattr(module, name, replacement)
    ImageDraw.ImageDraw.__init__ = init  # type: ignore[method-assign]
    ImageFont.FreeTypeFont.getmask2 = getmask2  # type: ignore[method-assign]
    Image.Image.paste = paste  # type: ignore[method-assign]
    try:
        yield
    finally:
        ImageDraw.ImageDraw.__init__ = original_init  # type: ignore[method-assign]
        ImageFont.FreeTypeFont.getmask2 = original_mask  # type: ignore[method-assign]
        Image.Image.paste = original_paste  # type: ignore[method-assign]
        for module, name, original in patched:
            setattr(module, name, original)


def _renderer_modules() -> list[object]:
    return [
        module
        for name, module in list(sys.modules.items())
        if module is not None and (name == "renderer" or name.startswith("renderer."))
    ]


def _cut_mid_word(
    shortened: Sequence[tuple[str, str]], drawn: Sequence[Text], names: Sequence[str]
) -> list[str]:
    """Strings `ellipsize` cut inside a word (and that were drawn), other than inside a player's name."""
    texts = [text.text for text in drawn]
    spots = [canvas.player_name(name) for name in names] + [canvas.drawable(name) for name in names]
    found: list[str] = []
    for original, out in shortened:
        if not out.endswith(canvas.ELLIPSIS) and canvas.ELLIPSIS not in out:
            continue
        full = canvas.drawable(original)
        if out == full or not any(out in text for text in texts):
            continue
        kept = out[: out.rfind(canvas.ELLIPSIS)]
        if not kept or not full.startswith(kept) or len(kept) >= len(full):
            continue
        if not (kept[-1].isalnum() and full[len(kept)].isalnum()):
            continue
        cut = len(kept)
        if any(
            spot and start <= cut < start + len(spot) for spot in spots for start in _occurrences(full, spot)
        ):
            continue
        found.append(f"{out!r} (from {full!r})")
    return sorted(set(found))


def _occurrences(text: str, part: str) -> Iterator[int]:
    start = text.find(part)
    while start >= 0:
        yield start
        start = text.find(part, start + 1)


def record(draw: Callable[[], bytes | Image.Image], names: Sequence[str] = ()) -> Drawing:
    """Call `draw` (which returns a picture's PNG bytes, made by `canvas.to_png`, or the picture as an
    image) and record what it drew. `names` are the players' names: a name may be cut anywhere."""
    recorder = _Recorder()
    with phone._lock:
        phone._clear_caches()
        with _recording(recorder, _renderer_modules()):
            made = draw()
    if isinstance(made, Image.Image):
        picture = made
    else:
        with Image.open(io.BytesIO(made)) as image:
            size = image.size
        picture = recorder.last  # type: ignore[assignment]
        if picture is None or picture.size != size:
            raise AssertionError("the picture was not made by canvas.to_png: nothing to check it against")
    drawn = recorder.canvas(picture)
    return Drawing(
        width=picture.width,
        height=picture.height,
        texts=list(drawn.texts),
        overlaps=list(drawn.overlaps),
        covered=list(drawn.covered),
        cut=_cut_mid_word(recorder.shortened, drawn.texts, names),
        crossing=_across_discs(drawn),
    )


def _across_discs(drawn: _Canvas) -> list[str]:
    """Texts that meet a disc without lying inside it: a number half on a coin, a letter on a disc's rim."""
    found = []
    for text in drawn.texts:
        inner = _inset(text.box)
        for disc in drawn.discs:
            if _meets_ellipse(inner, disc) and not _inside(inner, disc):
                found.append(f"{text.text!r} at {text.box} meets the disc {disc}")
    return found
