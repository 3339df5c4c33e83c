"""A decided vote looks decided (issue 36): its message is edited to the outcome with its buttons
removed, and whoever asked is told: pinged with the outcome, or, for a saved game, sent the file.

Undo and replacement votes have Approve and Refuse buttons; export and abandon are agreed by command,
their first request posting the vote's message, later agreements updating who is still awaited.
"""

from __future__ import annotations

import json

from tests.e2e.harness import World, open_game, take_turn, world


def _buttons(w: World, message_id: int) -> list[tuple[str | None, str | None, bool]]:
    return w.server.world.messages[message_id].buttons()


def _now(w: World, message_id: int) -> str:
    return w.server.world.messages[message_id].content


def _as_posted(w: World, message):
    return next(m for m in w.server.message_versions if m.id == message.id)


async def test_an_undo_vote_is_closed_when_carried_or_refused_and_the_asker_is_told(tmp_path):
    async with world(tmp_path) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol], seed=4)
        await take_turn(w, "table", alice, lambda c: c[0])  # a pledge reveals nothing
        await w.settle()
        asked = await alice.slash(table, "undo")
        vote = asked.message.id
        ids = {label: cid for label, cid, _ in _buttons(w, vote)}
        await bob.click(vote, ids["Approve"])
        assert _buttons(w, vote), "a vote still open keeps its buttons"
        await carol.click(vote, ids["Approve"])
        await w.settle()
        assert not _buttons(w, vote), "the decided vote kept its buttons"
        assert "Everyone agreed: it was taken back" in _now(w, vote) and "Waiting for" not in _now(w, vote)
        post = w.turn_messages()[-1]
        assert "took back" in post.content and alice.id in _as_posted(w, post).pinged_users

        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        asked = await alice.slash(table, "undo")
        vote = asked.message.id
        ids = {label: cid for label, cid, _ in _buttons(w, vote)}
        refused = await bob.click(vote, ids["Refuse"])
        await w.settle()
        assert not _buttons(w, vote) and "Refused by" in _now(w, vote), _now(w, vote)
        assert "refused the undo; the move stands" in refused.content
        told = w.last_public()  # the decision's line in the channel
        assert told.pinged_users == [alice.id], told.content
        assert not w.server.errors, w.server.errors


async def test_a_replacement_vote_is_closed_and_its_proposer_told(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "carol", "erin")) as w:
        alice, bob, carol, erin = (w.users[n] for n in ("alice", "bob", "carol", "erin"))
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol], seed=3)
        asked = await alice.slash(table, "game replace", old=bob.id, new=erin.id)
        vote = asked.message.id
        ids = {label: cid for label, cid, _ in _buttons(w, vote)}
        refused = await carol.click(vote, ids["Refuse"])
        await w.settle()
        assert not _buttons(w, vote) and "Refused by" in _now(w, vote), _now(w, vote)
        assert "refused the replacement" in refused.content
        assert w.last_public().pinged_users == [alice.id], w.last_public().content

        asked = await alice.slash(table, "game replace", old=bob.id, new=erin.id)
        vote = asked.message.id
        ids = {label: cid for label, cid, _ in _buttons(w, vote)}
        agreed = await carol.click(vote, ids["Approve"])
        await w.settle()
        assert not _buttons(w, vote) and "Everyone agreed" in _now(w, vote), _now(w, vote)
        assert "now plays in" in agreed.content
        said = next(m for m in reversed(w.public()) if "now plays in" in m.content)
        assert said.pinged_users == [alice.id], said.content
        assert not w.server.errors, w.server.errors


async def test_the_players_who_asked_for_an_export_get_the_file_when_the_last_agrees(tmp_path):
    async with world(tmp_path) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol], game="iron-bridge-gorge", seed=7, options="rounds=2")
        asked = await alice.slash(table, "game export")
        vote = asked.message.id
        assert not asked.ephemeral and "Still to agree with `/game export`: bob, carol" in asked.content
        counted = await bob.slash(table, "game export")
        assert counted.ephemeral and "Still to agree with `/game export`: carol." in counted.content
        assert "Still to agree with `/game export`: carol." in _now(w, vote), _now(w, vote)
        last = await carol.slash(table, "game export")
        await w.settle()
        assert last.ephemeral and last.files, "the last to agree gets the file, privately"
        assert "Everyone agreed" in _now(w, vote) and "Still to agree" not in _now(w, vote)
        for earlier in (alice, bob):
            files = [data for dm in earlier.dms() for name, data, _ in dm.files if name.endswith(".json")]
            assert files == [last.files[0][1]], f"{earlier.name} did not get the file"
        assert json.loads(last.files[0][1])["game"] == "iron-bridge-gorge"
        again = await alice.slash(table, "game export")  # asked again: the file, and no second DM
        await w.settle()
        saved = [dm for dm in alice.dms() if any(name.endswith(".json") for name, _, _ in dm.files)]
        assert again.files and len(saved) == 1
        assert not any(a.filename.endswith(".json") for m in w.public() for a in m.attachments)
        assert not w.server.errors, w.server.errors


async def test_an_abandon_vote_is_closed_and_its_asker_told(tmp_path):
    async with world(tmp_path) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob, carol], seed=3)
        asked = await alice.slash(table, "game abandon")
        vote = asked.message.id
        counted = await bob.slash(table, "game abandon")
        assert counted.ephemeral and "Still to agree with `/game abandon`: carol" in _now(w, vote)
        done = await carol.slash(table, "game abandon")
        await w.settle()
        assert "abandoned" in done.content
        assert "Decided: the game is abandoned" in _now(w, vote) and "Still to agree" not in _now(w, vote)
        said = w.last_public()  # the decision's line: who asked before is pinged
        assert "abandoned" in said.content and sorted(said.pinged_users) == sorted([alice.id, bob.id])
        assert not w.server.errors, w.server.errors
