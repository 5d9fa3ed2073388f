// Tricks you can follow (issue 30): a finished trick stays on the felt, its winner named, for as
// long as the player's pace says (prefs.js PACE_MS; "wait": until they tap the felt, press a key
// or act), even when the next lead has already come from the server.  The page's state is the
// server's; only what the felt shows is held back.  The trick and its winner are the server's
// facts (its trick_won event): nothing here decides who took it.

import { PACE_MS, prefs } from "./prefs.js";
import { el, sentence } from "./words.js";

/**
 * @typedef {import("./words.js").Trick} Trick
 * @typedef {import("./seats.js").Scene} Scene
 */

export class TrickPace {
  /**
   * @param {() => void} redraw draws the felt again (the held trick came or went)
   * @param {(ms: number) => void} sweep the trick's motion to its winner; `ms` it takes
   * @param {() => number} motion milliseconds of that motion (0: none)
   */
  constructor(redraw, sweep, motion) {
    this.redraw = redraw;
    this.sweep = sweep;
    this.motion = motion;
    /** @type {Trick | null} the finished trick the felt shows */
    this.held = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {(() => void)[]} what waits until the felt is clear (the hand's summary) */
    this.waiting = [];
    this.going = false;
  }

  /** Whether the felt holds a finished trick that waits for a tap. */
  get waitsForTap() {
    return this.held !== null && !this.going && prefs().pace === "wait";
  }

  /**
   * A trick was won (the server's trick_won): hold it on the felt.
   * @param {Trick} trick
   */
  won(trick) {
    this.finish();
    this.held = trick;
    const ms = PACE_MS[prefs().pace];
    if (Number.isFinite(ms)) this.timer = setTimeout(() => this.release(), ms);
    this.redraw();
  }

  /** The player tapped, pressed a key or acted: the held trick goes to its winner now. */
  release() {
    if (!this.held || this.going) return;
    clearTimeout(this.timer);
    const ms = this.motion();
    if (!ms) {
      this.finish();
      return;
    }
    this.going = true;
    this.sweep(ms);
    this.timer = setTimeout(() => this.finish(), ms);
  }

  /** The felt is clear: show the trick in play, and run what waited for it. */
  finish() {
    clearTimeout(this.timer);
    const had = this.held !== null;
    this.held = null;
    this.going = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const then of waiting) then();
    if (had) this.redraw();
  }

  /**
   * Run `then` once the felt holds no finished trick (at once if it holds none).
   * @param {() => void} then
   */
  whenClear(then) {
    if (this.held) this.waiting.push(then);
    else then();
  }
}

/**
 * The winner of the held trick, named on the felt (`#trick-winner`: "Bob takes the trick"), and
 * at the "wait" pace a button that lets it go ("Next").
 * @param {HTMLElement} root `#trick-winner`
 * @param {TrickPace} pace
 * @param {Scene} scene
 */
export function renderTrickWinner(root, pace, scene) {
  const held = pace.going ? null : pace.held;
  const text = held ? sentence(scene.who(held.winner), "take", "the trick") : "";
  const wait = pace.waitsForTap;
  const key = JSON.stringify([text, wait]);
  if (root.dataset.key === key) return;
  root.dataset.key = key;
  root.hidden = !held;
  if (held) root.dataset.seat = String(held.winner);
  else delete root.dataset.seat;
  const next = el("button", { type: "button", id: "trick-next", class: "small" }, ["Next"]);
  next.addEventListener("click", () => pace.release());
  root.replaceChildren(el("span", { text }), ...(wait ? [next] : []));
}
