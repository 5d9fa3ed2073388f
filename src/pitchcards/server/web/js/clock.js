// The table's clock (docs/web.md, "The clock"): the server's deadlines counted down — the turn
// timer of whoever must act, a dropped player's grace — a warning in the last seconds (on
// screen, a sound if sounds are on, an alert for screen readers), and "time ran out" when the
// server says a stand-in played a timed-out turn.  The server decides every deadline and every
// timeout (TableInfo.deadlines, an event frame's timed_out); this only counts and says.

import { el } from "./words.js";
import { play } from "./sounds.js";

/**
 * @typedef {import("./state.js").TableState} TableState
 * @typedef {import("./state.js").TableEvent} TableEvent
 * @typedef {{kind: "turn" | "grace", name: string, seat: number | null, remaining_ms: number,
 *   total_ms: number, seq: number}} Deadline
 */

/** The last seconds in which the player to act is warned. */
const WARN_S = 10;

/**
 * "0:42", "1:05:00".
 * @param {number} seconds whole seconds, at least 0
 */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/**
 * One clock's words, with what a test or a style needs to know of it.
 * @param {Deadline & {left: number}} d
 * @param {string} text
 */
function part(d, text) {
  return el("span", { class: "deadline", "data-kind": d.kind, "data-name": d.name,
    "data-left": String(Math.ceil(d.left)), text: text + " " });
}

export class TableClock {
  constructor() {
    this.root = el("p", { id: "clock", class: "clock", hidden: true });
    /** read by screen readers once, when the last seconds begin */
    this.alert = el("p", { id: "clock-alert", class: "visually-hidden", role: "alert" });
    this.timeout = el("p", { id: "timed-out", class: "note", role: "status", hidden: true });
    /** @type {object | null} the TableInfo the deadlines came in */
    this.info = null;
    /** when that TableInfo arrived (performance.now()): the deadlines count from then */
    this.arrived = 0;
    /** @type {string} the deadline already warned about */
    this.warned = "";
    /** @type {{seat: number, name: string, seq: number} | null} */
    this.timedOutTurn = null;
    /** @type {number | null} */
    this.ticking = null;
    /** @type {TableState | null} */
    this.state = null;
  }

  /**
   * An event frame: marks a stand-in's move for a timed-out seat (the server's `timed_out`),
   * and ends that notice at the seat's next own move or the next deal.
   * @param {TableEvent} event
   * @param {boolean} timedOut
   * @param {TableState} state
   */
  event(event, timedOut, state) {
    if (event.type === "action_taken" && timedOut) {
      const names = state.view && state.view.names ? state.view.names : [];
      this.timedOutTurn = { seat: event.seat, name: names[event.seat] || `Seat ${event.seat + 1}`, seq: event.seq };
    } else if (this.timedOutTurn && (event.type === "hand_dealt"
        || (event.type === "action_taken" && event.seat === this.timedOutTurn.seat))) {
      this.timedOutTurn = null;
    }
  }

  /**
   * The deadlines still running, with the seconds left now.
   * @param {TableState} state
   * @returns {Array<Deadline & {left: number}>}
   */
  running(state) {
    const info = /** @type {{deadlines?: Deadline[]} | null} */ (/** @type {unknown} */ (state.table));
    if (info !== this.info) {
      this.info = info;
      this.arrived = performance.now();
    }
    const deadlines = info && Array.isArray(info.deadlines) ? info.deadlines : [];
    const gone = (performance.now() - this.arrived) / 1000;
    // a turn's clock ends with the next event (the turn was taken)
    return deadlines.filter((d) => d.kind !== "turn" || state.seq === null || state.seq <= d.seq)
      .map((d) => ({ ...d, left: Math.max(0, d.remaining_ms / 1000 - gone) }));
  }

  /**
   * Draw the clock and the notices; keeps ticking while a clock runs.
   * @param {TableState} state
   */
  render(state) {
    this.state = state;
    const you = state.you && state.you.role === "player" ? state.you.name : null;
    const clocks = this.running(state);
    const turn = clocks.find((d) => d.kind === "turn");
    const grace = clocks.filter((d) => d.kind === "grace" && d.name !== you);
    /** @type {HTMLElement[]} */
    const parts = [];
    let warn = false;
    if (turn) {
      const mine = turn.name === you;
      warn = mine && turn.left <= Math.min(WARN_S, turn.total_ms / 3000);
      parts.push(part(turn, mine ? `Your turn: ${clockText(turn.left)} left, then a bot plays for you.`
        : `${turn.name} has ${clockText(turn.left)} to act.`));
      const key = `${turn.name}:${turn.seq}`;
      if (warn && this.warned !== key) {
        this.warned = key;
        this.alert.textContent = `${Math.ceil(turn.left)} seconds left to act.`;
        play("turn");
      }
    }
    for (const d of grace) {
      parts.push(part(d, d.left > 0 ? `${d.name} is offline: a bot plays for them in ${clockText(d.left)}.`
        : `${d.name} is offline: a bot plays for them now.`));
    }
    const text = parts.map((p) => p.textContent).join("");
    if (this.root.textContent !== text) this.root.replaceChildren(...parts);
    this.root.hidden = !parts.length;
    this.root.dataset.warn = String(warn);
    if (!warn && this.alert.textContent) this.alert.textContent = "";
    // the timeout notice
    const out = this.timedOutTurn;
    const said = !out ? "" : out.name === you ? "Time ran out — a bot played for you."
      : `Time ran out for ${out.name} — a bot played for them.`;
    if (this.timeout.textContent !== said) this.timeout.textContent = said;
    this.timeout.hidden = !said;
    // tick while a clock runs
    const runs = clocks.some((d) => d.left > 0);
    if (runs && this.ticking === null) {
      this.ticking = window.setInterval(() => { if (this.state) this.render(this.state); }, 250);
    } else if (!runs && this.ticking !== null) {
      window.clearInterval(this.ticking);
      this.ticking = null;
    }
  }
}
