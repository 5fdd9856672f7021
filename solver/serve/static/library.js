// toppi serve: the puzzle library. A step is written by clicking words on the picture
// or as buttons (a cell, a tile and two spaces, a card and a pile, a block and a
// podium, a lane and a colour per chip); the server's rules engine makes each step at
// once and draws the puzzle with the steps so far, or refuses it with one line. Check
// compares the steps with the puzzle's one solution, Reveal shows it.
"use strict";

const CONFIG = JSON.parse(document.getElementById("config").textContent);
const GAME = CONFIG.game;
const BASE = `/api/${GAME}/${CONFIG.source}`;  // the library, or the --store file
const $ = (id) => document.getElementById(id);
const MIN_TEXT = 12;  // px: the smallest text of the picture as drawn
const MIN_TOUCH = 44;  // px: the smallest clickable box on the picture
// name: the puzzle open; steps: the steps made (a dice game: the last may be a roll only
// begun, `begun`); partial: the words clicked for a step not yet whole
let name = null, vocab = null, steps = [], begun = false, partial = [];
let queue = Promise.resolve(), waiting = 0;

function stepFrom(parts) {
  // a step in the puzzle file's own notation, once enough words are clicked
  const f = vocab.form;
  if (f === "tile@cell") return `${vocab.order[steps.length]}@${parts[0]}`;
  if (f === "card>pile" && parts.length === 2) return `${parts[0]}>${parts[1]}`;
  if (f === "block-to" && parts.length === 2) return {block: parts[0], to: parts[1]};
  if (f === "tile-on-two" && parts.length === 3) return {tile: parts[0], on: [parts[1], parts[2]]};
  if (f === "roll-placements" && parts.length === 2) return `${parts[0]} ${parts[1]}`;
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
  steps.forEach((s, i) => {
    const li = document.createElement("li");
    li.textContent = text(s) + (begun && i === steps.length - 1 ? " …" : "");
    ol.appendChild(li);
  });
  if (partial.length) {
    const li = document.createElement("li"); li.className = "dim";
    li.textContent = partial.join(" ") + " …"; ol.appendChild(li);
  }
  // the words chosen for the step in the making, on the picture and as buttons
  for (const e of document.querySelectorAll("#puzzle-picture rect.hit, #words button")) {
    const at = partial.indexOf(e.dataset.word);
    e.classList.toggle("chosen", at >= 0 && need()[at] === e.dataset.group);
  }
}

function say(line) {
  // a refused step: its one line (without the CLI's prefix); "" clears it
  $("step-problem").textContent = line.replace(/^toppi: error: /, "");
}

function busy(change) {
  waiting += change;
  if (waiting) document.body.dataset.busy = "1"; else delete document.body.dataset.busy;
}

function clickWord(group, word) {
  // one click at a time, each after the step before it was answered
  busy(1);
  queue = queue.then(() => takeWord(group, word)).catch((e) => say(String(e))).finally(() => busy(-1));
}

async function takeWord(group, word) {
  if (!vocab) return;
  const want = need();
  if (group !== want[partial.length]) {
    if (group !== want[0]) { say(`Click a ${want[partial.length]} now.`); return; }
    partial = [];  // a new first word: the step is begun again
  }
  partial.push(word);
  say("");
  const step = stepFrom(partial);
  if (step === null) { drawSteps(); return; }
  partial = [];
  if (vocab.form === "roll-placements") {
    // a chip of the roll begun, or the first chip of the next roll
    const roll = begun ? [...steps[steps.length - 1], step] : [step];
    await make(begun ? [...steps.slice(0, -1), roll] : [...steps, roll]);
  } else {
    await make([...steps, step]);
  }
}

async function make(next) {
  // the steps `next` made by the rules engine: drawn, or the first refused said
  const r = await fetch(`${BASE}/${encodeURIComponent(name)}/steps`, {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({steps: next})});
  const d = await r.json();
  if (!r.ok) { say(d.error); drawSteps(); return false; }
  steps = next; begun = d.open;
  $("step-note").textContent = d.prompt;
  drawPicture(d.svg);
  drawSteps();
  document.body.dataset.drawn = String(steps.length) + (begun ? "+" : "");
  return true;
}

function legible(box, svgText) {
  // the picture as wide as the column allows, but never so narrow that a text is below
  // MIN_TEXT px (on a phone it then scrolls sideways in its box)
  box.innerHTML = svgText;
  const svg = box.querySelector("svg");
  if (!svg) return;
  const natural = svg.viewBox.baseVal.width || svg.width.baseVal.value;
  const sizes = [...svg.querySelectorAll("text")].map((t) => parseFloat(t.getAttribute("font-size")))
    .filter((s) => s > 0);
  const smallest = sizes.length ? Math.min(...sizes) : MIN_TEXT;
  const scale = Math.max(Math.min(1, box.clientWidth / natural), MIN_TEXT / smallest);
  svg.style.width = `${Math.ceil(natural * scale) + 1}px`;  // + 1: rounding, never below
  svg.style.height = "auto";
}

function drawPicture(svgText) {
  const box = $("puzzle-picture");
  const left = box.scrollLeft;
  legible(box, svgText);
  box.scrollLeft = left;
  markPicture();
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
    p.textContent = "Rolls: " + vocab.rolls.join(" | ") + " — for each chip click its lane, then its colour";
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
// or over the text itself when the text stands beside its thing (a pile's caption),
// at least MIN_TOUCH px each way
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
    const grow = (size) => Math.max(0, MIN_TOUCH + 1 - size) / 2;  // + 1: rounding
    const gx = grow(box.width), gy = grow(box.height);
    const p0 = point(box.x - gx, box.y - gy), p1 = point(box.x + box.width + gx, box.y + box.height + gy);
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

function stacked() {
  // the list above the puzzle (a phone): the columns do not stand side by side
  return $("solve").getBoundingClientRect().top >= $("list-box").getBoundingClientRect().bottom - 1;
}

async function openPuzzle(n) {
  const r = await fetch(`${BASE}/${encodeURIComponent(n)}`);
  const d = await r.json();
  if (!r.ok) { $("verdict").textContent = d.error; return; }
  name = n; vocab = d.vocabulary; steps = []; begun = false; partial = [];
  const label = CONFIG.source === "store" ? `#${n} · ${(d.puzzle.rating || (d.puzzle.puzzle || {}).rating || {}).difficulty || "?"}` : n;
  $("puzzle-name").textContent = `${label} (${d.steps} step${d.steps === 1 ? "" : "s"})`;
  $("solution").innerHTML = "";
  $("verdict").textContent = "";
  delete $("verdict").dataset.solved;
  $("step-note").textContent = "";
  say("");
  $("sheet").href = `${BASE}/${encodeURIComponent(n)}/sheet`;
  $("sheet").hidden = false;
  drawWords();
  if (stacked()) {
    // a phone: the list folds away and the puzzle comes into view
    $("list-box").open = false;
    $("list-summary").textContent = `${label}: other puzzles`;
  }
  // the puzzle as the rules engine draws it while it is being solved (as posed, if
  // the engine cannot)
  if (!await make([])) drawPicture(d.svg);
  $("solve").scrollIntoView({block: "start"});
  document.body.dataset.puzzle = n;
}

$("step-undo").addEventListener("click", () => {
  busy(1);
  queue = queue.then(async () => {
    if (!name) return;
    say("");
    if (partial.length) { partial.pop(); drawSteps(); return; }
    if (!steps.length) return;
    const last = steps[steps.length - 1];
    // a roll is undone chip by chip
    if (Array.isArray(last) && last.length > 1) await make([...steps.slice(0, -1), last.slice(0, -1)]);
    else await make(steps.slice(0, -1));
  }).catch((e) => say(String(e))).finally(() => busy(-1));
});
$("check").addEventListener("click", async () => {
  if (!name) return;
  await queue;
  const r = await fetch(`${BASE}/${encodeURIComponent(name)}/check`, {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({steps: begun ? steps.slice(0, -1) : steps})});  // whole steps
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
  legible($("solution"), d.svg);
});
$("difficulty").addEventListener("change", () => {
  const want = $("difficulty").value;
  for (const li of $("puzzles").children) li.hidden = want !== "" && li.dataset.difficulty !== want;
});
for (const a of document.querySelectorAll("a.puzzle")) {
  a.addEventListener("click", (e) => {
    e.preventDefault();
    history.replaceState(null, "", `#${a.dataset.name}`);
    openPuzzle(a.dataset.name);
  });
}
if (location.hash.length > 1) openPuzzle(decodeURIComponent(location.hash.slice(1)));
document.body.dataset.ready = "1";
