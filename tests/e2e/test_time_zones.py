"""Time zones through the emulator: /me timezone, quiet hours in the player's zone, deadlines kept
out of quiet hours unless the table is strict, and every time shown as a Discord timestamp.

The fake clock starts on Friday 15 January 2027 at 08:00 UTC (17:00 in Tokyo).
"""

from __future__ import annotations

import re

from tests.e2e.harness import world

START = 1_800_000_000


def timestamps(text: str) -> list[int]:
    return [int(found) for found in re.findall(r"<t:(\d+):[FR]>", text)]


async def _table(w, host, others, **clock):
    table = w.channels["table"]
    await host.slash(table, "game new", game="test-highcard", seed=5)
    set_clock = await host.slash(table, "game clock", **clock)
    assert "Table clock" in set_clock.content, set_clock.content
    for user in others:
        await user.slash(table, "game join")
    await host.slash(table, "game start")
    await w.settle()


async def test_me_timezone_offers_zones_refuses_unknown_ones_and_shows_local_times(tmp_path):
    async with world(tmp_path) as w:
        bob = w.users["bob"]
        table = w.channels["table"]
        offered = await bob.autocomplete(table, "me timezone", "zone", "tokyo")
        assert [c["value"] for c in offered] == ["Asia/Tokyo"]
        assert len(await bob.autocomplete(table, "me timezone", "zone", "america")) == 25
        unknown = await bob.slash(table, "me timezone", zone="Mars/Olympus")
        assert unknown.ephemeral and "I do not know the time zone 'Mars/Olympus'" in unknown.content
        assert (await w.bot.service.store.player(bob.id) or {}).get("time_zone") is None  # nothing stored
        chosen = await bob.slash(table, "me timezone", zone="asia/tokyo")
        assert chosen.ephemeral and "**Asia/Tokyo**" in chosen.content and "17:00 there now" in chosen.content
        quiet = await bob.slash(table, "me quiet", start=22, end=7)
        assert "22:00–07:00 (Asia/Tokyo)" in quiet.content
        # the next quiet period is 22:00-07:00 JST = 13:00-22:00 UTC, shown as Discord timestamps
        assert timestamps(quiet.content) == [START + 5 * 3600, START + 14 * 3600]
        shown = await bob.slash(table, "me show")
        assert "Asia/Tokyo" in shown.content and timestamps(shown.content) == [
            START + 5 * 3600,
            START + 14 * 3600,
        ]
        assert not w.server.errors, w.server.errors


async def test_a_deadline_waits_for_the_end_of_a_players_night_in_their_zone(tmp_path):
    """A 12 h deadline falls at 20:00 UTC: 05:00 in Tokyo, inside bob's quiet hours, so his moves
    to 07:00 JST (22:00 UTC); alice has no quiet hours and keeps 20:00 UTC."""
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await bob.slash(w.channels["table"], "me timezone", zone="Asia/Tokyo")
        await bob.slash(w.channels["table"], "me quiet", start=22, end=7)
        await _table(w, alice, [bob], reminder_hours=10, deadline_hours=12, on_timeout="default")
        turn = w.turn_messages()[-1]
        assert f"alice <t:{START + 12 * 3600}:F>" in turn.content
        assert f"bob <t:{START + 14 * 3600}:F>" in turn.content
        game = await w.bot.service.store.latest_game_in(w.channels["table"])
        assert await w.bot.service.deadlines(game) == {0: START + 12 * 3600, 1: START + 14 * 3600}
        # the reminder (18:00 UTC = 03:00 JST is quiet for bob, so only alice's) names her deadline
        await w.advance(10.5)
        pinged = [m.content for m in w.public() if m.content.startswith("⏰")]
        assert len(pinged) == 1 and f"<@{alice.id}>" in pinged[0]
        assert f"<t:{START + 12 * 3600}:F>" in pinged[0] and f"<t:{START + 12 * 3600}:R>" in pinged[0]
        await w.advance(2)  # 20:30 UTC: alice's time is up, bob still sleeps
        timed_out = [m.content for m in w.turn_messages() if "ran out of time" in m.content]
        assert len(timed_out) == 1 and "alice ran out of time" in timed_out[0]
        await w.advance(2)  # 22:30 UTC: 07:30 in Tokyo
        timed_out = [m.content for m in w.turn_messages() if "ran out of time" in m.content]
        assert len(timed_out) == 2 and "bob ran out of time" in timed_out[1]
        assert not w.server.errors, w.server.errors


async def test_strict_clocks_keep_the_same_deadline_for_everyone(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        await bob.slash(w.channels["table"], "me timezone", zone="Asia/Tokyo")
        await bob.slash(w.channels["table"], "me quiet", start=22, end=7)
        table = w.channels["table"]
        await alice.slash(table, "game new", game="test-highcard", seed=5)
        clock = await alice.slash(table, "game clock", deadline_hours=12, on_timeout="default", strict=True)
        assert "strict" in clock.content
        await bob.slash(table, "game join")
        await alice.slash(table, "game start")
        await w.settle()
        turn = w.turn_messages()[-1]
        assert f"⏳ Deadline <t:{START + 12 * 3600}:F> (<t:{START + 12 * 3600}:R>)" in turn.content
        status = await bob.slash(table, "game status")
        assert f"<t:{START + 12 * 3600}:F>" in status.content
        mine = await bob.slash(table, "mygames")
        assert f"<t:{START + 12 * 3600}:F>" in mine.content
        await w.advance(12.5)
        assert len([m for m in w.turn_messages() if "ran out of time" in m.content]) == 2
        assert not w.server.errors, w.server.errors
