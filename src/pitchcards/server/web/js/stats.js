// Your statistics on this device (issue 30), as the terminal game's `i` screen (tui/stats.py):
// per variant, matches, wins, hands, points (your side's score change), contracts bid and made,
// moons made.  Kept in localStorage ("pitch.stats"); counted at the table page from the
// server's events — hand_scored's result, match_won's winner, settled's payouts — and the
// seat's side as the server says it (TableInfo seats' `side`): nothing here scores a hand.
// Each hand and match counts once, however many pages saw it.

import { h } from "./dom.js";
import { variantWords } from "./site.js";

const KEY = "pitch.stats";
/** How many counted hands and matches are remembered, so a second page counts none again. */
const SEEN_KEPT = 400;

/**
 * @typedef {{matches: number, wins: number, hands: number, points: number, bids: number,
 *   made: number, moons: number}} Stats
 * @typedef {{version: 1, variants: Record<string, Stats>, seen: string[]}} StatsFile
 * @typedef {import("./words.js").HandResult} HandResult
 */

/** @returns {Stats} */
function zero() {
  return { matches: 0, wins: 0, hands: 0, points: 0, bids: 0, made: 0, moons: 0 };
}

/**
 * The statistics kept in this browser (empty if none, or not readable).
 * @returns {StatsFile}
 */
export function loadStats() {
  /** @type {StatsFile} */
  const out = { version: 1, variants: {}, seen: [] };
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "null");
    if (!data || data.version !== 1 || typeof data.variants !== "object") return out;
    for (const [name, raw] of Object.entries(data.variants || {})) {
      const stats = zero();
      for (const field of /** @type {(keyof Stats)[]} */ (Object.keys(stats))) {
        const value = raw && raw[field];
        if (Number.isInteger(value) && value >= 0) stats[field] = value;
        else if (field === "points" && Number.isInteger(value)) stats[field] = value;
      }
      out.variants[name] = stats;
    }
    if (Array.isArray(data.seen)) out.seen = data.seen.filter((/** @type {unknown} */ s) => typeof s === "string");
  } catch {
    // no storage, or not ours: a fresh start
  }
  return out;
}

/**
 * Count something once (by `key`), and keep it.
 * @param {string} key
 * @param {string} variant
 * @param {(stats: Stats) => void} change
 */
function count(key, variant, change) {
  const file = loadStats();
  if (file.seen.includes(key)) return;
  file.seen.push(key);
  if (file.seen.length > SEEN_KEPT) file.seen.splice(0, file.seen.length - SEEN_KEPT);
  const stats = file.variants[variant] || zero();
  change(stats);
  file.variants[variant] = stats;
  try {
    localStorage.setItem(KEY, JSON.stringify(file));
  } catch {
    // storage full or refused: statistics never stop a game
  }
}

/**
 * A hand was scored at a table where this browser holds `seat`, on `side`.
 * @param {string} table
 * @param {number} hand the hand's index (hand_scored's `hand`)
 * @param {string} variant
 * @param {HandResult} result the server's result
 * @param {number} seat
 * @param {number | null} side null if the server did not say
 */
export function countHand(table, hand, variant, result, seat, side) {
  count(`${table}:hand:${hand}`, variant, (stats) => {
    stats.hands += 1;
    if (side !== null) stats.points += result.deltas[side] || 0;
    if (result.pitcher === seat) {
      stats.bids += 1;
      stats.made += result.made ? 1 : 0;
      stats.moons += result.moon && result.made ? 1 : 0;
    }
  });
}

/**
 * A match (or a money session) ended for this browser's seat.
 * @param {string} table
 * @param {string} variant
 * @param {boolean} won
 */
export function countMatch(table, variant, won) {
  count(`${table}:match`, variant, (stats) => {
    stats.matches += 1;
    stats.wins += won ? 1 : 0;
  });
}

/**
 * The statistics panel (`#stats`): a row per variant played on this device.
 * @returns {HTMLElement}
 */
export function statsPanel() {
  const file = loadStats();
  const names = Object.keys(file.variants).sort();
  const body = h("tbody", {});
  for (const name of names) {
    const s = file.variants[name];
    body.append(h("tr", { "data-variant": name },
      h("th", { scope: "row", text: variantWords(name) }),
      h("td", { "data-stat": "matches", text: String(s.matches) }),
      h("td", { "data-stat": "wins", text: String(s.wins) }),
      h("td", { "data-stat": "made", text: `${s.made} of ${s.bids}` }),
      h("td", { "data-stat": "per-hand", text: s.hands ? (s.points / s.hands).toFixed(2) : "–" })));
  }
  return h("section", { id: "stats", class: "panel", "aria-labelledby": "stats-title" },
    h("h2", { id: "stats-title", text: "Your statistics" }),
    h("p", { class: "hint", text: "The matches played in this browser, on this device only." }),
    names.length
      ? h("div", { class: "stats-scroll" }, h("table", { class: "stats-table" },
        h("thead", {}, h("tr", {},
          h("th", { scope: "col", text: "Game" }), h("th", { scope: "col", text: "Matches" }),
          h("th", { scope: "col", text: "Wins" }), h("th", { scope: "col", text: "Contracts made" }),
          h("th", { scope: "col", text: "Points a hand" }))),
        body))
      : h("p", { class: "muted", text: "No hand played here yet." }));
}

/**
 * Count a table event for this browser's seat (the table page calls it for every event).
 * @param {string} table
 * @param {import("./state.js").TableEvent} event
 * @param {import("./state.js").TableState} state the state after it
 */
export function countEvent(table, event, state) {
  const you = state.you;
  if (!you || you.role !== "player" || !["hand_scored", "match_won", "settled"].includes(event.type)) return;
  const view = state.view;
  const seat = view && view.seat !== null ? view.seat : you.seat;
  const variant = state.table ? state.table.variant : view ? view.rules.name : "";
  if (seat === null || !variant) return;
  const info = /** @type {{side?: number | null} | undefined} */ (
    state.table ? state.table.seats.find((s) => s.seat === seat) : undefined);
  const side = info && typeof info.side === "number" ? info.side : null;
  if (event.type === "hand_scored" && event.result) {
    countHand(table, Number(event.hand), variant, event.result, seat, side);
  } else if (event.type === "match_won") {
    countMatch(table, variant, side !== null && event.winner === side);
  } else if (event.type === "settled") {
    // a money session: won if paid more than nothing (as the terminal game counts it)
    const cents = event.payout_cents && you.name ? event.payout_cents[you.name] : null;
    countMatch(table, variant, typeof cents === "number" && cents > 0);
  }
}
