"""Move deadlines on the server's calendar (Discord scheduled events), through the emulator."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.e2e.harness import open_game, take_turn, world

MANAGE_GUILD = 1 << 5
START = 1_800_000_000


def at(hours: float) -> datetime:
    return datetime.fromtimestamp(START + hours * 3600, UTC)


async def _admin(w, name: str = "owner"):
    owner = w.users[name]
    w.server.set_permissions(w.guild, owner.id, MANAGE_GUILD)
    await w.settle()
    return owner


async def test_one_event_per_game_follows_the_deadline_and_goes_when_the_game_ends(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "owner")) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        owner = await _admin(w)
        table = w.channels["table"]
        on = await owner.slash(table, "settings calendar", enabled=True)
        assert "Deadlines on the server calendar: on" in on.content and "Manage Events" not in on.content
        await owner.slash(table, "settings deadlines", hours=24, on_timeout="default")
        await open_game(w, "table", alice, [bob], seed=5, options="rounds=1")
        (event,) = w.server.scheduled_events(w.guild)
        assert event.entity_type == 3 and event.privacy_level == 2
        assert event.start == at(24) and event.end == at(25)
        game = await w.bot.service.store.latest_game_in(table)
        name = w.bot.service.rules_for(game.kind).info.name
        assert event.name == f"{name} #{game.id}: alice, bob to move"
        assert event.location == f"https://discord.com/channels/{w.guild}/{table}"
        assert f"<#{table}>" in event.description and "alice:" in event.description
        game = await w.bot.service.store.latest_game_in(table)
        assert (await w.bot.service.store.message(game.id, "calendar"))[1] == event.id
        # alice pledges two hours later: bob still owes his pledge with the same deadline
        w.clock.advance(2 * 3600)
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        (same,) = w.server.scheduled_events(w.guild)
        assert same.id == event.id and same.name.endswith("bob to move") and same.start == at(24)
        # bob pledges: the reveal starts a new turn whose deadline is 24 h from now
        w.clock.advance(3600)
        await take_turn(w, "table", bob, lambda c: c[0])
        await w.settle()
        (moved,) = w.server.scheduled_events(w.guild)
        assert moved.id == event.id and moved.start == at(27)
        # the clock plays out the rest; when the game is over its event is gone
        for _ in range(20):
            if (await w.bot.service.store.game(game.id)).status != "active":
                break
            await w.advance(25)
        assert (await w.bot.service.store.game(game.id)).status == "finished"
        assert w.server.scheduled_events(w.guild) == []
        assert await w.bot.service.store.message(game.id, "calendar") is None
        assert not w.server.errors and not w.server.unhandled, (w.server.errors, w.server.unhandled)


async def test_turning_the_calendar_off_removes_the_events_and_abandoning_removes_its_event(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "owner")) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        owner = await _admin(w)
        await owner.slash(w.channels["table"], "settings deadlines", hours=12)
        await open_game(w, "table", alice, [bob], seed=5)
        await open_game(w, "other", bob, [alice], seed=6)
        assert w.server.scheduled_events(w.guild) == []  # off by default
        await owner.slash(w.channels["table"], "settings calendar", enabled=True)
        await w.settle()
        assert len(w.server.scheduled_events(w.guild)) == 2  # the running games get theirs at once
        await owner.slash(w.channels["table"], "settings calendar", enabled=False)
        await w.settle()
        assert w.server.scheduled_events(w.guild) == []
        await owner.slash(w.channels["table"], "settings calendar", enabled=True)
        await w.settle()
        assert len(w.server.scheduled_events(w.guild)) == 2
        await alice.slash(w.channels["table"], "game abandon")
        done = await bob.slash(w.channels["table"], "game abandon")
        assert "abandoned" in done.content
        await w.settle()
        (left,) = w.server.scheduled_events(w.guild)
        assert str(w.channels["other"]) in left.location
        assert not w.server.errors, w.server.errors


async def test_without_manage_events_the_admin_and_the_table_are_told_once(tmp_path):
    async with world(tmp_path, users=("alice", "bob", "owner")) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        owner = await _admin(w)
        table = w.channels["table"]
        w.server.set_bot_can_manage_events(w.guild, False)
        await w.settle()
        warned = await owner.slash(table, "settings calendar", enabled=True)
        assert warned.ephemeral
        assert (
            "I need the Manage Events permission to keep deadlines on the server's calendar" in warned.content
        )
        await owner.slash(table, "settings deadlines", hours=24, on_timeout="default")
        await open_game(w, "table", alice, [bob], seed=5)
        await take_turn(w, "table", alice, lambda c: c[0])
        await w.settle()
        await take_turn(w, "table", bob, lambda c: c[0])
        await w.settle()

        def notices():
            return [m for m in w.public() if "Manage Events permission" in m.content]

        def event_calls():
            return [r for r in w.server.requests if "scheduled-events" in r[1]]

        assert len(notices()) == 1 and "/settings calendar" in notices()[0].content
        assert [status for _, _, status in event_calls()] == [403]  # asked once, not on every move
        assert w.server.scheduled_events(w.guild) == []
        # the admin grants the permission and saves the setting again: the event appears at once
        w.server.set_bot_can_manage_events(w.guild, True)
        await w.settle()
        fixed = await owner.slash(table, "settings calendar", enabled=True)
        assert "Manage Events" not in fixed.content
        await w.settle()
        assert len(w.server.scheduled_events(w.guild)) == 1
        assert len(notices()) == 1
        assert not w.server.errors, w.server.errors
