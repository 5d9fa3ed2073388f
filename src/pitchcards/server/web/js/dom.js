// Small helpers to build DOM nodes (never innerHTML: names and chat are text, always).

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Record<string, string | number | boolean | null | undefined | EventListener>} Props
 */

/**
 * An element with properties, attributes and children.
 *
 * `props`: `class` (a class list), `text` (textContent), `on…` (a listener: `onclick`),
 * `data-…`, `aria-…`, `role`, `for` and names that are no property → attributes; a `false`,
 * `null` or `undefined` value is left out, `true` sets an empty attribute.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") el.textContent = String(value);
    else if (name === "class") el.className = String(value);
    else if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name in el && !name.includes("-") && typeof value !== "function"
      && !["list", "form", "role", "for"].includes(name)) {
      /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (el))[name] = value;
    } else {
      el.setAttribute(name === "htmlFor" ? "for" : name, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

/**
 * Append children (text, nodes, nested lists; falsy ones skipped).
 * @param {Node} parent
 * @param {(Child | Child[])[]} children
 */
export function append(parent, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replace an element's children.
 * @param {Element} el
 * @param {...(Child | Child[])} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

let ids = 0;

/**
 * A fresh id for a label's `for` or an `aria-describedby`.
 * @param {string} [prefix]
 * @returns {string}
 */
export function uid(prefix = "id") {
  return `${prefix}-${++ids}`;
}

/**
 * A message for the player in a status line (role="status") or an alert (role="alert").
 * @param {HTMLElement} el
 * @param {string} text "" clears it
 * @param {"error" | "info"} [kind]
 */
export function say(el, text, kind = "error") {
  el.textContent = text;
  el.hidden = !text;
  el.classList.toggle("error", kind === "error" && Boolean(text));
}
