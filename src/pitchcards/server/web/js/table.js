// The table page `/t/{id}` (docs/web.md): boots the socket and the state, builds the page and
// renders every part from the state on each change.  Clicks and keys only choose, send an
// action and mark it pending; what happens comes back from the server.

import { api, ApiError } from "./api.js";
import { forgetSeatToken, keepSeatToken, seatToken } from "./tokens.js";
import { applyPrefs, onPrefs, prefs, setPref, settingsPanel, motionMs, PACE_WORDS } from "./prefs.js";
import { play } from "./sounds.js";
import { TableSocket } from "./net.js";
import { TableStore } from "./state.js";
import { renderSeats, sceneOf } from "./seats.js";
import { placeTrick, renderCentre, renderLastTrick, renderTrick, renderTrump } from "./trick.js";
import { discardsLeft, myTurn, renderHand } from "./hand.js";
import { renderActions, renderAuction } from "./bidding.js";
import { renderScoresheet } from "./scoresheet.js";
import { SummaryPanel } from "./summary.js";
import { ChatBox } from "./chat.js";
import { installKeys, KEY_HELP } from "./keys.js";
import { flyIn, gather, rectOf } from "./motion.js";
import { Announcer, eventSentence } from "./announce.js";
import { Choice } from "./choice.js";
import { breakText, promptText } from "./prompt.js";
import { InviteBox } from "./invite.js";
import { TableClock } from "./clock.js";
import { MoneyConfirm, myLeave, renderPayments } from "./payments.js";
import { mayClaim } from "./ranked.js";
import { TrickPace, renderTrickWinner } from "./pace.js";
import { countEvent } from "./stats.js";
import { actionLabel, callWords, capital, el } from "./words.js";

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
// a rematch's link back to the finished table it follows (TableInfo.rematch_of): its final
// score sheet, its hands and its link forward to here
const rematchOfLink = el("a", { id: "rematch-of-link", text: "the last match" });
const rematchOf = el("span", { id: "rematch-of", class: "muted", hidden: true }, ["Rematch of ", rematchOfLink]);
const seats = el("div", { id: "seats" });
const trump = el("div", { id: "trump" });
const centreText = el("p", { id: "centre-text" });
// call-your-partner (CP3, CP5): the called card, the holder's secret, then the partnership
const calledLine = el("p", { id: "called", hidden: true });
const breakList = el("p", { id: "next-break", class: "hint" });
const starNote = el("p", { id: "star-note", class: "hint", hidden: true, text: "★ marks the pitcher, who won the bid." });
const trick = el("div", { id: "trick", role: "group", "aria-label": "The trick" });
const trickWinner = el("p", { id: "trick-winner", role: "status", hidden: true });
const felt = el("div", { id: "felt", class: "felt" }, [seats, trick, trickWinner]);
const auction = el("div", { id: "auction" });
felt.append(auction);
const summary = /** @type {HTMLDialogElement} */ (el("dialog", { id: "summary", class: "summary" }));
const summaryPanel = new SummaryPanel(summary);
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
// a ranked match whose every opponent has left: the server's TableInfo.may_claim names the
// side that may claim the win (docs/accounts.md, "Ranked tables"); the page only shows it
const claimButton = el("button", { type: "button", id: "claim", class: "primary", hidden: true }, ["Claim the win"]);
const watchButton = el("button", { type: "button", id: "watch", class: "small", hidden: true }, ["Watch instead"]);
const historyLink = el("a", { id: "history-link", class: "button small", href: `/t/${encodeURIComponent(tableId)}/history`,
  text: "Hand history" });
// at the match's end: the history page, asking for the analysis at once (issue 33)
const analyseLink = el("a", { id: "analyse-link", class: "button small", hidden: true,
  href: `/t/${encodeURIComponent(tableId)}/history?analyse=1`, text: "Analyse" });
const keysHelp = el("details", { id: "keys-help", class: "keys-help" }, [
  el("summary", { text: "Keys" }),
  el("dl", {}, KEY_HELP.flatMap(([key, what]) => [el("dt", {}, [el("kbd", { text: key })]), el("dd", { text: what })])),
]);
const scoresheet = el("div", { id: "scoresheet" });
const settings = el("div", { id: "settings" }, [settingsPanel()]);
const invite = new InviteBox(seat && typeof seat.invite === "string" ? seat.invite : null);
const announcer = new Announcer(live);
const clock = new TableClock();
const moneyConfirm = new MoneyConfirm();
const payments = el("section", { id: "payments", class: "payments", hidden: true });

const store = new TableStore();
const socket = new TableSocket(tableId, token, {
  message(message) {
    // before the store draws the event: its notice shows with it
    if (message.type === "event" && message.event) clock.event(message.event, message.timed_out === true, store.state);
    store.take(message);
    if (message.type === "rematch" && typeof message.table === "string") goTo(message.table);
    if (message.type === "snapshot" && message.view) loadResults(Number(message.seq) || 0);
  },
  connection(state, why) {
    store.setConnection(state, why);
  },
  lastSeq() {
    // a fresh page asks for a snapshot (null), and the finished hands come from the results
    // (loadResults); a reconnect asks for the events it missed after the last seq it holds
    return store.state.seq;
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
    el("div", { class: "table-title" }, [el("h1", {}, [el("a", { href: "/", text: "Pitch" })]), tableInfo,
      rematchOf]),
    connection,
  ]),
  el("div", { class: "table-layout" }, [
    el("section", { class: "table-main", "aria-label": "The table" }, [
      invite.root,
      el("div", { class: "table-status" }, [trump, centreText, calledLine, breakList, starNote]),
      el("div", { class: "felt-wrap" }, [felt, summary]),
      // the clocks ride in the dock with the hand, which stays at the bottom of a phone's
      // screen: above it in the page they would scroll under it (issue 30)
      el("div", { class: "play-bar" }, [live, prompt, clock.alert, pending, refusal, note,
        el("div", { class: "dock" }, [clock.root, clock.timeout, actions, hand])]),
      el("div", { class: "table-buttons" }, [startButton, rematchButton, rematchLink, watchButton, lastTrickButton,
        historyLink, analyseLink, claimButton, leaveButton, settleButton]),
      lastTrickView,
      keysHelp,
      moneyConfirm.dialog,
    ]),
    el("aside", { class: "table-side" }, [
      el("section", { class: "scores", "aria-labelledby": "scores-title" }, [
        el("h2", { id: "scores-title", text: "Score sheet" }), scoresheet, payments]),
      chat.root,
      settings,
    ]),
  ]),
);

/**
 * After a snapshot: the hands finished before it, for the score sheet (nothing if the server
 * cannot say).
 * @param {number} upTo the snapshot's seq
 */
async function loadResults(upTo) {
  try {
    // with the seat's token: a tournament's table shows its score sheet to its players only
    const events = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/results`,
      undefined, token);
    store.takeResults(events, upTo);
  } catch {
    // the score sheet then starts from the hands this page sees
  }
}

// ------------------------------------------------------------------ choices (not game state)
const choice = new Choice({
  view: () => store.state.view,
  act: (action) => act(action),
  say: (words) => say(words),
  redraw: () => render(store.state),
});

/** @param {string} words */
function say(words) {
  note.textContent = words;
  note.hidden = !words;
}

/**
 * Discard the chosen cards: one message with all of them; the server applies them in order,
 * all or none (T4).
 * @param {string[]} cards
 */
function discard(cards) {
  choice.resetThrown();
  act("discard", cards);
}

/**
 * Send an action (with `cards`: a whole discard); it stays pending until the server moves the
 * game on or refuses it.
 * @param {string} action
 * @param {string[]} [cards]
 */
function act(action, cards) {
  const state = store.state;
  choice.reset();
  say("");
  if (!state.you || state.you.role !== "player") {
    store.setRefusal("Spectators watch: they cannot play.");
    return;
  }
  if (state.pending) return;
  const seq = state.seq === null ? 0 : state.seq;
  if (!socket.send(cards ? { type: "act", action, cards, seq } : { type: "act", action, seq })) {
    store.setRefusal("Not connected: the move was not sent. It will reconnect by itself.");
    return;
  }
  store.setPending(action);
}

function toggleLastTrick() {
  const open = lastTrickView.hidden;
  lastTrickView.hidden = !open;
  lastTrickButton.setAttribute("aria-expanded", String(open));
  render(store.state);
}

/** Whether this seat is choosing its discard (T4): there the keys move the focus. */
function discarding() {
  return discardsLeft(store.state.view) > 0 && !store.state.pending;
}

/**
 * In the discard step the chosen card takes the focus (its focus ring shows it, a screen reader
 * says it and whether it is chosen, Enter or Space on it chooses it); in play the choice is the
 * raised card and the focus stays where it is.
 */
function focusPicked() {
  if (!discarding() || !choice.picked) return;
  const button = hand.querySelector(`button.card[data-card="${choice.picked}"]`);
  if (button instanceof HTMLElement) button.focus();
}

installKeys({
  move(step) {
    if (!discarding()) {
      choice.move(step);
      return;
    }
    // from the card that has the focus (Tab may have moved it), else the chosen one
    const active = document.activeElement;
    const from = active instanceof HTMLElement && hand.contains(active) && active.dataset.card
      ? active.dataset.card : choice.picked;
    choice.move(step, from);
    focusPicked();
  },
  digit(n) {
    choice.digit(n);
    focusPicked();
  },
  confirm: () => choice.confirm(),
  bid: (which) => choice.bid(which),
  clear() {
    if (summaryPanel.open) summaryPanel.close();
    choice.clear();
  },
  lastTrick: toggleLastTrick,
  scoreSheet() {
    scoresheet.scrollIntoView({ behavior: motionMs() ? "smooth" : "auto", block: "start" });
  },
  help() {
    keysHelp.open = !keysHelp.open;
  },
  pace() {
    const paces = PACE_WORDS.map(([pace]) => pace);
    const [next, words] = PACE_WORDS[(paces.indexOf(prefs().pace) + 1) % paces.length];
    setPref("pace", next);
    say(`A finished trick stays: ${words.replace(/^Until I tap$/, "until you tap")}.`);
  },
  motion() {
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

/** The table this page is leaving for (a rematch), once it is going. */
let leavingFor = "";

/**
 * Go to another table with the same seat token (a rematch), once: the host hears of the rematch
 * twice (the POST's answer and the socket's "rematch"), and a second navigation would abort
 * the first.
 * @param {string} table
 */
function goTo(table) {
  if (leavingFor) return;
  leavingFor = table;
  // the rematch has an invite of its own, which this browser does not hold
  if (seat) keepSeatToken(table, { token: seat.token, seat: seat.seat, name: seat.name });
  location.assign(`/t/${encodeURIComponent(table)}`);
}

startButton.addEventListener("click", () => void post("start"));
rematchButton.addEventListener("click", async () => {
  const answer = await post("rematch");
  if (answer && typeof answer.table === "string") goTo(answer.table);
});
/**
 * Ask first, showing what a leave or the settlement would pay (the server's preview).
 * @param {"leave" | "settle"} what
 */
async function confirmMoney(what) {
  let preview;
  try {
    preview = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/payments`, undefined, token);
  } catch (error) {
    store.setRefusal(error instanceof ApiError ? error.message : String(error));
    return false;
  }
  return moneyConfirm.ask(what, preview, seat ? seat.name : null);
}

leaveButton.addEventListener("click", async () => {
  leaveButton.blur();  // Enter plays the chosen card next, not this again
  if (!(await confirmMoney("leave"))) return;
  const answer = await post("leave");
  if (answer) say(answer.pending ? "You will leave at the next break between hands." : "You left the table.");
});
settleButton.addEventListener("click", async () => {
  settleButton.blur();
  if (!(await confirmMoney("settle"))) return;
  const answer = await post("settle");
  if (answer) say("The money is settled (or will be at the next break between hands).");
});
claimButton.addEventListener("click", async () => {
  claimButton.blur();
  const answer = await post("claim");
  if (answer) say("You claimed the win: every opponent left the match.");
});
lastTrickButton.addEventListener("click", toggleLastTrick);
watchButton.addEventListener("click", () => {
  forgetSeatToken(tableId);
  location.reload();
});

// ------------------------------------------------------------------ events: words, sound, motion
/** @type {{seat: number, from: DOMRect | null} | null} */
let fly = null;

// A finished trick stays on the felt as the player's pace says (pace.js), then goes to its
// winner's seat.
const trickPace = new TrickPace(() => render(store.state), (ms) => {
  const held = trickPace.held;
  const to = held ? rectOf(seats.querySelector(`.seat[data-seat="${held.winner}"]`)) : null;
  gather([...trick.querySelectorAll(".played")].filter((n) => n instanceof HTMLElement).map(
    (n) => /** @type {HTMLElement} */ (n)), to, 0, ms);
}, () => (motionMs() ? Math.round(motionMs() * 1.4) : 0));
// a tap on the felt, on the player's cards or bids, or a key lets the held trick go
for (const part of [felt, hand, actions]) part.addEventListener("pointerdown", () => trickPace.release());
document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, textarea, select")) return;
  if (!["Shift", "Control", "Alt", "Meta", "Tab"].includes(event.key)) trickPace.release();
});

store.onEvent((event, state, before) => {
  const text = eventSentence(event, state, before);
  if (text) announcer.say(text);
  countEvent(tableId, event, state);
  const scene = sceneOf(state);
  if (event.type === "action_taken" && /^(play|pitch) /.test(event.action)) {
    const card = event.action.split(" ")[1];
    const source = event.seat === scene.me && scene.seated
      ? hand.querySelector(`[data-card="${card}"]`) : seats.querySelector(`.seat[data-seat="${event.seat}"]`);
    // while a finished trick is held on the felt the new card is drawn when it goes
    fly = trickPace.held ? null : { seat: event.seat, from: rectOf(source) };
    if (event.seat === scene.me && scene.seated) trickPace.release();
    play("card");
  } else if (event.type === "trick_won") {
    trickPace.won({ leader: event.leader, winner: event.winner, plays: event.plays });
    play("trick");
  } else if (event.type === "hand_scored") {
    play("hand");
    const row = state.rows[state.rows.length - 1];
    // as soon as the last trick has gone to its winner
    if (row) trickPace.whenClear(() => summaryPanel.scored(row, () => store.state, 0));
  } else if (event.type === "hand_dealt") {
    summaryPanel.dealt(scene.seated);
    choice.reset();
    say("");
  }
  if (myTurn(state.view) && !myTurn(before)) play("turn");
});

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
    const target = view && view.target !== null ? view.target : rules.target;
    if (target) info.push(`to ${target}`);
  }
  if (state.hand !== null) info.push(`hand ${state.hand + 1}`);
  if (state.you && state.you.role === "spectator") info.push("watching");
  setText(tableInfo, info.join(" · "));
  const back = state.table ? state.table.rematch_of : null;
  rematchOf.hidden = !back;
  if (back) rematchOfLink.setAttribute("href", `/t/${encodeURIComponent(back)}`);
  document.title = `Pitch${variant ? " · " + variant : ""}`;
  // keep the choices to what is still possible
  const mine = myTurn(view) && !state.pending;
  choice.settle(view, mine);
  // the table
  felt.dataset.players = String(scene.players);
  felt.dataset.phase = view ? view.phase : state.table ? state.table.status : "";
  renderSeats(seats, state, scene);
  renderTrump(trump, state);
  renderCentre(centreText, state, scene);
  setText(calledLine, view ? callWords(view, (seat) => scene.who(seat)) : "");
  calledLine.hidden = !calledLine.textContent;
  calledLine.dataset.known = String(Boolean(view && view.partner_known));
  setText(breakList, breakText(state));
  breakList.hidden = !breakList.textContent;
  starNote.hidden = !(view && view.pitcher !== null && view.phase !== "auction");
  renderTrick(trick, state, scene, trickPace.held);
  placeTrick(trick, seats, scene);
  renderTrickWinner(trickWinner, trickPace, scene);
  invite.render(state);
  // the player's bar
  setText(prompt, promptText(state, scene, choice));
  prompt.dataset.turn = String(mine);
  clock.render(state);
  pending.hidden = !state.pending;
  setText(pending, state.pending ? `Sending: ${actionLabel(rules, state.pending)}…` : "Sending…");
  setText(refusal, state.refusal || "");
  refusal.hidden = !state.refusal;
  note.hidden = !note.textContent;
  renderAuction(auction, view, scene);
  renderActions(actions, view, choice.chosen, Boolean(state.pending), act,
    choice.thrown, discard, (action) => choice.pickCall(action));
  renderHand(hand, view, choice.picked, (card) => choice.clickCard(card), choice.thrown);
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
  // a player who left has nothing more to leave or settle (their page says they left)
  leaveButton.hidden = settleButton.hidden = !(moneyPlayer && status === "playing" && !myLeave(state));
  claimButton.hidden = !(status === "playing" && mayClaim(state));
  lastTrickButton.hidden = !view;
  // the finished hands are the players' (the record's access): not a spectator's; none yet
  // before the first hand is over
  historyLink.hidden = Boolean(state.you && state.you.role === "spectator") || !state.rows.length;
  analyseLink.hidden = historyLink.hidden || status !== "over";
  watchButton.hidden = !(state.connection === "closed" && socket.closeCode === 4401);
  if (!lastTrickView.hidden) renderLastTrick(lastTrickView, state.lastTrick, scene);
  // the side
  renderScoresheet(scoresheet, state);
  renderPayments(payments, state);
  chat.render(state);
  summaryPanel.render(state);
  // motion, after the new positions are drawn
  if (fly) {
    const node = trick.querySelector(`.played[data-seat="${fly.seat}"]`);
    if (node instanceof HTMLElement) flyIn(node, fly.from);
    fly = null;
  }
}

store.onChange((state) => render(state));
// the trick's cards are placed by the seats' tags: again when the felt changes size
new ResizeObserver(() => placeTrick(trick, seats, sceneOf(store.state))).observe(felt);
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
