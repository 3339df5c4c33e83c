"""`python -m bench.bot_no_render`: the real bot, with every picture replaced by one tiny PNG.

Used by the latency benchmark to measure a move's path (interaction, rules, SQLite commit, answer,
turn message and DMs posted) without the CPU that drawing boards takes from the same two cores.

Each picture is an 8x8 PNG whose pixels come from a hash of the view, so two different views never
share a picture and the same view always gives the same bytes: a bot that skips re-uploading an
unchanged picture is measured as it would behave with real boards. The bench runs this file by path
(`bench/bot_process.py`), so a baseline checkout's bot gets this same stub.
"""

from __future__ import annotations

import hashlib
import io
import sys

from PIL import Image

try:
    from bot.interface import pictures
except ImportError:  # a baseline checkout from before bot/ had its layers
    from bot import pictures  # type: ignore[no-redef]
from rules.core import View


def _tiny_png(seed: bytes = b"") -> bytes:
    pixels = hashlib.blake2b(seed, digest_size=64).digest() * 3  # 8x8 RGB
    buffer = io.BytesIO()
    Image.frombytes("RGB", (8, 8), pixels[: 8 * 8 * 3]).save(buffer, format="PNG")
    return buffer.getvalue()


PNG = _tiny_png()


async def _no_render(self: pictures.Painter, view: View, marks: frozenset[str] = frozenset()) -> bytes:
    """Takes `marks` where the bot passes them (a baseline checkout's bot may not)."""
    return _tiny_png(view.model_dump_json().encode() + ",".join(sorted(marks)).encode())


pictures.Painter.png = _no_render  # type: ignore[method-assign]

if __name__ == "__main__":
    from bot.__main__ import main

    sys.exit(main([]))
