-- Saved games being opened with /game import: the file, kept while the lobby fills, and who takes which
-- of its seats. Read only by the import lobby and its start; the game's own log is the truth after that.
CREATE TABLE imports (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    archive TEXT NOT NULL,
    seat_map TEXT NOT NULL DEFAULT '{}'
);
