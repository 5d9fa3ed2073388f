// The hand-history viewer (/t/{id}/history): pick a finished hand, step through it trick by
// trick or card by card (Previous / Next, ← / →), every seat's cards face up (the hand is over),
// the auction, the trick as it stood, and the points at the end.
// Data: GET /api/tables/{id}/hands (the seat's token if this browser holds one).
// docs/web.md: #hands, #step-back, #step-forward, #position.

import { api, ApiError } from "./api.js";
import { seatToken } from "./tokens.js";
import { applyPrefs } from "./prefs.js";
import { cardName, cardShort, cardSvg, suitIcon, suitName } from "./cards.js";
import { h, replace } from "./dom.js";
import { bidWord, moonWord } from "./words.js";
import { actionSentence, actionShort, handTitle, nameOf, positionWords, revealAt, sideName, signed,
  trickStops } from "./history_steps.js";
import { siteHeader, variantWords } from "./site.js";
import { analysisPanel, chanceNote, decisionNote, handAnalysis, markHindsight }
  from "./analysis.js";

/**
 * @typedef {import("./history_steps.js").HandRecord} HandRecord
 * @typedef {import("./history_steps.js").PublicView} PublicView
 * @typedef {import("./history_steps.js").Step} Step
 * @typedef {import("./history_steps.js").Result} Result
 */

// ------------------------------------------------------------------ the viewer

class Viewer {
  /**
   * @param {HandRecord[]} hands
   */
  constructor(hands) {
    this.hands = hands;
    this.handIndex = 0;
    this.step = 0;
    /** @type {"trick" | "card"} */
    this.by = "trick";

    this.list = h("ol", { id: "hands", class: "hand-list" });
    this.back = h("button", { type: "button", id: "step-back", text: "Previous",
      "aria-keyshortcuts": "ArrowLeft" });
    this.forward = h("button", { type: "button", id: "step-forward", class: "primary",
      text: "Next", "aria-keyshortcuts": "ArrowRight" });
    this.position = h("p", { id: "position", class: "position", "aria-live": "polite",
      "aria-atomic": "true" });
    this.said = h("p", { id: "step-action", class: "step-action" });
    this.table = h("div", { class: "history-table" });
    this.side = h("div", { class: "history-side" });
    /** @type {import("./analysis.js").AnalysisIndex | null} the analysis, once done */
    this.analysis = null;
    this.note = h("div", { class: "step-note" });
    this.handBox = h("div", { class: "hand-analysis" });

    const byTrick = h("button", { type: "button", id: "by-trick", class: "small",
      "aria-pressed": "true", text: "Trick" });
    const byCard = h("button", { type: "button", id: "by-card", class: "small",
      "aria-pressed": "false", text: "Card" });
    for (const [button, by] of /** @type {[HTMLButtonElement, "trick" | "card"][]} */ (
      [[byTrick, "trick"], [byCard, "card"]])) {
      button.addEventListener("click", () => {
        this.by = by;
        byTrick.setAttribute("aria-pressed", String(by === "trick"));
        byCard.setAttribute("aria-pressed", String(by === "card"));
      });
    }
    this.controls = h("div", { class: "step-controls", role: "group",
      "aria-label": "Step through the hand" },
    h("div", { class: "step-buttons" }, this.back, this.position, this.forward),
    h("div", { class: "step-by", role: "group", "aria-labelledby": "step-by-label" },
      h("span", { id: "step-by-label", class: "label", text: "Step by" }), byTrick, byCard),
    h("p", { class: "hint keys-hint" }, "Keys: ", h("kbd", { text: "←" }), " ",
      h("kbd", { text: "→" }), " step, ", h("kbd", { text: "Home" }), " ",
      h("kbd", { text: "End" }), " the start and the end."));

    this.back.addEventListener("click", () => this.move(-1));
    this.forward.addEventListener("click", () => this.move(1));
    document.addEventListener("keydown", (event) => this.key(event));

    this.fillList();

    const wanted = /^#hand-(\d+)$/.exec(location.hash);
    const start = wanted ? this.hands.findIndex((hd) => hd.number === Number(wanted[1])) : -1;
    this.pick(start >= 0 ? start : 0, false);
  }

  /** The hands' buttons, oldest first. */
  fillList() {
    replace(this.list, this.hands.map((hand, i) => {
      const button = h("button", { type: "button", class: "hand-pick", "data-hand": hand.number,
        text: handTitle(hand) });
      button.addEventListener("click", () => this.pick(i, true));
      return h("li", {}, button);
    }));
  }

  /**
   * Earlier hands (a page of GET …/hands?before=n), put ahead of those shown.
   * @param {HandRecord[]} earlier
   */
  addEarlier(earlier) {
    const current = this.hand;
    this.hands = [...earlier, ...this.hands];
    this.handIndex = this.hands.indexOf(current);
    this.fillList();
    this.list.querySelectorAll("button")[this.handIndex]?.setAttribute("aria-current", "true");
  }

  /**
   * The analysis is done: shown beside every step from now on.
   * @param {import("./analysis.js").AnalysisIndex} index
   */
  showAnalysis(index) {
    this.analysis = index;
    this.render();
  }

  /** @returns {HandRecord} */
  get hand() {
    return this.hands[this.handIndex];
  }

  /**
   * @param {number} index
   * @param {boolean} focus move the focus to Next (a hand was chosen)
   */
  pick(index, focus) {
    this.handIndex = index;
    this.step = 0;
    history.replaceState(null, "", `#hand-${this.hand.number}`);
    this.list.querySelectorAll("button").forEach((b, i) => {
      if (i === index) b.setAttribute("aria-current", "true");
      else b.removeAttribute("aria-current");
    });
    this.render();
    if (focus) this.forward.focus();
  }

  /** @param {number} direction -1 back, +1 forward */
  move(direction) {
    const last = this.hand.steps.length - 1;
    let next;
    if (this.by === "card") {
      next = this.step + direction;
    } else {
      const stops = trickStops(this.hand);
      next = direction > 0 ? stops.find((s) => s > this.step) ?? last
        : [...stops].reverse().find((s) => s < this.step) ?? 0;
    }
    this.go(next);
  }

  /** @param {number} step */
  go(step) {
    const clamped = Math.max(0, Math.min(this.hand.steps.length - 1, step));
    if (clamped === this.step) return;
    this.step = clamped;
    this.render();
  }

  /** @param {KeyboardEvent} event */
  key(event) {
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (target && target.closest("input, select, textarea, [contenteditable]")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowLeft") this.move(-1);
    else if (event.key === "ArrowRight") this.move(1);
    else if (event.key === "Home") this.go(0);
    else if (event.key === "End") this.go(this.hand.steps.length - 1);
    else return;
    event.preventDefault();
  }

  render() {
    const hand = this.hand;
    const step = hand.steps[this.step];
    const view = step.view;
    const last = hand.steps.length - 1;
    this.back.disabled = this.step === 0;
    this.forward.disabled = this.step === last;
    this.position.textContent = positionWords(hand, this.step);
    const reveal = revealAt(hand, this.step);  // CP5: the partner, as the table learnt it
    this.said.textContent = (step.seat !== null && step.action
      ? actionSentence(view, nameOf(hand, step.seat), step.action)
      : `${nameOf(hand, hand.dealer)} deals.`) + (reveal ? ` ${reveal}` : "");
    replace(this.table, this.centre(hand, step), this.seats(hand, step));
    const decision = this.analysis ? this.analysis.at(hand.number, this.step) : null;
    replace(this.note, decision ? decisionNote(decision) : null,
      decision ? chanceNote(decision) : null);
    if (decision) markHindsight(this.table, decision);
    replace(this.handBox, this.analysis
      ? handAnalysis(hand, this.analysis.hands.get(hand.number), this.step) : null);
    replace(this.side, this.auction(hand, step),
      this.step === last && hand.result ? this.result(hand) : null);
  }

  /**
   * The middle of the table: trump, and the trick as it stood.
   * @param {HandRecord} hand
   * @param {Step} step
   */
  centre(hand, step) {
    const view = step.view;
    const trump = view.trump
      ? h("p", { class: "trump" }, "Trump: ", suitIcon(view.trump, { decorative: true }), " ",
        suitName(view.trump))
      : h("p", { class: "trump muted", text: "Trump: not yet (the pitcher's first lead sets it)" });
    /** @type {[number, string][]} */
    let shown = view.trick;
    let caption = "";
    /** @type {number | null} */
    let winner = null;
    if (view.phase === "auction" && view.pitched_card !== null && view.pitcher !== null) {
      shown = [[view.pitcher, view.pitched_card]];
      caption = `${nameOf(hand, view.pitcher)} pitched`;
    } else if (shown.length === 0 && view.tricks.length > 0) {
      const t = view.tricks[view.tricks.length - 1];
      shown = t.plays;
      winner = t.winner;
      caption = `Trick ${view.tricks.length}, won by ${nameOf(hand, t.winner)}`;
    } else if (shown.length > 0) {
      caption = `Trick ${view.tricks.length + 1}`;
    }
    const cards = h("ul", { class: "trick-cards", "aria-label": caption || "The trick" },
      shown.map(([seat, card]) => h("li", { class: "played", "data-seat": seat, "data-card": card,
        "data-winner": seat === winner ? "true" : null,
        "data-just": step.action === `play ${card}` || step.action === `pitch ${card}` ? "true"
          : null },
      cardSvg(card), h("span", { class: "played-by", text: nameOf(hand, seat)
        + (seat === winner ? " ✓" : "") }))));
    return h("div", { class: "felt history-felt" }, trump,
      h("p", { class: "trick-caption", text: caption || (view.phase === "auction"
        ? "The auction" : "No card played yet") }),
      shown.length ? cards : null);
  }

  /**
   * Every seat: name, dealer, bid, tricks won, and its cards face up (played ones faded).
   * @param {HandRecord} hand
   * @param {Step} step
   */
  seats(hand, step) {
    const view = step.view;
    const dealt = hand.steps[0].hands;
    /** @type {Record<number, string>} */
    const bids = {};
    for (const [seat, action] of view.auction) bids[seat] = actionShort(view, action);
    return h("ul", { class: "history-seats", "aria-label": "The seats' cards" },
      dealt.map((cards, seat) => {
        const held = new Set(step.hands[seat] ?? []);
        const facts = [];
        if (seat === hand.dealer) facts.push("dealer");
        if (view.pitcher === seat && view.contract !== null) {
          facts.push(`pitcher, bid ${bidWord(view.rules, view.contract)}`);
        } else if (bids[seat]) facts.push(bids[seat]);
        if (view.tricks_won[seat]) {
          facts.push(`${view.tricks_won[seat]} trick${view.tricks_won[seat] === 1 ? "" : "s"}`);
        }
        return h("li", { class: "hseat", "data-seat": seat,
          "data-turn": view.seat_to_act === seat ? "true" : null,
          "data-acted": step.seat === seat ? "true" : null },
        h("p", { class: "hseat-head" }, h("span", { class: "hseat-name", text: nameOf(hand, seat) }),
          facts.length ? h("span", { class: "hseat-facts", text: ` · ${facts.join(" · ")}` })
            : null),
        h("ul", { class: "hcards", "aria-label": `${nameOf(hand, seat)}'s cards` },
          cards.map((card) => {
            const played = !held.has(card);
            const svg = cardSvg(card);
            if (played) svg.setAttribute("aria-label", `${cardName(card)}, played`);
            return h("li", { class: played ? "hcard played-out" : "hcard", "data-card": card },
              svg);
          })));
      }));
  }

  /**
   * The auction so far.
   * @param {HandRecord} hand
   * @param {Step} step
   */
  auction(hand, step) {
    const view = step.view;
    const items = view.auction.map(([seat, action]) => h("li", {},
      h("span", { class: "who", text: `${nameOf(hand, seat)}: ` }),
      h("span", { text: actionShort(view, action) })));
    return h("section", { class: "panel auction-box", "aria-labelledby": "auction-title" },
      h("h2", { id: "auction-title", text: "Auction" }),
      items.length ? h("ol", { class: "auction-list" }, items)
        : h("p", { class: "muted",
          text: `Nobody has bid yet; ${nameOf(hand, view.first_to_bid)} speaks first.` }));
  }

  /**
   * The hand's result: made or set, who took High, Low, Jack and Game, the points and scores.
   * @param {HandRecord} hand
   */
  result(hand) {
    const r = /** @type {Result} */ (hand.result);
    const view = hand.steps[hand.steps.length - 1].view;
    const sides = r.points.length;
    const who = (/** @type {number | null} */ side) => side === null || side === undefined
      ? "nobody" : sideName(hand, side);
    /** @type {HTMLElement[]} */
    const lines = [];
    if (r.thrown_in || r.pitcher === null) {
      lines.push(h("p", { text: "Everyone passed: the hand was thrown in." }));
    } else {
      const pitcher = nameOf(hand, r.pitcher);
      lines.push(h("p", { class: "outcome", text: r.bid === 0
        ? `${pitcher} led with no bid to make.`
        : `${pitcher} bid ${bidWord(view.rules, r.bid)} and ${r.made ? "made it" : "was set"}`
          + `${r.moon ? ` — a ${moonWord(view.rules)}!` : "."}` }));
    }
    const trump = r.trump ? ` ${suitName(r.trump)}` : "";
    const rows = [
      ["High", r.high, r.high_card ? `${cardShort(r.high_card)}` : ""],
      ["Low", r.low, r.low_card ? `${cardShort(r.low_card)}` : ""],
      ["Jack", r.jack, r.jack_card ? `${cardShort(r.jack_card)}` : r.jack === null
        ? `the jack of${trump} was not dealt` : ""],
      ["Game", r.game, r.game_counts && r.game !== null
        ? `${r.game_counts[r.game]} in game count` : "tied or none"],
      // T6: the ten-point family's extra points
      ...(r.extra || []).map(([name, side, value]) => [name, side, value > 1 ? `${value} points` : ""]),
    ];
    if (!r.thrown_in) {
      lines.push(h("table", { class: "points-table" },
        h("caption", { class: "visually-hidden", text: "The points" }),
        h("tbody", {}, rows.map(([point, side, note]) => h("tr", {},
          h("th", { scope: "row", text: String(point) }),
          h("td", { text: who(/** @type {number | null} */ (side)) }),
          h("td", { class: "muted", text: String(note) }))))));
    }
    const totals = hand.total ?? null;
    lines.push(h("table", { class: "score-table" },
      h("caption", { text: "Scores" }),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: sides < view.players ? "Team"
        : "Player" }), h("th", { scope: "col", text: "Points" }),
      h("th", { scope: "col", text: "Change" }),
      totals ? h("th", { scope: "col", text: "Score" }) : null)),
      h("tbody", {}, r.points.map((points, side) => h("tr", {},
        h("th", { scope: "row", text: sideName(hand, side) }),
        h("td", { text: String(points) }),
        h("td", { text: signed(r.deltas[side] ?? 0) }),
        totals ? h("td", { text: totals[side] === undefined ? ""
          : String(totals[side]).replace("-", "−") }) : null)))));
    return h("section", { id: "hand-result", class: "panel result-box",
      "aria-labelledby": "result-title" },
    h("h2", { id: "result-title", text: "Result" }), lines);
  }
}

// ------------------------------------------------------------------ the page

/**
 * The hands, with the seat's token if this browser holds one (a stale token: without).
 * @param {string} table
 * @param {number | null} [before] the hands numbered below this (a page further back)
 * @returns {Promise<{hands: HandRecord[], earlier: number | null}>}
 */
async function loadHands(table, before = null) {
  const path = `/api/tables/${encodeURIComponent(table)}/hands`
    + (before ? `?before=${before}` : "");
  const held = seatToken(table);
  if (held) {
    try {
      return await api("GET", path, undefined, held.token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
    }
  }
  return await api("GET", path);
}

async function main() {
  applyPrefs();
  const app = /** @type {HTMLElement} */ (document.getElementById("app"));
  const table = document.body.dataset.table || location.pathname.split("/")[2] || "";
  const title = h("h1", { text: "Hands played" });
  const status = h("p", { class: "muted", role: "status", text: "Loading the hands…" });
  const back = h("a", { href: `/t/${table}`, class: "back-link", text: "Back to the table" });
  replace(app, siteHeader(), h("div", { class: "history-head" }, title, back), status);

  api("GET", `/api/tables/${encodeURIComponent(table)}`).then((info) => {
    title.textContent = `Hands played: ${variantWords(info.variant)}`;
    document.title = `Hands of a table of ${variantWords(info.variant)} — Pitch`;
  }).catch(() => {});

  /** @type {{hands: HandRecord[], earlier: number | null}} */
  let data;
  try {
    data = await loadHands(table);
  } catch (error) {
    let message = error instanceof ApiError ? error.message : String(error);
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      message = "While the game goes on, the hands are shown to the table's players only (the "
        + "seat this browser took there); once it is over, to everyone.";
    } else if (error instanceof ApiError && error.status === 404) {
      message = "There is no such table.";
    }
    status.textContent = message;
    status.classList.add("error");
    status.setAttribute("role", "alert");
    return;
  }
  const hands = (data.hands || []).filter((hd) => hd.steps && hd.steps.length);
  if (!hands.length) {
    status.textContent = "No hand is finished yet: come back after the first one.";
    return;
  }
  status.remove();
  const viewer = new Viewer(hands);
  const earlier = h("button", { type: "button", id: "earlier-hands", class: "small",
    text: "Earlier hands", hidden: !data.earlier });
  let before = data.earlier;
  earlier.addEventListener("click", () => {
    earlier.disabled = true;
    loadHands(table, before).then((page) => {
      viewer.addEarlier((page.hands || []).filter((hd) => hd.steps && hd.steps.length));
      before = page.earlier;
      earlier.hidden = !before;
      earlier.textContent = "Earlier hands";
    }).catch((error) => {
      earlier.textContent = `Earlier hands (${error instanceof ApiError ? error.message
        : "not loaded"}: try again)`;
    }).finally(() => { earlier.disabled = false; });
  });
  const held = seatToken(table);
  const start = new URLSearchParams(location.search).get("analyse") === "1";
  app.append(h("div", { class: "history-grid" },
    h("nav", { class: "panel hands-box", "aria-labelledby": "hands-title" },
      h("h2", { id: "hands-title", text: "Hands" }), earlier, viewer.list),
    h("section", { class: "history-main", "aria-label": "The hand, step by step" },
      viewer.controls, viewer.said, viewer.note, viewer.table, viewer.handBox),
    viewer.side),
  analysisPanel(table, held ? held.token : null, (index) => viewer.showAnalysis(index), start));
}

main();
