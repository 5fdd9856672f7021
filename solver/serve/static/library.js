// toppi serve: the puzzle library. A step is written by clicking words (a cell, a tile
// and two spaces, a card and a pile, a block and a podium, lanes and colours); Check
// compares the steps with the puzzle's one solution, Reveal shows it.
"use strict";

const CONFIG = JSON.parse(document.getElementById("config").textContent);
const GAME = CONFIG.game;
const BASE = `/api/${GAME}/${CONFIG.source}`;  // the library, or the --store file
const $ = (id) => document.getElementById(id);
let name = null, vocab = null, steps = [], partial = [];

function stepFrom(parts) {
  // a step in the puzzle file's own notation, once enough words are clicked
  const f = vocab.form;
  if (f === "tile@cell") return `${vocab.order[steps.length]}@${parts[0]}`;
  if (f === "card>pile" && parts.length === 2) return `${parts[0]}>${parts[1]}`;
  if (f === "block-to" && parts.length === 2) return {block: parts[0], to: parts[1]};
  if (f === "tile-on-two" && parts.length === 3) return {tile: parts[0], on: [parts[1], parts[2]]};
  return null;
}

function need() {
  return {"tile@cell": ["cell"], "card>pile": ["card", "pile"], "block-to": ["block", "to"],
          "tile-on-two": ["tile", "space", "space"], "roll-placements": ["lane", "colour"]}[vocab.form];
}

function text(step) {
  if (typeof step === "string") return step;
  if (Array.isArray(step)) return step.join(", ");
  if (step.on) return `${step.tile} on ${step.on.join("-")}`;
  return `${step.block} -> ${step.to}`;
}

function drawSteps() {
  const ol = $("steps");
  ol.textContent = "";
  for (const s of steps) {
    const li = document.createElement("li"); li.textContent = text(s); ol.appendChild(li);
  }
  if (partial.length) {
    const li = document.createElement("li"); li.className = "dim";
    li.textContent = partial.join(" ") + " …"; ol.appendChild(li);
  }
  if (vocab.form === "roll-placements") {
    const roll = vocab.rolls[steps.length];
    $("next-roll").hidden = false;
    $("words").dataset.roll = roll || "";
  }
}

function clickWord(group, word) {
  if (vocab.form === "roll-placements") {
    // a roll's placements: lane, colour, lane, colour ...; "Next roll" ends the roll
    partial.push(word);
    if (partial.length % 2 === 0 && group !== "colour") partial.pop();
    drawSteps();
    return;
  }
  const want = need();
  if (group !== want[partial.length]) return;
  partial.push(word);
  const step = stepFrom(partial);
  if (step !== null) { steps.push(step); partial = []; }
  drawSteps();
}

function drawWords() {
  const box = $("words");
  box.textContent = "";
  if (vocab.form === "tile@cell") {
    const p = document.createElement("div"); p.className = "dim";
    p.textContent = "Tiles in call order: " + vocab.order.join(", ") + " (each click places the next one)";
    box.appendChild(p);
  }
  if (vocab.form === "roll-placements") {
    const p = document.createElement("div"); p.className = "dim";
    p.textContent = "Rolls: " + vocab.rolls.join(" | ") + " — per roll click lane then colour for each chip, then Next roll";
    box.appendChild(p);
  }
  for (const [group, list] of Object.entries(vocab.groups)) {
    const div = document.createElement("div"); div.className = "group";
    const b = document.createElement("b"); b.textContent = group; div.appendChild(b);
    for (const w of list) {
      const button = document.createElement("button");
      button.textContent = w; button.dataset.group = group; button.dataset.word = w;
      button.addEventListener("click", () => clickWord(group, w));
      div.appendChild(button);
    }
    box.appendChild(div);
  }
}

// the words written on the puzzle's picture (a cell's name, a space, a card in the
// hand, a pile, a block, a podium, a lane, a colour's line) become clickable: a
// transparent rect over the smallest shape around the text (a cell, a card, a block),
// or over the text itself when the text stands beside its thing (a pile's caption)
function markPicture() {
  const svg = $("puzzle-picture").querySelector("svg");
  if (!svg || !vocab.picture) return;
  const ns = "http://www.w3.org/2000/svg";
  const toSvg = svg.getScreenCTM().inverse();
  const whole = svg.getBoundingClientRect();
  const shapes = [...svg.querySelectorAll("rect, polygon, circle, path")].map((e) => e.getBoundingClientRect())
    .filter((b) => b.width * b.height < whole.width * whole.height / 8);
  const point = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(toSvg); };
  const overlay = (group, word, box) => {
    const p0 = point(box.x, box.y), p1 = point(box.x + box.width, box.y + box.height);
    const r = document.createElementNS(ns, "rect");
    for (const [k, v] of Object.entries({x: p0.x, y: p0.y, width: p1.x - p0.x, height: p1.y - p0.y}))
      r.setAttribute(k, String(v));
    r.setAttribute("class", "hit");
    r.setAttribute("fill", "transparent");
    r.dataset.group = group; r.dataset.word = word;
    const title = document.createElementNS(ns, "title"); title.textContent = `${group} ${word}`;
    r.appendChild(title);
    r.addEventListener("click", () => clickWord(group, word));
    svg.appendChild(r);
  };
  for (const t of [...svg.querySelectorAll("text")]) {
    const text = t.textContent.trim();
    for (const [group, pattern] of Object.entries(vocab.picture)) {
      const words = (vocab.groups[group] || []).map(String);
      if (pattern.startsWith("*")) {
        // several words in one line of text (a hand): a rect over each word's letters,
        // counted as SVG addresses them (spaces collapsed, the ends trimmed)
        const shown = t.textContent.replace(/[\n\r]/g, "").replace(/\s+/g, " ").trim();
        for (const m of shown.matchAll(new RegExp(pattern.slice(1), "g"))) {
          if (!words.includes(m[1])) continue;
          const at = m.index + m[0].indexOf(m[1]);
          const first = t.getExtentOfChar(at), last = t.getExtentOfChar(at + m[1].length - 1);
          const q0 = svg.createSVGPoint(), q1 = svg.createSVGPoint();
          q0.x = first.x; q0.y = first.y; q1.x = last.x + last.width; q1.y = last.y + last.height;
          const s0 = q0.matrixTransform(t.getScreenCTM()), s1 = q1.matrixTransform(t.getScreenCTM());
          overlay(group, m[1], {x: s0.x - 2, y: s0.y - 2, width: s1.x - s0.x + 4, height: s1.y - s0.y + 4});
        }
        continue;
      }
      const m = new RegExp(pattern).exec(text);
      const word = m ? (m[1] || text) : null;
      if (word === null || !words.includes(word)) continue;
      const b = t.getBoundingClientRect();
      const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
      const around = shapes.filter((s) => s.x <= cx && cx <= s.x + s.width && s.y <= cy && cy <= s.y + s.height)
        .sort((a, c) => a.width * a.height - c.width * c.height)[0];
      // a caption under its thing (a pile's card, a lane, a podium): the thing and the caption
      const above = around ? null : shapes.filter((s) => s.x <= cx && cx <= s.x + s.width &&
          b.width <= s.width + 10 && s.y + s.height <= b.y + 2 && b.y - (s.y + s.height) < 40)
        .sort((a, c) => (b.y - a.y - a.height) - (b.y - c.y - c.height) || a.width * a.height - c.width * c.height)[0];
      const union = above ? {x: Math.min(above.x, b.x), y: above.y,
                             width: Math.max(above.x + above.width, b.x + b.width) - Math.min(above.x, b.x),
                             height: b.y + b.height - above.y} : null;
      overlay(group, word, around || union || {x: b.x - 4, y: b.y - 3, width: b.width + 8, height: b.height + 6});
      break;
    }
  }
}

async function open(n) {
  const r = await fetch(`${BASE}/${encodeURIComponent(n)}`);
  const d = await r.json();
  if (!r.ok) { $("verdict").textContent = d.error; return; }
  name = n; vocab = d.vocabulary; steps = []; partial = [];
  const label = CONFIG.source === "store" ? `#${n} · ${(d.puzzle.rating || (d.puzzle.puzzle || {}).rating || {}).difficulty || "?"}` : n;
  $("puzzle-name").textContent = `${label} (${d.steps} step${d.steps === 1 ? "" : "s"})`;
  $("puzzle-picture").innerHTML = d.svg;
  markPicture();
  $("solution").innerHTML = "";
  $("verdict").textContent = "";
  $("sheet").href = `${BASE}/${encodeURIComponent(n)}/sheet`;
  $("sheet").hidden = false;
  drawWords(); drawSteps();
  document.body.dataset.puzzle = n;
}

$("next-roll").addEventListener("click", () => {
  if (!vocab || vocab.form !== "roll-placements") return;
  const placements = [];
  for (let i = 0; i + 1 < partial.length; i += 2) placements.push(`${partial[i]} ${partial[i + 1]}`);
  steps.push(placements); partial = []; drawSteps();
});
$("step-undo").addEventListener("click", () => {
  if (partial.length) partial.pop(); else steps.pop();
  drawSteps();
});
$("check").addEventListener("click", async () => {
  if (!name) return;
  const r = await fetch(`${BASE}/${encodeURIComponent(name)}/check`, {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({steps: steps})});
  const d = await r.json();
  $("verdict").textContent = r.ok ? d.message : d.error;
  $("verdict").dataset.solved = r.ok ? String(d.solved) : "error";
});
$("reveal").addEventListener("click", async () => {
  if (!name) return;
  const r = await fetch(`${BASE}/${encodeURIComponent(name)}/reveal`);
  const d = await r.json();
  if (!r.ok) { $("verdict").textContent = d.error; return; }
  $("verdict").textContent = "Solution: " + d.solution.map(text).join(" · ");
  $("solution").innerHTML = d.svg;
});
$("difficulty").addEventListener("change", () => {
  const want = $("difficulty").value;
  for (const li of $("puzzles").children) li.hidden = want !== "" && li.dataset.difficulty !== want;
});
for (const a of document.querySelectorAll("a.puzzle")) {
  a.addEventListener("click", (e) => { e.preventDefault(); open(a.dataset.name); });
}
if (location.hash.length > 1) open(decodeURIComponent(location.hash.slice(1)));
document.body.dataset.ready = "1";
