"""Replaying a record: deal the recorded cards, push the recorded actions, verify every check."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import IllegalActionError, PitchError, shown
from ..hand import Hand
from ..match import Match
from ..money import MoneySession
from .format import (
    EventRecord,
    Game,
    HandRecord,
    Record,
    RecordMismatchError,
    RecordReplayError,
    RecordSyntaxError,
    _format_result,
    result_fields,
)
from .reader import _Parser


# ---------------------------------------------------------------------------------- reading
def read_record(text: str) -> Record:
    """Parse a record and verify it by replaying it (every check line must hold).

    Raises :class:`RecordSyntaxError` (an :class:`~pitchcards.InvalidActionError`) for text
    that is not a record, :class:`RecordReplayError` (an
    :class:`~pitchcards.IllegalActionError`) for a game the rules refuse, and
    :class:`RecordMismatchError` when a recorded result, total, payout, seating or winner
    differs from the replay; every message starts with the line number.  A version-2 record
    cut short or changed after it was written raises :class:`RecordDamagedError` (a
    :class:`RecordSyntaxError`) unless a more specific error comes first.
    """
    return read_and_replay(text)[0]


def read_and_replay(text: str,
                    on_item: Callable[[Game, HandRecord | EventRecord], None] | None = None
                    ) -> tuple[Record, Game]:
    """Parse and replay; a damaged version-2 record is refused once the replay has found
    nothing more specific to say."""
    parser = _Parser(text)
    record = parser.parse()
    game = replay_each(record, on_item)
    if parser.damage is not None:
        raise parser.damage
    return record, game


def replay(record: Record) -> Match | MoneySession:
    """The game of a record, rebuilt by dealing the recorded cards and pushing the actions.

    The record's check lines are verified again (a :class:`Record` may have been built or
    changed in code), raising the errors :func:`read_record` raises.
    """
    return replay_each(record)


# ---------------------------------------------------------------------------------- replaying
def replay_each(record: Record,
                on_item: Callable[[Game, HandRecord | EventRecord], None] | None = None) -> Game:
    """Replay a record, checking every check line; ``on_item`` sees each hand or event once
    it has been applied."""
    game: Game
    if not isinstance(record, Record):
        raise RecordSyntaxError(f"replay() takes a Record (from read_record or parse_record), "
                                f"not {shown(record)}")
    if not 0 <= record.dealer < record.players:
        raise RecordReplayError(f"dealer {record.dealer} is not a seat (0..{record.players - 1})",
                                record.lines.get("dealer"), reason="bad_setup")
    try:
        if record.game == "money":
            game = MoneySession(record.rules, players=record.names or [], dealer=record.dealer,
                                seed=record.seed)
        else:
            game = Match(record.rules, players=record.players, dealer=record.dealer,
                         seed=record.seed, scores=record.scores, names=record.seat_names)
    except PitchError as exc:
        raise _replay_error(exc, "the header", record.lines.get("players")) from exc
    previous: EventRecord | None = None
    for item in record.items:
        if game.in_hand:
            number = len(game.hands)
            raise RecordReplayError(f"hand {number} is unfinished, but the record goes on",
                                    item.line, reason="hand_in_progress")
        if isinstance(item, HandRecord):
            _play_hand(game, item)
            previous = None
        else:
            if not isinstance(game, MoneySession):
                raise RecordReplayError(f"{item.kind!r} events belong to money sessions only",
                                        item.line, reason="join_leave_not_allowed")
            _apply_event(game, item, previous)
            previous = item
        if on_item is not None:
            on_item(game, item)
    if isinstance(game, Match) and record.winner is not None and record.winner != game.winner:
        replayed = "no winner yet" if game.winner is None else f"side {game.winner} wins"
        raise RecordMismatchError(f"the record says side {record.winner} wins, the replay has "
                                  f"{replayed}", record.lines.get("winner"))
    return game


def _replay_error(exc: PitchError, where: str, line: int | None,
                  reason: str = "bad_setup") -> RecordReplayError:
    """The engine's refusal as a record error: its reason, action, seat, phase and legal
    actions carried over (``reason`` for an error that has none)."""
    if isinstance(exc, IllegalActionError):
        reason = exc.reason
    err = RecordReplayError(f"{where}: {exc}", line, reason=reason)
    if isinstance(exc, IllegalActionError):
        err.action, err.seat, err.phase, err.legal = exc.action, exc.seat, exc.phase, exc.legal
    return err


def _play_hand(game: Game, rec: HandRecord) -> None:
    where = f"hand {rec.number}"
    if game.is_over:
        over = ("the session has ended" if isinstance(game, MoneySession)
                else f"the match is over, side {game.winner} won")
        raise RecordReplayError(f"{where}: {over}", rec.line, reason="game_over")
    if rec.number != len(game.hands) + 1:
        raise RecordReplayError(f"{where} is out of order: this is hand {len(game.hands) + 1}",
                                rec.line, reason="bad_deal")
    if rec.dealer != game.next_dealer:
        raise RecordReplayError(f"{where}: the deal is seat {game.next_dealer}'s by rotation, "
                                f"not seat {rec.dealer}'s", rec.line, reason="bad_deal")
    seated = list(game.names)  # (a seats line is a money session's: the reader sees to it)
    if rec.seats is not None and rec.seats != seated:
        raise RecordMismatchError(f"{where}: the record seats {' '.join(rec.seats)}, the "
                                  f"replay seats {' '.join(seated)}", rec.seats_line, rec.number)
    if rec.outcome is not None:
        try:
            entered = game.enter(rec.outcome)
        except PitchError as exc:
            raise _replay_error(exc, where, rec.outcome_line, "bad_outcome") from exc
        _check_result(game, rec, entered)
        return
    players = game.seat_count
    if len(rec.cards) != players:
        raise RecordReplayError(f"{where} deals {len(rec.cards)} seats, but {players} players "
                                "are seated", rec.deal_lines[-1] if rec.deal_lines else rec.line,
                                reason="bad_deal")
    try:
        hand = game.deal(cards=rec.cards)
    except PitchError as exc:
        raise _replay_error(exc, where, rec.line, "bad_deal") from exc
    for (seat, action), line in zip(rec.actions, rec.action_lines, strict=True):
        try:
            game.push(action, seat)
        except PitchError as exc:
            raise _replay_error(exc, where, line) from exc
    _check_result(game, rec, hand)


def _check_result(game: Game, rec: HandRecord, hand: Hand) -> None:
    """The hand's result and the totals after it, against the record's check lines."""
    where = f"hand {rec.number}"
    if rec.result is not None:
        if hand.result is None:
            raise RecordMismatchError(f"{where} has a result line but is not finished after "
                                      f"{len(rec.actions)} actions", rec.result_line, rec.number)
        replayed = result_fields(hand.result)
        diffs = [f"{k}: recorded {v!r}, replayed {replayed.get(k, '(none)')!r}"
                 for k, v in rec.result.items() if replayed.get(k) != v]
        if diffs:
            raise RecordMismatchError(f"{where}: the replayed result differs from the record: "
                                      + "; ".join(diffs) + f" (replayed: "
                                      f"{_format_result(replayed)})", rec.result_line,
                                      rec.number)
    if rec.total is not None:
        totals = game.side_scores()  # the seating is the hand's until the next event
        if totals != rec.total:
            raise RecordMismatchError(
                f"{where}: the recorded totals {' '.join(map(str, rec.total))} differ from the "
                f"replayed {' '.join(map(str, totals))}", rec.total_line, rec.number)


def _apply_event(game: MoneySession, event: EventRecord, previous: EventRecord | None) -> None:
    try:
        if event.kind == "join":
            game.join(event.name or "")
        elif event.kind == "leave":
            game.leave(event.name or "")
        elif not (game.finished and previous is not None and previous.kind == "leave"):
            game.settle()  # (after a leave that left one player, the session settled itself)
    except PitchError as exc:
        raise _replay_error(exc, event.kind, event.line) from exc
    for name, amount in event.payouts.items():
        paid = game.payouts.get(name)
        if paid != amount:
            raise RecordMismatchError(f"the record pays {shown(name)} {amount}, the replay "
                                      + ("pays nothing" if paid is None else f"pays {paid}"),
                                      event.payout_lines.get(name, event.line))
