"""`python -m bot` without a token explains itself; `--local` plays from a script."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DISCORD_API_BASE"}}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,  # no .env there
        env={**environment, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_without_a_token_it_says_what_to_set_and_no_traceback(tmp_path):
    result = _run([], tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and "python -m bot --local" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_local_console_plays_a_scripted_session(tmp_path):
    script = tmp_path / "session.txt"
    script.write_text(
        "\n".join(
            [
                "alice> /game new game:iron-bridge-gorge seed:7",
                "bob> click Join",
                "alice> /game start",
                "alice> click 1",
                "alice> click 1",
                "dave> /hand",
                "bob> /play move:nonsense",
                "#side",
                "carol> /board",
                "quit",
            ]
        ),
        encoding="utf-8",
    )
    result = _run(["--local", "--script", str(script)], tmp_path, OUTPUT_DIR=str(tmp_path / "out"))
    out = result.stdout
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in out + result.stderr
    assert "@bob joined" in out or "Players (2/" in out
    assert "has started with alice, bob" in out
    assert "DM to alice (only alice sees this)" in out
    assert "only dave sees this" in out and "You are not playing in this game" in out
    assert "is not one of your moves" in out
    assert "There is no game being played in this channel" in out
    pictures = sorted((tmp_path / "out").glob("*.png"))
    assert pictures and all(p.stat().st_size > 1000 for p in pictures)
    assert any(str(p) in out for p in pictures)


def test_local_console_fills_in_the_trade_form(tmp_path):
    """The trade composer's form, opened by a button, is filled in with `submit field:value`."""
    script = tmp_path / "session.txt"
    lines = (ROOT / "tests" / "bot" / "console_trade.txt").read_text(encoding="utf-8")
    script.write_text(lines + "quit\n", encoding="utf-8")
    result = _run(["--local", "--script", str(script)], tmp_path, OUTPUT_DIR=str(tmp_path / "out"))
    out = result.stdout
    assert result.returncode == 0, result.stderr[-2000:]
    assert "📝 alice sees a form «Trade with bob»: give (You give), get (You ask bob for)" in out
    assert "'unicorns' is not something you can trade" in out
    assert "alice offers 2 coins, Pig Iron Blast Furnace (from hand) for your 1 coin." in out
    assert "bob accepted alice's trade: alice gave 2 coins, 1 card from hand; bob gave 1 coin." in out


def test_local_console_prints_embeds_and_clicks_an_earlier_message(tmp_path):
    """/help, /rules and /card answer with embeds only: their title, fields and footer are printed.
    Every message is numbered, and `click … on N` presses a button of an earlier one."""
    script = tmp_path / "session.txt"
    script.write_text(
        "\n".join(
            [
                "alice> /help",  # [1]
                "bob> /rules game:iron-bridge-gorge",  # [2]
                'carol> /card game:iron-bridge-gorge name:"Coal Mine"',  # [3]
                "alice> /game new game:iron-bridge-gorge seed:7",  # [4] the lobby of #table
                "#side",
                "alice> /game new game:iron-bridge-gorge",  # [5] another lobby: bob's last buttons now
                "#table",
                "bob> click Join on 4",
                "dave> click 1 on 1",  # alice's /help answer
                "dave> select 1 2 on 3",  # carol's /card answer
                "bob> click 1 on 99",
                "bob> click Nope on 4",
                "alice> /game start",  # [6] started, [7] the turn message, [8] and [9] the DMs
                "dave> click 1 on 8",
                "dave> click 1 on 9",
                "quit",
            ]
        ),
        encoding="utf-8",
    )
    result = _run(["--local", "--script", str(script)], tmp_path, OUTPUT_DIR=str(tmp_path / "out"))
    out = result.stdout
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in out + result.stderr
    dms = [n for n in (8, 9) if f"── [{n}] DM to " in out]
    assert dms, out[-3000:]
    for n in dms:
        who = out.split(f"── [{n}] DM to ", 1)[1].split(" ", 1)[0]
        assert f"dave cannot see message [{n}] (DM to {who} (only {who} sees this))" in out
    # /help: the intro's title and description, the command list's fields
    assert "── [1] #table · only alice sees this" in out
    assert "board games on Discord, played slowly »" in out
    assert "┃ « Commands »" in out and "┃ ▸ Learn the rules" in out
    assert "`/card game:<…> name:<…>` — Look up a card" in out
    # /rules: title, the list of topics, the footer
    assert "── [2] #table · only bob sees this" in out
    assert "┃ « Iron Bridge Gorge · rules »" in out
    assert "`/rules game:iron-bridge-gorge topic:overview`" in out and "┃ — 2–6 players" in out
    # /card: title, inline fields sharing a line, a field of its own
    assert "┃ « Coal Mine »" in out
    assert "┃ Type: F Fuel │ Mark: none │ Build cost: 5 coins" in out
    assert "┃ ▸ Required by\n   ┃   Brick Works" in out
    # the #table lobby was joined through its number although #side's lobby came later
    assert "── [4] #table · everyone" in out and "── [5] #side · everyone" in out
    assert "── [4] #table · everyone (edited)" in out and "Players (2/6, need 2): @alice, @bob" in out
    assert "has started with alice, bob" in out
    # refusals
    assert "dave cannot see message [1] (#table · only alice sees this)" in out
    assert "dave cannot see message [3] (#table · only carol sees this)" in out
    assert "there is no message [99]; messages are [1] to [5]" in out
    assert "no button 'Nope' on message [4]; its buttons: 1:Join, 2:Leave, 3:Start" in out


def test_local_console_reads_piped_lines(tmp_path):
    """Without a terminal (piped stdin) there is no line editing and no history file, and it plays on."""
    result = subprocess.run(
        [sys.executable, "-m", "bot", "--local"],
        cwd=tmp_path,
        env={
            **{k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DISCORD_API_BASE"}},
            "PYTHONPATH": str(ROOT),
            "OUTPUT_DIR": str(tmp_path / "out"),
        },
        input="carol> /rules game:iron-bridge-gorge topic:trading\n",  # then end of input
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stdout + result.stderr
    assert "── [1] #table · only carol sees this" in result.stdout
    assert "┃ « Iron Bridge Gorge · 7. Trading »" in result.stdout
    assert not (tmp_path / "out" / ".history").exists()
