// The middle of the table: trump, the trick in play (each card in front of who played it), the
// high bid during the auction, and the last trick on demand (docs/web.md: `#trump`, `#trick`,
// `#last-trick`).

import { cardSvg, suitIcon, suitName } from "./cards.js";
import { prefs } from "./prefs.js";
import { bidWord, cardShort, el, sentence } from "./words.js";
import { place } from "./seats.js";

/**
 * @typedef {import("./seats.js").Scene} Scene
 * @typedef {import("./state.js").TableState} TableState
 * @typedef {import("./words.js").Trick} Trick
 */

/**
 * Trump in words and symbol, or nothing before it is known.
 * @param {HTMLElement} root `#trump`
 * @param {TableState} state
 */
export function renderTrump(root, state) {
  const trump = state.view ? state.view.trump : null;
  if (root.dataset.suit === (trump || "")) return;
  root.replaceChildren();
  root.dataset.suit = trump || "";
  if (!trump) return;
  // the suit's coloured symbol and its name ("Trump ♥ hearts"), the symbol once
  const icon = suitIcon(trump, { decorative: true });
  icon.dataset.suit = trump;
  root.append(el("span", { class: "label", text: "Trump " }), icon, el("span", { class: "suit-words", text: suitName(trump) }));
}

/**
 * The cards of the trick in play; between tricks the one just won stays until the next lead
 * (as in the terminal game), its winner marked.
 * @param {HTMLElement} root `#trick`
 * @param {TableState} state
 * @param {Scene} scene
 * @param {Trick | null} [held] a finished trick the felt still shows (pace.js), whatever came
 *   after it
 */
export function renderTrick(root, state, scene, held = null) {
  const view = scene.view;
  /** @type {[number, string][]} */
  let cards = [];
  let winner = null;
  if (held && view) {
    cards = held.plays;
    winner = held.winner;
  } else if (view && view.phase !== "auction") {
    if (view.trick.length) {
      cards = view.trick;
    } else if (view.tricks.length) {
      const last = view.tricks[view.tricks.length - 1];
      cards = last.plays;
      winner = last.winner;
    }
  }
  const key = JSON.stringify([cards, winner, scene.me, prefs().fourColour]);
  if (root.dataset.key === key) return;
  root.dataset.key = key;
  root.replaceChildren();
  root.dataset.done = String(winner !== null);
  root.setAttribute("aria-label", winner !== null ? "The last trick" : "The trick");
  for (const [seat, card] of cards) {
    const where = place(scene, seat, 0.3, 0.36);  // until placeTrick measures the seats
    const face = cardSvg(card, { fourColour: prefs().fourColour, decorative: true });
    const node = el("div", {
      class: "played", "data-seat": seat, "data-card": card, "data-winner": seat === winner,
      role: "img", "aria-label": `${scene.who(seat)}: ${cardShort(card)}`,
    }, [face]);
    node.style.left = `${where.x}%`;
    node.style.top = `${where.y}%`;
    root.append(node);
  }
}

/** Room kept between a card and a seat's name tag, in pixels. */
const GAP = 4;
/** @type {WeakMap<HTMLElement, Map<string, {x: number, y: number}>>} where each card was put */
const placed = new WeakMap();

/**
 * @typedef {{l: number, t: number, r: number, b: number}} Box
 * @param {Box} a
 * @param {Box} b
 */
function overlap(a, b) {
  const w = Math.min(a.r, b.r) - Math.max(a.l, b.l);
  const h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Put each card of the trick between its player's name tag and the middle of the felt: on the
 * line from the middle to the seat, as close to a compact cross as the tags allow, moved in
 * or out until it covers no tag (and, with six to eight players, as little of the other cards
 * as it can).  A card stays where it is while that is still clear, so nothing jumps when a
 * tag's text changes.  Called after every render and when the felt changes size.
 * @param {HTMLElement} root `#trick` (it covers the same box as `#seats`)
 * @param {HTMLElement} seats `#seats`
 * @param {Scene} scene
 */
export function placeTrick(root, seats, scene) {
  const nodes = /** @type {HTMLElement[]} */ ([...root.querySelectorAll(".played")]);
  const width = root.clientWidth;
  const height = root.clientHeight;
  if (!nodes.length || !width || !height) return;
  const box = root.getBoundingClientRect();
  const tags = [...seats.querySelectorAll(".seat")].map((tag) => {
    const r = tag.getBoundingClientRect();
    return { l: r.left - box.left - GAP, t: r.top - box.top - GAP, r: r.right - box.left + GAP, b: r.bottom - box.top + GAP };
  });
  const cw = nodes[0].offsetWidth;
  const ch = nodes[0].offsetHeight;
  const cx = width / 2;
  const cy = height / 2;
  // four or five: a compact cross, as far from the middle as a card is wide, a little more up
  // and down; six to eight: a wider ring, so that the cards overlap each other less
  const many = scene.players > 5;
  const rx = many ? 0.27 * width : Math.min(0.15 * width, cw * 1.25 + 12);
  const ry = many ? 0.3 * height : Math.min(0.2 * height, ch * 0.95 + 6);
  const before = placed.get(root) || new Map();
  const after = new Map();
  /** @type {Box[]} */
  const cards = [];
  /** @param {{x: number, y: number}} p */
  const boxAt = (p) => ({ l: p.x - cw / 2, t: p.y - ch / 2, r: p.x + cw / 2, b: p.y + ch / 2 });
  /** @param {{x: number, y: number}} p */
  const cost = (p) => {
    const b = boxAt(p);
    let c = 0;
    for (const tag of tags) c += 4 * overlap(b, tag);
    for (const card of cards) c += overlap(b, card);
    return c;
  };
  for (const node of nodes) {
    const seat = Number(node.dataset.seat);
    const k = (seat - scene.me + scene.players) % scene.players;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / scene.players;
    const dx = rx * Math.cos(angle);
    const dy = ry * Math.sin(angle);
    let best = { x: cx + dx, y: cy + dy };
    let bestCost = Infinity;
    for (let step = 0; step <= 16; step += 1) {
      // 1, 0.92, 1.05, 0.84, 1.1 … from the cross in towards the middle, out towards the tags
      const t = step % 2 ? 1 - Math.ceil(step / 2) * 0.08 : 1 + (step / 2) * 0.05;
      const p = {
        x: Math.min(width - cw / 2, Math.max(cw / 2, cx + t * dx)),
        y: Math.min(height - ch / 2, Math.max(ch / 2, cy + t * dy)),
      };
      const c = cost(p) + Math.abs(1 - t) * cw * 2;
      if (c < bestCost) {
        best = p;
        bestCost = c;
      }
    }
    const key = `${seat} ${node.dataset.card}`;
    const old = before.get(key);
    if (old && cost(old) <= bestCost) best = old;
    after.set(key, best);
    cards.push(boxAt(best));
    node.style.left = `${Math.round(best.x)}px`;
    node.style.top = `${Math.round(best.y)}px`;
  }
  placed.set(root, after);
}

/**
 * What the middle says beside the cards: the high bid during the auction, the contract and the
 * trick number in play, who took the trick just won.
 * @param {HTMLElement} root
 * @param {TableState} state
 * @param {Scene} scene
 */
export function renderCentre(root, state, scene) {
  const view = scene.view;
  let text = "";
  if (!view) {
    text = !(state.table && state.table.status === "waiting") ? ""
      : state.you && state.you.host ? "Not started yet" : "Waiting for the host to start";
  } else if (view.phase === "auction") {
    text = view.high_bid !== null && view.high_bidder !== null
      ? `High bid ${bidWord(view.rules, view.high_bid)}: ${scene.who(view.high_bidder)}`
      : "No bid yet";
  } else if (view.phase === "play") {
    const parts = [];
    if (view.pitcher !== null && view.contract !== null) {
      parts.push(sentence(scene.who(view.pitcher), "bid (past)", bidWord(view.rules, view.contract))
        + (view.trump ? "" : "; trump: the first lead"));
    }
    if (!view.trick.length && view.tricks.length) {
      const last = view.tricks[view.tricks.length - 1];
      parts.push(sentence(scene.who(last.winner), "take", "the trick"));
    } else {
      parts.push(`trick ${Math.min(view.tricks.length + 1, 6)} of 6`);
    }
    text = parts.join(" · ");
  } else if (view.result) {
    text = "Hand over";
  }
  if (root.textContent !== text) root.textContent = text;
}

/**
 * The last trick, in play order, and who took it (shown on demand).
 * @param {HTMLElement} root
 * @param {Trick | null} trick
 * @param {Scene} scene
 */
export function renderLastTrick(root, trick, scene) {
  root.replaceChildren();
  if (!trick) {
    root.append(el("p", { text: "No trick has been finished in this hand yet." }));
    return;
  }
  const list = el("ol", { class: "last-trick-cards" });
  for (const [seat, card] of trick.plays) {
    list.append(el("li", { "data-seat": seat, "data-card": card, "data-winner": seat === trick.winner }, [
      cardSvg(card, { fourColour: prefs().fourColour, decorative: true }),
      el("span", { text: `${scene.who(seat)}: ${cardShort(card)}` }),
    ]));
  }
  root.append(list, el("p", { text: sentence(scene.who(trick.winner), "take", "it") + "." }));
}
