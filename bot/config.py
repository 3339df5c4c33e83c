"""Settings from the environment or a .env file; secrets never live in code."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.storage.shards import Shards


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: str = Field(default="", description="The bot token from the Discord developer portal.")
    database_url: str = Field(
        default="sqlite:///ironhost.db",
        description="Where games are stored: sqlite:///path/to/file.db, or postgresql://user:pass@host/db"
        " for several worker processes sharing one database.",
    )
    discord_api_base: str = Field(
        default="", description="Only for tests and --local: the REST base of a Discord emulator."
    )
    dev_guild_id: int | None = Field(
        default=None, description="Sync commands to this guild only (instant) instead of globally."
    )
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
    render_processes: int = Field(
        default=1,
        ge=0,
        le=16,
        description="Worker processes drawing boards and thinking for computer players; 0 uses threads.",
    )
    output_dir: Path = Field(default=Path("local-out"), description="--local only: where images are written.")
    outbox_retry_base: float = Field(
        default=1.0,
        gt=0,
        le=60,
        description="Seconds before the first retry of a post Discord did not take; doubles each try.",
    )
    stop_timeout: float = Field(
        default=10.0,
        gt=0,
        le=600,
        description="Seconds a graceful stop (SIGTERM, SIGINT) may take before the bot exits; what is"
        " not delivered by then waits in the database for the next start.",
    )
    outbox_retention_days: float = Field(
        default=7.0,
        gt=0,
        description="Days a delivered post, edit or DM is kept in the database before it is pruned.",
    )
    backup_dir: Path | None = Field(
        default=None,
        description="SQLite only: a folder for scheduled backups of the database; empty: no scheduled backups.",
    )
    backup_every_hours: float = Field(default=24.0, gt=0, description="Hours between scheduled backups.")
    backup_keep: int = Field(default=7, ge=1, le=1000, description="How many scheduled backups are kept.")
    health_port: int | None = Field(
        default=None,
        ge=1,
        le=65535,
        description="A port for /healthz and /metrics (Prometheus) on HEALTH_HOST; empty: no listener.",
    )
    health_host: str = Field(default="0.0.0.0", description="The address the health listener binds to.")
    log_format: str = Field(default="text", description="text, or json for one JSON object per log line.")
    shard_count: int | None = Field(
        default=None, description="How many shards the bot has in all; unset: one connection, no sharding."
    )
    shard_ids: str = Field(
        default="", description="The shards this process runs, e.g. 0,1; empty: all of SHARD_COUNT."
    )

    @field_validator("dev_guild_id", "shard_count", "backup_dir", "health_port", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if value in ("", None) else value

    @field_validator("log_format")
    @classmethod
    def _known_format(cls, value: str) -> str:
        if value.lower() not in ("text", "json"):
            raise ValueError(f"LOG_FORMAT must be text or json, not {value!r}")
        return value.lower()

    @model_validator(mode="after")
    def _shards_make_sense(self) -> Settings:
        Shards.parse(self.shard_count, self.shard_ids)  # a wrong pair stops the start with its sentence
        return self

    @property
    def shards(self) -> Shards | None:
        """The shards this process runs; None when the bot is not sharded."""
        return Shards.parse(self.shard_count, self.shard_ids)
