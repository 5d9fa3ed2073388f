// The analysis page's best by chance (review of issue 36, section 4): the page marks the
// candidate the server names in `chance_best` (the one `chance_loss` was measured against,
// the chosen one on a tie), never one it picks itself.

import { test } from "node:test";
import assert from "node:assert/strict";

import { chanceBest } from "../../src/pitchcards/server/web/js/analysis.js";

/**
 * A decision near a match's end with two candidates tied at a chance of 1.
 * @param {string | null | undefined} best
 */
function decision(best) {
  const candidate = (/** @type {string} */ action) => ({ action, label: action, value: 0, se: 0,
    hindsight: null, chance: 1 });
  return { hand: 1, index: 0, seat: 0, player: "Ann", phase: "play", action: "play 2H",
    best: "play AS", loss: 0, loss_se: 0, label: null, worlds: 8, method: "rollout", words: "",
    candidates: [candidate("play AS"), candidate("play 2H")], chance_loss: 0,
    chance_loss_se: 0, chance_best: best };
}

test("the best by chance is the server's, also on a tie", () => {
  assert.equal(chanceBest(decision("play 2H"))?.action, "play 2H");
  assert.equal(chanceBest(decision("play AS"))?.action, "play AS");
});

test("without the server's best the page names none", () => {
  assert.equal(chanceBest(decision(null)), undefined);
  assert.equal(chanceBest(decision(undefined)), undefined);
});
