"""What talks to Discord: the client and its commands (cogs), buttons and menus (components), the
answer to an interaction (reply), the table's Discord side (table, trading, calendar, scheduler), the
courier that delivers the outbox (delivery), the render pool (pictures), typed moves (typed) and the
`--local` console. It uses the application layer (`bot.app`); nothing below imports it."""
