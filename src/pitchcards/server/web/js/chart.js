// A rating-history chart drawn as SVG by the page (issue 32: no chart library): the server's
// numbers after each rated match, oldest on the left, joined by a line; a provisional point
// hollow. Only layout here: every number shown is the server's (docs/web.md).

/**
 * @typedef {{at: number, rating: number, provisional: boolean}} Point
 * @typedef {{x: number, y: number, point: Point}} Placed
 */

const SVG = "http://www.w3.org/2000/svg";
/** The chart's drawing box (the SVG scales to its column). */
export const WIDTH = 320;
export const HEIGHT = 140;
const PAD = { left: 44, right: 10, top: 12, bottom: 12 };

/**
 * Where each point goes: evenly spaced left to right (one step per match, whatever the time
 * between), the highest number at the top; a flat history sits in the middle.
 * @param {Point[]} points oldest first
 * @returns {{placed: Placed[], low: number, high: number}}
 */
export function layout(points) {
  const numbers = points.map((p) => p.rating);
  const low = Math.min(...numbers);
  const high = Math.max(...numbers);
  const inner = { w: WIDTH - PAD.left - PAD.right, h: HEIGHT - PAD.top - PAD.bottom };
  const span = high - low;
  const placed = points.map((point, i) => ({
    x: PAD.left + (points.length > 1 ? (inner.w * i) / (points.length - 1) : inner.w / 2),
    y: PAD.top + (span > 0 ? (inner.h * (high - point.rating)) / span : inner.h / 2),
    point,
  }));
  return { placed, low, high };
}

/**
 * An SVG element with attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 * @returns {SVGElement}
 */
function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/**
 * The chart of one pool's history: `svg.rating-chart[data-pool][data-points]` with a
 * `role="img"` label saying the first and last numbers; `circle.point[data-rating]` per match.
 * @param {string} pool
 * @param {string} words the pool in words, for the label
 * @param {Point[]} points oldest first (at least one)
 * @returns {SVGElement}
 */
export function ratingChart(pool, words, points) {
  const { placed, low, high } = layout(points);
  const first = points[0].rating;
  const last = points[points.length - 1].rating;
  const chart = svg("svg", {
    class: "rating-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
    "data-pool": pool, "data-points": points.length,
    "aria-label": `${words}: rating over the last ${points.length} rated matches, from ${first}`
      + ` to ${last}`,
  });
  const bottom = HEIGHT - PAD.bottom;
  chart.append(
    svg("line", { class: "axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: bottom }),
    svg("line", { class: "axis", x1: PAD.left, y1: bottom, x2: WIDTH - PAD.right, y2: bottom }),
    svg("text", { class: "tick", x: PAD.left - 4, y: PAD.top + 4, "text-anchor": "end" },
      String(high)),
    svg("text", { class: "tick", x: PAD.left - 4, y: bottom, "text-anchor": "end" },
      String(low)));
  if (placed.length > 1) {
    chart.append(svg("polyline", { class: "trend", fill: "none",
      points: placed.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ") }));
  }
  for (const p of placed) {
    const dot = svg("circle", { class: p.point.provisional ? "point provisional" : "point",
      cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 3, "data-rating": p.point.rating });
    dot.append(svg("title", {}, `${p.point.rating}${p.point.provisional ? "?" : ""}, `
      + new Date(p.point.at * 1000).toLocaleDateString()));
    chart.append(dot);
  }
  return chart;
}
