// What the player has chosen but not yet sent (not game state): the card picked by a click, a key
// or for them at the start of their turn, the card clicked last (a second click on it plays it)
// and the bid chosen by a key, waiting for Enter.  The terminal game's way of choosing.

import { cardAction, discardsLeft, legalCards, myTurn, sortedHand } from "./hand.js";
import { actionLabel, cardShort, count } from "./words.js";

/**
 * @typedef {import("./words.js").View} View
 * @typedef {object} ChoiceHooks
 * @property {() => View | null} view the seat's view now
 * @property {(action: string) => void} act send an action
 * @property {(words: string) => void} say a note to the player ("" clears it)
 * @property {() => void} redraw draw the page again
 */

export class Choice {
  /** @param {ChoiceHooks} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    /** @type {string | null} the card chosen (by a click, a key, or for you on your turn) */
    this.picked = null;
    /** @type {string | null} the card clicked last: only a second click on it plays it */
    this.clicked = null;
    /** @type {string | null} the bid chosen by a key, waiting for Enter */
    this.chosen = null;
    /** whether it was this seat's turn at the last render */
    this.wasMine = false;
    /** @type {Set<string>} the cards chosen to discard (T4), sent together by the button */
    this.thrown = new Set();
  }

  /** Forget every choice (a move was sent, a new hand was dealt). */
  reset() {
    this.picked = this.clicked = this.chosen = null;
  }

  /** Forget the cards chosen to discard. */
  resetThrown() {
    this.thrown = new Set();
  }

  /**
   * A tap on a card in the discard step: choose it to throw, or not (never more than the
   * cards left to discard).
   * @param {View} view
   * @param {string} card
   */
  toggleThrown(view, card) {
    const need = discardsLeft(view);
    if (this.thrown.has(card)) this.thrown.delete(card);
    else if (this.thrown.size < need) this.thrown.add(card);
    else {
      this.hooks.say(`You discard ${count(need, "card")}: tap a chosen card to put it back first.`);
      this.hooks.redraw();
      return;
    }
    // said (#note is a status) so a screen reader hears it once the last card is chosen
    this.hooks.say(this.thrown.size === need ? `Ready: press "Discard ${need}".` : "");
    this.hooks.redraw();
  }

  /** Esc: forget the choice and the note. */
  clear() {
    this.reset();
    this.hooks.say("");
    this.hooks.redraw();
  }

  /**
   * Keep the choices to what is still possible; at the start of a turn to play, choose a card
   * as the terminal game does: the one chosen if it may be played, else the first that may
   * (Enter plays it; a click chooses another).  Called on every render.
   * @param {View | null} view
   * @param {boolean} mine this seat's turn, nothing pending
   */
  settle(view, mine) {
    const cards = view ? view.hand : [];
    if (this.picked && !cards.includes(this.picked)) this.picked = this.clicked = null;
    if (!view || view.phase !== "discard") this.thrown = new Set();
    if (!mine) this.chosen = null;
    if (mine && !this.wasMine && view && view.phase === "play") {
      const legal = legalCards(view);
      if (!this.picked || !legal.has(this.picked)) {
        this.picked = cards.find((card) => legal.has(card)) || null;
        this.clicked = null;
      }
    }
    this.wasMine = mine;
  }

  /**
   * A click on a card: pick it; a second click on the picked card plays (or pitches) it.
   * @param {string} card
   */
  clickCard(card) {
    const view = this.hooks.view();
    if (view && view.phase === "discard") {
      if (discardsLeft(view) > 0) this.toggleThrown(view, card);
      return;
    }
    if (this.clicked === card && this.picked === card) {
      this.hooks.act(cardAction(view, card));
      return;
    }
    // a card the server does not offer now, at this seat's turn: sent on the first tap, so
    // the server's reason shows at once (issue 30; the server decides, not the page)
    if (view && myTurn(view) && !legalCards(view).has(card)) {
      this.hooks.act(cardAction(view, card));
      return;
    }
    this.picked = this.clicked = card;
    this.chosen = null;
    this.hooks.say(`Tap again or press Enter: ${cardAction(view, card).startsWith("pitch") ? "pitch" : "play"} `
      + `${cardShort(card)}.`);
    this.hooks.redraw();
  }

  /**
   * ← →: the card to the left or right of the picked one (in the discard step, of the card
   * that has the focus: the table moves the focus with the choice there).
   * @param {number} step
   * @param {string | null} [from] the card to move from, if not the picked one
   */
  move(step, from = this.picked) {
    const view = this.hooks.view();
    const cards = sortedHand(view);
    if (!cards.length) return;
    const at = from ? cards.indexOf(from) : -1;
    this.picked = cards[at < 0 ? (step > 0 ? 0 : cards.length - 1) : (at + step + cards.length) % cards.length];
    this.clicked = null;
    this.chosen = null;
    this.hooks.say("");
    this.hooks.redraw();
  }

  /**
   * A digit: a bid in the auction on this seat's turn, else the n-th card.
   * @param {number} n
   */
  digit(n) {
    const view = this.hooks.view();
    if (!view) return;
    if (view.phase === "auction" && myTurn(view)) {
      if (!view.rules.bids.some(([action]) => action === `bid ${n}`)) {
        this.hooks.say(`There is no bid of ${n}.`);
        return;
      }
      this.bid(`bid ${n}`);
      return;
    }
    if (n - 1 < view.hand.length) {
      this.picked = sortedHand(view)[n - 1];
      this.clicked = null;
      this.hooks.say("");
      this.hooks.redraw();
    }
  }

  /**
   * A bid chosen by a key, waiting for Enter.
   * @param {string} action "pass", "bid 2", "bid moon"
   */
  bid(action) {
    const view = this.hooks.view();
    if (!view || view.phase !== "auction" || !myTurn(view)) return;
    const legal = action;
    if (!view.legal_actions.includes(legal)) {
      this.hooks.say(`You cannot ${actionLabel(view.rules, legal).toLowerCase()} now.`);
      this.chosen = null;
    } else {
      this.chosen = action;
      this.picked = null;
      this.hooks.say(`Enter: ${actionLabel(view.rules, legal).toLowerCase()}.`);
    }
    this.hooks.redraw();
  }

  /**
   * The card to call chosen by a tap (CP3), waiting for its button or Enter; the server's
   * legal actions say which calls there are.
   * @param {string} action "call AH"
   */
  pickCall(action) {
    const view = this.hooks.view();
    if (!view || view.phase !== "call" || !myTurn(view) || !view.legal_actions.includes(action)) return;
    this.chosen = action;
    this.picked = null;
    this.hooks.say(`Ready: press "${actionLabel(view.rules, action)}" or Enter.`);
    this.hooks.redraw();
  }

  /** Enter: do what is chosen. */
  confirm() {
    const view = this.hooks.view();
    if (!view || !myTurn(view)) return;
    if (view.phase === "call") {
      if (this.chosen && view.legal_actions.includes(this.chosen)) this.hooks.act(this.chosen);
      else this.hooks.say("Choose the card to call first: tap it.");
      return;
    }
    if (view.phase === "discard") {
      if (this.picked) this.toggleThrown(view, this.picked);
      return;
    }
    if (view.phase === "auction") {
      if (this.chosen) this.hooks.act(this.chosen);
      else if (this.picked) this.hooks.act(cardAction(view, this.picked));
      else this.hooks.say("Choose first: a bid (1-4, p or m) or a card to pitch.");
      return;
    }
    if (this.picked) this.hooks.act(cardAction(view, this.picked));
    else this.hooks.say("Choose a card first (← → or 1-6).");
  }
}
