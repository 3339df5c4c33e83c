"""City of Iron's moves, one module per family: each holds its legality checks, the choices only it
offers and its apply functions (plain functions taking the state, the seat, the action)."""
