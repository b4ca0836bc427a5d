"""The channel: what a game's public messages say, and keeping them so.

``story`` and ``texts`` word a game from its stored events; ``plan`` projects the stored
game onto the writes its channel needs, as data with no Discord in it; ``publisher``
carries a plan out within the write budget (``budget``), with nonces and lent tokens;
``timers`` fires what is due and catches lagging channels up. The Discord adapter
(:mod:`bot.cogs`) uses this package; nothing here imports the adapter.
"""
