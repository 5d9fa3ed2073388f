// The account page (/account; docs/web.md, docs/accounts.md). A guest: sign in, or register a
// name. Signed in: your profile's link, sign out here or everywhere, change the password, API
// tokens for a terminal or a bot (created — shown once —, listed, revoked), and deleting the
// account after a confirmation with the password. Everything goes through the JSON API; the
// session is the server's HttpOnly cookie, which no script here can read.

import { api, ApiError } from "./api.js";
import { h, replace, say, uid } from "./dom.js";
import { applyPrefs } from "./prefs.js";
import { siteHeader, signedIn } from "./site.js";

/**
 * @typedef {import("./site.js").Me} Me
 * @typedef {{id: string, label: string, created: number, last_used: number | null}} TokenListed
 * @typedef {TokenListed & {token: string}} TokenCreated
 */

/** @param {unknown} error */
function why(error) {
  return error instanceof ApiError ? error.message : String(error);
}

/** @param {number} at seconds since 1970 */
function when(at) {
  return new Date(at * 1000).toLocaleString();
}

/**
 * A labelled input in a `.field`.
 * @param {string} label
 * @param {Record<string, string | boolean>} attrs
 */
function field(label, attrs) {
  const id = uid("f");
  return h("div", { class: "field" }, h("label", { for: id, class: "label", text: label }),
    h("input", { id, ...attrs }));
}

/**
 * A form that sends its fields as JSON and says what went wrong in its own alert; the button
 * is disabled while the server works (an Argon2id hash takes most of a second).
 * @param {{id: string, legend: string, fields: HTMLElement[], submit: string,
 *   send: (data: Record<string, string>) => Promise<void>, note?: string}} spec
 */
function jsonForm(spec) {
  const error = h("p", { id: `${spec.id}-error`, class: "error", role: "alert", hidden: true });
  const button = h("button", { type: "submit", class: "primary", text: spec.submit });
  const form = h("form", { id: spec.id, class: "panel account-form" },
    h("h2", { text: spec.legend }), spec.note ? h("p", { class: "muted", text: spec.note }) : null,
    spec.fields, error, h("div", { class: "actions-row" }, button));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    say(error, "");
    /** @type {Record<string, string>} */
    const data = {};
    for (const [k, v] of new FormData(form)) data[k] = String(v);
    button.disabled = true;
    try {
      await spec.send(data);
    } catch (failure) {
      say(error, why(failure));
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

class AccountPage {
  constructor() {
    this.app = /** @type {HTMLElement} */ (document.getElementById("app"));
    this.message = h("p", { id: "account-message", role: "status", hidden: true });
  }

  /**
   * Show the page for `me` (null: a guest), with `note` in the status line.
   * @param {Me | null} me
   * @param {string} [note]
   */
  show(me, note = "") {
    const header = siteHeader({ account: Promise.resolve(me) });
    say(this.message, note, "info");
    if (me) {
      const [title, ...rest] = this.signedIn(me);
      replace(this.app, header, title, this.message, ...rest);
    }
    else replace(this.app, header, h("h1", { text: "Sign in" }), this.message, ...this.guest());
  }

  /** The guest's forms: sign in, register. */
  guest() {
    const signIn = jsonForm({
      id: "sign-in", legend: "Sign in", submit: "Sign in",
      fields: [field("Name", { name: "name", autocomplete: "username", required: true }),
        field("Password", { name: "password", type: "password", autocomplete: "current-password",
          required: true })],
      send: async (data) => this.show(await api("POST", "/api/session", data), "Signed in."),
    });
    const register = jsonForm({
      id: "register", legend: "New here? Register a name", submit: "Create account",
      note: "A name that stays yours, a rating and a profile. You can still play as a guest "
        + "without one.",
      fields: [field("Name (letters or digits, up to 24)", { name: "name",
        autocomplete: "username", required: true }),
      field("Password (8 or more characters)", { name: "password", type: "password",
        autocomplete: "new-password", required: true, minlength: "8" })],
      send: async (data) => this.show(await api("POST", "/api/accounts", data),
        "Your account is made: you are signed in."),
    });
    return [h("div", { class: "account-grid" }, signIn, register),
      h("p", { class: "page-links" }, h("a", { href: "/", text: "Play as a guest" }), " · ",
        h("a", { href: "/leaderboards", text: "Leaderboards" }))];
  }

  /**
   * The signed-in page.
   * @param {Me} me
   */
  signedIn(me) {
    const title = h("h1", { id: "account-name", "data-name": me.name }, "Signed in as ",
      h("span", { text: me.name }));
    const signOut = h("button", { id: "sign-out", type: "button", text: "Sign out",
      onclick: () => this.act(async () => {
        await api("DELETE", "/api/session");
        this.show(null, "Signed out.");
      }) });
    const everywhere = h("button", { id: "sign-out-everywhere", type: "button",
      text: "Sign out everywhere", onclick: () => this.act(async () => {
        const done = await api("DELETE", "/api/me/sessions");
        this.show(await signedIn(), `Signed out everywhere (${done.ended} `
          + `${done.ended === 1 ? "session" : "sessions"} ended).`);
      }) });
    const password = jsonForm({
      id: "change-password", legend: "Change your password", submit: "Change password",
      note: "Every other device and every API token is signed out.",
      fields: [field("Current password", { name: "current", type: "password",
        autocomplete: "current-password", required: true }),
      field("New password (8 or more characters)", { name: "new", type: "password",
        autocomplete: "new-password", required: true, minlength: "8" })],
      send: async (data) => this.show(await api("POST", "/api/me/password", data),
        "Your password is changed; every other device and API token is signed out."),
    });
    return [title,
      h("p", { class: "page-links" },
        h("a", { id: "profile-link", href: `/players/${encodeURIComponent(me.name)}`,
          text: "Your profile" }), " · ", h("a", { href: "/leaderboards", text: "Leaderboards" }),
        " · ", h("a", { href: "/", text: "Play" })),
      h("div", { class: "actions-row" }, signOut, everywhere),
      h("div", { class: "account-grid" }, password, this.tokens()),
      this.deletion()];
  }

  /**
   * Run a button's request; a refusal shows in the status line.
   * @param {() => Promise<void>} work
   */
  async act(work) {
    try {
      await work();
    } catch (failure) {
      say(this.message, why(failure));
    }
  }

  /** API tokens: create (the token shown once), list, revoke. */
  tokens() {
    const list = h("ul", { id: "token-list", class: "token-list" });
    const shown = h("div", { id: "new-token", class: "new-token", hidden: true });
    const refresh = async () => {
      /** @type {TokenListed[]} */
      const tokens = await api("GET", "/api/me/tokens");
      replace(list, tokens.length ? tokens.map((t) => h("li", { "data-token-id": t.id },
        h("span", { class: "token-label", text: t.label }),
        h("span", { class: "muted", text: ` made ${when(t.created)}`
          + (t.last_used ? `, last used ${when(t.last_used)}` : ", never used") }), " ",
        h("button", { type: "button", class: "small revoke", text: "Revoke",
          "aria-label": `Revoke the token ${t.label}`, onclick: () => this.act(async () => {
            await api("DELETE", `/api/me/tokens/${t.id}`);
            shown.hidden = true;
            await refresh();
          }) })))
        : [h("li", { class: "muted", text: "No API tokens." })]);
    };
    const form = jsonForm({
      id: "new-token-form", legend: "API tokens", submit: "Create token",
      note: "For a terminal or a bot: pitch play --token, pitch bot --token. A token is shown "
        + "once; revoke one you no longer use.",
      fields: [field("What it is for", { name: "label", required: true, maxlength: "24",
        value: "terminal" })],
      send: async (data) => {
        /** @type {TokenCreated} */
        const made = await api("POST", "/api/me/tokens", data);
        const id = uid("token");
        replace(shown, h("label", { for: id, text: `Your token "${made.label}" — copy it now, `
          + "it is not shown again:" }),
        h("input", { id, "data-token": made.token, value: made.token, readonly: true,
          spellcheck: false, autocomplete: "off" }));
        shown.hidden = false;
        await refresh();
      },
    });
    form.append(shown, list);
    refresh().catch((failure) => say(this.message, why(failure)));
    return form;
  }

  /** Deleting the account, after a confirmation with the password. */
  deletion() {
    const error = h("p", { id: "confirm-delete-error", class: "error", role: "alert", hidden: true });
    const passwordId = uid("f");
    const input = h("input", { id: passwordId, name: "password", type: "password",
      autocomplete: "current-password", required: true });
    const go = h("button", { id: "confirm-delete-go", type: "submit", class: "danger",
      text: "Delete my account" });
    const cancel = h("button", { id: "confirm-delete-cancel", type: "button", text: "Cancel" });
    const headingId = uid("h");
    const form = h("form", { method: "dialog" },
      h("h2", { id: headingId, text: "Delete your account?" }),
      h("p", { text: "Your name, sessions, API tokens and ratings are deleted, for good. "
        + "Games you played stay, and your part in others' rated matches stays as "
        + "\"a former player\"." }),
      h("div", { class: "field" }, h("label", { for: passwordId, class: "label",
        text: "Your password" }), input), error, h("div", { class: "actions-row" }, go, cancel));
    const dialog = h("dialog", { id: "confirm-delete", "aria-labelledby": headingId }, form);
    cancel.addEventListener("click", () => dialog.close());
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      say(error, "");
      go.disabled = true;
      try {
        await api("DELETE", "/api/me", { password: input.value });
        dialog.close();
        this.show(null, "Your account is deleted.");
      } catch (failure) {
        say(error, why(failure));
      } finally {
        go.disabled = false;
      }
    });
    const open = h("button", { id: "delete-account", type: "button", class: "danger",
      text: "Delete account…", onclick: () => {
        input.value = "";
        say(error, "");
        dialog.showModal();
        input.focus();
      } });
    return h("section", { class: "panel danger-zone" }, h("h2", { text: "Delete your account" }),
      h("p", { class: "muted", text: "Asks for your password first." }), open, dialog);
  }
}

async function main() {
  applyPrefs();
  const page = new AccountPage();
  page.show(await signedIn());
}

main();
