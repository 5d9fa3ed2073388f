// The score sheet (docs/web.md `#scoresheet`): the scores now, and a row per finished hand —
// bidder and bid, who took High, Low, Jack and Game, made or set, the scores after it.  At money
// tables also points, stars and money against the average, and the joins, leaves, payouts and
// the settlement in the order they happened.

import { suitSymbol } from "./cards.js";
import { bidWord, cardShort, centsText, el, moonWord, pointsTotal, seatName, sideCount, sideName, signed, YOU }
  from "./words.js";

/**
 * @typedef {import("./state.js").TableState} TableState
 * @typedef {import("./state.js").HandRow} HandRow
 * @typedef {import("./state.js").News} News
 * @typedef {import("./words.js").View} View
 */

/**
 * Short forms of names that stay apart: "You", then the fewest first letters that tell each
 * name from the others ("B", "Cy", "Ca"); a partnership "You & Cy" → "Y&C".
 * @param {string[]} names
 * @returns {Map<string, string>}
 */
export function shortNames(names) {
  /**
   * @param {string} name
   * @param {number} n
   * @returns {string}
   */
  const cut = (name, n) => name === YOU ? YOU
    : name.includes(" & ") ? name.split(" & ").map((part) => part.slice(0, n)).join("&") : name.slice(0, n);
  const out = new Map();
  for (const name of names) {
    let n = 1;
    while (n <= 3 && names.some((other) => other !== name && cut(other, n) === cut(name, n))) n += 1;
    out.set(name, n <= 3 ? cut(name, n) : name);
  }
  return out;
}

/**
 * A name in its short form, the whole name for assistive technology and on hover.
 * @param {string} full
 * @param {Map<string, string> | null} short null: the whole name
 */
function nameNode(full, short) {
  const text = short ? short.get(full) || full : full;
  if (text === full) return document.createTextNode(full);
  return el("abbr", { title: full, "aria-label": full, text });
}

/**
 * Who took a point, with the card in the hover text: "B" (Bob, A♥).
 * @param {View} view
 * @param {number | null} side
 * @param {string | null | undefined} card
 * @param {Map<string, string> | null} short
 */
function pointCell(view, side, card, short) {
  if (side === null || side === undefined) return el("td", { class: "point", text: "–" });
  const who = sideName(view, side);
  return el("td", { class: "point", title: card ? `${who} (${cardShort(card)})` : who }, [nameNode(who, short)]);
}

/**
 * The ten-point family's extra points of a hand (T6), one cell: each side's sum of them ("B 4 ·
 * Y 1"), every point and its taker in the hover text and for assistive technology.
 * @param {View} view
 * @param {[string, number | null, number][]} extra
 * @param {Map<string, string> | null} short
 */
function extraCell(view, extra, short) {
  /** @type {Map<number, number>} */
  const sums = new Map();
  for (const [, side, value] of extra) if (side !== null) sums.set(side, (sums.get(side) || 0) + value);
  const long = extra.map(([name, side, value]) => `${name}${value > 1 ? ` (${value})` : ""}: `
    + (side === null ? "nobody" : sideName(view, side))).join("; ");
  const parts = [...sums.entries()].sort((a, b) => a[0] - b[0]).flatMap(([side, sum], i) =>
    [i ? " · " : "", nameNode(sideName(view, side), short), ` ${sum}`]);
  return el("td", { class: "point extra", title: long, "aria-label": long || "none" },
    parts.length ? parts : ["–"]);
}

/**
 * A join, leave or the settlement, as a sentence.
 * @param {News} news
 */
export function newsText(news) {
  if (news.kind === "joined") return `${news.name} joined${news.score ? ` with ${news.score} points` : ""}.`;
  if (news.kind === "left") {
    const cents = news.cents || 0;
    return `${news.name} left: ${cents < 0 ? "pays" : "paid"} ${centsText(Math.abs(cents)).replace(/^\+/, "")}.`;
  }
  const paid = Object.entries(news.cents_by_name || {}).map(([name, cents]) => `${name} ${centsText(cents)}`);
  return `Settled: ${paid.join(", ") || "nobody was paid"}.`;
}

/**
 * @param {HTMLElement} root `#scoresheet`
 * @param {TableState} state
 */
export function renderScoresheet(root, state) {
  const view = state.view;
  const money = Boolean(state.table && state.table.money);
  const key = JSON.stringify([state.rows.length, state.news.length, view && view.scores,
    view && view.money, view && view.stars, view && view.names, money, state.winner]);
  if (root.dataset.key === key) return;
  root.dataset.key = key;
  root.replaceChildren();
  if (!view || !view.scores) {
    root.append(el("p", { class: "muted", text: "No hand has been played yet." }));
    return;
  }
  root.append(money ? standing(view) : totals(view, state));
  if (money) root.append(el("p", { class: "hint star-note", text: "★ moons shot." }));
  if (!state.rows.length && !state.news.length) {
    root.append(el("p", { class: "muted", text: view.result || state.hand
      ? "The hands finished before this page was opened are in the hand history."
      : "No hand has been finished yet." }));
    return;
  }
  const sheet = el("table", { class: "sheet", "data-sides": money ? view.players : sideCount(view) }, [
    el("caption", { text: "Hand by hand" }),
  ]);
  const sides = money ? 0 : sideCount(view);
  // short distinguishing names at any number of sides (two partnerships' "Annabel & Cy" does
  // not fit across a 342 px column either), whole names in the markup
  const everyone = [...Array(money ? view.players : sides).keys()].map((side) => money ? seatName(view, side) : sideName(view, side));
  for (const row of state.rows) for (const name of row.names) if (name) everyone.push(name);
  const short = shortNames([...new Set([...everyone, YOU])]);
  const extras = pointsTotal(view.rules) > 4;
  const head = el("tr", {}, [["#", "Hand"], ["Bid", "Bidder and bid"], ["H", "High"], ["L", "Low"],
    ["J", "Jack"], ["G", "Game"], ...(extras ? [["+", "Extra points: off-jack, jokers, three"]] : []),
    ["✓", "Made or set"]].map(([text, long]) => el("th", { scope: "col" }, [
    el("abbr", { title: long, "aria-label": long, text })])));
  for (let side = 0; side < sides; side += 1) {
    head.append(el("th", { scope: "col", class: "score" }, [nameNode(sideName(view, side), short)]));
  }
  if (money) head.append(el("th", { scope: "col", text: "Change" }));
  sheet.append(el("thead", {}, [head]));
  const body = el("tbody");
  const columns = 7 + (extras ? 1 : 0) + (money ? 1 : sides);
  const news = [...state.news];
  for (const row of state.rows) {
    while (news.length && news[0].hand <= row.hand) {
      const item = /** @type {News} */ (news.shift());
      body.append(el("tr", { class: "news", "data-news": item.kind }, [
        el("td", { colspan: columns, text: newsText(item) })]));
    }
    body.append(handRow(row, money, sides, short, extras));
  }
  for (const item of news) {
    body.append(el("tr", { class: "news", "data-news": item.kind }, [
      el("td", { colspan: columns, text: newsText(item) })]));
  }
  sheet.append(body);
  root.append(el("div", { class: "sheet-scroll", tabindex: 0, role: "region", "aria-label": "Hand by hand" }, [sheet]));
}

/**
 * One finished hand.
 * @param {HandRow} row
 * @param {boolean} money
 * @param {number} sides
 * @param {Map<string, string> | null} short
 * @param {boolean} [extras] the rules score extra points (a column for them)
 */
function handRow(row, money, sides, short, extras = false) {
  const r = row.result;
  const view = row.view;
  const thrown = r.thrown_in || r.pitcher === null;
  const bid = thrown ? el("td", { class: "bid", text: "thrown in" }) : el("td", { class: "bid" }, [
    nameNode(seatName(view, /** @type {number} */ (r.pitcher)), short),
    // "4 ♦", never "4♦": that would read as the four of diamonds
    ` ${bidWord(view.rules, r.bid)}${r.trump ? " " + suitSymbol(r.trump) : ""}`]);
  const outcome = (r.made ? "made" : "set") + (r.moon ? ` (${moonWord(view.rules)})` : "");
  const cells = [
    el("th", { scope: "row", text: String(row.hand + 1) }),
    bid,
    thrown ? el("td") : pointCell(view, r.high, r.high_card, short),
    thrown ? el("td") : pointCell(view, r.low, r.low_card, short),
    thrown ? el("td") : pointCell(view, r.jack, r.jack_card, short),
    thrown ? el("td") : pointCell(view, r.game, null, short),
    extras ? (thrown ? el("td") : extraCell(view, r.extra || [], short)) : null,
    thrown ? el("td") : el("td", { class: r.made ? "made" : "set", title: outcome }, [
      el("span", { "aria-hidden": "true", text: (r.made ? "✓" : "✗") + (r.moon ? "★" : "") }),
      el("span", { class: "visually-hidden", text: outcome })]),
  ];
  if (money) {
    const names = row.names.length ? row.names : view.names || [];
    cells.push(el("td", { class: "changes" }, r.deltas.flatMap((d, i) => {
      const name = i === view.seat ? YOU : names[i] || `Seat ${i + 1}`;
      return [i ? " · " : "", el("span", { class: "change" }, [nameNode(name, short), ` ${signed(d)}`])];
    })));
  } else {
    for (let side = 0; side < sides; side += 1) {
      const delta = r.deltas[side] || 0;
      cells.push(el("td", { class: "score" }, [String(row.scores[side] ?? ""),
        el("span", { class: delta > 0 ? "delta up" : delta < 0 ? "delta down" : "delta", text: ` ${signed(delta)}` })]));
    }
  }
  return el("tr", { "data-hand": row.hand + 1, "data-made": thrown ? "thrown" : String(r.made) },
    cells.filter((cell) => cell !== null));
}

/**
 * The scores now, side by side, and the target.
 * @param {View} view
 * @param {TableState} state
 */
function totals(view, state) {
  const list = el("dl", { class: "totals" });
  const scores = view.scores || [];
  scores.forEach((score, side) => {
    const mine = view.seat !== null && view.sides[view.seat] === side;
    list.append(el("div", { class: "total", "data-side": side, "data-me": mine,
      "data-winner": state.winner === side }, [
      el("dt", { text: sideName(view, side) }), el("dd", { text: String(score) })]));
  });
  const wrap = el("div", { class: "totals-wrap" }, [list]);
  if (view.target) wrap.append(el("p", { class: "hint", text: `First to ${view.target} wins.` }));
  return wrap;
}

/**
 * A money table's standing: points, stars and money against the average, per player.
 * @param {View} view
 */
function standing(view) {
  const table = el("table", { class: "standing" }, [
    el("caption", { text: "Standing" }),
    el("thead", {}, [el("tr", {}, ["Player", "Points", "★", "Money"].map(
      (text) => el("th", { scope: "col" }, [text === "★" ? starAbbr() : text])))]),
  ]);
  const body = el("tbody");
  const names = view.names || [];
  for (let seat = 0; seat < view.players; seat += 1) {
    const cents = view.money_cents ? view.money_cents[seat] : 0;
    body.append(el("tr", { "data-seat": seat, "data-me": view.seat === seat, "data-cents": cents }, [
      el("th", { scope: "row", text: seatName(view, seat, names) }),
      el("td", { text: String(view.scores ? view.scores[seat] ?? "" : "") }),
      el("td", { text: String(view.stars ? view.stars[seat] ?? 0 : 0) }),
      el("td", { class: cents > 0 ? "up" : cents < 0 ? "down" : "", text: centsText(cents) }),
    ]));
  }
  table.append(body);
  return table;
}

/** The money sheet's ★ column: moons shot (said in words beside the sheet too). */
export function starAbbr() {
  return el("abbr", { title: "Moons shot", "aria-label": "Moons shot", text: "★" });
}
