// The player's cards (docs/web.md `#hand`): one button a card, `data-legal` true only for a card
// this seat may play or pitch now.  While the player chooses a card (`#hand[data-choose]`) the
// legal ones are highlighted and the rest dimmed but still clickable (the server says why a card
// is refused); while they wait or bid, the hand is shown plainly.  The picked one is pressed.  A
// click picks; a second click on the picked card plays (or pitches) it.

import { cardName, cardSvg, suitIcon, suitName } from "./cards.js";
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
    if ((kind === "play" || kind === "pitch" || kind === "discard") && card) cards.add(card);
  }
  return cards;
}

/**
 * How many cards this seat still has to discard (T4: down to six), 0 outside its discard: the
 * server's `discards_left`.
 * @param {View | null} view
 */
export function discardsLeft(view) {
  return view && myTurn(view) ? view.discards_left : 0;
}

/**
 * The hand in the order to show it: the server's (the engine's deck model orders it, as the
 * terminal game shows it).
 * @param {View | null} view
 * @returns {string[]}
 */
export function sortedHand(view) {
  return view ? [...view.hand] : [];
}

/**
 * Whether a card is the off-jack now (a trump shown with a trump mark, T2): the server names it.
 * @param {View | null} view
 * @param {string} card
 */
function isOffJack(view, card) {
  return Boolean(view && view.off_jack && card === view.off_jack);
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
  if (view && view.phase === "discard") return `discard ${card}`;
  return `play ${card}`;
}

/**
 * The hand.
 * @param {HTMLElement} root `#hand`
 * @param {View | null} view
 * @param {string | null} picked the card picked, if any
 * @param {(card: string, index: number) => void} onClick
 * @param {Set<string>} [thrown] the cards chosen to discard (T4), pressed
 */
export function renderHand(root, view, picked, onClick, thrown = new Set()) {
  const cards = sortedHand(view);
  const mine = myTurn(view);
  const legal = legalCards(view);
  // In the auction, cards are only chosen to pitch: when pitching is not offered, or it is not
  // this seat's turn, the hand is shown plainly (no card is legal, none is dimmed).
  const choose = mine && (view !== null && (view.phase === "play" || legal.size > 0));
  const trump = view ? view.trump : null;
  const key = JSON.stringify([cards, [...legal], picked, choose, prefs().fourColour, [...thrown],
    trump]);
  if (root.dataset.key === key) return;
  root.dataset.key = key;
  const active = document.activeElement;
  const focused = active instanceof HTMLElement && root.contains(active) ? active.dataset.card : null;
  root.replaceChildren();
  root.dataset.count = String(cards.length);
  root.dataset.turn = String(mine);
  root.dataset.choose = String(choose);
  root.dataset.discarding = String(discardsLeft(view) > 0);
  cards.forEach((card, index) => {
    const ok = mine && legal.has(card);
    const off = isOffJack(view, card);
    const name = off && trump ? `${cardName(card)}, a trump (${suitName(trump)})` : cardName(card);
    const pressed = view && view.phase === "discard" ? thrown.has(card) : picked === card;
    const button = el("button", {
      type: "button", class: "card", "data-card": card, "aria-label": name,
      "data-legal": String(ok), "aria-pressed": String(pressed),
      "data-off-jack": off ? "true" : null, title: `${index + 1}: ${name}`,
    }, [cardSvg(card, { fourColour: prefs().fourColour, decorative: true }),
      off && trump ? el("span", { class: "trump-mark" }, [suitIcon(trump, { decorative: true })]) : null]);
    button.addEventListener("click", () => onClick(card, index));
    root.append(button);
    if (focused === card) button.focus();
  });
}
