"""Plain records of what the stand-in knows: users, guilds, channels, messages, interactions."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image

SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
VOICE_MESSAGE = 1 << 13
COMPONENTS_V2 = 1 << 15

TEXT_CHANNEL = 0
DM_CHANNEL = 1
GROUP_DM = 3
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

GUILD_INSTALL, USER_INSTALL = 0, 1
"""Where an app is installed (application integration types)."""
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
"""Where an interaction happens (interaction context types)."""


@dataclass
class UserRecord:
    """A Discord user (a simulated member or the bot itself)."""

    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"  # the language of the user's Discord client
    accepts_dms: bool = True
    """False: the user closed their direct messages (the bot's posts get 50007)."""


@dataclass
class EmojiRecord:
    """One of the application's emojis: its name and its image (as uploaded)."""

    id: int
    name: str
    image: bytes


@dataclass
class RoleRecord:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False


@dataclass
class MemberRecord:
    """A user's membership in one guild."""

    user: UserRecord
    guild_id: int
    role_ids: list[int]
    permissions: int
    joined_at: str


@dataclass
class ChannelRecord:
    """A text channel, a thread, or (without a guild) a direct message or group DM."""

    id: int
    guild_id: int | None
    name: str
    type: int = TEXT_CHANNEL
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    recipients: tuple[int, ...] = ()
    """Everyone in a DM or group DM (the bot too, in a DM with the bot); empty in a guild."""

    @property
    def is_thread(self) -> bool:
        """True for public and private threads."""
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_private(self) -> bool:
        """True for a DM or a group DM (channels outside every guild)."""
        return self.type in (DM_CHANNEL, GROUP_DM)


@dataclass
class GuildRecord:
    """A guild with its roles and channels (ids only; the world holds the records)."""

    id: int
    name: str
    channel_ids: list[int] = field(default_factory=list)
    locale: str = "en-US"  # the guild's preferred locale (Server Settings → Community)
    roles: list[RoleRecord] = field(default_factory=list)
    has_bot: bool = True
    """False for a server that never added the bot (its members may still use the app
    they installed to their own account)."""


@dataclass
class StoredAttachment:
    """An uploaded file; ``data`` keeps the bytes so tests can open it."""

    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None

    def image(self) -> Image.Image:
        """The attachment opened with Pillow."""
        from PIL import Image

        return Image.open(io.BytesIO(self.data))


@dataclass
class StoredMessage:
    """A message as the stand-in keeps it."""

    id: int
    channel_id: int
    guild_id: int | None
    author: UserRecord
    content: str = ""
    """What the message says in text: its content, or, with layout components
    (``IS_COMPONENTS_V2``, which have no content), its text displays in order, a line
    apart (:func:`layout_text`). Its payload carries the content Discord keeps."""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[StoredAttachment] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None
    """None for a public message; the user id for an ephemeral one."""
    interaction_id: int | None = None
    webhook_id: int | None = None
    type: int = 0
    timestamp: str = ""
    edited_timestamp: str | None = None
    deleted: bool = False
    nonce: str | None = None
    """The nonce it was sent with (Discord drops a repeat when ``enforce_nonce`` is set)."""
    audience: frozenset[int] | None = None
    """Who is in the DM or group DM it was sent in; None in a guild channel."""

    @property
    def layout(self) -> bool:
        """True for a message of layout components (a card)."""
        return bool(self.flags & COMPONENTS_V2)

    @property
    def ephemeral(self) -> bool:
        """True if only one user can see this message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while the message is a deferred "thinking…" placeholder."""
        return bool(self.flags & LOADING)

    def visible_for(self, user_id: int) -> bool:
        """Whether ``user_id`` sees this message."""
        if self.audience is not None and user_id not in self.audience:
            return False
        return not self.deleted and self.visible_to in (None, user_id)

    def interactive(self) -> Iterator[dict[str, Any]]:
        """Every button and select in the message, depth first."""
        yield from _walk_components(self.components)

    @property
    def labels(self) -> list[str]:
        """Labels of the message's buttons, in order."""
        return [c["label"] for c in self.interactive() if c.get("type") == 2 and c.get("label")]

    def find_component(
        self,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        placeholder: str | None = None,
    ) -> dict[str, Any]:
        """The one component matching every given criterion; LookupError otherwise."""
        wanted = {"label": label, "custom_id": custom_id, "placeholder": placeholder}
        wanted = {k: v for k, v in wanted.items() if v is not None}
        found = [c for c in self.interactive() if all(c.get(k) == v for k, v in wanted.items())]
        if len(found) != 1:
            have = [
                (c.get("label") or c.get("placeholder"), c.get("custom_id"))
                for c in self.interactive()
            ]
            raise LookupError(f"{len(found)} components match {wanted}; message has {have}")
        return found[0]


def every_component(items: list[Any]) -> Iterator[dict[str, Any]]:
    """Every component of ``items``, depth first (a section's accessory after its text)."""
    for item in items:
        if isinstance(item, dict):
            yield item
            yield from every_component(item.get("components") or [])
            if isinstance(item.get("accessory"), dict):
                yield item["accessory"]


def layout_text(components: list[Any]) -> str:
    """The text displays of a message's layout components, in order, a line apart."""
    return "\n".join(
        str(c.get("content") or "") for c in every_component(components) if c.get("type") == 10
    )


def said(body: Any) -> str:
    """What a message's request body says: its content, or a card's text displays."""
    if not isinstance(body, dict):
        return ""
    if int(body.get("flags") or 0) & COMPONENTS_V2:
        return layout_text(body.get("components") or [])
    return str(body.get("content") or "")


def media_urls(components: list[Any]) -> Iterator[str]:
    """Every media a message's layout components show (galleries' items, thumbnails)."""
    for component in every_component(components):
        for item in [component, *(component.get("items") or [])]:
            media = item.get("media")
            if isinstance(media, dict) and isinstance(media.get("url"), str):
                yield media["url"]


def _walk_components(items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for item in items:
        if item.get("type") in (2, 3, 5, 6, 7, 8):
            yield item
        yield from _walk_components(item.get("components") or [])
        if isinstance(item.get("accessory"), dict):
            yield from _walk_components([item["accessory"]])


@dataclass
class InteractionRecord:
    """One interaction from creation to its last follow-up."""

    id: int
    token: str
    type: int
    user_id: int
    guild_id: int | None
    channel_id: int
    data: dict[str, Any]
    created_at: float
    log_start: int
    message_id: int | None = None
    """The message whose component was used (component interactions)."""
    callback_type: int | None = None
    acknowledged_at: float | None = None
    """When the callback arrived (stand-in clock), for measuring answer times."""
    original_id: int | None = None
    failed: str | None = None
    modal: dict[str, Any] | None = None
    autocomplete: list[dict[str, Any]] | None = None
    answered: bool = False
    """Whether the token was used since the callback (a follow-up or an edit): what a
    deferred update promises."""
    context: int = 0
    """Where it was used: 0 a guild, 1 the DM with the bot, 2 another DM or a group DM."""
    owners: dict[str, str] = field(default_factory=dict)
    """``authorizing_integration_owners``: "0" the guild install, "1" the user install."""
    followups: int = 0
    """Follow-up messages created through its token."""
    forced_ephemeral: bool = False
    """Its responses are ephemeral whatever their flags (a user-installed app in a server
    without the bot, used by a member without Use External Apps)."""

    @property
    def acknowledged(self) -> bool:
        """True once the bot answered the callback."""
        return self.callback_type is not None


@dataclass
class Call:
    """One REST request as received."""

    method: str
    route: str
    path: str
    body: Any = None
    query: dict[str, str] = field(default_factory=dict)
    status: int | None = None
    files: list[str] = field(default_factory=list)
    """Filenames of the uploaded ``files[n]`` parts."""
    answer: Any = None
    """The JSON body answered (None: none, as with a 204)."""
    at: float = field(default_factory=time.monotonic)
    """When the request arrived (``time.monotonic``)."""

    @property
    def endpoint(self) -> str:
        """``"METHOD /route/template"``."""
        return f"{self.method} {self.route}"


@dataclass
class Failure:
    """Something a real Discord would have refused or reported."""

    kind: str
    endpoint: str
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.endpoint}: {self.detail}"
