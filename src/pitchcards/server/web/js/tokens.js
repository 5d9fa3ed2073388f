// The seat tokens this browser holds (docs/protocol.md, "tokens"): one per table, kept in
// localStorage so a reload puts the player back in their seat.  Never put in a URL.

/**
 * @typedef {{token: string, seat: number | null, name: string, invite?: string}} SeatToken
 *   `invite`: the table's invite URL, where this browser was given it (the host on creating the
 *   table, a guest who came with the link): the server keeps only its hash, so the table page
 *   can show it to send on only from here
 */

const PREFIX = "pitch.seat.";

/**
 * @param {string} table
 * @returns {SeatToken | null}
 */
export function seatToken(table) {
  try {
    const data = JSON.parse(localStorage.getItem(PREFIX + table) || "null");
    return data && typeof data.token === "string" ? data : null;
  } catch {
    return null;
  }
}

/**
 * @param {string} table
 * @param {SeatToken} seat
 */
export function keepSeatToken(table, seat) {
  localStorage.setItem(PREFIX + table, JSON.stringify(seat));
}

/** @param {string} table */
export function forgetSeatToken(table) {
  localStorage.removeItem(PREFIX + table);
}
