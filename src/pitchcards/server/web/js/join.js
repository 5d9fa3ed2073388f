// The invitation (/join/{code}): the table's seats, a name and an open seat → "Take a seat" →
// the table (/t/{id}).  If this browser already holds a seat there, it offers the way back.
// docs/web.md: form#take-seat ([name=name], [name=seat]).

import { api, ApiError } from "./api.js";
import { seatToken } from "./tokens.js";
import { applyPrefs } from "./prefs.js";
import { h, replace } from "./dom.js";
import { bindSeatForm } from "./seatform.js";
import { savedName, seatWords, siteHeader, variantWords } from "./site.js";

/** @typedef {import("./site.js").TableInfo} TableInfo */

/**
 * Who sits at a seat, in words.
 * @param {import("./site.js").SeatInfo} s
 */
function who(s) {
  if (s.kind === "open") return "Open";
  if (s.kind === "bot") {
    const level = s.level ? `${s.level[0].toUpperCase()}${s.level.slice(1)} bot` : "Bot";
    return s.name && !/\bbot\b/i.test(s.name) ? `${s.name} (${level.toLowerCase()})` : level;
  }
  return `${s.name}${s.host ? " (host)" : ""}${s.away ? " (away)" : ""}`;
}

/**
 * The seats as a list.
 * @param {TableInfo} info
 */
function seatList(info) {
  const teams = info.rules?.teams ?? [];
  /** @param {number} seat its team's words (the rules' teams: the server's fact), or none */
  const team = (seat) => {
    const i = teams.findIndex((t) => t.includes(seat));
    return i < 0 ? "" : ` · team ${i + 1} (seats ${teams[i].map((s) => s + 1).join(" & ")})`;
  };
  return h("ul", { class: "join-seats", "aria-label": "Seats" },
    info.seats.map((s) => h("li", { "data-seat": s.seat, "data-kind": s.kind },
      h("span", { class: "seat-no", text: seatWords(s.seat) + team(s.seat) }),
      h("span", { class: "who", text: who(s) }))));
}

const STATUS = {
  waiting: "The game has not started yet.",
  playing: "The game is under way.",
  over: "The game is over.",
};

async function main() {
  applyPrefs();
  const app = /** @type {HTMLElement} */ (document.getElementById("app"));
  const code = document.body.dataset.invite || location.pathname.split("/").pop() || "";
  const box = h("div", { class: "join-box" }, h("p", { class: "muted", text: "Loading…" }));
  replace(app, siteHeader(), box);

  /** @type {TableInfo} */
  let info;
  try {
    info = await api("GET", `/api/invites/${encodeURIComponent(code)}`);
  } catch (error) {
    const message = error instanceof ApiError && error.status === 404
      ? "No table has this invite. Check the link, or ask for a new one."
      : `The table could not be loaded: ${error instanceof ApiError ? error.message : error}`;
    replace(box, h("h1", { text: "This invite does not work" }),
      h("p", { class: "error", role: "alert", text: message }),
      h("p", {}, h("a", { href: "/", text: "Create a table of your own" })));
    return;
  }
  document.title = `Invitation to a table of ${variantWords(info.variant)} — Pitch`;
  const table = info.table;
  const open = info.seats.filter((s) => s.kind === "open");
  const lateJoin = info.money && info.status === "playing";

  const name = h("input", { id: "join-name", name: "name", type: "text", required: true,
    maxLength: 24, autocomplete: "nickname", value: savedName(), spellcheck: false,
    "aria-describedby": "join-name-hint" });
  const seat = h("select", { id: "join-seat", name: "seat" });
  for (const s of open) seat.append(h("option", { value: String(s.seat), text: seatWords(s.seat) }));
  if (lateJoin && open.length === 0) {
    seat.append(h("option", { value: "", text: "The next free seat, between hands" }));
  }
  const error = h("p", { id: "join-error", class: "error", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "primary", text: "Take a seat" });
  const form = h("form", { id: "take-seat", class: "panel", novalidate: true,
    "aria-labelledby": "take-seat-title" },
  h("h2", { id: "take-seat-title", text: "Take a seat" }),
  h("div", { class: "field" }, h("label", { for: "join-name", text: "Your name" }), name,
    h("p", { id: "join-name-hint", class: "hint", text: "Up to 24 letters, digits, spaces or "
      + ". ' - : the others see it at the table." })),
  h("div", { class: "field" }, h("label", { for: "join-seat", text: "Seat" }), seat),
  error,
  h("div", { class: "actions-row" }, submit,
    h("a", { class: "button", href: `/t/${table}`, text: "Just watch" })));

  bindSeatForm({ form, name, seat, error, submit, busy: "Taking the seat…",
    path: () => `/api/invites/${encodeURIComponent(code)}/seats`,
    invite: () => `${location.origin}/join/${code}`,
    refused: (e) => {
      // someone was quicker: show the seats as they are now
      if (e.reason === "seat_taken" || e.reason === "table_full") main();
    } });

  const held = seatToken(table);
  /** @type {HTMLElement[]} */
  const parts = [
    h("h1", { text: `You are invited to a table of ${variantWords(info.variant)}` }),
    h("p", { text: `${STATUS[info.status] ?? ""} ${info.money ? "A money table." : ""}${
      lateJoin ? " A new player sits down at the next break between hands." : ""}`.trim() }),
    seatList(info),
  ];
  if (held) {
    parts.push(h("div", { class: "notice", role: "status" },
      h("p", { text: `You already have a seat at this table${held.seat === null ? ""
        : ` (${seatWords(held.seat)})`}, as ${held.name}.` }),
      h("div", { class: "actions-row" },
        h("a", { class: "button primary", id: "back-to-seat", href: `/t/${table}`,
          text: "Back to your seat" }))));
  }
  if (info.status === "over") {
    parts.push(h("p", {}, h("a", { href: `/t/${table}/history`, text: "See the hands played" })));
  } else if (open.length === 0 && !lateJoin) {
    parts.push(h("p", { class: "notice", text: "Every seat is taken." }),
      h("p", {}, h("a", { class: "button", href: `/t/${table}`, text: "Watch the game" })));
  } else if (held) {
    const another = h("button", { type: "button", text: "Take another seat here instead" });
    form.hidden = true;
    another.addEventListener("click", () => {
      form.hidden = false;
      another.remove();
      name.focus();
    });
    parts.push(h("div", { class: "actions-row" }, another), form);
  } else {
    parts.push(form);
  }
  const rules = h("pre", { class: "rules-summary", text: "Loading the rules…" });
  parts.splice(3, 0, h("details", { class: "rules-all panel" },
    h("summary", { text: "The rules of this table" }), rules));
  api("POST", "/api/rules", { variant: info.rules?.name || info.variant,
    options: info.rules?.options || {}, players: info.seats.length })
    .then((/** @type {{summary: string}} */ said) => {
      rules.textContent = said.summary;
    })
    .catch(() => {
      rules.textContent = `${variantWords(info.variant)}, ${info.seats.length} players.`;
    });
  replace(box, ...parts);
  if (!held && !form.hidden && form.isConnected && !name.value) name.focus();
}

main();
