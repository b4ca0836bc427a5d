"""Bridge: :class:`~bot.records.InPlay` where callers found it (to be removed once they
import it from :mod:`bot.records`)."""

from bot.records import InPlay as InPlay
