"""City Heroes at a 3-player table, through Discord only (issue 11).

Players look at the board (the test reads the state to decide, as a player reads the picture) and act
only through the bot: "Take my turn" and the move buttons or selects, `/play` for a move the menu had
no room for, the trade composer, `/undo`. Bob plays the warlord: he buys a tile next to a neighbour,
buys weapons, garrisons them and pillages; alice gifts carol a resource through the composer.
The seed is one where that plan works out within four turns.
"""

from __future__ import annotations

import random

from rules import registry
from tests.e2e.harness import World, menu_choices, world
from tests.e2e.test_games import _check_result

GAME = registry.get("city-heroes")
ROUND_ACTIONS = ("bank-", "influence-", "rival:", "token")
ALICE, BOB, CAROL = 0, 1, 2
SEED = 3
"""Seed 1 served until issue 19's recipes (Planks from 2 Timber) changed what the calm players can craft
and build: Bob no longer reached a pillage within the four turns. Seed 3 does."""


def _calm(state, seat, choices, rng):
    """An easy-going player: finishes an action at once, otherwise acts (no round actions) or passes."""
    plain = [
        c for c in choices if not c.key.startswith(ROUND_ACTIONS + ("gift:", "ask:")) and c.key != "end-pass"
    ]
    keys = {c.key: c for c in plain}
    if "end" in keys:
        return keys["end"]
    acts = [c for c in plain if c.key != "pass"]
    if acts and rng.random() < 0.7:
        return rng.choice(acts)
    return keys.get("pass") or rng.choice(plain or choices)


def _warlord(state, seat, choices, rng, plan):
    """Bob's plan: a tile next to a neighbour, weapons from the bank, a garrison there, a pillage."""
    keys = {c.key: c for c in choices}
    pillages = [c for c in choices if c.key.startswith("pillage")]
    if pillages:
        plan["pillaged"] = True
        return pillages[0]
    mine = {t.id for t in state.tiles if t.owner == seat}
    theirs = {t.id for t in state.tiles if t.owner not in (None, seat)}
    front = [t for t in sorted(mine) if set(GAME.adjacent(state, t)) & theirs]
    if state.phase == "expansion" and not front:
        near = [
            c
            for c in choices
            if c.key.startswith("buy:") and set(GAME.adjacent(state, int(c.key[4:]))) & theirs
        ]
        if near:
            return min(near, key=lambda c: GAME.price(state, seat, int(c.key[4:])))
    if state.phase == "construction" and front:
        if state.players[seat].stock["weapons"] > 0:
            garrison = [c for c in choices if c.key in (f"garrison:{front[0]}:all", f"garrison:{front[0]}:1")]
            if garrison:
                return garrison[0]
        if "bank-buy:weapons" in keys:
            return keys["bank-buy:weapons"]
    return _calm(state, seat, choices, rng)


async def _state(w: World):
    game = await w.bot.service.store.latest_game_in(w.channels["table"])
    return game, await w.bot.service.state(game)


async def _press(w: World, user, key: str) -> str:
    """Take my turn, then the button or select option of `key`; `/play` when the menu had no room."""
    turn = w.turn_messages()[-1]
    menu = await user.click(
        turn.id, next(c for _, c, _ in user.buttons(turn.id) if c and c.endswith(":menu"))
    )
    assert not menu.content.startswith("⚠️"), menu.content
    for _label, custom_id in menu_choices(menu):
        if custom_id.endswith(f":{key}") and "|" not in custom_id:
            return (await user.click(menu.message.id, custom_id)).content
        if custom_id.endswith(f"|{key}"):
            select_id, value = custom_id.split("|", 1)
            return (await user.select(menu.message.id, select_id, [value])).content
    return (await user.slash(w.channels["table"], "play", move=key)).content


async def _compose_gift(w: World, user, partner: str, text: str) -> str:
    turn = w.turn_messages()[-1]
    menu = await user.click(
        turn.id, next(c for _, c, _ in user.buttons(turn.id) if c and c.endswith(":menu"))
    )
    compose = next(cid for label, cid in menu_choices(menu) if label.startswith("🤝"))
    composer = await user.click(menu.message.id, compose)
    button = next(
        cid for label, cid, _ in user.buttons(composer.message.id) if label == f"Trade with {partner}"
    )
    form = await user.click(composer.message.id, button)
    return (await user.submit_modal(form, {"give": text, "get": ""})).content


async def test_three_player_game_with_a_trade_a_pillage_and_an_undo(tmp_path):
    async with world(tmp_path) as w:
        alice, bob, carol = (w.users[n] for n in ("alice", "bob", "carol"))
        users = [alice, bob, carol]
        table = w.channels["table"]
        await alice.slash(table, "game new", game="city-heroes", seed=SEED, options="turns=4")
        await bob.slash(table, "game join")
        await carol.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        rng = random.Random(SEED)
        plan = {"pillaged": False, "traded": False, "undone": False}
        gift = ""
        for _ in range(400):
            game, state = await _state(w)
            if GAME.result(state) is not None:
                break
            if state.proposal is not None:
                accepted = await _press(w, carol, "accept")
                assert accepted.startswith("✅"), accepted
                plan["traded"] = True
                await w.settle()
                continue
            seat = sorted(GAME.to_act(state))[0]
            choices = GAME.legal_actions(state, seat)
            stock = state.players[seat].stock
            if seat == ALICE and not plan["traded"] and GAME.trade_form(state, seat) and any(stock.values()):
                resource = next(r for r, n in stock.items() if n)
                gift = f"1 {resource}"
                sent = await _compose_gift(w, alice, "carol", gift)
                assert sent.startswith("✅"), sent
                await w.settle()
                continue
            if seat == BOB and not plan["pillaged"]:
                choice = _warlord(state, seat, choices, rng, plan)
            else:
                choice = _calm(state, seat, choices, rng)
            done = await _press(w, users[seat], choice.key)
            assert done.startswith("✅"), done
            await w.settle()
            if seat == ALICE and choice.key.startswith("buy:") and not plan["undone"]:
                # 'The Undo button moves to the start of a players' turn if they have taken any action':
                # her own turn in progress goes back at once, and the table is told.
                _, after = await _state(w)
                undone = await alice.slash(table, "undo")
                assert undone.ephemeral and "taken back" in undone.content, undone.content
                await w.settle()
                assert GAME.dump_state((await _state(w))[1]) == GAME.dump_state(state)
                assert "alice took back" in w.turn_messages()[-1].content
                plan["undone"] = True
                assert (await _press(w, alice, choice.key)).startswith("✅")
                await w.settle()
                assert GAME.dump_state((await _state(w))[1]) == GAME.dump_state(after)
        assert plan == {"pillaged": True, "traded": True, "undone": True}, plan
        await _check_result(w, "table")

        # The defender's summary reached the defender alone; the gift's contents only the two parties.
        game, _ = await _state(w)
        pillage = next(
            e
            for r in await w.bot.service.store.actions(game.id)
            for e in r.events
            if e.get("private") and "pillaged by bob" in next(iter(e["private"].values()))
        )
        ((defender, summary),) = pillage["private"].items()
        victim = users[int(defender)]
        assert any(summary in m.content for m in victim.dms())
        others = [u for u in users if u is not victim]
        assert not any(summary in m.content for u in others for m in u.dms())
        channel = "\n".join(m.content for m in w.public())
        assert "pillaged by bob" not in channel and "Your T" not in channel
        offer = f"alice offers you {gift}"
        assert any(offer in m.content for m in carol.dms())
        assert not any(offer in m.content for m in bob.dms()) and offer not in channel
        assert f"You offer {gift}" not in channel
