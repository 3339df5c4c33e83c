"""A game started under a rule finishes under it: an option added to change a rule (`OptionSpec.before`)
reads as its old value in the games created before it. Those games' stored options, and the files they
were exported to, lack the option, so starting, replaying (undo, the migration audit) and importing them
go through `Game.stored_options`.

The case: City Heroes' round actions (issue 41), now refused with no phase action left; before, a sale
then a pass were accepted. `tests/rules/city_heroes/saved_before_round_rule.json` was exported by the
code before the change, with such sales and passes in its log."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from bot.app.service import GameService
from bot.migrate import replay_problem
from bot.storage.store import Store
from rules import registry

SAVED = Path(__file__).resolve().parents[1] / "rules" / "city_heroes" / "saved_before_round_rule.json"
ALICE, BOB = 100, 200
CHANNEL = 5


def _position(state) -> str:
    return "sha256:" + hashlib.sha256(registry.get("city-heroes").dump_state(state).encode()).hexdigest()


async def test_a_file_exported_before_the_rule_imports_and_goes_on_under_the_old_rule(tmp_path):
    store = await Store.open(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        service = GameService(store)
        record, saved = await service.import_game(
            guild_id=1, channel_id=CHANNEL, user_id=ALICE, name="Alice", raw=SAVED.read_bytes()
        )
        assert saved.options == {"map_seed": 0, "turns": 0}
        assert record.options == {"map_seed": 0, "turns": 0, "round_actions": "alone_if_stuck"}
        await service.join(CHANNEL, BOB, "Bob")
        started = await service.start(CHANNEL, ALICE)
        assert not started.state.alongside and _position(started.state) == saved.position
        game = await store.game(record.id)
        for user in (ALICE, BOB):  # both pass the Interaction: the Cleanup, then turn 2
            await service.play(game.id, user, action={"kind": "pass"})
        game = await store.game(record.id)
        assert (await service.state(game)).turn == 2
        assert await replay_problem(service, game) is None
    finally:
        await store.close()


async def test_a_game_stored_before_the_rule_replays_its_old_moves(tmp_path):
    """A game created by the lobby before the option (its stored options lack it) starts and plays the
    file's moves, sales with no phase action left included, to the position the old code reached, and the
    audit replays it to its snapshot."""
    saved = json.loads(SAVED.read_text())
    store = await Store.open(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        service = GameService(store)
        record = await store.create_game(
            kind="city-heroes", guild_id=1, channel_id=CHANNEL, host_id=ALICE, host_name="Alice",
            options=saved["options"], seed=saved["seed"],
        )  # fmt: skip
        await service.join(CHANNEL, BOB, "Bob")
        await service.start(CHANNEL, ALICE)
        for move in saved["moves"]:
            await service.play(record.id, (ALICE, BOB)[move["seat"]], action=move["action"])
        game = await store.game(record.id)
        state = await service.state(game)
        assert not state.alongside and _position(state) == saved["position"]
        assert await replay_problem(service, game) is None
    finally:
        await store.close()
