-- Games, their seats, the append-only action log with a snapshot per game, and the messages we posted.
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    guild_id INTEGER,
    channel_id INTEGER NOT NULL,
    host_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    options TEXT NOT NULL DEFAULT '{}',
    seed INTEGER NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    state TEXT,
    result TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT
);
-- One open game per channel, enforced by the database so two racing /game new cannot both win.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_guild ON games (guild_id, status);

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    dm_closed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    action TEXT NOT NULL,
    events TEXT NOT NULL,
    interaction_id INTEGER,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
);
-- A retried or duplicated interaction is applied once.
CREATE UNIQUE INDEX actions_once_per_interaction ON actions (interaction_id) WHERE interaction_id IS NOT NULL;

CREATE TABLE messages (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    version INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
);

CREATE TABLE votes (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind, user_id)
);

CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
