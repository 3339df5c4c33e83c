"""What a play-through of issue 36 found, each replayed through the emulator as players met it.

Issue 36: "Words: ... every refusal names what was wrong", and the table speaks to a person in
whole, plain sentences. Iron Bridge Gorge, Trade Phase: 'You may trade coins, cards in hand, resources
in play, VP's, and non-binding promises.' A gift (something for nothing) is such a trade.
"""

from __future__ import annotations

from tests.e2e.harness import menu_choices, world
from tests.e2e.test_trade_composer import _open_menu, _play_until_trade_phase


async def test_a_gift_offer_reads_for_nothing_not_for_your_nothing(tmp_path):
    """bob is offered 1 coin for nothing: his direct message says so, without "your nothing"."""
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        table = w.channels["table"]
        await alice.slash(table, "game new", game="iron-bridge-gorge", seed=11)
        await bob.slash(table, "game join")
        await carol.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        await _play_until_trade_phase(w, ["alice", "bob", "carol"], "alice")

        menu = await _open_menu(w, alice)
        compose = next(cid for label, cid in menu_choices(menu) if label.startswith("🤝"))
        composer = await alice.click(menu.message.id, compose)
        partner = next(
            cid for label, cid, _ in alice.buttons(composer.message.id) if label == "Trade with bob"
        )
        form = await alice.click(composer.message.id, partner)
        sent = await alice.submit_modal(form, {"give": "1 coin", "get": ""})
        assert sent.content.startswith("✅"), sent.content
        await w.settle()

        offer = next(m.content for m in reversed(bob.dms()) if "offers" in m.content)
        assert "alice offers 1 coin for nothing." in offer, offer
        assert "your nothing" not in offer


async def test_the_composer_counts_one_coin_in_words(tmp_path):
    """Issue 36: 'counts via the words helper ("1 city token", not "1 city tokens")'. alice gives bob
    all her coins but one; her composer then says she has "1 coin" to give, not "1 coins"."""
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        table = w.channels["table"]
        await alice.slash(table, "game new", game="iron-bridge-gorge", seed=11)
        await bob.slash(table, "game join")
        await carol.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        await _play_until_trade_phase(w, ["alice", "bob", "carol"], "alice")
        game = await w.bot.service.store.latest_game_in(table)
        state = await w.bot.service.state(game)
        seats = await w.bot.service.store.seats(game.id)
        coins = state.players[next(s.seat for s in seats if s.name == "alice")].coins
        assert coins > 1

        async def composer():
            menu = await _open_menu(w, alice)
            compose = next(cid for label, cid in menu_choices(menu) if label.startswith("🤝"))
            return menu, await alice.click(menu.message.id, compose)

        _, opened = await composer()
        partner = next(cid for label, cid, _ in alice.buttons(opened.message.id) if label == "Trade with bob")
        form = await alice.click(opened.message.id, partner)
        sent = await alice.submit_modal(form, {"give": f"{coins - 1} coins", "get": ""})
        assert sent.content.startswith("✅"), sent.content
        await w.settle()
        answer = await _open_menu(w, bob)
        accept = next(cid for label, cid in menu_choices(answer) if label == "Accept the trade")
        assert (await bob.click(answer.message.id, accept)).content.startswith("✅")
        await w.settle()

        _, opened = await composer()
        assert "Available: 1 coin," in opened.content, opened.content
        assert "1 coins" not in opened.content
