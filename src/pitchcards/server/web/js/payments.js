// Who pays whom at a money table (docs/web.md, "Money"): the payments the server sends
// (TableInfo.payments: each leaver's, the settlement's — the fewest, as the scorekeeper says
// them), the confirmation that previews a leave or a settlement (GET /api/tables/{id}/payments)
// before it is asked, and the leaver's own line.  Every amount is the engine's whole cents;
// nothing here works out an amount.

import { centsText, el } from "./words.js";

/**
 * @typedef {import("./state.js").TableState} TableState
 * @typedef {{payer: string, payee: string, cents: number}} Payment
 * @typedef {{name: string, cents: number, payments: Payment[]}} LeaveInfo
 * @typedef {{leaves: LeaveInfo[], settlement: Payment[] | null}} Payments
 * @typedef {{leave: LeaveInfo, settle: Payment[], final: boolean}} Preview
 */

/**
 * The table's payments, as the server last sent them (null: not a started money table).
 * @param {TableState} state
 * @returns {Payments | null}
 */
export function tablePayments(state) {
  const info = /** @type {{payments?: Payments | null} | null} */ (/** @type {unknown} */ (state.table));
  return info && info.payments ? info.payments : null;
}

/**
 * "$0.25" (a payment is always more than nothing).
 * @param {number} cents
 */
function amount(cents) {
  return centsText(Math.abs(cents)).replace(/^\+/, "");
}

/**
 * "Cy pays Ann $0.25", "Cy pays you $0.25", "You pay Ann $0.25" ("you pay …" inside a sentence).
 * @param {Payment} p
 * @param {string | null} you
 * @param {boolean} [inside] within a sentence: "you", not "You"
 */
export function paymentText(p, you, inside = false) {
  const payer = p.payer === you ? `${inside ? "you" : "You"} pay` : `${p.payer} pays`;
  return `${payer} ${p.payee === you ? "you" : p.payee} ${amount(p.cents)}`;
}

/**
 * A payment as a list item tests and styles can read.
 * @param {Payment} p
 * @param {string | null} you
 */
function paymentItem(p, you) {
  return el("li", { class: "payment", "data-payer": p.payer, "data-payee": p.payee, "data-cents": p.cents,
    text: `${paymentText(p, you)}.` });
}

/**
 * "paid $0.25", "pays $0.40".
 * @param {number} cents
 */
function paidWords(cents) {
  return cents >= 0 ? `paid ${amount(cents)}` : `pays ${amount(cents)}`;
}

/**
 * This page's player, if they have left the table: their leave as the server keeps it.
 * @param {TableState} state
 * @returns {LeaveInfo | null}
 */
export function myLeave(state) {
  const you = state.you && state.you.role === "player" ? state.you.name : null;
  const paid = tablePayments(state);
  if (!you || !paid) return null;
  return paid.leaves.find((leave) => leave.name === you) || null;
}

/**
 * The leaver's line: "You left the table: you were paid $0.25 (Cy pays you $0.25)."
 * @param {LeaveInfo} leave
 */
export function leftText(leave) {
  const how = leave.payments.map((p) => paymentText(p, leave.name, true)).join(", ");
  const paid = leave.cents >= 0 ? `you were paid ${amount(leave.cents)}` : `you pay ${amount(leave.cents)}`;
  return `You left the table: ${paid}${how ? ` (${how})` : ""}.`;
}

/**
 * `#payments`: each leave and the settlement, who pays whom.
 * @param {HTMLElement} root
 * @param {TableState} state
 */
export function renderPayments(root, state) {
  const paid = tablePayments(state);
  const you = state.you && state.you.role === "player" ? state.you.name : null;
  const key = JSON.stringify([paid, you]);
  if (root.dataset.key === key) return;
  root.dataset.key = key;
  const parts = [];
  for (const leave of paid ? paid.leaves : []) {
    parts.push(el("li", { class: "leave", "data-name": leave.name, "data-cents": leave.cents }, [
      `${leave.name === you ? "You" : leave.name} left, ${paidWords(leave.cents)}:`,
      el("ul", {}, leave.payments.map((p) => paymentItem(p, you)))]));
  }
  if (paid && paid.settlement) {
    parts.push(el("li", { class: "settlement" }, [
      paid.settlement.length ? "Settled:" : "Settled: nobody owes anything.",
      el("ul", {}, paid.settlement.map((p) => paymentItem(p, you)))]));
  }
  root.replaceChildren(...(parts.length ? [el("h3", { text: "Who pays whom" }), el("ul", {}, parts)] : []));
  root.hidden = !parts.length;
}

/** The confirmation before a leave or a settlement, with the amounts it would pay. */
export class MoneyConfirm {
  constructor() {
    this.title = el("h2", { id: "confirm-money-title" });
    this.body = el("div", { class: "confirm-body" });
    this.yes = el("button", { type: "button", class: "primary", value: "yes" });
    this.no = el("button", { type: "button", value: "no", text: "Cancel" });
    this.dialog = /** @type {HTMLDialogElement} */ (el("dialog", { id: "confirm-money",
      "aria-labelledby": "confirm-money-title" }, [this.title, this.body,
      el("div", { class: "confirm-buttons" }, [this.yes, this.no])]));
    /** @type {((answer: boolean) => void) | null} */
    this.answer = null;
    this.yes.addEventListener("click", () => this.close(true));
    this.no.addEventListener("click", () => this.close(false));
    this.dialog.addEventListener("close", () => this.close(false));
  }

  /** @param {boolean} yes */
  close(yes) {
    const answer = this.answer;
    this.answer = null;
    if (this.dialog.open) this.dialog.close();
    if (answer) answer(yes);
  }

  /**
   * Show what leaving (or settling) would pay, and wait for the player's answer.
   * @param {"leave" | "settle"} what
   * @param {Preview} preview the server's
   * @param {string | null} you
   * @returns {Promise<boolean>}
   */
  ask(what, preview, you) {
    const later = preview.final ? "" : " A hand is in play: this happens at the next break, and the hand changes "
      + "the amounts; these are as things stand now.";
    const items = what === "leave" ? preview.leave.payments : preview.settle;
    if (what === "leave") {
      const cents = preview.leave.cents;
      this.title.textContent = "Leave the table?";
      this.yes.textContent = "Leave the table";
      this.body.replaceChildren(
        el("p", { class: "confirm-amount", "data-cents": cents,
          text: `${cents >= 0 ? "You are paid" : "You pay"} ${amount(cents)}.${later}` }),
        el("ul", { class: "payments" }, items.map((p) => paymentItem(p, you))));
    } else {
      this.title.textContent = "Settle up?";
      this.yes.textContent = "Settle up";
      this.body.replaceChildren(
        el("p", { text: `Everyone seated is paid and the game ends.${later}` }),
        items.length ? el("ul", { class: "payments" }, items.map((p) => paymentItem(p, you)))
          : el("p", { text: "Nobody owes anything more: what was owed was paid as players left." }));
    }
    this.dialog.dataset.what = what;
    if (this.answer) this.close(false);
    return new Promise((resolve) => {
      this.answer = resolve;
      this.dialog.showModal();
      this.no.focus();
    });
  }
}
