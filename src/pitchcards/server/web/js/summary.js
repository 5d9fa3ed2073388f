// The hand summary (docs/web.md `<dialog id="summary">`), like the terminal game's result
// panel: the outcome, who took High, Low, Jack and Game, the game count, each side's change
// and new score (money: points, stars and money).  A non-modal panel over the felt: it never
// hides the player's new cards nor the bid buttons.

import { myTurn } from "./hand.js";
import { starAbbr } from "./scoresheet.js";
import { callWords, cardShort, centsText, el, outcomeSentence, sentence, seatName, sideCount, sideName, signed } from "./words.js";

/**
 * @typedef {import("./state.js").HandRow} HandRow
 * @typedef {import("./state.js").TableState} TableState
 */

/** How long a spectator's summary stays into the next hand. */
const SPECTATOR_MS = 5000;

/**
 * The summary panel: opens as soon as a hand is scored (after the last trick's motion), a
 * non-modal panel over the felt that keeps the player's new cards and the bid buttons in view;
 * stays until closed, or until the player must act in the next hand (the score sheet has the
 * same facts), or — for someone who holds no seat in it — a few seconds into the next hand.
 */
export class SummaryPanel {
  /** @param {HTMLDialogElement} dialog `#summary` */
  constructor(dialog) {
    this.dialog = dialog;
    /** @type {HandRow | null} the hand shown */
    this.row = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.openTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.closeTimer = undefined;
    dialog.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        this.close();
      }
    });
  }

  get open() {
    return this.dialog.open;
  }

  /**
   * A hand was scored: show it after `delay` ms (the last trick's motion).
   * @param {HandRow} row
   * @param {() => TableState} now the state when it opens
   * @param {number} delay
   */
  scored(row, now, delay) {
    clearTimeout(this.openTimer);
    clearTimeout(this.closeTimer);
    const show = () => {
      const state = now();
      // the player already acts in the next hand: the score sheet has it
      if (state.hand !== null && state.hand > row.hand && mustAct(state)) return;
      this.row = row;
      this.fill(state);
      if (!this.dialog.open) {
        // non-modal, and the focus stays where it was (show() would give it to the button):
        // someone typing in the chat goes on typing, and the game's keys keep working
        const before = document.activeElement;
        try {
          this.dialog.show();
        } catch {
          this.dialog.setAttribute("open", "");
        }
        if (before instanceof HTMLElement && before !== document.body) before.focus({ preventScroll: true });
        else if (document.activeElement instanceof HTMLElement && this.dialog.contains(document.activeElement)) {
          document.activeElement.blur();
        }
        this.dialog.scrollTop = 0;
      }
    };
    if (delay > 0) this.openTimer = setTimeout(show, delay);
    else show();
  }

  /**
   * The next hand was dealt: someone who holds no seat in it sees the summary a few seconds
   * more; a player's stays until their turn (see `render`).
   * @param {boolean} seated
   */
  dealt(seated) {
    if (!seated) {
      clearTimeout(this.closeTimer);
      this.closeTimer = setTimeout(() => this.close(), SPECTATOR_MS);
    }
  }

  /**
   * On every render: the match's end shows in it; it gets out of the way once the player must
   * act in a later hand.
   * @param {TableState} state
   */
  render(state) {
    if (!this.dialog.open || !this.row) return;
    if (state.hand !== null && state.hand > this.row.hand && mustAct(state)) {
      this.close();
      return;
    }
    const key = JSON.stringify([this.row.hand, state.winner, state.table && state.table.status]);
    if (this.dialog.dataset.key !== key) this.fill(state);
  }

  /** Close it (its button, Esc, the player's turn). */
  close() {
    clearTimeout(this.openTimer);
    clearTimeout(this.closeTimer);
    this.openTimer = this.closeTimer = undefined;
    const focused = this.dialog.contains(document.activeElement);
    if (this.dialog.open) this.dialog.close();
    // the game's keys work again at once (the focus was on its button)
    if (focused && document.activeElement instanceof HTMLElement) document.activeElement.blur();
  }

  /**
   * Fill the panel with the hand's result.
   * @param {TableState} state
   */
  fill(state) {
    const row = this.row;
    if (!row) return;
    this.openTimer = undefined;
    const r = row.result;
    const view = row.view;
    const money = Boolean(state.table && state.table.money);
    const over = state.winner !== null || Boolean(state.table && state.table.status === "over");
    const seated = Boolean(state.view && state.view.seat !== null);
    this.dialog.dataset.key = JSON.stringify([row.hand, state.winner, state.table && state.table.status]);
    const close = el("button", { type: "button", class: over ? "primary" : "", id: "summary-close" }, ["Close"]);
    close.addEventListener("click", () => this.close());
    /** @type {HTMLElement[]} */
    // Close beside the title: at the top of the panel, which scrolls inside the felt, so it is
    // always where a tap reaches it (issue 30)
    const body = [el("div", { class: "summary-head" }, [
      el("h2", { id: "summary-title", text: `Hand ${row.hand + 1}` }), close,
    ]), el("p", { class: "outcome", "data-made": String(r.made), text: outcomeSentence(view, r) })];
    // CP5: who the secret partner was (the view at the end of the hand knows it)
    if (r.called) body.push(el("p", { class: "called-outcome", text: callWords(view, (seat) => seatName(view, seat)) }));
    if (!(r.thrown_in || r.pitcher === null)) {
      const points = el("dl", { class: "points" });
      /** @type {[string, number | null, string | null | undefined][]} */
      const rows = [["High", r.high, r.high_card], ["Low", r.low, r.low_card],
        ["Jack", r.jack, r.jack_card], ["Game", r.game, null]];
      for (const [label, side, card] of rows) {
        let who = side === null ? (label === "Jack" && !card ? "not dealt" : "nobody") : sideName(view, side);
        if (card) who += ` (${cardShort(card)})`;
        points.append(el("div", { "data-point": label.toLowerCase() }, [
          el("dt", { text: label }), el("dd", { text: who })]));
      }
      // T6: the ten-point family's extra points (Off-jack, High joker, Low joker, Three)
      for (const [label, side, value] of r.extra || []) {
        const who = (side === null ? "nobody" : sideName(view, side)) + (value > 1 ? ` (${value} points)` : "");
        points.append(el("div", { "data-point": label.toLowerCase().replace(/[^a-z]+/g, "-") }, [
          el("dt", { text: label }), el("dd", { text: who })]));
      }
      body.push(points);
      if (r.game_counts && r.game_counts.length) {
        const counts = r.game_counts.map((c, side) => `${sideName(view, side)} ${c}`).join(" · ");
        body.push(el("p", { class: "hint game-count", text: `Game count: ${counts}` }));
      }
    }
    body.push(money ? moneyTable(row) : sidesTable(row));
    if (state.winner !== null && state.view) {
      const who = sideName(state.view, state.winner);
      body.push(el("p", { class: "winner", text: sentence(who, "win", "the match!") }));
    }
    if (!(over || !seated)) {
      body.push(el("div", { class: "actions-row" }, [el("span", { class: "hint", text: "It closes at your turn." })]));
    }
    this.dialog.replaceChildren(...body);
    this.dialog.setAttribute("aria-labelledby", "summary-title");
  }
}

/**
 * Whether this page's player must act now (nothing sent yet).
 * @param {TableState} state
 */
function mustAct(state) {
  return myTurn(state.view) && !state.pending;
}

/**
 * Each side's change in the hand and score after it: a column a side when they fit across (up
 * to four), else a row a side.
 * @param {HandRow} row
 */
function sidesTable(row) {
  const view = row.view;
  const sides = sideCount(view);
  /** @param {number} side */
  const change = (side) => {
    const delta = row.result.deltas[side] || 0;
    return el("td", { class: delta > 0 ? "up" : delta < 0 ? "down" : "", text: signed(delta) });
  };
  /** @param {number} side */
  const score = (side) => el("td", { text: String(row.scores[side] ?? "") });
  if (sides <= 4) {
    /** @type {number[]} */
    const all = [...Array(sides).keys()];
    return el("table", { class: "summary-sides across" }, [
      el("thead", {}, [el("tr", {}, [el("td"), ...all.map((side) => el("th", { scope: "col", text: sideName(view, side) }))])]),
      el("tbody", {}, [
        el("tr", {}, [el("th", { scope: "row", text: "Change" }), ...all.map(change)]),
        el("tr", {}, [el("th", { scope: "row", text: "Score" }), ...all.map(score)]),
      ]),
    ]);
  }
  const table = el("table", { class: "summary-sides" }, [
    el("thead", {}, [el("tr", {}, [el("td"),
      el("th", { scope: "col", text: "Change" }), el("th", { scope: "col", text: "Score" })])]),
  ]);
  const body = el("tbody");
  for (let side = 0; side < sides; side += 1) {
    body.append(el("tr", {}, [el("th", { scope: "row", text: sideName(view, side) }), change(side), score(side)]));
  }
  table.append(body);
  return table;
}

/**
 * A money table's rows: change, points, stars and money against the average.
 * @param {HandRow} row
 */
function moneyTable(row) {
  // the hand's own seats and the engine's cents after it (the table may have moved on: a
  // leave or a join reseats it)
  const view = row.view;
  const table = el("table", { class: "summary-sides" }, [
    el("thead", {}, [el("tr", {}, ["", "Change", "Points", "★", "Money"].map(
      (text) => el("th", { scope: "col" }, [text === "★" ? starAbbr() : text])))]),
  ]);
  const body = el("tbody");
  for (let seat = 0; seat < view.players; seat += 1) {
    const delta = row.result.deltas[seat] || 0;
    body.append(el("tr", {}, [el("th", { scope: "row", text: seatName(view, seat) }),
      el("td", { class: delta > 0 ? "up" : delta < 0 ? "down" : "", text: signed(delta) }),
      el("td", { text: String(view.scores ? view.scores[seat] ?? "" : "") }),
      el("td", { text: String(view.stars ? view.stars[seat] ?? 0 : 0) }),
      el("td", { class: "money", "data-cents": view.money_cents ? view.money_cents[seat] : 0,
        text: centsText(view.money_cents ? view.money_cents[seat] : 0) })]));
  }
  table.append(body);
  return table;
}
