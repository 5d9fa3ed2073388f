// The home page (/): create a table (variant, players, your seat, the rules options with the
// engine's defaults and each one's sentence, a bot or a friend per seat, table settings),
// join with an invite link, the tables this browser holds a seat at, and the public lobby.
// docs/web.md: form#create, #invite, #lobby.

import { api, ApiError } from "./api.js";
import { keepSeatToken, seatToken, forgetSeatToken } from "./tokens.js";
import { applyPrefs, settingsPanel } from "./prefs.js";
import { h, replace, say, uid } from "./dom.js";
import { bindSeatForm } from "./seatform.js";
import { saveName, savedName, seatWords, siteHeader, variantWords } from "./site.js";
import { quickPlayPanel } from "./quickplay.js";
import { statsPanel } from "./stats.js";

/**
 * @typedef {{name: string, section: string, kind: "choice" | "bool" | "number" | "money",
 *   choices: (string | number | boolean)[] | null}} OptionInfo
 * @typedef {{name: string, money: boolean, players: {min: number, max: number, default: number},
 *   teams: number[][] | null, values: Record<string, string | number | boolean | null>}} VariantInfo
 * @typedef {{value: any, text: string, shown: boolean}} OptionState
 * @typedef {{rules: {name: string, options: Record<string, any>, players: [number, number],
 *   teams: number[][] | null}, players: number,
 *   options: Record<string, OptionState>, summary: string,
 *   ranked: {allowed: boolean, pool: string | null, reason: string | null,
 *     message: string | null}}} RulesInfo
 * @typedef {import("./site.js").TableInfo} TableInfo
 */

/** Bot levels a host may seat (docs/bots.md), easiest first. */
export const LEVELS = ["easy", "medium", "hard", "expert"];

/** What each option is called on the form. */
const LABELS = /** @type {Record<string, string>} */ ({
  partnership: "Partnerships",
  allow_two_players: "Two players may play",
  deal_batch: "Cards dealt at a time",
  deck: "Deck",
  off_jack: "The off-jack is a trump",
  hand_size: "Cards dealt",
  extra_points: "Extra points",
  first_dealer: "First dealer",
  min_bid: "Lowest bid",
  auction: "Auction",
  pass_is_final: "A pass is final",
  pitch_as_bid_4: "Pitching a card as a bid of 4",
  all_pass: "When everyone passes",
  dealer_steal: "The dealer may steal the bid",
  moon: "Bid above 4",
  moon_fail_points: "A failed moon loses",
  moon_must_be_bid: "A moon must be bid",
  trump_selection: "Trump",
  follow_rule: "Following suit",
  high_to: "High",
  low_to: "Low",
  jack_not_dealt: "Jack",
  game_tie: "A tie for Game",
  pitcher_set_keeps_points: "A set pitcher keeps the points won",
  win_rule: "Who wins",
  win_requires_made_bid: "Going out needs a made bid",
  target: "Play to (points)",
  money: "Money",
  stake_per_point: "Stake per point (dollars)",
  moon_payment: "Moon payment (dollars)",
  average_mode: "Money reckoned",
  join_leave: "Joining and leaving",
  join_score: "A newcomer starts at",
});

/** The words for an option's values (anything not here: the value with spaces). */
const CHOICE_WORDS = /** @type {Record<string, Record<string, string>>} */ ({
  partnership: { off: "Each for themselves", "2x2": "Two teams of two", "3x2": "Three teams of two" },
  first_dealer: { random: "Drawn at random", cut: "By a cut" },
  auction: { single_round: "One round", continuous: "Round and round" },
  moon: { none: "None (4 is the top)", moon: "Moon", smudge: "Smudge (scores 5)",
    smudge_wins: "Smudge wins the game" },
  moon_fail_points: { 4: "4 points", 5: "5 points" },
  all_pass: { force_dealer_exact2: "The dealer must bid exactly 2",
    force_dealer_atleast2: "The dealer must bid at least 2", redeal: "Throw the hand in",
    eldest_pitches_no_contract: "Eldest leads, no contract" },
  dealer_steal: { none: "No", equal_below_max: "By equalling, below the top bid",
    equal_any_incl_pitched: "By equalling any bid" },
  follow_rule: { trump_anytime: "Follow suit or trump", strict_follow: "Follow suit",
    follow_trump_only: "Follow only when trump is led" },
  low_to: { capturer: "To whoever captures it", holder: "To whoever held it" },
  high_to: { holder: "To whoever held it" },
  jack_not_dealt: { no_point: "No point if not dealt" },
  trump_selection: { first_lead: "The pitcher's first lead",
    declare_then_lead_any: "Pitcher names it, leads any card",
    declare_then_lead_trump: "Pitcher names it, leads a trump" },
  // the ten-point family (docs/rules.md §2.6)
  deck: { 52: "52 cards", 53: "53 cards (one joker)", 54: "54 cards (two jokers)" },
  hand_size: { 6: "6 cards", 7: "7 cards, discard to 6", 8: "8 cards, discard to 6",
    9: "9 cards, discard to 6" },
  extra_points: { none: "None", off_jack_jokers: "Off-jack and jokers (1 each)",
    off_jack_jokers_three: "Off-jack, jokers, trump three (3)" },
  game_tie: { no_point: "Nobody scores it", elder_hand: "Eldest of the tied",
    pitcher: "The pitcher, if tied" },
  win_rule: { bidder_goes_out: "Only the pitcher goes out",
    first_to_target_HLJG_order: "First to the target (High, Low, Jack, Game order)",
    pitcher_counted_first: "The pitcher counted first", higher_score: "The higher score" },
  money: { none: "No money", per_point_vs_average: "Per point against the average",
    per_point_flat: "Per point, between every two players" },
  average_mode: { per_hand: "Hand by hand", snapshot: "When a player leaves" },
  join_leave: { between_hands: "Between hands", never: "Never" },
  join_score: { zero: "0 points", table_average: "The table's average" },
});

const SECTION_TITLES = /** @type {Record<string, string>} */ ({
  TABLE: "Players and the deal", AUCTION: "The auction", PLAY: "Play", POINTS: "Points",
  GOAL: "Winning", MONEY: "Money",
});

const STATUS_WORDS = { waiting: "Waiting to start", playing: "Playing", over: "Over" };

/**
 * Words for an option's value.
 * @param {string} option
 * @param {unknown} value
 * @returns {string}
 */
function choiceWords(option, value) {
  const words = CHOICE_WORDS[option]?.[String(value)];
  if (words) return words;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return String(value).replaceAll("_", " ");
}

/**
 * The seat tokens this browser holds: [table id, token] from localStorage (tokens.js' keys).
 * @returns {string[]}
 */
function heldTables() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith("pitch.seat.")) out.push(key.slice("pitch.seat.".length));
    }
  } catch {
    // no storage
  }
  return out;
}

// ------------------------------------------------------------------ the create form

class CreateForm {
  /**
   * @param {{variants: VariantInfo[], options: OptionInfo[]}} info
   * @param {(created: any) => void} onCreated
   */
  constructor(info, onCreated) {
    this.variants = info.variants;
    this.options = info.options;
    this.onCreated = onCreated;
    /** @type {Record<number, string>} the chosen player per seat: a level or "open" */
    this.seatChoice = {};
    this.requests = 0;
    /** @type {RulesInfo | null} the server's answer for the rules as chosen (POST /api/rules) */
    this.answer = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {Map<string, {field: HTMLElement | null, text: HTMLElement, row: HTMLElement}>} */
    this.fields = new Map();

    this.name = h("input", { id: "create-name", name: "name", type: "text", required: true,
      maxLength: 24, autocomplete: "nickname", value: savedName(), spellcheck: false,
      "aria-describedby": "create-name-hint" });
    this.variant = h("select", { id: "create-variant", name: "variant" });
    for (const v of this.variants) {
      this.variant.append(h("option", { value: v.name, text: variantWords(v.name) }));
    }
    this.variant.value = this.variants.some((v) => v.name === "auction") ? "auction"
      : this.variants[0].name;
    this.players = h("select", { id: "create-players", name: "players" });
    this.seat = h("select", { id: "create-seat", name: "seat" });
    this.listed = h("input", { id: "create-listed", name: "listed", type: "checkbox",
      "aria-describedby": "create-listed-hint" });
    // Ranked (docs/accounts.md): shown only to a signed-in player; the server says whether
    // the rules as chosen can be ranked, and why not (POST /api/rules' "ranked")
    this.ranked = h("input", { id: "create-ranked", name: "ranked", type: "checkbox",
      "aria-describedby": "create-ranked-hint" });
    this.rankedHint = h("p", { id: "create-ranked-hint", class: "hint",
      text: "Rated at the end. Every player signs in; leaving counts as a loss." });
    this.rankedBox = h("div", { class: "ranked", hidden: true },
      h("div", { class: "field check" }, this.ranked,
        h("label", { for: "create-ranked", text: "Ranked" })),
      this.rankedHint);
    this.seatsBox = h("div", { class: "seat-list" });
    this.rulesBox = h("div", { class: "rules-options" });
    this.rulesError = h("p", { id: "rules-error", class: "error", role: "alert", hidden: true });
    this.formError = h("p", { id: "create-error", class: "error", role: "alert", hidden: true });
    this.summary = h("pre", { class: "rules-summary" });
    /** The sentence of the option just changed, said once (not every option's at once). */
    this.live = h("p", { class: "visually-hidden", "aria-live": "polite" });
    /** @type {string | null} */
    this.lastChanged = null;
    this.submit = h("button", { type: "submit", class: "primary", text: "Create table" });

    this.fill = h("select", { id: "create-fill", name: "fill" });
    for (const level of LEVELS) {
      this.fill.append(h("option", { value: level, text: level[0].toUpperCase() + level.slice(1) }));
    }
    this.fill.value = "medium";
    this.botDelay = h("select", { id: "create-bot-delay", name: "settings.bot_delay" });
    for (const [value, words] of [["0.3", "Quick (0.3 s a move)"], ["0.8", "Steady (0.8 s)"],
      ["1.5", "Slow (1.5 s)"], ["2.5", "Very slow (2.5 s)"]]) {
      this.botDelay.append(h("option", { value, text: words }));
    }
    this.botDelay.value = "0.8";
    this.turnTimer = h("select", { id: "create-turn-timer", name: "settings.turn_timer" });
    for (const [value, words] of [["", "Off"], ["30", "30 seconds"], ["60", "1 minute"],
      ["120", "2 minutes"], ["300", "5 minutes"]]) {
      this.turnTimer.append(h("option", { value, text: words }));
    }

    this.form = h("form", { id: "create", class: "panel create-form", novalidate: true,
      "aria-labelledby": "create-title" },
    h("h2", { id: "create-title", text: "New table" }),
    h("div", { class: "field" },
      h("label", { for: "create-name", text: "Your name" }), this.name,
      h("p", { id: "create-name-hint", class: "hint",
        text: "Up to 24 letters, digits, spaces or . ' -" })),
    h("div", { class: "field-row" },
      h("div", { class: "field" }, h("label", { for: "create-variant", text: "Game" }),
        this.variant),
      h("div", { class: "field" }, h("label", { for: "create-players", text: "Players" }),
        this.players),
      h("div", { class: "field" }, h("label", { for: "create-seat", text: "Your seat" }),
        this.seat)),
    h("fieldset", { class: "seats" },
      h("legend", { text: "The other seats" }),
      h("p", { class: "hint", text: "A bot plays a seat from the start; an open seat waits "
        + "for a friend with the invite link, and a bot takes it if nobody has when you start." }),
      this.seatsBox),
    h("fieldset", { class: "table-settings" },
      h("legend", { text: "Table" }),
      h("div", { class: "field check" }, this.listed,
        h("label", { for: "create-listed", text: "List it in the lobby" })),
      h("p", { id: "create-listed-hint", class: "hint",
        text: "Anyone can watch a listed table. Only people with the invite link can take a "
          + "seat." }),
      this.rankedBox,
      h("div", { class: "field-row" },
        h("div", { class: "field" }, h("label", { for: "create-bot-delay", text: "Bots' pace" }),
          this.botDelay),
        h("div", { class: "field" },
          h("label", { for: "create-turn-timer", text: "Turn timer" }), this.turnTimer),
        h("div", { class: "field" },
          h("label", { for: "create-fill", text: "Bots for open seats" }),
          this.fill))),
    h("fieldset", { class: "rules" },
      h("legend", { text: "Rules" }),
      h("p", { class: "hint", text: "The game's own rules are set; change any of them. Rules that do not "
        + "matter with the others are left out. "
        + "Each line says what the rule means." }),
      this.rulesError,
      this.live,
      this.rulesBox,
      h("div", { class: "rules-foot" },
        h("details", { class: "rules-all" }, h("summary", { text: "The rules in full" }),
          this.summary),
        this.resetButton())),
    this.formError,
    h("div", { class: "actions-row" }, this.submit));

    this.variant.addEventListener("change", () => this.variantChanged());
    this.players.addEventListener("change", () => {
      this.seatsChanged();
      this.explain();
    });
    this.seat.addEventListener("change", () => this.renderSeats());
    this.name.addEventListener("input", () => {
      this.name.removeAttribute("aria-invalid");
      say(this.formError, "");
    });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.create();
    });
    this.variantChanged();
  }

  /** A button that puts every option back to the game's own. */
  resetButton() {
    const button = h("button", { type: "button", class: "small", text: "Back to the game's rules" });
    button.addEventListener("click", () => {
      this.renderOptions(this.current);
      this.renderPlayers();
      this.renderSeats();
      this.explain();
    });
    return button;
  }

  /** @returns {VariantInfo} */
  get current() {
    return this.variants.find((v) => v.name === this.variant.value) ?? this.variants[0];
  }

  /** The options as the form has them (only the ones that differ from the variant's). */
  chosenOptions() {
    /** @type {Record<string, string | number | boolean>} */
    const out = {};
    const base = this.current.values;
    for (const o of this.options) {
      const field = /** @type {HTMLInputElement | HTMLSelectElement | null} */ (
        this.form.elements.namedItem(`opt.${o.name}`));
      if (!field) continue;
      /** @type {string | number | boolean | null} */
      let value;
      if (field instanceof HTMLInputElement && field.type === "checkbox") value = field.checked;
      else if (o.kind === "number") value = field.value.trim() === "" ? null : Number(field.value);
      else if (o.kind === "money") value = field.value.trim();
      else {
        const choice = (o.choices ?? []).find((c) => String(c) === field.value);
        value = choice === undefined ? field.value : choice;
      }
      if (value === null || Number.isNaN(value)) continue;
      const same = o.kind === "money" ? sameMoney(String(value), base[o.name])
        : value === base[o.name];
      if (!same) out[o.name] = value;
    }
    return out;
  }

  /**
   * The table sizes the rules as chosen allow, and the seats of each team (null: each for
   * themselves): the server's facts — its answer for these options (POST /api/rules), the
   * variant's (GET /api/variants) until it comes.
   * @returns {{sizes: [number, number], teams: number[][] | null}}
   */
  tableFacts() {
    if (this.answer) return { sizes: this.answer.rules.players, teams: this.answer.rules.teams };
    const v = this.current;
    return { sizes: [v.players.min, v.players.max], teams: v.teams };
  }

  variantChanged() {
    const v = this.current;
    this.renderOptions(v);
    this.renderPlayers(v.players.default);
    this.renderSeats();
    this.explain();
  }

  /** @param {number} [want] */
  renderPlayers(want) {
    const [low, high] = this.tableFacts().sizes;
    const before = Number(this.players.value) || want || this.current.players.default;
    const chosen = Math.min(Math.max(want ?? before, low), high);
    replace(this.players);
    for (let n = low; n <= high; n++) {
      this.players.append(h("option", { value: String(n), text: String(n) }));
    }
    this.players.value = String(chosen);
  }

  seatsChanged() {
    this.renderSeats();
  }

  renderSeats() {
    const n = Number(this.players.value);
    const mine = Math.min(Number(this.seat.value) || 0, n - 1);
    replace(this.seat);
    for (let s = 0; s < n; s++) this.seat.append(h("option", { value: String(s), text: seatWords(s) }));
    this.seat.value = String(mine);
    const teams = this.tableFacts().teams ?? [];
    const partner = (/** @type {number} */ s) => teams.some((t) => t.includes(s) && t.includes(mine));
    replace(this.seatsBox);
    for (let s = 0; s < n; s++) {
      if (s === mine) continue;
      const id = uid("bot");
      const select = h("select", { id, name: `bot.${s}` });
      select.append(h("option", { value: "open", text: "Open: a friend with the link" }));
      for (const level of LEVELS) {
        select.append(h("option", { value: level, text: `Bot: ${level}` }));
      }
      select.value = this.seatChoice[s] ?? "medium";
      select.addEventListener("change", () => {
        this.seatChoice[s] = select.value;
      });
      const team = teams.length ? (partner(s) ? " (your partner)" : " (opponent)") : "";
      this.seatsBox.append(h("div", { class: "field seat-field" },
        h("label", { for: id, text: seatWords(s) + team }), select));
    }
  }

  /** @param {VariantInfo} v */
  renderOptions(v) {
    this.answer = null;  // the variant's own rules: its facts until the server answers
    this.fields.clear();
    replace(this.rulesBox);
    /** @type {Map<string, HTMLElement>} */
    const sections = new Map();
    for (const o of this.options) {
      let box = sections.get(o.section);
      if (!box) {
        box = h("div", { class: "rules-section" },
          h("h3", { text: SECTION_TITLES[o.section] ?? o.section }));
        sections.set(o.section, box);
        this.rulesBox.append(box);
      }
      box.append(this.optionRow(o, v.values[o.name]));
    }
    say(this.rulesError, "");
  }

  /**
   * One option: its field (or the fixed rule) and the sentence that explains the value.
   * @param {OptionInfo} o
   * @param {any} value the variant's default
   * @returns {HTMLElement}
   */
  optionRow(o, value) {
    const id = `opt-${o.name}`;
    const text = h("p", { id: `${id}-text`, class: "hint explain" });
    const label = LABELS[o.name] ?? o.name.replaceAll("_", " ");
    /** @type {HTMLInputElement | HTMLSelectElement | null} */
    let field = null;
    /** @type {HTMLElement} */
    let row;
    if (o.kind === "bool") {
      field = h("input", { id, name: `opt.${o.name}`, type: "checkbox", checked: Boolean(value),
        "aria-describedby": text.id });
      row = h("div", { class: "option option-bool" },
        h("div", { class: "field check" }, field, h("label", { for: id, text: label })), text);
    } else if (o.kind === "number") {
      field = h("input", { id, name: `opt.${o.name}`, type: "number", min: 1, max: 1000,
        step: 1, inputMode: "numeric", value: value === null ? "" : String(value),
        placeholder: "no target", "aria-describedby": text.id });
      row = h("div", { class: "option field" }, h("label", { for: id, text: label }), field, text);
    } else if (o.kind === "money") {
      field = h("input", { id, name: `opt.${o.name}`, type: "text", inputMode: "decimal",
        value: moneyText(value), "aria-describedby": text.id, spellcheck: false,
        autocomplete: "off" });
      row = h("div", { class: "option field" }, h("label", { for: id, text: label }), field, text);
    } else if ((o.choices ?? []).length <= 1) {
      row = h("div", { class: "option option-fixed" },
        h("span", { class: "label", text: `${label}: ` }),
        h("span", { text: choiceWords(o.name, value) }), text);
    } else {
      const select = h("select", { id, name: `opt.${o.name}`, "aria-describedby": text.id });
      for (const c of o.choices ?? []) {
        select.append(h("option", { value: String(c), text: choiceWords(o.name, c) }));
      }
      select.value = String(value);
      field = select;
      row = h("div", { class: "option field" }, h("label", { for: id, text: label }), select,
        text);
    }
    row.dataset.option = o.name;
    if (field) {
      const f = field;
      f.addEventListener(f instanceof HTMLInputElement && f.type !== "checkbox" ? "input"
        : "change", () => this.optionChanged(o.name));
    }
    this.fields.set(o.name, { field, text, row });
    return row;
  }

  /** @param {string} name */
  optionChanged(name) {
    this.lastChanged = name;
    for (const { field } of this.fields.values()) field?.removeAttribute("aria-invalid");
    this.explain();
  }

  /** Ask the server for the sentences of the rules as chosen (soon after the last change). */
  explain() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.explainNow(), 120);
  }

  async explainNow() {
    const asked = ++this.requests;
    // fit_players: the answer is for the nearest table size these options allow (they may
    // move the range), and says which
    const body = { variant: this.variant.value, players: Number(this.players.value),
      options: this.chosenOptions(), fit_players: true };
    try {
      /** @type {RulesInfo} */
      const info = await api("POST", "/api/rules", body);
      if (asked !== this.requests) return;
      say(this.rulesError, "");
      const before = JSON.stringify(this.tableFacts());
      this.answer = info;
      if (JSON.stringify(this.tableFacts()) !== before
          || info.players !== Number(this.players.value)) {
        this.renderPlayers(info.players);
        this.renderSeats();
      }
      this.showRules(info);
      this.showRanked(info);
    } catch (error) {
      if (asked !== this.requests) return;
      const message = error instanceof ApiError ? error.message : String(error);
      say(this.rulesError, `Check the rules: ${message}`);
      this.markBad(message);
    }
  }

  /** Show the Ranked box to a signed-in player (GET /api/me answers only then). */
  async offerRanked() {
    try {
      await api("GET", "/api/me");
    } catch {
      return; // a guest: no ranked tables
    }
    this.rankedBox.hidden = false;
  }

  /**
   * The Ranked box as the server judges the rules chosen: disabled, with its reason, when
   * they cannot be ranked.
   * @param {RulesInfo} info
   */
  showRanked(info) {
    const { allowed, message } = info.ranked;
    this.ranked.disabled = !allowed;
    if (!allowed) this.ranked.checked = false;
    this.rankedHint.textContent = allowed
      ? "Rated at the end. Every player signs in; leaving counts as a loss."
      : `Not ranked: ${message}`;
  }

  /** @param {RulesInfo} info */
  showRules(info) {
    for (const [name, { text, row }] of this.fields) {
      const state = info.options[name];
      if (!state) continue;
      let words = state.text;
      if (name === "target") {
        words = state.value === null || state.value === undefined
          ? (info.options.money?.value !== "none" ? "No target: money is won or paid after "
            + "every hand." : "No target: play as long as you like.")
          : `The first to ${state.value} points wins.`;
      } else if (name === "stake_per_point" || name === "moon_payment") {
        words = state.shown === false ? "" : name === "stake_per_point"
          ? `Each point is worth ${dollars(state.value)}.`
          : `A made moon is paid ${dollars(state.value)} by each player.`;
      }
      const moot = state.shown === false
        || (["stake_per_point", "moon_payment"].includes(name)
          && info.options.money?.value === "none");
      text.textContent = moot ? (words ? `${words} (Not in play with these rules.)`
        : "Not in play with these rules.") : words;
      text.hidden = !text.textContent;
      row.classList.toggle("moot", moot);
      // An option that does not matter under the others is left out of sight (and kept).
      row.hidden = moot;
    }
    for (const section of this.rulesBox.querySelectorAll(".rules-section")) {
      const rows = [...section.querySelectorAll(".option")];
      /** @type {HTMLElement} */ (section).hidden = rows.every((r) => /** @type {HTMLElement} */ (
        r).hidden);
    }
    this.summary.textContent = info.summary;
    const changed = this.lastChanged ? this.fields.get(this.lastChanged) : undefined;
    this.lastChanged = null;
    if (changed && changed.text.textContent) this.live.textContent = changed.text.textContent;
  }

  /**
   * Mark the option a refusal names ("option low_to=…", "partnership='2x2' needs …").
   * @param {string} message
   */
  markBad(message) {
    for (const [name, { field }] of this.fields) {
      if (field && new RegExp(`\\b${name}\\b`).test(message)) {
        field.setAttribute("aria-invalid", "true");
      }
    }
  }

  async create() {
    const name = this.name.value.trim().replace(/\s+/g, " ");
    if (!name) {
      this.name.setAttribute("aria-invalid", "true");
      say(this.formError, "Please give your name: the other players see it at the table.");
      this.name.focus();
      return;
    }
    const n = Number(this.players.value);
    const mine = Number(this.seat.value);
    /** @type {Record<string, string>} */
    const bots = {};
    for (let s = 0; s < n; s++) {
      if (s === mine) continue;
      const field = /** @type {HTMLSelectElement | null} */ (
        this.form.elements.namedItem(`bot.${s}`));
      const level = field ? field.value : "medium";
      if (level !== "open") bots[String(s)] = level;
    }
    /** @type {Record<string, number | string>} */
    const settings = { bot_delay: Number(this.botDelay.value) };
    if (this.turnTimer.value) settings.turn_timer = Number(this.turnTimer.value);
    const body = {
      name, variant: this.variant.value, players: n, seat: mine, options: this.chosenOptions(),
      bots, fill: this.fill.value, listed: this.listed.checked, settings,
      ranked: !this.rankedBox.hidden && !this.ranked.disabled && this.ranked.checked,
    };
    this.submit.disabled = true;
    say(this.formError, "Creating the table…", "info");
    try {
      const created = await api("POST", "/api/tables", body);
      keepSeatToken(created.table, { token: created.token, seat: created.seat,
        name: created.name, invite: `${location.origin}/join/${created.invite}` });
      saveName(created.name);
      say(this.formError, "");
      this.onCreated(created);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : String(error);
      if (error instanceof ApiError && error.reason === "bad_name") {
        this.name.setAttribute("aria-invalid", "true");
        this.name.focus();
      } else {
        this.markBad(message);
      }
      say(this.formError, message);
    } finally {
      this.submit.disabled = false;
    }
  }
}

/**
 * Whether a dollar amount typed equals the variant's ("0.10" and "1/10").
 * @param {string} typed
 * @param {unknown} base
 */
function sameMoney(typed, base) {
  const a = moneyNumber(typed);
  const b = moneyNumber(String(base));
  return a !== null && b !== null && Math.abs(a - b) < 1e-9;
}

/** @param {string} text */
function moneyNumber(text) {
  const t = text.trim();
  const frac = /^(\d+)\/(\d+)$/.exec(t);
  if (frac) return Number(frac[2]) ? Number(frac[1]) / Number(frac[2]) : null;
  return /^\d*\.?\d+$/.test(t) ? Number(t) : null;
}

/**
 * An amount as the form shows it: "1/10" → "0.10".
 * @param {unknown} value
 */
function moneyText(value) {
  const n = moneyNumber(String(value ?? ""));
  if (n === null) return String(value ?? "");
  if (Number.isInteger(n)) return String(n);
  return Math.abs(n * 100 - Math.round(n * 100)) < 1e-9 ? n.toFixed(2) : String(n);
}

/** @param {unknown} value */
function dollars(value) {
  const n = moneyNumber(String(value ?? ""));
  if (n === null) return `$${String(value)}`;
  return n < 1 && n > 0 && Math.abs(n * 100 - Math.round(n * 100)) < 1e-9
    ? `${Math.round(n * 100)}¢` : `$${Number.isInteger(n) ? n : n.toFixed(2)}`;
}

// ------------------------------------------------------------------ the invite

/**
 * What the host sees once the table exists: the invite link to copy and the way to the table.
 * @param {any} created TableCreated
 * @param {() => void} again show the form again
 * @returns {HTMLElement}
 */
function invitePanel(created, again) {
  const link = new URL(`/join/${created.invite}`, location.origin).href;
  const input = h("input", { id: "invite-link", type: "text", readOnly: true, value: link,
    spellcheck: false, "aria-describedby": "invite-hint" });
  input.addEventListener("focus", () => input.select());
  const status = h("p", { class: "hint copy-status", role: "status" });
  const copy = h("button", { type: "button", id: "copy-invite", text: "Copy" });
  copy.addEventListener("click", async () => {
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(link);
      status.textContent = "Copied. Send it to your friends.";
    } catch {
      input.focus();
      input.select();
      status.textContent = "Selected: press Ctrl+C (or ⌘C) to copy it.";
    }
  });
  const go = h("a", { class: "button primary", id: "go-to-table", href: `/t/${created.table}`,
    text: "Go to the table" });
  const another = h("button", { type: "button", text: "Create another table" });
  another.addEventListener("click", again);
  const panel = h("section", { id: "invite", class: "panel invite", "aria-labelledby": "invite-title",
    tabindex: -1 },
  h("h2", { id: "invite-title", text: "Your table is ready" }),
  h("p", { text: `You sit at ${created.seat === null ? "the table" : seatWords(created.seat)} `
    + `as ${created.name}. Start the game from the table when everyone is there.` }),
  h("div", { class: "field" },
    h("label", { for: "invite-link", text: "Invite link" }),
    h("div", { class: "copy-row" }, input, copy),
    h("p", { id: "invite-hint", class: "hint", text: "Anyone with this link can take an open "
      + "seat: share it only with the people you want at the table." }),
    status),
  h("div", { class: "actions-row" }, go, another));
  return panel;
}

// ------------------------------------------------------------------ join with a link

/**
 * Where an invite link (or code, or table link) leads, or null.
 * @param {string} text
 * @returns {string | null}
 */
export function inviteTarget(text) {
  const t = text.trim();
  if (!t) return null;
  const join = /\/join\/([A-Za-z0-9_-]+)/.exec(t);
  if (join) return `/join/${join[1]}`;
  const table = /\/t\/([A-Za-z0-9_-]+)/.exec(t);
  if (table) return `/t/${table[1]}`;
  if (/^[A-Za-z0-9_-]{8,}$/.test(t)) return `/join/${t}`;
  return null;
}

function joinPanel() {
  const input = h("input", { id: "join-link-input", name: "link", type: "text",
    autocomplete: "off", spellcheck: false, placeholder: "https://…/join/…",
    "aria-describedby": "join-link-error" });
  const error = h("p", { id: "join-link-error", class: "error", role: "alert", hidden: true });
  const form = h("form", { id: "join-link", class: "panel", "aria-labelledby": "join-title" },
    h("h2", { id: "join-title", text: "Join with a link" }),
    h("div", { class: "field" },
      h("label", { for: "join-link-input", text: "Invite link or code" }), input),
    error,
    h("div", { class: "actions-row" }, h("button", { type: "submit", text: "Join" })));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const target = inviteTarget(input.value);
    if (!target) {
      input.setAttribute("aria-invalid", "true");
      say(error, "That is not an invite link: paste the whole link your friend sent.");
      return;
    }
    location.assign(target);
  });
  input.addEventListener("input", () => {
    input.removeAttribute("aria-invalid");
    say(error, "");
  });
  return form;
}

// ------------------------------------------------------------------ your tables

/**
 * One line about a table's seats: "3 of 4 seats taken".
 * @param {TableInfo} info
 */
function seatsWords(info) {
  const taken = info.seats.filter((s) => s.kind !== "open").length;
  return `${taken} of ${info.seats.length} seats taken`;
}

/** The tables this browser holds a seat at (a list that fills in as the server answers). */
function yourTables() {
  const list = h("ul", { class: "table-list" });
  const section = h("section", { id: "your-tables", class: "panel", hidden: true,
    "aria-labelledby": "your-tables-title" },
  h("h2", { id: "your-tables-title", text: "Your tables" }), list);
  const ids = heldTables();
  for (const id of ids) {
    const seat = seatToken(id);
    if (!seat) continue;
    api("GET", `/api/tables/${encodeURIComponent(id)}`).then((/** @type {TableInfo} */ info) => {
      if (info.status === "over") return;
      section.hidden = false;
      list.append(h("li", {},
        h("a", { href: `/t/${id}`, text: `${variantWords(info.variant)}: back to your seat` }),
        h("span", { class: "muted", text: ` (${seat.name}, ${STATUS_WORDS[info.status]
          .toLowerCase()}, ${seatsWords(info)})` })));
    }).catch((/** @type {unknown} */ error) => {
      if (error instanceof ApiError && error.status === 404) forgetSeatToken(id);
    });
  }
  return section;
}

// ------------------------------------------------------------------ the lobby

function lobbyPanel() {
  const joining = lobbyJoinDialog();
  const body = h("tbody");
  const table = h("table", { class: "lobby-table" },
    h("caption", { class: "visually-hidden", text: "Listed tables" }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Game" }),
      h("th", { scope: "col", text: "Seats" }), h("th", { scope: "col", text: "Status" }),
      h("th", { scope: "col" }, h("span", { class: "visually-hidden", text: "Actions" })))),
    body);
  const empty = h("p", { class: "muted", text: "No listed tables right now. Create one and "
    + "tick “List it in the lobby”.", hidden: true });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const refresh = h("button", { type: "button", class: "small", text: "Refresh" });
  const section = h("section", { id: "lobby", class: "panel", "aria-labelledby": "lobby-title",
    "aria-busy": "true" },
  h("div", { class: "section-head" }, h("h2", { id: "lobby-title", text: "Lobby" }), refresh),
  h("div", { class: "table-scroll" }, table), empty, error, joining.dialog);

  const load = async () => {
    section.setAttribute("aria-busy", "true");
    try {
      /** @type {TableInfo[]} */
      const tables = await api("GET", "/api/lobby");
      say(error, "");
      replace(body);
      for (const info of tables) body.append(lobbyRow(info, joining.open));
      table.hidden = tables.length === 0;
      empty.hidden = tables.length > 0;
    } catch (e) {
      say(error, e instanceof ApiError ? e.message : String(e));
    } finally {
      section.setAttribute("aria-busy", "false");
    }
  };
  refresh.addEventListener("click", load);
  load();
  setInterval(() => {
    if (document.visibilityState === "visible") load();
  }, 20000);
  return section;
}

/**
 * A lobby row: the game, seats, status, and Join (a seat to take) and Watch.
 * @param {TableInfo} info
 * @param {(info: TableInfo) => void} join opens the dialog to take a seat
 */
function lobbyRow(info, join) {
  const open = info.seats.filter((s) => s.kind === "open").length;
  const names = info.seats.filter((s) => s.kind === "human" && s.name).map((s) => s.name);
  const actions = h("div", { class: "lobby-actions" });
  const mine = seatToken(info.table);
  const game = variantWords(info.variant);
  if (mine) {
    actions.append(h("a", { class: "button small primary", href: `/t/${info.table}`,
      text: "Your seat", "aria-label": `Back to your seat at the ${game} table` }));
  } else {
    const lateJoin = info.money && info.status === "playing";
    if ((open > 0 && info.status === "waiting") || lateJoin) {
      const button = h("button", { type: "button", class: "small primary", text: "Join",
        "aria-label": `Join the ${game} table${names.length ? ` of ${names[0]}` : ""}`,
        "aria-haspopup": "dialog" });
      button.addEventListener("click", () => join(info));
      actions.append(button);
    }
    actions.append(h("a", { class: "button small", href: `/t/${info.table}`, text: "Watch",
      "aria-label": `Watch the ${game} table${names.length ? ` of ${names[0]}` : ""}` }));
  }
  return h("tr", { "data-table": info.table },
    h("td", {}, h("span", { class: "lobby-variant", text: game }),
      names.length ? h("span", { class: "muted lobby-names", text: ` ${names.join(", ")}` })
        : null),
    h("td", { text: `${info.seats.length - open} of ${info.seats.length}` }),
    h("td", { text: STATUS_WORDS[info.status] ?? info.status }),
    h("td", {}, actions));
}

/**
 * The dialog to take a seat at a listed table (POST /api/tables/{id}/seats: no invite needed).
 * @returns {{dialog: HTMLDialogElement, open: (info: TableInfo) => void}}
 */
function lobbyJoinDialog() {
  const name = h("input", { id: "lobby-join-name", name: "name", type: "text", required: true,
    maxLength: 24, autocomplete: "nickname", spellcheck: false });
  const seat = h("select", { id: "lobby-join-seat", name: "seat" });
  const title = h("h2", { id: "lobby-join-title", text: "Take a seat" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "primary", text: "Take a seat" });
  const cancel = h("button", { type: "button", text: "Cancel" });
  const form = h("form", { id: "lobby-take-seat", novalidate: true },
    title,
    h("div", { class: "field" }, h("label", { for: "lobby-join-name", text: "Your name" }), name),
    h("div", { class: "field" }, h("label", { for: "lobby-join-seat", text: "Seat" }), seat),
    error,
    h("div", { class: "actions-row" }, submit, cancel));
  const dialog = h("dialog", { id: "lobby-join", "aria-labelledby": "lobby-join-title" }, form);
  /** @type {TableInfo | null} */
  let table = null;
  cancel.addEventListener("click", () => dialog.close());
  bindSeatForm({ form, name, seat, error, submit,
    path: () => table && `/api/tables/${encodeURIComponent(table.table)}/seats` });
  /** @param {TableInfo} info */
  const open = (info) => {
    table = info;
    title.textContent = `Take a seat: ${variantWords(info.variant)}`;
    replace(seat);
    for (const s of info.seats.filter((x) => x.kind === "open")) {
      seat.append(h("option", { value: String(s.seat), text: seatWords(s.seat) }));
    }
    if (!seat.options.length) {
      seat.append(h("option", { value: "", text: "The next free seat, between hands" }));
    }
    if (!name.value) name.value = savedName();
    say(error, "");
    dialog.showModal();
    (name.value ? submit : name).focus();
  };
  return { dialog, open };
}

// ------------------------------------------------------------------ the page

async function main() {
  applyPrefs();
  const app = /** @type {HTMLElement} */ (document.getElementById("app"));
  const header = siteHeader({ home: true, heading: true, account: true,
    tagline: "Auction pitch, setback and the money game, with friends or bots." });
  const createBox = h("div", { class: "create-box" },
    h("p", { class: "muted", text: "Loading the games…" }));
  const side = h("div", { class: "home-side" }, joinPanel(), yourTables(), lobbyPanel(), statsPanel(),
    h("details", { class: "panel settings-box" }, h("summary", { text: "Settings" }),
      settingsPanel({ hideLegend: true })));
  // "Play against bots" first; the whole new-table form folded under "More options"
  const more = h("details", { id: "more-options", class: "panel more-options" },
    h("summary", { text: "More options: a table for friends, other games, the rules" }), createBox);
  replace(app, header, h("div", { class: "home-grid" },
    h("div", { class: "home-main" }, quickPlayPanel(), more), side));

  /** @type {{variants: VariantInfo[], options: OptionInfo[]}} */
  let info;
  try {
    info = await api("GET", "/api/variants");
  } catch (error) {
    replace(createBox, h("p", { class: "error", role: "alert",
      text: `The games could not be loaded: ${error instanceof ApiError ? error.message
        : String(error)}` }));
    return;
  }
  const form = new CreateForm(info, (created) => {
    const panel = invitePanel(created, again);
    replace(createBox, panel);
    panel.focus();
  });
  function again() {
    replace(createBox, form.form);
    form.name.focus();
  }
  replace(createBox, form.form);
  form.offerRanked();
}

main();
