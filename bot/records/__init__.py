"""What the store hands out and takes in, as plain values, and the errors it raises.

Every layer may import these (the rules and the computer players excepted, which know
nothing of storage, and which a game's seats and options are read with): the
store builds them from its rows (:mod:`bot.store`), the service decides on them, and
the channel and the Discord adapter show them, without importing the store itself.
Records are values, shared by every reader of the same row: never changed in place.

By subject: :mod:`.games` (a game's record, moves, events, results and what its channel
shows), :mod:`.stats` (totals, history, practice bests, accuracies), :mod:`.ratings`,
:mod:`.daily` (the daily challenge), :mod:`.members` (what is kept of a person and
what forgetting them did) and :mod:`.errors` (what the store raises). A game record's
JSON parts read as values: :mod:`.seats` (its ``presence``: who is away, each person's
:mod:`.prefs` and :mod:`.plans` made ahead) and :mod:`.options`, each read once per
part (:mod:`.memo`).
"""
