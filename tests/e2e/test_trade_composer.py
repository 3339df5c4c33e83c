"""The trade composer, through Discord: any bundle, to the opponent of your choice, contents private.

Iron Bridge Gorge, Trade Phase: 'You may trade coins, cards in hand, resources in play, VP's, and
non-binding promises. You may make multiple trades.' Issue 5: 'A player in their trade phase proposes
a trade to one or more opponents (coins, cards in hand, resources in play, VP) ... the other side
accepts or declines with buttons; card contents stay private to the two parties.'
"""

from __future__ import annotations

from tests.e2e.harness import World, menu_choices, world


async def _seat_of(w: World, name: str) -> int:
    game = await w.bot.service.store.latest_game_in(w.channels["table"])
    seats = await w.bot.service.store.seats(game.id)
    return next(s.seat for s in seats if s.name == name)


async def _state(w: World):
    game = await w.bot.service.store.latest_game_in(w.channels["table"])
    return game, await w.bot.service.state(game)


async def _open_menu(w: World, user):
    turn = w.turn_messages()[-1]
    button = next(cid for _, cid, _ in user.buttons(turn.id) if cid and cid.endswith(":menu"))
    return await user.click(turn.id, button)


async def _play_until_trade_phase(w: World, names: list[str], trader: str) -> None:
    """Everyone ends their turn or makes their first offered move (bids 0, takes the first card) until
    the trader may propose a trade; only buttons are pressed."""
    rules = w.bot.service.rules_for("iron-bridge-gorge")
    seat = await _seat_of(w, trader)
    for _ in range(200):
        game, state = await _state(w)
        if rules.trade_form(state, seat) is not None:
            return
        for name in names:
            menu = await _open_menu(w, w.users[name])
            if menu.content.startswith("⚠️"):
                continue
            plain = [c for c in menu_choices(menu) if not c[0].startswith(("Offer", "🤝", "Undo"))]
            label, custom_id = next((c for c in plain if c[0] == "End turn"), plain[0])
            if "|" in custom_id:
                select_id, value = custom_id.split("|", 1)
                done = await w.users[name].select(menu.message.id, select_id, [value])
            else:
                done = await w.users[name].click(menu.message.id, custom_id)
            assert done.content.startswith("✅"), done.content
            await w.settle()
            break
    raise AssertionError("the trader never reached a trade phase")


async def test_compose_a_bundle_trade_then_accept_it_privately(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        table = w.channels["table"]
        await alice.slash(table, "game new", game="iron-bridge-gorge", seed=11)
        await bob.slash(table, "game join")
        await carol.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        await _play_until_trade_phase(w, ["alice", "bob", "carol"], "alice")
        game, state = await _state(w)
        a, b = await _seat_of(w, "alice"), await _seat_of(w, "bob")
        cards = w.bot.service.rules_for(game.kind).cards
        card = state.players[a].hand[0]
        card_name = cards[card].name
        coins_a, coins_b = state.players[a].coins, state.players[b].coins

        menu = await _open_menu(w, alice)
        compose = next(cid for label, cid in menu_choices(menu) if label.startswith("🤝"))
        composer = await alice.click(menu.message.id, compose)
        assert composer.ephemeral and "You can give" in composer.content and card_name in composer.content
        partner = next(
            cid for label, cid, _ in alice.buttons(composer.message.id) if label == "Trade with bob"
        )
        form = await alice.click(composer.message.id, partner)
        assert form.modal is not None and form.modal["title"] == "Trade with bob"

        # A bundle that cannot be read is refused with a sentence, and nothing is proposed.
        wrong = await alice.submit_modal(form, {"give": "3 unicorns", "get": ""})
        assert wrong.ephemeral and "unicorns" in wrong.content and "Nothing was proposed" in wrong.content
        too_much = await alice.submit_modal(form, {"give": f"{coins_a + 1} coins", "get": ""})
        assert too_much.ephemeral and f"only {coins_a}" in too_much.content
        assert (await _state(w))[1].proposal is None

        sent = await alice.submit_modal(form, {"give": f"2 coins, {card_name}", "get": "1 coin"})
        assert sent.content.startswith("✅"), sent.content
        await w.settle()
        _, state = await _state(w)
        assert state.proposal is not None and state.proposal.give.hand == [card]
        assert state.proposal.give.coins == 2 and state.proposal.get.coins == 1

        # The card stays between the two parties: bob reads it by DM, carol and the channel do not.
        assert any(card_name in m.content for m in bob.dms())
        assert not any(card_name in m.content for m in carol.dms())
        post = next(m for m in w.public() if "proposed a trade to bob" in m.content)
        offer = next(line for line in post.content.splitlines() if "proposed a trade to bob" in line)
        assert card_name not in offer and "2 coins" not in post.content

        answer = await _open_menu(w, bob)
        accept = next(cid for label, cid in menu_choices(answer) if label == "Accept the trade")
        accepted = await bob.click(answer.message.id, accept)
        assert accepted.content.startswith("✅"), accepted.content
        await w.settle()
        _, state = await _state(w)
        assert card in state.players[b].hand and state.proposal is None
        assert state.players[a].coins == coins_a - 1 and state.players[b].coins == coins_b + 1
        accepted_post = next(m for m in w.public() if "accepted" in m.content)
        assert card_name not in accepted_post.content
        assert not w.server.errors, w.server.errors
