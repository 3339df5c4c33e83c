"""The table's application logic, without Discord: the game service (moves, lobbies, undo, clocks,
substitutes), what a move owes the channel (announcer), the undo plan, time and deadlines (clock,
timing), trade bundles, the lock map, refusals, and the text rules of a message (text). It uses the
store (`bot.storage`) and the rules core; it never imports `bot.interface`."""
