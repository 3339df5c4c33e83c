-- The outbox: every channel post, edit and direct message a move owes, written in the move's own
-- transaction and delivered by a worker that retries until Discord takes it (bot/delivery.py).
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('post', 'edit', 'repaint', 'dm', 'notice', 'thread')),
    target INTEGER NOT NULL,
    payload TEXT NOT NULL,
    -- The view a picture is drawn from, apart from the payload: dropped once delivered (it is the
    -- bulk of a row and nothing reads it again).
    picture TEXT,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'superseded')),
    due_at REAL NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    claimed_at REAL,
    message_id INTEGER,
    reason TEXT,
    created_at TEXT NOT NULL,
    sent_at REAL
);
CREATE INDEX outbox_due ON outbox (due_at) WHERE status = 'pending';
CREATE INDEX outbox_pending_by_game ON outbox (game_id, id) WHERE status = 'pending';
CREATE INDEX outbox_by_game ON outbox (game_id, id);

-- Why the game's channel can no longer be posted in (deleted, access lost); NULL while it can.
ALTER TABLE games ADD COLUMN channel_lost TEXT;
