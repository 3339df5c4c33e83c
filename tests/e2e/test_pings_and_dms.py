"""Pings and direct messages say something (issue 36), in every game, through the emulator.

A post pings only the people who must act now or who have news they did not make themselves (the
proposer whose offer was accepted, not the one who accepted it); a direct message goes to a seat only
with something it did not already know: never a line the channel shows, never its own move's line
that its confirmation showed ("You bid 3." after the bids are public), never a message without text.
"""

from __future__ import annotations

import random
import re

import pytest

from bench.news import direct_messages
from tests.e2e.harness import World, open_game, take_turn, world
from tests.quality.support import handoffs


def stale_dms(w: World) -> list[str]:
    """The direct messages that told their reader nothing new (`bench.news`)."""
    told = direct_messages(w.server.message_versions, w.server.world.channels, w.server.bot_user_id)
    return [one.content for one in told if one.stale]


def _as_posted(w: World, message):
    return next(m for m in w.server.message_versions if m.id == message.id)


def _offers_to(label: str, name: str) -> bool:
    """An offer's label names the goods first and the partner after ("Offer 1 wheat to bob …")."""
    return label.startswith("Offer ") and f" to {name} " in f"{label} "


class Trader:
    """Random moves; offers a trade to `partner` once, and answers an offer with `answer`."""

    def __init__(self, seed: int, partner: str | None = None, answer: str = "Accept the trade") -> None:
        self.rng = random.Random(seed)
        self.partner = partner
        self.answer = answer
        self.offered = 0

    def __call__(self, choices):
        labels = [label for label, _ in choices]
        if self.answer in labels:
            return next(c for c in choices if c[0] == self.answer)
        if labels == ["Withdraw the trade offer"]:
            return None  # wait for the partner's answer
        if self.partner and not self.offered:
            offers = [c for c in choices if _offers_to(c[0], self.partner)]
            if offers:
                self.offered += 1
                return self.rng.choice(offers)
            groups = [c for c in choices if ":grp:" in c[1] and c[0].startswith(("Trade", "Offer"))]
            if groups:
                return groups[0]
        plain = [c for c in choices if not c[0].startswith(("Offer ", "Withdraw"))]
        return self.rng.choice(plain or choices)


GAMES = [
    ("city-of-iron", ("alice", "bob", "carol"), ""),
    ("iron-bridge-gorge", ("alice", "bob", "carol"), "rounds=2"),
    ("iron-and-brass", ("alice", "bob"), "max_rounds=3 board_size=10"),
    ("city-heroes", ("alice", "bob", "carol"), "turns=2"),
]


async def _play(w: World, names, pick, moves: int) -> int:
    people = [w.users[name] for name in names]
    made = 0
    for _ in range(moves * 3):
        if made >= moves or "Game over" in w.turn_messages()[-1].content:
            break
        for person in people:
            if await take_turn(w, "table", person, pick):
                made += 1
                await w.settle()
                break
        else:
            break
    return made


@pytest.mark.parametrize(("game", "names", "options"), GAMES, ids=[g[0] for g in GAMES])
async def test_every_ping_and_every_dm_carries_news(tmp_path, game, names, options):
    async with world(tmp_path) as w:
        first, *others = (w.users[name] for name in names)
        await open_game(w, "table", first, others, game=game, seed=9, options=options)
        trader = Trader(5, partner=names[1] if game in ("iron-bridge-gorge", "city-heroes") else None)
        assert await _play(w, names, trader, 40) >= 20
        record = await w.bot.service.store.latest_game_in(w.channels["table"])
        owed, _ = await handoffs(w.bot.service, record)
        for post in w.turn_messages():
            found = re.search(r"· move (\d+)", post.content)
            version = int(found.group(1)) if found else 0
            assert set(_as_posted(w, post).pinged_users) == owed[version], post.content
        assert not stale_dms(w), stale_dms(w)[:3]
        if game in ("city-of-iron", "iron-bridge-gorge"):  # hands dealt, cards drawn: private news
            assert any(user.dms() for user in w.users.values()), "nobody was told anything privately"
        assert not w.server.errors, w.server.errors


@pytest.mark.parametrize("game", ["iron-bridge-gorge", "city-heroes"])
async def test_accepting_a_trade_pings_the_proposer_not_the_one_who_accepted(tmp_path, game):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        options = "rounds=2" if game == "iron-bridge-gorge" else "turns=3"
        await open_game(w, "table", alice, [bob], game=game, seed=4, options=options)
        service = w.bot.service
        record = await service.store.latest_game_in(w.channels["table"])
        rules = service.rules_for(game)
        rng = random.Random(2)
        for _ in range(200):  # play on until someone can offer the other a trade, then offer it
            record = await service.store.game(record.id)
            state = await service.state(record)
            seat = sorted(rules.to_act(state))[0]
            user, other = (alice, bob) if seat == 0 else (bob, alice)
            choices = rules.legal_actions(state, seat)
            offers = [c for c in choices if _offers_to(c.label, other.name)]
            if offers:
                await service.play(record.id, user.id, key=offers[0].key)
                break
            plain = [c for c in choices if not c.label.startswith(("Offer ", "Withdraw"))]
            await service.play(record.id, user.id, key=rng.choice(plain).key)
        else:
            raise AssertionError("no trade offer came up")
        await w.settle()
        proposer, partner = user, other
        offer_post = w.turn_messages()[-1]
        assert set(_as_posted(w, offer_post).pinged_users) == {partner.id}, offer_post.content
        assert await take_turn(
            w, "table", partner, lambda cs: next(c for c in cs if c[0] == "Accept the trade")
        )
        await w.settle()
        post = w.turn_messages()[-1]
        assert post.id != offer_post.id and "accepted" in post.content
        pinged = set(_as_posted(w, post).pinged_users)
        assert proposer.id in pinged and partner.id not in pinged, post.content
        assert any("accepted your trade offer" in dm.content for dm in proposer.dms())
        assert not any("You accepted" in dm.content for dm in partner.dms()), [
            d.content for d in partner.dms()
        ]
        assert not stale_dms(w), stale_dms(w)[:3]
        assert not w.server.errors, w.server.errors


@pytest.mark.parametrize("game", ["iron-bridge-gorge", "city-heroes"])
async def test_a_trade_offered_to_a_computer_is_answered_in_the_same_post(tmp_path, game):
    """The offer and the computer's answer are one post; the offerer made the offer a moment ago and
    is still on turn: it pings nobody and no direct message repeats it to them."""
    async with world(tmp_path) as w:
        alice = w.users["alice"]
        options = "rounds=2" if game == "iron-bridge-gorge" else "turns=3"
        await open_game(w, "table", alice, [], game=game, seed=4, options=options, ai=1)
        trader = Trader(3, partner="AI 1", answer="")
        for _ in range(120):
            posts = len(w.turn_messages())
            assert await take_turn(w, "table", alice, trader)
            await w.settle()
            if trader.offered:
                break
        else:
            raise AssertionError("no trade offer came up")
        assert len(w.turn_messages()) == posts + 1, "the offer and its answer took more than one post"
        post = w.turn_messages()[-1].content
        offered = re.search(r"alice (proposed a trade to AI 1|offered AI 1 a trade)", post)
        answered = re.search(r"AI 1 (declined|accepted) alice's trade", post)
        assert offered and answered and offered.start() < answered.start(), post
        post = w.turn_messages()[-1]
        assert alice.id not in _as_posted(w, post).pinged_users, post.content
        assert not any("your trade offer" in dm.content for dm in alice.dms())
        assert not stale_dms(w), stale_dms(w)[:3]
        assert not w.server.errors, w.server.errors
