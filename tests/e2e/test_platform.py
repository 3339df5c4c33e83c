"""The foundation, end to end: the real discord.py bot against the emulator, as several users.

Each test plays through Discord interactions only (slash commands, buttons, selects) and checks what
each user could see.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.emulator.driver import InteractionFailed
from renderer.registry import render
from rules import registry
from tests.e2e.harness import menu_choices, open_game, play_out, take_turn, world


async def _replayed(w, channel: str):
    service = w.bot.service
    game = await service.store.latest_game_in(w.channels[channel])
    return game, await service.replay(game)


async def test_three_users_play_two_channels_at_once(tmp_path):
    """Two games at once in two channels, three users (bob and carol sit at both tables)."""
    async with world(tmp_path) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        await open_game(w, "table", alice, [bob, carol], seed=11)
        await open_game(w, "other", bob, [carol], seed=12, options="rounds=2")
        await asyncio.gather(
            play_out(w, "table", [alice, bob, carol], seed=1),
            play_out(w, "other", [bob, carol], seed=2),
        )
        for channel in ("table", "other"):
            game, states = await _replayed(w, channel)
            assert game.status == "finished"
            rules = registry.get(game.kind)
            result = rules.result(states[-1])
            assert result is not None
            assert rules.dump_state(states[-1]) == game.state  # the snapshot is the replay
            final = w.turn_messages(channel)[-1].content
            assert "Game over" in final and result.reason in final
            seats = await w.bot.service.store.seats(game.id)
            for place, group in enumerate(result.ranking, start=1):
                for seat in group:
                    assert f"{place}. {seats[seat].name} — {result.scores[seat]}" in final
        assert not w.server.errors, w.server.errors


async def test_spectator_sees_nothing_private(tmp_path):
    """Every channel message and image a spectator can see is built from public views only."""
    async with world(tmp_path, users=("alice", "bob", "dave")) as w:
        alice, bob, dave = w.users["alice"], w.users["bob"], w.users["dave"]
        await open_game(w, "table", alice, [bob], seed=5)
        await play_out(w, "table", [alice, bob], seed=3)
        game, states = await _replayed(w, "table")
        rules = registry.get(game.kind)
        public_images = {render(rules.view(state, None)) for state in states}
        private_lines = set()
        for record in await w.bot.service.store.actions(game.id):
            for event in record.events:
                private_lines.update(event["private"].values())
        hands = {str(card) for state in states for hand in state.hands for card in hand}
        seen = dave.visible(w.channels["table"])
        assert seen, "the spectator saw nothing at all"
        assert all(not message.ephemeral for message in seen)
        images = 0
        for message in seen:
            for line in private_lines:
                assert line not in message.content
            assert "You pledged" not in message.content and "You drew" not in message.content
            for attachment in message.attachments:
                images += 1
                assert attachment.data in public_images, f"{attachment.filename} is not a public view"
                alt = attachment.description or ""
                assert alt and "Players: alice" in alt, alt  # the alt text names the seats and who acts
                assert not any(line in alt for line in private_lines), alt
                assert "You pledged" not in alt and "You drew" not in alt
        assert images >= 3
        assert hands  # the game had hidden cards to leak
        assert not w.server.errors, w.server.errors


async def test_restart_mid_game_old_buttons_still_work(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], seed=21)
        turn = w.turn_messages()[-1]
        menu = await alice.click(
            turn.id, next(cid for _, cid, _ in alice.buttons(turn.id) if cid.endswith(":menu"))
        )
        old_choice = menu_choices(menu)[0]
        await w.restart_bot()
        # The buttons of a message posted by the previous process still work.
        applied = await alice.click(menu.message.id, old_choice[1])
        assert applied.content.startswith("✅"), applied.content
        await w.settle()
        again = await bob.click(
            turn.id, next(cid for _, cid, _ in bob.buttons(turn.id) if cid.endswith(":menu"))
        )
        assert not again.content.startswith("⚠️"), again.content
        await play_out(w, "table", [alice, bob], seed=4)
        game, states = await _replayed(w, "table")
        assert game.status == "finished" and registry.get(game.kind).dump_state(states[-1]) == game.state
        assert not w.server.errors, w.server.errors


async def test_same_button_clicked_twice_at_once_applies_once(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], seed=8)
        turn = w.turn_messages()[-1]
        menu_id = next(cid for _, cid, _ in alice.buttons(turn.id) if cid.endswith(":menu"))
        alice_menu = await alice.click(turn.id, menu_id)
        bob_menu = await bob.click(turn.id, menu_id)
        a_choice = menu_choices(alice_menu)[0][1]
        b_choice = menu_choices(bob_menu)[0][1]
        # alice double-clicks (two devices), bob clicks at the same moment: a simultaneous step.
        results = await asyncio.gather(
            alice.click(alice_menu.message.id, a_choice),
            alice.click(alice_menu.message.id, a_choice),
            bob.click(bob_menu.message.id, b_choice),
        )
        assert sum(r.content.startswith("✅") for r in results[:2]) == 1, [r.content for r in results]
        assert results[2].content.startswith("✅"), results[2].content
        refused = next(r for r in results[:2] if not r.content.startswith("✅"))
        assert refused.content.startswith("⚠️") and refused.ephemeral
        await w.settle()
        game = await w.bot.service.store.latest_game_in(w.channels["table"])
        log = await w.bot.service.store.actions(game.id)
        assert sorted(record.seat for record in log[:2]) == [0, 1]
        assert len([r for r in log if r.seat == 0 and r.action["kind"] == "pledge"]) == 1
        assert not w.server.errors, w.server.errors


async def test_closed_dms_fall_back_to_hand_command(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        w.server.set_dms_open(w.users["bob"].id, False)
        await open_game(w, "table", alice, [bob], seed=9)
        assert alice.dms(), "alice has open DMs and gets her hand"
        assert not bob.dms()
        notices = [m for m in w.public() if "cannot send you direct messages" in m.content]
        assert len(notices) == 1 and f"<@{bob.id}>" in notices[0].content
        assert not notices[0].attachments
        hand = await bob.slash(w.channels["table"], "hand")
        assert hand.ephemeral and hand.files
        game, states = await _replayed(w, "table")
        expected = render(registry.get(game.kind).view(states[-1], 1))
        assert hand.files[0][1] == expected
        # One more move: the notice is not repeated.
        await take_turn(w, "table", bob, lambda choices: choices[0])
        await w.settle()
        assert len([m for m in w.public() if "cannot send you direct messages" in m.content]) == 1
        assert not w.server.errors, w.server.errors


async def test_slow_work_is_deferred_in_time_and_a_late_answer_fails(tmp_path, monkeypatch):
    """Discord drops an interaction not answered within 3 s: the bot defers; without that the test fails."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], seed=2)
        service = w.bot.service
        original = service.play
        delay = {"seconds": 2.6}

        async def slow_play(*args, **kwargs):
            await asyncio.sleep(delay["seconds"])
            return await original(*args, **kwargs)

        monkeypatch.setattr(service, "play", slow_play)
        assert await take_turn(w, "table", alice, lambda choices: choices[0])
        assert not w.server.errors, w.server.errors

        import bot.interface.reply

        monkeypatch.setattr(bot.interface.reply, "DEFER_AFTER", 30.0)
        delay["seconds"] = 3.4
        with pytest.raises(InteractionFailed):
            await take_turn(w, "table", bob, lambda choices: choices[0])
        assert w.server.errors
        w.server.errors.clear()
        await w.settle()


async def test_lobby_by_buttons_and_option_select(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="test-highcard")
        lobby = w.public()[-1]
        ids = {label: cid for label, cid, _ in alice.buttons(lobby.id)}
        joined = await bob.click(lobby.id, ids["Join"])
        assert f"<@{bob.id}>" in joined.content
        refused = await bob.click(lobby.id, ids["Join"])
        assert refused.ephemeral and "already" in refused.content
        rounds_select = next(
            c["custom_id"]
            for row in lobby.components
            for c in row["components"]
            if c.get("type") == 3 and c["custom_id"].endswith(":rounds")
        )
        not_host = await bob.select(lobby.id, rounds_select, ["5"])
        assert not_host.ephemeral and "Only the host" in not_host.content
        changed = await alice.select(lobby.id, rounds_select, ["5"])
        assert "Rounds: 5" in changed.content
        started = await alice.click(lobby.id, ids["Start"])
        assert "has started" in started.content
        await w.settle()
        game = await w.bot.service.store.latest_game_in(table)
        assert game.options["rounds"] == 5 and game.status == "active"
        closed = w.server.message(lobby.id)
        assert not closed.components, "the lobby's buttons are removed once the game starts"
        assert not w.server.errors, w.server.errors


@pytest.mark.parametrize(
    ("who", "command", "options", "expected"),
    [
        ("alice", "game new", {"game": "no-such-game"}, "There is no game called"),
        ("alice", "game new", {"game": "test-highcard", "options": "colour=red"}, "Unknown option"),
        ("alice", "game new", {"game": "test-highcard", "options": "rounds=99"}, "between 1 and 10"),
        ("alice", "game new", {"game": "test-highcard", "options": "rounds"}, "name=value"),
        ("alice", "game join", {}, "no game in this channel"),
        ("alice", "play", {"move": "pledge 3"}, "no game in this channel"),
        ("alice", "hand", {}, "no game in this channel"),
    ],
)
async def test_bad_input_is_refused_ephemerally_and_changes_nothing(
    tmp_path, who, command, options, expected
):
    async with world(tmp_path) as w:
        result = await w.users[who].slash(w.channels["table"], command, **options)
        assert result.ephemeral and result.content.startswith("⚠️") and expected in result.content, (
            result.content
        )
        assert await w.bot.service.store.latest_game_in(w.channels["table"]) is None
        assert "Traceback" not in result.content
        assert not w.server.errors, w.server.errors


async def test_refusals_during_a_game(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "carol", "dave")) as w:
        alice, bob, carol, dave = (w.users[n] for n in ("alice", "bob", "carol", "dave"))
        table = w.channels["table"]
        await alice.slash(table, "game new", game="test-highcard", seed=1)
        early = await alice.slash(table, "play", move="pledge 1")
        assert "has not started" in early.content
        await bob.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        game = await w.bot.service.store.latest_game_in(table)
        before = game.version

        async def refused(user, command, text, **options):
            result = await user.slash(table, command, **options)
            assert result.ephemeral and result.content.startswith("⚠️"), result.content
            assert text in result.content, result.content

        await refused(carol, "play", "not playing", move="pledge 1")
        await refused(alice, "play", "is not one of your moves", move="fly to the moon")
        await refused(alice, "game new", "already has a game", game="test-highcard")
        await refused(carol, "game join", "already started")
        await refused(bob, "game leave", "cannot leave")
        await refused(dave, "game abandon", "Only the players")
        # typed moves work: alice pledges by typing the label
        state = await w.bot.service.state(game)
        typed = await alice.slash(table, "play", move=f"Pledge {state.hands[0][0]}")
        assert typed.content.startswith("✅"), typed.content
        await refused(alice, "play", "not your turn", move="pledge 1")
        assert (await w.bot.service.store.game(game.id)).version == before + 1
        await w.settle()
        assert not w.server.errors, w.server.errors


async def test_autocomplete_offers_only_the_callers_legal_moves(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        alice, bob, carol = w.users["alice"], w.users["bob"], w.users["carol"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], seed=4)
        game = await w.bot.service.store.latest_game_in(table)
        state = await w.bot.service.state(game)
        offered = await alice.autocomplete(table, "play", focused="move", value="")
        assert sorted(c["name"] for c in offered) == sorted(f"Pledge {card}" for card in state.hands[0])
        assert await carol.autocomplete(table, "play", focused="move", value="") == []
        picked = await alice.slash(table, "play", move=offered[0]["value"])
        assert picked.content.startswith("✅")
        assert await alice.autocomplete(table, "play", focused="move", value="") == []  # pledged already
        await w.settle()
        assert not w.server.errors, w.server.errors


async def test_abandon_needs_every_player_or_a_moderator(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "mod")) as w:
        alice, bob, mod = w.users["alice"], w.users["bob"], w.users["mod"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob])
        vote = await alice.slash(table, "game abandon")
        assert "Still to agree" in vote.content and "bob" in vote.content
        assert (await w.bot.service.store.open_game_in(table)) is not None
        done = await bob.slash(table, "game abandon")
        assert "abandoned" in done.content
        assert (await w.bot.service.store.open_game_in(table)) is None
        await open_game(w, "table", alice, [bob])
        w.server.set_permissions(w.guild, mod.id, 1 << 4)  # Manage Channels
        forced = await mod.slash(table, "game abandon")
        assert "abandoned" in forced.content
        await w.settle()
        assert not w.server.errors, w.server.errors


async def test_board_log_and_status_for_everyone(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "dave")) as w:
        alice, bob, dave = w.users["alice"], w.users["bob"], w.users["dave"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], seed=3)
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        board = await dave.slash(table, "board")
        assert board.ephemeral and board.files
        log = await dave.slash(table, "log")
        assert "alice pledged a card." in log.content and "You pledged" not in log.content
        status = await dave.slash(table, "game status")
        assert "High Card" in status.content and "alice" in status.content
        public_board = await dave.slash(table, "board", public=True)
        assert not public_board.ephemeral
        await w.settle()
        assert not w.server.errors, w.server.errors


def test_random_seed_module_is_not_used_by_rules():
    """The rules core draws only from the state's RNG: the global random module stays untouched."""
    random.seed(1)
    expected = random.random()
    random.seed(1)
    game = registry.get("test-highcard")
    state = game.setup(["a", "b"], {}, seed=3)
    game.apply(state, 0, game.legal_actions(state, 0)[0].action)
    assert random.random() == expected


async def test_a_move_whose_announcement_was_lost_is_posted_after_restart(tmp_path, monkeypatch, store_url):
    """The process dies between committing a move and delivering its post, holding the outbox rows it
    had claimed: the restarted bot takes them back and posts them, once."""
    async with world(tmp_path, database_url=store_url) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], seed=6)
        posted_before = len(w.turn_messages())

        async def die_holding_the_claim(queue):
            return None  # claimed, never sent, never released: what a SIGKILL leaves

        monkeypatch.setattr(w.bot.courier, "_deliver_game", die_holding_the_claim)
        assert await take_turn(w, "table", alice, lambda choices: choices[0])
        await w.server.settle()
        assert len(w.turn_messages()) == posted_before
        assert not any("alice pledged a card." in m.content for m in w.turn_messages())
        await w.restart_bot()
        await w.settle()
        turns = w.turn_messages()
        # bob still has to pledge, so the move edits the live post (no new post, no ping)
        assert len(turns) == posted_before
        assert "alice pledged a card." in turns[-1].content
        versions = len(w.server.message_versions)
        await w.restart_bot()  # nothing is owed any more: nothing is sent again
        await w.settle()
        assert len(w.turn_messages()) == posted_before
        assert len(w.server.message_versions) == versions
        assert not w.server.errors, w.server.errors


async def test_board_overlays_are_offered_and_drawn(tmp_path):
    """Games may offer extra pictures (Iron & Brass: a unit's range); unknown ones are refused kindly."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="iron-and-brass", seed=2)
        await bob.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        offered = await bob.autocomplete(table, "board", focused="section", value="")
        assert "range" in [c["value"] for c in offered]
        missing = await bob.slash(table, "board", section="range")
        assert missing.ephemeral and "target:" in missing.content
        unknown = await bob.slash(table, "board", section="weather")
        assert unknown.ephemeral and "no 'weather' section" in unknown.content
        game = await w.bot.service.store.latest_game_in(table)
        view = await w.bot.service.view(game, None)
        square = view.pieces[0].square
        drawn = await bob.slash(table, "board", section="range", target=square)
        assert drawn.ephemeral and drawn.files and drawn.files[0][1][:4] == b"\x89PNG"
        assert not w.server.errors, w.server.errors


async def _edited_to(w, message_id: int, prefix: str, seconds: float = 30.0):
    """The message once its picture is the one named `prefix…`: a deferred press (drawing took over
    2 s on a busy machine) edits it after the click has returned."""
    for _ in range(int(seconds / 0.1)):
        shown = w.server.world.messages[message_id]
        if shown.attachments and shown.attachments[0].filename.startswith(prefix):
            return shown
        await asyncio.sleep(0.1)
    return w.server.world.messages[message_id]


async def test_the_board_carries_a_button_per_section(tmp_path):
    """Issue 19: detail a phone-sized turn picture leaves out is one press away. `/board` (and the
    turn post's Board button) answers with the board and a button per section of the game; pressing
    one replaces the picture with that section, the shown one greyed out, and Board goes back."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="city-heroes", seed=2)
        await bob.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        from renderer.registry import overlays_for

        sections = [o.name for o in overlays_for("city-heroes").values() if not o.target]
        assert "buyable" in sections
        board = await bob.slash(table, "board")
        assert board.ephemeral and board.files
        from renderer.city_heroes import KEY

        ((_, _, alt),) = board.files
        assert "Key: " + KEY[:40] in alt, "the picture's alt text explains its symbols"
        buttons = board.message.buttons()
        assert [label for label, _, _ in buttons] == ["Board", *(name.capitalize() for name in sections)]
        assert [disabled for _, _, disabled in buttons] == [True] + [False] * len(sections)
        buyable = next(cid for label, cid, _ in buttons if label == "Buyable")
        pressed = await bob.click(board.message.id, buyable)
        # an update of the board's message: at once (7), or deferred (6) when drawing took over 2 s
        assert pressed.type in (6, 7), "the section replaces the board picture it sits under"
        shown = await _edited_to(w, board.message.id, "buyable-")
        assert shown.attachments and shown.attachments[0].filename.startswith("buyable-")
        assert dict((label, disabled) for label, _, disabled in shown.buttons())["Buyable"] is True
        back = next(cid for label, cid, _ in shown.buttons() if label == "Board")
        await bob.click(board.message.id, back)
        shown = await _edited_to(w, board.message.id, "board-")
        assert shown.attachments[0].filename.startswith("board-")
        public = await bob.slash(table, "board", public=True)
        assert not public.ephemeral and not public.message.buttons(), (
            "a public board carries no one's buttons"
        )
        assert not w.server.errors, w.server.errors


async def test_an_unexpected_failure_is_logged_and_answered_with_an_apology(tmp_path, caplog):
    """Every command goes through the one error path (leaving `async with Reply(...)`): a bug in a
    handler is logged with its traceback and the user gets one ephemeral apology, never silence."""
    async with world(tmp_path) as w:
        alice = w.users["alice"]

        async def broken(*args, **kwargs):
            raise RuntimeError("a bug")

        w.bot.service.stats = broken
        with caplog.at_level("ERROR"):
            said = await alice.slash(w.channels["table"], "stats")
        assert said.ephemeral and said.content.startswith("⚠️ Something went wrong on our side")
        assert any(record.exc_info and "a bug" in str(record.exc_info[1]) for record in caplog.records)
