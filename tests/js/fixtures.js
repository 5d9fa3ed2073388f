// The engine's facts for the page's own tests: tests/js/engine.json, written by
// tests/engine_fixtures.py from seeded games (tests/test_engine_fixtures.py keeps it current).

import { readFileSync } from "node:fs";
import { URL } from "node:url";

/**
 * @typedef {{view: Record<string, any> | null, words: {high_bid: string, contract: string,
 *   result_bid: string | null, actions: Record<string, string>, cards: Record<string, string>,
 *   cents: string[] | null} | null}} Step
 * @typedef {{seat: number | null, events: Record<string, any>[], after: Step[]}} Copy
 * @typedef {{hand: Record<string, any>, actions: Record<string, string>,
 *   side_names: string[]}} History a finished hand as GET /api/tables/{id}/hands gives it
 * @typedef {{variant: string, players: number, seed: number, rules: Record<string, any>,
 *   ladder_words: Record<string, string>, copies: Copy[], history: History | null}} Game
 */

/** @typedef {import("../../src/pitchcards/server/web/js/words.js").View} View the page's
 *   view type: the engine's views below are checked as the page reads them */

/** @type {{folded: string[], games: Game[]}} */
export const engine = JSON.parse(readFileSync(new URL("./engine.json", import.meta.url), "utf8"));

/**
 * Every view a copy's events hold (each action's `state`, each deal's `view`), with the
 * engine's words for it and the game it is from.
 * @returns {Generator<{game: Game, copy: Copy, view: View, step: Step}>}
 */
export function* views() {
  for (const game of engine.games) {
    for (const copy of game.copies) {
      for (const [i, event] of copy.events.entries()) {
        const view = event.type === "hand_dealt" ? event.view : event.state;
        if (view && copy.after[i].words) {
          yield { game, copy, view: /** @type {View} */ (view), step: copy.after[i] };
        }
      }
    }
  }
}

/**
 * A view's parts the engine's fold gives (the fixture's `folded` keys).
 * @param {Record<string, any> | null} view
 */
export function folded(view) {
  if (!view) return null;
  return Object.fromEntries(engine.folded.map((k) => [k, view[k] === undefined ? null : view[k]]));
}
