// A pool's leaderboard (/leaderboards/{pool}; docs/web.md): the server's top players
// (GET /api/leaderboards/{pool}) with who it leaves out, said on the page, the other pools as
// links, and — signed in — your own place (GET /api/players/{you}: the place however far down,
// or why you are not listed).  Names are set as text.

import { api, ApiError } from "./api.js";
import { h, replace } from "./dom.js";
import { applyPrefs } from "./prefs.js";
import { ordinal, siteHeader, signedIn } from "./site.js";

/**
 * @typedef {{place: number, name: string, bot: string | null, rating: string,
 *   provisional: boolean, matches: number}} Ranked
 * @typedef {{pool: string, players: Ranked[], left_out: string,
 *   pools: Record<string, string>}} Leaderboard
 */

/**
 * The board's rows; the signed-in player's own row marked `data-me`.
 * @param {Leaderboard} board
 * @param {string | null} me
 */
function boardTable(board, me) {
  if (!board.players.length) {
    return h("p", { id: "empty-board", class: "muted", text: "Nobody is listed yet." });
  }
  return h("div", { class: "table-scroll" }, h("table", { id: "board" },
    h("caption", { class: "visually-hidden", text: "Top players" }),
    h("thead", {}, h("tr", {}, ["Place", "Player", "Rating", "Matches"].map((t) =>
      h("th", { scope: "col", text: t })))),
    h("tbody", {}, board.players.map((p) => h("tr", { "data-name": p.name,
      "data-me": me !== null && p.name === me ? "true" : null },
    h("td", { class: "num", text: p.place }),
    h("td", {}, h("a", { href: `/players/${encodeURIComponent(p.name)}`, text: p.name }),
      p.bot ? h("span", { class: "muted", text: " (bot)" }) : null),
    h("td", { class: "rating", text: p.rating }),
    h("td", { class: "num", text: p.matches }))))));
}

/**
 * "Your place": the server's place of your rating in this pool, or why it is not listed.
 * @param {string} pool
 * @param {string} name
 * @returns {Promise<HTMLElement>}
 */
async function yourPlace(pool, name) {
  const box = h("p", { id: "your-place" });
  try {
    /** @type {import("./player.js").Player} */
    const player = await api("GET", `/api/players/${encodeURIComponent(name)}`);
    const mine = player.ratings[pool];
    if (!mine) {
      box.textContent = "You have no rating in this game yet.";
    } else if (mine.place === null) {
      box.textContent = `Your rating ${mine.rating} is not listed: ${mine.unlisted ?? ""}.`;
    } else {
      box.textContent = `Your place: ${ordinal(mine.place)}, rating ${mine.rating}.`;
      box.setAttribute("data-place", String(mine.place));
    }
  } catch (error) {
    box.textContent = `Your place could not be loaded: ${error instanceof ApiError
      ? error.message : String(error)}`;
  }
  return box;
}

async function main() {
  applyPrefs();
  const app = /** @type {HTMLElement} */ (document.getElementById("app"));
  const pool = document.body.dataset.pool ?? "";
  const who = signedIn();
  const header = siteHeader({ account: who });
  const status = h("p", { class: "muted", role: "status", text: "Loading…" });
  replace(app, header, h("h1", { text: "Leaderboard" }), status);
  /** @type {Leaderboard} */
  let board;
  try {
    board = await api("GET", `/api/leaderboards/${encodeURIComponent(pool)}`);
  } catch (error) {
    status.setAttribute("role", "alert");
    status.className = "error";
    status.textContent = `The leaderboard could not be loaded: ${error instanceof ApiError
      ? error.message : String(error)}`;
    return;
  }
  const me = await who;
  const nav = h("nav", { class: "pool-nav", "aria-label": "Games" }, h("ul", {},
    Object.entries(board.pools).map(([p, words]) => h("li", {}, p === pool
      ? h("a", { href: `/leaderboards/${p}`, "aria-current": "page", text: words })
      : h("a", { href: `/leaderboards/${p}`, text: words })))));
  replace(app, header, h("h1", { text: `Leaderboard: ${board.pools[pool] ?? pool}` }), nav,
    h("section", { class: "panel" },
      me ? await yourPlace(pool, me.name)
        : h("p", { id: "your-place", class: "muted" }, h("a", { href: "/account", text: "Sign in" }),
          " to see your own place."),
      boardTable(board, me ? me.name : null),
      h("p", { id: "left-out", class: "muted", text: `Not listed: ${board.left_out}.` })));
}

main();
