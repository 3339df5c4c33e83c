"""Quiet hours and deadlines in a player's own time zone: pure arithmetic, no clock."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.app.timing import (
    HOUR,
    QuietHours,
    TableSettings,
    deadline_due,
    matching_time_zones,
    reminder_due,
    valid_time_zone,
)


def utc(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


def iso(when: float) -> str:
    return datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d %H:%M")


NIGHT = {"start": 22, "end": 7}


def test_quiet_hours_crossing_midnight_east_of_utc():
    tokyo = QuietHours(**NIGHT, time_zone="Asia/Tokyo")  # UTC+9, no daylight saving
    assert not tokyo.contains(utc("2027-01-15 12:59"))  # 21:59 JST
    assert tokyo.contains(utc("2027-01-15 13:00"))  # 22:00 JST
    assert tokyo.contains(utc("2027-01-15 20:00"))  # 05:00 JST, after midnight
    assert not tokyo.contains(utc("2027-01-15 22:00"))  # 07:00 JST
    assert iso(tokyo.next_allowed(utc("2027-01-15 14:00"))) == "2027-01-15 22:00"  # 23:00 -> 07:00
    assert iso(tokyo.next_allowed(utc("2027-01-15 20:00"))) == "2027-01-15 22:00"  # 05:00 -> 07:00
    assert tokyo.next_allowed(utc("2027-01-15 09:00")) == utc("2027-01-15 09:00")  # 18:00: allowed


def test_quiet_hours_west_of_utc_follow_the_date_line_of_the_player():
    la = QuietHours(**NIGHT, time_zone="America/Los_Angeles")  # UTC-8 in January
    assert la.contains(utc("2027-01-16 07:00"))  # 23:00 on the 15th in Los Angeles
    assert iso(la.next_allowed(utc("2027-01-16 07:00"))) == "2027-01-16 15:00"  # 07:00 PST on the 16th
    assert not la.contains(utc("2027-01-15 20:00"))  # noon


def test_quiet_hours_inside_one_day():
    siesta = QuietHours(start=13, end=16, time_zone="Europe/Madrid")  # UTC+1 in January
    assert siesta.contains(utc("2027-01-15 12:30"))
    assert iso(siesta.next_allowed(utc("2027-01-15 12:30"))) == "2027-01-15 15:00"
    assert not siesta.contains(utc("2027-01-15 15:00"))


def test_daylight_saving_moves_the_end_of_the_night_in_utc():
    """Paris springs forward on 28 March 2027 at 02:00 local: the 07:00 end is 06:00 UTC the day
    before and 05:00 UTC that day. A fixed offset gets one of the two wrong."""
    paris = QuietHours(**NIGHT, time_zone="Europe/Paris")
    assert iso(paris.next_allowed(utc("2027-03-27 01:00"))) == "2027-03-27 06:00"  # 02:00 CET
    assert iso(paris.next_allowed(utc("2027-03-28 01:00"))) == "2027-03-28 05:00"  # 03:00 CEST
    fixed = QuietHours(**NIGHT, utc_offset_minutes=60)
    assert iso(fixed.next_allowed(utc("2027-03-28 01:00"))) == "2027-03-28 06:00"  # 08:00 CEST: wrong


def test_daylight_saving_autumn_night_is_an_hour_longer():
    """New York falls back on 7 November 2027 at 02:00: 22:00 EDT to 07:00 EST is 10 hours."""
    ny = QuietHours(**NIGHT, time_zone="America/New_York")
    start = ny.next_start(utc("2027-11-06 12:00"))
    assert iso(start) == "2027-11-07 02:00"  # 22:00 EDT on the 6th
    assert (ny.next_allowed(start) - start) / HOUR == 10


def test_an_end_hour_skipped_by_daylight_saving_ends_just_after_the_gap():
    """Quiet until 02:00 on the night New York skips 02:00-03:00: it ends at 03:00 EDT (07:00 UTC)."""
    ny = QuietHours(start=22, end=2, time_zone="America/New_York")
    end = ny.next_allowed(utc("2027-03-14 05:30"))  # 00:30 EST
    assert iso(end) == "2027-03-14 07:00"
    assert not ny.contains(end)


def test_without_a_zone_the_stored_offset_is_used():
    offset = QuietHours(start=19, end=7, utc_offset_minutes=60)
    assert offset.contains(utc("2027-01-15 20:30"))
    assert iso(offset.next_allowed(utc("2027-01-15 20:30"))) == "2027-01-16 06:00"
    assert offset.label() == "19:00–07:00 (UTC+1)"
    assert QuietHours(**NIGHT, time_zone="Asia/Kolkata").label() == "22:00–07:00 (Asia/Kolkata)"


def test_a_deadline_waits_for_the_end_of_quiet_hours_unless_the_table_is_strict():
    tokyo = QuietHours(**NIGHT, time_zone="Asia/Tokyo")
    now = utc("2027-01-15 08:00")
    assert iso(deadline_due(now, 12, tokyo)) == "2027-01-15 22:00"  # 05:00 JST -> 07:00 JST
    assert iso(deadline_due(now, 12, tokyo, strict=True)) == "2027-01-15 20:00"
    assert iso(deadline_due(now, 12, None)) == "2027-01-15 20:00"
    assert iso(deadline_due(now, 2, tokyo)) == "2027-01-15 10:00"  # 19:00 JST: not quiet, unchanged
    assert deadline_due(now, 0, tokyo) is None
    assert iso(reminder_due(now, 12, tokyo)) == "2027-01-15 22:00"


def test_strict_clocks_is_a_table_setting_that_survives_resolution():
    from bot.app.timing import GuildSettings

    resolved = TableSettings(strict_clocks=True).resolved(GuildSettings(deadline_hours=24))
    assert resolved.strict_clocks and resolved.deadline_hours == 24
    assert not TableSettings().resolved(GuildSettings()).strict_clocks


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("europe/paris", "Europe/Paris"), (" America/New York ", "America/New_York"), ("Mars/Olympus", None)],
)
def test_zone_names_are_checked_against_the_zone_database(typed, expected):
    assert valid_time_zone(typed) == expected


def test_autocomplete_puts_city_matches_first_and_offers_at_most_25():
    assert matching_time_zones("paris")[0] == "Europe/Paris"
    assert matching_time_zones("new y")[0] == "America/New_York"
    assert len(matching_time_zones("a")) == 25
    assert len(matching_time_zones("")) == 25
    assert matching_time_zones("zzzz-nothing") == []
