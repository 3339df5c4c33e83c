"""Saved games (issue 21): `/game export` writes game, options, seed, seats, the effective log and a
hash of the position; reading it back replays and checks that hash, and anything else is refused with
one sentence."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from PIL import Image

from bot.app import archive
from bot.app.archive import ArchivedSeat, ArchiveError
from bot.app.replay import frames
from renderer.animation import Frame, animate, replay
from renderer.canvas import to_png
from rules import registry
from tests.support.playouts import offered_games, random_game

SMALL = {
    "city-heroes": {"turns": 1},
    "iron-and-brass": {"max_rounds": 3},
}
NAMES = ["Alice", "Bob", "Carol"]


def _played(game, players: int, seed: int, *, cut: int | None = None):
    names = NAMES[:players]
    playout = random_game(game, names, seed, options=SMALL.get(game.info.id, {}))
    moves = playout.log[:cut] if cut is not None else playout.log
    state = game.setup(names, SMALL.get(game.info.id, {}), seed)
    for seat, action in moves:
        state = game.apply(state, seat, action).state
    raw = archive.export(
        game,
        # As the lobby stores them, every option resolved: an option missing from a saved game's options
        # did not exist when it was created, and its game plays the option's `before` value.
        options=game.resolve_options(SMALL.get(game.info.id, {})),
        seed=seed,
        seats=[ArchivedSeat(name=name) for name in names],
        moves=moves,
        state=state,
        source="test",
    )
    return raw, state


def _rules(game_id: str):
    try:
        return registry.get(game_id)
    except KeyError:
        return None


@pytest.mark.parametrize("game", offered_games(), ids=lambda g: g.info.id)
def test_every_game_round_trips_finished_and_in_progress(game):
    players = max(2, game.info.min_players)
    for cut in (None, 7):
        raw, state = _played(game, players, seed=5, cut=cut)
        saved, rules = archive.read(raw, _rules)
        assert rules is game and saved.finished == (cut is None)
        states = archive.replay(rules, saved)
        assert game.dump_state(states[-1]) == game.dump_state(state)
        assert len(states) == len(saved.moves) + 1


def test_new_names_take_the_seats_and_play_the_same_game():
    game = registry.get("iron-bridge-gorge")
    raw, state = _played(game, 2, seed=8, cut=20)
    saved, rules = archive.read(raw, _rules)
    states = archive.replay(rules, saved, names=["Dana", "Eve"])
    assert [p.name for p in states[-1].players] == ["Dana", "Eve"]
    assert rules.to_act(states[-1]) == rules.to_act(state)


def _edited(raw: bytes, change) -> bytes:
    data = json.loads(raw)
    change(data)
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(format="chess-pgn"), "not an Ironhost saved game"),
        (lambda d: d.update(version=9), "format version 9"),
        (lambda d: d.update(game="go", game_name="Go"), "'Go', which this bot does not host"),
        (lambda d: d.update(seed="abc"), "damaged: seed"),
        (lambda d: d.update(extra=1), "damaged: extra"),
        (lambda d: d.update(position="sha256:" + "0" * 64), "different position"),
        (lambda d: d["moves"].pop(), "different position"),
        (lambda d: d["moves"][3].update(seat=1 - d["moves"][3]["seat"]), "does not replay here"),
        (lambda d: d["moves"][3].update(action={"kind": "nonsense"}), "does not replay here"),
        (lambda d: d.update(seats=d["seats"] * 5), "seats"),
        (lambda d: d.update(options={"no_such_option": 1}), "does not replay here"),
    ],
)
def test_a_file_that_is_not_a_good_save_is_refused_in_one_sentence(change, words):
    game = registry.get("iron-bridge-gorge")
    raw, _ = _played(game, 2, seed=3, cut=12)
    with pytest.raises(ArchiveError, match=words) as caught:
        saved, rules = archive.read(_edited(raw, change), _rules)
        archive.replay(rules, saved)
    assert str(caught.value).count(". ") <= 1 and "\n" not in str(caught.value)


@pytest.mark.parametrize("raw", [b"\xff\xfe", b"not json", b"[1, 2]", b"{}", b" " * (archive.MAX_BYTES + 1)])
def test_files_that_are_not_saves_at_all(raw):
    with pytest.raises(ArchiveError):
        archive.read(raw, _rules)


def test_a_replay_has_a_frame_per_handoff_and_fits_the_upload_limit():
    game = registry.get("iron-bridge-gorge")
    playout = random_game(game, NAMES[:2], 4)
    states = [game.setup(NAMES[:2], {}, 4)]
    texts = []
    for seat, action in playout.log:
        applied = game.apply(states[-1], seat, action)
        states.append(applied.state)
        texts.append([event.text for event in applied.events])
    views, captions = frames(game, states, texts)
    handoffs = sum(1 for a, b in zip(states, states[1:], strict=False) if game.to_act(a) != game.to_act(b))
    assert len(views) == len(captions) <= handoffs + 2
    assert captions[0].endswith("the start") and "game over" in captions[-1]
    data = replay(views[:12], captions[:12])
    assert data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) <= 8 * 1024 * 1024
    with Image.open(io.BytesIO(data)) as image:
        assert image.n_frames == 12 and image.width == 480


def test_a_replay_too_big_for_the_limit_is_thinned_not_refused():
    noisy = [
        Frame(to_png(Image.effect_noise((800, 1000), 80 + i).convert("RGB")), f"frame {i}") for i in range(6)
    ]
    full = animate(noisy)
    small = animate(noisy, max_bytes=len(full) // 2)
    assert len(small) <= len(full) // 2


BEFORE_41 = Path(__file__).resolve().parents[1] / "rules" / "iron_and_brass" / "before_issue_41"


@pytest.mark.parametrize("name", ["finished-seed-13", "in-progress-seed-13"])
def test_an_iron_and_brass_file_saved_before_issue_41_opens_at_its_position(name):
    """Files saved when each side held 2 tokens of each advantage carry the hash of the position as that
    version wrote it, and the in-progress one ends on an attack whose defender today's rule asks about
    Surge ("for any 1 of the actions listed on the token"). It opens at its saved position, with the
    file's names or new ones, and exported again today it reads back there too."""
    raw = (BEFORE_41 / f"{name}.json").read_bytes()
    saved, rules = archive.read(raw, _rules)
    states, events = archive.replayed(rules, saved)
    stored = (BEFORE_41 / f"{name}.state.json").read_text(encoding="utf-8").rstrip("\n")
    assert rules.earlier_dumps(states[-1]) == [stored]
    assert len(states) == len(saved.moves) + 1 and len(events) == len(saved.moves)
    assert states[-1].step == ("over" if saved.finished else "play")
    renamed = archive.replay(rules, saved, names=["Carol", "Dave"])[-1]
    assert renamed.players[0].name == "Carol" and renamed.step == states[-1].step
    again = archive.export(
        rules,
        options=saved.options,
        seed=saved.seed,
        seats=list(saved.seats),
        moves=[(move.seat, move.action) for move in saved.moves],
        state=states[-1],
    )
    assert archive.position_hash(rules, states[-1]) != saved.position
    reread = archive.replay(rules, archive.read(again, _rules)[0])[-1]
    assert rules.dump_state(reread) == rules.dump_state(states[-1])


def test_a_solo_replay_has_a_frame_per_turn_and_its_captions_keep_the_latest_sentences():
    """Issue 36's play-through: a solo City Heroes game of 38 moves replayed in 2 frames (the seat to
    act never changes alone at the table) and the last caption told a turn-2 move. A solo replay has
    a frame per turn of the player's; a caption too long for its band keeps its latest sentences, the
    ones that led to the board shown, after "…"."""
    from bot.app.replay import CAPTION_CHARS

    game = registry.get("city-heroes")
    states = [game.setup(["alice"], {"turns": 3}, 5)]
    texts: list[list[str]] = []
    rng = random.Random(1)
    while game.result(states[-1]) is None:
        seat = min(game.to_act(states[-1]))
        choices = [c for c in game.legal_actions(states[-1], seat) if not c.label.startswith("Offer")]
        applied = game.apply(states[-1], seat, rng.choice(choices).action)
        states.append(applied.state)
        texts.append([event.text for event in applied.events])
    turns = len({game.turn_key(state) for state in states})
    views, captions = frames(game, states, texts)
    assert len(views) >= turns, (len(views), turns)
    long = [["One sentence here."] * 5 + [f"Sentence {i} of many." for i in range(60)] + ["The very end."]]
    _, cut = frames(game, [states[0], states[-1]], long)
    assert len(cut[-1]) <= CAPTION_CHARS and cut[-1].endswith("The very end."), cut[-1]
    assert ": … " in cut[-1] and "One sentence here." not in cut[-1]
