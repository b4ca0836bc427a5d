"""What the store keeps about a person or a server, and how it lets go of it (schema
version 11).

* :meth:`PrivacyRepository.personal_data` — everything kept about one member, per server:
  their display name, the games they sat in, their results and totals, their ratings,
  accuracies and daily challenges.
* :meth:`PrivacyRepository.forget` — ``/qwixx forget-me``: their names and their
  accuracies (schema version 12) go, and their id is replaced, in one transaction, by
  one fresh anonymous id everywhere it is kept (seats, move logs, events, states,
  results, totals, ratings, the channel's memory), so every game stays whole for the
  others: a replay still reproduces the stored state, the others' sums and ratings are
  untouched. A member still seated (not away) in a lobby or a running game is refused
  (:class:`StillPlaying`): they leave first.
* :meth:`PrivacyRepository.mark_departed` and :meth:`PrivacyRepository.delete_departed`
  — the bot was removed from a server: the server's rows go once the grace period is
  over, unless the bot came back (:meth:`PrivacyRepository.unmark`).

Anonymous ids are positive (a person's seat, never a computer's, whose ids are
negative) and below ``2**22``: as a Discord snowflake such an id would have been made
in the first millisecond of 2015, before Discord had users, so it can never be one.
They come from :data:`ANONYMOUS_FLOOR` on, one per forgotten person, counted in the
``anonymous_ids`` table (which holds only the count).

The tables and columns are found by reading the schema, not listed here, so a table
added later is covered too: an integer column named ``player``, ``host_id``,
``…player_id`` or ``…user_id`` holds a person; a text column may hold one inside JSON
(the keys of a state's sheets, lists of seats, mentions). Rows of games are reached
through the person's games only (``game_id``), so the big logs are never scanned.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from bot.records.errors import StillPlaying
from bot.records.members import Forgotten, ServerData

from .engine import Engine, Row, Tx
from .names import NameRepository
from .records import dump_json, load_json
from .settings import SettingsRepository

ANONYMOUS_FLOOR: Final = 1 << 21
"""The first anonymous id; they stay below :data:`ANONYMOUS_CEILING`."""
ANONYMOUS_CEILING: Final = 1 << 22

PRIVACY_TABLES: Final = (
    # One row per forgotten person, the anonymous id's number (and nothing else).
    "CREATE TABLE anonymous_ids (id BIGINT PRIMARY KEY)",
    # Servers the bot was removed from, and when: deleted after the grace period.
    """
    CREATE TABLE departed_guilds (
        guild_id BIGINT PRIMARY KEY,
        left_at  DOUBLE PRECISION NOT NULL
    )
    """,
)
_KEPT_APART: Final = frozenset({"schema_version", "anonymous_ids", "departed_guilds"})
_PEOPLE: Final = re.compile(r"(player|host_id|.*player_id|.*user_id)")
_CHUNK: Final = 500


def is_anonymous(player: int) -> bool:
    """Whether ``player`` is the id a forgotten person's seats now carry."""
    return ANONYMOUS_FLOOR <= player < ANONYMOUS_CEILING


# -- the schema, read ---------------------------------------------------------------


async def schema(tx: Tx, postgres: bool) -> dict[str, list[tuple[str, str]]]:
    """Every table of the store with its columns: ``(name, "int" | "text" | "other")``."""
    tables: dict[str, list[tuple[str, str]]] = {}
    if postgres:
        rows = await tx.fetch(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position",
        )
        for table, column, kind in rows:
            tables.setdefault(str(table), []).append((str(column), _kind(str(kind))))
        return tables
    names = [
        str(r[0])
        for r in await tx.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' "
            "ESCAPE '!' ORDER BY name"
        )
    ]
    for table in names:
        tables[table] = [
            (str(r[1]), _kind(str(r[2]))) for r in await tx.fetch(f'PRAGMA table_info("{table}")')
        ]
    return tables


def _kind(declared: str) -> str:
    declared = declared.upper()
    if "INT" in declared:
        return "int"
    if "TEXT" in declared or "CHAR" in declared:
        return "text"
    return "other"


def _chunks(ids: Sequence[int]) -> Iterable[tuple[str, Sequence[int]]]:
    for start in range(0, len(ids), _CHUNK):
        part = ids[start : start + _CHUNK]
        yield ", ".join("?" for _ in part), part


# -- a person's games ---------------------------------------------------------------


def _seated(players: str, user_id: int) -> bool:
    return user_id in load_json(players)


async def games_of(tx: Tx, user_id: int) -> list[Row]:
    """``(id, guild_id, channel_id, status, presence)`` of every game ``user_id`` sat in
    or hosted."""
    rows = await tx.fetch(
        "SELECT id, guild_id, channel_id, status, presence, players, host_id FROM games "
        "WHERE players LIKE ? OR host_id = ? ORDER BY id",
        (f"%{user_id}%", user_id),
    )
    return [r[:5] for r in rows if int(r[6]) == user_id or _seated(str(r[5]), user_id)]


def still_playing(games: Iterable[Row], user_id: int) -> list[tuple[int, int, int]]:
    """Of ``games``, the lobbies and the running games in which ``user_id`` still plays
    (is not away): ``(guild_id, channel_id, game_id)``. A game in no channel (a negative
    id: a daily attempt, a practice game) is the member's alone and left nowhere: it is
    forgotten with them, its seat anonymous like every other."""
    found = []
    for game_id, guild_id, channel_id, status, presence in games:
        if int(channel_id) < 0:
            continue
        away = load_json(presence or "{}").get("away", [])
        if status == "lobby" or (status == "running" and user_id not in away):
            found.append((int(guild_id), int(channel_id), int(game_id)))
    return found


# -- replacing an id ----------------------------------------------------------------


def replaced(value: Any, old: int, new: int) -> Any:
    """``value`` (decoded JSON) with the person ``old`` made ``new``: integers, keys,
    and the id inside strings (a mention ``<@old>``)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return new if value == old else value
    if isinstance(value, str):
        return _digits(old).sub(str(new), value)
    if isinstance(value, list):
        return [replaced(item, old, new) for item in value]
    if isinstance(value, dict):
        return {
            (str(new) if key == str(old) else _digits(old).sub(str(new), key)): replaced(
                item, old, new
            )
            for key, item in value.items()
        }
    return value


def _digits(user_id: int) -> re.Pattern[str]:
    return re.compile(rf"(?<![0-9]){user_id}(?![0-9])")


def replaced_text(text: str, old: int, new: int) -> str:
    """A stored text with ``old`` made ``new``: JSON re-encoded, anything else as text."""
    try:
        decoded = load_json(text)
    except ValueError:
        return _digits(old).sub(str(new), text)
    if not isinstance(decoded, (dict, list)):
        return _digits(old).sub(str(new), text)
    return dump_json(replaced(decoded, old, new))


async def _replace_in_table(
    tx: Tx,
    table: str,
    columns: list[tuple[str, str]],
    game_ids: Sequence[int],
    old: int,
    new: int,
) -> int:
    """Replace ``old`` by ``new`` in ``table`` (only in rows of ``game_ids`` if it has a
    ``game_id`` or is ``games``); the rows' changes counted."""
    names = {name for name, _ in columns}
    key = "id" if table == "games" else "game_id" if "game_id" in names else None
    scopes: list[tuple[str, Sequence[int]]] = [("", ())]
    if key is not None:
        scopes = [(f" AND {key} IN ({marks})", part) for marks, part in _chunks(game_ids)]
    changed = 0
    for name, kind in columns:
        for where, part in scopes:
            if kind == "int" and _PEOPLE.fullmatch(name):
                changed += await tx.execute(
                    f'UPDATE "{table}" SET "{name}" = ? WHERE "{name}" = ?{where}',
                    (new, old, *part),
                )
            elif kind == "text":
                found = await tx.fetch(
                    f'SELECT DISTINCT "{name}" FROM "{table}" WHERE "{name}" LIKE ?{where}',
                    (f"%{old}%", *part),
                )
                for (text,) in found:
                    changed += await tx.execute(
                        f'UPDATE "{table}" SET "{name}" = ? WHERE "{name}" = ?{where}',
                        (replaced_text(str(text), old, new), text, *part),
                    )
    return changed


async def forget(tx: Tx, user_id: int, postgres: bool) -> Forgotten:
    """``user_id``'s names removed and the person replaced by a fresh anonymous id, in
    the caller's transaction. Raises :class:`StillPlaying` first, changing nothing."""
    games = await games_of(tx, user_id)
    playing = still_playing(games, user_id)
    if playing:
        raise StillPlaying(playing)
    counted = await tx.fetch(
        "INSERT INTO anonymous_ids (id) SELECT COALESCE(MAX(id), 0) + 1 FROM anonymous_ids "
        "RETURNING id"
    )
    new = ANONYMOUS_FLOOR + int(counted[0][0])
    if new >= ANONYMOUS_CEILING:
        raise OverflowError("no anonymous ids left")
    names = await tx.execute("DELETE FROM player_names WHERE user_id = ?", (user_id,))
    game_ids = [int(g[0]) for g in games]
    rows: dict[str, int] = {}
    # Their accuracies go (nothing of the others' rests on them); a review asked for
    # again works them out afresh from the move log, under the anonymous id.
    if accuracies := await tx.execute("DELETE FROM accuracies WHERE player_id = ?", (user_id,)):
        rows["accuracies"] = accuracies
    for table, columns in (await schema(tx, postgres)).items():
        if table in _KEPT_APART:
            continue
        changed = await _replace_in_table(tx, table, columns, game_ids, user_id, new)
        if changed:
            rows[table] = changed
    # A running game (where they are away) is changed under its players' clicks: its
    # version moves on, so a click decided on the old record is retried on the new.
    running = [int(g[0]) for g in games if g[3] == "running"]
    for marks, part in _chunks(running):
        await tx.execute(
            "UPDATE games SET shown_version = CASE WHEN shown_version = version "
            f"THEN version + 1 ELSE shown_version END, version = version + 1 WHERE id IN ({marks})",
            part,
        )
    return Forgotten(new, names, len(games), rows)


# -- a server's data ----------------------------------------------------------------


async def delete_guild(tx: Tx, guild_id: int, postgres: bool) -> dict[str, int]:
    """Every row of ``guild_id`` in every table (its games' logs first, its games last);
    the rows deleted per table."""
    tables = {
        table: {name for name, _ in columns}
        for table, columns in (await schema(tx, postgres)).items()
        if table not in {"schema_version", "anonymous_ids"}
    }
    games = "SELECT id FROM games WHERE guild_id = ?"
    steps = [
        (t, f"game_id IN ({games})")
        for t, cols in tables.items()
        if "game_id" in cols and "guild_id" not in cols
    ]
    steps += [
        (t, "guild_id = ?")
        for t, cols in tables.items()
        if "guild_id" in cols and t not in {"matches", "games"}
    ]
    steps += [(t, "guild_id = ?") for t in ("matches", "games") if t in tables]
    deleted: dict[str, int] = {}
    for table, where in steps:
        count = await tx.execute(f'DELETE FROM "{table}" WHERE {where}', (guild_id,))
        if count:
            deleted[table] = deleted.get(table, 0) + count
    return deleted


class PrivacyRepository:
    """Members' and servers' data in one store (``store.privacy``); forgetting lets go
    of what ``names`` and ``settings`` keep in memory too."""

    def __init__(self, engine: Engine, names: NameRepository, settings: SettingsRepository) -> None:
        self._engine = engine
        self._names = names
        self._settings = settings

    async def personal_data(self, user_id: int) -> list[ServerData]:
        """Everything kept about ``user_id``, per server (servers in id order)."""
        servers: dict[int, dict[str, Any]] = {}

        def server(guild_id: Any) -> dict[str, Any]:
            return servers.setdefault(int(guild_id), {})

        for guild_id, name in await self._engine.fetch(
            "SELECT guild_id, name FROM player_names WHERE user_id = ?", (user_id,)
        ):
            server(guild_id)["name"] = str(name)
        games = await self._engine.fetch(
            "SELECT guild_id, players, host_id FROM games WHERE players LIKE ? OR host_id = ?",
            (f"%{user_id}%", user_id),
        )
        for guild_id, players, host_id in games:
            if int(host_id) == user_id or _seated(str(players), user_id):
                entry = server(guild_id)
                entry["games"] = entry.get("games", 0) + 1
        for guild_id, count, counted, first, last in await self._engine.fetch(
            "SELECT guild_id, COUNT(*), SUM(counted), MIN(finished_at), MAX(finished_at) "
            "FROM results WHERE player_id = ? GROUP BY guild_id",
            (user_id,),
        ):
            server(guild_id).update(
                results=int(count), counted=int(counted or 0), first=float(first), last=float(last)
            )
        for guild_id, variants in await self._engine.fetch(
            "SELECT guild_id, COUNT(*) FROM player_totals WHERE player_id = ? GROUP BY guild_id",
            (user_id,),
        ):
            server(guild_id)["variants"] = int(variants)
        for guild_id, accuracies in await self._engine.fetch(
            "SELECT guild_id, COUNT(*) FROM accuracies WHERE player_id = ? GROUP BY guild_id",
            (user_id,),
        ):
            server(guild_id)["accuracies"] = int(accuracies)
        for guild_id, daily in await self._engine.fetch(
            "SELECT guild_id, COUNT(*) FROM daily_attempts WHERE user_id = ? GROUP BY guild_id",
            (user_id,),
        ):
            server(guild_id)["daily"] = int(daily)
        for guild_id, entered in await self._engine.fetch(
            "SELECT guild_id, COUNT(*) FROM tournament_entrants WHERE user_id = ? "
            "GROUP BY guild_id",
            (user_id,),
        ):
            server(guild_id)["tournaments"] = int(entered)
        for guild_id, organised in await self._engine.fetch(
            "SELECT guild_id, COUNT(*) FROM tournaments WHERE host_id = ? GROUP BY guild_id",
            (user_id,),
        ):
            server(guild_id)["organised"] = int(organised)
        for guild_id, variant, rated in await self._engine.fetch(
            "SELECT guild_id, variant, games FROM ratings WHERE player_id = ? ORDER BY variant",
            (user_id,),
        ):
            entry = server(guild_id)
            entry["ratings"] = (*entry.get("ratings", ()), (str(variant), int(rated)))
        return [ServerData(guild_id, **values) for guild_id, values in sorted(servers.items())]

    async def forget(self, user_id: int) -> Forgotten:
        """``/qwixx forget-me``: see :func:`forget` (raises :class:`StillPlaying`)."""
        postgres = self._engine.backend == "postgresql"
        done = await self._engine.transact(lambda tx: forget(tx, user_id, postgres))
        self._names.forget(user_id=user_id)
        return done

    async def mark_departed(self, guild_id: int, when: float) -> None:
        """The bot was removed from ``guild_id`` at ``when`` (an earlier mark stays)."""
        await self._engine.transact(
            lambda tx: tx.execute(
                "INSERT INTO departed_guilds (guild_id, left_at) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, when),
            )
        )

    async def unmark(self, guild_id: int) -> bool:
        """The bot is back in ``guild_id``: its data stays. Whether it was marked."""
        return bool(
            await self._engine.transact(
                lambda tx: tx.execute("DELETE FROM departed_guilds WHERE guild_id = ?", (guild_id,))
            )
        )

    async def departed(self, before: float) -> list[int]:
        """The servers the bot left before ``before``, longest gone first."""
        rows = await self._engine.fetch(
            "SELECT guild_id FROM departed_guilds WHERE left_at < ? ORDER BY left_at, guild_id",
            (before,),
        )
        return [int(r[0]) for r in rows]

    async def delete_departed(self, guild_id: int, before: float) -> dict[str, int] | None:
        """Delete every row of ``guild_id`` if the bot left it before ``before`` and has
        not come back (checked in the same transaction); the rows deleted per table, or
        None if it was not due."""
        postgres = self._engine.backend == "postgresql"

        async def work(tx: Tx) -> dict[str, int] | None:
            due = await tx.fetch(
                "SELECT 1 FROM departed_guilds WHERE guild_id = ? AND left_at < ?",
                (guild_id, before),
            )
            if not due:
                return None
            deleted = await delete_guild(tx, guild_id, postgres)
            deleted.setdefault("departed_guilds", 1)
            return deleted

        deleted = await self._engine.transact(work)
        if deleted is not None:
            self._names.forget(guild_id=guild_id)
            self._settings.forget(guild_id)
        return deleted
