"""`python -m bench.bot_no_render`: the real bot, with every picture replaced by one tiny PNG.

Used by the latency benchmark to measure a move's path (interaction, rules, SQLite commit, answer,
turn message and DMs posted) without the CPU that drawing boards takes from the same two cores.
"""

from __future__ import annotations

import io
import sys

from PIL import Image

from bot import pictures
from rules.core import View


def _tiny_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(buffer, format="PNG")
    return buffer.getvalue()


PNG = _tiny_png()


async def _no_render(self: pictures.Painter, view: View) -> bytes:
    return PNG


pictures.Painter.png = _no_render  # type: ignore[method-assign]

if __name__ == "__main__":
    from bot.__main__ import main

    sys.exit(main([]))
