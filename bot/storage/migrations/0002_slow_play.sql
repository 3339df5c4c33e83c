-- Slow play: table clock settings, vacations, timers (reminders and deadlines), player and guild
-- settings, followers.
ALTER TABLE games ADD COLUMN table_settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE seats ADD COLUMN vacation INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;

-- One pending timer per seat and kind; a move replaces or clears them in its own transaction.
CREATE TABLE timers (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('reminder', 'deadline')),
    due_at REAL NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    claimed_at REAL,
    PRIMARY KEY (game_id, seat, kind)
);
CREATE INDEX timers_due ON timers (due_at);

CREATE TABLE players (
    user_id INTEGER PRIMARY KEY,
    quiet_start INTEGER,
    quiet_end INTEGER,
    utc_offset_minutes INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    settings TEXT NOT NULL
);

CREATE TABLE followers (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('dm', 'thread')),
    PRIMARY KEY (game_id, user_id)
);
