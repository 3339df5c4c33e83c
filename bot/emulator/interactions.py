"""The emulator's interaction answers: the initial callback (within 3 s, only once) and the
followups and edits through the interaction's webhook (for 15 minutes).

One of the route groups :class:`~bot.emulator.server.FakeDiscord` is made of; it works on the state
and helpers of :class:`~bot.emulator.base.ServerBase`.
"""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from .base import ServerBase
from .model import FLAG_EPHEMERAL, FLAG_LOADING, InteractionRecord, StoredMessage
from .payloads import ApiError, UploadedFile, invalid_form, json_response, no_content, read_body

INTERACTION_TOKEN_SECONDS = 15 * 60.0


class InteractionRoutes(ServerBase):
    """Handlers for ``/interactions/{iid}/{token}/callback`` and ``/webhooks/{app}/{token}``."""

    # ------------------------------------------------------------------ interaction callback
    async def _callback(self, request: web.Request) -> web.Response:
        rec = self.world.interactions.get(int(request.match_info["iid"]))
        if rec is None or rec.token != request.match_info["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if self._hold is not None and self._hold(rec):
            self.held.append(rec)
            await self._released.wait()
            raise ApiError(404, 10062, "Unknown interaction (its answer was held until too late)")
        payload, files = await read_body(request)
        now = time.monotonic()
        if rec.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if now - rec.created_mono > self.ack_timeout:
            raise ApiError(
                404,
                10062,
                f"Unknown interaction (callback {now - rec.created_mono:.2f}s after the interaction)",
            )
        ctype = int(payload.get("type", 0))
        data = payload.get("data") or {}
        msg = self._apply_callback(rec, ctype, data, files)
        if msg is not None:
            rec.versions.append(msg)
        rec.callback_type = ctype
        rec.callback_mono = now
        rec.callback_data = data
        rec.acked.set()
        if ctype not in (5, 6):
            rec.produced.set()

        inter: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        body: dict[str, Any] = {"interaction": inter}
        if msg is not None:
            inter.update(
                response_message_id=str(msg.id),
                response_message_loading=msg.loading,
                response_message_ephemeral=msg.ephemeral,
            )
            body["resource"] = {"type": ctype, "message": msg.to_json(self.world)}
        elif ctype not in (1, 6):
            body["resource"] = {"type": ctype}
        return json_response(body)

    def _apply_callback(
        self, rec: InteractionRecord, ctype: int, data: dict[str, Any], files: list[UploadedFile]
    ) -> StoredMessage | None:
        """Validate and perform one callback; returns the message created/updated, if any."""
        if rec.type == 4 and ctype != 8:
            raise invalid_form("type", "Autocomplete interactions only accept type 8")
        if ctype == 1:
            return None
        if ctype in (4, 5):
            return self._answer_message(rec, ctype, data, files)
        if ctype in (6, 7):
            return self._update_message(rec, ctype, data, files)
        if ctype == 8:
            rec.choices = _checked_choices(rec, data)
            return None
        if ctype == 9:
            _check_modal(rec, data)
            rec.modal = data
            return None
        raise invalid_form("type", f"Unknown interaction callback type {ctype}")

    def _answer_message(
        self, rec: InteractionRecord, ctype: int, data: dict[str, Any], files: list[UploadedFile]
    ) -> StoredMessage:
        """Type 4 (a message) or 5 (a "thinking" placeholder for a later followup)."""
        base = self._new_message(
            rec.channel_id,
            interaction_id=rec.id,
            webhook_id=self.app_id,
            message_type=20 if rec.type == 2 else 0,
        )
        if ctype == 5:
            base.flags = FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            msg = base
        else:
            msg = self._build(base, data, files, creating=True)
        if msg.ephemeral:
            msg.ephemeral_for = rec.user_id
        self._store(msg)
        rec.original_message_id = msg.id
        rec.message_ids.append(msg.id)
        return msg

    def _update_message(
        self, rec: InteractionRecord, ctype: int, data: dict[str, Any], files: list[UploadedFile]
    ) -> StoredMessage | None:
        """Type 6 (deferred update) or 7 (update) of the message a component sits on."""
        is_component = rec.type == 3 or (rec.type == 5 and rec.source_message_id is not None)
        if not is_component or rec.source_message_id is None:
            raise invalid_form("type", f"Callback type {ctype} is only valid for component interactions")
        rec.original_message_id = rec.source_message_id
        if ctype == 6:
            return None
        msg = self._store(
            self._build(self.world.messages[rec.source_message_id], data, files, creating=False)
        )
        rec.message_ids.append(msg.id)
        return msg

    # ------------------------------------------------------------------ webhooks (followups)
    def _webhook_interaction(self, request: web.Request) -> InteractionRecord:
        rec = self._by_token.get(request.match_info["token"])
        if rec is None or int(request.match_info["app"]) != self.app_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        if time.monotonic() - rec.created_mono > INTERACTION_TOKEN_SECONDS:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if rec.callback_type is None:
            raise ApiError(404, 10015, "Unknown Webhook (interaction not acknowledged yet)")
        return rec

    def _webhook_message(self, request: web.Request, rec: InteractionRecord) -> StoredMessage:
        mid_raw = request.match_info["mid"]
        mid = rec.original_message_id if mid_raw == "@original" else int(mid_raw)
        allowed = set(rec.message_ids) | ({rec.original_message_id} if rec.original_message_id else set())
        msg = self.world.messages.get(mid) if mid is not None else None
        if msg is None or msg.deleted or mid not in allowed:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def _followup(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        payload, files = await read_body(request)
        original = self.world.messages.get(rec.original_message_id or 0)
        if rec.callback_type == 5 and original is not None and original.loading:
            # Discord: the first followup after a "thinking" defer replaces the placeholder
            # and keeps the defer's ephemeral-ness whatever the followup's flags say.
            msg = self._store(self._build(original, payload, files, creating=False))
            msg.edited_timestamp = None
        else:
            channel = self.world.channels[rec.channel_id]
            base = self._new_message(channel.id, interaction_id=rec.id, webhook_id=self.app_id)
            msg = self._build(base, payload, files, creating=True)
            if msg.ephemeral:
                msg.ephemeral_for = rec.user_id
            self._store(msg)
            rec.message_ids.append(msg.id)
        rec.versions.append(msg)
        rec.produced.set()
        if request.query.get("wait", "false").lower() in ("1", "true"):
            return json_response(msg.to_json(self.world))
        return no_content()

    async def _webhook_get(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        return json_response(self._webhook_message(request, rec).to_json(self.world))

    async def _webhook_patch(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        old = self._webhook_message(request, rec)
        payload, files = await read_body(request)
        msg = self._store(self._build(old, payload, files, creating=False))
        if msg.id not in rec.message_ids:
            rec.message_ids.append(msg.id)
        rec.versions.append(msg)
        rec.produced.set()
        return json_response(msg.to_json(self.world))

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        self._webhook_message(request, rec).deleted = True
        rec.produced.set()
        return no_content()


def _checked_choices(rec: InteractionRecord, data: dict[str, Any]) -> list[dict[str, Any]]:
    """An autocomplete answer's choices (type 8), checked."""
    if rec.type != 4:
        raise invalid_form("type", "Type 8 is only valid for autocomplete interactions")
    choices = list(data.get("choices") or [])
    if len(choices) > 25:
        raise invalid_form("data.choices", "Must be 25 or fewer in length.")
    for i, choice in enumerate(choices):
        if not 1 <= len(str(choice.get("name", ""))) <= 100:
            raise invalid_form(f"data.choices.{i}.name", "Must be between 1 and 100 in length.")
    return choices


def _check_modal(rec: InteractionRecord, data: dict[str, Any]) -> None:
    """A modal answer (type 9), checked."""
    if rec.type == 5:
        raise invalid_form("type", "A modal cannot answer a modal submit")
    if not data.get("custom_id") or not data.get("title") or not data.get("components"):
        raise invalid_form("data", "A modal needs custom_id, title and components")
    if len(str(data["title"])) > 45:
        raise invalid_form("data.title", "Must be 45 or fewer in length.")
