"""Request/response plumbing shared by the REST handlers.

* :class:`ApiError` becomes Discord's JSON error body (``{"message", "code"}``).
* :func:`json_response` sets ``Content-Type`` to exactly ``application/json``: discord.py
  only parses JSON when the header matches exactly (aiohttp's ``json_response`` appends a
  charset, which silently breaks login).
* :func:`read_body` accepts JSON and ``multipart/form-data`` (``payload_json`` + ``files[n]``).
* :func:`apply_message_payload` + :func:`validate_message` implement message create/edit
  with Discord's main limits, so a bot that would get a 400 from Discord gets one here too.
"""

from __future__ import annotations

import copy
import json
import mimetypes
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.web_request import FileField

from .model import FLAG_EPHEMERAL, FLAG_LOADING, StoredAttachment, StoredMessage, World

FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15
SETTABLE_FLAGS = FLAG_EPHEMERAL | FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2


class ApiError(Exception):
    """An error Discord would return; turned into a JSON response by the middleware."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def invalid_form(field_path: str, detail: str) -> ApiError:
    """Discord's 50035 Invalid Form Body, with one nested error."""
    errors: dict[str, Any] = {"_errors": [{"code": "BASE_TYPE_INVALID", "message": detail}]}
    for part in reversed(field_path.split(".")):
        errors = {part: errors}
    return ApiError(400, 50035, f"Invalid Form Body ({field_path}: {detail})", errors)


def json_response(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    return web.Response(status=204)


@dataclass
class UploadedFile:
    field: str
    filename: str
    data: bytes
    content_type: str | None


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[UploadedFile]]:
    """Parse a JSON or multipart body into (payload, files)."""
    ctype = request.headers.get("Content-Type", "")
    if ctype.startswith("multipart/"):
        form = await request.post()
        payload: dict[str, Any] = {}
        files: list[UploadedFile] = []
        for key, value in form.items():
            if key == "payload_json":
                payload = json.loads(value.file.read() if isinstance(value, FileField) else value)
            elif isinstance(value, FileField):
                files.append(UploadedFile(key, value.filename, value.file.read(), value.content_type))
        return payload, files
    raw = await request.read()
    if not raw:
        return {}, []
    data = json.loads(raw)
    return (data if isinstance(data, dict) else {"_list": data}), []


def _file_index(field_name: str) -> int | None:
    # "files[3]" -> 3
    if field_name.startswith("files[") and field_name.endswith("]"):
        try:
            return int(field_name[6:-1])
        except ValueError:
            return None
    return None


def apply_message_payload(
    world: World,
    base: StoredMessage,
    payload: dict[str, Any],
    files: list[UploadedFile],
    *,
    attachment_url: str,
    creating: bool,
) -> StoredMessage:
    """Return a new StoredMessage = ``base`` with the create/edit ``payload`` applied.

    ``attachment_url`` is a format string with ``{id}`` and ``{filename}``. The original is
    not touched, so a validation failure leaves the stored message unchanged.
    """
    msg = copy.copy(base)
    msg.embeds = list(base.embeds)
    msg.components = list(base.components)
    msg.attachments = list(base.attachments)
    _apply_fields(msg, payload, creating=creating)
    new_attachment = _attachment_maker(world, attachment_url)
    by_index = {i: f for f in files if (i := _file_index(f.field)) is not None}
    if "attachments" in payload and payload["attachments"] is not None:
        existing = {a.id: a for a in base.attachments}
        result: list[StoredAttachment] = []
        for item in payload["attachments"]:
            aid = int(item["id"])
            if aid in existing:
                result.append(existing[aid])
            elif aid in by_index:
                result.append(
                    new_attachment(by_index.pop(aid), item.get("filename"), item.get("description"))
                )
            else:
                raise invalid_form("attachments", f"unknown attachment id {aid}")
        # Files uploaded without an attachments entry are still attached.
        result.extend(new_attachment(f, None, None) for f in by_index.values())
        msg.attachments = result
    elif files:
        msg.attachments = list(base.attachments) + [new_attachment(f, None, None) for f in files]
    for att in msg.attachments:
        world.attachments[att.id] = att
    return msg


def _apply_fields(msg: StoredMessage, payload: dict[str, Any], *, creating: bool) -> None:
    """The payload's fields other than attachments, applied to `msg` (a copy)."""
    if "content" in payload:
        msg.content = payload["content"] or ""
    if "embeds" in payload:
        msg.embeds = list(payload["embeds"] or [])
    elif "embed" in payload:
        msg.embeds = [payload["embed"]] if payload["embed"] else []
    if "components" in payload:
        msg.components = list(payload["components"] or [])
    if payload.get("flags") is not None:
        requested = int(payload["flags"]) & SETTABLE_FLAGS
        if creating:
            msg.flags = requested | (msg.flags & FLAG_LOADING)
        else:  # ephemeral-ness can't change on edit
            msg.flags = (requested & ~FLAG_EPHEMERAL) | (msg.flags & (FLAG_EPHEMERAL | FLAG_LOADING))
    if "allowed_mentions" in payload:
        msg.allowed_mentions = payload["allowed_mentions"]
    if "message_reference" in payload and creating:
        msg.message_reference = payload["message_reference"]


def _attachment_maker(
    world: World, attachment_url: str
) -> Callable[[UploadedFile, str | None, str | None], StoredAttachment]:
    """What turns an uploaded file into a new stored attachment (named `filename` if given)."""

    def new_attachment(
        upload: UploadedFile, filename: str | None, description: str | None
    ) -> StoredAttachment:
        name = filename or upload.filename
        att = StoredAttachment(
            id=world.snowflake(),
            filename=name,
            data=upload.data,
            description=description,
            content_type=(
                upload.content_type
                if upload.content_type and upload.content_type != "application/octet-stream"
                else mimetypes.guess_type(name)[0] or "application/octet-stream"
            ),
        )
        att.url = attachment_url.format(id=att.id, filename=name)
        return att

    return new_attachment


def _check_len(value: Any, limit: int, path: str) -> int:
    if value is None:
        return 0
    text = str(value)
    if len(text) > limit:
        raise invalid_form(path, f"Must be {limit} or fewer in length (got {len(text)}).")
    return len(text)


def _validate_embeds(embeds: list[dict[str, Any]]) -> None:
    if len(embeds) > 10:
        raise invalid_form("embeds", "Must be 10 or fewer in length.")
    for i, embed in enumerate(embeds):
        p = f"embeds.{i}"
        total = _check_len(embed.get("title"), 256, f"{p}.title")
        total += _check_len(embed.get("description"), 4096, f"{p}.description")
        total += _check_len((embed.get("footer") or {}).get("text"), 2048, f"{p}.footer.text")
        total += _check_len((embed.get("author") or {}).get("name"), 256, f"{p}.author.name")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise invalid_form(f"{p}.fields", "Must be 25 or fewer in length.")
        for j, fld in enumerate(fields):
            if not fld.get("name") or not fld.get("value"):
                raise invalid_form(f"{p}.fields.{j}", "name and value are required and non-empty")
            total += _check_len(fld.get("name"), 256, f"{p}.fields.{j}.name")
            total += _check_len(fld.get("value"), 1024, f"{p}.fields.{j}.value")
        if total > 6000:
            raise invalid_form(p, "Embed size exceeds maximum size of 6000")


def _validate_components(components: list[dict[str, Any]], v2: bool) -> None:
    if not v2 and len(components) > 5:
        raise invalid_form("components", "Must be 5 or fewer in length.")
    _walk_components(components, "components", set())


SELECT_TYPES = (3, 5, 6, 7, 8)


def _walk_components(items: list[dict[str, Any]], path: str, seen: set[str]) -> None:
    """Check each component at `path` and, depth first, the ones it holds; `seen` gathers custom ids."""
    for i, comp in enumerate(items):
        p = f"{path}.{i}"
        ctype = comp.get("type")
        if ctype == 1:
            _check_row(comp, p)
        if "custom_id" in comp:
            _check_custom_id(comp, p, seen)
        if ctype == 2:
            _check_button(comp, p)
        if ctype == 3:
            _check_select_options(comp, p)
        if ctype in SELECT_TYPES:
            _check_len(comp.get("placeholder"), 150, f"{p}.placeholder")
        _walk_components(comp.get("components") or [], f"{p}.components", seen)
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                _walk_components([comp[key]], f"{p}.{key}", seen)


def _check_row(comp: dict[str, Any], p: str) -> None:
    children = comp.get("components") or []
    if not children or len(children) > 5:
        raise invalid_form(f"{p}.components", "An action row needs 1 to 5 components.")
    if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
        raise invalid_form(f"{p}.components", "A select menu must be alone in its row.")


def _check_custom_id(comp: dict[str, Any], p: str, seen: set[str]) -> None:
    cid = str(comp["custom_id"])
    _check_len(cid, 100, f"{p}.custom_id")
    if cid in seen:
        raise invalid_form(f"{p}.custom_id", f"Component custom id cannot be duplicated ({cid!r})")
    seen.add(cid)


def _check_button(comp: dict[str, Any], p: str) -> None:
    _check_len(comp.get("label"), 80, f"{p}.label")
    if comp.get("style") == 5:
        if not comp.get("url"):
            raise invalid_form(f"{p}.url", "Link buttons need a url")
    elif not comp.get("custom_id") and comp.get("style") != 6:
        raise invalid_form(f"{p}.custom_id", "Buttons need a custom_id")


def _check_select_options(comp: dict[str, Any], p: str) -> None:
    options = comp.get("options") or []
    if not 1 <= len(options) <= 25:
        raise invalid_form(f"{p}.options", "A select needs 1 to 25 options.")
    for j, opt in enumerate(options):
        _check_len(opt.get("label"), 100, f"{p}.options.{j}.label")
        _check_len(opt.get("value"), 100, f"{p}.options.{j}.value")
        _check_len(opt.get("description"), 100, f"{p}.options.{j}.description")


def validate_message(msg: StoredMessage, size_limit: int) -> None:
    """Raise :class:`ApiError` where Discord would reject this message."""
    _check_len(msg.content, 2000, "content")
    _validate_embeds(msg.embeds)
    v2 = bool(msg.flags & FLAG_COMPONENTS_V2)
    _validate_components(msg.components, v2)
    if len(msg.attachments) > 10:
        raise invalid_form("attachments", "Must be 10 or fewer in length.")
    total = sum(a.size for a in msg.attachments)
    if total > size_limit:
        raise ApiError(413, 40005, "Request entity too large")
    if not (msg.content or msg.embeds or msg.attachments or msg.components) and not msg.loading:
        raise ApiError(400, 50006, "Cannot send an empty message")
