"""The designed piece table of data/iron_and_brass/pieces.json: the text's counts and rules, the token
notation, and a bad file failing with the file, the entry and the field named."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from pydantic import BaseModel

from rules.iron_and_brass.data import DATA_DIR, DataError, catalogue, load_catalogue, rules_catalogue

# COMPONENTS: 'One set of the following available unit tokens for each side' and structure tokens.
COUNTS = {
    "Skirmisher Patrol": 4,
    "Mechanized Gunner Patrol": 4,
    "Iron Infantry": 4,
    "Heavy Artillery": 4,
    "Motorized Artillery": 4,
    "Steam Tank": 2,
    "Crusher Tank": 2,
    "Headquarters": 1,
    "Fortress": 1,
    "Barracks": 1,
    "Armored Wall": 4,
    "Turret": 4,
    "Foundry": 1,
    "Arsenal": 1,
    "Steam Works": 1,
}


def test_components_and_counts_are_the_texts():
    pieces = catalogue().pieces.values()
    assert {piece.name: piece.count for piece in pieces} == COUNTS


def test_costs_follow_the_token_description():
    """'6 C = Cost to build is 6 Gold + 1 Crew'; 'Each structure and vehicle requires a certain amount of
    Gold, plus one Crew'; military units are trained for gold."""
    for piece in catalogue().pieces.values():
        assert piece.crew == (1 if piece.category in ("structure", "vehicle") else 0), piece.name
        assert piece.designed, f"{piece.name}: the stat table was a picture, so it is designed"


def test_tech_tree_roots_need_nothing():
    """'The following structures do not require any other structures to be built first: Headquarters,
    Barracks, Foundry, Steam Works, Arsenal.'"""
    cards = catalogue()
    for piece in ("headquarters", "barracks", "foundry", "steam-works", "arsenal"):
        assert cards[piece].requires == []
    assert all(set(p.requires) <= {"foundry", "arsenal", "steam-works"} for p in cards.pieces.values())


def test_the_token_reads_like_the_texts_example():
    """'6A / 2 R 2M 4D = +6 Attack Modifier, 2 Attack Range, 2 Movement Range, +4 Defense modifier'."""
    tank = catalogue()["crusher-tank"]
    assert tank.token == "10 C | F A S | 6A / 2R 2M 6D"
    assert (tank.gold, tank.crew, tank.attack, tank.range, tank.move, tank.defence) == (10, 1, 6, 2, 2, 6)
    assert tank.requires == ["foundry", "arsenal", "steam-works"]


def test_setup_numbers_and_advantage_tokens():
    """SET-UP: 'Place the Gold Mined marker token at 48 ... Gold marker token at 8 and their Crew marker
    at 1'; 'Each player begins the game with 8 Advantage tokens' (one count: each may be played for any
    advantage listed on it)."""
    setup = catalogue().setup
    assert (setup.gold, setup.crew, setup.gold_mined, setup.actions) == (8, 1, 48, 4)
    assert setup.advantage_tokens == 8


def test_the_rules_read_the_same_pieces_as_the_models_hold():
    """The read-only records the rules read (`rules_catalogue`) hold every field of the validated models,
    in file order, and answer `military` alike; they cannot be changed."""
    models, records = catalogue(), rules_catalogue()
    assert records.order == models.order and records.setup is models.setup
    for name in models.order:
        model, record = models[name], records[name]
        assert not isinstance(record, BaseModel), name
        assert {key: getattr(record, key) for key in type(model).model_fields} == model.model_dump(), name
        assert record.military == model.military, name
    with pytest.raises(dataclasses.FrozenInstanceError):
        records["gunner"].attack = 9  # type: ignore[misc]


def _broken(tmp_path: Path, edit) -> Path:
    shutil.copy(DATA_DIR / "pieces.json", tmp_path / "pieces.json")
    document = json.loads((tmp_path / "pieces.json").read_text())
    edit(document)
    (tmp_path / "pieces.json").write_text(json.dumps(document))
    return tmp_path


def test_a_bad_token_names_the_file_the_entry_and_the_field(tmp_path: Path):
    directory = _broken(tmp_path, lambda doc: doc["pieces"][5].update(token="7 C | F S | lots"))
    with pytest.raises(
        DataError, match=r"pieces\.json: piece 6 \(Steam Tank\): field token: write the token"
    ):
        load_catalogue(directory)


def test_an_unknown_field_is_refused(tmp_path: Path):
    directory = _broken(tmp_path, lambda doc: doc["pieces"][0].update(colour="blue"))
    with pytest.raises(DataError, match=r"piece 1 \(Skirmisher Patrol\): field colour: Extra inputs"):
        load_catalogue(directory)


def test_a_vehicle_without_crew_is_refused(tmp_path: Path):
    directory = _broken(tmp_path, lambda doc: doc["pieces"][6].update(token="10 | F A S | 6A / 2R 2M 6D"))
    with pytest.raises(DataError, match=r"piece 7 \(Crusher Tank\): field token: structures and vehicles"):
        load_catalogue(directory)


def test_a_wrong_count_type_and_duplicates_are_refused(tmp_path: Path):
    directory = _broken(tmp_path, lambda doc: doc["pieces"][2].update(count="many"))
    with pytest.raises(DataError, match=r"piece 3 \(Iron Infantry\): field count"):
        load_catalogue(directory)
    directory = _broken(tmp_path, lambda doc: doc["pieces"][1].update(id="skirmisher"))
    with pytest.raises(
        DataError, match=r"piece 2 \(Mechanized Gunner Patrol\): field id: 'skirmisher' is used twice"
    ):
        load_catalogue(directory)


def test_a_mix_of_kinds_or_a_bad_count_of_advantage_tokens_is_refused(tmp_path: Path):
    """The tokens are one count ('8 Advantage tokens per player'): the designed mix of kinds the file held
    before issue 41 is refused, as is a count out of range."""
    old_mix = {"designed": True, "spotter": 2, "surge": 2, "open_road": 2, "heal": 2}
    for value in (old_mix, -1, 17):
        directory = _broken(tmp_path, lambda doc, v=value: doc["setup"].update(advantage_tokens=v))
        with pytest.raises(DataError, match=r"pieces\.json: field setup\.advantage_tokens: "):
            load_catalogue(directory)


def test_a_missing_piece_and_bad_json_are_refused(tmp_path: Path):
    directory = _broken(tmp_path, lambda doc: doc["pieces"].pop(9))
    with pytest.raises(DataError, match=r"the piece 'barracks' is missing"):
        load_catalogue(directory)
    (tmp_path / "pieces.json").write_text("{oops")
    with pytest.raises(DataError, match=r"pieces\.json: cannot be read as JSON"):
        load_catalogue(tmp_path)
