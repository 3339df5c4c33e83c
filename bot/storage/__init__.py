"""Persistence: the store (games, seats, moves, timers, the outbox), the database drivers behind it
(SQLite, PostgreSQL), the numbered migrations, and which shards a process owns. It imports nothing
else of the bot."""
