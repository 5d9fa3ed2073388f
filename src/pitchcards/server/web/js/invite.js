// The invite at the table (`#table-invite`): the link to send friends, for whoever holds it in
// this browser (the host, kept by home.js; a guest, kept by join.js — the server keeps only its
// hash), shown while the table waits for its start, and at a money table in play while seats
// are open (a guest is seated at the next break).

import { el } from "./words.js";

/**
 * @typedef {import("./state.js").TableState} TableState
 */

/** A money table seats at most eight (docs/rules.md C3). */
const MONEY_SEATS = 8;

/**
 * Whether friends can still take a seat with the link now.
 * @param {TableState} state
 */
export function seatsOpen(state) {
  const table = state.table;
  if (!table || state.winner !== null || state.payouts !== null) return false;
  if (table.status === "waiting") return table.seats.some((seat) => seat.kind === "open");
  if (table.status !== "playing" || !table.money) return false;
  const joining = (table.pending || []).filter((entry) => entry.startsWith("join ")).length;
  return table.seats.length + joining < MONEY_SEATS;
}

export class InviteBox {
  /** @param {string | null} link the invite URL, if this browser holds it */
  constructor(link) {
    this.link = link;
    this.input = /** @type {HTMLInputElement} */ (el("input", { id: "table-invite-link", type: "text",
      readonly: true, spellcheck: "false", "aria-label": "Invite link" }));
    this.input.value = link || "";
    this.input.addEventListener("focus", () => this.input.select());
    this.status = el("span", { class: "hint copy-status", role: "status" });
    const copy = el("button", { type: "button", id: "copy-table-invite", class: "small" }, ["Copy"]);
    copy.addEventListener("click", () => void this.copy());
    this.root = el("div", { id: "table-invite", class: "table-invite", hidden: true }, [
      el("label", { for: "table-invite-link", text: "Invite friends:" }),
      el("div", { class: "copy-row" }, [this.input, copy]),
      this.status,
    ]);
  }

  async copy() {
    const link = this.link || "";
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(link);
      this.status.textContent = "Copied. Send it to your friends.";
    } catch {
      this.input.focus();
      this.input.select();
      this.status.textContent = "Selected: press Ctrl+C (or ⌘C) to copy it.";
    }
  }

  /** @param {TableState} state */
  render(state) {
    const show = Boolean(this.link) && seatsOpen(state);
    if (this.root.hidden === show) this.root.hidden = !show;
  }
}
