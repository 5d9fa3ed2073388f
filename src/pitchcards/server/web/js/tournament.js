// A tournament's page (/tournaments/{id}; docs/tournaments.md, "On the server"): live
// standings, the round's tables, registration, "where do I sit" for each player this browser
// registered, and the director's buttons where this browser holds the director secret.  At
// /tournaments (no id): the director's form that creates one.  Every name is text.
// The secrets stay in localStorage ("pitch.tournament.{id}"), never in a URL.

import { api, ApiError } from "./api.js";
import { h, replace, say } from "./dom.js";
import { applyPrefs } from "./prefs.js";
import { siteHeader } from "./site.js";
import { keepSeatToken } from "./tokens.js";

/**
 * @typedef {{director?: string, invite?: string | null, players?: Record<string, string>}} Held
 * @typedef {{rank: number, shown: string, percent: number | null, matchpoints: string,
 *   boards: number, bot: boolean, withdrawn: boolean}} Line
 * @typedef {{table: number, id: string, seats: string[]}} RoundTable
 * @typedef {{tournament: string, title: string, director: string, status: string,
 *   round: number | null, rounds: number | null, entry: string, start_time: string | null,
 *   ranked: boolean,
 *   entrants: string[], tables: RoundTable[], standings: Line[],
 *   columns: {score: string, played: string}, names_per_entry: number}} Info
 */

const PREFIX = "pitch.tournament.";
/** How often the page asks again (live standings), milliseconds. */
const REFRESH_MS = 3000;

/**
 * @param {string} id
 * @returns {Held}
 */
function held(id) {
  try {
    return JSON.parse(localStorage.getItem(PREFIX + id) || "{}") || {};
  } catch {
    return {};
  }
}

/**
 * @param {string} id
 * @param {Held} value
 */
function keep(id, value) {
  localStorage.setItem(PREFIX + id, JSON.stringify(value));
}

/** @param {unknown} error */
function words(error) {
  return error instanceof ApiError ? error.message : String(error);
}

function createForm() {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const name = h("input", { id: "t-name", required: true, maxlength: 24, autocomplete: "nickname" });
  const title = h("input", { id: "t-title", required: true, maxlength: 60, value: "Pitch night" });
  const format = h("select", { id: "t-format" },
    h("option", { value: "pairs", text: "Duplicate, fixed pairs" }),
    h("option", { value: "individual", text: "Duplicate, individuals (rotating partners)" }),
    h("option", { value: "progressive", text: "Progressive (winners move up, partners change)" }),
    h("option", { value: "swiss", text: "Swiss, fixed pairs" }));
  const boards = h("input", { id: "t-boards", type: "number", min: 1, max: 12, value: 2 });
  const rounds = h("input", { id: "t-rounds", type: "number", min: 1, max: 20, value: 2 });
  const pause = h("input", { id: "t-pause", type: "number", min: 0, max: 3600, value: 30 });
  const start = h("input", { id: "t-start", maxlength: 40, placeholder: "Friday 7 pm" });
  const entry = h("select", { id: "t-entry" },
    h("option", { value: "open", text: "Open: anyone with the link" }),
    h("option", { value: "invite", text: "By invite: the link and its code" }));
  const ranked = h("input", { id: "t-ranked", type: "checkbox" });
  const form = h("form", { id: "create-tournament", class: "card" },
    h("label", { for: "t-name", text: "Your name (the director)" }), name,
    h("label", { for: "t-title", text: "Title" }), title,
    h("label", { for: "t-format", text: "Format" }), format,
    h("label", { for: "t-boards", text: "Boards a round" }), boards,
    h("label", { for: "t-rounds", text: "Rounds" }), rounds,
    h("label", { for: "t-pause", text: "Pause between rounds (seconds)" }), pause,
    h("label", { for: "t-start", text: "Starts (shown to players)" }), start,
    h("label", { for: "t-entry", text: "Entry" }), entry,
    h("label", { for: "t-ranked", text: "Ranked (every player signed in; one player an entry)" }),
    ranked,
    h("button", { type: "submit", text: "Create the tournament" }), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const made = await api("POST", "/api/tournaments", {
        name: name.value, title: title.value, format: format.value,
        boards_per_round: Number(boards.value), rounds: Number(rounds.value),
        pause: Number(pause.value), start_time: start.value || null, entry: entry.value,
        ranked: ranked.checked,
      });
      keep(made.tournament, { director: made.director_token, invite: made.invite, players: {} });
      location.assign(`/tournaments/${encodeURIComponent(made.tournament)}`);
    } catch (e) {
      say(error, words(e));
    }
  });
  return form;
}

/**
 * @param {string} id
 * @param {Info} info
 * @param {() => void} refresh
 */
function registerForm(id, info, refresh) {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const first = h("input", { id: "r-first", required: true, maxlength: 24 });
  const second = h("input", { id: "r-second", maxlength: 24 });
  const invite = h("input", { id: "r-invite", maxlength: 100 });
  const form = h("form", { id: "register", class: "card" },
    h("h2", { text: info.status === "running" ? "Late entry" : "Register" }),
    h("label", { for: "r-first", text: "Your name" }), first,
    info.names_per_entry === 2 ? h("label", { for: "r-second", text: "Your partner's name" }) : null,
    info.names_per_entry === 2 ? second : null,
    info.entry === "invite" ? h("label", { for: "r-invite", text: "Invite code" }) : null,
    info.entry === "invite" ? invite : null,
    h("button", { type: "submit", text: "Register" }), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const names = [first.value, second.value].filter((n) => n.trim());
    try {
      const got = await api("POST", `/api/tournaments/${encodeURIComponent(id)}/entries`,
        { names, invite: invite.value || null });
      const mine = held(id);
      keep(id, { ...mine, players: { ...(mine.players || {}), ...got.tokens } });
      say(error, "");
      refresh();
    } catch (e) {
      say(error, words(e));
    }
  });
  return form;
}

/**
 * Where each player of this browser sits: a link that takes the seat at that table.
 * @param {string} id
 * @param {Held} mine
 */
async function seatsOfMine(id, mine) {
  const rows = [];
  for (const [name, token] of Object.entries(mine.players || {})) {
    try {
      const me = await api("GET", `/api/tournaments/${encodeURIComponent(id)}/me`, undefined,
        token);
      if (me.table_id) {
        const go = h("a", {
          href: `/t/${encodeURIComponent(me.table_id)}`, class: "button seat-link",
          "data-table": me.table_id, text: `Round ${me.round + 1}: table ${me.table + 1}, seat ${me.seat + 1} — go`,
          onclick: () => keepSeatToken(me.table_id, { token, seat: me.seat, name }),
        });
        rows.push(h("li", {}, h("span", { text: `${name}: ` }), go,
          me.bot ? h("span", { class: "muted", text: " (a bot plays for you)" }) : null));
      } else {
        rows.push(h("li", { text: `${name}: ${me.status === "over" ? "the tournament is over"
          : "waiting for the next round"}` }));
      }
    } catch (e) {
      rows.push(h("li", { text: `${name}: ${words(e)}` }));
    }
  }
  return rows.length ? h("section", { id: "my-seats", class: "card" },
    h("h2", { text: "Where you sit" }), h("ul", {}, rows)) : null;
}

/**
 * The director's buttons: start, and a no-show or withdrawal by name.
 * @param {string} id
 * @param {string} secret
 * @param {Info} info
 * @param {() => void} refresh
 */
function directorPanel(id, secret, info, refresh) {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const who = h("input", { id: "d-name", maxlength: 60 });
  const invite = held(id).invite;
  /** @param {string} path @param {unknown} [body] */
  const call = async (path, body) => {
    try {
      await api("POST", `/api/tournaments/${encodeURIComponent(id)}/${path}`, body, secret);
      say(error, "");
      refresh();
    } catch (e) {
      say(error, words(e));
    }
  };
  return h("section", { id: "director", class: "card" },
    h("h2", { text: "Director" }),
    invite ? h("p", { id: "d-invite", text: `Invite code (give it with the link): ${invite}` }) : null,
    info.status === "registering"
      ? h("button", { id: "start", type: "button", text: "Start", onclick: () => call("start") })
      : null,
    h("label", { for: "d-name", text: "A player (no-show) or an entrant (withdraw)" }), who,
    h("button", { type: "button", text: "No-show: a bot plays", onclick: () => call("noshow", { name: who.value }) }),
    h("button", { type: "button", text: "Withdraw", onclick: () => call("withdraw", { name: who.value }) }),
    error);
}

/**
 * @param {Line[]} lines
 * @param {{score: string, played: string}} columns what the server says each column counts
 */
function standings(lines, columns) {
  return h("table", { id: "standings" },
    h("thead", {}, h("tr", {}, ["Rank", "Entrant", "%", columns.score, columns.played].map(
      (t) => h("th", { scope: "col", text: t })))),
    h("tbody", {}, lines.map((s) => h("tr", { class: s.withdrawn ? "muted" : "" },
      h("td", { text: s.withdrawn ? "—" : s.rank }),
      h("td", { text: s.shown + (s.bot ? " (bot)" : "") + (s.withdrawn ? " (withdrawn)" : "") }),
      h("td", { text: s.percent ?? "—" }), h("td", { text: s.matchpoints }),
      h("td", { text: s.boards })))));
}

/**
 * @param {HTMLElement} app
 * @param {string} id
 */
async function show(app, id) {
  /** @type {Info} */
  let info;
  try {
    info = await api("GET", `/api/tournaments/${encodeURIComponent(id)}`);
  } catch (e) {
    replace(app, siteHeader(), h("p", { class: "error", text: words(e) }));
    return;
  }
  const refresh = () => void show(app, id);
  const mine = held(id);
  const status = info.status === "registering" ? "registering"
    : info.status === "over" ? "over" : `round ${(info.round ?? 0) + 1} of ${info.rounds}`;
  replace(app, siteHeader(),
    h("h1", { id: "t-title-shown", text: info.title }),
    h("p", { id: "t-status", "data-status": info.status,
      text: `Director: ${info.director}. Status: ${status}.`
        + (info.start_time ? ` Starts: ${info.start_time}.` : "")
        + (info.ranked ? " Ranked: every player signs in." : "") }),
    mine.director ? directorPanel(id, mine.director, info, refresh) : null,
    await seatsOfMine(id, mine),
    info.status === "over" ? null : registerForm(id, info, refresh),
    h("h2", { text: "Standings" }),
    info.standings.length ? standings(info.standings, info.columns)
      : h("p", { class: "muted", text: `Entrants: ${info.entrants.join(", ") || "none yet"}` }),
    h("p", {}, h("a", { href: `/api/tournaments/${encodeURIComponent(id)}/standings.csv`,
      text: "Standings as CSV" })));
  document.body.dataset.status = info.status;
}

function main() {
  applyPrefs();
  const app = /** @type {HTMLElement} */ (document.getElementById("app"));
  const id = document.body.dataset.tournament;
  if (!id) {
    replace(app, siteHeader(), h("h1", { text: "A new tournament" }), createForm());
    return;
  }
  void show(app, id);
  setInterval(() => {
    if (document.body.dataset.status !== "over" && !app.querySelector("input:focus")) {
      void show(app, id);
    }
  }, REFRESH_MS);
}

main();
