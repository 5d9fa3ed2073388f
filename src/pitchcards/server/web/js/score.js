// The scorekeeper (/score, /score/{id}; docs/web.md, "The scorekeeper at /score"): a real
// table's score sheet on a phone.  /score starts a sheet (the players round the table, the
// variant, the stake) and lists this browser's sheets; /score/{id} is the sheet: editable when
// this browser holds its edit token (localStorage "pitch.score.{id}"), else followed read-only.
// Both kinds of page ask the server every few seconds whether the sheet moved on
// (GET /api/scores/{id}?since=version, a tiny answer when it did not), so a second phone shows
// each hand soon after it is entered.  Every rule and every sum is the server's.

import { api, ApiError } from "./api.js";
import { h, replace, say } from "./dom.js";
import { applyPrefs } from "./prefs.js";
import { siteHeader, variantWords } from "./site.js";
import { handForm } from "./score_form.js";

/**
 * @typedef {import("./score_form.js").Row & {name?: string, score?: number,
 *   payments?: Payment[], amount?: string, cents?: number}} SheetRow
 * @typedef {{payer: string, payee: string, cents: number, amount: string, text: string}} Payment
 * @typedef {{name: string, score: number, stars?: number, seated: boolean, cents?: number,
 *   money?: string, to_settle?: string, winner?: boolean}} Standing
 * @typedef {{id: string, version: number, url: string, variant: string, title: string,
 *   stakes: string, money: boolean, players: string[], columns: string[], rows: SheetRow[],
 *   standings: Standing[], over: boolean, hands: number,
 *   next: import("./score_form.js").NextHand | null, winner: string | null,
 *   settlement: {final: boolean, payments: Payment[], text: string} | null,
 *   can: {enter: boolean, join: boolean, leave: boolean, settle: boolean, undo: boolean},
 *   said?: string}} Sheet
 * @typedef {{token: string, players: string[], variant: string, created: number}} Held
 */

const PREFIX = "pitch.score.";
/** Milliseconds between two looks at the sheet (a following phone, or a second editor). */
const POLL_MS = 3000;

/**
 * The edit token this browser holds for a sheet.
 * @param {string} id
 * @returns {Held | null}
 */
function held(id) {
  try {
    const data = JSON.parse(localStorage.getItem(PREFIX + id) || "null");
    return data && typeof data.token === "string" ? data : null;
  } catch {
    return null;
  }
}

/**
 * Every sheet this browser holds, newest first.
 * @returns {[string, Held][]}
 */
function heldSheets() {
  /** @type {[string, Held][]} */
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(PREFIX)) continue;
      const id = key.slice(PREFIX.length);
      const data = held(id);
      if (data) out.push([id, data]);
    }
  } catch {
    // no storage: no sheets to list
  }
  return out.sort((a, b) => (b[1].created || 0) - (a[1].created || 0));
}

// ---------------------------------------------------------------------------- /score

/** The new-sheet form and this browser's sheets. */
async function newSheetPage() {
  const app = /** @type {HTMLElement} */ (document.getElementById("app"));
  document.title = "Scorekeeper — Pitch";
  const names = h("div", { id: "player-names", class: "player-names" });
  const add = h("button", { type: "button", id: "add-player", class: "small", text: "Add a player" });
  const remove = h("button", { type: "button", id: "remove-player", class: "small",
    text: "Remove the last" });
  const variant = h("select", { id: "sheet-variant", name: "variant" },
    ["money", "auction", "auction-partners", "setback", "three-teams", "call-partner"].map((v) =>
      h("option", { value: v, text: variantWords(v) })));
  const stake = h("input", { id: "sheet-stake", name: "stake", type: "text", value: "0.10",
    inputMode: "decimal", autocomplete: "off", "aria-describedby": "sheet-stake-hint" });
  const stakeField = h("div", { class: "field" },
    h("label", { for: "sheet-stake", text: "Stake per point, in dollars" }), stake,
    h("p", { id: "sheet-stake-hint", class: "hint",
      text: "Money against the average, and a dollar from everyone for each moon." }));
  const error = h("p", { id: "new-sheet-error", class: "error", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "primary big", text: "Start the sheet" });

  /** @param {string} value */
  const addName = (value = "") => {
    const n = names.children.length + 1;
    const id = `player-${n}`;
    names.append(h("div", { class: "field" },
      h("label", { for: id, text: n === 1 ? "Player 1 (deals first)" : `Player ${n}` }),
      h("input", { id, name: "player", type: "text", value, maxLength: 24,
        autocomplete: "off", autocapitalize: "words", spellcheck: false, required: true })));
    add.disabled = names.children.length >= 8;
    remove.disabled = names.children.length <= 2;
  };
  for (let i = 0; i < 4; i++) addName();
  add.addEventListener("click", () => {
    addName();
    /** @type {HTMLInputElement | null} */ (names.lastElementChild?.querySelector("input") ?? null)?.focus();
  });
  remove.addEventListener("click", () => {
    names.lastElementChild?.remove();
    add.disabled = names.children.length >= 8;
    remove.disabled = names.children.length <= 2;
  });
  variant.addEventListener("change", () => { stakeField.hidden = variant.value !== "money"; });

  const form = h("form", { id: "new-sheet", class: "panel", novalidate: true,
    "aria-labelledby": "new-sheet-title" },
  h("h2", { id: "new-sheet-title", text: "A new score sheet" }),
  h("fieldset", {}, h("legend", { text: "The players, in order round the table" }), names,
    h("div", { class: "actions-row" }, add, remove)),
  h("div", { class: "field" }, h("label", { for: "sheet-variant", text: "Game" }), variant),
  stakeField, error, h("div", { class: "actions-row" }, submit));

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const players = [...names.querySelectorAll("input")].map((i) => i.value.trim().replace(/\s+/g, " "))
      .filter(Boolean);
    if (players.length < 2) {
      say(error, "Give at least two players' names.");
      return;
    }
    submit.disabled = true;
    say(error, "Starting…", "info");
    try {
      const made = await api("POST", "/api/scores", {
        players, variant: variant.value, stake: variant.value === "money" ? stake.value.trim() : null,
      });
      try {
        localStorage.setItem(PREFIX + made.id, JSON.stringify(
          { token: made.token, players, variant: variant.value, created: Date.now() }));
      } catch {
        // no storage: the sheet can be followed but not edited from here after a reload
      }
      location.assign(`/score/${made.id}`);
    } catch (e) {
      submit.disabled = false;
      say(error, e instanceof ApiError ? e.message : String(e));
    }
  });

  const mine = heldSheets();
  const list = h("section", { id: "my-sheets", class: "panel", "aria-labelledby": "my-sheets-title" },
    h("h2", { id: "my-sheets-title", text: "Your sheets" }),
    mine.length ? h("ul", { class: "sheet-list" }, mine.map(([id, s]) => h("li", {},
      h("a", { href: `/score/${id}`, text: (s.players || []).join(", ") || id }),
      h("span", { class: "muted", text: ` · ${variantWords(s.variant || "money")}${s.created
        ? ` · ${new Date(s.created).toLocaleDateString()}` : ""}` }))))
      : h("p", { class: "muted", text: "The sheets you start on this phone are listed here." }));

  replace(app, siteHeader(), h("h1", { text: "Scorekeeper" }),
    h("p", { class: "muted", text: "Keep the score of a game played with real cards: each "
      + "hand in a few taps, the money worked out to the cent, and a link so another phone "
      + "can follow the sheet." }),
    h("div", { class: "score-grid" }, form, list));
}

// ---------------------------------------------------------------------------- /score/{id}

/**
 * The sheet.
 * @param {string} id
 */
async function sheetPage(id) {
  const app = /** @type {HTMLElement} */ (document.getElementById("app"));
  const mine = held(id);
  const token = mine ? mine.token : null;
  /** @type {Sheet | null} */
  let sheet = null;
  /** "sheet" (the sheet and its buttons), "hand", "join", "leave", "settle", "undo": what is open. */
  let mode = "sheet";

  const title = h("h1", { id: "sheet-title", text: "Score sheet" });
  const stakes = h("p", { id: "sheet-stakes", class: "muted" });
  const status = h("p", { id: "sheet-mode", class: "mode-note" });
  const message = h("p", { id: "message", role: "status", class: "said", hidden: true });
  const problem = h("p", { id: "error", role: "alert", class: "error", hidden: true });
  const work = h("div", { id: "work" });
  const standings = h("section", { id: "standings", "aria-labelledby": "standings-title" });
  const settlement = h("section", { id: "settlement", "aria-labelledby": "settlement-title",
    hidden: true });
  const history = h("section", { id: "history", "aria-labelledby": "history-title" });
  const share = shareBox(id);
  replace(app, siteHeader(), title, stakes, status, message, problem, work, standings,
    settlement, history, share);

  /**
   * Show the sheet as the server laid it out.
   * @param {Sheet} next
   */
  const show = (next) => {
    const moved = !sheet || sheet.version !== next.version || !work.firstChild;
    sheet = next;
    document.title = `${next.title}: ${next.players.join(", ")} — Pitch`;
    title.textContent = next.title;
    stakes.textContent = `${next.stakes} · ${next.players.join(", ")}`;
    document.body.dataset.version = String(next.version);
    if (token) {
      status.dataset.mode = "edit";
      status.textContent = "You keep this sheet: enter each hand here.";
    } else {
      status.dataset.mode = "follow";
      status.textContent = "Following: this phone shows the sheet as the scorekeeper enters "
        + "it, updated every few seconds. Only the phone that started it can change it.";
    }
    renderStandings(standings, next);
    renderSettlement(settlement, next);
    renderHistory(history, next);
    // A form being filled in stays open; its answer is checked against the version it was
    // started on (a stale one is refused, and said so).
    if (mode === "sheet" && moved) renderButtons();
  };

  /**
   * A change to the sheet: sent with the version it was made on.
   * @param {string} path "hands", "join" …
   * @param {Record<string, unknown>} body
   * @returns {Promise<any>} the sheet after it (or, for a preview, the hand as it would be)
   */
  const write = async (path, body) => {
    if (!sheet) throw new Error("the sheet is not loaded yet");
    try {
      const next = await api("POST", `/api/scores/${id}/${path}`, { version: sheet.version, ...body },
        token);
      say(problem, "");
      return next;
    } catch (e) {
      if (e instanceof ApiError && e.reason === "stale") {
        await refresh();
        throw new ApiError(409, "stale", "The sheet changed on another phone: check it, "
          + "then enter this again if it is still needed.");
      }
      throw e;
    }
  };

  /**
   * After a change: show it and what was done.
   * @param {Sheet} next
   */
  const changed = (next) => {
    mode = "sheet";
    show(next);
    renderButtons();
    say(message, next.said || "", "info");
    document.getElementById("next-hand")?.focus({ preventScroll: true });
  };

  /**
   * A change made from a button: its refusal shown in words.
   * @param {string} path
   * @param {Record<string, unknown>} body
   */
  const act = async (path, body) => {
    try {
      changed(await write(path, body));
    } catch (e) {
      say(problem, e instanceof ApiError ? e.message : String(e));
    }
  };

  const renderButtons = () => {
    const s = sheet;
    if (!s || !token) {
      replace(work);
      return;
    }
    /**
     * @param {string} bid
     * @param {string} text
     * @param {boolean} on
     * @param {() => void} onclick
     * @param {string} [cls]
     */
    const button = (bid, text, on, onclick, cls = "") => on
      ? h("button", { type: "button", id: bid, class: cls, text, onclick }) : null;
    replace(work, h("div", { id: "actions", class: "sheet-actions" },
      button("next-hand", s.next ? `Enter hand ${s.next.number} (${s.next.dealer} deals)` : "",
        s.can.enter && Boolean(s.next), () => openHand(), "primary big"),
      button("join", "Someone joins", s.can.join, () => openJoin()),
      button("leave", "Someone leaves", s.can.leave, () => openLeave()),
      button("settle", "Settle up", s.can.settle, () => openSettle()),
      button("undo", "Undo the last entry", s.can.undo, () => openUndo())));
  };

  const close = () => {
    mode = "sheet";
    renderButtons();
    document.getElementById("next-hand")?.focus();
  };

  const openHand = () => {
    if (!sheet || !sheet.next) return;
    mode = "hand";
    say(message, "");
    say(problem, "");
    replace(work, handForm(sheet.next, {
      preview: (outcome) => write("hands", { outcome, preview: true }),
      submit: async (outcome) => changed(await write("hands", { outcome })),
      close,
    }));
    document.getElementById("hand-question")?.focus();
  };

  const openJoin = () => {
    mode = "join";
    const name = h("input", { id: "join-name", name: "name", type: "text", maxLength: 24,
      autocomplete: "off", autocapitalize: "words", spellcheck: false });
    const error = h("p", { class: "error", role: "alert", hidden: true });
    const form = h("form", { id: "join-form", class: "panel", novalidate: true },
      h("h2", { text: "Who joins?" }),
      h("div", { class: "field" }, h("label", { for: "join-name", text: "Their name" }), name,
        h("p", { class: "hint", text: "They sit down to the right of the next dealer." })),
      error,
      h("div", { class: "form-nav" }, h("button", { type: "submit", class: "primary", text: "Seat them" }),
        h("button", { type: "button", text: "Cancel", onclick: close })));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const chosen = name.value.trim().replace(/\s+/g, " ");
      if (!chosen) {
        say(error, "Give their name.");
        return;
      }
      try {
        changed(await write("join", { name: chosen }));
      } catch (e) {
        say(error, e instanceof ApiError ? e.message : String(e));
      }
    });
    replace(work, form);
    name.focus();
  };

  const openLeave = () => {
    if (!sheet) return;
    mode = "leave";
    replace(work, h("section", { id: "leave-form", class: "panel", "aria-labelledby": "leave-title" },
      h("h2", { id: "leave-title", text: "Who leaves?" }),
      h("p", { class: "hint", text: "They are paid out now, against the others." }),
      h("div", { class: "choices", role: "group", "aria-labelledby": "leave-title" },
        sheet.players.map((n) => h("button", { type: "button", class: "choice", "data-value": n,
          text: n, onclick: () => void act("leave", { name: n }) }))),
      h("div", { class: "form-nav" }, h("button", { type: "button", text: "Cancel", onclick: close }))));
    document.getElementById("leave-title")?.setAttribute("tabindex", "-1");
    document.getElementById("leave-title")?.focus();
  };

  const openSettle = () => {
    if (!sheet || !sheet.settlement) return;
    mode = "settle";
    const payments = sheet.settlement.payments;
    replace(work, h("section", { id: "settle-form", class: "panel", "aria-labelledby": "settle-title" },
      h("h2", { id: "settle-title", tabindex: "-1", text: "Settle up?" }),
      h("p", { text: "End the session and pay everyone:" }),
      payments.length ? h("ul", { class: "payments" }, payments.map((p) => h("li", { text: p.text })))
        : h("p", { text: "Nobody owes anything." }),
      h("div", { class: "form-nav" },
        h("button", { type: "button", id: "settle-confirm", class: "primary", text: "Settle up",
          onclick: () => void act("settle", {}) }),
        h("button", { type: "button", text: "Cancel", onclick: close }))));
    document.getElementById("settle-title")?.focus();
  };

  const openUndo = () => {
    if (!sheet || !sheet.rows.length) return;
    mode = "undo";
    const last = sheet.rows[sheet.rows.length - 1];
    replace(work, h("section", { id: "undo-form", class: "panel", "aria-labelledby": "undo-title" },
      h("h2", { id: "undo-title", tabindex: "-1", text: "Undo the last entry?" }),
      h("p", { text: last.kind === "hand" ? `Hand ${last.number}: ${last.text}` : last.text }),
      h("div", { class: "form-nav" },
        h("button", { type: "button", id: "undo-confirm", class: "primary", text: "Undo it",
          onclick: () => void act("undo", {}) }),
        h("button", { type: "button", text: "Cancel", onclick: close }))));
    document.getElementById("undo-title")?.focus();
  };

  // ------------------------------------------------------------------ following
  let polling = false;
  const refresh = async () => {
    if (polling) return;
    polling = true;
    try {
      const since = sheet ? `?since=${sheet.version}` : "";
      const answer = await api("GET", `/api/scores/${id}${since}`);
      if (answer && Array.isArray(answer.rows)) show(answer);
      if (problem.dataset.offline) {
        delete problem.dataset.offline;
        say(problem, "");
      }
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        say(problem, "There is no such score sheet: check the link.");
      } else {
        problem.dataset.offline = "true";
        say(problem, "The server cannot be reached: the sheet will update when it can.");
      }
    } finally {
      polling = false;
    }
  };

  await refresh();
  setInterval(() => {
    if (!document.hidden) void refresh();
  }, POLL_MS);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) void refresh();
  });
}

/**
 * The link to give a second phone, and a button to copy or share it.
 * @param {string} id
 */
function shareBox(id) {
  const url = `${location.origin}/score/${id}`;
  const field = h("input", { id: "share-link", type: "text", readOnly: true, value: url,
    "aria-describedby": "share-hint" });
  const note = h("p", { class: "hint", role: "status" });
  const copy = h("button", { type: "button", id: "share-copy", class: "small", text: "Copy the link" });
  copy.addEventListener("click", async () => {
    try {
      const canShare = "share" in navigator;
      if (canShare) await navigator.share({ title: "Score sheet", url });
      else await navigator.clipboard.writeText(url);
      note.textContent = canShare ? "" : "Copied.";
    } catch {
      field.select();
      note.textContent = "Select the link and copy it.";
    }
  });
  return h("section", { id: "share", class: "panel", "aria-labelledby": "share-title" },
    h("h2", { id: "share-title", text: "Follow on another phone" }),
    h("div", { class: "field" }, h("label", { for: "share-link", text: "The sheet's link" }), field,
      h("p", { id: "share-hint", class: "hint",
        text: "Anyone with the link sees the sheet as it is kept; only this phone can change it." })),
    h("div", { class: "actions-row" }, copy), note);
}

/**
 * Scores, stars and money against the average.
 * @param {HTMLElement} box
 * @param {Sheet} sheet
 */
function renderStandings(box, sheet) {
  const stars = sheet.money && sheet.standings.some((s) => (s.stars || 0) > 0);
  const owing = sheet.standings.some((s) => s.to_settle !== undefined);
  const head = ["Player", "Score"];
  if (stars) head.push("Stars");
  if (sheet.money) head.push(sheet.settlement?.final ? "Paid" : "Money");
  if (owing) head.push("To settle");
  replace(box, h("h2", { id: "standings-title", text: sheet.over ? "Final scores" : "Scores" }),
    sheet.winner ? h("p", { class: "winner", text: `${sheet.winner} won.` }) : null,
    h("table", { class: "standings" },
      h("thead", {}, h("tr", {}, head.map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, sheet.standings.map((s) => h("tr", {
        "data-name": s.name, "data-seated": String(s.seated), "data-cents": s.cents ?? null },
      h("th", { scope: "row", text: s.seated || !sheet.money ? s.name : `${s.name} (left)` }),
      h("td", { class: "num", text: String(s.score) }),
      stars ? h("td", { class: "num", text: s.stars ? "★".repeat(Math.min(s.stars, 3))
        + (s.stars > 3 ? `×${s.stars}` : "") : "" }) : null,
      sheet.money ? h("td", { class: `num money ${(s.cents || 0) < 0 ? "minus" : ""}`,
        text: s.money || "" }) : null,
      owing ? h("td", { class: "num", text: s.to_settle || "" }) : null)))),
    sheet.money ? h("p", { class: "hint", text: "Money against the table's average, to the cent." })
      : null);
}

/**
 * The fewest payments that settle everyone (as settled, or were it settled now).
 * @param {HTMLElement} box
 * @param {Sheet} sheet
 */
function renderSettlement(box, sheet) {
  const s = sheet.settlement;
  box.hidden = !s || !s.final;
  if (!s || !s.final) {
    replace(box);
    return;
  }
  replace(box, h("h2", { id: "settlement-title", text: "Settle up" }),
    s.payments.length ? h("ul", { class: "payments" }, s.payments.map((p) => h("li", {
      "data-payer": p.payer, "data-payee": p.payee, "data-cents": p.cents, text: p.text })))
      : h("p", { text: "Nobody owes anything." }));
}

/**
 * The sheet's history, newest first: each hand, join, leave (who paid whom) and the settlement.
 * @param {HTMLElement} box
 * @param {Sheet} sheet
 */
function renderHistory(box, sheet) {
  const marks = /** @type {Record<string, string>} */ (
    { made: "✓ made", set: "✗ set", moon: "★ moon", "thrown in": "thrown in" });
  const items = sheet.rows.map((row, i) => {
    if (row.kind !== "hand") {
      return h("li", { class: `event event-${row.kind}`, "data-kind": row.kind, "data-row": i,
        "data-name": row.name ?? null }, h("p", { text: row.text }));
    }
    const changes = Object.entries(row.changes || {}).filter(([, d]) => d !== 0);
    return h("li", { class: "hand", "data-kind": "hand", "data-row": i, "data-hand": row.number,
      "data-outcome": row.outcome },
    h("p", { class: "hand-line" },
      h("span", { class: "hand-no", text: `${row.number}.` }), " ",
      row.bidder ? [h("strong", { text: row.bidder }), ` bid ${row.bid} `,
        row.trump ? h("span", { class: `suit-text-${row.trump}`, text: row.trump_symbol || "" }) : null]
        : "All passed",
      " ", h("span", { class: `mark mark-${(row.outcome || "").replace(" ", "-")}`,
        text: marks[row.outcome || ""] || "" })),
    h("p", { class: "hand-detail muted" }, `${row.dealer} dealt`,
      row.call_text ? ` · ${row.call_text}` : "",
      row.takers && row.takers.high !== undefined ? ` · High ${row.takers.high ?? "-"}, Low ${
        row.takers.low ?? "-"}, Jack ${row.takers.jack ?? "not out"}, Game ${row.takers.game ?? "nobody"}` : ""),
    changes.length ? h("p", { class: "hand-changes" }, changes.flatMap(([n, d], k) =>
      [k ? ", " : "", `${n} `, h("span", { class: d > 0 ? "plus" : "minus", text: d > 0 ? `+${d}` : String(d) })]))
      : null);
  });
  replace(box, h("h2", { id: "history-title", text: "The sheet" }),
    items.length ? h("ol", { class: "history" }, items.reverse())
      : h("p", { class: "muted", text: "No hands yet." }));
}

async function main() {
  applyPrefs();
  const id = document.body.dataset.sheet;
  if (id) await sheetPage(id);
  else await newSheetPage();
}

void main();
