// The hand-history viewer's words and stops (history_steps.js) on finished hands as the server
// sends them (server/history.py's finished_hands), against the engine's words: each auction
// line is the engine's action words, each side's name the engine's.

import { test } from "node:test";
import assert from "node:assert/strict";

import { actionSentence, actionShort, nameOf, positionWords, sideName, trickStops } from
  "../../src/pitchcards/server/web/js/history_steps.js";
import { engine } from "./fixtures.js";

const histories = engine.games.filter((g) => g.history);

test("the fixtures hold finished hands to step through", () => {
  assert.ok(histories.length >= 3);
});

for (const game of histories) {
  const { hand, actions, side_names: sides } = /** @type {any} */ (game.history);

  test(`${game.variant}: each auction line is the engine's words`, () => {
    let lines = 0;
    for (const step of hand.steps) {
      for (const [, action] of step.view.auction) {
        assert.equal(actionShort(step.view, action), actions[action], action);
        lines += 1;
      }
      if (step.action) {
        const said = actionSentence(step.view, nameOf(hand, step.seat), step.action);
        assert.ok(said.startsWith(`${hand.names[step.seat]} `), said);
      }
    }
    assert.ok(lines > 0);
  });

  test(`${game.variant}: each side is named as the engine names it`, () => {
    sides.forEach((/** @type {string} */ name, /** @type {number} */ side) => {
      assert.equal(sideName(hand, side), name);
    });
  });

  test(`${game.variant}: "by trick" stops at the deal, the auction's end, each trick, the end`, () => {
    const stops = trickStops(hand);
    const last = hand.steps.length - 1;
    assert.equal(stops[0], 0);
    assert.equal(stops.at(-1), last);
    const grew = hand.steps.map((/** @type {any} */ s, /** @type {number} */ i) => i)
      .filter((/** @type {number} */ i) => i > 0
        && hand.steps[i].view.tricks.length > hand.steps[i - 1].view.tricks.length);
    assert.equal(grew.length, 6, "six tricks were played");
    for (const i of grew) assert.ok(stops.includes(i), `the step that finished a trick: ${i}`);
    assert.equal(positionWords(hand, last), "Trick 6 of 6: scored");
  });
}
