// The hand summary (docs/web.md `<dialog id="summary">`), like the terminal game's result
// panel: the outcome, who took High, Low, Jack and Game, the game count, each side's change
// and new score (money: points, stars and money); closed by its button or the next deal.

import { cardShort, el, moneyText, outcomeSentence, sentence, seatName, sideCount, sideName, signed } from "./words.js";

/**
 * @typedef {import("./state.js").HandRow} HandRow
 * @typedef {import("./state.js").TableState} TableState
 */

/**
 * Fill the dialog with a hand's result and open it.
 * @param {HTMLDialogElement} dialog `#summary`
 * @param {HandRow} row
 * @param {TableState} state
 */
export function showSummary(dialog, row, state) {
  const r = row.result;
  const view = row.view;
  const money = Boolean(state.table && state.table.money);
  /** @type {HTMLElement[]} */
  const body = [el("h2", { id: "summary-title", text: `Hand ${row.hand + 1}` }),
    el("p", { class: "outcome", "data-made": String(r.made), text: outcomeSentence(view, r) })];
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
    body.push(points);
    if (r.game_counts && r.game_counts.length) {
      const counts = r.game_counts.map((c, side) => `${sideName(view, side)} ${c}`).join(" · ");
      body.push(el("p", { class: "hint", text: `Game count: ${counts}` }));
    }
  }
  body.push(money ? moneyTable(row, state) : sidesTable(row));
  if (state.winner !== null && state.view) {
    const who = sideName(state.view, state.winner);
    body.push(el("p", { class: "winner", text: sentence(who, "win", "the match!") }));
  }
  const close = el("button", { type: "button", class: "primary", id: "summary-close" },
    [state.winner !== null || (state.table && state.table.status === "over") ? "Close" : "Next hand"]);
  close.addEventListener("click", () => dialog.close());
  body.push(el("div", { class: "actions-row" }, [close]));
  dialog.replaceChildren(...body);
  dialog.setAttribute("aria-labelledby", "summary-title");
  // someone typing in the chat keeps their focus: the summary then opens without taking it
  const active = document.activeElement;
  const typing = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement;
  if (!dialog.open) {
    try {
      if (typing) dialog.show();
      else dialog.showModal();
    } catch {
      dialog.setAttribute("open", "");
    }
  }
  if (!typing) close.focus();
}

/**
 * Close the summary (the next hand was dealt).
 * @param {HTMLDialogElement} dialog
 */
export function closeSummary(dialog) {
  if (dialog.open) dialog.close();
}

/**
 * One row per side: the hand's change and the score after it.
 * @param {HandRow} row
 */
function sidesTable(row) {
  const view = row.view;
  const table = el("table", { class: "summary-sides" }, [
    el("thead", {}, [el("tr", {}, [el("th", { scope: "col", text: "" }),
      el("th", { scope: "col", text: "Change" }), el("th", { scope: "col", text: "Score" })])]),
  ]);
  const body = el("tbody");
  for (let side = 0; side < sideCount(view); side += 1) {
    const delta = row.result.deltas[side] || 0;
    body.append(el("tr", {}, [el("th", { scope: "row", text: sideName(view, side) }),
      el("td", { class: delta > 0 ? "up" : delta < 0 ? "down" : "", text: signed(delta) }),
      el("td", { text: String(row.scores[side] ?? "") })]));
  }
  table.append(body);
  return table;
}

/**
 * A money table's rows: change, points, stars and money against the average.
 * @param {HandRow} row
 * @param {TableState} state
 */
function moneyTable(row, state) {
  const view = state.view && state.view.money ? state.view : row.view;
  const table = el("table", { class: "summary-sides" }, [
    el("thead", {}, [el("tr", {}, ["", "Change", "Points", "★", "Money"].map(
      (text) => el("th", { scope: "col", text })))]),
  ]);
  const body = el("tbody");
  for (let seat = 0; seat < view.players; seat += 1) {
    const delta = row.result.deltas[seat] || 0;
    body.append(el("tr", {}, [el("th", { scope: "row", text: seatName(view, seat) }),
      el("td", { class: delta > 0 ? "up" : delta < 0 ? "down" : "", text: signed(delta) }),
      el("td", { text: String(view.scores ? view.scores[seat] ?? "" : "") }),
      el("td", { text: String(view.stars ? view.stars[seat] ?? 0 : 0) }),
      el("td", { text: moneyText(view.money ? view.money[seat] : "0") })]));
  }
  table.append(body);
  return table;
}
