"""Big menus through Discord: groups open on a press, stale group buttons are refused, `/play` takes
words in any order, a two-step phrase, and its autocomplete offers variants as one entry."""

from __future__ import annotations

import random

from rules import registry
from tests.e2e.harness import menu_choices, open_game, world


async def _seat_choices(w, channel: str, seat: int):
    service = w.bot.service
    game = await service.store.latest_game_in(w.channels[channel])
    return game, await service.choices(game, seat)


async def _who_acts(w, names):
    service = w.bot.service
    game = await service.store.latest_game_in(w.channels["table"])
    seat = sorted(await service.to_act(game))[0]
    return seat, w.users[names[seat]]


async def _until_groups(w):
    """Random moves until the seat to act has a menu too big for one message."""
    names = ["alice", "bob"]
    rng = random.Random(5)
    for _ in range(150):  # play random moves until a menu needs groups
        seat, user = await _who_acts(w, names)
        turn = w.turn_messages()[-1]
        menu_id = next(
            c["custom_id"] for c in turn.iter_components() if (c.get("custom_id") or "").endswith(":menu")
        )
        menu = await user.click(turn.id, menu_id)
        opens = [(label, cid) for label, cid in menu_choices(menu) if ":grp:" in cid]
        if opens:
            break
        plain = [(label, cid) for label, cid in menu_choices(menu) if ":act:" in cid or "|" in cid]
        label, cid = rng.choice(plain)
        if "|" in cid:
            select, value = cid.split("|", 1)
            done = await user.select(menu.message.id, select, [value])
        else:
            done = await user.click(menu.message.id, cid)
        assert done.content.startswith("✅"), done.content
        await w.settle()
    else:
        raise AssertionError("no menu ever needed groups")
    return user, menu, opens


async def test_a_two_step_build_typed_in_one_phrase(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], game="iron-and-brass", seed=4, options="board_size=10")
        seat, user = await _who_acts(w, ["alice", "bob"])
        game, choices = await _seat_choices(w, "table", seat)
        pick = next(c for c in choices if c.key.startswith("pick:"))
        rules = registry.get(game.kind)
        state = await w.bot.service.state(game)
        after = rules.apply(state, seat, pick.action).state
        second = rules.legal_actions(after, seat)[0]
        assert second.label not in {c.label for c in choices}  # only a two-step phrase reaches it
        played = await user.slash(w.channels["table"], "play", move=second.label)
        assert played.content.startswith("✅"), played.content
        game = await w.bot.service.store.latest_game_in(w.channels["table"])
        actions = [record.action for record in await w.bot.service.store.actions(game.id)]
        assert actions[-2:] == [pick.action, second.action]


async def test_ambiguous_phrase_is_refused_with_examples(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], game="iron-and-brass", seed=4, options="board_size=10")
        seat, user = await _who_acts(w, ["alice", "bob"])
        refused = await user.slash(w.channels["table"], "play", move="commission")
        assert refused.ephemeral and "moves match" in refused.content, refused.content


async def test_group_buttons_open_and_stale_ones_are_refused(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], game="iron-and-brass", seed=4, options="board_size=10")
        user, menu, opens = await _until_groups(w)
        assert "more choices" not in menu.content
        label, group = opens[0]
        opened = await user.click(menu.message.id, group)
        inner = menu_choices(opened)
        assert inner and any(":up:" in cid for _, cid in inner), inner
        back = next(cid for _, cid in inner if ":up:" in cid)
        assert any(":grp:" in cid for _, cid in menu_choices(await user.click(opened.message.id, back)))
        # a move elsewhere makes the group button stale
        turn = w.turn_messages()[-1]
        menu_id = next(
            c["custom_id"] for c in turn.iter_components() if (c.get("custom_id") or "").endswith(":menu")
        )
        fresh = await user.click(turn.id, menu_id)
        plain = [(lab, cid) for lab, cid in menu_choices(fresh) if ":act:" in cid]
        end = next(cid for lab, cid in plain if not lab.startswith("End turn"))  # the turn goes on
        assert (await user.click(fresh.message.id, end)).content.startswith("✅")
        await w.settle()
        stale = await user.click(menu.message.id, group)
        assert "moved on" in stale.content, stale.content


async def test_autocomplete_groups_variants_and_leads_to_their_menu(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], game="iron-and-brass", seed=4, options="board_size=10")
        user, _, _ = await _until_groups(w)
        offered = await user.autocomplete(w.channels["table"], "play", focused="move", value="")
        assert 0 < len(offered) <= 25
        grouped = [o for o in offered if ":grp:" in o["value"]]
        assert grouped, offered
        assert offered[0]["name"].split()[0] in {"Mine", "Hire", "End", "Heal", "Repair"}, offered[:3]
        opened = await user.slash(w.channels["table"], "play", move=grouped[0]["value"])
        assert opened.ephemeral and menu_choices(opened), opened.content


async def test_end_turn_stays_a_button_of_a_big_menu(tmp_path):
    """Issue 36: with more than 25 choices "End turn" hid inside a dropdown. In a menu too big for one
    message, the seat's way out is still a button of the first message, and pressing it ends the turn."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await open_game(w, "table", alice, [bob], game="iron-and-brass", seed=4, options="board_size=10")
        user, menu, _ = await _until_groups(w)
        offered = menu_choices(menu)
        ends = [cid for label, cid in offered if label.startswith("End turn")]
        assert len(ends) == 1 and ":act:" in ends[0] and "|" not in ends[0], offered
        done = await user.click(menu.message.id, ends[0])
        assert done.content.startswith("✅"), done.content
