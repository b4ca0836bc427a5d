"""Limits against abuse: lobbies and running games at once, per member on a server
and per server; each refusal polite and naming the limit."""

from __future__ import annotations

import pytest

from bot.i18n import using
from bot.players import computer_seat
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.limits import Limits
from bot.store import Store
from tests.fakes import FakeClock

GUILD, OTHER_GUILD = 10, 20
ANA, BEN, CEM, DAN, EVA = 101, 102, 103, 104, 105


def limited(store: Store, member: int = 2, server: int = 4) -> GameService:
    return GameService(
        store,
        seeds=lambda: 4321,
        clock=FakeClock(1_000_000.0),
        limits=Limits(per_member=member, per_server=server),
    )


async def refused(call: object) -> ServiceError:
    with pytest.raises(ServiceError) as error:
        await call  # type: ignore[misc]  # a coroutine
    return error.value


async def test_a_member_opens_as_many_lobbies_as_allowed_then_is_told_why_not(store: Store) -> None:
    service = limited(store)
    await service.lobby.open(GUILD, 1, ANA, "classic")
    await service.lobby.open(GUILD, 2, ANA, "qwinto")
    error = await refused(service.lobby.open(GUILD, 3, ANA, "classic"))
    assert error.key == "error.limit_you"
    assert error.text() == (
        "You are in 2 games on this server already, lobbies included (2 at once is the most "
        "one member may have); finish or leave one first — `/qwixx mygames` lists those "
        "waiting for you."
    )
    # another member, and the same member on another server, are not held back
    await service.lobby.open(GUILD, 3, BEN, "classic")
    await service.lobby.open(OTHER_GUILD, 4, ANA, "classic")


async def test_ended_games_and_given_up_seats_no_longer_count(store: Store) -> None:
    service = limited(store)
    first = await service.lobby.open(GUILD, 1, ANA, "classic")
    second = await service.lobby.open(GUILD, 2, BEN, "classic")
    await service.lobby.join(second.id, ANA)
    assert (await refused(service.lobby.open(GUILD, 3, ANA, "classic"))).key == "error.limit_you"
    await service.lobby.cancel(first.id, ANA)  # a lobby closed
    third = await service.lobby.open(GUILD, 3, ANA, "classic")
    await service.lobby.join(third.id, CEM)
    await service.lobby.start(third.id, ANA)
    await service.turns.leave_game(2, ANA)  # out of Ben's lobby
    await service.lobby.open(GUILD, 4, ANA, "classic")
    assert (await refused(service.lobby.join(second.id, ANA))).key == "error.limit_you"
    await service.turns.leave_game(3, ANA)  # a seat given up in a running game: away
    await service.lobby.join(second.id, ANA)


async def test_joining_one_game_too_many_is_refused_politely(store: Store) -> None:
    service = limited(store, member=1)
    mine = await service.lobby.open(GUILD, 1, ANA, "classic")
    theirs = await service.lobby.open(GUILD, 2, BEN, "classic")
    error = await refused(service.lobby.join(theirs.id, ANA))
    assert error.key == "error.limit_you" and "in 1 game on this server" in error.text()
    assert "1 at once is the most one member may have" in error.text()
    assert (await service.keeper.read(theirs.id)).record.players == [BEN]
    await service.lobby.join(mine.id, CEM)  # joining does not count the lobby twice for Cem


async def test_the_server_opens_as_many_games_as_allowed(store: Store) -> None:
    service = limited(store, member=5, server=3)
    for channel, host in enumerate((ANA, BEN, CEM), 1):
        await service.lobby.open(GUILD, channel, host, "classic")
    error = await refused(service.lobby.open(GUILD, 4, DAN, "classic"))
    assert error.key == "error.limit_server"
    assert error.text() == (
        "This server has 3 games open already, lobbies included (3 at once is the most one "
        "server may have); finish or abandon one first (`/qwixx abandon` in its channel)."
    )
    await service.lobby.open(OTHER_GUILD, 4, DAN, "classic")
    await service.turns.abandon(1, ANA, can_manage=False)
    await service.lobby.open(GUILD, 5, DAN, "classic")


async def test_start_checks_everyone_seated_again(store: Store) -> None:
    """Seated by a rematch, or at the same moment, or before the limit was lowered:
    the start refuses, naming who is over, and the lobby stays as it was."""
    roomy = limited(store, member=5, server=10)
    lobby = await roomy.lobby.open(GUILD, 1, ANA, "classic")
    await roomy.lobby.join(lobby.id, BEN)
    await roomy.lobby.join(lobby.id, CEM)
    for channel in (2, 3):
        await roomy.lobby.open(GUILD, channel, CEM, "classic")
    strict = limited(store, member=2, server=10)
    error = await refused(strict.lobby.start(lobby.id, ANA))
    assert error.key == "error.limit_player"
    assert error.text().startswith(f"<@{CEM}> is in 2 games on this server already")
    assert (await strict.keeper.read(lobby.id)).record.status == "lobby"
    for channel in (4, 5):
        await roomy.lobby.open(GUILD, channel, ANA, "classic")
    await strict.lobby.leave(lobby.id, CEM)
    assert (await refused(strict.lobby.start(lobby.id, ANA))).key == "error.limit_you"
    await strict.lobby.cancel((await strict.keeper.in_channel(5)).record.id, ANA)
    assert (await strict.lobby.start(lobby.id, ANA)).record.status == "running"


async def test_start_checks_the_server_too(store: Store) -> None:
    roomy = limited(store, member=5, server=10)
    lobby = await roomy.lobby.open(GUILD, 1, ANA, "classic")
    await roomy.lobby.join(lobby.id, BEN)
    for channel, host in ((2, CEM), (3, DAN), (4, EVA)):
        await roomy.lobby.open(GUILD, channel, host, "classic")
    error = await refused(limited(store, server=3).lobby.start(lobby.id, ANA))
    assert error.key == "error.limit_server" and "has 3 games open already" in error.text()
    assert (await limited(store, server=4).lobby.start(lobby.id, ANA)).record.status == "running"


async def test_computer_seats_count_for_nobody(store: Store) -> None:
    service = limited(store, member=1, server=10)
    for channel in (1, 2):
        lobby = await service.lobby.open(GUILD, channel, 200 + channel, "classic")
        await service.lobby.add_computer(lobby.id, 200 + channel)
        assert (
            computer_seat(1) in (await service.lobby.start(lobby.id, 200 + channel)).record.players
        )


async def test_without_limits_nothing_is_read(store: Store) -> None:
    service = GameService(store, seeds=lambda: 4321)

    async def unexpected(guild_id: int) -> list[object]:
        raise AssertionError("read the games in play without a limit")

    store.games.in_play = unexpected  # type: ignore[method-assign]  # no read at all
    for channel in range(1, 8):
        lobby = await service.lobby.open(GUILD, channel, ANA, "classic")
        await service.lobby.join(lobby.id, BEN)
        await service.lobby.start(lobby.id, ANA)


@pytest.mark.parametrize(
    ("locale", "count", "words"),
    [
        ("pl", 1, "jesteś już w 1 grze"),
        ("pl", 2, "jesteś już w 2 grach"),
        ("pl", 5, "jesteś już w 5 grach"),
        ("de", 1, "schon in 1 Spiel,"),
        ("de", 5, "schon in 5 Spielen"),
        ("fr", 2, "déjà dans 2 parties"),
        ("pt-BR", 1, "já está em 1 jogo "),
        ("tr", 5, "zaten 5 oyunda varsın"),
    ],
)
async def test_refusals_speak_the_members_language(
    store: Store, locale: str, count: int, words: str
) -> None:
    service = limited(store, member=count, server=100)
    for channel in range(1, count + 1):
        await service.lobby.open(GUILD, channel, ANA, "classic")
    error = await refused(service.lobby.open(GUILD, 99, ANA, "classic"))
    with using(locale):
        assert words in error.text() and f"{count}" in error.text()
        assert "{" not in error.text()


async def test_server_refusal_in_polish_counts_in_the_right_case(store: Store) -> None:
    service = limited(store, member=9, server=5)
    for channel in range(1, 6):
        await service.lobby.open(GUILD, channel, 300 + channel, "classic")
    error = await refused(service.lobby.open(GUILD, 6, ANA, "classic"))
    with using("pl"):
        assert "Ten serwer ma już 5 otwartych gier" in error.text()


async def test_a_rematch_names_its_host_when_the_host_is_over_the_limit(store: Store) -> None:
    service = limited(store)
    old = await service.lobby.open(GUILD, 1, ANA, "classic")
    await service.lobby.join(old.id, BEN)
    await service.lobby.start(old.id, ANA)
    await service.turns.abandon(1, ANA, can_manage=False)
    for channel in (2, 3):
        await service.lobby.open(GUILD, channel, ANA, "classic")
    error = await refused(service.lobby.rematch(old.id, BEN))
    assert error.key == "error.limit_host"
    assert error.text().startswith(f"<@{ANA}>, who would host the rematch, is in 2 games")
    assert (await refused(service.lobby.rematch(old.id, ANA))).key == "error.limit_you"
    await service.lobby.cancel((await service.keeper.in_channel(3)).record.id, ANA)
    _, again = await service.lobby.rematch(old.id, BEN)
    assert again.host_id == ANA and again.players == [ANA, BEN]


async def test_a_game_others_seated_starts_whatever_its_players_limits(store: Store) -> None:
    """A game arranged for its players (a tournament's table) is not theirs to join or
    start: their other games do not hold it back, and whoever arranged it starts it."""
    service = limited(store, member=1)
    await service.lobby.open(GUILD, 1, ANA, "classic")  # Ana is at her limit
    seated = await service.lobby.open_seated(
        GUILD, 2, EVA, "classic", [ANA, BEN, computer_seat(1)], {"rules": {}, "fill_away": True}
    )
    assert seated.players == [ANA, BEN, computer_seat(1)] and seated.status == "lobby"
    started = await service.lobby.begin(seated.id, EVA)
    assert started.record.status == "running" and started.events[0].player == EVA
    assert started.game is not None and started.game.players == (ANA, BEN, computer_seat(1))
    assert (await refused(service.lobby.start(seated.id, EVA))).key == "error.already_started"
