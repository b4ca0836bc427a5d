"""The store's former method names, each passing the call to its repository, while the
callers move to ``store.<repository>.<method>`` (to be removed then). ``store.names(…)``
and ``store.ratings(…)`` are the repositories' ``__call__`` meanwhile."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from bot.records import (
    RUNNING,
    GameChange,
    GameNotFound,
    GameRecord,
    GameResults,
    VersionConflict,
    WrongStatus,
)

from .records import changed

if TYPE_CHECKING:
    from .daily import DailyRepository
    from .engine import Engine, Row, Work
    from .games import GameRepository
    from .maintenance import Maintenance
    from .names import NameRepository
    from .privacy import PrivacyRepository
    from .ratings import RatingRepository
    from .reviews import ReviewRepository
    from .settings import SettingsRepository
    from .stats import StatsRepository

T = TypeVar("T")


def _forward(repository: str, method: str) -> Any:
    async def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        return await getattr(getattr(self, repository), method)(*args, **kwargs)

    call.__name__ = method
    return call


class Bridge:
    if TYPE_CHECKING:
        engine: Engine
        games: GameRepository
        settings: SettingsRepository
        names: NameRepository
        stats: StatsRepository
        reviews: ReviewRepository
        ratings: RatingRepository
        daily: DailyRepository
        privacy: PrivacyRepository
        maintenance: Maintenance

    get_game = _forward("games", "get")
    game_in_channel = _forward("games", "in_channel")
    games_for_channel = _forward("games", "of_channel")
    active_games = _forward("games", "active")
    running_games = _forward("games", "running")
    due_games = _forward("games", "due")
    games_in_play = _forward("games", "in_play")
    moves = _forward("games", "moves")
    events = _forward("games", "events")
    create_game = _forward("games", "create")
    update_lobby = _forward("games", "set_players")
    update_lobby_seats = _forward("games", "set_players")
    start_game = _forward("games", "start")
    set_timing = _forward("games", "set_timing")
    abandon = _forward("games", "abandon")
    set_message = _forward("games", "set_message")
    lagging_games = _forward("games", "lagging")
    mark_behind = _forward("games", "mark_behind")
    mark_left_behind = _forward("games", "mark_left_behind")
    guild_turn_time = _forward("settings", "turn_time")
    set_guild_turn_time = _forward("settings", "set_turn_time")
    guild_language = _forward("settings", "language")
    set_guild_language = _forward("settings", "set_language")
    remember_name = _forward("names", "remember")
    rebuild_player_totals = _forward("stats", "rebuild_totals")
    finished_without_results = _forward("stats", "finished_without_results")
    add_results = _forward("stats", "add_results")
    leaderboard_totals = _forward("stats", "leaderboard")
    player_totals = _forward("stats", "player_totals")
    recent_scores = _forward("stats", "recent_scores")
    history = _forward("stats", "history")
    practice_best = _forward("stats", "practice_best")
    practice_bests = _forward("stats", "practice_bests")
    uncounted_bests = _forward("stats", "uncounted_bests")
    unreviewed_games = _forward("reviews", "unreviewed")
    add_review = _forward("reviews", "add")
    reviewed = _forward("reviews", "of")
    average_accuracies = _forward("reviews", "averages")
    unrated_games = _forward("ratings", "unrated")
    count_unrated = _forward("ratings", "count_unrated")
    unrated_up_to = _forward("ratings", "unrated_up_to")
    rate_games = _forward("ratings", "rate")
    rating_changes = _forward("ratings", "changes")
    is_rated = _forward("ratings", "is_rated")
    rated_variants = _forward("ratings", "variants")
    player_ratings = _forward("ratings", "of_player")
    daily_secret = _forward("daily", "secret")
    attempt = _forward("daily", "attempt")
    attempt_of_game = _forward("daily", "attempt_of_game")
    add_attempt = _forward("daily", "add_attempt")
    finish_attempt = _forward("daily", "finish_attempt")
    server_ranking = _forward("daily", "ranking")
    standing = _forward("daily", "standing")
    finished_days = _forward("daily", "finished_days")
    par = _forward("daily", "par")
    set_par = _forward("daily", "set_par")
    daily_settings = _forward("daily", "settings")
    set_daily_settings = _forward("daily", "set_settings")
    daily_post = _forward("daily", "post")
    set_daily_post = _forward("daily", "set_post")
    owed_daily_posts = _forward("daily", "owed_posts")
    personal_data = _forward("privacy", "personal_data")
    forget_person = _forward("privacy", "forget")
    mark_guild_departed = _forward("privacy", "mark_departed")
    unmark_guild = _forward("privacy", "unmark")
    departed_guilds = _forward("privacy", "departed")
    delete_departed_guild = _forward("privacy", "delete_departed")

    @property
    def _engine(self) -> Engine:
        return self.engine

    async def _transact(self, work: Work[T]) -> T:
        return await self.engine.transact(work)

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self.engine.fetch(sql, params)

    def _conn(self) -> Engine:
        return self.engine

    async def _running(self, game_id: int, expected_version: int) -> GameRecord:
        record = await self.games.get(game_id)
        if record is None:
            raise GameNotFound(game_id)
        if record.version != expected_version:
            raise VersionConflict(game_id, expected_version, record.version)
        if record.status != RUNNING:
            raise WrongStatus(game_id, record.status, (RUNNING,))
        return record

    async def record_change(
        self, game_id: int, expected_version: int, change: GameChange
    ) -> GameRecord:
        record = await self._running(game_id, expected_version)
        return (await self.games.change(record, change)).record

    async def record_moves(
        self,
        game_id: int,
        expected_version: int,
        moves: Sequence[tuple[int, dict[str, Any], str]],
        state: dict[str, Any],
        status: str = RUNNING,
        results: GameResults | None = None,
        **rest: Any,
    ) -> GameRecord:
        change = GameChange(moves, state, status, results, **rest)
        return await self.record_change(game_id, expected_version, change)

    async def record_move(
        self,
        game_id: int,
        expected_version: int,
        player_id: int,
        move: dict[str, Any],
        state: dict[str, Any],
        status: str = RUNNING,
        results: GameResults | None = None,
    ) -> GameRecord:
        return await self.record_moves(
            game_id, expected_version, [(player_id, move, "player")], state, status, results
        )

    async def change_game(
        self, game_id: int, decide: Callable[[GameRecord], tuple[GameChange | None, T]]
    ) -> tuple[GameRecord, T]:
        for _ in range(5):
            record = await self.games.get(game_id)
            if record is None:
                raise GameNotFound(game_id)
            change, value = decide(record)
            if change is None:
                return record, value
            try:
                return (await self.games.change(record, change)).record, value
            except VersionConflict:
                continue
        raise VersionConflict(game_id, -1, -1)

    async def set_shown(
        self, game_id: int, version: int, message_id: int | None, shown: dict[str, Any]
    ) -> None:
        record = await self.games.get(game_id)
        if record is not None:
            await self.games.set_shown(changed(record, {"version": version}), message_id, shown)
