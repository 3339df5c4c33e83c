"""The families of Iron & Brass moves, one module each: `economy` (mine, hire), `build` (pick and
place), `movement`, `combat` (attack, concentrated fire, the defender's Surge, the dice) and `repair`
(repair and heal); `common` holds the piece queries they share. Each module holds its family's
legality checks, its choices and its apply functions (plain functions of the state)."""
