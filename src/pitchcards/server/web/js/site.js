// What the home, invitation and history pages share: the words for variants and seats, the
// name this browser last played under, the page header, and the server's table shapes.

import { suitIcon } from "./cards.js";
import { h } from "./dom.js";

/**
 * @typedef {{seat: number, name: string | null, kind: "human" | "bot" | "open",
 *   level?: string | null, connected?: boolean, away?: boolean, host?: boolean}} SeatInfo
 * @typedef {{table: string, variant: string, rules: {name?: string, options?: Record<string, any>, partners?: boolean,
 *   teams?: number[][] | null},
 *   status: "waiting" | "playing" | "over", listed: boolean, money: boolean,
 *   seats: SeatInfo[], seq: number, spectators?: number, invite?: string}} TableInfo
 */

const NAME_KEY = "pitch.name";

/**
 * A variant's name for people: "auction-partners" → "Auction pitch, partners".
 * @param {string} name
 * @returns {string}
 */
export function variantWords(name) {
  const words = /** @type {Record<string, string>} */ ({
    money: "Money game", auction: "Auction pitch", "auction-partners": "Auction pitch, partners",
    setback: "Setback (partners)", "ten-point": "Ten-point pitch (partners)",
    "ten-point-cutthroat": "Ten-point pitch, cutthroat",
  })[name];
  return words ?? name;
}

/**
 * "Seat 3" (seats are 0-based in the protocol, counted from 1 for people).
 * @param {number} seat
 */
export function seatWords(seat) {
  return `Seat ${seat + 1}`;
}

/** The name this browser last took a seat under ("" if none). */
export function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

/** @param {string} name */
export function saveName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // no storage: the name is asked again next time
  }
}

/**
 * The site's header: "♠ Pitch" (a link home unless this is home) and a line under it.
 * @param {{home?: boolean, tagline?: string, heading?: boolean}} [opts] `heading`: the brand is
 *   the page's h1
 * @returns {HTMLElement}
 */
export function siteHeader(opts = {}) {
  const brand = [suitIcon("S", { decorative: true }), "Pitch"];
  const mark = opts.home ? brand : [h("a", { href: "/", class: "home-link" }, brand)];
  return h("header", { class: "site-header" },
    opts.heading ? h("h1", { class: "brand" }, mark) : h("p", { class: "brand" }, mark),
    opts.tagline ? h("p", { class: "muted tagline", text: opts.tagline }) : null);
}
