"""The invite's permissions are exactly what the code uses: derived here from the Discord calls the
bot's source makes, so a new feature that needs another permission fails this test until the list
(`bot/interface/permissions.py`, the README's integer, `ironhost invite`) names it."""

from __future__ import annotations

import re
from pathlib import Path

from bot.interface.permissions import NEEDED, application_id_from_token, invite_url, permissions_value

ROOT = Path(__file__).resolve().parents[2]
CALLS = {
    # A call in the bot's Discord side -> the permission Discord checks for it.
    r"\.send\(": {"view_channel", "send_messages"},
    r"discord\.File\(": {"attach_files"},
    r"discord\.Embed\(": {"embed_links"},
    r"\.create_thread\(|\.start_thread\(": {"create_public_threads", "send_messages_in_threads"},
    r"\.history\(": {"read_message_history"},
    r"get_partial_message\(": {"read_message_history"},
    r"create_scheduled_event\(": {"manage_events"},
}


def _used() -> set[str]:
    source = "\n".join(
        path.read_text(encoding="utf-8")
        for path in (ROOT / "bot" / "interface").rglob("*.py")
        if path.name != "permissions.py"
    )
    return {flag for pattern, flags in CALLS.items() if re.search(pattern, source) for flag in flags}


def test_the_needed_permissions_are_exactly_those_the_code_uses() -> None:
    listed = {item.flag for item in NEEDED}
    used = _used()
    assert used - listed == set(), "used by the code but missing from the invite"
    assert listed - used == set(), "in the invite but used by no call"


def test_the_readme_states_the_same_permission_integer() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert (
        f"Permission\n   integer `{permissions_value()}`" in readme
        or f"integer `{permissions_value()}`" in readme
    )


def test_invite_link_from_the_token() -> None:
    assert application_id_from_token("MTIzNDU2Nzg5MDEyMzQ1Njc4.abc.def") == 123456789012345678
    assert application_id_from_token("not a token") is None
    url = invite_url(42)
    assert "client_id=42" in url and f"permissions={permissions_value()}" in url
    assert "scope=bot+applications.commands" in url
