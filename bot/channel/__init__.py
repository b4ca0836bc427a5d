"""The channel: what a game's public messages say, and keeping them so.

``story`` and ``texts`` word a game from its stored events; ``plan`` projects the stored
game onto the writes its channel needs, as data with no Discord in it; ``publisher``
carries a plan out within the write budget (``budget``), with nonces and lent tokens,
reading the games through a ``source`` as it writes through a ``writer``. The Discord
adapter (:mod:`bot.cogs`) uses this package; nothing here imports the adapter.
"""
