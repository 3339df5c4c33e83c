"""Any display name, through every game's posts, edits, DMs and pictures (issues 18 and 37).

Names are drawn by hypothesis from all of Unicode, plus the ones that broke things: a mention of
someone outside the game, markdown, newlines, control characters, right-to-left text, 200 characters.
Each game is played a few random moves and every outbox row its moves owe is checked: it fits
Discord's limit, it can ping nobody but the seats the bot names, no name adds a line or a mention, and
the pictures of its views are drawn.

Then the tour (issue 37): all four games played through the emulator by users whose display names are
hostile (markdown, a mention of an outsider, `@everyone`, a channel and a timestamp, a right-to-left
override, a line break, 10,000 characters), through every command and button a table uses, and a
saved game imported with hostile names in its file. Every payload the emulator received is scanned:
public posts and their edits, ephemeral replies, DMs, embeds, alt text, buttons, select options, forms,
autocomplete choices, thread and event names. Where Discord renders markdown, no name may render or
ping (`bot.app.text.escape_text`); where it shows text as typed, no name may carry a control or bidi
character or a line break, nor show escaping backslashes (`plain_text`).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.app import announcer, archive
from bot.emulator.driver import UserSession
from bot.emulator.server import FakeDiscord
from bot.storage.store import GameRecord, GameStatus, SeatRecord
from renderer.registry import render
from rules import registry
from rules.core import LABEL_MOST
from tests.e2e.harness import World, world
from tests.quality.support import open_menu, random_move, turn_messages

GAMES = [game for game in registry.all_games() if not game.info.id.startswith("test-")]
OUTSIDER = 111111111111111111
TRICKY = [
    f"<@{OUTSIDER}> **bold** `code`",
    "a\nb\r\nc",
    "\x00\x1b[31m\u202eevil",
    "@everyone @here",
    "שלום 3",
    "مرحبا بك",
    "x" * 200,
    "",
    "   ",
    "||spoiler|| __u__ ~~s~~ > quote # head",
]
names = st.text(min_size=0, max_size=200)


def _seats(players: list[str]) -> list[SeatRecord]:
    return [
        SeatRecord(game_id=1, seat=i, user_id=1000 + i, name=name, dm_closed=False)
        for i, name in enumerate(players)
    ]


def _record(kind: str) -> GameRecord:
    return GameRecord(
        id=1,
        kind=kind,
        guild_id=5,
        channel_id=7,
        host_id=1000,
        status=GameStatus.ACTIVE,
        options={},
        seed=1,
        version=0,
        state=None,
        result=None,
        created_at="",
        updated_at="",
        finished_at=None,
    )


def _check(delivery, seats: list[SeatRecord], players: list[str]) -> None:
    if delivery.kind == "repaint":  # a picture only: its view is drawn below
        return
    content = delivery.payload["content"]
    assert len(content) <= 2000
    ours = {str(seat.user_id) for seat in seats}
    mentioned = re.findall(r"<@!?&?(\d+)>", content)
    assert set(mentioned) <= ours, mentioned  # a name can never smuggle in a mention
    bare = re.sub(r"<[@#]\d+>", "", content)
    assert re.search("@(?!\u200b)", bare) is None, bare  # every other @ is made inert
    assert {int(u) for u in delivery.payload.get("ping", [])} <= {s.user_id for s in seats}
    for name in players:
        if "\n" in name.strip() or "\r" in name.strip():
            assert name not in content  # the name's line breaks never reach the post


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(names, min_size=4, max_size=4), st.integers(0, 2**16))
@example(TRICKY[:4], 1)
@example(TRICKY[4:8], 2)
@example(TRICKY[6:], 3)
def test_any_name_through_every_games_posts_and_pictures(players: list[str], seed: int) -> None:
    for rules in GAMES:
        count = max(rules.info.min_players, min(rules.info.max_players, 3))
        chosen = players[:count]
        seats = _seats(chosen)
        table = announcer.Table(game=_record(rules.info.id), rules=rules, seats=seats, now=0.0)
        state = rules.setup(chosen, {}, seed)
        owed = announcer.announce(table, 0, None, state, [], None)
        rng = random.Random(seed)
        views = []
        for version in range(1, 13):
            for delivery in owed:
                _check(delivery, seats, chosen)
                if delivery.kind in ("post", "edit"):
                    table.live = announcer.Live.load(delivery.payload)
                if delivery.payload.get("view"):
                    views.append(delivery.payload["view"])
            waiting = sorted(rules.to_act(state))
            if not waiting:
                break
            seat = rng.choice(waiting)
            choice = rng.choice(rules.legal_actions(state, seat))
            applied = rules.apply(state, seat, choice.action)
            result = rules.result(applied.state)
            owed = announcer.announce(table, version, state, applied.state, applied.events, result)
            state = applied.state
        for data in views[-2:]:  # the latest public picture and a private one when there is one
            assert render(rules.load_view(data))[:4] == b"\x89PNG"


def test_long_names_never_stop_a_game() -> None:
    """Choice labels quote names ("Offer your … card to <name> for 5 coins"): with 200-character names
    they are cut to Discord's 100 characters instead of the seat losing its choices."""
    for rules in GAMES:
        count = max(rules.info.min_players, min(rules.info.max_players, 3))
        players = [str(seat) * 200 for seat in range(count)]
        state = rules.setup(players, {}, 4)
        rng = random.Random(4)
        for _ in range(300):
            waiting = sorted(rules.to_act(state))
            if not waiting:
                break
            seat = rng.choice(waiting)
            choices = rules.legal_actions(state, seat)
            assert all(len(choice.label) <= LABEL_MOST for choice in choices)
            state = rules.apply(state, seat, rng.choice(choices).action).state


# ---- the tour (issue 37) -----------------------------------------------------------------------------
HOSTILE = {
    "ann": f"**Ann1** <@{OUTSIDER}>",
    "bea": "@everyone __Bea2__ ||x||",
    "cyd": "# ~~Cyd3~~ `c` <#9> <t:9:R>",
    "dee": "\u202eDee4\nrtl " + "x" * 10_000,
    "eve": "1. [Eve5](https://e.x) @here > q",
}
"""Display names: each marker (`Ann1`…) touches the markdown around it, so a name shown raw is seen."""
IN_FILE = f"\u202e<@{OUTSIDER}> **Zed6**\n" + "z" * 60
"""A seat's name in an imported file (a computer's seat: it stays in the game as it is named)."""
MARKERS = ("Ann1", "Bea2", "Cyd3", "Dee4", "Eve5", "Zed6")
TOUR_OPTIONS = {"city-heroes": "turns=2", "iron-and-brass": "max_rounds=3", "iron-bridge-gorge": "rounds=3"}
SPECIAL = "*_~|`"
BIDI = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def raw_names(text: str, *, markdown: bool) -> list[str]:
    """What in `text` shows a hostile name raw: empty when every name in it is inert (markdown) or
    fitted (plain)."""
    found = []
    if BIDI.search(text) or CONTROL.search(text) or (not markdown and "\n" in text):
        found.append("a control or bidi character, or a line break in a plain field")
    for marker in MARKERS:
        for hit in re.finditer(marker, text):
            start, end = hit.span()
            before = text[start - 1] if start else " "
            after = text[end] if end < len(text) else " "
            escaped = start >= 2 and text[start - 2] == "\\"
            if markdown and before in SPECIAL + "[" and not escaped:
                found.append(f"markdown before {marker}")
            if markdown and after in SPECIAL:
                found.append(f"markdown after {marker}")
            if not markdown and escaped:
                found.append(f"backslashes shown around {marker} where Discord shows text as typed")
            if after == "\n":
                found.append(f"a line break inside {marker}'s name")
    if markdown:
        if re.search(f"<@!?{OUTSIDER}>", text):
            found.append("a mention of someone outside the game")
        if re.search("@(everyone|here)", text):
            found.append("@everyone or @here")
        if re.search(r"(?<!\\)<(#9|t:9:R)>", text):
            found.append("a channel or timestamp from a name")
        for line in text.split("\n"):
            if any(marker in line for marker in MARKERS) and re.match(r"\s*(#{1,3}|-#|>{1,3})\s", line):
                found.append("a heading or quote made by a name")
    return found


def payloads(server: FakeDiscord, guild: int) -> Iterator[tuple[str, str, bool]]:
    """(where, text, whether Discord renders markdown there) of everything the bot sent."""
    for message in server.message_versions:
        where = f"message {message.id}"
        yield where, message.content, True
        for embed in message.embeds:
            for key in ("title", "description"):
                yield f"{where} embed {key}", str(embed.get(key) or ""), True
            for part in embed.get("fields", []):
                yield f"{where} embed field", f"{part.get('name', '')}\n{part.get('value', '')}", True
            for key in ("footer", "author"):
                yield (
                    f"{where} embed {key}",
                    str((embed.get(key) or {}).get("text") or (embed.get(key) or {}).get("name") or ""),
                    True,
                )
        for component in message.iter_components():
            for key in ("label", "placeholder"):
                yield f"{where} {key}", str(component.get(key) or ""), False
            for option in component.get("options", []):
                yield f"{where} option", f"{option.get('label', '')} {option.get('description') or ''}", False
        for attachment in message.attachments:
            yield f"{where} alt text", attachment.description or "", False
            yield f"{where} file name", attachment.filename, False
    for record in server.world.interactions.values():
        if record.modal:
            yield "form title", str(record.modal.get("title", "")), False
            for text in _labels(record.modal.get("components", [])):
                yield "form label", text, False
        for choice in record.choices or []:
            yield "autocomplete choice", str(choice.get("name", "")), False
    for channel in server.world.channels.values():
        if channel.type in (11, 12):
            yield "thread name", channel.name, False
    for event in server.scheduled_events(guild):
        yield "event name", event.name, False
        yield "event description", event.description or "", True


def _labels(components: list) -> Iterator[str]:
    for component in components:
        for key in ("label", "placeholder"):
            if component.get(key):
                yield str(component[key])
        yield from _labels(component.get("components", []))
        if isinstance(component.get("component"), dict):
            yield from _labels([component["component"]])


async def _press(user: UserSession, message, suffix: str):  # noqa: ANN001, ANN202
    custom_id = next((cid for _, cid, _ in message.buttons() if cid and cid.endswith(suffix)), None)
    return await user.click(message.id, custom_id) if custom_id else None


async def _look(w: World, users: list[UserSession], table: int) -> None:
    """Every button of the turn post and every command that shows the game: each user the ones about
    the game, the first user the ones about everyone's games."""
    turn = turn_messages(w.server, table)[-1]
    for user in users:
        for suffix in (":hand", ":board", ":log"):
            shown = await _press(user, turn, suffix)
            sections = [
                cid
                for _, cid, disabled in (shown.message.buttons() if shown and shown.message else [])
                if cid and ":sec:" in cid and not disabled
            ]
            if sections:
                await user.click(shown.message.id, sections[0])
        for command in ("hand", "board", "log", "catchup", "game status"):
            await user.slash(table, command)
    first = users[0]
    for command, options in (
        ("game list", {"scope": "channel"}),
        ("game list", {"scope": "mine"}),
        ("mygames", {}),
        ("stats", {}),
        ("stats", {"player": users[-1].id}),
        ("leaderboard", {}),
    ):
        await first.slash(table, command, **options)
    await users[-1].slash(table, "board", public=True)
    await first.slash(table, "game replay")
    await first.autocomplete(table, "play", "move", "")
    await w.settle()


async def _moves(w: World, users: list[UserSession], table: int, rng: random.Random, count: int) -> None:
    for _ in range(count):
        if await random_move(w.server, table, users, rng) is None:
            break
        await w.settle()


async def _trade(w: World, users: list[UserSession], table: int) -> None:
    """The trade composer, by whoever's menu offers it: partner buttons, the form, typed text."""
    turn = turn_messages(w.server, table)[-1]
    for user in users:
        menu = await open_menu(user, turn)
        composer = menu and await _press(user, menu.message, ":trade")
        if composer is None or composer.message is None:
            continue
        form = await _press(
            user,
            composer.message,
            next(
                (
                    cid.rsplit(":", 2)[-2] + ":" + cid.rsplit(":", 1)[1]
                    for _, cid, _ in composer.message.buttons()
                    if cid and ":tradeto:" in cid
                ),
                ":none",
            ),
        )
        if form is not None and form.modal is not None:
            await user.submit_modal(form, {"give": f"**x** <@{OUTSIDER}> @everyone", "get": "1 <#9>"})
        return


async def _undo(w: World, users: list[UserSession], table: int, rng: random.Random) -> None:
    """Moves until one hands the game on and its mover may ask the table to take it back: the
    request names who must approve, and one of them does."""
    for _ in range(40):
        moved = await random_move(w.server, table, users, rng)
        await w.settle()
        if moved is None:
            return
        service = w.bot.service
        game = await service.open_game_in(table)
        seat = await service.seat_of(game, moved[0].id)
        if seat is None or seat.seat in await service.to_act(game):
            continue  # the mover's turn goes on: an undo now takes it back alone
        asked = await moved[0].slash(table, "undo")
        if "Waiting for" in asked.content and asked.message is not None:
            for other in users:
                if other is not moved[0] and await _press(other, asked.message, ":yes"):
                    break
            await w.settle()
            return


def _hostile_file(data: bytes, computer: bool) -> bytes:
    """The exported file with its first seat renamed `IN_FILE` and, when `computer`, made a
    computer's seat; the position hash recomputed (names are part of the position)."""
    saved = json.loads(data)
    rules = registry.get(saved["game"])
    saved["seats"][0]["name"] = IN_FILE
    saved["seats"][0]["computer"] = computer
    options = rules.stored_options(saved["options"])
    state = rules.setup([seat["name"] for seat in saved["seats"]], options, saved["seed"])
    for move in saved["moves"]:
        state = rules.apply(state, move["seat"], move["action"]).state
    saved["position"] = archive.position_hash(rules, state)
    return json.dumps(saved).encode()


async def tour(w: World, kind: str) -> None:
    ann, bea, cyd, dee, eve = (w.users[HOSTILE[key]] for key in ("ann", "bea", "cyd", "dee", "eve"))
    table, other = w.channels["table"], w.channels["other"]
    info = registry.get(kind).info
    players = [ann, bea, cyd][: min(3, info.max_players)]
    rng = random.Random(kind)
    opened = await ann.slash(table, "game new", game=kind, seed=5, options=TOUR_OPTIONS.get(kind, ""))
    assert not opened.ephemeral, opened.content
    await eve.slash(table, "game join")
    await eve.slash(table, "game leave")
    await players[1].slash(table, "game join")
    for user in players[2:]:
        await _press(user, opened.message, ":join")
    await ann.slash(table, "game status")
    await ann.slash(table, "game clock", reminder_hours=1, deadline_hours=3, on_timeout="skip")
    started = await ann.slash(table, "game start")
    assert "has started" in started.content, started.content
    await w.settle()
    await eve.slash(table, "game follow", mode="dm")
    await eve.slash(table, "game follow", mode="thread")
    await _moves(w, players, table, rng, 4)
    for user in players:
        await user.slash(table, "play", move=f"**zz** <@{OUTSIDER}> @everyone <#9>")
    await _look(w, [*players, eve], table)
    await _trade(w, players, table)
    await _undo(w, players, table, rng)
    await w.settle()
    await w.advance(1.5)  # the reminder
    await w.advance(2.0)  # the deadline: the clock plays for the waiting seat, naming it
    await _moves(w, players, table, rng, 2)
    for user in players:
        saved = await user.slash(table, "game export")
    data = saved.files[0][1] if saved.files else None
    replaced = await ann.slash(table, "game replace", old=players[-1].id, new=eve.id)
    if replaced.message is not None:
        for user in players[1:-1]:
            await _press(user, replaced.message, ":yes")
    await w.settle()
    await eve.slash(table, "hand")
    await ann.slash(table, "game abandon")
    await w.settle()
    assert data is not None, "every player agreed: the file goes to each"
    hostile = _hostile_file(data, computer=info.max_players > 2)
    imported = await dee.slash(other, "game import", file=(f"ironhost-{kind}.json", hostile))
    assert not imported.ephemeral, imported.content
    wanted = sum(1 for seat in json.loads(hostile)["seats"] if not seat["computer"])
    for user in [eve, ann][: wanted - 1]:
        await user.slash(other, "game join")
    await dee.slash(other, "game seat", player=dee.id, saved_seat=2)
    await dee.slash(other, "game start")
    await w.settle()
    await _look(w, [dee], other)


@pytest.mark.parametrize("kind", ["city-of-iron", "iron-bridge-gorge", "iron-and-brass", "city-heroes"])
async def test_hostile_names_through_the_tour_never_render_or_ping(tmp_path: Path, kind: str) -> None:
    async with world(tmp_path, users=tuple(HOSTILE.values())) as w:
        await tour(w, kind)
        await w.settle()
        scanned = with_names = 0
        found = []
        for where, text, markdown in payloads(w.server, w.guild):
            scanned += 1
            with_names += any(marker in text for marker in MARKERS)
            found += [f"{where}: {problem}: {text[:160]!r}" for problem in raw_names(text, markdown=markdown)]
        for message in w.server.message_versions:
            assert OUTSIDER not in message.pinged_users and not message.pings_everyone, message.content
        print(f"\n{kind}: {scanned} payloads scanned, {with_names} with a hostile name, {len(found)} raw")
        assert not found, "\n".join(found[:15])
        shown = "\n".join(text for _, text, _ in payloads(w.server, w.guild))
        for seen in ("Waiting for:", "Still to agree", "→", "Latest moves", "Players:", "ran out of time"):
            assert seen in shown, f"the tour never reached a message with {seen!r}"
        seated = 2 if kind == "iron-and-brass" else 3
        assert with_names > 50 and all(marker in shown for marker in (*MARKERS[:seated], "Eve5", "Zed6"))
        assert not w.server.errors, w.server.errors


def test_the_scan_sees_a_raw_name() -> None:
    """The check above would catch each way a name can show raw."""
    assert raw_names("Waiting for: **Ann1** now", markdown=True)
    assert raw_names(f"hi <@{OUTSIDER}>", markdown=True)
    assert raw_names("by @everyone", markdown=True)
    assert raw_names("# ~~Cyd3~~", markdown=True)
    assert raw_names("Dee4\nrtl", markdown=True)
    assert raw_names("\u202eDee4", markdown=False)
    assert raw_names("Trade with \\*\\*Ann1", markdown=False)
    from bot.app.text import escape_text, plain_text

    for name in HOSTILE.values():
        assert not raw_names(f"Waiting for: {escape_text(name)}.", markdown=True), escape_text(name)
        assert not raw_names(f"Trade with {plain_text(name, 80)}", markdown=False)
