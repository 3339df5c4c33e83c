"""Whole games of the real games, played through Discord interactions only.

Each game is driven by the turn message's buttons ("Take my turn", then a move button or select), as
players would, and its final post is checked against the rules engine's own result (replayed from
the seed and the action log).
"""

from __future__ import annotations

import random

from rules import registry
from tests.e2e.harness import is_over, open_game, play_out, world


async def _check_result(w, channel: str) -> None:
    service = w.bot.service
    game = await service.store.latest_game_in(w.channels[channel])
    assert game.status == "finished"
    states = await service.replay(game)
    assert registry.get(game.kind).dump_state(states[-1]) == game.state
    result = registry.get(game.kind).result(states[-1])
    final = w.turn_messages(channel)[-1]
    assert "Game over" in final.content and result.reason in final.content
    seats = await service.store.seats(game.id)
    for place, group in enumerate(result.ranking, start=1):
        for seat in group:
            if result.scored:
                assert f"{place}. {seats[seat].name} — {result.scores[seat]}" in final.content
            else:  # Iron & Brass: the reason says why; no "— 1 / — 0" (issue 19)
                assert f"\n{place}. {seats[seat].name}\n" in final.content + "\n"
                assert f"{seats[seat].name} — " not in final.content
    assert final.attachments, "the final post shows the final board"
    assert not w.server.errors, w.server.errors


async def test_city_of_iron_three_players_complete_game(tmp_path):
    """Issue 4: a complete 3-player City of Iron through the emulator, scoreboard = engine's result."""
    async with world(tmp_path) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        await open_game(w, "table", alice, [bob, carol], game="city-of-iron", seed=21)
        moves = await play_out(w, "table", [alice, bob, carol], seed=5, max_rounds=600)
        assert moves > 50 and is_over(w)
        await _check_result(w, "table")


class _Trader:
    """Plays randomly, but proposes trades and answers the first with Accept and the second with Decline."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.proposed = 0
        self.answers: list[str] = []

    def __call__(self, choices):
        labels = [label for label, _ in choices]
        if "Decline the trade" in labels:
            wanted = "Accept the trade" if not self.answers else "Decline the trade"
            if wanted not in labels:
                wanted = "Decline the trade"
            self.answers.append(wanted)
            return next(c for c in choices if c[0] == wanted)
        if labels == ["Withdraw the trade offer"]:
            return None  # wait for the partner's answer
        offers = [c for c in choices if c[0].startswith("Offer ")]
        if offers and self.proposed < 2:
            self.proposed += 1
            return self.rng.choice(offers)
        plain = [c for c in choices if not c[0].startswith(("Offer ", "Withdraw"))]
        return self.rng.choice(plain or choices)


async def test_iron_bridge_gorge_game_with_an_accepted_and_a_declined_trade(tmp_path, store_url):
    """Issue 5: a complete (short) game with trades; the contents stay between the two parties.

    Played on each database backend (issue 12): the bot runs on PostgreSQL with nothing else changed."""
    async with world(tmp_path, database_url=store_url) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], game="iron-bridge-gorge", seed=3, options="rounds=3")
        trader = _Trader(7)
        await play_out(w, "table", [alice, bob], pick=trader, max_rounds=400)
        assert trader.answers[:2] == ["Accept the trade", "Decline the trade"], trader.answers
        public = "\n".join(m.content for m in w.public())
        assert "accepted" in public.lower() and "declined" in public.lower()
        await _check_result(w, "table")


async def test_iron_and_brass_game_through_the_buttons(tmp_path):
    """Issue 6: an Iron & Brass game played through the emulator to its end (short turn limit)."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(
            w, "table", alice, [bob], game="iron-and-brass", seed=4, options="max_rounds=3 board_size=10"
        )
        await play_out(w, "table", [alice, bob], seed=2, max_rounds=400)
        await _check_result(w, "table")


async def test_city_heroes_solo_game_through_the_buttons(tmp_path):
    """Issue 11: a solo City Heroes game (the rival city plays against one player) to its end."""
    async with world(tmp_path) as w:
        alice = w.users["alice"]
        await open_game(w, "table", alice, [], game="city-heroes", seed=6, options="turns=2")
        await play_out(w, "table", [alice], seed=3, max_rounds=2000)
        await _check_result(w, "table")


async def test_two_friends_fill_a_four_player_table_with_ai_seats(tmp_path):
    """Issue 13: `/game new ... ai:2` seats two computer players; they play only legal moves, never
    get a DM or a ping, and the game is marked as played with AI seats."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        lobby = await alice.slash(
            table, "game new", game="iron-bridge-gorge", seed=8, ai=2, ai_strength=1, options="rounds=2"
        )
        assert "🤖 AI 1" in lobby.content and "🤖 AI 2" in lobby.content
        await bob.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        await play_out(w, "table", [alice, bob], seed=4, max_rounds=400)
        game = await w.bot.service.store.latest_game_in(table)
        seats = await w.bot.service.store.seats(game.id)
        assert [s.user_id < 0 for s in seats] == [False, True, True, False]
        log = await w.bot.service.store.actions(game.id)
        assert {r.seat for r in log if r.user_id == 0} >= {1, 2}  # the AI seats moved
        marked = [line for m in w.public() for line in m.content.splitlines() if line.startswith("• 🤖")]
        # the computer's moves are marked, the table's own lines after them (a new round) are not
        assert marked and all(line.startswith("• 🤖 AI") for line in marked), marked
        assert all("<@-" not in m.content for m in w.public())
        await _check_result(w, "table")
        listing = await alice.slash(table, "game list")
        assert "(with AI seats)" in listing.content
