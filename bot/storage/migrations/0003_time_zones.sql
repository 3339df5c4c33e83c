ALTER TABLE players ADD COLUMN time_zone TEXT;
