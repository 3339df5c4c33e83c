"""Computer seats act inside the turn they belong to (issue 36), in every game, through the emulator.

A run of computer moves is decided before anything is posted and folds into the one post of the next
handoff to a person (or the end): each person's move brings at most one new turn post, no post or edit
ever shows a position where a computer seat is still to act (its turn half played), every superseded
turn message has its buttons greyed out, and 🤖 marks only the computer's own lines. If the bot dies
between a person's move and the computer's answer, the restarted bot plays the computer and posts once.
"""

from __future__ import annotations

import random

import pytest

from bot.app.autoplay import automated
from bot.emulator.model import StoredMessage
from tests.e2e.harness import World, is_over, take_turn, world

#: (game, people besides alice, options): short games, one computer seat in each.
TABLES = [
    ("city-of-iron", ["bob"], ""),
    ("iron-bridge-gorge", ["bob"], "rounds=2"),
    ("iron-and-brass", [], "max_rounds=4 board_size=10"),
    ("city-heroes", [], "turns=2"),
]


def _plain(choices):
    """A person's random move, leaving trades out (a trade waits on its partner's answer)."""
    plain = [c for c in choices if not c[0].startswith(("Offer ", "Withdraw", "Propose"))]
    return plain or choices


async def _open(w: World, game: str, others: list[str], options: str, seed: int = 5) -> None:
    table = w.channels["table"]
    opened = await w.users["alice"].slash(table, "game new", game=game, seed=seed, ai=1, options=options)
    assert not opened.ephemeral, opened.content
    for name in others:
        joined = await w.users[name].slash(table, "game join")
        assert not joined.ephemeral, joined.content
    started = await w.users["alice"].slash(table, "game start")
    assert "has started" in started.content, started.content
    await w.settle()


async def _positions_shown(w: World) -> list[tuple[str, int]]:
    """(kind, version) of every post and edit delivered, each checked against the replayed game: none
    shows a position where a computer seat is to act, unless the game is over."""
    service = w.bot.service
    game = await service.store.latest_game_in(w.channels["table"])
    rules = service.rules_for(game.kind)
    states = await service.replay(game)
    seats = await service.store.seats(game.id)
    computers = automated(seats, None)
    shown = []
    for row in await service.store.outbox(game.id):
        if row.kind not in ("post", "edit") or row.status != "sent" or "content" not in row.payload:
            continue
        state = states[row.version]
        if rules.result(state) is None:
            assert not rules.to_act(state) & computers, (
                f"{row.kind} of move {row.version} shows a computer seat's turn half played:\n"
                + row.payload["content"]
            )
        shown.append((row.kind, row.version))
    return shown


def _buttons_live(message: StoredMessage) -> list[str]:
    return [label for label, _, disabled in message.buttons() if not disabled]


def _check_superseded(w: World) -> None:
    turns = w.turn_messages()
    for old in turns[:-1]:
        assert not _buttons_live(old), f"a superseded turn message keeps live buttons: {old.content[:200]}"
    assert _buttons_live(turns[-1]), "the current turn message has no buttons"


def _check_marks(w: World) -> None:
    for message in w.public():
        for line in message.content.splitlines():
            if "🤖" in line and line.startswith("•"):
                assert line.startswith("• 🤖 AI 1"), f"🤖 on a line that is not the computer's: {line}"


@pytest.mark.parametrize(("game", "others", "options"), TABLES, ids=[t[0] for t in TABLES])
async def test_a_computer_run_folds_into_the_next_post_to_a_person(tmp_path, game, others, options):
    async with world(tmp_path) as w:
        await _open(w, game, others, options)
        people = [w.users["alice"], *(w.users[name] for name in others)]
        assert len(w.turn_messages()) == 1, "the opening (and any computer run after it) is one post"
        rng = random.Random(3)
        moved = 0
        for _ in range(400):
            if is_over(w) or moved >= 60:
                break
            before = len(w.turn_messages())
            for person in rng.sample(people, len(people)):
                if await take_turn(w, "table", person, lambda c: rng.choice(_plain(c))):
                    moved += 1
                    break
            else:
                raise AssertionError("nobody could move: " + w.turn_messages()[-1].content[-300:])
            await w.settle()
            posted = len(w.turn_messages()) - before
            assert posted <= 1, f"one move of a person brought {posted} turn posts"
            _check_superseded(w)
        service = w.bot.service
        record = await service.store.latest_game_in(w.channels["table"])
        log = await service.store.actions(record.id)
        computer = [entry for entry in log if entry.user_id == 0]
        assert computer, "the computer seat never moved"
        shown = await _positions_shown(w)
        assert sum(kind == "post" for kind, _ in shown) == len(w.turn_messages())
        _check_marks(w)
        assert not w.server.errors, w.server.errors


@pytest.mark.parametrize(("game", "others", "options"), TABLES, ids=[t[0] for t in TABLES])
async def test_a_bot_that_dies_before_the_computer_answers_plays_it_after_the_restart(
    tmp_path, monkeypatch, game, others, options
):
    """The person's move is committed with its announcement held; the process dies before the
    computer moves (here: its driver never runs). The restarted bot plays the computer's run and
    posts it exactly once."""
    from bot.interface.table.base import TableBase

    async with world(tmp_path) as w:
        await _open(w, game, others, options)
        people = [w.users["alice"], *(w.users[name] for name in others)]
        service = w.bot.service
        record = await service.store.latest_game_in(w.channels["table"])
        rules = service.rules_for(record.kind)
        seats = await service.store.seats(record.id)
        computers = automated(seats, None)
        rng = random.Random(4)
        driving = TableBase.drive_ai

        async def dead(self, game_id, *, limit=400):  # the process is gone before the computer moves
            return 0

        for _ in range(300):  # people play until one of their moves hands the game to the computer
            record = await service.store.latest_game_in(w.channels["table"])
            state = await service.state(record)
            person = next(p for p in people if seats[min(rules.to_act(state))].user_id == p.id)
            choices_seen = []

            def pick(choices, seen=choices_seen):
                seen.extend(choices)
                return rng.choice(_plain(choices))

            monkeypatch.setattr(TableBase, "drive_ai", dead)
            assert await take_turn(w, "table", person, pick)
            await w.settle()
            record = await service.store.latest_game_in(w.channels["table"])
            if rules.to_act(await service.state(record)) & computers:
                break
            monkeypatch.setattr(TableBase, "drive_ai", driving)
        else:
            raise AssertionError("no move handed the game to the computer")
        waiting_at = record.version
        posts_before = len(w.turn_messages())
        monkeypatch.setattr(TableBase, "drive_ai", driving)
        await w.restart_bot()
        await w.settle()
        service = w.bot.service
        record = await service.store.latest_game_in(w.channels["table"])
        assert record.version > waiting_at, "the restarted bot did not play the computer seat"
        state = await service.state(record)
        assert rules.result(state) is not None or not rules.to_act(state) & computers
        assert len(w.turn_messages()) == posts_before + 1, "the computer's run was not posted exactly once"
        await _positions_shown(w)
        _check_superseded(w)
        assert not w.server.errors, w.server.errors
