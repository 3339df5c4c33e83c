"""JSON read within bounds before it is parsed (`bot.app.untrusted`, issue 37): each bound refuses
with its own sentence, and a file within every bound reads as `json.loads` would read it."""

from __future__ import annotations

import json

import pytest

from bot.app.untrusted import Bounds, Limits, load

LIMITS = Limits(depth=4, string=10, number=6, items=5, integer=1000)


@pytest.mark.parametrize(
    ("raw", "kind", "words"),
    [
        (b"[[[[[1]]]]]", "too_big", "nested more than 4 levels"),
        (b'["' + b"x" * 11 + b'"]', "too_big", "text of over 10 characters"),
        (b"[1234567]", "too_big", "number of over 6 digits"),
        (b"[1,2,3,4,5,6]", "too_big", "list of over 5 items"),
        (b'{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}', "too_big", "list of over 5 items"),
        (b"[1001]", "too_big", "the number 1001"),
        (b"[-1001]", "too_big", "the number -1001"),
        (b"[1e400]", "too_big", "the number 1e400"),
        (b"[NaN]", "not_json", "not JSON"),
        (b"[Infinity]", "not_json", "not JSON"),
        (b'{"a":1,"a":2}', "not_json", "'a' twice"),
        (b'["\\ud800"]', "not_json", "lone surrogate"),
        (b"\xff\xfe[]", "not_json", "not text"),
        (b"[1,]", "not_json", "not JSON"),
        (b'["abc', "not_json", "not JSON"),
    ],
)
def test_each_bound_has_its_sentence(raw: bytes, kind: str, words: str) -> None:
    with pytest.raises(Bounds, match=words) as caught:
        load(raw, LIMITS)
    assert caught.value.kind == kind


def test_deeper_than_the_recursion_limit_is_refused_before_parsing() -> None:
    with pytest.raises(Bounds, match="nested"):
        load(b"[" * 200_000 + b"]" * 200_000, Limits())


def test_within_the_bounds_it_reads_as_json_does() -> None:
    text = '{"a": [1, -2, 3.5, true, "x\\u00e9"], "b": {"c": "1234567890", "d": null}}'
    assert load(b"\xef\xbb\xbf" + text.encode(), LIMITS) == json.loads(text)
    assert load(b'["\\\\ud800"]', LIMITS) == ["\\ud800"], "an escaped backslash, not a surrogate"
