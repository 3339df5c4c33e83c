"""City Heroes' moves, one module per family: each holds the family's legality checks, its choices and
its apply functions (plain functions of the state); `common` holds the map and payment helpers they
share, `cleanup` the automatic end of a turn."""
