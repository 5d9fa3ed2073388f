// The `#live` region (docs/web.md): one sentence per play, trick and result, for screen
// readers — and on screen, the table's last news line, like the terminal game's message line.

import { actionSentence, callWords, count, el, outcomeSentence, revealSentence, sentence, sideName } from "./words.js";
import { newsText } from "./scoresheet.js";
import { sceneOf } from "./seats.js";
import { myTurn } from "./hand.js";

/**
 * @typedef {import("./state.js").TableEvent} TableEvent
 * @typedef {import("./state.js").TableState} TableState
 * @typedef {import("./words.js").View} View
 */

/** How many sentences stay in the region. */
const KEPT = 4;

/**
 * The sentence an event is said in (null: nothing worth saying).
 * @param {TableEvent} event
 * @param {TableState} state the state after it
 * @param {View | null} before the view before it
 * @returns {string | null}
 */
export function eventSentence(event, state, before) {
  const scene = sceneOf(state);
  const view = state.view;
  const rules = view ? view.rules : state.table ? state.table.rules : null;
  let text = null;
  switch (event.type) {
    case "hand_dealt":
      text = `Hand ${event.hand + 1}: ${sentence(scene.who(event.dealer), "deal")}.`;
      break;
    case "action_taken":
      text = event.action.split(" ")[0] === "discard"
        ? discardSentence(event, state, scene.who(event.seat))
        : actionSentence(rules, scene.who(event.seat), event.action);
      // CP5: the moment the called card is played the table learns the partnership
      if (text && view && view.partner_known && before && !before.partner_known && view.phase !== "over") {
        text += ` ${revealSentence(view, (seat) => scene.who(seat))}`;
      }
      break;
    case "action_undone":
      text = `${scene.who(event.seat)} took back ${event.action}.`;
      break;
    case "trick_won":
      text = `${sentence(scene.who(event.winner), "take", "the trick")}.`;
      break;
    case "hand_scored": {
      if (!view) break;
      const r = event.result;
      text = outcomeSentence(view, r);
      if (!(r.thrown_in || r.pitcher === null)) {
        /** @param {number | null} side */
        const who = (side) => (side === null ? "nobody" : sideName(view, side));
        text += ` High: ${who(r.high)}. Low: ${who(r.low)}. Jack: ${who(r.jack)}. Game: ${who(r.game)}.`;
        // T6: the ten-point family's extra points, after the four
        for (const [name, side] of r.extra || []) text += ` ${name}: ${who(side)}.`;
      }
      // CP5: at the end of the hand the partnership is known to all (or nobody held the card)
      if (r.called) text += ` ${callWords(view, (seat) => scene.who(seat))}`;
      break;
    }
    case "match_won":
      text = view ? `${sentence(sideName(view, event.winner), "win", "the match")}!` : "The match is over.";
      break;
    case "player_joined":
    case "player_left":
    case "settled":
      text = newsText(state.news[state.news.length - 1]);
      break;
    default:
      break;
  }
  if (text && myTurn(view) && !myTurn(before)) text += " Your turn.";
  return text;
}

/**
 * A discard is said once a seat has thrown all its cards (T4: one action a card, face down to
 * everyone else): "Ann discarded 3 cards."  Null while the seat is still discarding.
 * @param {TableEvent} event an action_taken
 * @param {TableState} state
 * @param {string} who
 * @returns {string | null}
 */
function discardSentence(event, state, who) {
  const view = state.view;
  if (view && view.phase === "discard" && view.seat_to_act === event.seat) return null;
  const thrown = Math.max(1, view ? view.rules.discards : 1);
  return `${sentence(who, "discard (past)", count(thrown, "card"))}.`;
}

export class Announcer {
  /** @param {HTMLElement} region `#live` */
  constructor(region) {
    this.region = region;
  }

  /** @param {string} text */
  say(text) {
    this.region.append(el("p", { text }));
    while (this.region.children.length > KEPT) this.region.firstElementChild?.remove();
  }
}
