"""What the store hands out and takes in, as plain values, and the errors it raises.

Every layer may import these (the rules excepted, which know nothing of storage): the
store builds them from its rows (:mod:`bot.store`), the service decides on them, and
the channel and the Discord adapter show them, without importing the store itself.
Records are values, shared by every reader of the same row: never changed in place.

By subject: :mod:`.games` (a game's record, moves, events, results and what its channel
shows), :mod:`.stats` (totals, history, practice bests, accuracies), :mod:`.ratings`,
:mod:`.daily` (the daily challenge), :mod:`.members` (what is kept of a person and
what forgetting them did) and :mod:`.errors` (what the store raises).
"""
