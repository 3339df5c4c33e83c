"""Any display name, through every game's posts, edits, DMs and pictures (issue 18).

Names are drawn by hypothesis from all of Unicode, plus the ones that broke things: a mention of
someone outside the game, markdown, newlines, control characters, right-to-left text, 200 characters.
Each game is played a few random moves and every outbox row its moves owe is checked: it fits
Discord's limit, it can ping nobody but the seats the bot names, no name adds a line or a mention, and
the pictures of its views are drawn.
"""

from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.app import announcer
from bot.storage.store import GameRecord, GameStatus, SeatRecord
from renderer.registry import render
from rules import registry

GAMES = [game for game in registry.all_games() if not game.info.id.startswith("test-")]
OUTSIDER = 111111111111111111
TRICKY = [
    f"<@{OUTSIDER}> **bold** `code`",
    "a\nb\r\nc",
    "\x00\x1b[31m\u202eevil",
    "@everyone @here",
    "שלום 3",
    "مرحبا بك",
    "x" * 200,
    "",
    "   ",
    "||spoiler|| __u__ ~~s~~ > quote # head",
]
names = st.text(min_size=0, max_size=200)


def _seats(players: list[str]) -> list[SeatRecord]:
    return [
        SeatRecord(game_id=1, seat=i, user_id=1000 + i, name=name, dm_closed=False)
        for i, name in enumerate(players)
    ]


def _record(kind: str) -> GameRecord:
    return GameRecord(
        id=1,
        kind=kind,
        guild_id=5,
        channel_id=7,
        host_id=1000,
        status=GameStatus.ACTIVE,
        options={},
        seed=1,
        version=0,
        state=None,
        result=None,
        created_at="",
        updated_at="",
        finished_at=None,
    )


def _check(delivery, seats: list[SeatRecord], players: list[str]) -> None:
    if delivery.kind == "repaint":  # a picture only: its view is drawn below
        return
    content = delivery.payload["content"]
    assert len(content) <= 2000
    ours = {str(seat.user_id) for seat in seats}
    mentioned = re.findall(r"<@!?&?(\d+)>", content)
    assert set(mentioned) <= ours, mentioned  # a name can never smuggle in a mention
    bare = re.sub(r"<[@#]\d+>", "", content)
    assert re.search("@(?!\u200b)", bare) is None, bare  # every other @ is made inert
    assert {int(u) for u in delivery.payload.get("ping", [])} <= {s.user_id for s in seats}
    for name in players:
        if "\n" in name.strip() or "\r" in name.strip():
            assert name not in content  # the name's line breaks never reach the post


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(names, min_size=4, max_size=4), st.integers(0, 2**16))
@example(TRICKY[:4], 1)
@example(TRICKY[4:8], 2)
@example(TRICKY[6:], 3)
def test_any_name_through_every_games_posts_and_pictures(players: list[str], seed: int) -> None:
    for rules in GAMES:
        count = max(rules.info.min_players, min(rules.info.max_players, 3))
        chosen = players[:count]
        seats = _seats(chosen)
        table = announcer.Table(game=_record(rules.info.id), rules=rules, seats=seats, now=0.0)
        state = rules.setup(chosen, {}, seed)
        owed = announcer.announce(table, 0, None, state, [], None)
        rng = random.Random(seed)
        views = []
        for version in range(1, 13):
            for delivery in owed:
                _check(delivery, seats, chosen)
                if delivery.kind in ("post", "edit"):
                    table.live = announcer.Live.load(delivery.payload)
                if delivery.payload.get("view"):
                    views.append(delivery.payload["view"])
            waiting = sorted(rules.to_act(state))
            if not waiting:
                break
            seat = rng.choice(waiting)
            choice = rng.choice(rules.legal_actions(state, seat))
            applied = rules.apply(state, seat, choice.action)
            result = rules.result(applied.state)
            owed = announcer.announce(table, version, state, applied.state, applied.events, result)
            state = applied.state
        for data in views[-2:]:  # the latest public picture and a private one when there is one
            assert render(rules.load_view(data))[:4] == b"\x89PNG"


def test_long_names_never_stop_a_game() -> None:
    """Choice labels quote names ("Offer your … card to <name> for 5 coins"): with 200-character names
    they are cut to Discord's 100 characters instead of the seat losing its choices."""
    for rules in GAMES:
        count = max(rules.info.min_players, min(rules.info.max_players, 3))
        players = [str(seat) * 200 for seat in range(count)]
        state = rules.setup(players, {}, 4)
        rng = random.Random(4)
        for _ in range(300):
            waiting = sorted(rules.to_act(state))
            if not waiting:
                break
            seat = rng.choice(waiting)
            choices = rules.legal_actions(state, seat)
            assert all(len(choice.label) <= 100 for choice in choices)
            state = rules.apply(state, seat, rng.choice(choices).action).state
