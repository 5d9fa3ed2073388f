// A ranked match's facts on the table page (docs/accounts.md, "Ranked tables"): the server
// decides who may claim the win (TableInfo.may_claim, a side); the page only compares it with
// the side the server gives this page's seat. No rule is restated here.

/**
 * @typedef {import("./state.js").TableState} TableState
 */

/**
 * Whether this page's player may claim the win now: the server names their seat's side in
 * TableInfo.may_claim.
 * @param {TableState} state
 * @returns {boolean}
 */
export function mayClaim(state) {
  const table = state.table;
  const you = state.you;
  if (!table || !table.ranked || table.may_claim === null || table.may_claim === undefined) return false;
  if (!you || you.role !== "player" || you.seat === null) return false;
  const mine = table.seats.find((s) => s.seat === you.seat);
  return Boolean(mine) && mine?.side === table.may_claim;
}
