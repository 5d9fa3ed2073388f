// Cards of our own, drawn as SVG (no image files, no fonts from elsewhere): a big index in the
// top-left corner (rank over suit) that reads at 40 px wide and in a fanned hand, and beside it
// pips for 2-10, a framed letter for J Q K, one large suit for the Ace.  Colours come from CSS (base.css: --heart, --club …, --card-bg), so both
// themes and the four-colour deck work; the suits are paths, not font glyphs.
//
// Cards are written as the engine writes them: rank then suit, "QH", "TD" (ten of diamonds),
// "AS", "2C"; ranks 2-9 T J Q K A, suits C D H S.

const SVG = "http://www.w3.org/2000/svg";

/** Suit letters, in the engine's order (C1: clubs, diamonds, hearts, spades). */
export const SUITS = /** @type {const} */ (["C", "D", "H", "S"]);
/** Rank letters, low to high. */
export const RANKS = /** @type {const} */ (
  ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]);

/** @type {Record<string, string>} */
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
/** @type {Record<string, string>} */
const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
/** @type {Record<string, string>} */
const RANK_NAMES = {
  2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine",
  T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace",
};

// Each suit drawn in a 100 x 100 box.
/** @type {Record<string, string>} */
const SUIT_PATHS = {
  H: "M50 95C22 70 2 52 2 30C2 14 14 4 28 4C38 4 46 10 50 19C54 10 62 4 72 4C86 4 98 14 98 30"
    + "C98 52 78 70 50 95Z",
  D: "M50 2L90 50L50 98L10 50Z",
  S: "M50 2C38 22 4 38 4 62C4 78 16 86 28 86C38 86 45 81 48 74C47 84 42 92 33 98H67"
    + "C58 92 53 84 52 74C55 81 62 86 72 86C84 86 96 78 96 62C96 38 62 22 50 2Z",
  C: "M50 4A21 21 0 1 0 50 46A21 21 0 1 0 50 4Z"
    + "M26 36A21 21 0 1 0 26 78A21 21 0 1 0 26 36Z"
    + "M74 36A21 21 0 1 0 74 78A21 21 0 1 0 74 36Z"
    + "M50 36L36 60L64 60Z"
    + "M47 56C47 78 42 90 32 98H68C58 90 53 78 53 56Z",
};

// The card is 100 x 140 units; 40 px wide draws a unit at 0.4 px.
const W = 100;
const H = 140;

/**
 * The parts of a card's text, or null if it is not a card.
 * @param {string} card
 * @returns {{rank: string, suit: string} | null}
 */
export function parseCard(card) {
  if (typeof card !== "string") return null;
  let text = card.trim().toUpperCase();
  if (text.startsWith("10")) text = "T" + text.slice(2);
  if (text.length !== 2) return null;
  const rank = text[0];
  let suit = text[1];
  for (const [letter, symbol] of Object.entries(SUIT_SYMBOLS)) if (suit === symbol) suit = letter;
  if (!(rank in RANK_NAMES) || !(suit in SUIT_NAMES)) return null;
  return { rank, suit };
}

/**
 * A card's name in words: "Queen of hearts", "Ten of diamonds" (the card's text if it is none).
 * @param {string} card
 * @returns {string}
 */
export function cardName(card) {
  const parts = parseCard(card);
  return parts ? `${RANK_NAMES[parts.rank]} of ${SUIT_NAMES[parts.suit]}` : String(card);
}

/**
 * A suit's name: "hearts" (the text itself if it is no suit).
 * @param {string} suit "C", "D", "H" or "S"
 * @returns {string}
 */
export function suitName(suit) {
  return SUIT_NAMES[String(suit).toUpperCase()] ?? String(suit);
}

/**
 * A suit's symbol: "♥".
 * @param {string} suit
 * @returns {string}
 */
export function suitSymbol(suit) {
  return SUIT_SYMBOLS[String(suit).toUpperCase()] ?? String(suit);
}

/**
 * A card's short text with its suit symbol: "Q♥", "10♦".
 * @param {string} card
 * @returns {string}
 */
export function cardShort(card) {
  const parts = parseCard(card);
  if (!parts) return String(card);
  return (parts.rank === "T" ? "10" : parts.rank) + SUIT_SYMBOLS[parts.suit];
}

/**
 * An SVG element with attributes.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElementTagNameMap[K]}
 */
function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

/**
 * A suit shape centred at (x, y), `size` units across, upside down if `flip`.
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {boolean} [flip]
 * @returns {SVGPathElement}
 */
function suitShape(suit, x, y, size, flip = false) {
  const k = size / 100;
  const turn = flip ? ` rotate(180 50 50)` : "";
  return svg("path", {
    d: SUIT_PATHS[suit], class: "suit",
    transform: `translate(${x - size / 2} ${y - size / 2}) scale(${k})${turn}`,
  });
}

/**
 * The corner index: the rank, big, over its suit.
 * @param {string} rank
 * @param {string} suit
 * @returns {SVGGElement}
 */
function cornerIndex(rank, suit) {
  const g = svg("g", { class: "index" });
  const text = svg("text", {
    x: 18, y: 39, "text-anchor": "middle", class: "rank", "font-size": 40,
    "font-weight": 700,
  });
  text.textContent = rank === "T" ? "10" : rank;
  if (rank === "T") {
    text.setAttribute("textLength", "31");
    text.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }
  g.append(text, suitShape(suit, 18, 58, 28));
  return g;
}

// Pip rows (0 top … 1 bottom) of each number card, by column: left/right (the side columns,
// mirrored) and centre.
/** @type {Record<string, {side: number[], centre: number[]}>} */
const PIPS = {
  2: { side: [], centre: [0, 1] },
  3: { side: [], centre: [0, 0.5, 1] },
  4: { side: [0, 1], centre: [] },
  5: { side: [0, 1], centre: [0.5] },
  6: { side: [0, 0.5, 1], centre: [] },
  7: { side: [0, 0.5, 1], centre: [0.25] },
  8: { side: [0, 0.5, 1], centre: [0.25, 0.75] },
  9: { side: [0, 1 / 3, 2 / 3, 1], centre: [0.5] },
  T: { side: [0, 1 / 3, 2 / 3, 1], centre: [1 / 6, 5 / 6] },
};
const PIP_TOP = 22;
const PIP_BOTTOM = 118;
const PIP_SIZE = 17;
const COLUMNS = { left: 49, centre: 67, right: 85 };

/**
 * The middle of a card: pips, a face card's letter, or the ace's one big suit.
 * @param {string} rank
 * @param {string} suit
 * @returns {SVGGElement}
 */
function middle(rank, suit) {
  const g = svg("g", { class: "middle" });
  if (rank === "A") {
    g.append(suitShape(suit, 66, 74, 50));
    return g;
  }
  if (rank === "J" || rank === "Q" || rank === "K") {
    g.append(svg("rect", {
      x: 40, y: 10, width: 54, height: 120, rx: 5, class: "frame",
    }));
    g.append(face(rank));
    const letter = svg("text", {
      x: 67, y: 98, "text-anchor": "middle", class: "rank face-letter", "font-size": 46,
      "font-weight": 700,
    });
    letter.textContent = rank;
    g.append(letter, suitShape(suit, 67, 117, 15));
    return g;
  }
  const layout = PIPS[rank];
  const y = (/** @type {number} */ row) => PIP_TOP + row * (PIP_BOTTOM - PIP_TOP);
  for (const row of layout.side) {
    g.append(suitShape(suit, COLUMNS.left, y(row), PIP_SIZE, row > 0.5));
    g.append(suitShape(suit, COLUMNS.right, y(row), PIP_SIZE, row > 0.5));
  }
  for (const row of layout.centre) {
    g.append(suitShape(suit, COLUMNS.centre, y(row), PIP_SIZE, row > 0.5));
  }
  return g;
}

/**
 * A face card's simple design above its letter: a crown (K), a tiara (Q), a cap (J).
 * @param {string} rank
 * @returns {SVGPathElement}
 */
function face(rank) {
  const d = {
    K: "M49 56L49 28L58 42L67 22L76 42L85 28L85 56Z",
    Q: "M49 56C49 42 53 34 57 38C59 28 63 24 67 24C71 24 75 28 77 38C81 34 85 42 85 56Z",
    J: "M51 56C51 36 59 26 67 26C75 26 83 36 83 56ZM65 20A4 4 0 1 0 69 20A4 4 0 1 0 65 20Z",
  }[rank] ?? "";
  return svg("path", { d, class: "ornament" });
}

/**
 * Mark an SVG as an image with a name, or hide it from assistive technology.
 * @param {SVGSVGElement} el
 * @param {string} label
 * @param {boolean} decorative
 */
function label(el, label, decorative) {
  if (decorative) {
    el.setAttribute("aria-hidden", "true");
    el.setAttribute("focusable", "false");
  } else {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  }
}

/**
 * A card face.
 *
 * Colours follow the page (base.css: `--heart`, `--club` …; `<html data-four-colour>` gives the
 * four-colour deck); `fourColour: true|false` fixes it for this card whatever the page says.
 * `decorative: true` hides the picture from assistive technology (use it inside a button that
 * has its own label); otherwise it is `role="img"` named "Queen of hearts".
 * @param {string} card "QH", "TD", "AS", "2C"
 * @param {{fourColour?: boolean, decorative?: boolean}} [opts]
 * @returns {SVGSVGElement}
 */
export function cardSvg(card, opts = {}) {
  const parts = parseCard(card);
  const el = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "card-svg card-face", "data-card": String(card),
  });
  if (opts.fourColour === true) el.classList.add("four-colour");
  if (opts.fourColour === false) el.classList.add("two-colour");
  label(el, cardName(card), Boolean(opts.decorative));
  el.append(svg("rect", {
    x: 1, y: 1, width: W - 2, height: H - 2, rx: 8, class: "card-bg",
  }));
  if (!parts) {
    const text = svg("text", { x: W / 2, y: H / 2 + 12, "text-anchor": "middle",
      "font-size": 36, class: "rank" });
    text.textContent = "?";
    el.append(text);
    return el;
  }
  el.classList.add(`suit-${parts.suit}`);
  el.dataset.suit = parts.suit;
  el.dataset.rank = parts.rank;
  el.append(cornerIndex(parts.rank, parts.suit), middle(parts.rank, parts.suit));
  return el;
}

/**
 * The back of a card (a card nobody may see): a lattice in the accent colour.
 * @param {{decorative?: boolean}} [opts]
 * @returns {SVGSVGElement}
 */
export function cardBack(opts = {}) {
  const el = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "card-svg card-back" });
  label(el, "A card, face down", Boolean(opts.decorative));
  el.append(svg("rect", {
    x: 1, y: 1, width: W - 2, height: H - 2, rx: 8, class: "card-bg",
  }));
  el.append(svg("rect", { x: 8, y: 8, width: W - 16, height: H - 16, rx: 4, class: "back-field" }));
  // A lattice of small diamonds inside the field.
  let d = "";
  for (let y = 16; y <= H - 16; y += 12) {
    for (let x = 14 + ((y - 16) / 12 % 2) * 6; x <= W - 14; x += 12) {
      d += `M${x} ${y - 5}L${x + 5} ${y}L${x} ${y + 5}L${x - 5} ${y}Z`;
    }
  }
  el.append(svg("path", { d, class: "back-pattern" }));
  return el;
}

/**
 * A suit as a small picture (for trump, a bid …), coloured as on the cards.
 * @param {string} suit "C", "D", "H" or "S"
 * @param {{decorative?: boolean}} [opts]
 * @returns {SVGSVGElement}
 */
export function suitIcon(suit, opts = {}) {
  const letter = String(suit).toUpperCase();
  const el = svg("svg", { viewBox: "0 0 100 100", class: `suit-icon suit-${letter}` });
  label(el, suitName(letter), Boolean(opts.decorative));
  if (letter in SUIT_PATHS) el.append(svg("path", { d: SUIT_PATHS[letter], class: "suit" }));
  return el;
}
