"""The table speaks once per handoff, and every word it owes arrives exactly once (issue 18).

Played through the emulator with the real discord.py client: the posts a game makes against the
handoffs of its log (replayed with the rules core), the pings each post carries, edits in place while
a seat acts on, the `every_move` table option, and delivery under Discord faults (503, 429, a lost
answer after the message was created, a deleted channel, closed DMs).
"""

from __future__ import annotations

import re
from collections import Counter

from bot.emulator.model import P_SEND_MESSAGES, P_VIEW_CHANNEL, StoredMessage
from tests.e2e.harness import World, open_game, play_out, world
from tests.quality.support import handoffs, shows_move


async def _log(w: World):
    game = await w.bot.service.store.latest_game_in(w.channels["table"])
    states = await w.bot.service.replay(game)
    records = await w.bot.service.store.actions(game.id)
    seats = await w.bot.service.store.seats(game.id)
    return game, states, records, seats


def _as_posted(w: World, message: StoredMessage) -> StoredMessage:
    """The message as it was created: pings happen then (an edit never pings)."""
    return next(m for m in w.server.message_versions if m.id == message.id)


def _version(post: StoredMessage) -> int:
    found = re.search(r"· move (\d+)", post.content)
    return int(found.group(1)) if found else 0


async def _handoffs(w: World) -> tuple[dict[int, set[int]], set[int]]:
    game = await w.bot.service.store.latest_game_in(w.channels["table"])
    return await handoffs(w.bot.service, game)


async def _every_handoff_posted_once(w: World) -> list[StoredMessage]:
    """The posts are exactly the handoffs and urgent events of the log, one each, and each pings
    exactly the people newly to act plus those an urgent event addresses."""
    owed, _ = await _handoffs(w)
    posts = w.turn_messages()
    by_version = {_version(post): post for post in posts}
    assert len(by_version) == len(posts), "two posts for one version"
    assert set(owed) <= set(by_version), f"handoffs without a post: {set(owed) - set(by_version)}"
    assert set(by_version) <= set(owed), "a post for neither a handoff nor an urgent event"
    for version, post in by_version.items():
        assert set(_as_posted(w, post).pinged_users) == owed[version], (version, post.content)
    return posts


async def test_one_post_per_handoff_with_pings_and_edits_in_place(tmp_path):
    """Iron & Brass gives each player up to four actions a turn: the live post is edited while they
    act, and a new post (pinging exactly the player now to act) comes with each handoff."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="iron-and-brass", seed=5)
        await bob.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        moves = await play_out(w, "table", [alice, bob], seed=3, max_rounds=200, moves_wanted=40)
        await w.settle()
        assert moves >= 25
        posts = await _every_handoff_posted_once(w)
        assert len(posts) * 2 < moves, (len(posts), moves)  # the point of it: far fewer posts than moves
        edits = [m for m in w.server.message_versions if m.edits and m.channel_id == table]
        assert edits, "no post was edited in place"
        assert all(not m.pinged_users for m in edits)
        # every move's lines reached the channel: the last version of the posts shows them all
        _, _, records, _ = await _log(w)
        for record in records[-10:]:
            assert shows_move(w.server, table, record), record.events
        assert not w.server.errors, w.server.errors


async def test_each_post_frames_what_changed_since_the_previous_post(tmp_path):
    """Issue 19: the turn post's picture marks what just changed. Every post is drawn with the
    renderer's marks of all the moves since the previous post (a seat's several actions included),
    and the repaints of the live post in between with the marks so far."""
    from renderer.registry import marks_between

    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="iron-and-brass", seed=5)
        await bob.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        await play_out(w, "table", [alice, bob], seed=3, max_rounds=200, moves_wanted=30)
        await w.settle()
        game, states, _, _ = await _log(w)
        rules = w.bot.service.rules_for(game.kind)
        views = [rules.view(state, None) for state in states]
        rows = sorted(
            (row for row in await w.bot.service.store.outbox(game.id) if row.kind in ("post", "repaint")),
            key=lambda row: (row.version, row.id),
        )
        posts = [row for row in rows if row.kind == "post"]
        assert len(posts) > 3
        previous, framed = posts[0].version, 0
        for row in rows[1:]:
            expected = set()
            for version in range(previous + 1, row.version + 1):
                expected |= marks_between(views[version - 1], views[version])
            assert set(row.payload["marks"]) == expected, (row.kind, row.version)
            framed += bool(expected)
            if row.kind == "post":
                previous = row.version
        assert framed >= len(posts) - 1, "posts without anything framed"


async def test_the_first_step_of_a_two_step_move_touches_no_post(tmp_path):
    """Choosing what to train is its own commit but shows nothing (the square comes next): the live
    post is not edited for it, and the finished move edits it once with its line."""
    from tests.e2e.harness import take_turn

    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="iron-and-brass", seed=4, options="board_size=10")
        await bob.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        game = await w.bot.service.store.latest_game_in(table)
        first = min(w.bot.service.rules_for(game.kind).to_act(await w.bot.service.state(game)))
        mover = alice if (await w.bot.service.store.seats(game.id))[first].user_id == alice.id else bob

        def shown() -> int:
            return sum(1 for m in w.server.message_versions if m.channel_id == table and not m.ephemeral)

        def train(choices):
            return next(c for c in choices if c[0].startswith("Train"))

        before = shown()
        assert await take_turn(w, "table", mover, train)
        await w.settle()
        assert shown() == before, "the first step edited or posted something"
        await take_turn(w, "table", mover, lambda choices: choices[0])  # the square
        await w.settle()
        assert shown() == before + 1 and "trained" in w.turn_messages()[-1].content.lower()


async def test_every_move_option_posts_each_move(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="iron-and-brass", seed=5)
        await bob.slash(table, "game join")
        said = await alice.slash(table, "game posts", style="every_move")
        assert "a new post for every move" in said.content
        await alice.slash(table, "game start")
        await w.settle()
        moves = await play_out(w, "table", [alice, bob], seed=3, moves_wanted=6)
        await w.settle()
        assert len(w.turn_messages()) == moves + 1
        owed, _ = await _handoffs(w)
        for post in w.turn_messages():  # still pings only on a handoff (or whom an urgent event addresses)
            assert set(_as_posted(w, post).pinged_users) == owed.get(_version(post), set())


async def test_a_lost_post_is_retried_and_posted_once(tmp_path):
    """A 503 (discord.py does not retry it), a 500 more times than discord.py retries, and an answer
    lost after Discord created the message: the turn post arrives, exactly once, with its ping."""
    async with world(tmp_path) as w:
        w.bot.courier.retry_base = 0.05
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], game="iron-bridge-gorge", seed=6)
        faults = w.server.faults
        path = r"/channels/\d+/messages"
        for fault in (
            {"status": 503},
            {"drop": True, "after_create": True},
            {"status": 429, "retry_after": 0.3},
            {"status": 500, "times": 6},  # more than discord.py retries on its own
        ):
            rule = faults.add("POST", path, **fault)
            await play_out(w, "table", [alice, bob], seed=rule.seen, moves_wanted=8)
            await w.settle()
            assert rule.injected >= 1, fault
            await _every_handoff_posted_once(w)
        assert w.server.nonce_hits, "the post whose answer was lost was not recognised by its nonce"
        game, *_ = await _log(w)
        rows = await w.bot.service.store.outbox(game.id)
        assert all(row.status in ("sent", "superseded") or row.kind == "repaint" for row in rows)
        assert any(row.attempts > 1 for row in rows)


async def test_a_deleted_channel_is_reported_and_closed_dms_get_the_notice(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        w.server.set_dms_open(bob.id, False)
        await alice.slash(table, "game new", game="city-of-iron", seed=3)
        await bob.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        notices = [m for m in w.public() if "cannot send you direct messages" in m.content]
        assert len(notices) == 1 and notices[0].pinged_users == [bob.id]
        game, *_ = await _log(w)
        rows = await w.bot.service.store.outbox(game.id)
        closed = [row for row in rows if row.kind == "dm" and row.target == bob.id]
        assert closed and all(row.status == "failed" and "closed" in row.reason for row in closed)

        w.server.world.channels.pop(table)  # the channel is deleted while the game runs
        seat_to_act = sorted(await w.bot.service.to_act(game))[0]
        mover = alice if seat_to_act == 0 else bob
        choices = await w.bot.service.choices(game, seat_to_act)
        await w.bot.service.play(game.id, mover.id, key=choices[0].key)
        await w.settle()
        game = await w.bot.service.store.game(game.id)
        assert game.channel_lost == "the channel was deleted"
        assert await w.bot.service.undelivered(game) == 0  # it gave up, with the reason kept
        failed = [row for row in await w.bot.service.store.outbox(game.id) if row.status == "failed"]
        assert any("10003" in (row.reason or "") for row in failed)


async def test_names_never_ping_or_format_and_the_renderer_draws_them(tmp_path):
    """A display name with a mention, markdown and a newline: nobody outside the game is pinged,
    the markdown shows as typed, and the game's pictures are drawn."""
    async with world(tmp_path, users=("alice", "bob", "outsider")) as w:
        alice, outsider = w.users["alice"], w.users["outsider"]
        table = w.channels["table"]
        sneaky = w.server.user(w.server.add_user(f"<@{outsider.id}> **bold**\nnext @everyone"))
        await alice.slash(table, "game new", game="iron-bridge-gorge", seed=4)
        await sneaky.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        await play_out(w, "table", [alice, sneaky], seed=1, moves_wanted=8)
        await w.settle()
        for message in w.server.message_versions:
            assert outsider.id not in message.pinged_users, message.content
            assert not message.pings_everyone
        started = next(m for m in w.public() if "has started with" in m.content)
        assert "\\*\\*bold\\*\\*" in started.content and "\n" not in started.content.split("started with")[1]
        assert all(m.attachments for m in w.turn_messages())
        assert not w.server.errors, w.server.errors


async def test_at_most_one_dm_per_seat_per_post_and_never_the_public_picture(tmp_path):
    """City of Iron hands are private: a seat hears by DM only at a post, only when its private view
    changed (or a line waits for it), and its picture is never the channel's board again."""
    async with world(tmp_path) as w:
        alice, bob, carol = w.users["alice"], w.users["bob"], w.users["carol"]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="city-of-iron", seed=2)
        for user in (bob, carol):
            await user.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        await play_out(w, "table", [alice, bob, carol], seed=7, moves_wanted=30)
        await w.settle()
        game, *_ = await _log(w)
        rows = await w.bot.service.store.outbox(game.id)
        posted = {row.version for row in rows if row.kind == "post"}
        seat_dms = [row for row in rows if row.kind == "dm" and row.payload.get("seat") is not None]
        assert seat_dms, "nobody was told anything privately"
        assert {row.version for row in seat_dms} <= posted
        per_seat_and_post = Counter((row.target, row.version) for row in seat_dms)
        assert max(per_seat_and_post.values()) == 1
        public_pictures = {
            data for m in w.server.message_versions if m.channel_id == table for _, data, _ in m.files
        }
        for user in (alice, bob, carol):
            for dm in user.dms():
                assert not {data for _, data, _ in dm.files} & public_pictures
        assert not w.server.errors, w.server.errors


async def test_a_channel_the_bot_may_not_post_in_is_reported_by_game_status(tmp_path):
    """Permissions taken away: the post cannot succeed, so it ends with its reason, and `/game status`
    tells the players why the table went quiet; once posting works again, the next post clears it."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], game="iron-bridge-gorge", seed=6)
        everyone = w.server.world.guilds[w.guild].everyone_role
        granted, allowed = w.server.world.permissions(w.guild, w.server.bot_user_id), everyone.permissions
        everyone.permissions &= ~P_SEND_MESSAGES  # nobody may post here any more, the bot included
        w.server.set_bot_permissions(w.guild, P_VIEW_CHANNEL)
        game = await w.bot.service.store.latest_game_in(table)
        before = len(w.turn_messages())
        for _ in range(30):  # until a move owes a post (edits of the live post fail the same way)
            if (await w.bot.service.store.game(game.id)).channel_lost is not None:
                break
            await play_out(w, "table", [alice, bob], seed=1, moves_wanted=1)
            await w.settle()
        assert len(w.turn_messages()) == before, [m.content[:80] for m in w.turn_messages()]
        status = await bob.slash(table, "game status")
        assert "lost its channel" in status.content and "may not post" in status.content
        everyone.permissions = allowed
        w.server.set_bot_permissions(w.guild, granted)
        for _ in range(30):
            if len(w.turn_messages()) > before:
                break
            await play_out(w, "table", [alice, bob], seed=2, moves_wanted=1)
            await w.settle()
        assert (await w.bot.service.store.game(game.id)).channel_lost is None
        assert "lost its channel" not in (await bob.slash(table, "game status")).content


async def test_a_declined_trade_tells_the_proposer(tmp_path):
    """The answer to an offer is urgent: a new post pings the proposer, who is still on turn (perhaps
    away for hours), and their DM says what was declined."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], game="iron-bridge-gorge", seed=6)
        service = w.bot.service
        game = await service.store.latest_game_in(w.channels["table"])
        offered = False
        for _ in range(60):  # play on until the mover can offer bob a trade, then offer it
            game = await service.store.game(game.id)
            seat = sorted(await service.to_act(game))[0]
            user = (alice, bob)[seat]
            choices = await service.choices(game, seat)
            offer = next(
                (
                    c
                    for c in choices
                    if c.label.startswith("Offer ") and (" to bob " in c.label or " to alice " in c.label)
                ),
                None,
            )
            await service.play(game.id, user.id, key=(offer or choices[0]).key)
            if offer is not None:
                offered = True
                break
        assert offered, "no trade offer came up"
        await w.settle()
        proposer, partner = user, bob if user is alice else alice
        game = await service.store.game(game.id)
        await service.play(game.id, partner.id, key="decline")
        await w.settle()
        post = w.turn_messages()[-1]
        assert "declined" in post.content and proposer.id in _as_posted(w, post).pinged_users
        assert any("declined your trade offer" in dm.content for dm in proposer.dms())
        assert not any("declined your trade offer" in dm.content for dm in partner.dms())
