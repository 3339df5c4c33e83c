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
    for number in range(1, total + 1):
        pending.extend(events[number - 1])
        after = states[number]
        waited, waiting = waiting, rules.to_act(after)
        if number < total and waiting == waited:
            continue
        views.append(rules.view(after, None))
        captions.append(_caption(number, total, pending, finished=rules.result(after) is not None))
        pending = []
    return views, captions


def _caption(number: int, total: int, texts: Sequence[str], *, finished: bool) -> str:
    """What happened since the previous frame, in whole sentences: those past `CAPTION_CHARS` are left
    out (the picture shows as many as its caption's lines hold), never cut in the middle."""
    head = f"Move {number}/{total}" + (" · game over" if finished else "")
    body = " ".join(text.strip() for text in texts if text.strip())
    caption = f"{head}: {body}" if body else head
    if len(caption) <= CAPTION_CHARS:
        return caption
    kept = ""
    for sentence in _SENTENCE.split(caption):
        if kept and len(kept) + 1 + len(sentence) > CAPTION_CHARS:
            break
        kept = f"{kept} {sentence}" if kept else sentence
    return kept
