"""Which boards a replay shows and what each caption says: one frame per handoff.

A handoff is a move after which someone else is to act (or the game is over): the moment a spectator
would have seen a new turn post. The first frame is the start; each later one says what happened since
the previous frame, in the public words of the log, so a replay reads like the channel did.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rules.core import Game, View

CAPTION_CHARS = 600
"""Enough for the end's scoring lines, which the last frame has the room to show."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def frames(
    rules: Game, states: Sequence[Any], events: Sequence[Sequence[str]]
) -> tuple[list[View], list[str]]:
    """The public views to draw and their captions. `states[i + 1]` follows the move whose public event
    texts are `events[i]`."""
    total = len(states) - 1
    views = [rules.view(states[0], None)]
    captions = [f"{rules.info.name}: the start"]
    pending: list[str] = []
    waiting = rules.to_act(states[0])
    # Alone at the table, the seat to act never changes: a frame per turn of theirs instead.
    solo = len(views[0].players) == 1
    turn = rules.turn_key(states[0]) if solo else None
    for number in range(1, total + 1):
        pending.extend(events[number - 1])
        after = states[number]
        waited, waiting = waiting, rules.to_act(after)
        turned, turn = turn, rules.turn_key(after) if solo else None
        if number < total and waiting == waited and turn == turned:
            continue
        views.append(rules.view(after, None))
        captions.append(_caption(number, total, pending, finished=rules.result(after) is not None))
        pending = []
    return views, captions


def _caption(number: int, total: int, texts: Sequence[str], *, finished: bool) -> str:
    """What happened since the previous frame, in whole sentences, never cut in the middle: when they
    do not all fit `CAPTION_CHARS`, the latest are kept (they led to the board this frame shows; the
    last frame's are how the game ended), after "…" for those left out."""
    head = f"Move {number}/{total}" + (" · game over" if finished else "")
    body = " ".join(text.strip() for text in texts if text.strip())
    caption = f"{head}: {body}" if body else head
    if len(caption) <= CAPTION_CHARS:
        return caption
    kept: list[str] = []
    room = CAPTION_CHARS - len(head) - len(": … ")
    for sentence in reversed(_SENTENCE.split(body)):
        if kept and sum(len(s) + 1 for s in kept) + len(sentence) > room:
            break
        kept.insert(0, sentence)
    return f"{head}: … {' '.join(kept)}"
