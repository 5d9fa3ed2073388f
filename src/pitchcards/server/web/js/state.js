// The table page's state, changed only by server messages (docs/web.md): the seat's View folded
// from each event as pitchcards.events.apply_event does, TableInfo, the hands' results, the
// table's news, chat, the pending action and the last refusal.

/**
 * @typedef {import("./words.js").View} View
 * @typedef {import("./words.js").HandResult} HandResult
 * @typedef {import("./words.js").Trick} Trick
 * @typedef {import("./words.js").Rules} Rules
 * @typedef {import("./net.js").ConnectionState} ConnectionState
 * @typedef {{seat: number, name: string | null, kind: "human" | "bot" | "open",
 *   level?: string | null, connected?: boolean, away?: boolean, host?: boolean,
 *   side?: number | null}} SeatInfo
 * @typedef {{table: string, variant: string, rules: Rules,
 *   status: "waiting" | "playing" | "over", listed: boolean, money: boolean,
 *   seats: SeatInfo[], settings: Record<string, any>, seq: number, spectators?: number,
 *   pending?: string[], rematch?: string | null, rematch_of?: string | null,
 *   ranked?: boolean, may_claim?: number | null,
 *   forfeits?: {name: string, side: number, why: string}[]}} TableInfo
 * @typedef {{role: "player" | "spectator", seat: number | null, name: string | null,
 *   host: boolean}} You
 * @typedef {{hand: number, result: HandResult, scores: number[], view: View,
 *   names: string[]}} HandRow
 * @typedef {{hand: number, kind: "joined" | "left" | "settled", name?: string,
 *   seat?: number, score?: number, cents?: number,
 *   cents_by_name?: Record<string, number>}} News
 * @typedef {{name: string, text: string, at: number}} ChatLine
 * @typedef {{type: string, seq: number, [key: string]: any}} TableEvent
 * @typedef {object} TableState
 * @property {ConnectionState} connection
 * @property {string} connectionWords
 * @property {You | null} you
 * @property {TableInfo | null} table
 * @property {View | null} view
 * @property {number | null} seq the last event seq taken (null: none yet)
 * @property {number} welcomeSeq the table's seq at the last welcome: events up to it are
 *   catching up, not news
 * @property {number | null} hand the index of the hand in play (from its deal)
 * @property {string[]} dealt this seat's cards as dealt this hand
 * @property {HandRow[]} rows the finished hands seen
 * @property {News[]} news joins, leaves and the settlement
 * @property {Record<string, string> | null} payouts the settlement
 * @property {number | null} winner the side that won the match
 * @property {ChatLine[]} chat the last lines
 * @property {number} chatTotal how many lines were heard in all
 * @property {string | null} pending the action waiting for the server
 * @property {string | null} refusal the last refusal in words
 * @property {Trick | null} lastTrick the last finished trick of this hand
 * @property {string | null} rematch the rematch's table id
 */

/** Events after which an action of ours was surely taken (docs/protocol.md, "Acting"). */
const MOVES = new Set(["action_taken", "action_undone", "hand_dealt", "match_won", "settled"]);
const CHAT_KEPT = 200;

/** @returns {TableState} */
function fresh() {
  return {
    connection: "connecting", connectionWords: "Connecting…", you: null, table: null,
    view: null, seq: null, welcomeSeq: 0, hand: null, dealt: [], rows: [], news: [],
    payouts: null, winner: null, chat: [], chatTotal: 0, pending: null, refusal: null, lastTrick: null,
    rematch: null,
  };
}

export class TableStore {
  constructor() {
    /** @type {TableState} */
    this.state = fresh();
    /** @type {Array<(state: TableState) => void>} */
    this.changeListeners = [];
    /** @type {Array<(event: TableEvent, state: TableState, before: View | null) => void>} */
    this.eventListeners = [];
    /** @type {Set<string>} the chat lines heard */
    this.chatSeen = new Set();
  }

  /**
   * Call `listener` after every change.
   * @param {(state: TableState) => void} listener
   */
  onChange(listener) {
    this.changeListeners.push(listener);
  }

  /**
   * Call `listener` with every live event (not the ones replayed to catch up), after it is
   * folded in and before the change listeners run.
   * @param {(event: TableEvent, state: TableState, before: View | null) => void} listener
   */
  onEvent(listener) {
    this.eventListeners.push(listener);
  }

  changed() {
    for (const listener of this.changeListeners) listener(this.state);
  }

  /**
   * @param {ConnectionState} connection
   * @param {string} words
   */
  setConnection(connection, words) {
    this.state.connection = connection;
    this.state.connectionWords = words;
    if (connection !== "open") this.state.pending = null;
    this.changed();
  }

  /**
   * An action is on its way to the server.
   * @param {string} action
   */
  setPending(action) {
    this.state.pending = action;
    this.state.refusal = null;
    this.changed();
  }

  /**
   * A refusal made here, before anything was sent (not connected, a spectator …).
   * @param {string | null} words
   */
  setRefusal(words) {
    this.state.refusal = words;
    this.changed();
  }

  /**
   * Fold one server message in.
   * @param {any} message
   */
  take(message) {
    const state = this.state;
    switch (message.type) {
      case "welcome":
        state.you = message.you;
        state.table = message.table;
        state.welcomeSeq = Number(message.seq) || 0;
        if (message.table && message.table.rematch) state.rematch = message.table.rematch;
        break;
      case "snapshot":
        state.seq = message.seq;
        state.view = message.view || null;
        state.dealt = state.view ? [...state.view.dealt] : [];
        state.pending = null;
        if (state.view && state.view.tricks.length) {
          state.lastTrick = state.view.tricks[state.view.tricks.length - 1];
        }
        break;
      case "event":
        if (!message.event || typeof message.event.seq !== "number") return;
        if (state.seq !== null && message.event.seq <= state.seq) return;  // had it
        this.event(message.event);
        return;
      case "table":
        state.table = message.table;
        if (message.table && message.table.rematch) state.rematch = message.table.rematch;
        break;
      case "chat": {
        // the server repeats the last lines after every welcome: keep each line once
        const key = `${message.at}\u0000${message.name}\u0000${message.text}`;
        if (this.chatSeen.has(key)) return;
        this.chatSeen.add(key);
        state.chat.push({ name: String(message.name), text: String(message.text),
          at: Number(message.at) });
        state.chatTotal += 1;
        if (state.chat.length > CHAT_KEPT) state.chat.splice(0, state.chat.length - CHAT_KEPT);
        break;
      }
      case "error":
        state.pending = null;
        if (message.reason !== "stale") {
          state.refusal = String(message.words || message.message || message.reason);
        }
        if (Array.isArray(message.legal) && state.view && state.view.seat !== null
            && state.view.seat === state.view.seat_to_act) {
          state.view = { ...state.view, legal_actions: message.legal };
        }
        break;
      case "rematch":
        state.rematch = String(message.table);
        break;
      default:
        return;  // pong, and whatever a newer server says that this page does not know
    }
    this.changed();
  }

  /**
   * The finished hands' results and the table's news before a snapshot (the server's
   * `GET /api/tables/{id}/results`: the result events without their states), so that a page
   * that was sent a snapshot still has the whole score sheet.  Names and rules come from the
   * view now (at a money table, seats move between hands: a row's names may be today's).
   * @param {TableEvent[]} events
   * @param {number} upTo the snapshot's seq: later events come over the socket
   */
  takeResults(events, upTo) {
    const state = this.state;
    const view = state.view;
    if (!view || !Array.isArray(events)) return;
    const have = new Set(state.rows.map((row) => row.hand));
    const heard = new Set(state.news.map((item) => JSON.stringify(item)));
    /** @type {HandRow[]} */
    const rows = [];
    /** @type {News[]} */
    const news = [];
    let last = -1;
    for (const event of events) {
      if (!event || typeof event.seq !== "number" || event.seq > upTo) continue;
      if (event.type === "hand_scored") {
        last = event.hand;
        if (!have.has(event.hand)) {
          rows.push({ hand: event.hand, result: event.result, scores: event.scores, view,
            names: [...(view.names || [])] });
        }
      } else if (event.type === "match_won") {
        state.winner = event.winner;
      } else if (event.type === "player_joined" || event.type === "player_left"
          || event.type === "settled") {
        /** @type {News} */
        const item = event.type === "player_joined"
          ? { hand: last + 1, kind: "joined", name: event.name, seat: event.seat, score: event.score }
          : event.type === "player_left"
            ? { hand: last + 1, kind: "left", name: event.name, cents: event.cents }
            : { hand: last + 1, kind: "settled", cents_by_name: event.payout_cents };
        if (event.type === "settled") state.payouts = event.payouts;
        if (!heard.has(JSON.stringify(item))) news.push(item);
      }
    }
    state.rows = [...rows, ...state.rows].sort((a, b) => a.hand - b.hand);
    state.news = [...news, ...state.news].sort((a, b) => a.hand - b.hand);
    // the hand in play (a snapshot does not number it): one after the last scored, or that one
    // while its result shows
    if (state.hand === null) state.hand = view.result ? Math.max(last, 0) : last + 1;
    this.changed();
  }

  /**
   * One engine event: the fact, and the public state after it plus what only this seat knows.
   * @param {TableEvent} event
   */
  event(event) {
    const state = this.state;
    const before = state.view;
    state.seq = event.seq;
    if (MOVES.has(event.type)) state.pending = null;
    // a refusal stays until this seat's next move or the next deal (a bot's quick play
    // would otherwise wipe it before it is read)
    const own = before && before.seat !== null && event.seat === before.seat;
    if (event.type === "hand_dealt" || (event.type === "action_taken" && own)) state.refusal = null;
    switch (event.type) {
      case "hand_dealt":
        state.view = event.view;
        state.dealt = event.view ? [...event.view.dealt] : [];
        state.hand = event.hand;
        state.lastTrick = null;
        break;
      case "trick_won":
        state.lastTrick = { leader: event.leader, winner: event.winner, plays: event.plays };
        break;
      case "hand_scored":
        if (state.view) {
          state.view = { ...state.view, scores: event.scores, result: event.result };
          state.rows.push({ hand: event.hand, result: event.result, scores: event.scores,
            view: state.view, names: [...(state.view.names || [])] });
        }
        break;
      case "match_won":
        state.winner = event.winner;
        if (state.view) state.view = { ...state.view, scores: event.scores };
        break;
      case "player_joined":
        state.news.push({ hand: this.nextHand(), kind: "joined", name: event.name,
          seat: event.seat, score: event.score });
        break;
      case "player_left":
        state.news.push({ hand: this.nextHand(), kind: "left", name: event.name,
          cents: event.cents });
        break;
      case "settled":
        state.payouts = event.payouts;
        state.news.push({ hand: this.nextHand(), kind: "settled",
          cents_by_name: event.payout_cents });
        break;
      default:
        break;
    }
    // this seat's copy of an action's event carries its own view after it (its cards, in the
    // order to show them, its discards and legal actions): the page folds nothing (issue 29)
    if (event.type !== "hand_dealt" && event.state) state.view = event.state;
    if (event.seq > state.welcomeSeq) {
      for (const listener of this.eventListeners) listener(event, state, before);
    }
    // catching up (a reconnect gets the events it missed): draw once, at the end
    if (event.seq >= state.welcomeSeq) this.changed();
  }

  /** The hand a join or leave comes before (numbered from 0, as hand_dealt numbers them). */
  nextHand() {
    return this.state.hand === null ? 0 : this.state.hand + 1;
  }
}
