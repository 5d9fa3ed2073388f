// The table's words: names with "you" grammar, bids, actions and results in sentences — the
// terminal game's wording (src/pitchcards/tui/words.py, text.py), built from the seat's View.

import { cardName, cardShort, suitName, suitSymbol } from "./cards.js";

export { cardShort };

/**
 * @typedef {{pitcher: number | null, bid: number | string | null, made: boolean,
 *   moon: boolean, high: number | null, low: number | null, jack: number | null,
 *   game: number | null, points: number[], deltas: number[], tricks?: number[],
 *   game_counts?: number[], trump?: string | null, high_card?: string | null,
 *   low_card?: string | null, jack_card?: string | null, pitcher_side?: number | null,
 *   thrown_in?: boolean, extra?: [string, number | null, number][], called?: string,
 *   partner?: number | null}} HandResult
 * @typedef {{name: string, options: Record<string, any>, points_total: number,
 *   players: [number, number], moon: string | null, bids: [string, string][],
 *   bid_words?: Record<string, string>,
 *   partners: boolean, discards: number, target: number | null, teams?: number[][] | null,
 *   resolved?: Record<string, any>}} Rules the engine's rules_to_dict: the options changed from
 *   the variant, and the facts the page shows instead of working them out (docs/protocol.md)
 * @typedef {{leader: number, winner: number, plays: [number, string][]}} Trick
 * @typedef {{schema: number, rules: Rules, seat: number | null, players: number,
 *   dealer: number, phase: "auction" | "declare" | "call" | "discard" | "play" | "over", seat_to_act: number | null,
 *   hand: string[], dealt: string[], hand_sizes: number[], auction: [number, string][],
 *   high_bid: string | null, high_bidder: number | null, pitched_card: string | null,
 *   pitcher: number | null, contract: string | null, trump: string | null, tricks: Trick[],
 *   trick: [number, string][], leader: number | null, tricks_won: number[],
 *   legal_actions: string[], result: HandResult | null, scores: number[] | null,
 *   target: number | null, names: string[] | null, stars: number[] | null,
 *   money: string[] | null, money_cents?: number[] | null, discarded?: string[],
 *   first_to_bid: number, discards_left: number, sides: number[],
 *   side_names: string[] | null, off_jack?: string | null, called?: string | null,
 *   partner?: number | null, partner_known?: boolean, holds_called?: boolean}} View the seat's
 *   view; under call-your-partner (CP3, CP5) `called`, `partner`, `partner_known` and the
 *   seat's own `holds_called`
 */

export const YOU = "You";

/**
 * How many points a hand holds under these rules: 4, or up to 10 in the ten-point family (the
 * server's fact, RuleSet.points_total).
 * @param {Rules | undefined | null} rules
 */
export function pointsTotal(rules) {
  return rules ? rules.points_total : 4;
}

/**
 * "moon" or "smudge": what this table calls a bid of all four points and all six tricks.
 * @param {Rules | undefined | null} rules
 */
export function moonWord(rules) {
  return (rules && rules.moon) || "moon";
}

/**
 * A bid's value in words: "2", "moon", "smudge", "-" — the server's word for that value
 * (`rules.bid_words`: which number is the moon is the engine's to say, T8).
 * @param {Rules | undefined | null} rules
 * @param {string | number | null | undefined} value
 */
export function bidWord(rules, value) {
  if (value === null || value === undefined) return "-";
  if (value === "moon") return moonWord(rules);  // an action's own text: "bid moon"
  const words = rules && rules.bid_words;
  return (words && words[String(value)]) || String(value);
}

/** @param {string} who */
function plural(who) {
  return who === YOU || who.includes(" & ");
}

/** verb → [third person singular, plural / "you"] (tui/words.py VERBS). */
const VERBS = /** @type {Record<string, [string, string]>} */ ({
  "bid": ["bids", "bid"],
  "bid (past)": ["bid", "bid"],
  "be": ["is", "are"],
  "be (past)": ["was", "were"],
  "win": ["wins", "win"],
  "take": ["takes", "take"],
  "lead": ["leads", "lead"],
  "pass": ["passes", "pass"],
  "pitch": ["pitches", "pitch"],
  "play": ["plays", "play"],
  "join": ["joins", "join"],
  "leave": ["leaves", "leave"],
  "deal": ["deals", "deal"],
  "think": ["is thinking", "are thinking"],
  "have": ["has", "have"],
  "name": ["names", "name"],
  "name (past)": ["named", "named"],
  "discard": ["discards", "discard"],
  "discard (past)": ["discarded", "discarded"],
  "call (past)": ["called", "called"],
  "play (past)": ["played", "played"],
  "hold (past)": ["held", "held"],
});

/**
 * The verb agreeing with `who`.
 * @param {string} who
 * @param {string} name a key of VERBS
 */
export function verb(who, name) {
  const forms = VERBS[name] || [name + "s", name];
  return plural(who) ? forms[1] : forms[0];
}

/**
 * `who` + the agreeing verb + `rest`: ("You", "bid", "2") → "You bid 2".
 * @param {string} who
 * @param {string} name
 * @param {string} [rest]
 * @param {boolean} [start] at the start of a sentence ("You") or inside one ("you")
 */
export function sentence(who, name, rest = "", start = true) {
  const subject = who === YOU && !start ? "you" : who;
  const out = `${subject} ${verb(who, name)}`;
  return rest ? `${out} ${rest}` : out;
}

/**
 * "1 card", "3 cards".
 * @param {number} n
 * @param {string} noun
 */
export function count(n, noun) {
  return `${n} ${n === 1 ? noun : noun + "s"}`;
}

/**
 * A seat's name as the viewer says it: "You" for their own seat.
 * @param {View | null} view
 * @param {number} seat
 * @param {string[] | null} [names] names to use when the view has none
 */
export function seatName(view, seat, names) {
  if (view && view.seat === seat) return YOU;
  const list = (view && view.names) || names;
  return (list && list[seat]) || `Seat ${seat + 1}`;
}

/**
 * How many sides score: seats, or two teams in partnerships (the view's `sides`).
 * @param {View} view
 */
export function sideCount(view) {
  if (view.scores) return view.scores.length;
  return Math.max(...view.sides) + 1;
}

/**
 * A side in words: a name, or both partners' names ("You & Cy"), the seats the view's `sides`
 * puts on it.
 * @param {View} view
 * @param {number} side
 */
export function sideName(view, side) {
  const seats = [...view.sides.keys()].filter((s) => view.sides[s] === side);
  if (seats.length > 1) {
    const mine = view.seat !== null && seats.includes(view.seat);
    const names = seats.map((s) => seatName(view, s));
    if (mine) names.sort((a, b) => (a === YOU ? -1 : b === YOU ? 1 : 0));
    return names.join(" & ");
  }
  return seatName(view, side);
}

/**
 * A suit in words and symbol: "hearts ♥".
 * @param {string} suit
 */
export function suitWords(suit) {
  return `${suitName(suit)} ${suitSymbol(suit)}`;
}

/**
 * An action as a short label: "Bid 2", "Pass", "Moon", "Pitch Q♥", "Q♥".
 * @param {Rules | undefined | null} rules
 * @param {string} action the engine's words ("bid 2", "pass", "bid moon", "pitch QH", "play QH")
 */
export function actionLabel(rules, action) {
  const [kind, arg] = action.split(" ");
  if (kind === "pass") return "Pass";
  if (arg === "moon") return capital(moonWord(rules));
  if (kind === "bid") return `Bid ${arg}`;
  if (kind === "pitch") return `Pitch ${cardShort(arg)}`;
  if (kind === "play") return cardShort(arg);
  if (kind === "trump") return `Trump ${suitName(arg)}`;
  if (kind === "discard") return arg ? `Discard ${cardShort(arg)}` : "Discard";
  if (kind === "call") return `Call ${cardShort(arg)}`;
  return action;
}

/**
 * What a seat did, as a sentence: "Ann bids 2.", "You pass.", "Bob plays the Queen of hearts."
 * @param {Rules | undefined | null} rules
 * @param {string} who
 * @param {string} action
 */
export function actionSentence(rules, who, action) {
  const [kind, arg] = action.split(" ");
  if (kind === "pass") return sentence(who, "pass") + ".";
  if (arg === "moon") return sentence(who, "bid", moonWord(rules)) + ".";
  if (kind === "bid") return sentence(who, "bid", arg) + ".";
  if (kind === "pitch") return sentence(who, "pitch", `the ${lower(cardName(arg))}`) + ".";
  if (kind === "play") return sentence(who, "play", `the ${lower(cardName(arg))}`) + ".";
  if (kind === "trump") return sentence(who, "name (past)", `${suitName(arg)} trump`) + ".";
  // CP3: the call is public; who holds the card is not (CP5)
  if (kind === "call") {
    return sentence(who, "call (past)", `the ${cardShort(arg)}: its holder is ${possessive(who)} secret partner`) + ".";
  }
  // T4: another seat's discard comes without its card ("discard"); one's own names it
  if (kind === "discard") {
    return sentence(who, "discard (past)", arg ? `the ${lower(cardName(arg))}` : "a card") + ".";
  }
  return `${who}: ${action}.`;
}

/**
 * "your" for you, else "Ann's".
 * @param {string} who
 */
export function possessive(who) {
  return who === YOU ? "your" : `${who}'s`;
}

/**
 * The call-your-partner line (CP3, CP5) from the view's facts only, "" before a call: the
 * called card and, for its holder, that they are the secret partner; once the table knows it
 * (the card played, or the hand over) who the partner was.
 * @param {View} view
 * @param {(seat: number) => string} who a seat's name as the viewer says it
 */
export function callWords(view, who) {
  if (!view.called || view.pitcher === null) return "";
  const card = cardShort(view.called);
  const pitcher = who(view.pitcher);
  if (view.partner_known) {
    if (view.partner === null || view.partner === undefined) {
      return `Nobody was dealt the ${card}: ${sentence(pitcher, "play (past)", "alone", false)}.`;
    }
    if (view.partner === view.pitcher) {
      return `${sentence(pitcher, "hold (past)", `the ${card}`)}: ${sentence(pitcher, "play (past)", "alone", false)}.`;
    }
    const tense = view.phase === "over" ? "be (past)" : "be";
    return `${sentence(who(view.partner), tense, `${possessive(pitcher)} partner`)} (the ${card}).`;
  }
  if (view.holds_called) {
    return view.seat === view.pitcher
      ? `You called your own ${card}: you play alone (the table learns it when you play it).`
      : `You hold the ${card}: you are ${possessive(pitcher)} secret partner.`;
  }
  return `${sentence(pitcher, "call (past)", `the ${card}`)}: its holder is ${possessive(pitcher)} secret partner.`;
}

/**
 * The reveal (CP5), said once when the called card is played: "The A♥ is out: Bob is Ann's
 * partner!"; "" when the view does not know the partner yet.
 * @param {View} view
 * @param {(seat: number) => string} who
 */
export function revealSentence(view, who) {
  if (!view.called || !view.partner_known || view.pitcher === null) return "";
  const card = cardShort(view.called);
  if (view.partner === null || view.partner === undefined) return `Nobody held the ${card}.`;
  if (view.partner === view.pitcher) {
    return `The ${card} is out: ${sentence(who(view.pitcher), "play", "alone", false)}!`;
  }
  return `The ${card} is out: ${sentence(who(view.partner), "be", `${possessive(who(view.pitcher))} partner`, false)}!`;
}

/**
 * The hand's outcome: "Ann bid 3 in hearts ♥ and made it." / "You bid 2 … and were set."
 * @param {View} view
 * @param {HandResult} result
 */
export function outcomeSentence(view, result) {
  if (result.thrown_in || result.pitcher === null) {
    return "Everyone passed: the hand is thrown in.";
  }
  const who = seatName(view, result.pitcher);
  const trump = result.trump ? ` in ${suitWords(result.trump)}` : "";
  let out = sentence(who, "bid (past)", bidWord(view.rules, result.bid) + trump);
  out += result.made ? " and made it" : ` and ${verb(who, "be (past)")} set`;
  if (result.moon) out += ` — shot the ${moonWord(view.rules)}! ★`;
  return out + ".";
}

/**
 * Whole cents as the terminal game writes them: "+$0.35", "-$1.20", "$0.00".  The cents are the
 * engine's (the view's `money_cents`, an event's `cents`): reconciled so that they add up
 * (A-R7.6), which no rounding here could promise.
 * @param {number} cents
 */
export function centsText(cents) {
  const whole = Math.abs(Math.trunc(Number(cents) || 0));
  const sign = cents > 0 ? "+" : cents < 0 ? "-" : "";
  return `${sign}$${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, "0")}`;
}

/** @param {string} text */
export function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** @param {string} text */
function lower(text) {
  return text ? text[0].toLowerCase() + text.slice(1) : text;
}

/**
 * "+2", "-3", "0".
 * @param {number} n
 */
export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/**
 * A DOM element with attributes and children (text children become text nodes: server text
 * is never parsed as HTML).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs] `class`,
 *   `text`, `data-*`, `aria-*` or any attribute; false/null/undefined leave it out
 * @param {Array<Node | string | null | undefined | false>} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "text") node.textContent = String(value);
    else if (name === "class") node.className = String(value);
    else node.setAttribute(name, value === true ? "true" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}
