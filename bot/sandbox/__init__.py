"""A local stand-in for Discord's REST API and gateway, and simulated members to drive it.

Typical use in a test::

    async with Sandbox(members=["Ana"]) as sb:
        await sb.run_bot(make_bot())
        outcome = await sb.member("Ana").slash("qwixx", "start", variant="classic")
"""

from .clock import SandboxClock
from .driver import ActionOutcome, SimMember
from .permissions import Perm
from .records import Call, ChannelRecord, Failure, StoredAttachment, StoredMessage
from .sandbox import GuildSpec, Sandbox
from .server import FakeDiscord

__all__ = [
    "ActionOutcome",
    "Call",
    "ChannelRecord",
    "Failure",
    "FakeDiscord",
    "GuildSpec",
    "Perm",
    "Sandbox",
    "SandboxClock",
    "SimMember",
    "StoredAttachment",
    "StoredMessage",
]
