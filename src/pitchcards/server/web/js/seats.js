// The seats around the table, seen from the viewer's chair (the viewer at the bottom, play going
// clockwise): names, bot and away marks, the dealer, whose turn, each seat's bid or contract,
// cards held and tricks won (docs/web.md: `#seats .seat[data-seat=N]`).

import { bidWord, count, el, possessive, seatName, YOU } from "./words.js";

/**
 * @typedef {import("./state.js").TableState} TableState
 * @typedef {import("./state.js").SeatInfo} SeatInfo
 * @typedef {import("./words.js").View} View
 * @typedef {object} Scene who sits where, from the view or (before the first deal) TableInfo
 * @property {View | null} view
 * @property {number} players
 * @property {number} me the seat drawn at the bottom (the viewer's, or 0 for a spectator)
 * @property {boolean} seated whether the viewer holds a seat in this hand
 * @property {string[]} names the names in seat order
 * @property {(seat: number) => SeatInfo | null} info the TableInfo of the player in `seat`
 * @property {(seat: number) => string} who "You", a name, "Seat 3"
 */

/**
 * Who sits where now.
 * @param {TableState} state
 * @returns {Scene}
 */
export function sceneOf(state) {
  const view = state.view;
  const seats = state.table ? state.table.seats : [];
  const players = view ? view.players : seats.length;
  /** @type {string[]} */
  const names = [];
  for (let s = 0; s < players; s += 1) {
    const fromView = view && view.names ? view.names[s] : null;
    const fromTable = seats.find((info) => info.seat === s);
    names.push(fromView || (fromTable && fromTable.name) || `Seat ${s + 1}`);
  }
  const mine = view ? view.seat : state.you ? state.you.seat : null;
  const me = mine === null || mine === undefined ? 0 : mine;
  return {
    view, players, me, seated: mine !== null && mine !== undefined, names,
    info(seat) {
      const name = names[seat];
      return seats.find((info) => info.name === name) || seats.find((info) => info.seat === seat)
        || null;
    },
    who(seat) {
      if (mine === seat) return YOU;
      return view ? seatName(view, seat, names) : names[seat];
    },
  };
}

/**
 * Where seat `seat` sits on the felt, in percent of its width and height: the viewer at the
 * bottom, the next seat (to the viewer's left) at the left, and so on clockwise.
 * @param {Scene} scene
 * @param {number} seat
 * @param {number} radius 0..1 of the way from the centre to the edge, across
 * @param {number} [down] the same, up and down (default: `radius`)
 * @returns {{x: number, y: number}}
 */
export function place(scene, seat, radius, down = radius) {
  const k = (seat - scene.me + scene.players) % scene.players;
  const angle = Math.PI / 2 + (2 * Math.PI * k) / scene.players;
  return { x: 50 + 50 * radius * Math.cos(angle), y: 50 + 50 * down * Math.sin(angle) };
}

/**
 * The last thing each seat said in this hand's auction.
 * @param {View} view
 * @returns {Map<number, string>}
 */
function lastBids(view) {
  const bids = new Map();
  for (const [seat, action] of view.auction) bids.set(seat, action);
  return bids;
}

/**
 * A seat's bid or contract in words: "bid 2", "pass", "moon", "pitched: 4 ★".
 * @param {View} view
 * @param {number} seat
 * @param {Map<number, string>} bids
 */
function bidText(view, seat, bids) {
  if (view.phase !== "auction" && view.pitcher === seat && view.contract !== null) {
    return `bid ${bidWord(view.rules, view.contract)} ★`;
  }
  if (view.phase !== "auction") return "";
  const action = bids.get(seat);
  if (!action) return "";
  if (action === "pass") return "pass";
  const [kind, arg] = action.split(" ");
  if (kind === "pitch") return "pitch";
  return `bid ${bidWord(view.rules, arg)}`;
}

/**
 * The call-your-partner mark on a seat (CP5), "" for none: once the partnership is known the
 * pitcher's seat says "with Bob" and the partner's "Ann's partner"; before, only the holder's
 * own page marks its own seat "secret partner".
 * @param {View} view
 * @param {number} seat
 * @param {Scene} scene
 */
function calledMark(view, seat, scene) {
  if (!view.called || view.pitcher === null) return "";
  const partner = view.partner_known ? view.partner : view.holds_called ? view.seat : null;
  if (partner === null || partner === undefined || partner === view.pitcher) {
    return view.partner_known && seat === view.pitcher ? "alone" : "";
  }
  if (seat === partner) {
    return view.partner_known ? `${possessive(scene.who(view.pitcher))} partner` : "secret partner";
  }
  if (seat === view.pitcher && view.partner_known) {
    const who = scene.who(partner);
    return `with ${who === YOU ? "you" : who}`;
  }
  return "";
}

/**
 * The seats, positioned around the felt.
 * @param {HTMLElement} root `#seats`
 * @param {TableState} state
 * @param {Scene} scene
 */
export function renderSeats(root, state, scene) {
  const view = scene.view;
  const bids = view ? lastBids(view) : new Map();
  const partners = view && view.rules.partners;
  const teams = state.table?.rules?.teams ?? [];
  root.replaceChildren();
  root.dataset.players = String(scene.players);
  for (let seat = 0; seat < scene.players; seat += 1) {
    const info = scene.info(seat);
    const kind = info ? info.kind : "open";
    const turn = view !== null && view.seat_to_act === seat && view.phase !== "over";
    const me = scene.seated && seat === scene.me;
    const name = scene.names[seat];
    const dealer = Boolean(view && view.dealer === seat);
    const marks = [];
    if (kind === "bot") marks.push(el("span", { class: "mark bot", text: info && info.level ? `${info.level} bot` : "bot" }));
    // before the start: a seat nobody has taken says so (a bot takes it at the start)
    if (kind === "open") marks.push(el("span", { class: "mark open", text: "open seat" }));
    if (info && info.away) marks.push(el("span", { class: "mark away", text: "away (bot)" }));
    else if (info && kind === "human" && !info.connected && state.table
      && state.table.status === "playing") marks.push(el("span", { class: "mark offline", text: "offline" }));
    if (partners && view && !me && scene.seated && view.sides[seat] === view.sides[scene.me]) {
      marks.push(el("span", { class: "mark partner", text: "partner" }));
    }
    // call-your-partner (CP5): the partnership marked on both seats once the table knows it,
    // and on your own seat when you hold the called card (the view's facts, never guessed)
    const called = view ? calledMark(view, seat, scene) : "";
    if (called) marks.push(el("span", { class: "mark partner called", text: called }));
    // before the first deal (no view yet): each seat's team, as the rules' teams say (a fact
    // the server sends: the page works out no partnership)
    const team = view ? -1 : teams.findIndex((t) => t.includes(seat));
    if (team >= 0) {
      const mine = scene.seated && !me && teams[team].includes(scene.me);
      marks.push(el("span", { class: "mark team", text: mine ? `partner · team ${team + 1}` : `team ${team + 1}` }));
    }
    const bid = view ? bidText(view, seat, bids) : "";
    const held = view ? view.hand_sizes[seat] : null;
    const won = view ? view.tricks_won[seat] : 0;
    const facts = [];
    if (held !== null && held !== undefined && view && view.phase !== "over") {
      facts.push(count(held, "card"));
    }
    if (won) facts.push(count(won, "trick"));
    // the ten-point steps (T4, T5): who is naming trump, who is discarding (never a card)
    const doing = turn && view && view.phase === "declare" ? "naming trump…"
      : turn && view && view.phase === "call" ? "calling…"
      : turn && view && view.phase === "discard" ? "discarding…" : "";
    if (doing) facts.push(doing);
    const where = place(scene, seat, 0.97);
    const node = el("div", {
      class: "seat", "data-seat": seat, "data-kind": kind, "data-away": Boolean(info && info.away),
      "data-dealer": dealer, "data-turn": turn, "data-me": me,
      // a corner seat is a side's, not the top's: two wide "top" tags in the corners met
      "data-side": where.x < 30 ? "left" : where.x > 70 ? "right" : where.y > 50 ? "bottom" : "top",
    }, [
      el("span", { class: "seat-head" }, [
        el("span", { class: "seat-name", text: me ? `${name} (you)` : name }),
        dealer ? el("span", { class: "mark dealer", title: "Dealer", text: "D", "aria-label": "dealer" }) : null,
      ]),
      el("span", { class: "seat-line" }, [
        ...marks,
        el("span", { class: "seat-bid", text: bid, "data-empty": !bid }),
        facts.length ? el("span", { class: "seat-facts", text: facts.join(" · ") }) : null,
      ]),
      turn ? el("span", { class: "visually-hidden", text: me ? "your turn" : "to play" }) : null,
    ]);
    node.style.left = `${where.x}%`;
    node.style.top = `${where.y}%`;
    // kept inside the felt: a seat near an edge hangs from it (only at the edge: two tags
    // hung towards each other from the top corners at five players would meet)
    const across = where.x < 15 ? 0 : where.x > 85 ? -100 : -50;
    // (a seat in the upper corners hangs down from its place, clear of the seat across)
    const down = where.y < 30 ? 0 : where.y > 70 ? -100 : -50;
    node.style.transform = `translate(${across}%, ${down}%)`;
    root.append(node);
  }
}
