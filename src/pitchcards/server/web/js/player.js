// A player's profile (/players/{name}; docs/web.md): the name, a rating per pool with its
// provisional mark and its place on the leaderboard, a rating-history chart per pool (chart.js),
// the statistics and the recent rated matches with links to their tables' records and hands.
// Every number is the server's (GET /api/players/{name}); names are set as text.

import { api, ApiError } from "./api.js";
import { ratingChart } from "./chart.js";
import { h, replace } from "./dom.js";
import { applyPrefs } from "./prefs.js";
import { ordinal, siteHeader } from "./site.js";

/**
 * @typedef {{matches: number, wins: number, hands: number, points: number,
 *   points_per_hand: number | null, bids: number, made: number, moons: number}} PlayStats
 * @typedef {{rating: string, mu: number, sigma: number, provisional: boolean, matches: number,
 *   wins: number, place: number | null, unlisted: string | null, stats: PlayStats}} PoolRating
 * @typedef {{match: string, table: string | null, pool: string, at: number, place: number,
 *   before: string, after: string, change: number}} MatchInfo
 * @typedef {{name: string, bot: string | null, created: number,
 *   ratings: Record<string, PoolRating>,
 *   history: Record<string, import("./chart.js").Point[]>, recent: MatchInfo[],
 *   stats: PlayStats, pools: Record<string, string>}} Player
 */

/**
 * A signed change: "+12", "−8", "±0".
 * @param {number} n
 */
function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

/** @param {number} at seconds since 1970 */
function day(at) {
  return new Date(at * 1000).toLocaleDateString();
}

/**
 * The ratings table: a row per pool the player has played in.
 * @param {Player} player
 */
function ratingsTable(player) {
  const pools = Object.keys(player.pools).filter((p) => player.ratings[p]);
  if (!pools.length) {
    return h("p", { id: "no-ratings", class: "muted",
      text: "No rated matches yet: a rating comes with the first ranked match." });
  }
  return h("div", { class: "table-scroll" }, h("table", { id: "ratings" },
    h("caption", { class: "visually-hidden", text: "Ratings" }),
    h("thead", {}, h("tr", {},
      ["Game", "Rating", "Place", "Won"].map((t) => h("th", { scope: "col", text: t })))),
    h("tbody", {}, pools.map((pool) => {
      const r = player.ratings[pool];
      return h("tr", { "data-pool": pool, "data-provisional": String(r.provisional) },
        h("th", { scope: "row" }, h("a", { href: `/leaderboards/${pool}`, text: player.pools[pool] })),
        h("td", { class: "rating", text: r.rating,
          title: r.provisional ? "provisional: not yet settled" : null }),
        h("td", { class: "place", text: r.place === null ? "—" : ordinal(r.place),
          title: r.unlisted }),
        h("td", { class: "num", "data-wins": r.wins, "data-matches": r.matches,
          text: `${r.wins} of ${r.matches}` }));
    }))));
}

/**
 * Points per hand as the server counted them, to two places ("—" before a hand).
 * @param {number | null} n
 */
function perHand(n) {
  return n === null ? "—" : n.toFixed(2);
}

/**
 * The statistics over every pool (the server's totals) and, under them, a row per pool.
 * @param {Player} player
 */
function statistics(player) {
  const s = player.stats;
  const list = h("dl", { id: "player-stats", class: "stat-list" },
    h("dt", { text: "Rated matches" }), h("dd", { "data-stat": "matches", text: s.matches }),
    h("dt", { text: "Won" }), h("dd", { "data-stat": "wins", text: s.wins }),
    h("dt", { text: "Hands" }), h("dd", { "data-stat": "hands", text: s.hands }),
    h("dt", { text: "Points per hand" }), h("dd", { "data-stat": "points_per_hand", text: perHand(s.points_per_hand) }),
    h("dt", { text: "Contracts bid" }), h("dd", { "data-stat": "bids", text: s.bids }),
    h("dt", { text: "Contracts made" }), h("dd", { "data-stat": "made", text: s.made }),
    h("dt", { text: "Moons made" }), h("dd", { "data-stat": "moons", text: s.moons }),
    h("dt", { text: "Member since" }), h("dd", { "data-stat": "created", text: day(player.created) }));
  const pools = Object.keys(player.pools).filter((p) => player.ratings[p]);
  if (!pools.length) return list;
  const columns = ["Game", "Matches", "Won", "Hands", "Points per hand", "Bid", "Made", "Moons"];
  // it may scroll sideways on a phone: a region the keyboard can reach and scroll
  return h("div", {}, list, h("div", { class: "table-scroll", tabindex: "0", role: "region",
    "aria-label": "Statistics per game" }, h("table", { id: "pool-stats" },
    h("caption", { class: "visually-hidden", text: "Statistics per game" }),
    h("thead", {}, h("tr", {}, columns.map((t) => h("th", { scope: "col", text: t })))),
    h("tbody", {}, pools.map((pool) => {
      const p = player.ratings[pool].stats;
      return h("tr", { "data-pool": pool },
        h("th", { scope: "row", text: player.pools[pool] }),
        [p.matches, p.wins, p.hands, perHand(p.points_per_hand), p.bids, p.made, p.moons]
          .map((v) => h("td", { class: "num", text: v })));
    })))));
}

/**
 * A chart per pool with a history.
 * @param {Player} player
 */
function charts(player) {
  const pools = Object.keys(player.pools).filter((p) => player.history[p]?.length);
  if (!pools.length) return null;
  return h("section", { id: "charts", class: "panel" }, h("h2", { text: "Rating over time" }),
    pools.map((pool) => h("figure", { class: "chart" },
      ratingChart(pool, player.pools[pool], player.history[pool]),
      h("figcaption", { text: player.pools[pool] }))),
    h("p", { class: "muted", text: "One step per rated match; a hollow point is a "
      + "provisional rating." }));
}

/**
 * The recent rated matches, newest first, each linked to its table's hands: the history
 * viewer, which shows them to the table's own players (their browser holds the seat's token)
 * and tells anyone else why not.  No link to the record: a link carries no token, so the
 * record's route would refuse everyone.
 * @param {Player} player
 */
function recent(player) {
  return h("section", { id: "recent", class: "panel" }, h("h2", { text: "Recent matches" }),
    player.recent.length ? h("ol", { class: "recent-list" }, player.recent.map((m) =>
      h("li", { "data-match": m.match, "data-place": m.place },
        h("span", { text: `${day(m.at)} · ${player.pools[m.pool] ?? m.pool} · `
          + `${ordinal(m.place + 1)} place · ${m.before} → ${m.after} (${signed(m.change)})` }),
        m.table ? [" ", h("a", { href: `/t/${m.table}/history`, text: "hands" })] : null)))
      : h("p", { class: "muted", text: "No rated matches yet." }));
}

async function main() {
  applyPrefs();
  const app = /** @type {HTMLElement} */ (document.getElementById("app"));
  const name = document.body.dataset.name ?? "";
  const title = h("h1", { id: "player-name", text: name });
  const status = h("p", { class: "muted", role: "status", text: "Loading…" });
  replace(app, siteHeader({ account: true }), title, status);
  /** @type {Player} */
  let player;
  try {
    player = await api("GET", `/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    status.setAttribute("role", "alert");
    status.className = "error";
    status.textContent = error instanceof ApiError && error.status === 404
      ? "No player has that name." : `The profile could not be loaded: ${String(error)}`;
    return;
  }
  title.textContent = player.name;
  document.title = `${player.name} — Pitch`;
  replace(app, siteHeader({ account: true }), title,
    player.bot ? h("p", { class: "muted", text: `A bot: the ${player.bot} level.` }) : null,
    h("section", { class: "panel" }, h("h2", { text: "Ratings" }), ratingsTable(player),
      h("h2", { text: "Statistics" }), statistics(player)),
    charts(player), recent(player),
    h("p", { class: "page-links" }, h("a", { href: "/leaderboards", text: "Leaderboards" })));
}

main();
