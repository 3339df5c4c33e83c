"""A section too long for one phone picture is shown a page at a time, with buttons to turn the pages
(issue 36: "every picture a player can open ≤ 4:5 — split long keys into pages, with buttons").

City Heroes' key (every symbol and the 40-odd building codes) was one 800×1394 picture, unreadable at a
phone's 400 px. Now `/board section:key` shows page 1 of 2 with ◀ Previous, "Page 1 of 2" and Next ▶
under it; the buttons are the same restart-proof components as every other, so a press after a restart
still turns the page; a public `/board` attaches every page and carries no buttons.
"""

from __future__ import annotations

import asyncio
import io

from PIL import Image

from renderer import phone
from tests.e2e.harness import world


async def _showing(w, message_id: int, prefix: str, suffix: str, seconds: float = 30.0):  # noqa: ANN001, ANN202
    """The message once its picture's name has `prefix` and `suffix` (a deferred press edits it later)."""
    for _ in range(int(seconds / 0.1)):
        shown = w.server.world.messages[message_id]
        name = shown.attachments[0].filename if shown.attachments else ""
        if name.startswith(prefix) and name.endswith(suffix):
            return shown
        await asyncio.sleep(0.1)
    return w.server.world.messages[message_id]


def _fits_a_phone(data: bytes) -> None:
    with Image.open(io.BytesIO(data)) as image:
        assert image.height <= image.width * phone.MAX_ASPECT, image.size


async def test_a_long_key_is_paged_with_buttons_that_survive_a_restart(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="city-heroes", seed=2)
        await bob.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()

        key = await bob.slash(table, "board", section="key")
        assert key.ephemeral and "(page 1 of 2)" in key.content
        ((name, data, _),) = key.files
        assert name.endswith("-1.png")
        _fits_a_phone(data)
        buttons = {label: (cid, disabled) for label, cid, disabled in key.message.buttons()}
        assert buttons["◀ Previous"][1] and buttons["Page 1 of 2"][1] and not buttons["Next ▶"][1]
        assert buttons["Key"][1], "the section shown is greyed out among the sections"

        await w.restart_bot()
        await bob.click(key.message.id, buttons["Next ▶"][0])
        second = await _showing(w, key.message.id, "key-", "-2.png")
        assert second.attachments[0].filename.endswith("-2.png"), "the press after a restart turns the page"
        turned = {label: (cid, disabled) for label, cid, disabled in second.buttons()}
        assert "Page 2 of 2" in turned and turned["Next ▶"][1] and not turned["◀ Previous"][1]
        await bob.click(key.message.id, turned["◀ Previous"][0])
        first = await _showing(w, key.message.id, "key-", "-1.png")
        assert first.attachments[0].filename.endswith("-1.png")

        cities = next(cid for label, cid, _ in first.buttons() if label == "Cities")
        await bob.click(key.message.id, cities)
        one = await _showing(w, key.message.id, "cities-", ".png")
        assert one.attachments[0].filename.startswith("cities-")
        labels = [label for label, _, _ in one.buttons()]
        assert not any(label.startswith("Page") for label in labels), "a one-page section has no page row"

        public = await bob.slash(table, "board", section="key", public=True)
        assert not public.ephemeral and not public.message.buttons()
        assert [name.rsplit("-", 1)[-1] for name, _, _ in public.files] == ["1.png", "2.png"]
        for _, data, _ in public.files:
            _fits_a_phone(data)
        assert not w.server.errors, w.server.errors
