// The auction (docs/web.md `#actions`): the bids so far, and when it is the player's turn one
// button a bid — Pass, Bid 1…4, Moon/Smudge (the rules' ladder, from the server) — the illegal ones disabled (the View's
// legal_actions say what is allowed: forced dealer bids, steals …).  A pitch is a card: the
// hand's job.  In the ten-point family the same place holds the bids 4…10 (a compact row that
// wraps on a phone), then the pitcher's four trump buttons (the declare step, T5) and the
// "Discard N" button of the discard step (T4: the cards are chosen in the hand).  Under
// call-your-partner the pitcher's call (CP3): the calls the server offers (its legal actions),
// a row of cards a suit; a tap chooses one, the "Call …" button sends it.

import { bidWord, capital, el, sentence } from "./words.js";
import { discardsLeft, myTurn } from "./hand.js";
import { SUITS, cardShort, cardName, parseCard, suitIcon, suitName } from "./cards.js";

/**
 * @typedef {import("./words.js").View} View
 * @typedef {import("./seats.js").Scene} Scene
 */

/**
 * The bid buttons the table's rules offer, as [the legal action, its label]: Pass, then the
 * rules' bid ladder (the server's `rules.bids`, each with its word).
 * @param {View} view
 * @returns {[string, string][]}
 */
export function offeredBids(view) {
  /** @type {[string, string][]} */
  const out = [["pass", "Pass"]];
  for (const [action, word] of view.rules.bids) {
    out.push([action, action === "bid moon" ? capital(word) : `Bid ${word}`]);
  }
  return out;
}

/**
 * The bid buttons (only on the player's turn in the auction).
 * @param {HTMLElement} root `#actions`
 * @param {View | null} view
 * @param {string | null} chosen the bid chosen by a key, waiting for Enter
 * @param {boolean} pending an action is on its way
 * @param {(action: string) => void} onBid
 * @param {Set<string>} [thrown] the cards chosen to discard
 * @param {(cards: string[]) => void} [onDiscard] discard them, one action a card
 * @param {(action: string) => void} [onChoose] choose a call, waiting for its button (CP3)
 */
export function renderActions(root, view, chosen, pending, onBid, thrown = new Set(),
  onDiscard = () => {}, onChoose = () => {}) {
  const phase = view !== null && myTurn(view) ? view.phase : null;
  const show = phase === "auction" || phase === "declare" || phase === "call"
    || (phase === "discard" && discardsLeft(view) > 0);
  const key = JSON.stringify(show && view ? [view.legal_actions, chosen, pending, [...thrown]] : null);
  if (root.dataset.key === key) return;
  root.dataset.key = key;
  root.replaceChildren();
  root.hidden = !show;
  root.dataset.step = show && phase ? phase : "";
  if (!show || !view) return;
  if (phase === "declare") {
    root.setAttribute("aria-label", "Name trump");
    renderDeclare(root, view, pending, onBid);
    return;
  }
  if (phase === "call") {
    root.setAttribute("aria-label", "Call your partner's card");
    renderCall(root, view, chosen, pending, onBid, onChoose);
    return;
  }
  if (phase === "discard") {
    root.setAttribute("aria-label", "Your discard");
    renderDiscard(root, view, pending, thrown, onDiscard);
    return;
  }
  root.setAttribute("aria-label", "Your bid");
  root.classList.toggle("many", offeredBids(view).length > 6);
  const pitch = view.legal_actions.some((a) => a.startsWith("pitch "));
  for (const [action, label] of offeredBids(view)) {
    const allowed = view.legal_actions.includes(action);
    const button = el("button", {
      type: "button", class: "bid", "data-action": action, disabled: !allowed || pending,
      "aria-pressed": String(chosen === action),
    }, [label]);
    button.addEventListener("click", () => onBid(action));
    root.append(button);
  }
  if (pitch) {
    root.append(el("span", { class: "hint", text: "…or pitch a card: tap it twice." }));
  }
}

/**
 * The pitcher names trump (T5): four big suit buttons, "Hearts ♥".
 * @param {HTMLElement} root
 * @param {View} view
 * @param {boolean} pending
 * @param {(action: string) => void} onAct
 */
function renderDeclare(root, view, pending, onAct) {
  for (const suit of SUITS) {
    const action = `trump ${suit}`;
    const button = el("button", {
      type: "button", class: `trump-suit suit-${suit}`, "data-action": action,
      disabled: !view.legal_actions.includes(action) || pending,
    }, [suitIcon(suit, { decorative: true }), el("span", { text: capital(suitName(suit)) })]);
    button.addEventListener("click", () => onAct(action));
    root.append(button);
  }
}

/**
 * The call (CP3): the cards the server offers to call (its legal `call X` actions, each with
 * its label), a row a suit (the jokers last), then the button that sends the one chosen.
 * @param {HTMLElement} root
 * @param {View} view
 * @param {string | null} chosen the call chosen, waiting for the button
 * @param {boolean} pending
 * @param {(action: string) => void} onAct
 * @param {(action: string) => void} onChoose
 */
function renderCall(root, view, chosen, pending, onAct, onChoose) {
  const calls = view.legal_actions.filter((a) => a.startsWith("call "));
  /** @type {Map<string, string[]>} the calls by suit, "" for the jokers */
  const bySuit = new Map([...SUITS, ""].map((suit) => [suit, []]));
  for (const action of calls) {
    const card = action.slice("call ".length);
    const parsed = parseCard(card);
    /** @type {string[]} */ (bySuit.get(parsed ? parsed.suit : "")).push(action);
  }
  for (const [suit, actions] of bySuit) {
    if (!actions.length) continue;
    const row = el("div", { class: "call-suit", role: "group",
      "aria-label": suit ? capital(suitName(suit)) : "Jokers", "data-suit": suit });
    for (const action of actions) {
      const card = action.slice("call ".length);
      const button = el("button", {
        type: "button", class: `call-card${suit ? ` suit-${suit}` : ""}`, "data-action": action,
        "data-card": card, "aria-pressed": String(chosen === action), disabled: pending,
        // the card in words after its short text (the name read holds the text shown)
      }, [cardShort(card), el("span", { class: "visually-hidden", text: ` (${cardName(card)})` })]);
      button.addEventListener("click", () => onChoose(action));
      row.append(button);
    }
    root.append(row);
  }
  const ready = chosen !== null && calls.includes(chosen);
  const go = el("button", {
    type: "button", class: "call-go", "data-action": ready ? chosen : "call",
    disabled: !ready || pending,
  }, [ready ? `Call ${cardShort(/** @type {string} */ (chosen).slice("call ".length))}` : "Call"]);
  go.addEventListener("click", () => { if (ready && chosen) onAct(chosen); });
  root.append(go);
}

/**
 * The discard step (T4): how many cards are left to choose, and the button that throws them
 * once exactly that many are chosen in the hand.
 * @param {HTMLElement} root
 * @param {View} view
 * @param {boolean} pending
 * @param {Set<string>} thrown
 * @param {(cards: string[]) => void} onDiscard
 */
function renderDiscard(root, view, pending, thrown, onDiscard) {
  const need = discardsLeft(view);
  const left = need - thrown.size;
  // the prompt says what the step needs; beside the button only how far it is (issue 30)
  root.append(el("span", {
    class: "discard-count", "data-left": left, text: `${thrown.size} of ${need} chosen`,
  }));
  const button = el("button", {
    type: "button", class: "discard-go", "data-action": "discard",
    disabled: left !== 0 || pending,
  }, [`Discard ${need}`]);
  button.addEventListener("click", () => onDiscard([...thrown]));
  root.append(button);
}

/**
 * The auction so far: "Ann passes · Bob bids 2 · You bid 3".
 * @param {HTMLElement} root
 * @param {View | null} view
 * @param {Scene} scene
 */
export function renderAuction(root, view, scene) {
  root.replaceChildren();
  if (!view) return;
  if (view.phase !== "auction") return;
  if (!view.auction.length) {
    root.append(el("span", { class: "muted",
      text: sentence(scene.who(view.first_to_bid), "bid", "first") }));
    return;
  }
  const list = el("ol", { class: "auction-list", "aria-label": "The auction" });
  for (const [seat, action] of view.auction) {
    const [kind, arg] = action.split(" ");
    const words = kind === "pass" ? sentence(scene.who(seat), "pass")
      : kind === "pitch" ? sentence(scene.who(seat), "pitch")
        : sentence(scene.who(seat), "bid", bidWord(view.rules, arg));
    list.append(el("li", { "data-seat": seat, text: words }));
  }
  root.append(list);
}
