// The rating chart's layout (chart.js): one step per match left to right inside the box, the
// highest number at the top and the lowest at the bottom, a flat or single-point history in
// the middle; and a place in words (site.js's ordinal).

import { test } from "node:test";
import assert from "node:assert/strict";

import { HEIGHT, WIDTH, layout } from "../../src/pitchcards/server/web/js/chart.js";
import { ordinal } from "../../src/pitchcards/server/web/js/site.js";

/** @param {number[]} ratings */
const points = (ratings) => ratings.map((rating, i) => ({ at: i, rating, provisional: false }));

test("points go left to right, higher numbers higher, all inside the box", () => {
  const { placed, low, high } = layout(points([1500, 1530, 1490, 1560]));
  assert.equal(low, 1490);
  assert.equal(high, 1560);
  const xs = placed.map((p) => p.x);
  assert.deepEqual([...xs].sort((a, b) => a - b), xs);
  const steps = xs.slice(1).map((x, i) => x - xs[i]);
  for (const step of steps) assert.ok(Math.abs(step - steps[0]) < 1e-9, "evenly spaced");
  const ys = placed.map((p) => p.y);
  assert.equal(Math.max(...ys), ys[2], "the lowest number at the bottom");
  assert.equal(Math.min(...ys), ys[3], "the highest at the top");
  assert.ok(ys[1] < ys[0]);
  for (const p of placed) {
    assert.ok(p.x > 0 && p.x < WIDTH && p.y > 0 && p.y < HEIGHT, JSON.stringify(p));
  }
});

test("a single point or a flat history sits in the middle", () => {
  const one = layout(points([1500])).placed[0];
  const flat = layout(points([1500, 1500, 1500])).placed;
  assert.ok(flat.every((p) => p.y === flat[0].y));
  assert.equal(one.y, flat[0].y);
  assert.ok(one.x > 0 && one.x < WIDTH);
});

test("places in words", () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal),
    ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]);
});
