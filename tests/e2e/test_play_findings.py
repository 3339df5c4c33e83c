"""What a play-through of issue 36 found, each replayed through the emulator as players met it.

Issue 36: "Words: ... every refusal names what was wrong", and the table speaks to a person in
whole, plain sentences. Iron Bridge Gorge, Trade Phase: 'You may trade coins, cards in hand, resources
in play, VP's, and non-binding promises.' A gift (something for nothing) is such a trade.
"""

from __future__ import annotations

from tests.e2e.harness import MANAGE_CHANNELS, is_over, menu_choices, open_game, play_out, take_turn, world
from tests.e2e.test_trade_composer import _open_menu, _play_until_trade_phase


async def test_a_gift_offer_reads_for_nothing_not_for_your_nothing(tmp_path):
    """bob is offered 1 coin for nothing: his direct message says so, without "your nothing"."""
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        await open_game(w, "table", alice, [bob, carol], game="iron-bridge-gorge", seed=11)
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
        await open_game(w, "table", alice, [bob, carol], game="iron-bridge-gorge", seed=11)
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


def _buying(w) -> bool:
    turns = w.turn_messages()
    return bool(turns) and "buying cards in secret" in turns[-1].content


async def test_an_undo_the_table_agreed_to_pings_its_asker_still_choosing(tmp_path):
    """Issue 36: 'Decided votes are edited to their outcome, buttons removed; whoever asked is told the
    outcome.' City of Iron's end of round: 'each player secretly chooses which cards to buy' (all at
    once). bob chose a card and asked to take it back; alice and carol agree. bob is still to choose, so
    no turn passes to him: the table's agreement must still reach him, pinged in a new post."""
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol], game="city-of-iron", seed=9)

        def plain(choices):
            preferred = ("Tax", "Done choosing", "Bid 0")
            return next((c for c in choices if c[0].startswith(preferred)), choices[0])

        for _ in range(120):
            if _buying(w):
                break
            for user in (alice, bob, carol):
                if await take_turn(w, "table", user, plain):
                    await w.settle()
                    break
        assert _buying(w), w.turn_messages()[-1].content
        assert await take_turn(w, "table", bob, lambda c: next(x for x in c if x[0].startswith("Buy ")))
        await w.settle()

        asked = await bob.slash(table, "undo")
        vote = asked.message.id
        ids = {label: cid for label, cid, _ in w.server.world.messages[vote].buttons()}
        await alice.click(vote, ids["Approve"])
        seen = len(w.server.message_versions)
        await carol.click(vote, ids["Approve"])
        await w.settle()
        assert "Everyone agreed" in w.server.world.messages[vote].content
        assert not w.server.world.messages[vote].buttons(), "the decided vote kept its buttons"
        pinged = [
            m
            for m in w.server.message_versions[seen:]
            if m.channel_id == table and not m.ephemeral and bob.id in m.pinged_users
        ]
        assert pinged, "bob asked for the undo and was never told that the table agreed"
        assert "took back" in pinged[0].content, pinged[0].content
        assert not any("took back" in m.content for m in bob.dms()), "the outcome is public: no DM"
        assert not w.server.errors, w.server.errors


async def test_a_bundle_asking_too_much_says_how_much_there_is_in_words(tmp_path):
    """Issue 36: 'every refusal names what was wrong', counts via the words helper. Iron Bridge Gorge's
    trade phase: alice offers bob one coin more than she has; the refusal counts her coins in words."""
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol], game="iron-bridge-gorge", seed=11)
        await _play_until_trade_phase(w, ["alice", "bob", "carol"], "alice")
        game = await w.bot.service.store.latest_game_in(table)
        state = await w.bot.service.state(game)
        seats = await w.bot.service.store.seats(game.id)
        coins = state.players[next(s.seat for s in seats if s.name == "alice")].coins

        menu = await _open_menu(w, alice)
        compose = next(cid for label, cid in menu_choices(menu) if label.startswith("🤝"))
        composer = await alice.click(menu.message.id, compose)
        partner = next(
            cid for label, cid, _ in alice.buttons(composer.message.id) if label == "Trade with bob"
        )
        form = await alice.click(composer.message.id, partner)
        refused = await alice.submit_modal(form, {"give": f"{coins + 1} coins", "get": ""})
        expected = f"You have only {coins} coin{'s' if coins != 1 else ''}."
        assert expected in refused.content, refused.content
        assert "×" not in refused.content


async def test_a_moderator_agreeing_last_as_a_player_ends_it_by_vote_not_alone(tmp_path):
    """README: '`/game abandon` | players (all must agree) or a moderator'. bob asks, carol agrees, and
    alice, a player who is also a moderator, agrees last: every player agreed, so the channel is told
    the players voted, not that a moderator abandoned their game."""
    async with world(tmp_path) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        table = w.channels["table"]
        w.server.set_permissions(w.guild, alice.id, MANAGE_CHANNELS)
        await open_game(w, "table", alice, [bob, carol], seed=3)
        await bob.slash(table, "game abandon")
        await carol.slash(table, "game abandon")
        done = await alice.slash(table, "game abandon")
        await w.settle()
        assert "abandoned" in done.content, done.content
        said = w.last_public()
        assert "abandoned by vote of the players" in said.content, said.content
        assert "moderator" not in said.content
        assert sorted(said.pinged_users) == sorted([bob.id, carol.id])


async def test_a_trade_offered_to_a_computer_leaves_no_outdated_withdraw_button(tmp_path):
    """Issue 36: 'never a live button on a message that is no longer the turn. A trade offered to a
    computer is answered in the same post as the offer.' The offer's confirmation must not offer
    'Withdraw the trade offer': the computer has answered before anyone could press it."""
    async with world(tmp_path, users=("alice", "bob")) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], game="iron-bridge-gorge", seed=7, ai=1)
        await _play_until_trade_phase(w, ["alice", "bob"], "alice")

        menu = await _open_menu(w, alice)
        compose = next(cid for label, cid in menu_choices(menu) if label.startswith("🤝"))
        composer = await alice.click(menu.message.id, compose)
        partner = next(
            cid for label, cid, _ in alice.buttons(composer.message.id) if label == "Trade with AI 1"
        )
        form = await alice.click(composer.message.id, partner)
        sent = await alice.submit_modal(form, {"give": "1 coin", "get": ""})
        assert sent.content.startswith("✅"), sent.content
        await w.settle()
        labels = [label for label, _, disabled in alice.buttons(sent.message.id) if not disabled]
        assert "Withdraw the trade offer" not in labels, labels
        post = w.turn_messages()[-1]
        assert "proposed a trade to AI 1" in post.content and "AI 1 " in post.content.split("proposed")[1]
        assert not w.server.errors, w.server.errors


async def test_catchup_after_the_end_tells_how_the_game_ended(tmp_path):
    """README: '/catchup: what happened since your last move'. A player back after the game ended is
    told how it ended, not refused with 'nothing more can be played, undone or changed' (catching up
    plays, undoes and changes nothing)."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], seed=5)
        await play_out(w, "table", [alice, bob])
        assert is_over(w)
        caught = await bob.slash(table, "catchup")
        assert not caught.content.startswith("⚠️"), caught.content
        assert "Since your last turn" in caught.content, caught.content
        assert caught.files, "the board with what changed since bob's last move"


async def test_the_local_console_survives_an_answer_slower_than_it_waits(tmp_path, monkeypatch, capsys):
    """README: '`python -m bot --local` runs the real bot against a Discord emulator'. A deferred answer
    that comes after the console stops waiting (a replay drawn on a busy machine) is reported in one
    line and the session goes on; it used to end the whole console with a traceback."""
    from bot.interface import console

    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], seed=5)
        await play_out(w, "table", [alice, bob])
        session = console.Console(
            server=w.server,
            settings=w.bot.settings,
            out_dir=tmp_path,
            channels={"table": w.channels["table"]},
            users={"alice": alice, "bob": bob},
        )
        monkeypatch.setattr(console, "ANSWER_SECONDS", 0.0)  # nothing deferred comes back in 0 s
        assert await session.handle("alice> /game replay") is True
        assert "did not answer in time" in capsys.readouterr().out
        assert await session.handle("alice> /log") is True
        assert "Latest moves" in capsys.readouterr().out


async def test_a_computer_seat_choosing_alongside_leaves_the_players_menu(tmp_path):
    """City of Iron's end of round: every player, the computer seat too, 'secretly chooses which cards
    to buy'. The computer choosing alongside answers nobody: the player whose move opened the round's
    end keeps their menu in the confirmation ('Your turn continues'), with no 'answers first' note."""
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        await open_game(w, "table", alice, [bob, carol], game="city-of-iron", seed=5, ai=1)

        def plain(choices):
            preferred = ("Tax", "Done choosing", "Bid 0")
            return next((c for c in choices if c[0].startswith(preferred)), choices[0])

        for _ in range(120):
            if _buying(w):
                break
            for user in (alice, bob, carol):
                if await take_turn(w, "table", user, plain):
                    await w.settle()
                    break
        assert _buying(w), w.turn_messages()[-1].content
        confirmations = [m.content for m in w.server.world.messages.values() if m.ephemeral]
        assert not any("answers first" in text for text in confirmations)
        assert any("buy, in secret" in text and "Your turn continues" in text for text in confirmations), [
            t for t in confirmations if "secret" in t
        ]
