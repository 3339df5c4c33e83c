"""`python -m bench` reads only options it declares: an `args.X` with no `--x` fails after minutes of
other sections have run (the operations section's `--stop-channels` did, in session 16)."""

from __future__ import annotations

import ast
from pathlib import Path

from bench.__main__ import build_parser

MAIN = Path(__file__).resolve().parent.parent / "bench" / "__main__.py"


def test_every_option_main_reads_is_declared() -> None:
    tree = ast.parse(MAIN.read_text())
    read = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "args"
    }
    declared = set(vars(build_parser().parse_args([])))
    assert read, "no args.X found: the check reads nothing"
    assert read <= declared, sorted(read - declared)
