// The hand-history viewer's words and stops, from the server's finished hands
// (GET /api/tables/{id}/hands): pure, no DOM — history.js draws them, and node --test checks
// them against the engine's words (tests/js/history.test.js).

import { cardShort } from "./cards.js";
import { actionSentence as sentenceOf, bidWord, moonWord, revealSentence } from "./words.js";

/**
 * @typedef {{leader: number, winner: number, plays: [number, string][]}} Trick
 * @typedef {{rules: import("./words.js").Rules, players: number, sides: number[],
 *   dealer: number, phase: "auction" | "call" | "declare" | "discard" | "play" | "over",
 *   seat_to_act: number | null, called?: string | null, partner?: number | null,
 *   partner_known?: boolean,
 *   auction: [number, string][], high_bid: string | null, high_bidder: number | null,
 *   pitched_card: string | null, pitcher: number | null, contract: string | null,
 *   trump: string | null, tricks: Trick[], trick: [number, string][], leader: number | null,
 *   tricks_won: number[], result: Result | null, scores: number[] | null,
 *   first_to_bid: number}} PublicView
 * @typedef {{pitcher: number | null, bid: number | string | null, made: boolean, moon: boolean,
 *   high: number | null, low: number | null, jack: number | null, game: number | null,
 *   points: number[], deltas: number[], tricks?: number[], game_counts?: number[],
 *   trump?: string | null, high_card?: string | null, low_card?: string | null,
 *   jack_card?: string | null, thrown_in?: boolean, called?: string, partner?: number | null,
 *   extra?: [string, number | null, number][]}} Result
 * @typedef {{seat: number | null, action: string | null, view: PublicView,
 *   hands: string[][]}} Step
 * @typedef {{number: number, dealer: number, names: string[] | null, result: Result | null,
 *   total?: number[] | null, partner_words?: string | null, steps: Step[]}} HandRecord
 */

export const TRICKS = 6;

// ------------------------------------------------------------------ words

/**
 * @param {HandRecord} hand
 * @param {number} seat
 */
export function nameOf(hand, seat) {
  return hand.names?.[seat] || `Seat ${seat + 1}`;
}

/**
 * What a seat did, in a sentence: "Ann bids 3.", "Bob plays the ten of clubs." (words.js)
 * @param {PublicView} view
 * @param {string} who
 * @param {string} action
 */
export function actionSentence(view, who, action) {
  return sentenceOf(view.rules, who, action);
}

/**
 * An auction action, short: "bid 3", "pass", "pitch Q♥".
 * @param {PublicView} view
 * @param {string} action
 */
export function actionShort(view, action) {
  const [kind, arg] = action.split(" ");
  if (kind === "pitch") return `pitch ${cardShort(arg)}`;
  if (kind === "call") return `call ${cardShort(arg)}`;
  if (arg === "moon") return `bid ${moonWord(view.rules)}`;
  return action;
}

/**
 * A side in words: its player, or the partners "Ann & Cy" (the view's `sides` says who).
 * @param {HandRecord} hand
 * @param {number} side
 */
export function sideName(hand, side) {
  const sides = hand.steps[0].view.sides;
  return [...sides.keys()].filter((s) => sides[s] === side).map((s) => nameOf(hand, s))
    .join(" & ");
}

/**
 * A signed number: "+2", "−4", "0".
 * @param {number} n
 */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/**
 * The hand in a line for the list: "Hand 2: Bob bid 4, set".
 * @param {HandRecord} hand
 */
export function handTitle(hand) {
  const r = hand.result;
  const view = hand.steps[hand.steps.length - 1].view;
  if (!r) return `Hand ${hand.number}`;
  if (r.thrown_in || r.pitcher === null) return `Hand ${hand.number}: thrown in`;
  if (r.bid === 0) return `Hand ${hand.number}: ${nameOf(hand, r.pitcher)} led, no bid`;
  // CP3, CP5: the call, and who held the card (public once the hand is over), as worded by
  // the server
  const call = !r.called ? "" : `, called ${cardShort(r.called)}`
    + (hand.partner_words ? ` (${hand.partner_words})` : "");
  return `Hand ${hand.number}: ${nameOf(hand, r.pitcher)} bid ${bidWord(view.rules, r.bid)}${call}, `
    + (r.made ? "made" : "set");
}

// ------------------------------------------------------------------ positions

/**
 * How many tricks are complete, and how many cards of the current one are down.
 * @param {PublicView} view
 */
export function progress(view) {
  return { done: view.tricks.length, cards: view.trick.length };
}

/**
 * Where a step stands, for #position: "The deal (0 of 6 tricks)", "Auction (0 of 6 tricks)",
 * "Trick 3 of 6, card 2", "Trick 3 of 6", "Trick 6 of 6: scored".
 * @param {HandRecord} hand
 * @param {number} index
 */
export function positionWords(hand, index) {
  const step = hand.steps[index];
  const view = step.view;
  const { done, cards } = progress(view);
  const last = index === hand.steps.length - 1;
  if (last && (hand.result?.thrown_in || (done === 0 && cards === 0))) {
    return `Thrown in (0 of ${TRICKS} tricks)`;
  }
  if (index === 0) return `The deal (0 of ${TRICKS} tricks)`;
  if (view.phase === "auction") return `Auction, bid ${auctionCount(view)} (0 of ${TRICKS} tricks)`;
  // CP3: the pitcher calls a card between the auction and the first lead
  if (view.phase === "call") return `Auction over, the call next (0 of ${TRICKS} tricks)`;
  // CP3: the call step says so; where it leaves the play is the view's (its trick and tricks)
  const called = step.action?.startsWith("call ");
  if (done === 0 && cards === 0) {
    return `${called ? "Partner called" : "Auction over"} (0 of ${TRICKS} tricks)`;
  }
  if (cards > 0) {
    return `${called ? "Partner called, trick" : "Trick"} ${done + 1} of ${TRICKS}, card ${cards}`;
  }
  if (last) return `Trick ${done} of ${TRICKS}: scored`;
  return `Trick ${done} of ${TRICKS}`;
}

/**
 * What a step revealed (CP5), from the server's facts alone: the step whose view first knows
 * the partner (the called card played, or the hand over with it never played) says who it
 * was, "The A♥ is out: Cy is Ann's partner!"; every other step "".
 * @param {HandRecord} hand
 * @param {number} index
 */
export function revealAt(hand, index) {
  if (index === 0) return "";
  const view = hand.steps[index].view;
  if (!view.partner_known || hand.steps[index - 1].view.partner_known) return "";
  return revealSentence(/** @type {any} */ (view), (seat) => nameOf(hand, seat));
}

/** @param {PublicView} view */
export function auctionCount(view) {
  return view.auction.length;
}

/**
 * The steps "by trick" stops at: the deal, the end of the auction, the call, the reveal of the
 * partner (call-your-partner), each trick's last card, the end.
 * @param {HandRecord} hand
 * @returns {number[]}
 */
export function trickStops(hand) {
  const stops = [0];
  let tricks = 0;
  hand.steps.forEach((step, i) => {
    const view = step.view;
    if (i > 0 && view.phase !== "auction" && hand.steps[i - 1].view.phase === "auction") {
      stops.push(i);
    }
    if (view.tricks.length > tricks) {
      tricks = view.tricks.length;
      stops.push(i);
    }
    if (i > 0 && ((view.called && !hand.steps[i - 1].view.called) || revealAt(hand, i))) {
      stops.push(i);
    }
  });
  const end = hand.steps.length - 1;
  if (stops[stops.length - 1] !== end) stops.push(end);
  return [...new Set(stops)].sort((a, b) => a - b);
}
