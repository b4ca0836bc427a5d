"""Bridge: the store's errors where callers found them (to be removed once they import
them from :mod:`bot.records`)."""

from bot.records import ChannelBusy as ChannelBusy
from bot.records import CommitUnknown as CommitUnknown
from bot.records import GameNotFound as GameNotFound
from bot.records import LockLost as LockLost
from bot.records import StoreError as StoreError
from bot.records import VersionConflict as VersionConflict
from bot.records import WrongStatus as WrongStatus
