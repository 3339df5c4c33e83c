"""The emulator's guild scheduled events (the calendar): list, create, edit and delete, with the
checks Discord makes on the fields a bot can send.

One of the route groups :class:`~bot.emulator.server.FakeDiscord` is made of; it works on the state
and helpers of :class:`~bot.emulator.base.ServerBase`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from aiohttp import web

from .base import ServerBase
from .model import (
    EVENT_ACTIVE,
    EVENT_CANCELED,
    EVENT_COMPLETED,
    EVENT_EXTERNAL,
    EVENT_GUILD_ONLY,
    EVENT_SCHEDULED,
    P_MANAGE_EVENTS,
    ScheduledEvent,
)
from .payloads import ApiError, invalid_form, json_response, no_content, read_body


class ScheduledEventRoutes(ServerBase):
    """Handlers for ``/guilds/{gid}/scheduled-events``."""

    # ------------------------------------------------------------------ guild scheduled events
    def _event(self, request: web.Request) -> ScheduledEvent:
        guild = self._guild(request)
        event = self.world.scheduled_events.get(int(request.match_info["eid"]))
        if event is None or event.deleted or event.guild_id != guild.id:
            raise ApiError(404, 10070, "Unknown Guild Scheduled Event")
        return event

    def _check_manage_events(self, guild_id: int) -> None:
        if not self.world.permissions(guild_id, self.bot_user_id) & P_MANAGE_EVENTS:
            raise ApiError(403, 50013, "Missing Permissions")

    async def _list_events(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return json_response([e.to_json(self.world) for e in self.scheduled_events(guild.id)])

    async def _get_event(self, request: web.Request) -> web.Response:
        return json_response(self._event(request).to_json(self.world))

    async def _create_event(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        self._check_manage_events(guild.id)
        payload, _ = await read_body(request)
        for required in ("name", "privacy_level", "scheduled_start_time", "entity_type"):
            if payload.get(required) is None:
                raise invalid_form(required, "This field is required")
        event = ScheduledEvent(
            id=self.world.snowflake(),
            guild_id=guild.id,
            creator_id=self.bot_user_id,
            name="",
            scheduled_start_time="",
            entity_type=0,
        )
        apply_event_payload(event, payload)
        self.world.scheduled_events[event.id] = event
        return json_response(event.to_json(self.world))

    async def _patch_event(self, request: web.Request) -> web.Response:
        event = self._event(request)
        self._check_manage_events(event.guild_id)
        payload, _ = await read_body(request)
        if "status" in payload:
            allowed = {
                EVENT_SCHEDULED: {EVENT_ACTIVE, EVENT_CANCELED},
                EVENT_ACTIVE: {EVENT_COMPLETED},
            }.get(event.status, set())
            if int(payload["status"]) != event.status and int(payload["status"]) not in allowed:
                raise invalid_form("status", "Invalid Guild Scheduled Event Status transition")
        if event.status in (EVENT_COMPLETED, EVENT_CANCELED):
            raise invalid_form("status", "Cannot edit a finished event")
        apply_event_payload(event, payload)
        return json_response(event.to_json(self.world))

    async def _delete_event(self, request: web.Request) -> web.Response:
        event = self._event(request)
        self._check_manage_events(event.guild_id)
        event.deleted = True
        return no_content()


def apply_event_payload(event: ScheduledEvent, payload: dict[str, Any]) -> None:
    """Check a create/edit body the way Discord does for the fields a bot can send, then apply it."""
    _apply_texts(event, payload)
    _apply_times(event, payload)
    if "entity_type" in payload:
        event.entity_type = int(payload["entity_type"])
    if "status" in payload:
        event.status = int(payload["status"])
    metadata = payload.get("entity_metadata")
    if isinstance(metadata, dict) and "location" in metadata:
        event.location = metadata["location"]
    _check_entity(event)


def _apply_texts(event: ScheduledEvent, payload: dict[str, Any]) -> None:
    """The name, the description and the privacy level."""
    if "name" in payload:
        name = str(payload["name"] or "")
        if not 1 <= len(name) <= 100:
            raise invalid_form("name", "Must be between 1 and 100 in length.")
        event.name = name
    if "description" in payload:
        description = payload["description"]
        if description is not None and len(str(description)) > 1000:
            raise invalid_form("description", "Must be 1000 or fewer in length.")
        event.description = description
    if "privacy_level" in payload:
        if int(payload["privacy_level"]) != EVENT_GUILD_ONLY:
            raise invalid_form("privacy_level", "Value must be one of {2}.")
        event.privacy_level = EVENT_GUILD_ONLY


def _apply_times(event: ScheduledEvent, payload: dict[str, Any]) -> None:
    """The start and end times: ISO 8601 with a time zone."""
    for key in ("scheduled_start_time", "scheduled_end_time"):
        if key in payload and payload[key] is not None:
            try:
                when = datetime.fromisoformat(str(payload[key]))
            except ValueError:
                raise invalid_form(key, "Could not parse the date.") from None
            if when.tzinfo is None:
                raise invalid_form(key, "Could not parse the date (no time zone).")
            setattr(event, key, str(payload[key]))


def _check_entity(event: ScheduledEvent) -> None:
    """What the event's kind requires of it once the body is applied."""
    if event.entity_type == EVENT_EXTERNAL:
        if not event.location or not 1 <= len(event.location) <= 100:
            raise invalid_form("entity_metadata.location", "Must be between 1 and 100 in length.")
        if event.end is None:
            raise invalid_form("scheduled_end_time", "External events need an end time.")
        if event.channel_id is not None:
            raise invalid_form("channel_id", "External events have no channel.")
    elif event.entity_type not in (1, 2):
        raise invalid_form("entity_type", "Value must be one of {1, 2, 3}.")
    if event.end is not None and event.end <= event.start:
        raise invalid_form("scheduled_end_time", "The end must be after the start.")
