"""The channel: what a game's public messages say, and keeping them so.

``story`` and ``texts`` word a game from its stored events; ``plan`` projects the stored
game onto the writes its channel needs, as data with no Discord in it; ``publisher``
carries a plan out within the write budget (``budget``), with nonces and lent tokens,
reading the games through a ``source`` as it writes through a ``writer``; ``direct``
projects a game's direct messages and ``courier`` carries them out. The Discord adapter
(:mod:`bot.cogs`) uses this package and the service answers its ``source``; nothing here
imports the adapter, the service or the store (``tests/test_import_graph.py``).
"""
