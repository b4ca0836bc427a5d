"""A turn told in words, from the events the store kept: what the turn message says.

A turn message is derived from the stored game alone, so it can be rebuilt at any
time (after a restart, a failed post, a permission restored): the story of the
turn so far, then — while the turn is open — what it asks of whom, and by when.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from bot.channel.dice import dice_text
from bot.channel.names import mention as mention  # told from here too, as before
from bot.channel.names import mentions as mentions
from bot.channel.names import named, reader
from bot.channel.names import row_text as row_text
from bot.channel.ruled import NO_MARKS, Marks, chosen_beforehand, marked, ruled
from bot.durations import format_duration
from bot.i18n.words import inline, plural, row_name, signed, t
from bot.players import is_computer
from bot.records.games import StoredEvent
from bot.rules import PASS, Game
from bot.rules.qwinto import ROW_COLUMNS

# --- the story of a turn -------------------------------------------------
# Decisions made together are told on one line per action, in seat order.
ACTION_LINES = {"action1": "story.action1", "action2": "story.action2", "place": "story.place"}
NOBODY_LINES = {"action1": "story.nobody_crossed", "place": "story.nobody_wrote"}
"""The actions everyone decides in, told in one line when nobody had anything to do."""


def story(events: Sequence[StoredEvent], variant: str = "classic") -> list[str]:
    """What happened in one turn, in order: the roll, each action's results, the rest;
    each decision a rule made marked with the rule (:func:`ruled`)."""
    lines: list[str] = []
    actions: dict[str, list[StoredEvent]] = {}
    totals: dict[str, int] = {}  # each action's sum: the white dice's, or Qwinto's throw
    total = 0
    locks: dict[str, int] = {}
    marks, own = ruled(events)
    for index, event in enumerate(events):
        phase = event.data.get("phase", "place" if event.kind == "placed" else "")
        if event.kind in ("crossed", "passed", "placed") and phase in ACTION_LINES:
            if phase not in actions:
                actions[phase], totals[phase] = [], total
                lines.append(phase)  # a placeholder, filled below
            actions[phase].append(event)
        elif index in own:
            lines.append(own[index])
        else:
            total = thrown(event, total)
            lines += event_lines(event, lines, variant, locks, marks)
    return [
        action_line(line, actions[line], totals[line], marks) if line in actions else line
        for line in lines
    ]


def thrown(event: StoredEvent, total: int) -> int:
    """The sum the actions after ``event`` are about: the white dice's of a turn's
    throw, a Qwinto throw's (``total`` if ``event`` throws nothing)."""
    if event.kind == "turn" and "dice" in event.data:
        return sum(v for c, v in event.data["dice"].items() if c.startswith("white"))
    return int(event.data["total"]) if event.kind == "rolled" else total


def action_line(
    phase: str, events: Sequence[StoredEvent], total: int, marks: Marks = NO_MARKS
) -> str:
    """An action's decisions in seat order, each made by a rule marked so; said once when
    everyone had nothing to do."""
    if phase in NOBODY_LINES and len(events) > 1 and all(map(passed_for, events)):
        return t(NOBODY_LINES[phase], total=total)
    told = (marked(decision_text(e), marks.get((phase, e.player or 0))) for e in events)
    return t(ACTION_LINES[phase], what=" · ".join(told))


def decision_text(event: StoredEvent) -> str:
    """One player's decision: a cross or a number written, a pass where something else
    was open to them, or that nothing was."""
    who, data = event.player or 0, event.data
    if event.kind == "passed":
        place = data.get("phase") == "place"
        if passed_for(event):
            if place:
                return named("story.nowhere_to_write", who, number=data["total"])
            return named("story.nothing_to_cross", who)
        return named("story.wrote_nothing" if place else "story.passed", who)
    if event.kind == "placed":
        return named(
            "story.wrote",
            who,
            number=data["number"],
            row=row_text(data["row"]),
            position=field_position(data["row"], data["column"]),
        )
    key = "story.lucky" if data.get("via") == "lucky" else "story.crossed"
    return named(key, who, row=row_text(data["row"]), number=data["number"])


def field_position(row: str, column: int) -> int:
    """A Qwinto field's place in its row, 1 to 9 from the left (as its button says)."""
    return ROW_COLUMNS[row].index(column) + 1


def event_lines(
    event: StoredEvent,
    before: list[str],
    variant: str = "classic",
    locks: dict[str, int] | None = None,
    marks: Marks = NO_MARKS,
) -> list[str]:
    """Lines for one event that is not a decision of an action everyone decides in (a
    throw, a pawn's move made by a rule carries the rule's mark from ``marks``). A
    row's die leaving the game joins the line of the lock that closed the row:
    ``locks`` keeps, row by row, the place in ``before`` of its last lock line (the
    caller's, for one list of lines)."""
    mark = marks.get((decided_in(event), event.player or 0))
    lines = plain_lines(event, before, variant, {} if locks is None else locks)
    return [marked(line, mark) for line in lines]


UNNAMED_PHASES = {"placed": "place", "pawn_moved": "action3"}
"""The phase of the decisions whose events do not name it (a throw's depends on its
attempt)."""


def decided_in(event: StoredEvent) -> str:
    """The phase of the decision an event tells or is about ("" for none): a move's, a
    rule's (``auto``), a choice made ahead's."""
    if event.kind == "rolled":
        return "reroll" if event.data.get("attempt") else "roll"
    return UNNAMED_PHASES.get(event.kind) or str(event.data.get("phase", ""))


def plain_lines(
    event: StoredEvent, before: list[str], variant: str, locks: dict[str, int]
) -> list[str]:
    """:func:`event_lines` without the marks."""
    data, who, kind = event.data, mention(event.player or 0), event.kind
    if kind == "die_removed" and before:
        at = locks.get(data["row"], len(before) - 1)
        before[at] = f"{before[at]} — {t('event.die_removed', row=inline(row_name(data['row'])))}"
        return []
    if kind == "turn" and "dice" in data:
        white = sum(v for c, v in data["dice"].items() if c.startswith("white"))
        return [t("story.roll", dice=dice_text(data["dice"]), total=white)]
    if kind == "locked":
        locks[data["row"]] = len(before)
        return [t("event.locked", name=who, row=inline(row_name(data["row"])))]
    if kind == "penalty":
        return [t("event.penalty", name=who, **data)]
    if kind == "pawn_moved":
        return [
            named(
                "event.pawn_moved" if data["crosses"] else "event.pawn_moved_crossed",
                event.player or 0,
                steps=plural("unit.field", data["steps"]),
                position=data["to"],
                row=row_text(data["row"]),
                number=data["number"],
                bonus=data["bonus"],
            )
        ]
    if kind == "passed" and data.get("phase") == "action3":
        return [named("event.stayed", event.player or 0)]
    if kind == "expired":  # those the Hard computer decided for are told by its marks
        family = "qwinto" if variant == "qwinto" else "qwixx"
        late = [p for p in data["players"] if p not in data.get("hard", ())]
        if reader() in late:  # a letter tells its reader's own time running out
            return [t(f"event.expired.{family}.you")]
        return [t(f"event.expired.{family}", names=mentions(late))] if late else []
    if kind == "away":
        return [named(f"event.away.{data['reason']}", event.player or 0)]
    if kind in ("pace", "pace_asked"):
        return [pace_line(event)]
    if kind == "finish_reached":
        return [t("event.finish_reached", name=who)]
    if kind == "rolled":
        key = "event.rerolled" if data["attempt"] else "event.rolled"
        return [named(key, event.player or 0, dice=dice_text(data["dice"]), total=data["total"])]
    if kind == "failed_throw":
        return [t("event.failed_throw", name=who, **data)]
    if kind == "game_over":
        return [t(f"event.game_over.{data['reason']}")]
    return []


def dice_line(events: Sequence[StoredEvent]) -> str | None:
    """The line of a turn's dice (``🎲 ⚀ ⚀ … · white sum 9``), if its events tell them."""
    rolled = next((e for e in events if e.kind == "turn" and "dice" in e.data), None)
    return None if rolled is None else plain_lines(rolled, [], "classic", {})[0]


def scores_line(totals: dict[int, int]) -> str:
    """``Scores: @Zofia: 41 · 🤖 Computer 1: 33``, best first (mentions do not ping in
    edits); the colon keeps a seat's number apart from its score."""
    ranked = sorted(totals.items(), key=lambda item: -item[1])
    return t(
        "story.scores",
        scores=" · ".join(t("story.score", name=mention(p), total=signed(s)) for p, s in ranked),
    )


def stored_scores(events: Sequence[StoredEvent]) -> dict[int, int] | None:
    """The totals told at the end of a turn, if it ended."""
    told = [e for e in events if e.kind == "scores"]
    return {int(p): s for p, s in told[-1].data["totals"].items()} if told else None


# --- the turn message ----------------------------------------------------
LIMIT = 2000  # Discord's longest message
PREFACE_ROOM = 900
"""At most this much of a turn message tells the turns played before it without anyone
being asked, so that the turn's own story (at most about 1,000 characters with five
players) always fits beside them; older ones get a message of their own."""


def turn_message(
    game: Game,
    events: Mapping[int, Sequence[StoredEvent]],
    since: int,
    turn: int,
    deadline: float | None = None,
    away: Collection[int] = (),
    over: bool = False,
    opened: float | None = None,
) -> str:
    """The one text of the message of ``turn``, whether it is posted, edited or finished:
    the turns ``since`` … ``turn - 1`` that nobody was asked in (a line each), then the
    turn itself, open (what it asks of whom since ``opened``, by when) while it is the
    game's open turn (``over``: the game ended without finishing it, abandoned)."""
    preface = played_out_lines(game, events, range(since, turn))
    told = events.get(turn, [])
    if is_open(game, turn, over):
        return fit(preface, live_turn(game, told, deadline, away, opened))
    return fit(preface, finished_turn(game, turn, told))


def is_open(game: Game, turn: int, over: bool = False) -> bool:
    """Whether the message of ``turn`` tells an open turn (it asks, and counts down)."""
    return turn == game.turn and not game.finished and not over


def live_tail(
    game: Game, deadline: float | None, away: Collection[int] = (), opened: float | None = None
) -> int:
    """How many of an open turn's last lines come after what it asks
    (:func:`tail_lines`): a card shows the dice above them."""
    return len(tail_lines(game, deadline, away, opened))


def played_out_lines(
    game: Game, events: Mapping[int, Sequence[StoredEvent]], turns: Iterable[int]
) -> list[str]:
    """A line for each of ``turns`` (that has begun), played without asking anyone."""
    return [played_out(game, turn, events[turn]) for turn in turns if events.get(turn)]


def finished_turn(game: Game, turn: int, events: Sequence[StoredEvent]) -> str:
    """A turn that is over: its whole story, no call to action and no clock."""
    lines = [
        t("story.header_done", turn=turn, active=mention(active_in(game, turn))),
        *story(events, game.variant),
    ]
    totals = stored_scores(events)
    if totals is not None:
        lines.append(scores_line(totals))
    return "\n".join(lines)


def played_out(game: Game, turn: int, events: Sequence[StoredEvent]) -> str:
    """A turn nobody was asked in (it began and ended between two looks at the channel),
    told in one line that says why nobody was asked: what was done in it (a pass only
    where the player could have done something else), and the scores at its end if
    anything in it changed them."""
    told = story([e for e in events if e.kind != "scores" and not passed_for(e)], game.variant)
    totals = stored_scores(events)
    if totals is not None and any(e.kind in SCORING for e in events):
        told.append(scores_line(totals))
    return t(
        "turn.automatic",
        turn=turn,
        active=mention(active_in(game, turn)),
        why=why_unasked(events),
        what=" · ".join(told) or t("story.nothing_happened"),
    )


def passed_for(event: StoredEvent) -> bool:
    """A pass the rules made for a player who had nothing else to do."""
    return event.kind == "passed" and not event.data.get("had_move")


SCORING = ("crossed", "placed", "pawn_moved", "penalty", "failed_throw")
"""What changes a score."""
NOTABLE = (
    "locked",
    "die_removed",
    "penalty",
    "failed_throw",
    "away",
    "finish_reached",
    "game_over",
)
"""What a summary of many unseen turns keeps of them."""


def summary_lines(
    game: Game,
    events: Mapping[int, Sequence[StoredEvent]],
    turns: Sequence[int],
    outage: bool = False,
) -> list[str]:
    """Many turns the channel never showed, summed up: which they were and why they were
    not shown (``outage``: the channel could not be updated; else they were played out
    in one go, nobody being asked), then a line for each of them in which something
    lasting happened (a lock, a penalty, a failed throw, a seat gone, the end), and the
    scores at the end of the last."""
    first, last = turns[0], turns[-1]
    run = [e for turn in turns for e in events.get(turn, [])]
    lines = [
        t("turn.missed", first=first, last=last)
        if outage
        else t("turn.run", first=first, last=last, why=why_unasked(run))
    ]
    for turn in turns:
        told: list[str] = []
        locks: dict[str, int] = {}
        for event in events.get(turn, []):
            if event.kind in NOTABLE:
                told += event_lines(event, told, game.variant, locks)
        if told:
            lines.append(t("turn.missed_turn", turn=turn, what=" · ".join(told)))
    totals = stored_scores(events.get(last, []))
    lines.append(
        scores_line(
            totals if totals is not None else {p: s.total for p, s in game.scores().items()}
        )
    )
    return lines


DECISIONS = ("crossed", "placed", "rolled", "pawn_moved")


def why_unasked(events: Sequence[StoredEvent]) -> str:
    """Why turns needed nobody, from what was done in them: people who had a move were
    away (a computer played their seats, the game passed for them or its Hard computer
    decided as they chose for a time run out, or they are away until a day); or what
    they chose beforehand decided (a standing choice, a choice made ahead); or only the
    computers had a move (crossed, or passed when they could have crossed); or nobody
    had one."""
    moving = {
        e.player
        for e in events
        if e.player is not None and (e.kind in DECISIONS or e.data.get("had_move"))
    }
    chose = chosen_beforehand(events)
    people = {p for p in moving if not is_computer(p)}
    gone = sorted(people - chose)
    if gone:
        return t("turn.unasked.away", names=mentions(gone))
    if people:
        return t("turn.unasked.chosen")
    if moving:
        return t("turn.unasked.computers")
    return t("turn.unasked.nobody")


def decided_by_hand(events: Sequence[StoredEvent], away: Collection[int] = ()) -> bool:
    """Whether a person made a decision of these events themselves (no rule made it,
    and they were not ``away``): then somebody was asked, though the channel may not
    have shown it in time."""
    ruled_by = {(str(e.data.get("phase")), e.player) for e in events if e.kind in ("auto", "ahead")}
    return any(
        e.player is not None
        and not is_computer(e.player)
        and e.player not in away
        and (e.kind in DECISIONS or e.data.get("had_move"))
        and (decided_in(e), e.player) not in ruled_by
        for e in events
    )


def active_in(game: Game, turn: int) -> int:
    """Who was (or is) the active player of ``turn``."""
    return game.players[(turn - 1) % len(game.players)]


def fit(preface: Sequence[str], body: str, limit: int = LIMIT) -> str:
    """``preface`` lines above ``body``, a blank line between them (so a turn's own
    header stands out); the oldest are summed up if all would not fit (a last resort:
    prefaces are kept short by :func:`overflow`)."""
    lines = list(preface)
    while lines and len("\n".join([*lines, "", body])) > limit:
        dropped = len(preface) - len(lines) + 1
        lines = [t("turn.earlier", count=dropped), *lines[2:]] if len(lines) > 1 else []
    return "\n".join([*lines, "", body] if lines else [body])[:limit]


def overflow(lines: Sequence[str], room: int = PREFACE_ROOM) -> int:
    """How many of the oldest ``lines`` must go to messages of their own so that the rest
    fit in ``room`` characters."""
    size, keep = 0, 0
    for line in reversed(lines):
        size += len(line) + 1
        if size > room:
            break
        keep += 1
    return len(lines) - keep


def chunks(lines: Sequence[str], limit: int = LIMIT, between: str = "\n") -> list[str]:
    """``lines`` joined by ``between`` into as few messages as fit (a line longer than a
    message is cut)."""
    out: list[str] = []
    for line in lines:
        line = line[:limit]
        if out and len(out[-1]) + len(between) + len(line) <= limit:
            out[-1] += between + line
        else:
            out.append(line)
    return out


def live_turn(
    game: Game,
    events: Sequence[StoredEvent],
    deadline: float | None,
    away: Collection[int] = (),
    opened: float | None = None,
) -> str:
    """The open turn: its story so far, what it asks of whom, scores, and whom it waits
    for since ``opened`` (when the decision opened), by ``deadline``."""
    active = mention(game.active)
    lines = [t("story.header", turn=game.turn, active=active), *story(events, game.variant)]
    lines += call_lines(game)
    return "\n".join(lines + tail_lines(game, deadline, away, opened))


def tail_lines(
    game: Game, deadline: float | None, away: Collection[int] = (), opened: float | None = None
) -> list[str]:
    """An open turn's lines after what it asks: the final round, who decides, the
    scores, whom it waits for since when and by when."""
    lines = []
    final_turn = game.last_turn()
    if final_turn is not None:
        still = [active_in(game, turn) for turn in range(game.turn, final_turn + 1)]
        lines.append(t("turn.final_round", names=mentions(still)))
    waiting = deciders(game) if opened is not None else []
    status = status_line(game, away, named=waiting)
    lines += [status] if status else []
    lines.append(scores_line({p: s.total for p, s in game.scores().items()}))
    return lines + deadline_lines(deadline, waiting, opened)


def deadline_lines(
    deadline: float | None, waiting: Sequence[int] = (), opened: float | None = None
) -> list[str]:
    """``⏳ Waiting for @Ben — asked <t:…:R>, decide <t:…:R>``: whom the game waits for
    (``waiting``, those with a real choice) since the decision ``opened``, and by when;
    Discord shows the times in each reader's time, counting."""
    if waiting and opened is not None:
        names = mentions(waiting)
        if deadline is None:
            return [t("turn.waiting_open", names=names, since=int(opened))]
        return [t("turn.waiting", names=names, since=int(opened), deadline=int(deadline))]
    return [] if deadline is None else [t("turn.deadline", deadline=int(deadline))]


def call_lines(game: Game) -> list[str]:
    """What the open phase asks of whom, in words."""
    phase, active = game.decision().phase, mention(game.active)
    if phase == "action1":
        return [t("turn.white_sum", total=game.dice_total(), active=active)]
    if phase in ("action2", "action3", "roll"):
        return [t(f"turn.{phase}", active=active)]
    dice = game.dice_on_table()
    rows = (
        t(
            "list.or",
            first=", ".join(row_text(r) for r in list(dice)[:-1]),
            last=row_text(list(dice)[-1]),
        )
        if len(dice) > 1
        else row_text(next(iter(dice)))
    )
    return [
        t(f"turn.{phase}", active=active, dice=dice_text(dice), total=game.dice_total(), rows=rows)
    ]


def status_line(game: Game, away: Collection[int] = (), named: Collection[int] = ()) -> str:
    """Who is still deciding, who has decided, and who has nothing to decide; players
    who are away (or left) are none of these; those ``named`` by the line that says
    whom the game waits for are not named again."""
    decision = game.decision()
    everyone = decision.phase in game.simultaneous_phases
    waiting = [p for p in game.players if p in decision.waiting and p not in named]
    done = [p for p in game.players if everyone and p not in decision.waiting and p not in away]
    idle = [p for p in done if game.legal_moves(p) in ([PASS], [])]
    parts = [t("status.deciding", names=mentions(waiting))] if waiting else []
    if [p for p in done if p not in idle]:
        parts.append(t("status.decided", names=mentions(p for p in done if p not in idle)))
    if idle:
        parts.append(t("status.nothing", names=mentions(idle)))
    return " · ".join(parts)


def deciders(game: Game) -> list[int]:
    """The players a decision of theirs is open for now (those with a real choice)."""
    return [
        p
        for p in game.players
        if p in game.decision().waiting and game.legal_moves(p) not in ([PASS], [])
    ]


def pace_line(event: StoredEvent) -> str:
    """The game asked to be played live, or turned live or slow (see
    :mod:`bot.service.pace`)."""
    data = event.data
    turn_time = format_duration(int(data["turn_time"]))
    if event.kind == "pace_asked":
        return t("event.pace_asked", names=mentions(data["asked"]), turn_time=turn_time)
    return t(f"event.pace.{data['to']}", name=mention(event.player or 0), turn_time=turn_time)
