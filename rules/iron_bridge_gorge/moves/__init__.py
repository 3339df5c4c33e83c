"""Iron Bridge Gorge's moves, one module per family: each holds its legality checks, its choices and its
apply functions (plain functions of the state, the seat, the action and the events list).

- `phases`: whose turn it is, which phases are open, stepping forward (the loan interest);
- `bid`: the secret initiative bids and their reveal;
- `opportunity`: the development step's row, taking a card (Decision) and drawing (Expansion);
- `trade`: proposals, the ready-made offers and the trade composer, on the shared `rules.trade`;
- `build`: build costs and building (Build);
- `bank`: loans, repayment and sales (Bank);
- `end`: ending the turn and the End Phase's discards;
- `revenue`: the event step and the revenue step.
"""
