"""What the bot's database says about a posts run: moves, handoffs and urgent moves per game.

Run by `bench/posts.py` as a script, with `PYTHONPATH=<the checkout's tree>`, after the bot process
stopped: the database is read with the store and rules of the tree that wrote it (a baseline's
schema and events are read by the baseline's own code). Prints one JSON object on stdout.

A *handoff* is a move after which the set of seats to act (`rules.to_act`) differs from the set
before it; the states come from `GameService.replay` (every effective state, rebuilt from the seed
and the log). A *handoff to a person* is a move after which a seat a person holds (not a computer's)
is to act and was not before it. An *urgent* move is a logged move with an event marked `"urgent"`
(a field the baseline may not have: then none are).

This file imports only `bot` and `rules` (the tree's), never `bench`.
"""

from __future__ import annotations

import asyncio
import json
import sys


async def _report(url: str) -> dict:
    import bot
    from bot.app.service import GameService
    from bot.storage.store import Store

    store = await Store.open(url)
    service = GameService(store)
    games = []
    try:
        for game_id in await store.game_ids():
            game = await store.game(game_id)
            if game is None or game.state is None:
                continue  # a lobby that never started
            rules = service.rules_for(game.kind)
            records = await store.actions(game_id)
            acting = [rules.to_act(state) for state in await service.replay(game)]
            people = {seat.seat for seat in await store.seats(game_id) if seat.user_id > 0}
            games.append(
                {
                    "id": game.id,
                    "kind": game.kind,
                    "channel": game.channel_id,
                    "status": str(game.status),
                    "moves": len(records),
                    "handoffs": sum(
                        1 for before, after in zip(acting, acting[1:], strict=False) if before != after
                    ),
                    "people_handoffs": sum(
                        1
                        for before, after in zip(acting, acting[1:], strict=False)
                        if (after - before) & people
                    ),
                    "urgent": sum(
                        1
                        for record in records
                        if any(isinstance(event, dict) and event.get("urgent") for event in record.events)
                    ),
                }
            )
    finally:
        await store.close()
    return {"bot": bot.__file__, "games": games}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(_report(sys.argv[1]))))
