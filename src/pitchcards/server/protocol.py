"""The wire protocol of ``pitch serve``: one pydantic model per message (docs/protocol.md).

Two halves:

* **HTTP** (JSON bodies): create a table, look at it, take a seat by invite, start, leave,
  settle, rematch, download records.  Models: :class:`CreateTable`, :class:`TakeSeat`,
  :class:`TableCreated`, :class:`SeatTaken`, :class:`TableInfo`, :class:`Refusal`.
* **WebSocket** (one JSON object per text frame), per player or spectator.  The client's first
  message is :class:`Hello`; then :class:`Act`, :class:`Chat`, :class:`Ping`/:class:`Pong`.  The
  server sends :class:`Welcome`, then the game as :class:`EventMessage` (each engine event with its
  ``seq``, cut for that connection by ``Table.events_for``), :class:`Snapshot` when a client is
  too far behind, :class:`TableMessage` when seats or presence change, :class:`ChatMessage`,
  :class:`ErrorMessage` (a refusal: ``reason`` and words; nothing changed), :class:`Ping`/
  :class:`Pong` and :class:`RematchMessage`.

:data:`PROTOCOL` is sent in ``welcome`` and must be the client's ``hello.protocol``.
:func:`json_schema` is the JSON Schema of every message, generated from these models.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter

from ..errors import REASONS
from .names import mixed_scripts

__all__ = [
    "BOT_LEVELS",
    "PROTOCOL",
    "SERVER_REASONS",
    "Act",
    "ChatMessage",
    "ClientMessage",
    "CreateTable",
    "Deadline",
    "ErrorMessage",
    "EventMessage",
    "Forfeit",
    "Hello",
    "LeaveInfo",
    "PaymentInfo",
    "Payments",
    "PaymentsPreview",
    "Ping",
    "Pong",
    "Refusal",
    "RematchMessage",
    "SeatInfo",
    "SeatTaken",
    "ServerMessage",
    "Snapshot",
    "TableCreated",
    "TableInfo",
    "TableMessage",
    "TableSettings",
    "TakeSeat",
    "Welcome",
    "json_schema",
    "parse_client_message",
]

#: The protocol version: bumped when a message changes incompatibly.
PROTOCOL = 1

#: Bot levels a table may seat (the names of pitchcards.bots' registry players know).
BOT_LEVELS = ("random", "easy", "medium", "hard", "expert")
BotLevel = Literal["random", "easy", "medium", "hard", "expert"]

#: Every refusal reason the server adds to the engine's (:data:`pitchcards.REASONS`).
SERVER_REASONS: dict[str, str] = {
    "bad_message": "not JSON, not an object, or a message whose fields do not validate",
    "unknown_type": "a message type this protocol does not have",
    "protocol": "the client speaks another protocol version (see welcome.protocol)",
    "hello_first": "the first message on a socket must be hello",
    "bad_token": "no seat of this table has that token",
    "not_found": "no such table, or no such invite",
    "not_host": "only the table's host may do that",
    "not_listed": "a private table: its seats are taken with its invite",
    "spectator": "a spectator cannot act",
    "stale": "the action was made on an old position: the table moved on since the seq it "
             "names (resync and decide again)",
    "not_started": "the host has not started the match yet",
    "started": "the match has started: that can only be done before",
    "seat_taken": "that seat is someone else's",
    "bad_name": "a display name that is empty, too long, not printable, or mixes scripts",
    "between_hands": "done at the next break between hands (a join or leave mid-hand)",
    "rate_limited": "too many messages or requests: slow down",
    "too_many_connections": "too many sockets from one address",
    "too_many_tables": "too many tables in play from one address, or on the server",
    "bad_origin": "a WebSocket, or a request that changes an account, from a page on another "
                  "site",
    "bad_sign_in": "that name and password do not match an account (the same answer whether "
                   "the name has no account or the password is wrong)",
    "signed_out": "the request needs an account: no session, an expired one, or an API token "
                  "that is not valid",
    "name_registered": "an account has that name already, or one that looks like it",
    "bad_password": "a new password shorter or longer than the rules allow",
    "too_many_tokens": "an account holds as many API tokens as it may: revoke one first",
    "too_slow": "the client did not read its messages; it was dropped and must resync",
    "chat_too_long": "a chat message over the length limit",
    "storage": "the server could not store the action; nothing changed (try again)",
    "account_needed": "a ranked table's seats are signed-in accounts': sign in, or send an API "
                      "token",
    "unranked_variant": "a ranked table of a variant no rating pool rates",
    "unranked_options": "a ranked table plays its variant's own rules: an option that changes "
                        "the game makes it unranked",
    "not_ranked": "only a ranked table's match is forfeited or claimed",
    "cannot_claim": "the win is claimed only when every opponent side has left (a ranked "
                    "money table has none: it is ranked at the settlement)",
    "tournament_table": "a tournament's table: no spectators, no public score sheet (its "
                        "boards stay hidden until everyone has played them)",
    "not_director": "only the tournament's director may do that (Authorization: Bearer "
                    "<director secret>)",
    "bad_tournament": "a tournament request the format does not allow now (the message says "
                      "what is allowed)",
    "too_many_tournaments": "the address has as many tournaments not over as it may",
    "tournament_full": "the tournament has as many players registered as it takes",
    "round_on": "the director's view of a tournament table's record waits for the end of its "
                "round",
    "not_over": "a game is analysed for its players while it goes on, for anyone once it is over",
    "no_hands": "no hand is finished yet: a game is analysed by its finished hands",
    "not_analysed": "the game has not been analysed yet: ask for its analysis first",
    "busy": "as many analyses are waiting as the server keeps: try again in a few minutes",
}
for _reason in SERVER_REASONS:
    assert _reason not in REASONS, _reason

_NAME = re.compile(r"[^\W_][\w .'\-]{0,23}", re.UNICODE)
DisplayName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                               max_length=24)]


def check_display_name(name: str) -> str:
    """A display name people can read and the engine can record: letters or digits first,
    then letters, digits, spaces, ``.'-``; at most 24 characters."""
    name = " ".join(name.split())
    if not _NAME.fullmatch(name):
        raise ValueError(f"{name[:30]!r} is not a display name: 1-24 letters, digits, spaces "
                         "or .'- starting with a letter or digit")
    scripts = mixed_scripts(name)
    if scripts:  # a lookalike in the making (issue 31, finding 11): server/names.py
        raise ValueError(f"{name!r} mixes letters of {' and '.join(s.title() for s in scripts)}"
                         ": a display name's letters come from one script")
    return name


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Strict(_Model):
    """A WebSocket message from a client: its JSON types exactly (a seq of "41" is refused,
    not read as 41)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# ------------------------------------------------------------------------------ HTTP
class TableSettings(_Model):
    """A table's pace and its patience with absent players."""

    grace: float = Field(60.0, ge=0, le=3600,
                         description="seconds a dropped player's seat is held before a bot "
                                     "plays it (until they come back)")
    turn_timer: float | None = Field(None, gt=0, le=3600,
                                     description="seconds a player has to act; then a bot plays "
                                                 "that one turn (off by default)")
    bot_delay: float = Field(0.8, ge=0, le=10,
                             description="seconds a bot waits before acting, so people can "
                                         "follow")
    hand_pause: float = Field(4.0, ge=0, le=120,
                              description="seconds between a hand's end and the next deal")
    stand_in: BotLevel = Field("medium", description="the level of the bot that plays for an "
                                                     "absent or timed-out player")


class RulesQuery(_Model):
    """``POST /api/rules``: rules to explain before creating a table."""

    variant: str = Field("auction", max_length=40)
    players: int | None = Field(None, ge=1, le=16)
    options: dict[Annotated[str, StringConstraints(max_length=40)],
                  str | int | bool] = Field(default_factory=dict, max_length=40)
    fit_players: bool = Field(False, description="true: a `players` these rules do not allow "
                              "is answered for the nearest table size they do (the new-table "
                              "form, whose options move the range); the answer's `players` "
                              "says which. False: it is refused (bad_setup)")


class CreateTable(_Model):
    """``POST /api/tables``: the host's table."""

    name: DisplayName = Field(description="the host's display name")
    variant: str = Field("auction", max_length=40)
    players: int | None = Field(None, ge=1, le=16,
                                description="seats (default: the variant's); the engine checks "
                                            "the range")
    options: dict[Annotated[str, StringConstraints(max_length=40)],
                  str | int | bool] = Field(default_factory=dict, max_length=40,
                                            description="rules options (docs/rules.md)")
    seat: int = Field(0, ge=0, le=15, description="the host's own seat")
    bots: dict[int, BotLevel] = Field(default_factory=dict, max_length=16,
                                      description="seats played by a bot from the start")
    fill: BotLevel = Field("medium", description="the level of the bots that take the seats "
                                                 "still empty when the host starts")
    listed: bool = Field(False, description="shown in the public lobby (else invite only)")
    settings: TableSettings = Field(default_factory=TableSettings)
    ranked: bool = Field(False, description="rated at the end (docs/accounts.md, \"Ranked "
                                            "tables\"): every person's seat a signed-in "
                                            "account's, the variant's own rules, a turn timer; "
                                            "refused with the reason otherwise")


class TakeSeat(_Model):
    """``POST /api/invites/{code}/seats``: a guest takes a seat (any free one if None)."""

    name: DisplayName
    seat: int | None = Field(None, ge=0, le=15)


class SeatTaken(_Model):
    table: str
    seat: int | None = Field(description="the seat now (None: joining a money table at the "
                                         "next break)")
    name: str
    token: str = Field(description="the seat token: keep it secret; it acts for this seat")
    url: str = Field(description="the table's page")


class TableCreated(SeatTaken):
    invite: str = Field(description="the invite code; share the invite URL")
    invite_url: str


class SeatInfo(_Model):
    seat: int
    name: str | None = Field(description="None: a free seat")
    kind: Literal["human", "bot", "open"]
    level: BotLevel | None = Field(None, description="the bot's level (a bot seat, or the "
                                                     "stand-in of an away player)")
    connected: bool = False
    away: bool = Field(False, description="a bot plays for this absent player until they "
                                          "return")
    host: bool = False
    side: int | None = Field(None, description="the seat's scoring side in the game in play "
                             "(the seat, or its team in partnerships: the index of its score, "
                             "of a result's deltas and of match_won's winner); None before the "
                             "start")


class Deadline(_Model):
    """A clock running at the table: a turn timer, or a dropped player's grace period."""

    kind: Literal["turn", "grace"] = Field(description="turn: the seat to act has until then, "
                                                       "then a stand-in plays that turn; grace: "
                                                       "a dropped player's seat is held until "
                                                       "then, then a stand-in plays it")
    name: str = Field(description="whose clock it is")
    seat: int = Field(description="their seat now")
    remaining_ms: int = Field(ge=0, description="milliseconds left when the server sent this "
                                                "(relative, so a client's clock skew does not "
                                                "matter; count down from when it arrived)")
    total_ms: int = Field(ge=0, description="the whole period in milliseconds")
    seq: int = Field(ge=0, description="the table's event seq when the clock started: a turn "
                                       "clock ends with the next event")

    @classmethod
    def running(cls, kind: Literal["turn", "grace"], name: str, seat: int, left: float,
                total: float, seq: int) -> Deadline:
        """A clock with ``left`` of ``total`` seconds to run (a clock already out says 0)."""
        return cls(kind=kind, name=name, seat=seat, remaining_ms=max(0, round(left * 1000)),
                   total_ms=round(total * 1000), seq=seq)


class PaymentInfo(_Model):
    """``payer`` hands ``payee`` ``cents`` (settlement.Payment)."""

    payer: str = Field(description="a player's name, or 'the pot'")
    payee: str
    cents: int = Field(gt=0)


class LeaveInfo(_Model):
    """A player who left a money table: their payout in the engine's cents (A-R7.6; negative:
    they paid) and who pays whom for it, the fewest payments (A-R7.5)."""

    name: str
    cents: int
    payments: list[PaymentInfo]


class Payments(_Model):
    """Who pays whom at a money table (settlement.Cashbook: the same as the scorekeeper's)."""

    leaves: list[LeaveInfo] = Field(description="each player who left, in order")
    settlement: list[PaymentInfo] | None = Field(
        description="once settled: the fewest payments that settle everyone (None before)")


class PaymentsPreview(_Model):
    """``GET /api/tables/{id}/payments``: what leaving or settling would pay now, for the
    confirmation a page shows before it asks."""

    leave: LeaveInfo = Field(description="if you left now: your payout and who pays whom")
    settle: list[PaymentInfo] = Field(description="if the table settled now: the fewest "
                                                  "payments")
    final: bool = Field(description="False while a hand is in play: a leave or settle then "
                                    "waits for the break, and the hand changes the amounts")


class Forfeit(_Model):
    """A ranked match's forfeit: the side of ``name`` counts as a loss (once)."""

    name: str
    side: int
    why: Literal["left", "away"] = Field(description="left: they left; away: they were away "
                                                     "past the grace")


class TableInfo(_Model):
    table: str
    variant: str
    rules: dict[str, Any]
    status: Literal["waiting", "playing", "over"]
    listed: bool
    money: bool
    seats: list[SeatInfo]
    settings: TableSettings
    seq: int
    spectators: int = 0
    pending: list[str] = Field(default_factory=list,
                               description="joins and leaves waiting for the next break")
    rematch: str | None = Field(None, description="the table this one's rematch is at")
    rematch_of: str | None = Field(None, description="the finished table this one is the "
                                   "rematch of (its results and history stay public as they "
                                   "were)")
    payments: Payments | None = Field(None, description="a started money table: who paid "
                                                        "whom as players left, and the "
                                                        "settlement")
    deadlines: list[Deadline] = Field(default_factory=list,
                                      description="the clocks running now: the turn timer of "
                                                  "the seat to act, dropped players' grace")
    ranked: bool = Field(False, description="a ranked table: rated once, at the match's end")
    forfeits: list[Forfeit] = Field(default_factory=list,
                                    description="a ranked match: who left (or was away past "
                                                "the grace), their side's loss, in order")
    may_claim: int | None = Field(None, description="a ranked match: the side that may claim "
                                                    "the win now (every opponent left), or "
                                                    "None")


class Refusal(_Model):
    """Every HTTP refusal: a reason code and words."""

    reason: str
    message: str


# ------------------------------------------------------------------------------ WebSocket in
class Hello(_Strict):
    type: Literal["hello"]
    protocol: int
    token: str | None = Field(None, max_length=100,
                              description="a seat token; None to watch as a spectator")
    last_seq: int | None = Field(None, ge=0, description="the last event seq this client "
                                                           "holds (reconnecting)")


class Act(_Strict):
    type: Literal["act"]
    action: str = Field(max_length=40, description="an action in the engine's words: 'bid 2', "
                                                   "'pass', 'pitch QH', 'play 7S', 'moon'; "
                                                   "ten-point: 'bid 10', 'trump H', "
                                                   "'discard QH', 'play LJ'")
    seq: int = Field(ge=0, description="the last event seq the client saw when deciding")
    cards: list[Annotated[str, Field(max_length=4)]] | None = Field(
        None, min_length=1, max_length=12,
        description="with action 'discard' only: a ten-point seat's whole discard down to six "
                    "(T4), applied in order, all or none")


class Chat(_Strict):
    type: Literal["chat"]
    text: str = Field(max_length=2000)


class Ping(_Strict):
    """The heartbeat, both ways: the other side answers with a pong of the same id."""

    type: Literal["ping"] = "ping"
    id: int = Field(0, ge=0)


class Pong(_Strict):
    type: Literal["pong"] = "pong"
    id: int = Field(0, ge=0)


ClientMessage = Annotated[Hello | Act | Chat | Ping | Pong, Field(discriminator="type")]
_CLIENT = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("hello", "act", "chat", "ping", "pong")


def parse_client_message(data: Any) -> Hello | Act | Chat | Ping | Pong:
    """Validate a decoded client frame (pydantic's ValidationError if it is not one)."""
    result: Hello | Act | Chat | Ping | Pong = _CLIENT.validate_python(data)
    return result


# ------------------------------------------------------------------------------ WebSocket out
class You(_Model):
    role: Literal["player", "spectator"]
    seat: int | None
    name: str | None
    host: bool = False


class Welcome(_Model):
    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL
    table: TableInfo
    you: You
    seq: int = Field(description="the table's last event seq; events after the client's "
                                 "last_seq follow, or a snapshot")


class EventMessage(_Model):
    type: Literal["event"] = "event"
    event: dict[str, Any] = Field(description="an engine event (pitchcards.events), cut for "
                                              "this connection; event.seq numbers it")
    timed_out: bool = Field(False, description="an action_taken a stand-in played because the "
                                               "seat's turn timer ran out (sent only when true)")


class Snapshot(_Model):
    type: Literal["snapshot"] = "snapshot"
    seq: int
    view: dict[str, Any] | None = Field(description="this connection's View now "
                                                    "(pitchcards.views.View.to_dict)")


class TableMessage(_Model):
    type: Literal["table"] = "table"
    table: TableInfo


class ChatMessage(_Model):
    type: Literal["chat"] = "chat"
    name: str
    text: str
    at: float


class ErrorMessage(_Model):
    type: Literal["error"] = "error"
    reason: str
    message: str = Field(description="what was refused and why, in full (the engine's message: "
                                     "the input, the seat, the phase, what is legal)")
    words: str | None = Field(None, description="the refusal in a player's words, for an "
                                                "action the rules refuse (the terminal game's "
                                                "sentence: 'You must follow ♦.')")
    seq: int | None = Field(None, description="the table's seq when refused")
    legal: list[str] | None = Field(None, description="your legal actions now, if it is your "
                                                      "turn")


class RematchMessage(_Model):
    type: Literal["rematch"] = "rematch"
    table: str


ServerMessage = Annotated[Welcome | EventMessage | Snapshot | TableMessage | ChatMessage
                          | ErrorMessage | RematchMessage | Ping | Pong,
                          Field(discriminator="type")]
SERVER_MESSAGES = TypeAdapter(ServerMessage)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every message, both ways (docs/protocol.md embeds it)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"pitchcards protocol {PROTOCOL}",
        "protocol": PROTOCOL,
        "client_message": _CLIENT.json_schema(),
        "server_message": SERVER_MESSAGES.json_schema(),
        "http": {m.__name__: m.model_json_schema() for m in
                 (CreateTable, RulesQuery, TakeSeat, TableCreated, SeatTaken, TableInfo,
                  PaymentsPreview, Refusal)},
    }
