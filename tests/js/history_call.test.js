// The hand-history viewer on a call-your-partner hand (issue 36, CP3-CP5), as the server sends
// it (server/history.py's finished_hands, in tests/js/engine.json): the call step and the
// reveal have words, drawn from the steps' facts (the view's called, partner, partner_known).

import { test } from "node:test";
import assert from "node:assert/strict";

import { actionShort, handTitle, nameOf, positionWords, revealAt, trickStops } from
  "../../src/pitchcards/server/web/js/history_steps.js";
import { engine } from "./fixtures.js";

const game = engine.games.find((g) => g.variant === "call-partner");
const hand = /** @type {any} */ (game?.history?.hand);

test("the fixtures hold a finished call-your-partner hand with its call", () => {
  assert.ok(hand);
  assert.ok(hand.steps.some((/** @type {any} */ s) => s.action?.startsWith("call ")));
});

test("the call step is said in words: the position, the short form, the title", () => {
  const i = hand.steps.findIndex((/** @type {any} */ s) => s.action?.startsWith("call "));
  const card = hand.steps[i].action.split(" ")[1];
  assert.equal(positionWords(hand, i - 1), "Auction over, the call next (0 of 6 tricks)");
  const led = hand.steps[i].view.trick.length;  // a pitched card is led with the call
  assert.equal(positionWords(hand, i), led ? `Partner called, trick 1 of 6, card ${led}`
    : "Partner called (0 of 6 tricks)");
  assert.match(actionShort(hand.steps[i].view, hand.steps[i].action), /^call [AKQJ0-9]+[♠♥♦♣]$/);
  assert.ok(hand.partner_words, "the server words who held the called card");
  assert.ok(handTitle(hand).includes(`, called ${actionShort(hand.steps[i].view, hand.steps[i].action)
    .slice(5)} (${hand.partner_words}),`), handTitle(hand));
  assert.ok(trickStops(hand).includes(i), "the call is a stop");
  assert.ok(card);
});

test("the reveal is said once, at the step whose view first knows the partner", () => {
  const said = hand.steps.map((/** @type {any} */ _, /** @type {number} */ i) => revealAt(hand, i));
  const at = said.flatMap((/** @type {string} */ w, /** @type {number} */ i) => (w ? [i] : []));
  assert.equal(at.length, 1, said.join(" | "));
  const step = hand.steps[at[0]];
  assert.equal(step.view.partner_known, true);
  assert.equal(hand.steps[at[0] - 1].view.partner_known, false);
  const partner = step.view.partner;
  if (partner === null) {
    assert.match(said[at[0]], /^Nobody held the /);
    assert.equal(at[0], hand.steps.length - 1, "a card never dealt is known at the end");
  } else if (partner !== step.view.pitcher) {
    assert.ok(said[at[0]].includes(`${nameOf(hand, partner)} is ${nameOf(hand, step.view.pitcher)}'s partner`),
      said[at[0]]);
    assert.ok(step.action.endsWith(step.view.called), "revealed by playing the called card");
  }
  assert.ok(trickStops(hand).includes(at[0]), "the reveal is a stop");
});

test("the title shows who held the called card as the server words it, never its own words", () => {
  const worded = { ...hand, partner_words: "the server's words" };
  assert.match(handTitle(worded), /, called [^ ]+ \(the server's words\),/);
  const unworded = { ...hand, partner_words: null };
  assert.doesNotMatch(handTitle(unworded), /not dealt|alone|\(/);
});

test("the call step's place in the play is its view's, not a rule's trick 1", () => {
  const i = hand.steps.findIndex((/** @type {any} */ s) => s.action?.startsWith("call "));
  const step = hand.steps[i];
  // a view one trick further on (as no real hand has it): the words follow the view
  const later = { ...step, view: { ...step.view, tricks: [{}], trick: [[0, "AS"]] } };
  const moved = { ...hand, steps: hand.steps.map((/** @type {any} */ s, /** @type {number} */ k) =>
    (k === i ? later : s)) };
  assert.equal(positionWords(moved, i), "Partner called, trick 2 of 6, card 1");
});
