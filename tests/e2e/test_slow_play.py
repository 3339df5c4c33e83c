"""Slow play over days, through the emulator with an injected clock: nothing here sleeps.

The fake clock starts at 08:00 UTC.
"""

from __future__ import annotations

import pytest

from bot.emulator.driver import EmulatorUsageError
from rules import registry
from tests.e2e.harness import MANAGE_CHANNELS, is_over, open_game, play_out, take_turn, world

MANAGE_GUILD = 1 << 5


def reminders(w, channel: str = "table"):
    return [m for m in w.public(channel) if m.content.startswith("⏰")]


async def _lobby_with_clock(w, host, others, **clock):
    table = w.channels["table"]
    await host.slash(table, "game new", game="test-highcard", seed=5)
    set_clock = await host.slash(table, "game clock", **clock)
    assert "Table clock" in set_clock.content, set_clock.content
    for user in others:
        await user.slash(table, "game join")
    await host.slash(table, "game start")
    await w.settle()


async def test_reminder_after_the_delay_once_and_again_after_a_restart(tmp_path, store_url):
    async with world(tmp_path, database_url=store_url) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await _lobby_with_clock(w, alice, [bob], reminder_hours=12)
        assert await w.advance(11) == 0
        assert reminders(w) == []
        assert await w.advance(2) == 2  # alice and bob both owe a pledge
        pinged = reminders(w)
        assert len(pinged) == 2
        assert {f"<@{alice.id}>" in m.content or f"<@{bob.id}>" in m.content for m in pinged} == {True}
        assert "https://discord.com/channels/" in pinged[0].content
        assert any(m.content.startswith("⏰") for m in bob.dms())
        assert await w.advance(1) == 0  # not doubled
        await w.restart_bot()  # stored in the database: the next reminder survives the restart
        assert await w.advance(12) == 2
        assert len(reminders(w)) == 4
        assert "reminder 2" in reminders(w)[-1].content
        assert not w.server.errors, w.server.errors


async def test_acting_clears_the_reminder(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await _lobby_with_clock(w, alice, [bob], reminder_hours=12)
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        assert await w.advance(13) == 1  # alice's timer was cleared when she pledged
        pinged = reminders(w)
        assert len(pinged) == 1 and f"<@{bob.id}>" in pinged[0].content


async def test_quiet_hours_postpone_a_reminder(tmp_path):
    """Reminder due at 20:00 UTC; bob's quiet hours 19-07 at UTC+1 (18-06 UTC) push it to 06:00 UTC."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        quiet = await bob.slash(w.channels["table"], "me quiet", start=19, end=7, utc_offset=1.0)
        assert "Quiet hours 19:00" in quiet.content and quiet.ephemeral
        await _lobby_with_clock(w, alice, [bob], reminder_hours=12)
        await w.advance(12.5)  # 20:30 UTC
        assert [m for m in reminders(w) if f"<@{bob.id}>" in m.content] == []
        assert [m for m in reminders(w) if f"<@{alice.id}>" in m.content]
        await w.advance(9)  # 05:30 UTC: still quiet
        assert [m for m in reminders(w) if f"<@{bob.id}>" in m.content] == []
        await w.advance(1)  # 06:30 UTC
        assert len([m for m in reminders(w) if f"<@{bob.id}>" in m.content]) == 1


async def test_deadline_skip_keeps_waiting_when_no_pass_and_passes_when_allowed(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await _lobby_with_clock(w, alice, [bob], reminder_hours=0, deadline_hours=24, on_timeout="skip")
        turn = w.turn_messages()[-1]
        assert "Deadline <t:" in turn.content
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        await w.advance(25)  # bob must pledge: no pass exists
        waiting = [m for m in w.public() if m.content.startswith("⌛")]
        assert len(waiting) == 1 and "keeps waiting" in waiting[0].content
        await take_turn(w, "table", bob, lambda c: c[0])
        await w.settle()
        # draw phase: alice may pass; her deadline passes
        await w.advance(25)
        last = w.turn_messages()[-1]
        assert "alice ran out of time; the clock played **Pass** for them." in last.content
        game = await w.bot.service.store.latest_game_in(w.channels["table"])
        log = await w.bot.service.store.actions(game.id)
        assert log[-1].action == {"kind": "pass"} and log[-1].user_id == 0
        assert not w.server.errors, w.server.errors


async def test_deadline_default_plays_a_safe_move(tmp_path, store_url):
    async with world(tmp_path, database_url=store_url) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await _lobby_with_clock(w, alice, [bob], reminder_hours=0, deadline_hours=6, on_timeout="default")
        await w.advance(7)
        notes = [m.content for m in w.turn_messages() if "ran out of time" in m.content]
        assert len(notes) == 2  # both pledged their first card
        game = await w.bot.service.store.latest_game_in(w.channels["table"])
        assert [r.action["kind"] for r in await w.bot.service.store.actions(game.id)] == [
            "pledge",
            "pledge",
        ]


async def test_deadline_replace_lets_a_substitute_take_the_seat_with_its_cards(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "dave")) as w:
        alice, bob, dave = w.users["alice"], w.users["bob"], w.users["dave"]
        await _lobby_with_clock(w, alice, [bob], reminder_hours=0, deadline_hours=24, on_timeout="replace")
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        bob_dms_before = len(bob.dms())
        await w.advance(25)
        dropped = next(m for m in w.public() if "was dropped" in m.content)
        assert "bob ran out of time" in dropped.content
        ((label, custom_id, _),) = dave.buttons(dropped.id)
        assert label == "Take bob's seat"
        refused = await alice.click(dropped.id, custom_id)
        assert refused.ephemeral and "already playing" in refused.content
        taken = await dave.click(dropped.id, custom_id)
        assert taken.ephemeral and "The seat is yours" in taken.content
        again = await dave.click(dropped.id, custom_id)  # the same button pressed twice
        assert again.ephemeral and again.content == "⚠️ Already decided: you took this seat."
        await w.settle()
        assert w.last_public().content.endswith(f"<@{dave.id}> takes the empty seat and plays on.")
        game = await w.bot.service.store.latest_game_in(w.channels["table"])
        state = await w.bot.service.state(game)
        dave_dm = dave.dms()[-1]
        assert "You took over this seat" in dave_dm.content and dave_dm.attachments
        assert len(bob.dms()) == bob_dms_before  # the old player gets nothing more
        seats = await w.bot.service.store.seats(game.id)
        assert seats[1].user_id == dave.id and seats[1].name == "dave"
        assert await take_turn(w, "table", dave, lambda c: c[0])
        await w.settle()
        assert state.hands[1]  # dave played from bob's hand
        assert not await take_turn(w, "table", bob, lambda c: c[0])


async def test_vacation_pauses_the_clock(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await _lobby_with_clock(w, alice, [bob], reminder_hours=12, deadline_hours=48, on_timeout="default")
        away = await bob.slash(w.channels["table"], "game vacation", on=True)
        assert "on vacation" in away.content
        await w.advance(60)
        assert not [m for m in reminders(w) if f"<@{bob.id}>" in m.content]
        game = await w.bot.service.store.latest_game_in(w.channels["table"])
        assert all(r.seat != 1 for r in await w.bot.service.store.actions(game.id))
        await bob.slash(w.channels["table"], "game vacation", on=False)
        await w.advance(13)
        assert [m for m in reminders(w) if f"<@{bob.id}>" in m.content]


async def test_replace_by_consent_or_by_a_moderator(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "carol", "dave", "mod")) as w:
        alice, bob, carol, dave, mod = (w.users[n] for n in ("alice", "bob", "carol", "dave", "mod"))
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol], seed=3)
        asked = await alice.slash(table, "game replace", old=bob.id, new=dave.id)
        assert "Still to agree: carol" in asked.content
        ids = {label: cid for label, cid, _ in carol.buttons(asked.message.id)}
        intruder = await dave.click(asked.message.id, ids["Approve"])
        assert intruder.ephemeral and "Only the players" in intruder.content
        agreed = await carol.click(asked.message.id, ids["Approve"])
        assert "now plays in" in agreed.content
        await w.settle()
        assert dave.dms() and dave.dms()[-1].attachments
        game = await w.bot.service.store.latest_game_in(table)
        seats = await w.bot.service.store.seats(game.id)
        assert [s.user_id for s in seats] == [alice.id, dave.id, carol.id]
        w.server.set_permissions(w.guild, mod.id, MANAGE_CHANNELS)
        forced = await mod.slash(table, "game replace", old=carol.id, new=bob.id)
        assert "now plays in" in forced.content
        assert not w.server.errors, w.server.errors


async def test_undo_with_the_tables_approval_and_not_after_a_reveal(tmp_path, store_url):
    async with world(tmp_path, database_url=store_url) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], seed=4)
        game = await w.bot.service.store.latest_game_in(table)
        before = registry.get(game.kind).dump_state(await w.bot.service.state(game))
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        not_mine = await bob.slash(table, "undo")
        assert not_mine.ephemeral and "your own move" in not_mine.content
        asked = await alice.slash(table, "undo")
        assert "asks to take back" in asked.content and "Waiting for: bob" in asked.content
        ids = {label: cid for label, cid, _ in bob.buttons(asked.message.id)}
        self_vote = await alice.click(asked.message.id, ids["Approve"])
        assert self_vote.ephemeral and "the other players decide" in self_vote.content
        done = await bob.click(asked.message.id, ids["Approve"])
        assert "taken back" in done.content
        await w.settle()
        game = await w.bot.service.store.latest_game_in(table)
        assert registry.get(game.kind).dump_state(await w.bot.service.state(game)) == before
        states = await w.bot.service.replay(game)
        assert registry.get(game.kind).dump_state(states[-1]) == game.state
        assert "took back their last move" in w.turn_messages()[-1].content
        # a move that revealed cards (the pledges are revealed when the last one is made) cannot be undone
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        await take_turn(w, "table", bob, lambda c: c[0])
        await w.settle()
        refused = await bob.slash(table, "undo")
        assert refused.ephemeral and "revealed hidden information" in refused.content


async def test_follow_history_list_and_mygames(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "dave")) as w:
        alice, bob, dave = w.users["alice"], w.users["bob"], w.users["dave"]
        await open_game(w, "table", alice, [bob], seed=7, options="rounds=1")
        await open_game(w, "other", bob, [alice], seed=8, options="rounds=1")
        follow = await dave.slash(w.channels["table"], "game follow", mode="dm")
        assert follow.ephemeral and "DM with every move" in follow.content
        mine = await alice.slash(w.channels["table"], "mygames")
        assert mine.ephemeral and mine.content.count("https://discord.com/channels/") == 2
        await play_out(w, "table", [alice, bob], seed=1)
        assert is_over(w)
        digest = dave.dms()
        assert digest and all(not m.attachments for m in digest)
        assert all("You pledged" not in m.content and "You drew" not in m.content for m in digest)
        history = await dave.slash(w.channels["table"], "game history")
        ((name, data, _),) = history.files
        text = data.decode()
        assert name.endswith("history.txt") and "alice pledged a card." in text and "Result:" in text
        assert "You pledged" not in text
        listing = await dave.slash(w.channels["table"], "game list", scope="channel")
        assert "finished" in listing.content and (
            "won by" in listing.content or "nobody won" in listing.content
        )
        mine = await alice.slash(w.channels["table"], "mygames")
        assert mine.content.count("https://discord.com/channels/") == 1  # only the other channel's game now
        assert not w.server.errors, w.server.errors


async def test_thread_follow_posts_moves_in_a_thread(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "dave")) as w:
        alice, bob, dave = w.users["alice"], w.users["bob"], w.users["dave"]
        await open_game(w, "table", alice, [bob], seed=7)
        follow = await dave.slash(w.channels["table"], "game follow", mode="thread")
        assert "will be posted in <#" in follow.content
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        # followers hear from the table at each new post, like the channel: bob's pledge hands it on
        await take_turn(w, "table", bob, lambda c: c[0])
        await w.settle()
        game = await w.bot.service.store.latest_game_in(w.channels["table"])
        thread_id = (await w.bot.service.store.message(game.id, "thread"))[0]
        posts = w.server.public_messages(thread_id)
        assert any("alice pledged a card." in m.content for m in posts)
        assert not w.server.errors, w.server.errors


async def test_server_settings_need_manage_server_and_are_enforced(tmp_path):
    async with world(tmp_path, users=("alice", "owner")) as w:
        alice, owner = w.users["alice"], w.users["owner"]
        with pytest.raises(EmulatorUsageError):
            await alice.slash(w.channels["table"], "settings reminders", hours=6)
        w.server.set_permissions(w.guild, owner.id, MANAGE_GUILD)
        shown = await owner.slash(w.channels["table"], "settings reminders", hours=6)
        assert "after 6 hours" in shown.content
        turned = await owner.slash(w.channels["table"], "settings game", game="test-highcard", enabled=False)
        assert "Games turned off: High Card (test game)" in turned.content, "a game's name, not its id"
        off = await alice.slash(w.channels["table"], "game new", game="test-highcard")
        assert off.ephemeral and "turned off" in off.content
        await owner.slash(w.channels["table"], "settings game", game="test-highcard", enabled=True)
        await owner.slash(w.channels["table"], "settings channel", channel=w.channels["other"])
        elsewhere = await alice.slash(w.channels["table"], "game new", game="test-highcard")
        assert elsewhere.ephemeral and "Games are played in" in elsewhere.content
        here = await alice.slash(w.channels["other"], "game new", game="test-highcard")
        assert not here.ephemeral
        game = await w.bot.service.store.latest_game_in(w.channels["other"])
        assert (await w.bot.service.table_settings(game)).reminder_hours == 6
        assert not w.server.errors, w.server.errors


async def test_the_confirmation_offers_undo_when_the_move_revealed_nothing(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], seed=4)
        turn = w.turn_messages()[-1]
        menu = await alice.click(
            turn.id, next(c for _, c, _ in alice.buttons(turn.id) if c.endswith(":menu"))
        )
        done = await alice.click(menu.message.id, next(c for _, c, _ in alice.buttons(menu.message.id)))
        undo = next(c for label, c, _ in alice.buttons(done.message.id) if label.startswith("Undo"))
        asked = await alice.click(done.message.id, undo)
        assert "asks to take back" in asked.content and not asked.ephemeral
        await w.settle()
        assert not w.server.errors, w.server.errors


async def test_catchup_shows_what_happened_since_my_last_move_privately(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], seed=9)
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        await take_turn(w, "table", bob, lambda c: c[0])
        await w.settle()
        caught = await alice.slash(table, "catchup")
        assert caught.ephemeral and caught.files
        assert "Since your last turn" in caught.content and "your last move was move 1" in caught.content
        assert "bob pledged a card." in caught.content and "Pledges revealed" in caught.content
        assert "You pledged" not in caught.content  # alice's own move is before the line
        bobs = await bob.slash(table, "catchup")  # the reveal was part of bob's own move
        assert "Nothing has happened" in bobs.content and "alice pledged" not in bobs.content
        assert not w.server.errors, w.server.errors


async def test_stats_and_leaderboard_come_from_the_stored_games(tmp_path):
    async with world(tmp_path, users=("alice", "bob")) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        for seed in (1, 2):
            await open_game(w, "table", alice, [bob], seed=seed, options="rounds=1")
            await play_out(w, "table", [alice, bob], seed=seed)
        service = w.bot.service
        games = [g for g in await service.store.list_games(channel_id=table) if g.status == "finished"]
        assert len(games) == 2
        from rules.core import Result

        wins = {alice.id: 0, bob.id: 0}
        for game in games:
            seats = await service.store.seats(game.id)
            for seat in Result.model_validate_json(game.result).winners:
                wins[seats[seat].user_id] += 1
        mine = await alice.slash(table, "stats")
        assert mine.ephemeral and f"2 played, {wins[alice.id]} won" in mine.content
        assert "Average time to move" in mine.content
        board = await bob.slash(table, "leaderboard", game="test-highcard")
        assert "Leaderboard" in board.content and "won of 2" in board.content
        assert not w.server.errors, w.server.errors


async def test_ratings_rank_the_leaderboard_and_show_in_stats(tmp_path):
    """Issue 21: ratings come from the stored results (openskill), per game, on this server and
    everywhere; /leaderboard ranks by rating with games played, /stats shows the rating and its trend."""
    async with world(tmp_path, users=("alice", "bob")) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        for seed in (1, 2, 3):
            await open_game(w, "table", alice, [bob], seed=seed, options="rounds=1")
            await play_out(w, "table", [alice, bob], seed=seed)
        service = w.bot.service
        standings = await service.ratings("test-highcard")
        assert set(standings) == {alice.id, bob.id}
        best, second = await service.leaderboard("test-highcard")
        assert best.rating >= second.rating and best.played == second.played == 3
        board = await bob.slash(table, "leaderboard", game="test-highcard")
        first_line = next(line for line in board.content.splitlines() if line.startswith("1. "))
        assert first_line == f"1. {best.name}: {best.rating:.1f} · {best.won} won of 3"
        everywhere = await bob.slash(table, "leaderboard", game="test-highcard", everywhere=True)
        assert "every server" in everywhere.content and first_line in everywhere.content
        mine = await alice.slash(table, "stats")
        mine_standing = standings[alice.id]
        assert f"rating {mine_standing.rating:.1f} (#" in mine.content and "everywhere (#" in mine.content
        assert "over the last 2 games" in mine.content
        assert not w.server.errors, w.server.errors


async def test_autopilot_plays_a_dropped_seat_until_a_substitute_takes_it(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "dave")) as w:
        alice, bob, dave = w.users["alice"], w.users["bob"], w.users["dave"]
        await _lobby_with_clock(w, alice, [bob], reminder_hours=0, deadline_hours=24, on_timeout="autopilot")
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        await w.advance(25)
        dropped = next(m for m in w.public() if "was dropped" in m.content)
        assert "The computer plays the seat" in dropped.content
        game = await w.bot.service.store.latest_game_in(w.channels["table"])
        log = await w.bot.service.store.actions(game.id)
        assert any(r.seat == 1 and r.user_id == 0 for r in log)  # the autopilot pledged for bob
        assert any("• 🤖 bob pledged" in m.content for m in w.turn_messages())
        ((_, custom_id, _),) = dave.buttons(dropped.id)
        await dave.click(dropped.id, custom_id)
        await w.settle()
        seats = await w.bot.service.store.seats(game.id)
        assert seats[1].user_id == dave.id and not seats[1].dropped
        assert not w.server.errors, w.server.errors


async def test_catchup_picture_marks_what_changed_from_public_views_only(tmp_path):
    """The picture compares the public board at the caller's last move with the public board now:
    the same bytes as drawing those two public views, never the caller's own hand."""
    from renderer.registry import render_changes

    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], seed=9)
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        await take_turn(w, "table", bob, lambda c: c[0])
        await w.settle()
        caught = await alice.slash(table, "catchup")
        ((name, png, alt),) = caught.files
        assert name.startswith("catchup-") and "Changed since your last move: Changed:" in alt
        service = w.bot.service
        game = await service.store.latest_game_in(table)
        rules = service.rules_for(game.kind)
        then, now = await service.state_at(game, 1), await service.state(game)
        public, _ = render_changes(rules.view(then, None), rules.view(now, None))
        private, _ = render_changes(rules.view(then, 0), rules.view(now, 0))
        assert png == public and png != private
        assert not w.server.errors, w.server.errors


async def test_catchup_frames_the_squares_that_changed_on_an_iron_and_brass_map(tmp_path):
    import io
    import re

    from PIL import Image

    from renderer.canvas import Palette
    from renderer.iron_and_brass import render

    def alt_lines(alt: str) -> list[str]:
        return alt.split("Changed since your last move: ", 1)[1].rstrip(".").split("; ")

    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], game="iron-and-brass", seed=4, options="board_size=10")

        def builder(choices):
            """Train and commission, then pick a square: the board fills up."""
            wanted = [c for c in choices if c[0].startswith(("Train", "Commission"))]
            others = [c for c in choices if not c[0].startswith(("Mine", "Hire", "End", "Cancel"))]
            return (wanted or others or choices)[0]

        def end_turn(choices):
            return next((c for c in choices if c[0].startswith("End")), choices[0])

        for _ in range(4):  # two builds: choose, then the square
            await take_turn(w, "table", alice, builder)
            await w.settle()
        await take_turn(w, "table", alice, end_turn)  # her last move; bob's builds come after it
        await w.settle()
        for _ in range(4):
            await take_turn(w, "table", bob, builder)
            await w.settle()
        caught = await alice.slash(table, "catchup")
        ((_, png, alt),) = caught.files
        assert re.search(r"Changed since your last move: .*\b[A-J]\d{1,2}: ", alt), alt
        game = await w.bot.service.store.latest_game_in(table)
        now = await w.bot.service.view(game, None)
        unframed = render(now)
        assert alt_lines(alt)

        def magenta(data: bytes) -> int:
            image = Image.open(io.BytesIO(data)).convert("RGB")
            return sum(n for n, color in image.getcolors(1 << 20) if color == Palette.changed)

        assert magenta(png) > magenta(unframed) + 1000  # the frames around the changed squares
        assert not w.server.errors, w.server.errors
