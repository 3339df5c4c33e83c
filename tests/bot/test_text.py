"""The one place user-derived text becomes message text (`bot.app.text`, issue 37): what each function
promises, on the inputs that broke messages before."""

from __future__ import annotations

from bot.app.text import clean_name, code_text, escape_text, plain_text, quoted


def test_markdown_and_mentions_show_as_typed_and_ping_nobody() -> None:
    escaped = escape_text("**b** __u__ ~~s~~ ||x|| `c` <@1> <@&2> <#3> <t:0:R> </cmd:4> @everyone @here")
    for raw in ("**", "__", "~~", "||", "`c`", "@everyone", "@here"):
        assert raw not in escaped, raw
    assert escaped.count("<") == escaped.count("\\<") == 5, "every < shown as typed: no mention renders"
    assert escaped.count("@\u200b") == 4  # <@1>, <@&2>, @everyone, @here: a zero-width space after each @


def test_a_name_cannot_start_a_heading_a_quote_or_a_list() -> None:
    assert escape_text("# big") == "\\# big"
    assert escape_text("> quote") == "\\> quote"
    assert escape_text("-# small") == "\\-# small"
    assert escape_text("1. first") == "1\\. first"
    assert escape_text("2) second") == "2\\) second"
    assert escape_text("+ plus") == "\\+ plus"
    assert escape_text("[x](https://e.x)").startswith("\\[x]")


def test_line_breaks_controls_and_bidi_marks_go_joiners_stay() -> None:
    assert escape_text("a\nb\r\nc\u2028d") == "a b c d"
    assert plain_text("\u202eevil\u2066x\u2069 \x00\x1b[31m", 80) == "evil x [31m"
    family = "👨\u200d👩\u200d👧"
    assert plain_text(family, 80) == family and clean_name(family) == family


def test_names_enter_the_game_fitted() -> None:
    assert clean_name("\u202e" + "x" * 10_000 + "\n") == "x" * 39 + "…"
    assert clean_name("   \n\t") == "player"
    assert plain_text("y" * 200, 80) == "y" * 79 + "…"


def test_quoted_and_code_text_keep_typed_words_inert() -> None:
    assert quoted("**x** <@1>") == "'\\*\\*x\\*\\* \\<@\u200b1>'"
    assert quoted("z" * 100).endswith("…'")
    assert code_text("a`b\nc") == "a\u02cbb c"
