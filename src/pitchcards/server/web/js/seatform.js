// Taking a seat from a form (the invitation page's, the lobby's dialog): the name checked, the
// seat asked of the server, the token kept (tokens.js), and on to the table.

import { api, ApiError } from "./api.js";
import { say } from "./dom.js";
import { saveName } from "./site.js";
import { keepSeatToken } from "./tokens.js";

/**
 * @typedef {object} SeatForm
 * @property {HTMLFormElement} form
 * @property {HTMLInputElement} name
 * @property {HTMLSelectElement} seat
 * @property {HTMLElement} error where a refusal is said
 * @property {HTMLButtonElement} submit
 * @property {() => string | null} path the address to POST the seat to (null: nothing to do)
 * @property {() => string | undefined} [invite] the invite URL to keep with the token
 * @property {string} [busy] what to say while the server is asked
 * @property {(error: ApiError) => void} [refused] after a refusal that is not the name's
 */

/** @param {SeatForm} parts */
export function bindSeatForm(parts) {
  const { form, name, seat, error, submit } = parts;
  name.addEventListener("input", () => {
    name.removeAttribute("aria-invalid");
    say(error, "");
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const path = parts.path();
    if (!path) return;
    const chosen = name.value.trim().replace(/\s+/g, " ");
    if (!chosen) {
      name.setAttribute("aria-invalid", "true");
      say(error, "Please give your name.");
      name.focus();
      return;
    }
    submit.disabled = true;
    if (parts.busy) say(error, parts.busy, "info");
    try {
      const taken = await api("POST", path,
        { name: chosen, seat: seat.value === "" ? null : Number(seat.value) });
      const invite = parts.invite ? parts.invite() : undefined;
      keepSeatToken(taken.table, { token: taken.token, seat: taken.seat, name: taken.name,
        ...(invite ? { invite } : {}) });
      saveName(taken.name);
      location.assign(`/t/${taken.table}`);
    } catch (e) {
      submit.disabled = false;
      say(error, e instanceof ApiError ? e.message : String(e));
      if (e instanceof ApiError && (e.reason === "bad_name" || e.reason === "name_taken")) {
        name.setAttribute("aria-invalid", "true");
        name.focus();
      } else if (e instanceof ApiError && parts.refused) {
        parts.refused(e);
      }
    }
  });
}
