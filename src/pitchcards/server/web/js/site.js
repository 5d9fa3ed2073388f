// What the home, invitation and history pages share: the words for variants and seats, the
// name this browser last played under, the page header (with the account link), and the
// server's table shapes.

import { api } from "./api.js";
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
    "three-teams": "Auction pitch, three teams of two",
    "call-partner": "Auction pitch, call your partner",
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
 * The site's header: "♠ Pitch" (a link home unless this is home), a line under it, and with
 * `account` the account link (`#account-link`, see {@link accountLink}; a promise: the answer
 * of {@link signedIn} the page already asked for).
 * @param {{home?: boolean, tagline?: string, heading?: boolean,
 *   account?: boolean | Promise<Me | null>}} [opts] `heading`: the brand is the page's h1
 * @returns {HTMLElement}
 */
export function siteHeader(opts = {}) {
  const brand = [suitIcon("S", { decorative: true }), "Pitch"];
  const mark = opts.home ? brand : [h("a", { href: "/", class: "home-link" }, brand)];
  return h("header", { class: "site-header" },
    opts.heading ? h("h1", { class: "brand" }, mark) : h("p", { class: "brand" }, mark),
    opts.tagline ? h("p", { class: "muted tagline", text: opts.tagline }) : null,
    opts.account ? accountLink(opts.account === true ? undefined : opts.account) : null);
}

/**
 * @typedef {{name: string, created: number, via: "session" | "token"}} Me
 */

/**
 * Who this browser is signed in as (`GET /api/me`), or null: a guest (or the server cannot be
 * reached: the page then offers to sign in, as to a guest).
 * @returns {Promise<Me | null>}
 */
export async function signedIn() {
  try {
    return /** @type {Me} */ (await api("GET", "/api/me"));
  } catch {
    return null;
  }
}

/**
 * The account link: "Sign in" to `/account` for a guest; once the server says who is signed
 * in, their name, to the same page (`data-signed-in` then holds the name).
 * @param {Promise<Me | null>} [who] an answer the page already asked for
 * @returns {HTMLAnchorElement}
 */
export function accountLink(who = signedIn()) {
  const link = h("a", { id: "account-link", class: "account-link", href: "/account",
    text: "Sign in" });
  who.then((me) => {
    if (!me) return;
    link.textContent = me.name;  // text: a name is never markup
    link.setAttribute("data-signed-in", me.name);
    link.setAttribute("aria-label", `Your account: ${me.name}`);
  });
  return link;
}

/**
 * "1st", "2nd", "3rd", "11th" … (a place, in words).
 * @param {number} n
 */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th"
    : /** @type {Record<number, string>} */ ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] ?? "th";
  return `${n}${suffix}`;
}
