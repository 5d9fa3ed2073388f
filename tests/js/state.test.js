// The page's state (state.js) against the engine's fold (pitchcards.events.apply_event): fed a
// seat's events as the server cuts them, the page holds the seat's view the engine says it
// has after each one, the last trick the engine finished and each hand's result.

import { test } from "node:test";
import assert from "node:assert/strict";

import { TableStore } from "../../src/pitchcards/server/web/js/state.js";
import { engine, folded } from "./fixtures.js";

for (const game of engine.games) {
  for (const copy of game.copies) {
    const who = copy.seat === null ? "a spectator" : `seat ${copy.seat}`;
    test(`${game.variant}: ${who}'s page holds the engine's view after every event`, () => {
      const store = new TableStore();
      let tricks = 0;
      for (const [i, event] of copy.events.entries()) {
        store.take({ type: "event", event });
        const expected = copy.after[i].view;
        assert.deepEqual(folded(store.state.view), expected,
          `${game.variant} ${who}: after event ${event.seq} (${event.type})`);
        if (event.type === "trick_won") {
          tricks += 1;
          const view = /** @type {any} */ (store.state.view);
          assert.deepEqual(store.state.lastTrick, view.tricks[view.tricks.length - 1],
            `${game.variant}: the last trick after event ${event.seq}`);
        }
        if (event.type === "hand_scored") {
          assert.deepEqual(store.state.rows.at(-1)?.result, expected?.result);
        }
      }
      assert.equal(store.state.seq, copy.events.at(-1)?.seq);
      assert.ok(tricks > 0, "the game finished a trick");
    });
  }
}

test("every seat's copy names only that seat's cards", () => {
  for (const game of engine.games) {
    for (const copy of game.copies) {
      for (const step of copy.after) {
        if (!step.view) continue;
        if (copy.seat === null) assert.deepEqual(step.view.hand, []);
        else assert.equal(step.view.seat, copy.seat);
      }
    }
  }
});
