// Cards of our own, drawn as SVG (no image files, no fonts from elsewhere): a big index in the
// top-left corner (rank over suit) that reads at 40 px wide and in a fanned hand, and beside it
// pips for 2-10, a framed letter for J Q K, one large suit for the Ace.  Colours come from CSS (base.css: --heart, --club …, --card-bg), so both
// themes and the four-colour deck work; the suits are paths, not font glyphs.
//
// Cards are written as the engine writes them: rank then suit, "QH", "TD" (ten of diamonds),
// "AS", "2C"; ranks 2-9 T J Q K A, suits C D H S.  The ten-point family adds two jokers (T1):
// "LJ" (the low joker, an outlined star) and "BJ" (the high joker, a filled star), drawn with
// the word JOKER in strokes; both are trumps whatever suit is trump.

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

/** The jokers' names (T1): the low ("little") joker and the high ("big") one. */
const JOKER_NAMES = /** @type {Record<string, string>} */ ({ LJ: "Low joker", BJ: "High joker" });
const JOKER_SHORT = /** @type {Record<string, string>} */ ({ LJ: "Low ☆", BJ: "High ★" });

/**
 * Whether a card's text is a joker ("LJ", "BJ").
 * @param {string} card
 */
export function isJoker(card) {
  return card === "LJ" || card === "BJ";
}

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
  if (isJoker(card)) return JOKER_NAMES[card];
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
  if (isJoker(card)) return JOKER_SHORT[card];
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
  g.append(rankGlyph(rank, 18, 9, 32), suitShape(suit, 18, 60, 26));
  return g;
}

// The ranks drawn as strokes (no text: nothing depends on the system's fonts, and a card
// carries no words but its label).  Each glyph is 24 units wide ("10": 30) and 34 high, and is
// stroked with round ends (base.css: .card-svg .rank).
/** @type {Record<string, string>} */
const GLYPHS = {
  A: "M2 34L12 0L22 34M5.5 22H18.5",
  K: "M3 0V34M21 0L3 20M9.5 13.5L21 34",
  Q: "M12 0C4 0 1 8 1 17C1 26 4 34 12 34C20 34 23 26 23 17C23 8 20 0 12 0ZM14 24L22 34",
  J: "M19 0V24C19 31 16 34 11 34C6 34 3 31 3 26",
  T: "M1 6L7 0V34M20.5 0C15 0 12.5 7 12.5 17C12.5 27 15 34 20.5 34C26 34 28.5 27 28.5 17"
    + "C28.5 7 26 0 20.5 0Z",
  9: "M4 31C6 33 9 34 12 34C19 34 22 26 22 16C22 6 19 0 12 0C6 0 2 4 2 11C2 18 6 21 12 21"
    + "C17 21 21 18 22 13",
  8: "M12 16C7 16 4 13 4 8.5C4 3.5 7.5 0 12 0C16.5 0 20 3.5 20 8.5C20 13 17 16 12 16"
    + "C6 16 2 19.5 2 25C2 30.5 6.5 34 12 34C17.5 34 22 30.5 22 25C22 19.5 18 16 12 16Z",
  7: "M2 0H22L9 34",
  6: "M20 3C18 1 15 0 12 0C5 0 2 8 2 18C2 28 5 34 12 34C18 34 22 30 22 23C22 16 18 13 12 13"
    + "C7 13 3 16 2 21",
  5: "M21 0H5L3 15C6 13 9 12 12 12C18 12 22 16 22 23C22 30 18 34 12 34C7 34 4 32 2 29",
  4: "M17 34V0L2 23H23",
  3: "M3 5C5 1 8 0 12 0C17 0 21 3 21 8C21 13 17 16 11 16C17 16 22 19 22 25C22 31 17 34 12 34"
    + "C7 34 4 32 2 29",
  2: "M3 8C3 3 7 0 12 0C17 0 21 3 21 9C21 15 16 19 3 34H22",
  O: "M12 0C5 0 1 7 1 17C1 27 5 34 12 34C19 34 23 27 23 17C23 7 19 0 12 0Z",
  E: "M21 0H3V34H21M3 17H17",
  R: "M3 34V0H13C19 0 22 4 22 9C22 14 19 18 13 18H3M12 18L22 34",
  "?": "M5 8C5 3 8 0 12 0C16 0 19 3 19 8C19 13 12 15 12 22M12 31V32",
};

/**
 * A rank drawn as strokes, `height` units high, centred on x, its top at y.
 * @param {string} rank
 * @param {number} x
 * @param {number} y
 * @param {number} height
 * @returns {SVGPathElement}
 */
function rankGlyph(rank, x, y, height) {
  const k = height / 34;
  const width = rank === "T" ? 30 : 24;
  return svg("path", {
    d: GLYPHS[rank] ?? GLYPHS["?"], class: "rank",
    transform: `translate(${x - (width * k) / 2} ${y}) scale(${k})`,
  });
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
    const letter = rankGlyph(rank, 67, 64, 36);
    letter.classList.add("face-letter");
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
  if (isJoker(card)) {
    jokerFace(el, card);
    return el;
  }
  if (!parts) {
    el.append(rankGlyph("?", W / 2, H / 2 - 20, 40));
    return el;
  }
  el.classList.add(`suit-${parts.suit}`);
  el.dataset.suit = parts.suit;
  el.dataset.rank = parts.rank;
  el.append(cornerIndex(parts.rank, parts.suit), middle(parts.rank, parts.suit));
  return el;
}

/**
 * A five-pointed star centred at (x, y), `size` units across.
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} cls
 * @returns {SVGPathElement}
 */
function star(x, y, size, cls) {
  const points = [];
  for (let i = 0; i < 10; i += 1) {
    const r = (i % 2 ? 0.4 : 1) * size / 2;
    const a = Math.PI * (i / 5 - 0.5);
    points.push(`${(x + r * Math.cos(a)).toFixed(1)} ${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return svg("path", { d: `M${points.join("L")}Z`, class: `star ${cls}` });
}

/**
 * A joker's face (T1): a star in the corner and a big one in the middle — outlined for the low
 * joker, filled for the high — and the word JOKER in strokes across the foot.
 * @param {SVGSVGElement} el
 * @param {string} card "LJ" or "BJ"
 */
function jokerFace(el, card) {
  const kind = card === "BJ" ? "filled" : "outlined";
  el.classList.add("joker", `joker-${card === "BJ" ? "high" : "low"}`);
  el.dataset.rank = card;
  const corner = svg("g", { class: "index" });
  corner.append(star(18, 22, 28, kind));
  const word = svg("g", { class: "joker-word" });
  [..."JOKER"].forEach((letter, i) => word.append(rankGlyph(letter, 16 + i * 17, 106, 20)));
  el.append(corner, star(58, 62, 56, kind), word);
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
