// The scorekeeper's hand form (/score/{id}): one question at a time, one tap per answer, as
// in `pitch score` (score_form.py): who won the bid → the bid → trump → (call-your-partner:
// the card called and who held it, CP3-CP5) → who took High,
// Low, the Jack, Game → (whether the bidder's side took every trick, when that decides a moon)
// → the hand as it will be scored, made or set and every change.  Back goes a step back,
// Cancel drops the hand.  The choices come from the server (the sheet's `next`): the page
// knows no rule, and the server checks the whole hand before it is shown for confirming.

import { ApiError } from "./api.js";
import { suitName, suitSymbol } from "./cards.js";
import { h, replace, say } from "./dom.js";

/**
 * @typedef {{value: number | string, label: string}} BidChoice
 * @typedef {{number: number, dealer: string, dealer_seat: number, players: string[],
 *   sides: string[], bids: BidChoice[][], all_pass: {outcome: Record<string, unknown>, thrown_in: boolean,
 *   label: string} | null, game_tie: boolean, partners: boolean,
 *   call: {cards: BidChoice[], holders: number[][], nobody: {label: string} | null} | null,
 *   points_instead: boolean,
 *   questions: Record<Step, string>, points_asked: string[]}} NextHand
 * @typedef {{kind: string, number?: number, dealer?: string, outcome?: string,
 *   bidder?: string | null, bid?: string | null, trump?: string | null,
 *   trump_symbol?: string, takers?: Record<string, string | null>,
 *   changes?: Record<string, number>, text: string, called?: string, called_symbol?: string,
 *   partner?: string | null, call_text?: string}} Row
 * @typedef {{needs: "swept" | null, hand: Row | null}} Preview
 * @typedef {{preview: (outcome: Record<string, unknown>) => Promise<Preview>,
 *   submit: (outcome: Record<string, unknown>) => Promise<void>,
 *   close: () => void}} FormActions
 */

/**
 * A step of the form; its question is the server's (`next.questions`: the scorekeeper's own,
 * score_form.py's QUESTIONS, as `pitch score` asks it).
 * @typedef {"bidder" | "bid" | "trump" | "called" | "partner" | "high" | "low" | "jack" | "game"
 *   | "tied" | "points" | "swept" | "confirm"} Step
 */

/**
 * The form for the next hand.
 * @param {NextHand} next
 * @param {FormActions} actions
 * @returns {HTMLElement}
 */
export function handForm(next, actions) {
  /** @type {Record<string, unknown>} */
  let answers = {};
  /** @type {{step: Step, answers: Record<string, unknown>}[]} */
  const done = [];
  /** @type {Step} */
  let step = "bidder";
  /** @type {Row | null} */
  let scored = null;
  let busy = false;

  const heading = h("h2", { id: "hand-question", tabindex: "-1" });
  const soFar = h("p", { id: "hand-so-far", class: "so-far" });
  const choices = h("div", { id: "hand-choices", class: "choices", role: "group",
    "aria-labelledby": "hand-question" });
  const error = h("p", { id: "hand-error", class: "error", role: "alert", hidden: true });
  const working = h("p", { id: "hand-working", class: "hint", role: "status" });
  const back = h("button", { type: "button", id: "hand-back", text: "Back" });
  const cancel = h("button", { type: "button", id: "hand-cancel", text: "Cancel" });
  const section = h("section", { id: "hand-form", class: "panel hand-form",
    "aria-labelledby": "hand-title" },
  h("p", { id: "hand-title", class: "hand-title",
    text: `Hand ${next.number} — ${next.dealer} deals` }),
  heading, soFar, choices, error, working, h("div", { class: "form-nav" }, back, cancel));

  back.addEventListener("click", () => goBack());
  cancel.addEventListener("click", () => actions.close());

  /** @param {number | null | undefined} seat */
  const who = (seat) => (seat === null || seat === undefined ? "" : next.players[seat]);

  /**
   * A big button that answers the question.
   * @param {import("./dom.js").Child | import("./dom.js").Child[]} content
   * @param {string} value
   * @param {() => void} onclick
   * @param {{pressed?: boolean, primary?: boolean, label?: string}} [opts]
   */
  const choice = (content, value, onclick, opts = {}) => h("button", {
    type: "button", class: `choice${opts.primary ? " primary" : ""}`, "data-value": value,
    "aria-pressed": opts.pressed === undefined ? undefined : String(opts.pressed),
    "aria-label": opts.label, onclick: () => { if (!busy) onclick(); },
  }, content);

  /**
   * Answer the step and go on to `to` (the answers before it are kept for Back).
   * @param {Record<string, unknown>} fields
   * @param {Step} [to]
   */
  const answer = (fields, to) => {
    done.push({ step, answers: { ...answers } });
    answers = { ...answers, ...fields };
    say(error, "");
    if (to) {
      step = to;
      render();
    } else {
      void check();
    }
  };

  const goBack = () => {
    const last = done.pop();
    say(error, "");
    if (!last) {
      actions.close();
      return;
    }
    step = last.step;
    answers = last.answers;
    scored = null;
    render();
  };

  /** The whole hand, checked and laid out by the server: confirm it, or answer the sweep. */
  const check = async () => {
    busy = true;
    working.textContent = "Checking…";
    try {
      const found = await actions.preview(answers);
      if (found.needs === "swept") {
        step = "swept";
      } else {
        step = "confirm";
        scored = found.hand;
      }
      render();
    } catch (e) {
      const words = e instanceof ApiError ? e.message : String(e);
      const last = done.pop();
      if (last) {
        step = last.step;
        answers = last.answers;
      }
      render();
      say(error, words);
    } finally {
      busy = false;
      working.textContent = "";
    }
  };

  /** The answers so far, in words: "Bob bid 3 in ♥; High Bob, Low Cy". */
  const summary = () => {
    const out = [];
    if (answers.bids) out.push("All passed");
    else if (typeof answers.bidder === "number") {
      out.push(answers.bid === 0 ? `${who(answers.bidder)} pitched, no contract`
        : answers.bid !== undefined ? `${who(answers.bidder)} bid ${String(answers.bid)}`
          : `${who(answers.bidder)} won the bid`);
    }
    if (typeof answers.trump === "string") out[out.length - 1] += ` in ${suitSymbol(answers.trump)}`;
    if (next.call && typeof answers.called === "string") {
      const card = next.call.cards.find((c) => c.value === answers.called);
      out[out.length - 1] += `, called ${card ? card.label : answers.called}`;
      if ("partner" in answers) {
        out[out.length - 1] += answers.partner === null ? " (not dealt)"
          : ` (${who(/** @type {number} */ (answers.partner))})`;
      }
    }
    const took = [];
    for (const [key, word] of [["high", "High"], ["low", "Low"], ["jack", "Jack"], ["game", "Game"]]) {
      if (key in answers) {
        const seat = /** @type {number | null} */ (answers[key]);
        took.push(`${word} ${seat === null ? (key === "jack" ? "not out" : "nobody") : who(seat)}`);
      }
    }
    if (Array.isArray(answers.game_tied)) {
      took.push(`Game tied (${answers.game_tied.map((s) => who(s)).join(", ")})`);
    }
    if (took.length) out.push(took.join(", "));
    if (Array.isArray(answers.points) && answers.points.length) {
      out.push(`points ${answers.points.map((p, i) => `${next.sides[i]} ${p}`).join(", ")}`);
    }
    if (typeof answers.swept === "boolean") out.push(answers.swept ? "all six tricks" : "not every trick");
    return out.join("; ");
  };

  /**
   * A button per player.
   * @param {(seat: number) => void} pick
   */
  const players = (pick) => next.players.map((name, seat) =>
    choice(name, String(seat), () => pick(seat)));

  const render = () => {
    heading.textContent = next.questions[step];
    soFar.textContent = summary();
    soFar.hidden = !soFar.textContent;
    section.dataset.step = step;
    /** @type {HTMLElement[]} */
    let buttons = [];
    if (step === "bidder") {
      buttons = players((seat) => answer({ bidder: seat }, "bid"));
      const pass = next.all_pass;
      if (pass) {
        buttons.push(choice(pass.label, "all-pass",
          () => answer(pass.outcome, pass.thrown_in ? undefined : "trump")));
      }
    } else if (step === "bid") {
      const seat = /** @type {number} */ (answers.bidder);
      buttons = (next.bids[seat] || []).map((b) => choice(b.label, String(b.value),
        () => answer({ bid: b.value }, "trump"), { label: `Bid ${b.label}` }));
      if (!buttons.length) {
        buttons.push(h("p", { class: "muted", text: `${who(seat)} could not have won the bid: go back.` }));
      }
    } else if (step === "trump") {
      buttons = ["S", "H", "D", "C"].map((s) => {
        const name = suitName(s);
        return choice([h("span", { class: `suit suit-text-${s}`, "aria-hidden": "true",
          text: suitSymbol(s) }), ` ${name[0].toUpperCase()}${name.slice(1)}`], s,
        () => answer({ trump: s }, next.call ? "called" : "high"));
      });
    } else if (step === "called" && next.call) {
      // CP3: the card the bidder called, from the cards the server lists
      buttons = next.call.cards.map((c) => choice(c.label, String(c.value),
        () => answer({ called: c.value }, "partner"), { label: `Called ${c.label}` }));
    } else if (step === "partner" && next.call) {
      // CP4, CP5: who held it, as the server allows (nobody too, when it says so)
      const seats = next.call.holders[/** @type {number} */ (answers.bidder)] || [];
      buttons = seats.map((seat) => choice(who(seat), String(seat),
        () => answer({ partner: seat }, "high")));
      const nobody = next.call.nobody;  // as the server allows and words it
      if (nobody) buttons.push(choice(nobody.label, "none", () => answer({ partner: null }, "high")));
    } else if (step === "high") {
      buttons = players((seat) => answer({ high: seat }, "low"));
      if (next.points_instead) {
        buttons.push(choice("Points instead", "points", () => answer({ points: [] }, "points")));
      }
    } else if (step === "points") {
      // The points each player (or team) won, a tap each in seat order.
      const typed = /** @type {number[]} */ (Array.isArray(answers.points) ? answers.points : []);
      heading.textContent = next.points_asked[typed.length];
      buttons = [0, 1, 2, 3, 4].map((p) => choice(String(p), String(p), () => {
        const now = [...typed, p];
        answer({ points: now }, now.length < next.sides.length ? "points" : undefined);
      }));
    } else if (step === "low") {
      buttons = players((seat) => answer({ low: seat }, "jack"));
    } else if (step === "jack") {
      buttons = players((seat) => answer({ jack: seat }, "game"));
      buttons.push(choice("Not out", "none", () => answer({ jack: null }, "game")));
    } else if (step === "game") {
      buttons = players((seat) => answer({ game: seat }));
      if (next.game_tie) buttons.push(choice("Tied", "tied", () => answer({ game: null }, "tied")));
      else buttons.push(choice("Nobody (tied)", "none", () => answer({ game: null })));
    } else if (step === "tied") {
      const tied = /** @type {number[]} */ (Array.isArray(answers.game_tied) ? answers.game_tied : []);
      buttons = next.players.map((name, seat) => choice(name, String(seat), () => {
        const now = tied.includes(seat) ? tied.filter((s) => s !== seat) : [...tied, seat];
        answers = { ...answers, game_tied: now };
        render();
      }, { pressed: tied.includes(seat) }));
      buttons.push(choice("Done", "done", () => {
        if (tied.length < 2) {
          say(error, "Tap the players who tied (two or more), then Done.");
          return;
        }
        answer({ game_tied: tied });
      }, { primary: true }));
    } else if (step === "swept") {
      buttons = [choice("Yes", "yes", () => answer({ swept: true })),
        choice("No", "no", () => answer({ swept: false }))];
    } else if (step === "confirm" && scored) {
      buttons = [confirmation(scored), choice("Score this hand", "score", () => void submit(),
        { primary: true })];
    }
    replace(choices, buttons);
    heading.focus({ preventScroll: true });
  };

  /** @param {Row} row */
  const confirmation = (row) => {
    const changes = Object.entries(row.changes || {}).filter(([, d]) => d !== 0);
    const result = { made: "Made", set: "Set", moon: "Made the moon", "thrown in": "Thrown in" }[
      row.outcome || ""] || row.outcome || "";
    return h("div", { id: "hand-confirm", class: "confirm", "data-outcome": row.outcome || "" },
      h("p", { class: `result result-${(row.outcome || "").replace(" ", "-")}`, text: result }),
      changes.length ? h("ul", { class: "changes", "aria-label": "Score changes" },
        changes.map(([name, d]) => h("li", { "data-name": name },
          h("span", { text: name }), h("span", { class: "delta", text: d > 0 ? `+${d}` : String(d) }))))
        : h("p", { class: "muted", text: "No score changes." }));
  };

  const submit = async () => {
    busy = true;
    working.textContent = "Saving…";
    try {
      await actions.submit(answers);
    } catch (e) {
      say(error, e instanceof ApiError ? e.message : String(e));
    } finally {
      busy = false;
      working.textContent = "";
    }
  };

  render();
  return section;
}
