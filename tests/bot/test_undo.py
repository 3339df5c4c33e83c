"""Undo plans: 'The Undo button moves to the start of a players' turn if they have taken any action, or to
the start of the previous players' turn if the current player has not taken any actions.' (City Heroes
guide, Right Panel). Games without turns take back one move."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.app.undo import plan_undo
from rules import registry


@dataclass
class Record:
    version: int
    seat: int
    user_id: int
    action: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)


class Table:
    """Plays keyed choices and keeps the states and log records as the bot's store would."""

    def __init__(self, game: str, players: int = 2, seed: int = 1) -> None:
        self.rules = registry.get(game)
        self.states = [self.rules.setup([f"p{i}" for i in range(players)], {}, seed)]
        self.moves: list[Record] = []

    def play(self, seat: int, key: str) -> None:
        choice = next(c for c in self.rules.legal_actions(self.states[-1], seat) if c.key == key)
        applied = self.rules.apply(self.states[-1], seat, choice.action)
        self.states.append(applied.state)
        events = [event.model_dump(mode="json") for event in applied.events]
        self.moves.append(Record(len(self.moves) + 1, seat, 100 + seat, choice.action, events))

    def plan(self):
        return plan_undo(self.rules, self.states, self.moves)


def test_city_heroes_undo_goes_back_to_the_start_of_the_turn_in_progress():
    table = Table("city-heroes")
    table.play(0, "buy:1")
    table.play(0, "bank-buy:wheat")
    plan = table.plan()
    assert plan.in_progress and plan.owner == 0 and [m.version for m in plan.moves] == [1, 2]
    assert plan.describe() == "their turn so far (2 moves)"


def test_city_heroes_undo_with_nothing_done_goes_back_to_the_previous_players_turn():
    table = Table("city-heroes")
    table.play(0, "buy:1")
    table.play(0, "end")  # bob now has the move and has done nothing
    plan = table.plan()
    assert not plan.in_progress and plan.owner == 0 and [m.version for m in plan.moves] == [1, 2]
    table.play(1, "buy:5")
    plan = table.plan()
    assert plan.in_progress and plan.owner == 1 and [m.version for m in plan.moves] == [3]


def test_city_heroes_solo_turns_are_told_apart():
    """A solo player follows themself; each turn is still its own."""
    table = Table("city-heroes", players=1)
    table.play(0, "buy:1")
    table.play(0, "end")
    table.play(0, "pass")
    plan = table.plan()
    assert plan.in_progress is False and [m.version for m in plan.moves] == [3]


def test_a_game_without_turn_keys_takes_back_one_move():
    table = Table("test-highcard")
    first = next(iter(table.rules.to_act(table.states[-1])))
    table.play(first, table.rules.legal_actions(table.states[-1], first)[0].key)
    plan = table.plan()
    assert [m.version for m in plan.moves] == [1] and not plan.in_progress
    assert plan.describe() == "their last move"


def test_iron_bridge_gorge_turn_runs_through_its_phases_and_bids_stand_alone():
    """'Each player gets a turn. A turn has 6 phases'; secret bids are single moves."""
    table = Table("iron-bridge-gorge", players=2, seed=3)
    table.play(0, "bid:0")
    assert [m.version for m in table.plan().moves] == [1]
    table.play(1, "bid:0")  # the last bid reveals them all: no undo past it
    assert table.plan().reveals
    first = table.rules.to_act(table.states[-1]).pop()
    take = next(
        c.key for c in table.rules.legal_actions(table.states[-1], first) if c.key.startswith("take:")
    )
    table.play(first, take)
    table.play(first, "end-turn")
    plan = table.plan()
    assert plan.owner == first and not plan.in_progress and [m.version for m in plan.moves] == [3, 4]


def test_iron_and_brass_turn_of_up_to_four_actions():
    """'Each round, each player can take up to 4 actions in their turn.'"""
    table = Table("iron-and-brass", players=2, seed=5)
    seat = table.rules.to_act(table.states[-1]).pop()
    keys = [c.key for c in table.rules.legal_actions(table.states[-1], seat)]
    hire = next(k for k in keys if k.startswith("hire"))
    table.play(seat, hire)
    table.play(seat, hire)
    plan = table.plan()
    assert plan.in_progress and plan.owner == seat and len(plan.moves) == 2


async def test_an_undo_asked_after_another_undo_can_be_approved(tmp_path):
    """Bob passes, alice pledges and the table takes her pledge back: bob's pass is the last move again
    and `/undo` accepts his request. The log's last entry is now the undo, so the game's version is past
    his move's; the approval must still take it back (it used to be refused as 'moved on' every time)."""
    from bot.app.service import GameService
    from bot.storage.store import Store

    store = await Store.open(f"sqlite:///{tmp_path / 'games.db'}")
    service = GameService(store)
    alice, bob = 1, 2
    try:
        game = await service.new_game(
            kind="test-highcard", guild_id=1, channel_id=1, user_id=alice, name="alice", seed=4
        )
        await service.join(1, bob, "bob")
        await service.start(1, alice)
        for user, key in ((alice, "pledge:4"), (bob, "pledge:16"), (alice, "pass"), (bob, "pass")):
            await service.play(game.id, user, key=key)
        passed = await store.game(game.id)
        await service.play(game.id, alice, key="pledge:5")
        _, plan, _ = await service.undo_request(1, alice)
        assert (await service.undo_vote(game.id, bob, plan.last_version, True))[0] == "done"
        _, plan, others = await service.undo_request(1, bob)
        assert plan.last_version == passed.version and others == ["alice"]
        outcome, move, _ = await service.undo_vote(game.id, alice, plan.last_version, True)
        assert outcome == "done" and move.events[0].text.startswith("bob took back")
        assert (await service.state(await store.game(game.id))).drawer == 1  # bob draws or passes again
    finally:
        await store.close()


async def test_the_kept_turn_keys_plan_as_the_full_replay(tmp_path, monkeypatch):
    """The Undo button asks `can_undo` after every move, which plans from the turn keys the service keeps
    between moves (extended by the moves it commits) instead of replaying the game or reading the log.
    Through random games with undos, moves made between
    two looks, and a window smaller than a turn (so the cut and the full-replay fallback both happen),
    it plans exactly as the full replay does."""
    import random

    from bot.app import service as service_module
    from bot.app import undo_requests
    from bot.app.service import GameService
    from bot.storage.store import GameStatus, Store

    monkeypatch.setattr(undo_requests, "TURN_WINDOW", 3)
    store = await Store.open(f"sqlite:///{tmp_path / 'games.db'}")
    service = GameService(store)

    def shape(plan):
        return plan and ([m.version for m in plan.moves], plan.owner, plan.in_progress)

    try:
        games = (("iron-bridge-gorge", 3), ("city-heroes", 3), ("iron-and-brass", 2), ("test-highcard", 2))
        for channel, (kind, players) in enumerate(games, start=1):
            game = await service.new_game(
                kind=kind, guild_id=1, channel_id=channel, user_id=1, name="p1", seed=3
            )
            for user in range(2, players + 1):
                await service.join(channel, user, f"p{user}")
            await service.start(channel, 1)
            rng = random.Random(kind)
            undone = 0
            for _ in range(150):
                game = await store.game(game.id)
                if game.status != GameStatus.ACTIVE:
                    break
                if rng.random() < 0.5:  # sometimes several moves are made between two looks
                    kept = await service._current_undo_plan(game)
                    full, _ = await service._undo_plan(game)
                    assert shape(kept) == shape(full), (kind, game.version)
                    # what the Undo button reads: the moves as kept in memory, extended by each move
                    # this service committed (no log read), must say the same, revealing moves included
                    remembered = await service._current_undo_plan(game, kept=True)
                    assert shape(remembered) == shape(full), (kind, game.version)
                    assert (remembered and remembered.reveals) == (full and full.reveals)
                    assert [m.model_dump() for m in (kept.moves if kept else [])] == [
                        m.model_dump() for m in (full.moves if full else [])
                    ]
                    for seat in await store.seats(game.id):
                        accepted = True
                        try:
                            _, asked, _ = await service.undo_request(channel, seat.user_id)
                        except service_module.UserError:
                            accepted = False
                        else:  # only a look: the request's ballot is closed again (asking twice is refused)
                            await store.clear_votes(game.id, f"undo:{asked.last_version}")
                        assert await service.can_undo(game, seat.user_id) == accepted, (kind, game.version)
                    if rng.random() < 0.2 and full and not full.reveals:
                        asker = full.moves[-1].user_id
                        if asker > 0 and await service.can_undo(game, asker):
                            _, plan, others = await service.undo_request(channel, asker)
                            if others:
                                for seat in await store.seats(game.id):
                                    if seat.user_id != asker:
                                        await service.undo_vote(
                                            game.id, seat.user_id, plan.last_version, True
                                        )
                            else:
                                await service.undo_alone(channel, asker)
                            undone += 1
                            continue
                seat = rng.choice(sorted(await service.to_act(game)))
                choices = await service.choices(game, seat)
                await service.play(game.id, seat + 1, key=rng.choice(choices).key)
            assert undone, kind
    finally:
        await store.close()
