"""The data files against the guide's Building List and Public Work List; bad files are refused by name."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rules.city_heroes.data import DATA_DIR, DataError, catalogue, load_catalogue

# Building List: name | cost, copied from the guide (the Temple's cell is empty there: designed).
STATED = {
    "Barracks": {"stone": 2, "weapons": 1, "workers": 1},
    "Blacksmith": {"stone": 1, "iron": 1, "workers": 1},
    "Foraging Hut": {"iron": 1, "workers": 1},
    "Market": {"stone": 1, "workers": 1},
    "Mine": {"iron": 1, "workers": 1},
    "Workshop": {"tools": 1, "stone": 1, "workers": 1},
    "School": {"planks": 1, "stone": 2, "workers": 1},
    "Apothecary": {"ducats": 2, "stone": 1, "planks": 2, "workers": 2},
    "Carpenter": {"stone": 1, "planks": 2, "tools": 2, "workers": 1},
    "College": {"ducats": 5, "stone": 4, "planks": 2, "workers": 2},
    "Festival Grounds": {"sculptures": 2, "stone": 4, "ducats": 2, "workers": 1},
    "Fort": {"weapons": 2, "stone": 1, "workers": 1},
    "Foundry": {"iron": 2, "stone": 1, "workers": 1},
    "Forge": {"iron": 1, "tools": 1, "workers": 1},
    "Gathering Hut": {"tools": 1, "workers": 1},
    "Stable": {"wheat": 2, "weapons": 2, "stone": 1, "workers": 1},
    "Stonemason": {"stone": 2, "planks": 1, "tools": 2, "workers": 1},
    "Tenement": {"stone": 2, "scaffolds": 1, "ducats": 3, "workers": 1},
    "Apartment": {"planks": 4, "scaffolds": 1, "stone": 4, "workers": 4},
    "Arsenal": {"ducats": 4, "weapons": 4, "stone": 3, "workers": 1},
    "Artisan's Guild": {"planks": 6, "scaffolds": 3, "gold": 2, "ducats": 8, "stone": 4, "workers": 4},
    "Carpenter's Guild": {"ducats": 6, "stone": 3, "planks": 5, "scaffolds": 3, "tools": 2, "workers": 4},
    "Castle": {"ducats": 2, "weapons": 2, "stone": 3, "workers": 1},
    "Cathedral": {"scaffolds": 3, "gold": 2, "stone": 5, "sculptures": 4, "ducats": 10, "workers": 1},
    "Grand Bazaar": {"sculptures": 2, "stone": 6, "gold": 2, "timber": 4, "ducats": 12, "workers": 4},
    "Harvesting Plant": {"tools": 2, "workers": 1, "ducats": 2},
    "Hospital": {"ducats": 6, "iron": 2, "tools": 4, "stone": 4, "workers": 3},
    "Manor": {"gold": 2, "stone": 3, "jewellery": 2, "ducats": 10, "workers": 2},
    "Manufactory": {"iron": 4, "stone": 2, "workers": 2},
    "Mason's Guild": {"ducats": 6, "stone": 5, "planks": 3, "sculptures": 3, "tools": 2, "workers": 4},
    "University": {"sculptures": 1, "stone": 5, "gold": 2, "timber": 4, "ducats": 8, "workers": 4},
}


@pytest.mark.parametrize(("name", "cost"), sorted(STATED.items()))
def test_building_costs_are_the_guides(name, cost):
    """Appendices: Building List, every stated cost."""
    spec = next(spec for spec in catalogue().buildings.values() if spec.name == name)
    assert spec.cost == cost and not spec.designed


def test_designed_buildings_are_marked():
    """The Temple's cost, the Studio, and the House track's Villa, Estate and Bank are designed."""
    designed = {spec.name for spec in catalogue().buildings.values() if spec.designed}
    assert designed == {"Temple", "Studio", "Villa", "Estate", "Bank"}


def test_uniqueness_exceptions():
    """'except for Estates, Banks, Apartments and Harvesting plants, which have no restrictions.'"""
    free = {spec.name for spec in catalogue().buildings.values() if spec.level == 3 and not spec.is_unique}
    assert free == {"Estate", "Bank", "Apartment", "Harvesting Plant"}


def test_public_works_are_the_guides():
    """Public Work List: foundation, stage cost and stages."""
    works = catalogue().works
    assert (works["city-hall"].stages, works["kronborg"].stages, works["la-rotonda"].stages) == (4, 6, 3)
    assert (works["carrariae"].stages, works["biblioteka-marciana"].stages) == (6, 7)
    assert works["biblioteka-marciana"].foundation == {"stone": 10, "planks": 4, "workers": 4, "ducats": 14}
    assert works["carrariae"].stage == {"ducats": 4, "workers": 2, "timber": 2, "scaffolds": 1, "tools": 1}


def test_rival_table_keeps_the_stated_rows():
    """The guide's rows: IRON 3:1 3:2 1:1 2:3 3:4, SCULPTURES 5:1 5:3 1:1 1:2 1:3, WHEAT 4:1 3:1 3:2 2:1 1:1,
    PLANKS 5:1 5:2 5:3 2:1 1:1; sales prestige 0 0 1 1 2; purchase prestige -2 -1 -1 0 3."""
    rows = catalogue().rows
    assert rows["sell-iron"].rates == [(3, 1), (3, 2), (1, 1), (2, 3), (3, 4)]
    assert rows["sell-sculptures"].rates == [(5, 1), (5, 3), (1, 1), (1, 2), (1, 3)]
    assert rows["buy-wheat"].rates == [(4, 1), (3, 1), (3, 2), (2, 1), (1, 1)]
    assert rows["buy-planks"].rates == [(5, 1), (5, 2), (5, 3), (2, 1), (1, 1)]
    assert not any(rows[row].designed for row in ("sell-iron", "sell-sculptures", "buy-wheat", "buy-planks"))
    rival = catalogue().rival
    assert rival.sales_prestige == [0, 0, 1, 1, 2] and rival.purchase_prestige == [-2, -1, -1, 0, 3]
    assert rival.rival.designed


def _broken(tmp_path: Path, name: str, edit) -> Path:
    for path in DATA_DIR.glob("*.json"):
        shutil.copy(path, tmp_path / path.name)
    document = json.loads((tmp_path / name).read_text())
    edit(document)
    (tmp_path / name).write_text(json.dumps(document))
    return tmp_path


def test_a_bad_field_names_the_file_the_entry_and_the_field(tmp_path: Path):
    directory = _broken(tmp_path, "buildings.json", lambda doc: doc["buildings"][1].update(level="high"))
    with pytest.raises(DataError, match=r"buildings\.json: building 2 \(Blacksmith\): field level"):
        load_catalogue(directory)


def test_an_unknown_field_is_refused(tmp_path: Path):
    directory = _broken(
        tmp_path, "public_works.json", lambda doc: doc["public_works"][0].update(colour="red")
    )
    with pytest.raises(DataError, match=r"public work 1 \(City Hall\): field colour: Extra inputs"):
        load_catalogue(directory)


def test_an_unknown_upgrade_source_is_refused(tmp_path: Path):
    directory = _broken(
        tmp_path, "buildings.json", lambda doc: doc["upgrade_paths"]["from"].update(castle=["tower"])
    )
    with pytest.raises(DataError, match=r"field from\.castle: unknown building 'tower'"):
        load_catalogue(directory)


def test_a_bad_rival_row_is_refused(tmp_path: Path):
    directory = _broken(tmp_path, "rival.json", lambda doc: doc["they_buy"][0].update(rates=[[1, 1]]))
    with pytest.raises(DataError, match=r"rival\.json: field they_buy\.0\.rates"):
        load_catalogue(directory)


def test_a_file_that_is_not_json_is_refused(tmp_path: Path):
    for path in DATA_DIR.glob("*.json"):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "setup.json").write_text("{not json")
    with pytest.raises(DataError, match=r"setup\.json: cannot be read as JSON"):
        load_catalogue(tmp_path)
