// The table page `/t/{id}` (docs/web.md): boots the socket and the state, builds the page and
// renders every part from the state on each change.  Clicks and keys only choose, send an
// action and mark it pending; what happens comes back from the server.

import { api, ApiError } from "./api.js";
import { forgetSeatToken, keepSeatToken, seatToken } from "./tokens.js";
import { applyPrefs, onPrefs, prefs, setPref, settingsPanel, motionMs } from "./prefs.js";
import { play } from "./sounds.js";
import { TableSocket } from "./net.js";
import { TableStore } from "./state.js";
import { renderSeats, sceneOf } from "./seats.js";
import { renderCentre, renderLastTrick, renderTrick, renderTrump } from "./trick.js";
import { cardAction, legalCards, myTurn, renderHand } from "./hand.js";
import { renderActions, renderAuction } from "./bidding.js";
import { renderScoresheet } from "./scoresheet.js";
import { closeSummary, showSummary } from "./summary.js";
import { ChatBox } from "./chat.js";
import { installKeys, KEY_HELP } from "./keys.js";
import { flyIn, gather, rectOf } from "./motion.js";
import { Announcer, eventSentence } from "./announce.js";
import { actionLabel, capital, cardShort, el, moonWord, ruleOption, sentence } from "./words.js";

/**
 * @typedef {import("./state.js").TableState} TableState
 * @typedef {import("./state.js").TableEvent} TableEvent
 * @typedef {import("./words.js").View} View
 */

const tableId = document.body.dataset.table || location.pathname.split("/")[2] || "";
const seat = seatToken(tableId);
const token = seat ? seat.token : null;

applyPrefs();

// ------------------------------------------------------------------ the page's parts
const connection = el("p", { id: "connection", "data-state": "connecting", role: "status", text: "Connecting…" });
const tableInfo = el("span", { id: "table-info", class: "muted" });
const seats = el("div", { id: "seats" });
const trump = el("div", { id: "trump" });
const centreText = el("p", { id: "centre-text" });
const breakList = el("p", { id: "next-break", class: "hint" });
const trick = el("div", { id: "trick", role: "group", "aria-label": "The trick" });
const felt = el("div", { id: "felt", class: "felt" }, [seats, trick]);
const auction = el("div", { id: "auction" });
felt.append(auction);
const live = el("div", { id: "live", "aria-live": "polite", class: "live" });
const prompt = el("p", { id: "prompt" });
const pending = el("p", { id: "pending", hidden: true, text: "Sending…" });
const refusal = el("p", { id: "refusal", class: "error", role: "alert" });
const note = el("p", { id: "note", class: "hint", role: "status" });
const actions = el("div", { id: "actions", role: "group", "aria-label": "Your bid", hidden: true });
const hand = el("div", { id: "hand", role: "group", "aria-label": "Your cards" });
const lastTrickButton = el("button", { type: "button", id: "last-trick", class: "small", "aria-expanded": "false",
  "aria-controls": "last-trick-view" }, ["Last trick"]);
const lastTrickView = el("div", { id: "last-trick-view", class: "panel", hidden: true });
const startButton = el("button", { type: "button", id: "start", class: "primary", hidden: true }, ["Start the game"]);
const rematchButton = el("button", { type: "button", id: "rematch", class: "primary", hidden: true }, ["Rematch"]);
const rematchLink = el("a", { id: "rematch-link", class: "button small", hidden: true, text: "Go to the rematch" });
const leaveButton = el("button", { type: "button", id: "leave", class: "small", hidden: true }, ["Leave the table"]);
const settleButton = el("button", { type: "button", id: "settle", class: "small", hidden: true }, ["Settle up"]);
const watchButton = el("button", { type: "button", id: "watch", class: "small", hidden: true }, ["Watch instead"]);
const historyLink = el("a", { id: "history-link", class: "button small", href: `/t/${encodeURIComponent(tableId)}/history`,
  text: "Hand history" });
const keysHelp = el("details", { id: "keys-help", class: "keys-help" }, [
  el("summary", { text: "Keys" }),
  el("dl", {}, KEY_HELP.flatMap(([key, what]) => [el("dt", {}, [el("kbd", { text: key })]), el("dd", { text: what })])),
]);
const scoresheet = el("div", { id: "scoresheet" });
const settings = el("div", { id: "settings" }, [settingsPanel()]);
const summary = /** @type {HTMLDialogElement} */ (el("dialog", { id: "summary", class: "summary" }));
const announcer = new Announcer(live);

const store = new TableStore();
const socket = new TableSocket(tableId, token, {
  message(message) {
    store.take(message);
    if (message.type === "rematch" && typeof message.table === "string") goTo(message.table);
    if (message.type === "snapshot" && message.view) loadResults(Number(message.seq) || 0);
  },
  connection(state, why) {
    store.setConnection(state, why);
  },
  lastSeq() {
    // a fresh page asks for every event from the start (the server sends a snapshot instead
    // when that is too many): the score sheet then has every hand
    return store.state.seq === null ? 0 : store.state.seq;
  },
});
const chat = new ChatBox((text) => {
  if (socket.send({ type: "chat", text })) return true;
  say("Not connected: the message was not sent.");
  return false;
});

const app = document.getElementById("app") || document.body.appendChild(el("main", { id: "app" }));
app.classList.add("table-page");
app.replaceChildren(
  el("header", { class: "table-top" }, [
    el("div", { class: "table-title" }, [el("h1", {}, [el("a", { href: "/", text: "Pitch" })]), tableInfo]),
    connection,
  ]),
  el("div", { class: "table-layout" }, [
    el("section", { class: "table-main", "aria-label": "The table" }, [
      el("div", { class: "table-status" }, [trump, centreText, breakList]),
      felt,
      el("div", { class: "play-bar" }, [live, prompt, pending, refusal, note,
        el("div", { class: "dock" }, [actions, hand])]),
      el("div", { class: "table-buttons" }, [startButton, rematchButton, rematchLink, watchButton, lastTrickButton,
        historyLink, leaveButton, settleButton]),
      lastTrickView,
      keysHelp,
    ]),
    el("aside", { class: "table-side" }, [
      el("section", { class: "scores", "aria-labelledby": "scores-title" }, [
        el("h2", { id: "scores-title", text: "Score sheet" }), scoresheet]),
      chat.root,
      settings,
    ]),
  ]),
  summary,
);

/**
 * After a snapshot: the hands finished before it, for the score sheet (nothing if the server
 * cannot say).
 * @param {number} upTo the snapshot's seq
 */
async function loadResults(upTo) {
  try {
    const events = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/results`);
    store.takeResults(events, upTo);
  } catch {
    // the score sheet then starts from the hands this page sees
  }
}

// ------------------------------------------------------------------ choices (not game state)
/** @type {string | null} the card chosen (by a click, a key, or for you on your turn) */
let picked = null;
/** @type {string | null} the card clicked last: only a second click on it plays it */
let clicked = null;
/** @type {string | null} the bid chosen by a key, waiting for Enter */
let chosen = null;
/** whether it was this seat's turn at the last render */
let wasMine = false;

/** @param {string} words */
function say(words) {
  note.textContent = words;
  note.hidden = !words;
}

/**
 * Send an action; it stays pending until the server moves the game on or refuses it.
 * @param {string} action
 */
function act(action) {
  const state = store.state;
  picked = clicked = chosen = null;
  say("");
  if (!state.you || state.you.role !== "player") {
    store.setRefusal("Spectators watch: they cannot play.");
    return;
  }
  if (state.pending) return;
  if (!socket.send({ type: "act", action, seq: state.seq === null ? 0 : state.seq })) {
    store.setRefusal("Not connected: the move was not sent. It will reconnect by itself.");
    return;
  }
  store.setPending(action);
}

/**
 * A click on a card: pick it; a second click on the picked card plays (or pitches) it.
 * @param {string} card
 */
function clickCard(card) {
  const view = store.state.view;
  if (clicked === card && picked === card) {
    act(cardAction(view, card));
    return;
  }
  picked = clicked = card;
  chosen = null;
  say(`Tap again or press Enter: ${cardAction(view, card).startsWith("pitch") ? "pitch" : "play"} ${cardShort(card)}.`);
  render(store.state);
}

/** @param {number} step */
function move(step) {
  const cards = store.state.view ? store.state.view.hand : [];
  if (!cards.length) return;
  const at = picked ? cards.indexOf(picked) : -1;
  picked = cards[at < 0 ? (step > 0 ? 0 : cards.length - 1) : (at + step + cards.length) % cards.length];
  clicked = null;
  chosen = null;
  say("");
  render(store.state);
}

/** @param {number} n */
function digit(n) {
  const view = store.state.view;
  if (!view) return;
  if (view.phase === "auction" && myTurn(view)) {
    if (n > 4) {
      say(`There is no bid of ${n}.`);
      return;
    }
    chooseBid(`bid ${n}`);
    return;
  }
  if (n - 1 < view.hand.length) {
    picked = view.hand[n - 1];
    clicked = null;
    say("");
    render(store.state);
  }
}

/** @param {string} action "pass", "bid 2", "moon" */
function chooseBid(action) {
  const view = store.state.view;
  if (!view || view.phase !== "auction" || !myTurn(view)) return;
  const legal = action === "moon" ? "bid moon" : action;
  if (!view.legal_actions.includes(legal)) {
    say(`You cannot ${actionLabel(view.rules, legal).toLowerCase()} now.`);
    chosen = null;
  } else {
    chosen = action;
    picked = null;
    say(`Enter: ${actionLabel(view.rules, legal).toLowerCase()}.`);
  }
  render(store.state);
}

function confirm() {
  const view = store.state.view;
  if (!view || !myTurn(view)) return;
  if (view.phase === "auction") {
    if (chosen) act(chosen);
    else if (picked) act(cardAction(view, picked));
    else say("Choose first: a bid (1-4, p or m) or a card to pitch.");
    return;
  }
  if (picked) act(cardAction(view, picked));
  else say("Choose a card first (← → or 1-6).");
}

function toggleLastTrick() {
  const open = lastTrickView.hidden;
  lastTrickView.hidden = !open;
  lastTrickButton.setAttribute("aria-expanded", String(open));
  render(store.state);
}

installKeys({
  move, digit, confirm,
  bid: (which) => chooseBid(which),
  clear() {
    picked = clicked = chosen = null;
    say("");
    render(store.state);
  },
  lastTrick: toggleLastTrick,
  scoreSheet() {
    scoresheet.scrollIntoView({ behavior: motionMs() ? "smooth" : "auto", block: "start" });
  },
  help() {
    keysHelp.open = !keysHelp.open;
  },
  pace() {
    const speeds = /** @type {const} */ (["fast", "normal", "slow", "off"]);
    const next = speeds[(speeds.indexOf(prefs().speed) + 1) % speeds.length];
    setPref("speed", next);
    say(`Card motion: ${next}.`);
  },
});

// ------------------------------------------------------------------ host and money buttons
/**
 * Call the HTTP API for this seat, showing a refusal in words.
 * @param {string} what e.g. "start"
 * @returns {Promise<any>}
 */
async function post(what) {
  try {
    return await api("POST", `/api/tables/${encodeURIComponent(tableId)}/${what}`, undefined, token);
  } catch (error) {
    store.setRefusal(error instanceof ApiError ? error.message : String(error));
    return null;
  }
}

/**
 * Go to another table with the same seat token (a rematch).
 * @param {string} table
 */
function goTo(table) {
  if (seat) keepSeatToken(table, { ...seat });
  location.assign(`/t/${encodeURIComponent(table)}`);
}

startButton.addEventListener("click", () => void post("start"));
rematchButton.addEventListener("click", async () => {
  const answer = await post("rematch");
  if (answer && typeof answer.table === "string") goTo(answer.table);
});
leaveButton.addEventListener("click", async () => {
  leaveButton.blur();  // Enter plays the chosen card next, not this again
  const answer = await post("leave");
  if (answer) say(answer.pending ? "You will leave at the next break between hands." : "You left the table.");
});
settleButton.addEventListener("click", async () => {
  settleButton.blur();
  const answer = await post("settle");
  if (answer) say("The money is settled (or will be at the next break between hands).");
});
lastTrickButton.addEventListener("click", toggleLastTrick);
watchButton.addEventListener("click", () => {
  forgetSeatToken(tableId);
  location.reload();
});

// ------------------------------------------------------------------ events: words, sound, motion
/** @type {{seat: number, from: DOMRect | null} | null} */
let fly = null;
/** @type {number | null} */
let gatherTo = null;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let summaryTimer;

store.onEvent((event, state, before) => {
  const text = eventSentence(event, state, before);
  if (text) announcer.say(text);
  const scene = sceneOf(state);
  if (event.type === "action_taken" && /^(play|pitch) /.test(event.action)) {
    const card = event.action.split(" ")[1];
    const source = event.seat === scene.me && scene.seated
      ? hand.querySelector(`[data-card="${card}"]`) : seats.querySelector(`.seat[data-seat="${event.seat}"]`);
    fly = { seat: event.seat, from: rectOf(source) };
    play("card");
  } else if (event.type === "trick_won") {
    gatherTo = event.winner;
    play("trick");
  } else if (event.type === "hand_scored") {
    play("hand");
    const row = state.rows[state.rows.length - 1];
    clearTimeout(summaryTimer);
    if (row) summaryTimer = setTimeout(() => showSummary(summary, row, store.state), Math.max(900, hold() + 2 * motionMs()));
  } else if (event.type === "match_won") {
    const row = state.rows[state.rows.length - 1];
    if (row && summary.open) showSummary(summary, row, state);
  } else if (event.type === "hand_dealt") {
    clearTimeout(summaryTimer);
    closeSummary(summary);
    picked = clicked = chosen = null;
    say("");
  }
  if (myTurn(state.view) && !myTurn(before)) play("turn");
});

/** How long a finished trick stays before it goes to its winner: a short look (the bots'
 * next lead comes after the table's bot_delay, 0.8 s by default, and replaces it). */
function hold() {
  return Math.round(motionMs() * 1.6);
}

// ------------------------------------------------------------------ render
/**
 * Change an element's text only when it changes (a live region or an alert would say it again).
 * @param {HTMLElement} node
 * @param {string} text
 */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** @param {TableState} state */
function render(state) {
  const scene = sceneOf(state);
  const view = state.view;
  // the connection
  connection.dataset.state = state.connection;
  setText(connection, state.connection === "open" ? "Connected" : state.connectionWords);
  // the title line
  const rules = view ? view.rules : state.table ? state.table.rules : null;
  const info = [];
  const variant = rules ? capital(rules.name.replace(/-/g, " ")) : "";
  if (variant) info.push(variant);
  if (state.table && state.table.money) {
    if (rules && rules.name !== "money") info.push("for money");
  }
  else if (rules) {
    const target = view && view.target !== null ? view.target : ruleOption(rules, "target", null);
    if (target) info.push(`to ${target}`);
  }
  if (state.hand !== null) info.push(`hand ${state.hand + 1}`);
  if (state.you && state.you.role === "spectator") info.push("watching");
  setText(tableInfo, info.join(" · "));
  document.title = `Pitch${variant ? " · " + variant : ""}`;
  // keep the choices to what is still possible
  const cards = view ? view.hand : [];
  if (picked && !cards.includes(picked)) picked = clicked = null;
  const mine = myTurn(view) && !state.pending;
  if (!mine) chosen = null;
  if (mine && !wasMine && view && view.phase === "play") {
    // the turn starts with a card chosen, as in the terminal game: the one chosen if it may
    // be played, else the first that may (Enter plays it; a click chooses another)
    const legal = legalCards(view);
    if (!picked || !legal.has(picked)) {
      picked = cards.find((card) => legal.has(card)) || null;
      clicked = null;
    }
  }
  wasMine = mine;
  // the table
  felt.dataset.players = String(scene.players);
  felt.dataset.phase = view ? view.phase : state.table ? state.table.status : "";
  renderSeats(seats, state, scene);
  renderTrump(trump, state);
  renderCentre(centreText, state, scene);
  setText(breakList, breakText(state));
  breakList.hidden = !breakList.textContent;
  renderTrick(trick, state, scene);
  // the player's bar
  setText(prompt, promptText(state, scene));
  prompt.dataset.turn = String(mine);
  pending.hidden = !state.pending;
  setText(pending, state.pending ? `Sending: ${actionLabel(rules, state.pending)}…` : "Sending…");
  setText(refusal, state.refusal || "");
  refusal.hidden = !state.refusal;
  note.hidden = !note.textContent;
  renderAuction(auction, view, scene);
  renderActions(actions, view, chosen, Boolean(state.pending), act);
  renderHand(hand, view, picked, clickCard);
  hand.hidden = !scene.seated || !view;
  // the buttons
  const host = Boolean(state.you && state.you.host);
  const over = state.winner !== null || state.payouts !== null;
  const status = over ? "over" : state.table ? state.table.status : null;
  startButton.hidden = !(host && status === "waiting");
  rematchButton.hidden = !(host && status === "over" && !state.rematch);
  rematchLink.hidden = !state.rematch;
  if (state.rematch) rematchLink.setAttribute("href", `/t/${encodeURIComponent(state.rematch)}`);
  const moneyPlayer = Boolean(state.table && state.table.money && state.you && state.you.role === "player");
  leaveButton.hidden = settleButton.hidden = !(moneyPlayer && status === "playing");
  lastTrickButton.hidden = !view;
  // the finished hands are the players' (the record's access): not a spectator's
  historyLink.hidden = Boolean(state.you && state.you.role === "spectator");
  watchButton.hidden = !(state.connection === "closed" && socket.closeCode === 4401);
  if (!lastTrickView.hidden) renderLastTrick(lastTrickView, state.lastTrick, scene);
  // the side
  renderScoresheet(scoresheet, state);
  chat.render(state);
  // motion, after the new positions are drawn
  if (fly) {
    const node = trick.querySelector(`.played[data-seat="${fly.seat}"]`);
    if (node instanceof HTMLElement) flyIn(node, fly.from);
    fly = null;
  }
  if (gatherTo !== null) {
    const to = rectOf(seats.querySelector(`.seat[data-seat="${gatherTo}"]`));
    gather([...trick.querySelectorAll(".played")].filter((n) => n instanceof HTMLElement).map(
      (n) => /** @type {HTMLElement} */ (n)), to, hold());
    gatherTo = null;
  }
}

/**
 * What waits for the next break between hands (money tables): "At the next break: Zed joins,
 * Bob leaves, the money is settled."
 * @param {TableState} state
 */
function breakText(state) {
  const pending = state.table && state.table.pending ? state.table.pending : [];
  if (!pending.length || state.payouts !== null) return "";
  const words = pending.map((entry) => {
    const [op, ...rest] = entry.split(" ");
    const name = rest.join(" ");
    if (op === "settle") return "the money is settled";
    if (op === "join") return `${name} joins`;
    if (op === "leave") return `${name} leaves`;
    return entry;
  });
  return `At the next break: ${words.join(", ")}.`;
}

/**
 * What the player is waiting for or may do now, in words (the terminal game's prompt line).
 * @param {TableState} state
 * @param {import("./seats.js").Scene} scene
 */
function promptText(state, scene) {
  const view = state.view;
  const status = state.table ? state.table.status : null;
  if (state.connection === "closed") return state.connectionWords;
  if (status === "waiting" || (!view && status !== "over")) {
    if (state.you && state.you.host) return "Everyone seated? Start the game when you are ready.";
    return "Waiting for the host to start the game…";
  }
  if (status === "over" || state.winner !== null) {
    if (state.winner !== null && view) return `The match is over. ${capital(sentence(scene.who(state.winner), "win"))}.`;
    return "The game is over.";
  }
  if (!view) return "";
  if (view.phase === "over") return "Hand over. The next hand is dealt in a moment.";
  if (state.you && state.you.role === "player" && !scene.seated) {
    return "You take your seat at the next break between hands.";
  }
  if (state.pending) return "";
  const to = view.seat_to_act;
  if (myTurn(view)) {
    if (view.phase === "auction") {
      const pitch = view.legal_actions.some((a) => a.startsWith("pitch "));
      if (chosen) return `Enter: ${actionLabel(view.rules, chosen === "moon" ? "bid moon" : chosen).toLowerCase()} (or choose again).`;
      return `Your bid: choose one${pitch ? ", or pitch a card to lead it" : ""}.`
        + ` Keys: 1-4, p${ruleOption(view.rules, "moon", "none") !== "none" ? `, m (${moonWord(view.rules)})` : ""}.`;
    }
    if (picked) return `Your turn: tap ${cardShort(picked)} again or press Enter to play it.`;
    return "Your turn: choose a card (← → or 1-6), then Enter.";
  }
  if (to === null) return "";
  const info = scene.info(to);
  if (info && info.kind === "human" && !info.away) {
    return `Waiting for ${scene.who(to)}${info.connected ? "" : " (offline)"}…`;
  }
  return `${sentence(scene.who(to), "think")}…`;
}

store.onChange(render);
onPrefs(() => {
  applyPrefs();
  render(store.state);
});
render(store.state);

socket.connect();
window.addEventListener("online", () => socket.nudge());
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") socket.nudge();
});
