// The auction (docs/web.md `#actions`): the bids so far, and when it is the player's turn one
// button a bid — Pass, Bid 1…4, Moon/Smudge — the illegal ones disabled (the View's
// legal_actions say what is allowed: forced dealer bids, steals …).  A pitch is a card: the
// hand's job.

import { bidWord, capital, el, moonWord, ruleOption, sentence } from "./words.js";
import { myTurn } from "./hand.js";

/**
 * @typedef {import("./words.js").View} View
 * @typedef {import("./seats.js").Scene} Scene
 */

/**
 * The bid buttons the table's rules offer, as [data-action, label, the legal action it is].
 * @param {View} view
 * @returns {[string, string, string][]}
 */
export function offeredBids(view) {
  /** @type {[string, string, string][]} */
  const out = [["pass", "Pass", "pass"]];
  const low = Number(ruleOption(view.rules, "min_bid", 1)) || 1;
  for (let value = low; value <= 4; value += 1) out.push([`bid ${value}`, `Bid ${value}`, `bid ${value}`]);
  const moon = ruleOption(view.rules, "moon", "none") !== "none"
    || view.legal_actions.includes("bid moon");
  if (moon) out.push(["moon", capital(moonWord(view.rules)), "bid moon"]);
  return out;
}

/**
 * The bid buttons (only on the player's turn in the auction).
 * @param {HTMLElement} root `#actions`
 * @param {View | null} view
 * @param {string | null} chosen the bid chosen by a key, waiting for Enter
 * @param {boolean} pending an action is on its way
 * @param {(action: string) => void} onBid
 */
export function renderActions(root, view, chosen, pending, onBid) {
  const show = view !== null && view.phase === "auction" && myTurn(view);
  const key = JSON.stringify(show && view ? [view.legal_actions, chosen, pending] : null);
  if (root.dataset.key === key) return;
  root.dataset.key = key;
  root.replaceChildren();
  root.hidden = !show;
  if (!show || !view) return;
  const pitch = view.legal_actions.some((a) => a.startsWith("pitch "));
  for (const [action, label, legal] of offeredBids(view)) {
    const allowed = view.legal_actions.includes(legal);
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
    const first = (view.dealer + 1) % view.players;
    root.append(el("span", { class: "muted", text: sentence(scene.who(first), "bid", "first") }));
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
