"""What a table on the server is, rebuilt from its log: the pure, synchronous part of a room.

A :class:`RoomState` is made from a :class:`~pitchcards.server.store.StoredTable` (settings,
players, the log) by replaying the log from the table's secret seed through the engine's
:class:`~pitchcards.table.Table` — after a restart, after a database refusal, or to read a
finished table's whole record (tests/leak_check.py).  It applies one log entry at a time
(:meth:`RoomState.apply`: an illegal entry raises the engine's error and changes nothing) and
answers what the table is: its status, the money requests pending for the next break, who paid
whom, the score sheet's events, who may act or chat.  No asyncio, no sockets, no storage: the
room's writer (server/room.py) stores each entry and sends its events; its driver
(server/room_driver.py) decides what the table does by itself.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any, cast

from ..actions import Action, parse_action
from ..errors import InvalidActionError, OptionError, shown
from ..events import Event
from ..money import MoneySession
from ..notation import write_record
from ..play_stats import Stats
from ..rules import RuleSet, find_variant
from ..session_kinds import new_session
from ..settlement import Cashbook, Leave, Payment
from ..table import Table
from ..tournament.boards import Board, board_cards
from .protocol import (
    Act,
    CreateTable,
    LeaveInfo,
    PaymentInfo,
    Payments,
    PaymentsPreview,
    RulesQuery,
)
from .ranked import Forfeits
from .refused import Refused
from .seats import Player
from .store import StoredTable

__all__ = ["KEEP_ALL", "MAX_TARGET", "RESULTS_KEPT", "RESULT_EVENTS", "SLOW_LEVELS",
           "RoomState", "bot_heavy", "parse_act", "record_of_log", "table_rules"]

#: Bot levels that think long enough to be run on a worker thread, off the event loop.
SLOW_LEVELS = frozenset({"hard", "expert"})
#: The highest ``target`` a server table plays to: a stranger's table ends (issue 31,
#: finding 1; the engine itself takes any positive target; the usual ones are 7 to 52,
#: docs/rules.md).
MAX_TARGET = 500
#: The events a score sheet is made of (GET /api/tables/{id}/results): public, and small
#: without their views.
RESULT_EVENTS = frozenset({"hand_scored", "match_won", "player_joined", "player_left",
                           "settled"})
#: The score sheet's events a room keeps (the newest; a money table may run for ever).
RESULTS_KEPT = 2000
#: ``keep_events`` that forgets nothing: a replay of the whole log for its record.
KEEP_ALL = 2 ** 62


def bot_heavy(config: CreateTable) -> bool:
    """Whether a table's bots think long (``hard``, ``expert``: seconds of CPU a hand, on a
    worker thread that holds the GIL): its bots, the ones that fill its empty seats, or the
    stand-ins of its absent players."""
    return bool(SLOW_LEVELS & {*config.bots.values(), config.fill, config.settings.stand_in})


def table_rules(config: CreateTable | RulesQuery) -> tuple[RuleSet, int]:
    """The rules and table size a :class:`CreateTable` (or a :class:`RulesQuery`) asks for,
    checked by the engine (``OptionError`` / ``IllegalActionError`` name what is wrong)."""
    rules = find_variant(config.variant)
    if config.options:
        rules = rules.replace(**config.options)
    if rules.target is not None and rules.target > MAX_TARGET:
        raise OptionError(f"option target={rules.target}: a table on this server plays to at "
                          f"most {MAX_TARGET} points (1..{MAX_TARGET}, or a money table)")
    players = rules.check_players(config.players if config.players is not None
                                  else rules.default_players)
    return rules, players


def parse_act(msg: Act) -> list[Action]:
    """The actions an ``act`` message asks for, parsed once: its action, or with ``cards`` a
    seat's whole discard (T4), one ``discard`` action a card."""
    if msg.cards is None:
        return [parse_action(msg.action)]
    if msg.action != "discard":
        raise InvalidActionError(f"cards {shown(msg.cards)} go with the action 'discard' (a "
                                 f"ten-point seat's discard, T4), not with {shown(msg.action)}")
    return [parse_action(f"discard {card}") for card in msg.cards]


class RoomState:
    """A table as its log makes it: settings, players, the engine, status, money requests.

    ``keep_events``: the room's ``replay_limit`` (at most twice that many events stay in
    memory, :meth:`forget`).  ``players``: the players of the state this one replaces (a
    rebuild keeps their sockets and presence)."""

    def __init__(self, stored: StoredTable, keep_events: int,
                 players: Mapping[str, Player] | None = None) -> None:
        self.id = stored.id
        self.keep_events = keep_events
        config = dict(stored.config)
        #: a tournament's table (server/tournaments.py): the tournament's id and the boards it
        #: deals, in order (issue 34).  Only the tournament writes these keys; POST /api/tables
        #: cannot (CreateTable forbids unknown fields), so no other table deals chosen cards.
        self.tournament: str | None = config.pop("tournament", None)
        self.boards: tuple[Board, ...] | None = _boards(config.pop("boards", None))
        #: a progressive round's table told to stop (its head table finished the round): no
        #: board is dealt after the hand in play (docs/tournaments.md, "Progressive Pitch")
        self.stopped = False
        self.config = CreateTable.model_validate(config)
        self.settings = self.config.settings
        self.rules, self.size = table_rules(self.config)
        self.money = self.rules.money != "none"
        self.seed = stored.seed
        self.listed = stored.listed
        self.rematch_id = stored.rematch
        #: the finished table this one is the rematch of (its link back)
        self.rematch_of = stored.rematch_of
        old = players or {}
        self.players: dict[str, Player] = {}
        for row in stored.players:
            player = Player(row)
            if row.name in old:  # keep sockets and presence across a rebuild
                player.conns, player.away = old[row.name].conns, old[row.name].away
            self.players[row.name] = player
        self.table: Table | None = None
        self.status = "waiting"
        #: the events not sent yet (the writer sends them after storing their entry)
        self.new: list[Event] = []
        #: money joins, leaves and settles asked for during a hand: applied at the next break
        self.pending: list[dict[str, Any]] = []
        #: the seqs of actions a stand-in played because the turn timer ran out
        self.timed_out: set[int] = set()
        #: a ranked match's forfeits and claimed win (server/ranked.py)
        self.forfeits = Forfeits()
        #: the actions a stand-in bot took for a person (away, left, or out of time), by
        #: (hand index, action index in its history) -> why: marked in the record (issue 32)
        self.stand_ins: dict[tuple[int, int], str] = {}
        #: a money table's statistics per player, counted as each hand is scored: the
        #: ranked settlement adds them (server/ranked.py), and the session forgets its older
        #: hands (review F6)
        self.money_stats: dict[str, Stats] = {}
        #: who paid whom as players left (money tables; the scorekeeper's own book)
        self.cashbook = Cashbook()
        #: the score sheet's events, public and without views, kept as they happen (bounded):
        #: GET .../results answers from them without walking the history (finding 7)
        self.results: deque[dict[str, Any]] = deque(maxlen=RESULTS_KEPT)
        #: the table's seq at which its older events are next dropped from memory
        self._forget_at = 2 * keep_events
        for entry in stored.entries:
            self.apply(entry)
            self.new.clear()  # a replay sends nothing: its events are not kept to send
            self.forget()  # and a long money table's replay stays bounded
        #: the log entries applied (the next one stored is ``version + 1``)
        self.version = len(stored.entries)
        self.new.clear()
        self.forget()

    @property
    def seq(self) -> int:
        """The table's event seq now (0 before the start)."""
        return self.table.seq if self.table is not None else 0

    def apply(self, entry: dict[str, Any], parsed: Sequence[Action] = ()) -> str | None:
        """Apply one log entry to the engine (live or replaying); returns an act's action in
        the engine's words.  ``parsed``: a live act's actions, already parsed (an action is
        parsed once).  Raises the engine's errors, having changed nothing."""
        op = entry["op"]
        if op == "start":
            self._start_engine(entry["names"])
            return None
        if op == "pending":
            # A money join, leave or settle asked for during a hand, answered "pending": in the
            # log with the request, so a restart applies it at the break as it would have been
            # (A-R8.3: joins and leaves happen between hands; issue 31, finding 3).
            self.pending.append(entry["entry"])
            return None
        table = self.table
        if table is None:
            raise Refused("not_started", "the host has not started the match yet")
        done: str | None = None
        if op == "deal" and self.boards is not None:  # a tournament's next board
            table.deal(board_cards(self.rules, self.boards[len(table.session.hands)],
                                   self.size))
        elif op == "deal":
            table.deal()
        elif op == "act" and "actions" in entry:  # a seat's whole discard (T4): all or none
            marked = self._stand_in_at(table, entry)
            table.push_all(parsed or [parse_action(text) for text in entry["actions"]],
                           entry["seat"])
            self._mark_stand_in(table, marked, entry)
        elif op == "act":
            action = parsed[0] if parsed else parse_action(entry["action"])
            if entry.get("timeout"):  # the action_taken is the change's first event
                self.timed_out.add(table.seq + 1)
            marked = self._stand_in_at(table, entry)
            if entry["bot"]:
                table.apply(entry["seat"], action)
            else:
                table.push(action, entry["seat"])
            self._mark_stand_in(table, marked, entry)
            done = str(action)
        elif op == "join":
            table.join(entry["name"])
        elif op == "leave":
            table.leave(entry["name"])
            self.cashbook.paid_out(self.money_session(), entry["name"])  # A-R7.5
        elif op == "settle":
            table.settle()
        elif op == "stop":  # a tournament stops its table: the hand in play is its last
            self.stopped = True
        elif op in ("forfeit", "claim"):  # a ranked match's leaver, or its claimed win
            if self.forfeits.apply(entry, table, self.players):
                self.status = "over"
            return None
        else:  # pragma: no cover - the log holds only what the room writes
            raise ValueError(f"unknown log entry {entry!r}")
        if op in ("deal", "settle"):  # the break is over: the pending were applied or refused
            self.pending.clear()
        elif entry in self.pending:  # applied at the break: no longer pending
            self.pending.remove(entry)
        if table.is_over or self._boards_done(table):
            self.status = "over"
        return done

    @staticmethod
    def _stand_in_at(table: Table, entry: dict[str, Any]) -> tuple[int, int] | None:
        """Where a stand-in's act will be in the game (hand index, its first action's index),
        or None if ``entry`` is a person's or a bot seat's own."""
        if not (entry.get("stand_in") or entry.get("timeout")):
            return None
        session = table.session
        # counted from the session's first hand, as records count (a money room forgets hands)
        return (session.first_hand + len(session.hands) - 1, len(session.hands[-1].history))

    def _mark_stand_in(self, table: Table, at: tuple[int, int] | None,
                       entry: dict[str, Any]) -> None:
        """Mark the actions a stand-in took (``at``: from :meth:`_stand_in_at`)."""
        if at is None:
            return
        hand, first = at
        why = "timeout" if entry.get("timeout") else ""
        history = table.session.hands[hand - table.session.first_hand].history
        for index in range(first, len(history)):
            self.stand_ins[(hand, index)] = why

    def _boards_done(self, table: Table) -> bool:
        """A tournament's table is over once its last board is played (not at the target), or
        once the tournament stopped it and no hand is in play."""
        return (self.boards is not None and not table.in_hand
                and (self.stopped or len(table.session.hands) >= len(self.boards)))

    def _start_engine(self, names: list[str]) -> None:
        # a tournament's table: the first board's dealer deals first, and the deal passes
        # left (B-R2.2), so every board is dealt by its own dealer (tournament/boards.py)
        dealer = self.boards[0].dealer % self.size if self.boards else None
        session = new_session(self.rules, names, dealer=dealer, seed=self.seed)
        self.table = Table(session, auto_deal=False)
        self.table.subscribe(self.new.append)
        self.table.subscribe(self._keep_result)
        self.status = "playing"

    def _keep_result(self, event: Event) -> None:
        if event.type in RESULT_EVENTS:
            self.results.append(event.to_dict(skip="state"))
        if event.type == "hand_scored" and self.money:
            self._count_money_hand()

    def _count_money_hand(self) -> None:
        """Add the hand just scored to the statistics of each player who sat in it (each at
        the seat of that hand; every seat is its own side, A-R1)."""
        session = self.money_session()
        result = session.hands[-1].result
        if result is None:  # pragma: no cover - hand_scored follows the hand's result
            return
        for seat, name in enumerate(session.hand_players[-1]):
            self.money_stats.setdefault(name, Stats()).add_hand(result, seat, seat)

    def forget(self) -> None:
        """Keep at most twice ``keep_events`` events in memory: a reconnect at most that far
        behind replays from them, one further behind takes a snapshot, and every event is
        in the table's log in the database (issue 31, finding 1)."""
        table = self.table
        keep = self.keep_events
        if table is not None and table.seq >= self._forget_at:
            table.forget(keep)
            if self.money:
                # a money session never ends (A-R7): its older hands go with their events (the
                # log has them; a record is written from it, record_of_log)
                self.money_session().forget_hands(1)
            self._forget_at = table.seq + keep
            # a forgotten hand's record is written from the log (record_of_log, its own marks):
            # its stand-in marks are not kept either (review F7)
            first = table.session.first_hand
            self.stand_ins = {at: why for at, why in self.stand_ins.items() if at[0] >= first}
            # a forgotten event is never sent from memory again: nor is its timed-out mark kept
            self.timed_out = {seq for seq in self.timed_out if seq > table.seq - keep}

    # ------------------------------------------------------------------ money
    def money_session(self) -> MoneySession:
        session = self.table.session if self.table is not None else None
        if not self.money or session is None:
            raise Refused("join_leave_not_allowed", "only a started money table has payouts")
        return cast(MoneySession, session)  # a money table's session (new_session, money=True)

    def payments(self) -> Payments | None:
        """Who paid whom as players left, and once settled the fewest payments left."""
        if not self.money or self.table is None:
            return None
        session = self.money_session()
        return Payments(leaves=[_leave_info(leave) for leave in self.cashbook.leaves],
                        settlement=_payment_infos(self.cashbook.settlement(session))
                        if session.finished else None)

    def preview(self, player: Player) -> PaymentsPreview:
        """What ``player`` leaving, or the table settling, would pay now (nothing changes)."""
        session = self.money_session()
        if session.finished:
            raise Refused("game_over", "the money is already settled")
        if player.name not in session.players:
            raise Refused("not_seated", f"{player.name} is not seated now")
        leave = self.cashbook.preview_leave(session, player.name)
        return PaymentsPreview(leave=_leave_info(leave),
                               settle=_payment_infos(self.cashbook.settlement(session)),
                               final=not session.in_hand)

    # ------------------------------------------------------------------ who may do what
    def seat_now(self, player: Player | None) -> int | None:
        """``player``'s seat now: in the engine's seating once started (None: not seated)."""
        if player is None:
            return None
        if self.table is not None:
            names = self.table.seating
            return names.index(player.name) if player.name in names else None
        return player.seat

    def legal_for(self, name: str) -> list[str] | None:
        """``name``'s own legal actions if it is their turn (never anyone else's)."""
        table = self.table
        if table is None or not table.in_hand or name not in table.names:
            return None
        seat = table.names.index(name)
        if table.to_act != seat:
            return None
        return [str(a) for a in table.view(seat).legal_actions]

    def check_seated(self, player: Player, doing: str) -> None:
        """Only a player with a seat now may ``doing``: after the start that is a name in
        the engine's seating; a money player who left (departed) or whose join waits for
        the next break (pending) has a token but no seat (issue 31, finding 5; the roles
        table in docs/protocol.md)."""
        if self.table is not None and player.name not in self.table.names:
            joining = any(e["op"] == "join" and e.get("name") == player.name
                          for e in self.pending)
            raise Refused("not_seated", f"{player.name} is not seated "
                          + ("yet (their join waits for the next break)" if joining else
                             "any more (they left the table)") + f": they cannot {doing}", 403)

    @property
    def forgot_hands(self) -> bool:
        """Older hands are no longer in memory (a long money table): its record is written
        from the log (:func:`record_of_log`), not from :meth:`record`."""
        return self.table is not None and self.table.session.first_hand > 0

    def record(self) -> str:
        """The game so far as the table's players may see it: finished hands, no seed."""
        if self.table is None:
            raise Refused("not_started", "nothing has been played yet")
        names = self.table.names
        bots = {p.name: p.level for p in self.players.values()
                if p.level is not None and (self.money or p.name in names)}
        return write_record(self.table.session, bots=bots or None,
                            public=True, stand_ins=self.stand_ins)


def record_of_log(stored: StoredTable) -> str:
    """A table's public record from its whole log (replayed, nothing forgotten): what
    :meth:`RoomState.record` writes, for a table whose room forgot its older hands.  Walks
    the whole history: call it on a worker thread."""
    return RoomState(stored, KEEP_ALL).record()


def _boards(given: Any) -> tuple[Board, ...] | None:
    """A tournament table's boards as its config stores them (``[[number, dealer, seed]]``)."""
    if given is None:
        return None
    return tuple(Board(number=int(b[0]), dealer=int(b[1]), seed=int(b[2])) for b in given)


def _payment_infos(payments: Sequence[Payment]) -> list[PaymentInfo]:
    return [PaymentInfo(payer=p.payer, payee=p.payee, cents=p.cents) for p in payments]


def _leave_info(leave: Leave) -> LeaveInfo:
    return LeaveInfo(name=leave.name, cents=leave.cents, payments=_payment_infos(leave.payments))
