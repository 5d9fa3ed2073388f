// The home page's first panel (issue 30): "Play against bots" starts a game in one tap — a
// table of Auction pitch with this browser in seat 0 and three medium bots, started and
// opened — and links to the scorekeeper, the rules and the help.  Everything else about a new
// table is under "More options" (home.js's form).

import { api, ApiError } from "./api.js";
import { keepSeatToken } from "./tokens.js";
import { h, say } from "./dom.js";
import { savedName, variantWords } from "./site.js";

/** The one-tap table: the variant and the bots' level (the server's defaults for the rest). */
const QUICK = { variant: "auction", players: 4, level: "medium" };

/**
 * The quick-play panel: `#quick-play` with `#play-bots` and the links.
 * @returns {HTMLElement}
 */
export function quickPlayPanel() {
  const button = h("button", { type: "button", id: "play-bots", class: "primary big",
    text: "Play against bots" });
  const error = h("p", { id: "quick-error", class: "error", role: "alert", hidden: true });
  button.addEventListener("click", async () => {
    button.disabled = true;
    say(error, "Starting a table…", "info");
    try {
      const name = savedName() || "Player";
      /** @type {Record<string, string>} */
      const bots = {};
      for (let seat = 1; seat < QUICK.players; seat += 1) bots[String(seat)] = QUICK.level;
      const created = await api("POST", "/api/tables", { name, variant: QUICK.variant,
        players: QUICK.players, seat: 0, bots });
      keepSeatToken(created.table, { token: created.token, seat: created.seat, name: created.name });
      await api("POST", `/api/tables/${encodeURIComponent(created.table)}/start`, undefined,
        created.token);
      location.assign(`/t/${encodeURIComponent(created.table)}`);
    } catch (problem) {
      say(error, problem instanceof ApiError ? problem.message : String(problem));
      button.disabled = false;
    }
  });
  return h("section", { id: "quick-play", class: "panel", "aria-labelledby": "quick-title" },
    h("h2", { id: "quick-title", text: "Play now" }),
    h("p", { class: "hint", text: `${variantWords(QUICK.variant)} with three bots (${QUICK.level}). `
      + "For friends, other games or rules: More options, below." }),
    button, error,
    h("nav", { class: "page-links", "aria-label": "More" },
      h("a", { href: "/score", text: "Keep score of a game with real cards" }),
      h("a", { href: "/rules", text: "The rules" }),
      h("a", { href: "/help", text: "Help" })));
}
