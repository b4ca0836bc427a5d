"""Discord permission bits used by the stand-in (a subset of Discord's list)."""

from enum import IntFlag


class Perm(IntFlag):
    """Permission bits as Discord numbers them."""

    CREATE_INSTANT_INVITE = 1 << 0
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    USE_EXTERNAL_APPS = 1 << 50


MEMBER_DEFAULT = (
    Perm.CREATE_INSTANT_INVITE
    | Perm.ADD_REACTIONS
    | Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
    | Perm.USE_EXTERNAL_APPS
)
"""What an ordinary member may do (the @everyone role of a fresh guild, roughly)."""

BOT_DEFAULT = (
    MEMBER_DEFAULT | Perm.MANAGE_MESSAGES | Perm.MANAGE_THREADS | Perm.CREATE_PRIVATE_THREADS
)
"""What the bot is granted when invited (its managed role)."""


def allows(granted: int, required: int) -> bool:
    """True if ``granted`` covers ``required`` (administrators have everything)."""
    if granted & Perm.ADMINISTRATOR:
        return True
    return granted & required == required


RESPONSE_PERMISSIONS = (
    Perm.ATTACH_FILES | Perm.EMBED_LINKS | Perm.MENTION_EVERYONE | Perm.USE_EXTERNAL_EMOJIS
)
"""The permissions an interaction response can use: all an app has where it has no bot
(Discord's ``app_permissions`` there are these, within what the member may do)."""
PRIVATE_CHANNEL_APP = Perm.ATTACH_FILES | Perm.EMBED_LINKS | Perm.MENTION_EVERYONE
"""``app_permissions`` in a DM between users or a group DM."""
BOT_DM_APP = PRIVATE_CHANNEL_APP | Perm.USE_EXTERNAL_EMOJIS
"""``app_permissions`` in the DM with the app's bot (442368, as Discord documents)."""
