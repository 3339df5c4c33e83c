"""The `/rules` summaries (`rules/help.py`, `data/<game>/rules.md`), the `/card` catalogues and the
`/rules` topic each game's view points to."""

from __future__ import annotations

import dataclasses
import importlib
import json
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import get_args

import pytest

from rules import help as rules_help
from rules import registry
from rules.core import Game

DATA = Path(__file__).resolve().parents[2] / "data"
GAMES: dict[str, Game] = {
    (game := importlib.import_module(module).GAME).info.id: game for module in registry.BUILTIN_MODULES
}


# ---- rules.md and its loader ------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_has_topics_within_limits(game_id):
    topics = rules_help.topics(game_id)
    assert len(topics) >= 8
    assert topics[0].id == "overview" and topics[1].id == "setup"
    assert len({topic.id for topic in topics}) == len(topics)
    for topic in topics:
        assert topic.id == rules_help.slug(topic.title)
        assert 0 < len(topic.text) <= rules_help.MAX_TOPIC_CHARS
        assert topic.source and "Full text" not in topic.text
        # One message or embed description: the text, a heading and the pointer to the next topic.
        assert len(topic.text) + len(topic.title) + len(topic.source) + 200 < 2000


def test_city_of_iron_topics_follow_the_issue():
    ids = [topic.id for topic in rules_help.topics("city-of-iron")]
    wanted = [
        "bidding",
        "actions",
        "building",
        "towns",
        "end-of-round",
        "scoring",
        "nations",
        "expansion-towns",
    ]
    assert [topic for topic in ids if topic in wanted] == wanted  # all there, in this order


@pytest.mark.parametrize("game_id", ["city-of-iron", "iron-and-brass", "city-heroes"])
def test_designed_data_is_marked_designed(game_id):
    text = rules_help.rules_path(game_id).read_text(encoding="utf-8")
    assert text.count("Designed") + text.count("designed") >= 3


def test_iron_and_brass_pieces_match_the_data():
    """The units and structures topics quote every token of pieces.json exactly."""
    text = rules_help.rules_path("iron-and-brass").read_text(encoding="utf-8")
    for piece in json.loads((DATA / "iron_and_brass" / "pieces.json").read_text())["pieces"]:
        assert f"**{piece['name']}**" in text, piece["name"]
        assert f"`{piece['token']}`" in text, piece["name"]


def test_slug():
    assert rules_help.slug("End of round") == "end-of-round"
    assert rules_help.slug("  Bank and end phase ") == "bank-and-end-phase"
    assert rules_help.slug("Iron & Brass: units") == "iron-brass-units"


GOOD = "# Title\n\n## First topic\nSome text.\nFull text: Setup\n\n## Second\nMore.\nFull text: Turns\n"


def test_parse_reads_topics_in_order():
    topics = rules_help.parse(GOOD, "x/rules.md")
    assert [(t.id, t.title, t.text, t.source) for t in topics] == [
        ("first-topic", "First topic", "Some text.", "Setup"),
        ("second", "Second", "More.", "Turns"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("## A\nText without a source.\n", r"section 'A': must end with a line 'Full text:"),
        ("## A\nText.\nFull text:\n", r"section 'A': must end with a line 'Full text:"),
        ("## A\nFull text: Setup\n", r"section 'A': the summary is empty"),
        ("## A\nx\nFull text: S\n## a\ny\nFull text: S\n", r"section 'a': a second topic with the id 'a'"),
        ("stray line\n## A\nx\nFull text: S\n", r"line 1: text before the first '## ' topic"),
        ("# Only a title\n", r"no '## <topic title>' section"),
        ("## \nx\n", r"line 1: a '## ' heading needs a topic title"),
        ("## !!!\nx\nFull text: S\n", r"no letters or digits"),
        (
            "## A\n" + "word " * 400 + "\nFull text: S\n",
            r"section 'A': 1999 characters, more than 1800: split the topic",
        ),
    ],
)
def test_malformed_sections_name_the_file_and_section(text, message):
    with pytest.raises(rules_help.RulesFileError, match=r"^broken/rules\.md: .*" + message):
        rules_help.parse(text, "broken/rules.md")


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(rules_help.RulesFileError, match=re.escape(str(tmp_path / "nope" / "rules.md"))):
        rules_help.load(rules_help.rules_path("nope", tmp_path))


def test_next_topic_and_lookup():
    topics = rules_help.topics("iron-bridge-gorge")
    assert rules_help.next_topic("iron-bridge-gorge", topics[0].id) == topics[1]
    assert rules_help.next_topic("iron-bridge-gorge", topics[-1].id) is None
    assert rules_help.topic("iron-bridge-gorge", "initiative").title == "Initiative"
    with pytest.raises(KeyError, match="no rules topic 'dragons'"):
        rules_help.topic("iron-bridge-gorge", "dragons")


# ---- catalogues ----------------------------------------------------------------------------------------
def _raw(game_dir: str, name: str, key: str) -> list[dict]:
    return json.loads((DATA / game_dir / name).read_text(encoding="utf-8"))[key]


def _data_entries(game_id: str) -> list[tuple[str, bool | None]]:
    """(name, designed flag or None when the file decides) of every entry in the game's data files."""
    if game_id == "city-of-iron":
        found = []
        for name, key in (
            ("goods.json", "goods"),
            ("buildings.json", "buildings"),
            ("towns.json", "towns"),
            ("lands.json", "lands"),
            ("cards.json", "cards"),
            ("nations.json", "nations"),
        ):
            document = json.loads((DATA / "city_of_iron" / name).read_text(encoding="utf-8"))
            for entry in document[key]:
                found.append((entry["name"], entry.get("designed", document.get("designed", True))))
        return found
    if game_id == "iron-bridge-gorge":
        return [(card["name"], False) for card in _raw("iron_bridge_gorge", "cards.json", "cards")]
    if game_id == "iron-and-brass":
        pieces = [
            (piece["name"], piece.get("designed", False))
            for piece in _raw("iron_and_brass", "pieces.json", "pieces")
        ]
        return pieces + [(token, False) for token in ("Spotter", "Surge", "Open Road", "Heal")]
    assert game_id == "city-heroes"
    found = [
        (spec["name"], spec.get("designed", False))
        for spec in _raw("city_heroes", "buildings.json", "buildings")
    ]
    found += [
        (spec["name"], spec.get("designed", False))
        for spec in _raw("city_heroes", "public_works.json", "public_works")
    ]
    rival = json.loads((DATA / "city_heroes" / "rival.json").read_text(encoding="utf-8"))
    found += [
        (f"Rival buys {row['resource'].title()}", row.get("designed", False)) for row in rival["they_buy"]
    ]
    found += [
        (f"Rival sells {row['resource'].title()}", row.get("designed", False)) for row in rival["they_sell"]
    ]
    recipes = json.loads((DATA / "city_heroes" / "setup.json").read_text(encoding="utf-8"))["crafting"]
    found += [(f"Craft {recipe['good'].title()}", recipes["designed"]) for recipe in recipes["recipes"]]
    return found


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_catalogue_has_one_entry_per_data_entry(game_id):
    entries = GAMES[game_id].catalogue()
    expected = _data_entries(game_id)
    assert len(entries) == len(expected)
    # In data-file order; a name used twice gets a suffix in brackets ("Mine (deck B)").
    for entry, (name, designed) in zip(entries, expected, strict=True):
        assert entry.name == name or entry.name.startswith(f"{name} ("), (entry.name, name)
        assert entry.designed == designed, entry.name
    names = [entry.name.lower() for entry in entries]
    assert len(set(names)) == len(names), "names must be unique: /card looks entries up by name"


def test_every_kind_of_city_of_iron_data_is_there():
    kinds = {entry.kind.split(" (")[0] for entry in GAMES["city-of-iron"].catalogue()}
    assert {"Good", "Building", "Town", "Expansion town", "Land", "Starting land", "Citizen card"} <= kinds
    assert {"Military card", "Nation"} <= kinds
    by_name = {entry.name: entry for entry in GAMES["city-of-iron"].catalogue()}
    academy = by_name["Academy (deck A)"]
    assert ("Cost", "5 coins") in academy.details and not academy.designed
    assert "Srika Pasture (deck A, 2 Srikas + 1 Turnip)" in by_name


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_catalogue_entries_fit_an_embed(game_id):
    for entry in GAMES[game_id].catalogue():
        assert 0 < len(entry.name) <= 100  # an autocomplete value
        assert entry.kind and entry.summary
        assert len(entry.details) <= 25
        for label, value in entry.details:
            assert 0 < len(label) <= 256 and 0 < len(value) <= 1024
        total = len(entry.name) + len(entry.kind) + len(entry.summary) + 100
        total += sum(len(label) + len(value) for label, value in entry.details)
        assert total <= 6000


def test_unique_names_adds_the_kind_then_a_number():
    from rules.core import CatalogueEntry

    def entry(name: str, kind: str) -> CatalogueEntry:
        return CatalogueEntry(name=name, kind=kind, summary="s")

    out = rules_help.unique_names(
        [entry("Mine", "A"), entry("Mine", "B"), entry("Mine", "B"), entry("Farm", "A")]
    )
    assert [e.name for e in out] == ["Mine (A)", "Mine (B)", "Mine (B) 2", "Farm"]


# ---- the rules topic of every view ---------------------------------------------------------------------
def test_city_of_iron_every_phase_has_a_topic():
    from rules.city_of_iron.engine import RULES_TOPICS
    from rules.city_of_iron.state import Phase

    assert set(RULES_TOPICS) == set(get_args(Phase))
    ids = {topic.id for topic in rules_help.topics("city-of-iron")}
    assert set(RULES_TOPICS.values()) <= ids
    assert RULES_TOPICS["bid"] == "bidding"


def test_iron_bridge_gorge_every_step_has_a_topic():
    from rules.iron_bridge_gorge.state import Phase
    from rules.iron_bridge_gorge.view import PHASE_TOPICS, rules_topic

    game = GAMES["iron-bridge-gorge"]
    ids = {topic.id for topic in rules_help.topics("iron-bridge-gorge")}
    assert set(PHASE_TOPICS) == set(get_args(Phase))
    state = game.setup(["a", "b"], {}, seed=1)
    assert game.view(state, None).topic == "initiative"
    seen = {"initiative", "trading"}
    for phase in get_args(Phase):
        seen.add(rules_topic(replace(state, step="turn", phase=phase)))
    seen.add(rules_topic(replace(state, step="over")))
    assert seen <= ids


def test_iron_and_brass_every_step_has_a_topic():
    from rules.iron_and_brass.view import rules_topic

    game = GAMES["iron-and-brass"]
    ids = {topic.id for topic in rules_help.topics("iron-and-brass")}
    state = game.setup(["a", "b"], {}, seed=1)
    assert game.view(state, 0).topic == "actions"
    variants = [
        {"step": "defend"},
        {"step": "over"},
        {"picking": "build:turret"},
        {"picking": "aim:B2"},
    ]
    topics = {rules_topic(dataclasses.replace(state, **update)) for update in variants}
    assert topics == {"attacking", "winning", "building", "concentrated-fire"}
    assert topics <= ids


def test_city_heroes_every_phase_has_a_topic():
    from rules.city_heroes.state import Phase
    from rules.city_heroes.view import PHASE_TOPICS

    assert set(PHASE_TOPICS) == set(get_args(Phase))
    ids = {topic.id for topic in rules_help.topics("city-heroes")}
    assert set(PHASE_TOPICS.values()) | {"pillaging", "trading"} <= ids


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_views_of_a_random_game_point_to_existing_topics(game_id):
    """Whatever happens in a game, every view (public and private) names a topic of its rules.md."""
    game = GAMES[game_id]
    ids = {topic.id for topic in rules_help.topics(game_id)}
    rng = random.Random(7)
    players = ["ann", "ben"] if game.info.max_players >= 2 else ["ann"]
    state = game.setup(players, {}, seed=3)
    seen = set()
    for _ in range(400):
        for seat in [None, *range(len(players))]:
            seen.add(game.view(state, seat).topic)
        acting = sorted(game.to_act(state))
        if not acting:
            break
        seat = acting[0]
        choice = rng.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, choice.action).state
    assert seen <= ids, seen - ids
    assert "" not in seen
