// The analysis of a game in the hand-history viewer (issue 33; docs/web.md, "Analysis"): ask
// for it (POST /api/tables/{id}/analysis), its progress, then beside each decision the loss,
// the best alternative, its label and the open-hand (hindsight) values on the cards; a summary
// per hand and per match; a chart of each side's expected score through the hand (SVG drawn
// here, no library); near a match's end each choice's chance to win the match (bars drawn here
// from the server's numbers); and "learn from your mistakes", one's own costliest decisions as
// puzzles.
// Every number comes from the server: this module computes no rule.

import { api, ApiError } from "./api.js";
import { cardShort, cardSvg, suitName } from "./cards.js";
import { h, replace } from "./dom.js";
import { actionShort, sideName } from "./history_steps.js";

/**
 * @typedef {{action: string, label: string, value: number, se: number,
 *   hindsight: number | null, chance: number | null}} Candidate
 * @typedef {{hand: number, index: number, seat: number, player: string, phase: string,
 *   action: string, best: string, loss: number, loss_se: number, label: string | null,
 *   worlds: number, method: string, words: string, candidates: Candidate[],
 *   chance_loss: number | null, chance_loss_se: number | null,
 *   chance_best?: string | null, for_the_match?: boolean}} Decision
 * @typedef {{player: string, choices: number, auction_loss: number, play_loss: number,
 *   loss: number, chance_loss: number, labels: Record<string, number>}} Summary
 * @typedef {{hand: number, chart: {index: number, seat: number, side: number,
 *   expected: number}[], losses: Record<string, number>, labels: number}} HandInfo
 * @typedef {{decisions: Decision[], summary: Summary[], hands: HandInfo[],
 *   thresholds: Record<string, number>}} Analysis
 * @typedef {{status: string, done: number, total: number, upto: number,
 *   error: string | null, analysis: Analysis | null}} Job
 * @typedef {import("./history_steps.js").HandRecord} HandRecord
 */

const SVG = "http://www.w3.org/2000/svg";

/** Points to show, to the hundredth (a loss, a value). */
const DIGITS = 2;

/**
 * @param {number} x
 * @param {number} [digits]
 */
function fixed(x, digits = DIGITS) {
  return x.toFixed(digits);
}

/**
 * @param {number} x
 * @param {number} [digits]
 */
function points(x, digits = DIGITS) {
  const text = fixed(Math.abs(x), digits);
  return x > 0 ? `+${text}` : x < 0 ? `−${text}` : text;
}

/**
 * An SVG element with attributes.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElementTagNameMap[K]}
 */
function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

/** The analysis's decisions by hand and action index, and its hands by number. */
export class AnalysisIndex {
  /** @param {Analysis} analysis */
  constructor(analysis) {
    this.analysis = analysis;
    /** @type {Map<string, Decision>} */
    this.decisions = new Map(analysis.decisions.map((d) => [`${d.hand}:${d.index}`, d]));
    /** @type {Map<number, HandInfo>} */
    this.hands = new Map(analysis.hands.map((hd) => [hd.hand, hd]));
  }

  /**
   * The decision a step of the viewer shows (step 0 is the deal; step n is action n - 1).
   * @param {number} hand
   * @param {number} step
   */
  at(hand, step) {
    return step > 0 ? this.decisions.get(`${hand}:${step - 1}`) ?? null : null;
  }
}

/**
 * One decision in words: the choice's value; where it was not the best, the loss, the label
 * and the best alternative with what it does.
 * @param {Decision} d
 */
export function decisionNote(d) {
  const chosen = d.candidates.find((c) => c.action === d.action);
  if (d.method === "forced" || !chosen) {
    return h("p", { id: "step-analysis", class: "step-analysis",
      text: `${d.player}: the only legal choice.` });
  }
  const head = `${d.player}: ${chosen.label}, expected ${points(chosen.value)}`;
  if (d.best === d.action) {
    return h("p", { id: "step-analysis", class: "step-analysis", "data-loss": "0",
      text: `${head} — the best choice.` });
  }
  const best = d.candidates.find((c) => c.action === d.best);
  return h("p", { id: "step-analysis", class: "step-analysis",
    "data-loss": fixed(d.loss), "data-label": d.label },
  `${head}; loss `, h("strong", { class: "loss", text: `${fixed(d.loss)}` }),
  ` ± ${fixed(d.loss_se)}`,
  d.label ? h("span", { class: `label label-${d.label}`, text: ` ${d.label}` })
    // the server's verdict: points given up for a better chance to win the match
    : d.for_the_match ? h("span", { class: "for-the-match",
      text: " for the match (it wins the match more often)" }) : null,
  best ? `. Best: ${best.label}, expected ${points(best.value)}${d.words ? ` (${d.words})` : ""}.`
    : ".");
}

/**
 * The open-hand (hindsight) value of each card the deciding seat could play, on its cards.
 * @param {HTMLElement} table the viewer's table (its .hseat lists)
 * @param {Decision} d
 */
export function markHindsight(table, d) {
  for (const c of d.candidates) {
    if (c.hindsight === null) continue;
    const card = c.action.split(" ")[1];
    const li = table.querySelector(`.hseat[data-seat="${d.seat}"] .hcard[data-card="${card}"]`);
    if (!li) continue;
    li.setAttribute("data-hindsight", c.hindsight.toFixed(1));
    li.append(h("span", { class: "hindsight", title: "open-hand value (hindsight)",
      text: points(c.hindsight, 1) }));
  }
}

/**
 * A chance (0..1) as a whole percentage.
 * @param {number} x
 */
function percent(x) {
  return `${Math.round(100 * x)}%`;
}

/**
 * The candidate best by chance to win the match: the server's (``chance_best``, the one its
 * ``chance_loss`` was measured against), never picked here; undefined where it sent none.
 * @param {Decision} d
 */
export function chanceBest(d) {
  return d.candidates.find((c) => c.action === d.chance_best
    && c.chance !== null && c.chance !== undefined);
}

/**
 * Near a match's end, the chance to win the match that the server computed for each choice
 * of a decision, drawn as bars (the choice made and the best by chance marked), with the
 * chance given up in words; null where the server sent no chances (the match could not end in
 * this hand, the money game, a forced move).
 * @param {Decision} d
 */
export function chanceNote(d) {
  const weighed = d.candidates.filter((c) => c.chance !== null && c.chance !== undefined);
  if (d.chance_loss === null || d.chance_loss === undefined || !weighed.length) return null;
  const chosen = weighed.find((c) => c.action === d.action);
  const best = chanceBest(d);
  const rows = weighed.length;
  const width = 320;
  const row = 16;
  const left = 96;
  const chart = svg("svg", { id: "chance-chart", class: "chance-chart", role: "img",
    viewBox: `0 0 ${width} ${rows * row + 4}` });
  chart.append(svg("title"));
  /** @type {SVGTitleElement} */ (chart.firstChild).textContent =
    "Each choice's chance to win the match";
  weighed.forEach((c, i) => {
    const chance = /** @type {number} */ (c.chance);
    const y = 2 + i * row;
    const kind = c.action === d.action ? "chosen" : c === best ? "best" : "other";
    const name = svg("text", { x: left - 6, y: y + row - 5, "text-anchor": "end",
      class: "chance-name" });
    name.textContent = c.label;
    const bar = svg("rect", { x: left, y: y + 2, height: row - 5, class: `chance-bar ${kind}`,
      width: (chance * (width - left - 40)).toFixed(1), "data-action": c.action,
      "data-chance": chance.toFixed(4) });
    const value = svg("text", { x: left + chance * (width - left - 40) + 4, y: y + row - 5,
      class: "chance-value" });
    value.textContent = percent(chance);
    chart.append(name, bar, value);
  });
  const words = chosen
    ? `Chance to win the match: ${percent(/** @type {number} */ (chosen.chance))} with `
      + `${chosen.label}` + (d.chance_loss > 0 && best && best !== chosen
      ? `, ${percent(/** @type {number} */ (best.chance))} with ${best.label}: `
        + `${percent(d.chance_loss)} given up (± ${percent(d.chance_loss_se ?? 0)}).`
      : d.chance_loss > 0 ? `: ${percent(d.chance_loss)} given up.` : " — the best chance.")
    : `Chance to win the match given up: ${percent(d.chance_loss)}.`;
  return h("figure", { id: "step-chance", class: "chance-figure",
    "data-chance-loss": d.chance_loss.toFixed(4) }, chart,
  h("figcaption", { class: "muted", text: words }));
}

/**
 * The chart of each side's expected net score change for the hand, as its own players saw it
 * at each of their decisions (x: the action, y: points); `step` marks where the viewer is.
 * @param {HandRecord} hand
 * @param {HandInfo} info
 * @param {number} step
 */
export function handChart(hand, info, step) {
  const width = 320;
  const height = 140;
  const pad = 24;
  const last = Math.max(1, hand.steps.length - 1);
  const ys = [0, ...info.chart.map((p) => p.expected)];
  const lo = Math.min(...ys);
  const hi = Math.max(...ys, lo + 1);
  const x = (/** @type {number} */ i) => pad + (i + 1) / last * (width - 2 * pad);
  const y = (/** @type {number} */ v) => height - pad - (v - lo) / (hi - lo) * (height - 2 * pad);
  const chart = svg("svg", { id: "analysis-chart", viewBox: `0 0 ${width} ${height}`,
    role: "img", class: "analysis-chart" });
  chart.append(svg("title"));
  /** @type {SVGTitleElement} */ (chart.firstChild).textContent =
    "Each side's expected points for the hand, through the hand";
  chart.append(svg("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: "zero" }));
  chart.append(svg("line", { x1: x(step - 1), x2: x(step - 1), y1: pad / 2,
    y2: height - pad / 2, class: "now" }));
  /** @type {Map<number, [number, number][]>} */
  const bySide = new Map();
  for (const p of info.chart) {
    if (!bySide.has(p.side)) bySide.set(p.side, []);
    /** @type {[number, number][]} */ (bySide.get(p.side)).push([x(p.index), y(p.expected)]);
  }
  const legend = h("ul", { class: "chart-legend" });
  for (const [side, line] of [...bySide.entries()].sort((a, b) => a[0] - b[0])) {
    chart.append(svg("polyline", { points: line.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`)
      .join(" "), class: "side-line", "data-side": side }));
    for (const [a, b] of line) {
      chart.append(svg("circle", { cx: a.toFixed(1), cy: b.toFixed(1), r: 2.5,
        class: "side-dot", "data-side": side }));
    }
    legend.append(h("li", { "data-side": side, text: sideName(hand, side) }));
  }
  const axis = h("p", { class: "muted chart-axis",
    text: `From ${points(lo, 1)} to ${points(hi, 1)} points (expected net score change)` });
  return h("figure", { class: "analysis-figure" }, chart, h("figcaption", {}, legend, axis));
}

/**
 * A hand's analysis: each player's loss in it, its labelled decisions, and its chart.
 * @param {HandRecord} hand
 * @param {HandInfo | undefined} info
 * @param {number} step
 */
export function handAnalysis(hand, info, step) {
  if (!info) {
    return h("section", { id: "hand-analysis", class: "panel" },
      h("p", { class: "muted", text: "This hand is not in the analysis." }));
  }
  const rows = Object.entries(info.losses).map(([player, loss]) => h("tr", {},
    h("th", { scope: "row", text: player }), h("td", { text: fixed(loss) })));
  return h("section", { id: "hand-analysis", class: "panel analysis-box",
    "aria-labelledby": "hand-analysis-title" },
  h("h2", { id: "hand-analysis-title", text: `Analysis of hand ${hand.number}` }),
  handChart(hand, info, step),
  h("table", { class: "score-table" }, h("caption", { text: "Points lost against the best" }),
    h("tbody", {}, rows)),
  h("p", { class: "muted", text: `${info.labels} labelled decision${info.labels === 1 ? ""
    : "s"} in this hand.` }));
}

/**
 * The match's summary: each player's points lost in the auction and the play, and the count of
 * each label.
 * @param {Analysis} analysis
 */
export function matchSummary(analysis) {
  const labels = Object.keys(analysis.thresholds);
  // the column only where the server weighed chances (a match near its end)
  const chances = analysis.decisions.some((d) => d.chance_loss !== null
    && d.chance_loss !== undefined);
  return h("table", { id: "analysis-summary", class: "score-table" },
    h("caption", { text: "Where the points went (lost against the best choice, from each "
      + "player's own view)" }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Player" }),
      h("th", { scope: "col", text: "Choices" }), h("th", { scope: "col", text: "Auction" }),
      h("th", { scope: "col", text: "Play" }), h("th", { scope: "col", text: "Total" }),
      labels.map((name) => h("th", { scope: "col", text: name })),
      chances ? h("th", { scope: "col", text: "Most match chance given up" }) : null)),
    h("tbody", {}, analysis.summary.map((s) => h("tr", { "data-player": s.player },
      h("th", { scope: "row", text: s.player }), h("td", { text: String(s.choices) }),
      h("td", { text: fixed(s.auction_loss) }), h("td", { text: fixed(s.play_loss) }),
      h("td", { class: "loss", text: fixed(s.loss) }),
      labels.map((name) => h("td", { text: String(s.labels[name] ?? 0) })),
      chances ? h("td", { class: "chance-loss", text: percent(s.chance_loss ?? 0) })
        : null))));
}

/**
 * The analysis panel: the Analyse button, the progress, the match's summary and the puzzles.
 * `shown(index)` is called once the analysis is done.
 * @param {string} table
 * @param {string | null} token the seat's, if this browser holds one
 * @param {(index: AnalysisIndex) => void} shown
 * @param {boolean} start ask at once (the table page's "Analyse" link)
 */
export function analysisPanel(table, token, shown, start) {
  const path = `/api/tables/${encodeURIComponent(table)}/analysis`;
  const button = h("button", { type: "button", id: "analyse", class: "primary",
    text: "Analyse" });
  const status = h("p", { id: "analysis-status", role: "status", class: "muted" });
  const bar = h("progress", { id: "analysis-progress", max: 1, value: 0, hidden: true });
  const body = h("div", { class: "analysis-body" });
  const panel = h("section", { id: "analysis", class: "panel analysis-panel",
    "aria-labelledby": "analysis-title" },
  h("h2", { id: "analysis-title", text: "Analysis" }),
  h("p", { class: "muted", text: "Every bid and card weighed afterwards from its player's own "
    + "view; open-hand values (every card seen) are hindsight." }),
  button, status, bar, body);

  /** @param {Job} job */
  const show = (job) => {
    bar.hidden = !(job.status === "running" || job.status === "queued");
    bar.max = Math.max(1, job.total);
    bar.value = job.done;
    button.hidden = job.status !== "none" && job.status !== "failed";
    if (job.status === "none") status.textContent = `The ${job.upto} finished hand`
      + `${job.upto === 1 ? "" : "s"} can be analysed.`;
    else if (job.status === "queued") status.textContent = "Waiting for a free analyser…";
    else if (job.status === "running") status.textContent = job.total
      ? `Analysing: ${job.done} of ${job.total} decisions.` : "Analysing…";
    else if (job.status === "failed") status.textContent = `The analysis failed: ${job.error}`;
    else if (job.status === "done" && job.analysis) {
      status.textContent = `Analysed: ${job.analysis.decisions.length} decisions of `
        + `${job.analysis.hands.length} hand${job.analysis.hands.length === 1 ? "" : "s"}.`;
      const index = new AnalysisIndex(job.analysis);
      replace(body, matchSummary(job.analysis), token ? puzzlesStarter(table, token) : null);
      shown(index);
    }
  };

  /** @param {Job} job */
  const follow = async (job) => {
    show(job);
    while (job.status === "queued" || job.status === "running") {
      await new Promise((resolve) => { setTimeout(resolve, 700); });
      job = await api("GET", path, undefined, token ?? undefined);
      show(job);
    }
  };

  const failed = (/** @type {unknown} */ error) => {
    button.hidden = true;
    status.textContent = error instanceof ApiError ? error.message : String(error);
    status.classList.add("error");
  };

  button.addEventListener("click", () => {
    button.disabled = true;
    status.classList.remove("error");
    api("POST", path, undefined, token ?? undefined).then(follow).catch(failed)
      .finally(() => { button.disabled = false; });
  });
  api("GET", path, undefined, token ?? undefined).then((/** @type {Job} */ job) => {
    if (start && (job.status === "none" || job.status === "failed")) button.click();
    else follow(job).catch(failed);
  }).catch(failed);
  return panel;
}

// ------------------------------------------------------------------ learn from your mistakes

/**
 * @typedef {{hand: number, index: number, seat: number, phase: string,
 *   view: {hand: string[], auction: [number, string][], trick: [number, string][],
 *     trump: string | null, rules: import("./words.js").Rules},
 *   choices: {action: string, label: string}[],
 *   answer: Decision}} Puzzle
 */

/**
 * The "Learn from your mistakes" button and the puzzles it opens.
 * @param {string} table
 * @param {string} token
 */
function puzzlesStarter(table, token) {
  const start = h("button", { type: "button", id: "puzzles-start",
    text: "Learn from your mistakes" });
  const box = h("div", { id: "puzzles", class: "puzzles" });
  start.addEventListener("click", () => {
    start.disabled = true;
    api("GET", `/api/tables/${encodeURIComponent(table)}/analysis/puzzles`, undefined, token)
      .then((/** @type {{puzzles: Puzzle[]}} */ data) => {
        if (!data.puzzles.length) {
          replace(box, h("p", { id: "puzzle-none", text: "No mistake of yours was found "
            + "beyond the noise of the estimate: nothing to practise." }));
          return;
        }
        showPuzzle(box, data.puzzles, 0);
      }).catch((error) => {
        replace(box, h("p", { class: "error", role: "alert",
          text: error instanceof ApiError ? error.message : String(error) }));
      }).finally(() => { start.disabled = false; });
  });
  return h("div", {}, start, box);
}

/**
 * One puzzle: the position as the player saw it, "what would you play?", then the answer.
 * @param {HTMLElement} box
 * @param {Puzzle[]} puzzles
 * @param {number} i
 */
function showPuzzle(box, puzzles, i) {
  const p = puzzles[i];
  const view = p.view;
  const answer = h("div", { id: "puzzle-answer", "aria-live": "polite" });
  const choices = h("div", { class: "puzzle-choices", role: "group",
    "aria-label": "What would you play?" },
  p.choices.map((c) => {
    const b = h("button", { type: "button", class: "small puzzle-choice",
      "data-action": c.action, text: c.label });
    b.addEventListener("click", () => {
      choices.querySelectorAll("button").forEach((x) => { x.disabled = true; });
      replace(answer, puzzleAnswer(p, c.action));
    });
    return b;
  }));
  const next = i + 1 < puzzles.length
    ? h("button", { type: "button", id: "puzzle-next", text: "Next puzzle",
      onclick: () => showPuzzle(box, puzzles, i + 1) }) : null;
  const trick = view.trick.length
    ? h("p", {}, "The trick so far: ", view.trick.map(([, card]) => cardShort(card)).join(", "))
    : null;
  const auction = view.auction.length
    ? h("p", {}, "The auction so far: ", view.auction.map(([, a]) => actionShort(
      /** @type {any} */ (view), a)).join(", ")) : null;
  replace(box, h("article", { class: "puzzle", "data-hand": p.hand, "data-index": p.index },
    h("h3", { text: `Puzzle ${i + 1} of ${puzzles.length}: hand ${p.hand}` }),
    view.trump ? h("p", { text: `Trump: ${suitName(view.trump)}` }) : null,
    auction, trick,
    h("ul", { class: "hcards puzzle-hand", "aria-label": "Your cards" },
      view.hand.map((card) => h("li", { class: "hcard", "data-card": card }, cardSvg(card)))),
    h("p", { class: "puzzle-question", text: "What would you play?" }),
    choices, answer, next));
}

/**
 * The answer: what was played, the best, the loss, and every choice's value.
 * @param {Puzzle} p
 * @param {string} picked
 */
function puzzleAnswer(p, picked) {
  const d = p.answer;
  const by = (/** @type {string} */ a) => d.candidates.find((c) => c.action === a);
  const best = by(d.best);
  const mine = by(picked);
  const played = by(d.action);
  return [
    h("p", { class: picked === d.best ? "puzzle-right" : "puzzle-wrong",
      text: picked === d.best ? "The best choice." : `Best was ${best?.label ?? d.best}.` }),
    h("p", { text: `In the game you chose ${played?.label ?? d.action}: a loss of `
      + `${fixed(d.loss)} ± ${fixed(d.loss_se)} points (${d.label}).`
      + (d.words ? ` The best: ${d.words}.` : "") }),
    mine && mine !== best ? h("p", { text: `Your answer now, ${mine.label}: expected `
      + `${points(mine.value)} against ${points(best?.value ?? 0)}.` }) : null,
    h("table", { class: "score-table puzzle-values" },
      h("caption", { text: "Each choice's expected net score change" }),
      h("tbody", {}, d.candidates.map((c) => h("tr", { "data-action": c.action },
        h("th", { scope: "row", text: c.label }), h("td", { text: points(c.value) }),
        h("td", { class: "muted", text: `± ${fixed(c.se)}` }),
        c.chance === null || c.chance === undefined ? null
          : h("td", { class: "chance", text: `${percent(c.chance)} to win the match` }))))),
    chanceNote(d),
  ];
}

