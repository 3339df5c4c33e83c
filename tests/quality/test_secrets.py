"""Hidden information, end to end, for every registered game.

Seated users and a spectator play through the emulator (random moves from "Take my turn", plus
"My hand", "Board", `/hand`, `/board` and `/log` along the way). Every version of every message the
bot ever sent is kept by the emulator; for each user we take all they could see (channel messages,
their ephemerals, their DMs) and prove:

- every image in the channel, or in a `/board`, is byte-identical to the render of the public view
  of a replayed state; every image in a DM or `/hand` is the render of that user's own seat view
  (or a public one): no image ever shows another seat's private view;
- the spectator gets no DM and no private image;
- a private event line (the `private` part of the events in the action log) appears only in
  messages its own seat can see.

`QUALITY_LONG=1` plays longer games.
"""

from __future__ import annotations

import os
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.app.announcer import private_part
from bot.emulator.driver import UserSession
from bot.emulator.model import StoredMessage
from renderer.registry import render
from rules import registry
from rules.core import Game
from tests.e2e.harness import world
from tests.quality.support import choose, move_options, open_menu, turn_messages

MOVES = 60 if os.environ.get("QUALITY_LONG") else 10
GAMES = registry.all_games()
NAMES = ("alice", "bob", "carol", "dave")  # dave only watches


def _button(message: StoredMessage, verb: str) -> str | None:
    return next((cid for _, cid, _ in message.buttons() if cid and cid.endswith(f":{verb}")), None)


async def _look_around(users: list[UserSession], turn: StoredMessage, table: int) -> None:
    """Everyone presses the public buttons a curious player would press."""
    for user in users:
        for verb in ("hand", "board"):
            custom_id = _button(turn, verb)
            if custom_id is not None:
                await user.click(turn.id, custom_id)
    for user in users:
        await user.slash(table, "hand")


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.info.id)
async def test_no_seat_ever_sees_another_seats_secrets(tmp_path: Path, game: Game) -> None:
    players = max(game.info.min_players, min(3, game.info.max_players))
    async with world(tmp_path, users=NAMES) as w:
        table = w.channels["table"]
        seated = [w.users[name] for name in NAMES[:players]]
        spectator = w.users["dave"]
        everyone = [*seated, spectator]
        opened = await seated[0].slash(table, "game new", game=game.info.id, seed=17)
        assert not opened.ephemeral, opened.content
        for user in seated[1:]:
            assert not (await user.slash(table, "game join")).ephemeral
        assert "has started" in (await seated[0].slash(table, "game start")).content
        await w.settle()
        service, store = w.bot.service, w.bot.service.store
        record = await store.latest_game_in(table)
        rng = random.Random(game.info.id)

        for number in range(MOVES):
            record = await store.game(record.id)
            if record.status != "active":
                break
            acting = sorted(await service.to_act(record))
            user = seated[rng.choice(acting)]
            turn = turn_messages(w.server, table)[-1]
            menu = await open_menu(user, turn)
            assert menu is not None, f"{user.name} must act but got no menu"
            result = await choose(user, menu.message, rng.choice(move_options(menu.message)), rng)
            assert result.answer.startswith(("✅", "⚠️")), result.answer
            await w.settle()
            if number % 4 == 1:
                await _look_around(everyone, turn_messages(w.server, table)[-1], table)
                await spectator.click(turn_messages(w.server, table)[-1].id, f"g:{record.id}:menu")
        await _look_around(everyone, turn_messages(w.server, table)[-1], table)
        for user in everyone:
            await user.slash(table, "board")
            await user.slash(table, "log")
        await w.settle()

        record = await store.game(record.id)
        states = await service.replay(record)
        assert registry.get(record.kind).dump_state(states[-1]) == record.state
        seats = {seat.user_id: seat.seat for seat in await store.seats(record.id)}
        log = await store.actions(record.id)
        assert len(log) >= min(MOVES // 2, 3), "too few moves were played to test anything"
        framed: dict[int, set[frozenset[str]]] = {}  # the marks each public picture was drawn with
        for row in await store.outbox(record.id):
            if row.kind in ("post", "repaint"):
                framed.setdefault(row.version, set()).add(frozenset(row.payload.get("marks", ())))
        audit = Audit(game, states, framed)

        private: dict[int, set[str]] = {}
        public_lines: set[str] = set()
        for entry in log:
            for event in entry.events:
                public_lines.add(event["text"])
                for seat, line in event.get("private", {}).items():
                    private.setdefault(int(seat), set()).add(line)

        images_seen = {user.name: 0 for user in everyone}
        for user in everyone:
            seat = seats.get(user.id)
            mine = private.get(seat, set()) if seat is not None else set()
            forbidden = {
                line
                for other, lines in private.items()
                if other != seat
                for line in lines
                if line not in mine and line not in public_lines
            }
            for message in w.server.message_versions:
                if not user.can_see(message):
                    continue
                in_dm = message.guild_id is None
                if user is spectator:
                    assert not in_dm, f"the spectator got a DM: {message.content!r}"
                for line in forbidden:
                    assert line not in message.content, (
                        f"{user.name} (seat {seat}) saw another seat's private line {line!r} in"
                        f" {message.content!r}"
                    )
                for attachment in message.attachments:
                    images_seen[user.name] += 1
                    shown = audit.whose(attachment.filename, attachment.data, seat)
                    assert shown is not None, (
                        f"{user.name} (seat {seat}) saw {attachment.filename} ({'DM' if in_dm else 'channel'}),"
                        " which is neither the public view nor their own view of any state"
                    )
                    if not message.ephemeral and not in_dm:
                        assert shown == "public", f"{attachment.filename} in the channel is a private view"
        assert all(images_seen.values()), images_seen
        if game.info.hidden_information:
            for user in seated:
                # a seat hears by DM when its own view shows more than the board (a hand, an offer)
                hidden = any(
                    private_part(
                        game.view(state, None).model_dump(mode="json"), game.view(state, seats[user.id])
                    )
                    for state in states
                )
                if hidden:
                    assert user.dms() or any("direct messages" in m.content for m in w.public()), (
                        f"{user.name} never got a private view"
                    )
        assert not w.server.errors, w.server.errors


class Audit:
    """Which views an image could be: renders of replayed states, drawn lazily and cached.

    A turn post's picture frames what changed since the previous post: `framed` gives, per version, the
    marks the bot wrote for its pictures (from the outbox), and a public picture may be drawn with them.
    The marks only frame parts of the public board, so allowing them lets no private view through."""

    def __init__(
        self, game: Game, states: list[Any], framed: dict[int, set[frozenset[str]]] | None = None
    ) -> None:
        self.game = game
        self.states = states
        self.framed = framed or {}
        self.render = cache(self._render)

    def _render(self, version: int, seat: int | None, marks: frozenset[str] = frozenset()) -> bytes:
        return render(self.game.view(self.states[version], seat), marks)

    def whose(self, filename: str, data: bytes, seat: int | None) -> str | None:
        """'public' or 'own' if `data` is the public view or `seat`'s view of some state, else None."""
        found = re.search(r"-v(\d+)\.png$", filename)
        named = int(found.group(1)) if found else None
        hinted = [named] if named is not None and named < len(self.states) else []
        marks = [m for m in self.framed.get(named, ()) if m] if named is not None else []
        for versions in (hinted, range(len(self.states))):
            for version in versions:
                if data == self.render(version, None):
                    return "public"
                if seat is not None and data == self.render(version, seat):
                    return "own"
                if any(data == self.render(version, None, m) for m in marks):
                    return "public"
        return None


def test_the_audit_recognises_a_leak() -> None:
    """The check above would catch a private view posted to the wrong seat."""
    game = registry.get("iron-bridge-gorge")
    state = game.setup(["a", "b"], {}, seed=4)
    rng = random.Random(4)
    while game.view(state, 0).hand == game.view(state, 1).hand:  # play until the hands differ
        seat = min(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)).action).state
    audit = Audit(game, [state])
    assert audit.whose("board-1-v0.png", render(game.view(state, None)), None) == "public"
    assert audit.whose("hand-1-v0.png", render(game.view(state, 0)), 0) == "own"
    assert audit.whose("hand-1-v0.png", render(game.view(state, 0)), 1) is None
    assert audit.whose("board-1-v0.png", render(game.view(state, 1)), None) is None
