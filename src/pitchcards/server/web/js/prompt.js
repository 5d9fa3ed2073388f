// The player's prompt line (the terminal game's): what they are waiting for or may do now, and
// what waits for the next break between hands at a money table.

import { discardsLeft, myTurn } from "./hand.js";
import { leftText, myLeave } from "./payments.js";
import { actionLabel, cardShort, count, moonWord, sentence } from "./words.js";

/**
 * @typedef {import("./state.js").TableState} TableState
 * @typedef {import("./seats.js").Scene} Scene
 * @typedef {{picked: string | null, chosen: string | null, thrown?: Set<string>}} Chosen
 */

/**
 * What waits for the next break between hands (money tables): "At the next break: Zed joins,
 * Bob leaves, the money is settled."
 * @param {TableState} state
 */
export function breakText(state) {
  const pending = state.table && state.table.pending ? state.table.pending : [];
  if (!pending.length || state.payouts !== null) return "";
  const words = pending.map((entry) => {
    const [op, ...rest] = entry.split(" ");
    const name = rest.join(" ");
    if (op === "settle") return "the money is settled";
    if (op === "join") return `${name} joins`;
    if (op === "leave") return `${name} leaves`;
    return entry;
  });
  return `At the next break: ${words.join(", ")}.`;
}

/**
 * What the player is waiting for or may do now, in words.
 * @param {TableState} state
 * @param {Scene} scene
 * @param {Chosen} choice
 */
export function promptText(state, scene, choice) {
  const view = state.view;
  const status = state.table ? state.table.status : null;
  if (state.connection === "closed") return state.connectionWords;
  const left = myLeave(state);
  if (left) return leftText(left);
  if (status === "waiting" || (!view && status !== "over")) {
    if (state.you && state.you.host) return "Everyone seated? Start the game when you are ready.";
    return "Waiting for the host to start the game…";
  }
  if (status === "over" || state.winner !== null || state.payouts !== null) {
    // the winner is a side (both partners): the summary and #live name it, by the side's names
    if (state.winner !== null && view) return "The match is over.";
    if (state.payouts !== null) return "The money is settled: the game is over.";
    return "The game is over.";
  }
  if (!view) return "";
  if (view.phase === "over") return "Hand over. The next hand is dealt in a moment.";
  if (state.you && state.you.role === "player" && !scene.seated) {
    return "You take your seat at the next break between hands.";
  }
  if (state.pending) return "";
  const to = view.seat_to_act;
  if (myTurn(view)) {
    if (view.phase === "auction") {
      const pitch = view.legal_actions.some((a) => a.startsWith("pitch "));
      if (choice.chosen) {
        return `Enter: ${actionLabel(view.rules, choice.chosen).toLowerCase()}`
          + " (or choose again).";
      }
      // the digits of the bids the server offers now (its legal actions), p, m: no key on a
      // touch screen
      const digits = view.legal_actions.map((a) => /^bid (\d)$/.exec(a)).filter((m) => m !== null)
        .map((m) => /** @type {RegExpExecArray} */ (m)[1]);
      const keys = [...digits, ...(view.legal_actions.includes("pass") ? ["p"] : []),
        ...(view.legal_actions.includes("bid moon") ? [`m (${moonWord(view.rules)})`] : [])];
      return `Your bid: choose one${pitch ? ", or pitch a card to lead it" : ""}.`
        + (touchScreen() || !keys.length ? "" : ` Keys: ${keys.join(", ")}.`);
    }
    if (view.phase === "declare") return "You won the bid: name trump.";
    if (view.phase === "call") {
      return choice.chosen ? `Press "${actionLabel(view.rules, choice.chosen)}" to call it (or choose another).`
        : "You won the bid: call a card. Whoever holds it is your secret partner.";
    }
    if (view.phase === "discard") {
      const need = discardsLeft(view);
      const left = need - (choice.thrown ? choice.thrown.size : 0);
      return left > 0 ? `Discard ${count(need, "card")} face down: tap ${count(left, "more card")}.`
        : `Press "Discard ${need}" (or tap a card to change your mind).`;
    }
    if (choice.picked) {
      return `Your turn: tap ${cardShort(choice.picked)} again${touchScreen() ? "" : " or press Enter"} to play it.`;
    }
    return touchScreen() ? "Your turn: tap a card, then tap it again to play it."
      : "Your turn: choose a card (← → or 1-6), then Enter.";
  }
  if (to === null) return "";
  const info = scene.info(to);
  if (view.phase === "declare") return `${sentence(scene.who(to), "be", "naming trump")}…`;
  if (view.phase === "call") return `${sentence(scene.who(to), "be", "calling a partner")}…`;
  if (view.phase === "discard") return `${sentence(scene.who(to), "be", "discarding")}…`;
  if (info && info.kind === "human" && !info.away) {
    return `Waiting for ${scene.who(to)}${info.connected ? "" : " (offline)"}…`;
  }
  return `${sentence(scene.who(to), "think")}…`;
}

/** Whether this is a touch screen without a mouse (a phone): no key hints there. */
export function touchScreen() {
  return Boolean(window.matchMedia?.("(hover: none) and (pointer: coarse)").matches);
}
