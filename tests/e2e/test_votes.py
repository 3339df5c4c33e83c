"""Votes through Discord: only the players seated now decide an undo, a replacement or an abandon.

Everyone in the channel sees the Approve and Refuse buttons of a vote, so a spectator, the substitute
proposed, the player a replacement is about and a player who was replaced can all press them: each is
refused ephemerally and the approvals already given stay recorded, so the vote still completes when
the players approve. `/game abandon` has no buttons; its agreement is checked the same way.

The Undo button on a move's confirmation is offered only when `/undo` would accept it.
"""

from __future__ import annotations

import pytest

from bot.app.service import NOT_A_VOTER, UserError
from bot.app.votes import DROPPED_VOTER
from tests.e2e.harness import World, menu_choices, open_game, take_turn, world

REFUSED = f"⚠️ {NOT_A_VOTER}"


async def _votes(w: World, kind: str) -> set[int]:
    """Who has approved the vote `kind` of the channel's game, as stored."""
    game = await w.bot.service.store.latest_game_in(w.channels["table"])
    rows = await w.bot.service.store._db.fetchall(
        "SELECT user_id FROM votes WHERE game_id = ? AND kind = ?", (game.id, kind)
    )
    return {row[0] for row in rows}


async def _game(w: World):
    game = await w.bot.service.store.latest_game_in(w.channels["table"])
    return game, await w.bot.service.store.seats(game.id)


async def _outsiders_press(w: World, message_id: int, users, *, refusal: str = REFUSED) -> None:
    """Each of `users` presses Approve, then Refuse: every press is refused, only to them."""
    for user in users:
        for label, custom_id, _ in user.buttons(message_id):
            pressed = await user.click(message_id, custom_id)
            assert pressed.ephemeral, (user.name, label, pressed.content)
            assert pressed.content == refusal, (user.name, label, pressed.content)
    await w.settle()


async def test_undo_votes_are_decided_by_the_seated_players_only(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "carol", "dave")) as w:
        alice, bob, carol, dave = (w.users[n] for n in ("alice", "bob", "carol", "dave"))
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol], seed=4)
        before = (await _game(w))[0].state
        await take_turn(w, "table", alice, lambda c: c[0])  # a pledge reveals nothing
        await w.settle()
        pledged = (await _game(w))[0]
        asked = await alice.slash(table, "undo")
        assert "Waiting for: bob, carol" in asked.content, asked.content
        kind = f"undo:{pledged.version}"
        messages_before = len(w.public())

        await _outsiders_press(w, asked.message.id, [dave])
        assert await _votes(w, kind) == {alice.id}
        assert len(w.public()) == messages_before  # nothing was said in the channel
        ids = {label: cid for label, cid, _ in bob.buttons(asked.message.id)}
        waiting = await bob.click(asked.message.id, ids["Approve"])
        # counted privately; the request's own message now waits only for carol, nothing new is posted
        assert waiting.ephemeral and "Waiting for: carol." in waiting.content, waiting.content
        assert len(w.public()) == messages_before
        ballot = w.server.world.messages[asked.message.id]
        assert ballot.content.endswith("Waiting for: carol."), ballot.content
        assert [label for label, _, _ in bob.buttons(asked.message.id)] == ["Approve", "Refuse"]
        await _outsiders_press(w, asked.message.id, [dave])  # a spectator's Refuse wipes nothing
        assert await _votes(w, kind) == {alice.id, bob.id}
        done = await carol.click(asked.message.id, ids["Approve"])
        assert "Everyone agreed" in done.content, done.content
        await w.settle()
        game, _ = await _game(w)
        assert game.state == before and game.version == pledged.version + 1

        # a seated player's Refuse still cancels the request, and the move stands
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        pledged = (await _game(w))[0]
        asked = await alice.slash(table, "undo")
        ids = {label: cid for label, cid, _ in bob.buttons(asked.message.id)}
        refused = await bob.click(asked.message.id, ids["Refuse"])
        assert "refused the undo; the move stands" in refused.content and refused.ephemeral
        await w.settle()
        told = w.last_public()  # the asker is told, with a ping
        assert told.content == (
            f"❌ <@{bob.id}> refused the undo; the move stands. <@{alice.id}>, your request is closed."
        )
        assert told.pinged_users == [alice.id]
        assert not bob.buttons(asked.message.id), "the decided vote kept its buttons (issue 36)"
        # a press that raced the decision (sent before its buttons were removed) is told it is decided
        game, _ = await _game(w)
        with pytest.raises(UserError, match="Already decided: the undo was refused, so the move stands."):
            await w.bot.service.undo_vote(game.id, carol.id, pledged.version, True)
        assert await _votes(w, f"undo:{pledged.version}") == set()
        assert (await _game(w))[0].version == pledged.version
        assert not w.server.errors, w.server.errors


async def test_replacement_votes_are_decided_by_the_other_seated_players_only(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "carol", "dave", "erin")) as w:
        alice, bob, carol, dave, erin = (w.users[n] for n in ("alice", "bob", "carol", "dave", "erin"))
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol], seed=3)
        kind = f"replace:{bob.id}:{erin.id}"

        asked = await alice.slash(table, "game replace", old=bob.id, new=erin.id)
        assert "Still to agree: carol" in asked.content, asked.content
        await _outsiders_press(w, asked.message.id, [dave, erin])  # a spectator, the substitute
        await _outsiders_press(  # the player the vote is about
            w,
            asked.message.id,
            [bob],
            refusal="⚠️ This vote is about your own seat, so the other players decide.",
        )
        assert await _votes(w, kind) == {alice.id}
        ids = {label: cid for label, cid, _ in carol.buttons(asked.message.id)}
        refused = await carol.click(asked.message.id, ids["Refuse"])
        assert "refused the replacement" in refused.content and refused.ephemeral
        await w.settle()
        assert f"❌ <@{carol.id}> refused the replacement" in w.last_public().content
        assert await _votes(w, kind) == set()
        assert [s.user_id for s in (await _game(w))[1]] == [alice.id, bob.id, carol.id]

        asked = await alice.slash(table, "game replace", old=bob.id, new=erin.id)
        await _outsiders_press(w, asked.message.id, [dave, erin])
        assert await _votes(w, kind) == {alice.id}
        ids = {label: cid for label, cid, _ in carol.buttons(asked.message.id)}
        agreed = await carol.click(asked.message.id, ids["Approve"])
        assert "now plays in" in agreed.content, agreed.content
        await w.settle()
        assert [s.user_id for s in (await _game(w))[1]] == [alice.id, erin.id, carol.id]
        assert not w.server.errors, w.server.errors


async def test_a_replaced_player_no_longer_votes_on_anything(tmp_path):
    users = ("alice", "bob", "carol", "dave", "erin", "frank")
    async with world(tmp_path, users=users) as w:
        alice, bob, carol, dave, erin, frank = (w.users[n] for n in users)
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol], seed=3)
        asked = await alice.slash(table, "game replace", old=bob.id, new=erin.id)
        ids = {label: cid for label, cid, _ in carol.buttons(asked.message.id)}
        assert "now plays in" in (await carol.click(asked.message.id, ids["Approve"])).content
        await w.settle()

        # an undo vote: bob's old seat is erin's now
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        game, _ = await _game(w)
        asked = await alice.slash(table, "undo")
        assert "Waiting for: erin, carol" in asked.content, asked.content
        await _outsiders_press(w, asked.message.id, [bob, frank])
        assert await _votes(w, f"undo:{game.version}") == {alice.id}
        ids = {label: cid for label, cid, _ in erin.buttons(asked.message.id)}
        assert "Waiting for: carol" in (await erin.click(asked.message.id, ids["Approve"])).content
        assert "Everyone agreed" in (await carol.click(asked.message.id, ids["Approve"])).content
        await w.settle()

        # a replacement vote on another seat
        asked = await alice.slash(table, "game replace", old=carol.id, new=dave.id)
        assert "Still to agree: erin" in asked.content, asked.content
        await _outsiders_press(w, asked.message.id, [bob, frank])
        assert await _votes(w, f"replace:{carol.id}:{dave.id}") == {alice.id}
        ids = {label: cid for label, cid, _ in erin.buttons(asked.message.id)}
        assert "now plays in" in (await erin.click(asked.message.id, ids["Approve"])).content
        await w.settle()
        assert [s.user_id for s in (await _game(w))[1]] == [alice.id, erin.id, dave.id]

        # abandoning: agreed with the command by every player seated now, no buttons
        wants = await alice.slash(table, "game abandon")
        assert "Still to agree with `/game abandon`: erin, dave" in wants.content, wants.content
        assert not any(label for label, _, _ in alice.buttons(wants.message.id))
        for outsider in (bob, carol, frank):  # two replaced players and a spectator
            refused = await outsider.slash(table, "game abandon")
            assert refused.ephemeral and "Only the players or a moderator" in refused.content
        game, _ = await _game(w)
        assert await _votes(w, f"abandon:{game.version}") == {alice.id}
        assert "Still to agree" in (await erin.slash(table, "game abandon")).content
        assert "abandoned" in (await dave.slash(table, "game abandon")).content
        await w.settle()
        told = w.last_public()  # who asked before is told, with a ping
        assert told.content == (
            "🛑 The game was abandoned by vote of the players."
            f" {' '.join(f'<@{user}>' for user in sorted([alice.id, erin.id]))}: done, as you asked."
        )
        assert sorted(told.pinged_users) == sorted([alice.id, erin.id])
        game = await w.bot.service.store.latest_game_in(table)
        assert game.status == "abandoned"
        assert not w.server.errors, w.server.errors


async def test_an_abandon_vote_lapses_when_the_table_plays_on(tmp_path):
    """An agreement to abandon counts only until the next move: a player who plays on instead of
    agreeing keeps the game, and agreements given days earlier cannot end it later."""
    users = ("alice", "bob", "carol")
    async with world(tmp_path, users=users) as w:
        alice, bob, carol = (w.users[n] for n in users)
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol], seed=3)
        wants = await alice.slash(table, "game abandon")
        assert "Still to agree with `/game abandon`: bob, carol" in wants.content, wants.content
        assert "cancels this vote" in wants.content
        assert (
            "Still to agree with `/game abandon`: carol" in (await bob.slash(table, "game abandon")).content
        )
        assert any([await take_turn(w, "table", user, lambda c: c[0]) for user in (alice, bob, carol)])
        await w.settle()

        again = await carol.slash(table, "game abandon")
        assert "Still to agree with `/game abandon`: alice, bob" in again.content, again.content
        game, _ = await _game(w)
        assert game.status == "active"
        assert await _votes(w, f"abandon:{game.version}") == {carol.id}
        await alice.slash(table, "game abandon")
        assert "abandoned" in (await bob.slash(table, "game abandon")).content
        assert (await _game(w))[0].status == "abandoned"
        assert not w.server.errors, w.server.errors


# ---- the Undo button --------------------------------------------------------------------------------


async def _press(w: World, user, key: str):
    """Take my turn, then the move `key` (a button, or an option of a select)."""
    turn = w.turn_messages()[-1]
    menu = await user.click(
        turn.id, next(c for _, c, _ in user.buttons(turn.id) if c and c.endswith(":menu"))
    )
    assert not menu.content.startswith("⚠️"), menu.content
    for _label, custom_id in menu_choices(menu):
        if "|" not in custom_id and custom_id.endswith(f":{key}"):
            done = await user.click(menu.message.id, custom_id)
            break
        if custom_id.endswith(f"|{key}"):
            select_id, value = custom_id.split("|", 1)
            done = await user.select(menu.message.id, select_id, [value])
            break
    else:
        raise AssertionError(f"{key} is not offered: {menu_choices(menu)}")
    assert done.content.startswith("✅"), done.content
    await w.settle()
    return done


def _undo_button(user, result) -> str | None:
    return next((c for label, c, _ in user.buttons(result.message.id) if label == "Undo"), None)


async def test_no_undo_button_for_an_answer_inside_another_players_turn(tmp_path):
    """Iron Bridge Gorge: bob takes a card and offers it to alice; her answer belongs to his turn, so
    `/undo` refuses her and her confirmation has no Undo. Bob's first move of his turn has one, and it
    takes the move back at once."""
    async with world(tmp_path, users=("alice", "bob")) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], game="iron-bridge-gorge", seed=4)
        await _press(w, alice, "bid:0")
        await _press(w, bob, "bid:1")  # the bids are revealed: bob plays first
        before = (await _game(w))[0].state
        took = await _press(w, bob, "take:stone-cutters")
        undo = _undo_button(bob, took)
        assert undo is not None, bob.buttons(took.message.id)
        undone = await bob.click(took.message.id, undo)
        assert undone.content == "↩️ Done: your last move taken back.", undone.content
        await w.settle()
        assert (await _game(w))[0].state == before

        assert _undo_button(bob, await _press(w, bob, "take:stone-cutters")) is not None
        assert _undo_button(bob, await _press(w, bob, "offer:0:stone-cutters")) is not None
        declined = await _press(w, alice, "decline")
        assert _undo_button(alice, declined) is None, alice.buttons(declined.message.id)
        refused = await alice.slash(table, "undo")
        assert refused.ephemeral and "Only bob can take back their own turn" in refused.content
        assert not w.server.errors, w.server.errors


async def test_no_undo_button_after_a_die_roll_earlier_in_the_turn(tmp_path):
    """Iron & Brass: an undo takes back the whole turn in progress; once alice has rolled for her mine,
    her later moves in that turn cannot be taken back, so they get no Undo."""
    async with world(tmp_path, users=("alice", "bob")) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], game="iron-and-brass", seed=4, options="board_size=10")
        before = (await _game(w))[0].state
        picked = await _press(w, alice, "pick:skirmisher")
        undo = _undo_button(alice, picked)
        assert undo is not None, alice.buttons(picked.message.id)
        undone = await alice.click(picked.message.id, undo)
        assert "taken back" in undone.content, undone.content
        await w.settle()
        assert (await _game(w))[0].state == before

        mined = await _press(w, alice, "mine")  # a die roll
        assert _undo_button(alice, mined) is None
        picked = await _press(w, alice, "pick:skirmisher")
        assert _undo_button(alice, picked) is None, alice.buttons(picked.message.id)
        refused = await alice.slash(table, "undo")
        assert refused.ephemeral and "revealed hidden information" in refused.content
        assert not w.server.errors, w.server.errors


async def test_players_dropped_by_the_clock_do_not_hold_up_a_vote(tmp_path):
    """A player the clock dropped is gone: an abandon or a replacement is decided by the players still
    seated, as an undo already was (waiting for the dropped one would block the table for good)."""
    async with world(tmp_path, users=("alice", "bob", "carol", "erin")) as w:
        alice, bob, carol, erin = (w.users[n] for n in ("alice", "bob", "carol", "erin"))
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol], seed=3)
        game, seats = await _game(w)
        assert await w.bot.service.store.set_seat_flag(game.id, 2, "dropped", True)  # carol

        asked = await alice.slash(table, "game replace", old=carol.id, new=erin.id)
        assert "Still to agree: bob" in asked.content and "carol" not in asked.content, asked.content
        ids = {label: cid for label, cid, _ in bob.buttons(asked.message.id)}
        game, _ = await _game(w)
        assert await w.bot.service.store.set_seat_flag(game.id, 1, "dropped", True)  # bob, for a moment
        gone = await bob.click(asked.message.id, ids["Approve"])  # a dropped seat holds no vote
        assert gone.ephemeral and gone.content == f"⚠️ {DROPPED_VOTER}", gone.content
        assert await _votes(w, f"replace:{carol.id}:{erin.id}") == {alice.id}
        assert await w.bot.service.store.set_seat_flag(game.id, 1, "dropped", False)
        agreed = await bob.click(asked.message.id, ids["Approve"])
        assert "now plays in" in agreed.content, agreed.content
        await w.settle()
        assert [s.user_id for s in (await _game(w))[1]] == [alice.id, bob.id, erin.id]

        game, _ = await _game(w)
        assert await w.bot.service.store.set_seat_flag(game.id, 1, "dropped", True)  # bob
        said = await alice.slash(table, "game abandon")
        assert "erin" in said.content and "bob" not in said.content, said.content
        done = await erin.slash(table, "game abandon")
        assert (await _game(w))[0].status == "abandoned", done.content
        assert not w.server.errors, w.server.errors


async def test_a_replacement_approval_updates_the_proposal_instead_of_posting_it_again(tmp_path):
    """Issue 36's play-through: every approval of a replacement posted the proposal again. An approval
    that does not decide it is counted privately, and the proposal's own message says who is still to
    agree, its buttons kept; the last approval decides it."""
    users = ("alice", "bob", "carol", "dave", "erin")
    async with world(tmp_path, users=users) as w:
        alice, bob, carol, dave, erin = (w.users[n] for n in users)
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol, dave], seed=3)
        asked = await alice.slash(table, "game replace", old=bob.id, new=erin.id)
        assert "Still to agree:" in asked.content, asked.content
        posts = len(w.public())
        ids = {label: cid for label, cid, _ in carol.buttons(asked.message.id)}
        counted = await carol.click(asked.message.id, ids["Approve"])
        assert counted.ephemeral and counted.content.endswith("Still to agree: dave."), counted.content
        await w.settle()
        assert len(w.public()) == posts, [m.content[:60] for m in w.public()[posts:]]
        proposal = w.server.world.messages[asked.message.id]
        assert proposal.content.endswith("Still to agree: dave."), proposal.content
        assert "now plays in" in (await dave.click(asked.message.id, ids["Approve"])).content
        await w.settle()
        assert [s.user_id for s in (await _game(w))[1]] == [alice.id, erin.id, carol.id, dave.id]
        assert not w.server.errors, w.server.errors
