// The player's cards (docs/web.md `#hand`): one button a card, `data-legal` true only for a card
// this seat may play or pitch now.  While the player chooses a card (`#hand[data-choose]`) the
// legal ones are highlighted and the rest dimmed but still clickable (the server says why a card
// is refused); while they wait or bid, the hand is shown plainly.  The picked one is pressed.  A
// click picks; a second click on the picked card plays (or pitches) it.

import { cardName, cardSvg } from "./cards.js";
import { prefs } from "./prefs.js";
import { el } from "./words.js";

/**
 * @typedef {import("./words.js").View} View
 */

/**
 * The cards this seat may play or pitch now (none when it is not its turn).
 * @param {View | null} view
 * @returns {Set<string>}
 */
export function legalCards(view) {
  const cards = new Set();
  if (!view) return cards;
  for (const action of view.legal_actions) {
    const [kind, card] = action.split(" ");
    if ((kind === "play" || kind === "pitch") && card) cards.add(card);
  }
  return cards;
}

/**
 * Whether it is this seat's turn.
 * @param {View | null} view
 */
export function myTurn(view) {
  return Boolean(view && view.seat !== null && view.seat === view.seat_to_act
    && view.phase !== "over");
}

/**
 * The action a card stands for now: pitching it in the auction, else playing it.
 * @param {View | null} view
 * @param {string} card
 */
export function cardAction(view, card) {
  if (view && view.phase === "auction") return `pitch ${card}`;
  return `play ${card}`;
}

/**
 * The hand.
 * @param {HTMLElement} root `#hand`
 * @param {View | null} view
 * @param {string | null} picked the card picked, if any
 * @param {(card: string, index: number) => void} onClick
 */
export function renderHand(root, view, picked, onClick) {
  const cards = view ? view.hand : [];
  const mine = myTurn(view);
  const legal = legalCards(view);
  // In the auction, cards are only chosen to pitch: when pitching is not offered, or it is not
  // this seat's turn, the hand is shown plainly (no card is legal, none is dimmed).
  const choose = mine && (view !== null && (view.phase === "play" || legal.size > 0));
  const key = JSON.stringify([cards, [...legal], picked, choose, prefs().fourColour]);
  if (root.dataset.key === key) return;
  root.dataset.key = key;
  const active = document.activeElement;
  const focused = active instanceof HTMLElement && root.contains(active) ? active.dataset.card : null;
  root.replaceChildren();
  root.dataset.count = String(cards.length);
  root.dataset.turn = String(mine);
  root.dataset.choose = String(choose);
  cards.forEach((card, index) => {
    const ok = mine && legal.has(card);
    const button = el("button", {
      type: "button", class: "card", "data-card": card, "aria-label": cardName(card),
      "data-legal": String(ok), "aria-pressed": String(picked === card),
      title: `${index + 1}: ${cardName(card)}`,
    }, [cardSvg(card, { fourColour: prefs().fourColour, decorative: true })]);
    button.addEventListener("click", () => onClick(card, index));
    root.append(button);
    if (focused === card) button.focus();
  });
}
