"""discord.py's private parts that the bot relies on: the one module of ``bot`` that
touches them (``tests/test_dependencies.py`` fails on a use elsewhere).

Checked on the discord.py versions of :data:`TESTED_ON`; ``pyproject.toml`` allows their
minor versions and no other, and ``tests/cogs/test_discord_private.py`` checks each
part below on the installed version, one test each, so that an upgrade that changes
one fails there rather than in a game. Where discord.py has a public way the bot takes
it instead: ``CommandTree.on_error`` and ``interaction_check`` with
``Interaction.namespace`` (a command whose options cannot be read,
:mod:`bot.cogs.fallback`), ``Cog.app_command`` (the catalogue's slash texts).

What has no public way:

* :func:`front_interactions` — the bot's door in front of the gateway's
  ``INTERACTION_CREATE`` parser (``ConnectionState.parsers``). discord.py hands an
  interaction to the command tree, the components' items and the ``on_interaction``
  listeners at once; no public hook comes before all of them or can stop them, and
  the stopping bot's gate and the click throttle must answer before any handler runs.
* :func:`tasks_started` — the tasks that parser starts for an interaction: discord.py
  starts each handler as a task before the parser returns, and hands none of them
  back (a stopping bot waits for exactly these).
* :func:`interaction_of` — an :class:`discord.Interaction` made from gateway data that
  discord.py never saw (the door's own answers); its constructor needs the client's
  ``ConnectionState``.
* :func:`template_of` — a ``DynamicItem`` class's compiled template; the public
  ``DynamicItem.template`` needs an instance, and instances are made for a click.
* :func:`hasten_ready` — ``guild_ready_timeout`` of a client already made (the stand-in
  sends every guild at once); the constructor's option of that name is public.
* :func:`aimed_at` — where every client sends its REST calls and opens its gateway
  (the stand-in's address): discord.py reads both from class attributes of modules it
  does not document, and has no option for either.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any, cast

import discord
import discord.gateway
import discord.http
import yarl

TESTED_ON = ("2.6.2", "2.6.3", "2.6.4", "2.7.0", "2.7.1")
"""The discord.py versions every part below was checked on (the tests of
``tests/cogs/test_discord_private.py``, each version installed beside the bot)."""

Parser = Callable[[dict[str, Any]], None]
"""A parser of the gateway's ``INTERACTION_CREATE``: takes the event's data."""


def _state(client: discord.Client) -> Any:
    return client._connection


def front_interactions(client: discord.Client, front: Callable[[Parser], Parser]) -> None:
    """Put ``front(parse)`` in place of ``client``'s parser of the gateway's
    ``INTERACTION_CREATE``, ``parse`` (discord.py's): every interaction comes to the
    front first, which hands on to ``parse`` those discord.py should handle. One front
    per client: a second would depend on the order of the two, so it is refused."""
    parsers: dict[str, Any] = _state(client).parsers
    parse = parsers["INTERACTION_CREATE"]
    if parse != _state(client).parse_interaction_create:
        raise RuntimeError("the client's interactions already have a front")
    parsers["INTERACTION_CREATE"] = front(parse)


def tasks_started(parse: Parser, data: dict[str, Any]) -> list[asyncio.Future[Any]]:
    """Hand ``data`` to ``parse``: the tasks started meanwhile, caught as they are made
    (not by comparing every task before and after, which costs as much as the tasks
    running). For discord.py's parser, these are the interaction's whole handling."""
    loop = asyncio.get_running_loop()
    factory = loop.get_task_factory()
    started: list[asyncio.Future[Any]] = []

    def catch(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
        task = factory(loop, coro, **kwargs) if factory else asyncio.Task(coro, loop=loop, **kwargs)
        started.append(task)
        return task

    loop.set_task_factory(catch)
    try:
        parse(data)
    finally:
        loop.set_task_factory(factory)
    return started


def interaction_of(client: discord.Client, data: dict[str, Any]) -> discord.Interaction:
    """The interaction of the gateway's ``data``, answerable through ``client``."""
    return discord.Interaction(data=cast(Any, data), state=_state(client))


def template_of(item: type[discord.ui.DynamicItem[Any]]) -> re.Pattern[str]:
    """The compiled template of the ``DynamicItem`` class ``item``."""
    pattern: re.Pattern[str] = item.__discord_ui_compiled_template__
    return pattern


def hasten_ready(client: discord.Client, seconds: float) -> None:
    """Wait only ``seconds`` after the last guild before ``client`` is ready (instead of
    discord.py's 2 s): for a client already made (the stand-in's)."""
    _state(client).guild_ready_timeout = seconds


@contextlib.contextmanager
def aimed_at(rest: str, gateway: str) -> Iterator[None]:
    """Every client's REST calls go to ``rest`` (the API's base, as
    ``http://127.0.0.1:8000/api/v10``) and its gateway connections to ``gateway`` (a
    websocket URL) within the block; as before after it."""
    route, socket = discord.http.Route, discord.gateway.DiscordWebSocket
    old_rest, old_gateway = route.BASE, socket.DEFAULT_GATEWAY
    route.BASE, socket.DEFAULT_GATEWAY = rest, yarl.URL(gateway)
    try:
        yield
    finally:
        route.BASE, socket.DEFAULT_GATEWAY = old_rest, old_gateway
