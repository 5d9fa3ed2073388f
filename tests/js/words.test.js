// The page's words (words.js, cards.js, hand.js) against the engine's (pitchcards.explain,
// pitchcards.cards, pitchcards.money) for every view of the seeded games in engine.json: each
// bid's word, each legal action's words, each card's symbol, the money, the sides' names.

import { test } from "node:test";
import assert from "node:assert/strict";

import { actionLabel, actionSentence, bidWord, centsText, sideName } from
  "../../src/pitchcards/server/web/js/words.js";
import { cardShort } from "../../src/pitchcards/server/web/js/cards.js";
import { legalCards } from "../../src/pitchcards/server/web/js/hand.js";
import { engine, views } from "./fixtures.js";

test("a bid's word is the engine's (moon, smudge, ten-point's five)", () => {
  let checked = 0;
  for (const { view, step } of views()) {
    const words = /** @type {NonNullable<typeof step.words>} */ (step.words);
    assert.equal(bidWord(view.rules, view.high_bid), words.high_bid);
    assert.equal(bidWord(view.rules, view.contract), words.contract);
    if (view.result) {
      assert.equal(bidWord(view.rules, view.result.bid), words.result_bid);
      checked += 1;
    }
  }
  assert.ok(checked > 0, "some view holds a result");
});

test("the bid ladder's words are the engine's and every legal bid is on it", () => {
  for (const game of engine.games) {
    const ladder = new Map(game.rules.bids);
    for (const [action, words] of Object.entries(game.ladder_words)) {
      // "bid moon" → "bid smudge" in Setback: the word after "bid" is the ladder's
      assert.equal(words, `bid ${ladder.get(action)}`, `${game.variant}: ${action}`);
    }
  }
  for (const { game, view } of views()) {
    for (const action of view.legal_actions) {
      if (action.startsWith("bid ")) assert.ok(action in game.ladder_words, action);
    }
  }
});

test("every legal action is labelled and said with the engine's words", () => {
  const kinds = new Set();
  for (const { view, step } of views()) {
    const words = /** @type {NonNullable<typeof step.words>} */ (step.words);
    assert.deepEqual(Object.keys(words.actions).sort(), [...view.legal_actions].sort());
    for (const action of view.legal_actions) {
      const [kind, arg] = action.split(" ");
      kinds.add(kind);
      const engineWords = words.actions[action];
      const label = actionLabel(view.rules, action);
      const said = actionSentence(view.rules, "Ann", action);
      if (kind === "bid" || kind === "pass") {
        // the engine's "bid 3" / "bid smudge" / "pass": the same word, as a button's label
        const word = engineWords.replace(/^bid /, "");
        assert.ok(label.toLowerCase().endsWith(word), `${action}: ${label} / ${engineWords}`);
        assert.ok(said.includes(word === "pass" ? "passes" : word), `${action}: ${said}`);
      } else if (kind === "trump") {
        assert.ok(engineWords.startsWith("trump "), engineWords);
      } else {
        // a card: the engine's symbol for it ("Q♥"; the jokers' ☆ ★)
        const symbol = words.cards[arg];
        const short = cardShort(arg);
        assert.ok(engineWords.includes(symbol), `${action}: ${engineWords}`);
        assert.ok(short === symbol || short.includes(symbol), `${arg}: ${short} / ${symbol}`);
        assert.ok(label.includes(short), `${action}: ${label}`);
      }
    }
  }
  for (const kind of ["pass", "bid", "pitch", "play", "trump", "discard"]) {
    assert.ok(kinds.has(kind), `the games hold a legal ${kind}`);
  }
});

test("every card's short text carries the engine's symbol", () => {
  let jokers = 0;
  for (const { step } of views()) {
    const words = /** @type {NonNullable<typeof step.words>} */ (step.words);
    for (const [card, symbol] of Object.entries(words.cards)) {
      if (card === "LJ" || card === "BJ") {
        jokers += 1;
        assert.ok(cardShort(card).includes(symbol), `${card}: ${cardShort(card)}`);
      } else {
        assert.equal(cardShort(card), symbol);
      }
    }
  }
  assert.ok(jokers > 0, "a ten-point game shows a joker");
});

test("the cards a seat may choose are the ones its legal actions name", () => {
  for (const { view } of views()) {
    const cards = [...legalCards(view)].sort();
    const named = view.legal_actions.map((/** @type {string} */ a) => a.split(" "))
      .filter(([kind]) => ["play", "pitch", "discard"].includes(kind)).map(([, c]) => c).sort();
    assert.deepEqual(cards, [...new Set(named)].sort());
  }
});

test("money is the engine's whole cents as the engine writes them", () => {
  let shown = 0;
  for (const { view, step } of views()) {
    const words = /** @type {NonNullable<typeof step.words>} */ (step.words);
    if (!view.money_cents) continue;
    for (const [i, cents] of view.money_cents.entries()) {
      // the page writes nothing owed as "$0.00", the engine "+$0.00": the same amount
      const expected = cents === 0 ? "$0.00" : words.cents?.[i];
      assert.equal(centsText(cents), expected);
      shown += 1;
    }
  }
  assert.ok(shown > 0, "a money game shows money");
});

test("a side's name is the engine's (partners \"Ann & Cy\")", () => {
  let partners = 0;
  for (const { view } of views()) {
    if (!view.side_names || view.seat !== null) continue;
    for (const [side, name] of view.side_names.entries()) {
      assert.equal(sideName(view, side), name);
      if (name.includes(" & ")) partners += 1;
    }
  }
  assert.ok(partners > 0, "a spectator saw partners");
});

test("the rules' teams are the seats the views put on each side", () => {
  let teams = 0;
  for (const { game, view } of views()) {
    if (!game.rules.teams) {
      assert.ok(!game.rules.partners);
      continue;
    }
    teams += 1;
    game.rules.teams.forEach((/** @type {number[]} */ seats, /** @type {number} */ side) => {
      assert.deepEqual(seats, view.sides.flatMap((/** @type {number} */ s, /** @type {number} */ seat) => (s === side ? [seat] : [])));
    });
  }
  assert.ok(teams > 0);
});

test("each finished trick's plays go round from its leader, one card a seat", () => {
  for (const { view } of views()) {
    for (const trick of view.tricks) {
      const seats = trick.plays.map((/** @type {[number, string]} */ p) => p[0]);
      assert.equal(new Set(seats).size, view.players);
      assert.equal(trick.plays[0][0], trick.leader);
      assert.ok(trick.plays.some((/** @type {[number, string]} */ p) => p[0] === trick.winner));
    }
  }
});
