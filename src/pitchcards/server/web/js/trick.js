// The middle of the table: trump, the trick in play (each card in front of who played it), the
// high bid during the auction, and the last trick on demand (docs/web.md: `#trump`, `#trick`,
// `#last-trick`).

import { cardSvg, suitIcon } from "./cards.js";
import { prefs } from "./prefs.js";
import { bidWord, cardShort, el, sentence, suitWords } from "./words.js";
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
  root.append(el("span", { class: "label", text: "Trump " }),
    suitIcon(trump, { decorative: true }), el("span", { class: "suit-words", text: suitWords(trump) }));
}

/**
 * The cards of the trick in play; between tricks the one just won stays until the next lead
 * (as in the terminal game), its winner marked.
 * @param {HTMLElement} root `#trick`
 * @param {TableState} state
 * @param {Scene} scene
 */
export function renderTrick(root, state, scene) {
  const view = scene.view;
  /** @type {[number, string][]} */
  let cards = [];
  let winner = null;
  if (view && view.phase !== "auction") {
    if (view.trick.length) {
      cards = view.trick;
    } else if (view.tricks.length) {
      const last = view.tricks[view.tricks.length - 1];
      cards = last.cards.map((card, i) => [(last.leader + i) % view.players, card]);
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
    const where = place(scene, seat, 0.3, 0.36);
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
    text = state.table && state.table.status === "waiting" ? "Waiting for the host to start"
      : "";
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
  trick.cards.forEach((card, i) => {
    const seat = (trick.leader + i) % scene.players;
    list.append(el("li", { "data-seat": seat, "data-card": card, "data-winner": seat === trick.winner }, [
      cardSvg(card, { fourColour: prefs().fourColour, decorative: true }),
      el("span", { text: `${scene.who(seat)}: ${cardShort(card)}` }),
    ]));
  });
  root.append(list, el("p", { text: sentence(scene.who(trick.winner), "take", "it") + "." }));
}
