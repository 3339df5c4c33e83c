"""The table's words in every seam (issue 36), through the real bot and the emulator as several users:
standings from the game's own result, one move count everywhere, times in sensible units, who abandoned
a game, every option in words, counts through the words helper and refusals that name what was wrong.
"""

from __future__ import annotations

import json
import re

import pytest

from rules import registry
from tests.e2e.harness import is_over, menu_choices, open_game, play_out, take_turn, world

registry.all_games()  # the games' modules load here, not in a test's first command (its 3 s to answer)


def _header(content: str) -> str:
    return content.splitlines()[0]


async def test_a_city_heroes_game_nobody_won_counts_no_win_anywhere(tmp_path):
    """'if the city's prestige is below the rival's, everybody loses' (data/city_heroes/rules.md,
    Winning): a one-turn game leaves the city at 0 prestige against the rival's 10, so nobody wins. The
    leaderboard counted a win for the first place ('alice: 1 won of 2') while `/game list` said nobody
    won; now the leaderboard, `/stats`, the streak and the list all read the game's own result."""
    async with world(tmp_path, users=("alice", "bob")) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], game="city-heroes", seed=1, options="turns=1")
        await play_out(w, "table", [alice, bob], seed=1)
        assert is_over(w)
        final = w.turn_messages()[-1].content
        assert "Nobody wins this time." in final
        # The reason names the total the score (the pictures' Total column), not 'most influence'
        # beside an Infl column of 0.
        assert "so everybody loses (highest score: " in final and "most influence" not in final, final

        board = await bob.slash(table, "leaderboard", game="city-heroes")
        rows = [line for line in board.content.splitlines() if re.match(r"\d\. ", line)]
        assert len(rows) == 2 and all(row.endswith("· 0 won of 1") for row in rows), board.content
        listed = await bob.slash(table, "game list")
        assert "nobody won" in listed.content and "won by" not in listed.content
        stats = await alice.slash(table, "stats")
        assert "City Heroes: 1 played, 0 won" in stats.content, stats.content
        assert "Current winning streak: 0" in stats.content
        # Times in words: the moves here came seconds apart, not '0.0 h'.
        assert re.search(r"Average time to move: (under a second|\d+ seconds?)\n?", stats.content), (
            stats.content
        )
        assert " h" not in stats.content.split("Average time to move:")[1]
        assert not w.server.errors, w.server.errors


async def test_one_move_count_in_every_place_that_names_one(tmp_path):
    """Export said 'saved at move 41', import '39 moves replayed', `/game status` move 53, the replay
    'Move 48/48': the log's versions (undo entries and undone moves included) against the moves that
    stand. Every place now says the effective moves (`bot/app/numbering.py`)."""
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        alice, bob, carol = w.users["alice"], w.users["bob"], w.users["carol"]
        table, other = w.channels["table"], w.channels["other"]
        await open_game(w, "table", alice, [bob], seed=7, options="rounds=2")
        await take_turn(w, "table", alice, lambda c: c[0])  # alice pledges (secret: bob has not yet)
        await w.settle()
        asked = await alice.slash(table, "undo")
        approve = next(cid for label, cid, _ in bob.buttons(asked.message.id) if label == "Approve")
        undone = await bob.click(asked.message.id, approve)
        assert "Everyone agreed" in undone.content, undone.content
        await w.settle()
        await take_turn(w, "table", alice, lambda c: c[-1])
        await w.settle()
        await take_turn(w, "table", bob, lambda c: c[0])  # the pledges are revealed
        await w.settle()
        service = w.bot.service
        game = await service.store.latest_game_in(table)
        assert game.version == 4, "four log entries: a pledge, its undo, the pledge again, bob's pledge"
        moves = 2

        assert f"(move {moves})" in (await carol.slash(table, "game status")).content
        assert _header(w.turn_messages()[-1].content).endswith(f"· move {moves}")
        assert f"up to move {moves}" in (await carol.slash(table, "log")).content
        await alice.slash(table, "game export")
        saved = await bob.slash(table, "game export")
        assert f"saved at move {moves}." in saved.content, saved.content
        ((_, data, _),) = saved.files
        assert len(json.loads(data)["moves"]) == moves

        _, views, captions = await service.replay_frames(table)
        assert captions[-1].startswith(f"Move {moves}/{moves}"), captions

        history = await carol.slash(table, "game history")
        text = history.files[0][1].decode()
        marks = re.findall(r"^\[(move +\d+(?:, taken back)?|back to +\d+)\]", text, re.MULTILINE)
        marks = [" ".join(mark.split()) for mark in marks]
        assert marks[:4] == ["move 1, taken back", "back to 0", "move 1", "move 2"], marks
        assert set(marks[4:]) <= {"move 2"}, "bob's pledge and what it revealed are one move's lines"

        opened = await carol.slash(other, "game import", file=("save.json", data))
        assert f"saved at move {moves}" in opened.content, opened.content
        await alice.slash(other, "game join")
        started = await carol.slash(other, "game start")
        assert "has started" in started.content, started.content
        await w.settle()
        carried = [m.content for m in w.public("other") if "Carried on" in m.content]
        assert carried and f"Carried on from a saved game at move {moves}." in carried[-1]
        assert f"(move {moves})" in (await carol.slash(other, "game status")).content
        assert not w.server.errors, w.server.errors


async def test_abandoning_says_who_decided_without_pinging_anyone(tmp_path):
    """'abandoned by @dave' named the last to agree as if he had ended the game alone: a game in play
    ends by vote of its players, and a moderator's decision names the moderator, escaped, unpinged."""
    async with world(tmp_path, users=("alice", "bob", "mod")) as w:
        alice, bob, mod = w.users["alice"], w.users["bob"], w.users["mod"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob])
        await alice.slash(table, "game abandon")
        done = await bob.slash(table, "game abandon")
        assert done.ephemeral and "abandoned" in done.content, done.content
        await w.settle()
        told = w.last_public()  # the decision's own post; alice, who asked, is pinged that it is done
        assert told.content.startswith("🛑 The game was abandoned by vote of the players."), told.content
        assert told.pinged_users == [alice.id]
        await open_game(w, "table", alice, [bob])
        w.server.set_permissions(w.guild, mod.id, 1 << 4)  # Manage Channels
        await mod.slash(table, "game abandon")
        await w.settle()
        forced = w.last_public()
        assert forced.content == "🛑 The game was abandoned by a moderator, mod.", forced.content
        assert "<@" not in forced.content and not forced.pinged_users
        await alice.slash(table, "game new", game="test-highcard")
        closed = await alice.slash(table, "game abandon")
        assert closed.content == "🛑 The lobby was closed by its host, alice.", closed.content
        assert not w.server.errors, w.server.errors


async def test_options_counts_and_game_sizes_read_in_words(tmp_path):
    """`/game status` showed 'abilities=False, stored_penalty=per_card'; City Heroes' lobby 'Map seed: 0'
    and 'Turns: 0' without saying what 0 means; Iron Bridge Gorge's lobby 'over 25 rounds' after 4 were
    chosen; the game list 'Iron & Brass (2-2 players)'; `/mygames` '1 game(s) waiting'."""
    async with world(tmp_path, users=("alice", "bob")) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table, other = w.channels["table"], w.channels["other"]
        offered = {c["name"] for c in await alice.autocomplete(table, "game new", focused="game", value="")}
        assert "Iron & Brass (2 players)" in offered and "Iron Bridge Gorge (2–6 players)" in offered

        lobby = await alice.slash(table, "game new", game="city-heroes")
        assert (
            "Options: Map seed: random map; Turns: the guide's length (12 solo, 10 for 2–3 players, 9 for 4,"
            " 8 for 5)" in lobby.content
        ), lobby.content
        selects = [c for row in lobby.message.components for c in row["components"] if c["type"] == 3]
        assert [s["placeholder"] for s in selects][0] == "Map seed: random map"
        turns = [o["label"] for o in selects[1]["options"]]
        assert turns[0].startswith("Turns: the guide's length") and "Turns: 4" in turns
        await alice.slash(table, "game abandon")

        lobby = await alice.slash(other, "game new", game="iron-bridge-gorge", options="rounds=4")
        assert "Rounds: 4" in lobby.content and "25 rounds" not in lobby.content, lobby.content
        await alice.slash(other, "game abandon")

        await open_game(
            w, "table", alice, [bob], game="city-of-iron", seed=3, options="stored_penalty=per_two"
        )
        status = await bob.slash(table, "game status")
        assert (
            "Options: Nations: dealt at random; Nation abilities: off; Town expansion: off; Stored building"
            " penalty: 1 VP per 2 stored buildings" in status.content
        ), status.content
        assert not re.search(r"\b[a-z]+_[a-z_]+\b|=", status.content.split("Options:")[1])
        waiting = [await user.slash(table, "mygames") for user in (alice, bob)]
        heads = [result.content.splitlines()[0] for result in waiting]
        assert "**1 game waiting for your move**" in heads, heads
        assert not any("(s)" in result.content for result in waiting)
        assert not w.server.errors, w.server.errors


async def test_refusals_name_what_was_wrong(tmp_path):
    """`/undo` after the end said 'There is no game in this channel'; `/board section:range target:Z99`
    drew 'nothing stands on Z99' for a square off the map. Both refuse now, saying why."""
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        alice, bob, carol = w.users["alice"], w.users["bob"], w.users["carol"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], game="iron-and-brass", seed=4, options="board_size=12")
        off = await carol.slash(table, "board", section="range", target="Z99")
        assert off.ephemeral and not off.files
        assert "Z99 is not on the map (A1–L12)" in off.content, off.content
        on = await carol.slash(table, "board", section="range", target="C5")
        assert on.files, "a square on the map is drawn"
        await alice.slash(table, "game abandon")
        await bob.slash(table, "game abandon")
        for command in ("undo", "hand"):
            ended = await alice.slash(table, command)
            assert "(Iron & Brass, game #1) was abandoned" in ended.content, ended.content
            assert "There is no game" not in ended.content

        await open_game(w, "table", alice, [bob], seed=5, options="rounds=1")
        await play_out(w, "table", [alice, bob], seed=5)
        ended = await bob.slash(table, "undo")
        assert "(High Card (test game), game #2) is over" in ended.content, ended.content
        assert not w.server.errors, w.server.errors


async def test_a_step_inside_a_move_is_confirmed_by_its_own_label(tmp_path):
    """Iron & Brass trains a unit in two steps (the unit, then its square): the first step told nothing
    and its confirmation said '✅ Done.' as if a move had been made. It now repeats the step's label and
    asks for the next choice."""
    async with world(tmp_path, users=("alice", "bob")) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], game="iron-and-brass", seed=4)
        turn = w.turn_messages()[-1]
        menu_id = next(
            c["custom_id"] for c in turn.iter_components() if (c.get("custom_id") or "").endswith(":menu")
        )
        menu = await alice.click(turn.id, menu_id)
        label, custom_id = next(c for c in menu_choices(menu) if c[0].startswith("Train "))
        picked = await alice.click(menu.message.id, custom_id)
        assert picked.content.startswith(f"✅ {label}") and "Done." not in picked.content, picked.content
        assert picked.content.endswith("**Now choose:**")
        squares = [c for c in menu_choices(picked) if " at " in c[0]]
        assert squares, menu_choices(picked)
        assert not w.server.errors, w.server.errors


@pytest.mark.parametrize("game", ["city-of-iron", "iron-bridge-gorge", "iron-and-brass", "city-heroes"])
async def test_each_game_names_one_move_number(tmp_path, game):
    """The same count in every place, in each of the four games, a few moves in: `/game status`, `/log`,
    the replay's last caption and the moves a saved file would hold."""
    async with world(tmp_path, users=("alice", "bob", "carol")) as w:
        alice, bob, carol = w.users["alice"], w.users["bob"], w.users["carol"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], game=game, seed=3)
        made = await play_out(w, "table", [alice, bob], seed=3, moves_wanted=6)
        assert made >= 6
        service = w.bot.service
        record = await service.store.latest_game_in(table)
        moves = len(await service.effective_moves(record))
        assert f"(move {moves})" in (await carol.slash(table, "game status")).content
        assert f"(up to move {moves})" in (await carol.slash(table, "log")).content
        _, _, captions = await service.replay_frames(table)
        assert captions[-1].startswith(f"Move {moves}/{moves}"), captions[-1]
        assert not w.server.errors, w.server.errors


async def test_an_edited_turn_post_names_the_moves_it_shows_first_to_last(tmp_path):
    """Issue 36's play-through: a post headed 'move 59' showed moves 60-61 after its edits. A live post
    edited with a seat's later moves says which moves it shows, 'move 59–61', so the number at the top
    is never older than the lines below it (the first is the move that made the post)."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], game="iron-and-brass", seed=5)
        service = w.bot.service
        edited = None
        for _ in range(40):  # Iron & Brass: several actions a turn, each an edit of the live post
            await take_turn(w, "table", alice, lambda c: c[0]) or await take_turn(
                w, "table", bob, lambda c: c[0]
            )
            await w.settle()
            post = w.turn_messages()[-1]
            if post.edited_timestamp is None:
                continue
            if "· the game begins" in post.content:  # the opening post, edited: the moves it shows
                assert re.search(r"· the game begins · up to move \d+$", _header(post.content)), post.content
                continue
            edited = post
            break
        assert edited is not None, "no turn post was edited: nothing was tested"
        moves = await service.move_count(await service.store.latest_game_in(table))
        header = _header(edited.content)
        found = re.search(r"· move (\d+)–(\d+)$", header)
        assert found, header
        assert int(found.group(1)) < int(found.group(2)) == moves, (header, moves)
