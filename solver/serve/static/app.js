// toppi serve: the game page. The position is the CLI's position file (JSON text);
// every answer comes from the API (/api/<game>/...), which runs the CLI's commands.
"use strict";

const CONFIG = JSON.parse(document.getElementById("config").textContent);
const GAME = CONFIG.game;
const $ = (id) => document.getElementById(id);
const history = [];        // positions before each applied move (undo)
let moves = [];            // legal moves of the current position (the moves document)
let clicked = [];          // words clicked in play mode
let tool = null;           // edit mode: the selected piece
let pendingSpaces = [];    // edit mode: spaces clicked for a two-space tile
let verbs = {};            // GET /api/<game>
let currentJob = null;

function positionText() { return $("position").value; }
function positionData() { return JSON.parse(positionText()); }
function setPosition(data) {
  $("position").value = typeof data === "string" ? data : JSON.stringify(data, null, 1);
}

async function post(path, body, query) {
  const url = `/api/${GAME}/${path}` + (query ? `?${query}` : "");
  const response = await fetch(url, {method: "POST", body: body,
    headers: {"Content-Type": "application/json"}});
  const text = await response.text();
  let data = null;
  try { data = JSON.parse(text); } catch (e) { data = text; }
  return {ok: response.ok, status: response.status, data: data, text: text,
          exit: response.headers.get("X-Toppi-Exit")};
}

function problem(text) { $("problem").textContent = text || ""; }

// ---------------------------------------------------------------- drawing
async function refresh() {
  clicked = []; pendingSpaces = [];
  $("candidates").textContent = ""; $("clicked").textContent = "";
  const text = positionText();
  const [shown, pic] = await Promise.all([post("show", text), post("picture", text)]);
  if (!shown.ok) {
    problem(shown.data.error || shown.text);
    $("status").textContent = "";
    return false;
  }
  problem("");
  const s = shown.data;
  const who = s.to_move === null ? "nobody (game over)" :
    s.to_move === "chance" ? "chance (roll / draw)" : `seat ${s.to_move}`;
  $("status").textContent = `To act: ${who} · ${s.status}` +
    (s.unknown && s.unknown.length ? ` · unknown: ${s.unknown.join("; ")}` : "");
  $("status").dataset.toMove = String(s.to_move);
  if (pic.ok) {
    $("picture").innerHTML = pic.text;
    for (const r of $("picture").querySelectorAll("rect.hit")) {
      r.addEventListener("click", () => onRegion(r.dataset.kind, r.dataset.id, r));
    }
  }
  await loadMoves(s.to_move);
  return true;
}

function words(text) {
  return text.split(/[^A-Za-z0-9]+/).filter((w) => w).map((w) => w.toLowerCase());
}

function isSubsequence(part, whole) {
  let i = 0;
  for (const w of whole) { if (i < part.length && w === part[i]) i++; }
  return i === part.length;
}

async function loadMoves(toMove) {
  const select = $("moves");
  select.textContent = "";
  moves = [];
  $("chance").hidden = true;
  if (toMove === null) return;
  const r = await post("moves", positionText());
  if (!r.ok) { problem(r.data.error); return; }
  $("chance").hidden = r.data.to_move !== "chance";
  const list = r.data.chance_outcomes.length ? r.data.chance_outcomes : r.data.moves;
  moves = list.map((m) => m.text);
  for (const m of moves) {
    const o = document.createElement("option");
    o.value = m; o.textContent = m; select.appendChild(o);
  }
}

// ---------------------------------------------------------------- play
async function applyMove(text) {
  const before = positionText();
  const r = await post("apply", before, "move=" + encodeURIComponent(text));
  if (r.status === 409) { showCandidates(r.data.candidates); return; }
  if (!r.ok) { problem(r.data.error); return; }
  history.push(before);
  const li = document.createElement("li");
  li.textContent = r.data.move.text;
  $("history").appendChild(li);
  setPosition(r.data.position);
  await refresh();
}

function showCandidates(list) {
  const box = $("candidates");
  box.textContent = list.length > 40 ? `${list.length} moves; click more:` : "";
  for (const m of list.slice(0, 40)) {
    const b = document.createElement("button");
    b.textContent = m; b.className = "candidate";
    b.addEventListener("click", () => applyMove(m));
    box.appendChild(b);
  }
}

function playClick(id, rect) {
  clicked.push(id.toLowerCase());
  rect.classList.add("chosen");
  const fitting = moves.filter((m) => isSubsequence(clicked, words(m)));
  $("clicked").textContent = `clicked: ${clicked.join(" ")} · ${fitting.length} move(s)`;
  if (fitting.length === 1) { applyMove(fitting[0]); return; }
  if (fitting.length === 0) {
    problem(`no legal move with ${clicked.join(", ")}`);
    clicked = [];
    for (const r of document.querySelectorAll("rect.hit.chosen")) r.classList.remove("chosen");
    $("candidates").textContent = "";
    return;
  }
  problem("");
  showCandidates(fitting);
}

// ---------------------------------------------------------------- edit
const COLOURS = ["G", "P", "O", "V"];
function palette() {
  if (GAME === "take-it-higher") {
    const out = [];
    for (const stud of ["G", "S"]) for (const l of "ABCDEFGHIJKLMNOP") out.push(stud + l);
    return out;
  }
  if (GAME === "hoch-hinaus") {
    const out = ["filler"];
    for (let i = 1; i <= 32; i++) out.push("T" + String(i).padStart(2, "0"));
    return out;
  }
  if (GAME === "tippi-toppi") {
    const out = ["take"];
    for (const c of COLOURS) for (let n = 1; n <= 7; n++) out.push(c + n);
    return out;
  }
  if (GAME === "hippo") {
    let players = [];
    try { players = positionData().players || []; } catch (e) { players = []; }
    return [...players, "remove"];
  }
  return ["out of play"];  // topito: click a block, then a podium (or this)
}

function drawTools() {
  const box = $("tools");
  box.textContent = "";
  for (const p of palette()) {
    const b = document.createElement("button");
    b.textContent = p; b.dataset.piece = p;
    if (p === tool) b.classList.add("on");
    b.addEventListener("click", () => {
      if (GAME === "topito" && p === "out of play") { topitoOut(); return; }
      tool = p; drawTools();
    });
    box.appendChild(b);
  }
  if (GAME === "take-it-higher") {
    const b = document.createElement("button");
    b.textContent = "call selected tile"; b.id = "call-tile";
    b.addEventListener("click", () => editWith((d) => { d.called = tool; }));
    box.appendChild(b);
  }
}

async function editWith(change) {
  let data;
  try { data = positionData(); } catch (e) { problem("position: " + e.message); return; }
  change(data);
  setPosition(data);
  await refresh();
}

function editClick(kind, id) {
  if (GAME === "take-it-higher") {
    editWith((d) => {
      d.placements = d.placements || [];
      const at = d.placements.findIndex((p) => String(p.cell || p).split("+")[0].split("@")[1] === id);
      if (at >= 0) d.placements.splice(at, 1);
      else if (tool) d.placements.push(`${tool}@${id}`);
    });
  } else if (GAME === "hoch-hinaus") {
    if (tool === "filler") { editWith((d) => { d.pieces.push({filler: id}); }); return; }
    if (!tool) return;
    pendingSpaces.push(id);
    if (pendingSpaces.length === 2) {
      const on = pendingSpaces.slice();
      editWith((d) => { d.pieces.push({tile: tool, on: on}); });
    }
  } else if (GAME === "tippi-toppi") {
    if (kind !== "pile" || !tool) return;
    editWith((d) => {
      const pile = d.piles[Number(id) - 1];
      if (tool === "take") { if (pile.length > 1) pile.pop(); } else pile.push(tool);
    });
  } else if (GAME === "topito") {
    if (kind === "block") { tool = id; drawTools(); $("clicked").textContent = `block ${id}`; return; }
    if (kind === "podium" && tool && tool !== "out of play") {
      const block = tool;
      editWith((d) => {
        for (const k of Object.keys(d.podiums)) d.podiums[k] = d.podiums[k].filter((b) => b !== block);
        d.podiums[id].push(block);
        d.last_move = null;
      });
    }
  } else if (GAME === "hippo") {
    if (!tool) return;
    editWith((d) => {
      d.lanes = d.lanes || {};
      if (id === "7") {
        const lane = d.lanes["7"] || {};
        if (tool === "remove") { const k = Object.keys(lane).pop(); if (k && --lane[k] <= 0) delete lane[k]; }
        else lane[tool] = (lane[tool] || 0) + 1;
        d.lanes["7"] = lane;
      } else {
        const lane = d.lanes[id] || [];
        if (tool === "remove") lane.pop(); else lane.push(tool);
        if (lane.length) d.lanes[id] = lane; else delete d.lanes[id];
      }
    });
  }
}

function topitoOut() {
  if (!tool || tool === "out of play") return;
  const block = tool;
  editWith((d) => {
    for (const k of Object.keys(d.podiums)) d.podiums[k] = d.podiums[k].filter((b) => b !== block);
    d.last_move = null;
  });
}

function onRegion(kind, id, rect) {
  if ($("mode-edit").checked) editClick(kind, id); else playClick(id, rect);
}

// ---------------------------------------------------------------- questions
function summary(verb, d) {
  if (!d || typeof d !== "object") return "";
  const keys = ["answer", "status", "achievable", "reachable", "total", "score", "best",
                "moves", "expected_shed", "probability", "chance", "win_rate", "verdict",
                "count", "length", "winner"];
  const parts = [];
  for (const k of keys) {
    if (k in d && d[k] !== null && typeof d[k] !== "object") parts.push(`${k}: ${d[k]}`);
    else if (k in d && Array.isArray(d[k]) && d[k].length && typeof d[k][0] !== "object")
      parts.push(`${k}: ${d[k].join(", ")}`);
  }
  if (d.options && d.options.length) {
    const o = d.options[0];
    const first = o.play || o.cell || o.move || o.text || (o.placements && o.placements.join(", "));
    if (first) parts.push("first: " + first);
  }
  if (d.moves && d.moves.length && typeof d.moves[0] === "object" && d.moves[0].move)
    parts.push("first: " + d.moves[0].move);
  const line = `${verb}: ` + (parts.join(" · ") || "answered");
  return line.length > 160 ? line.slice(0, 157) + "…" : line;
}

function showAnswer(verb, r) {
  $("answer").textContent = typeof r.data === "string" ? r.data : JSON.stringify(r.data, null, 2);
  $("answer").dataset.verb = verb;
  $("answer").dataset.status = String(r.status);
  if (r.ok) {
    $("answer-summary").textContent = summary(verb, r.data) + (r.exit === "3" ? " (time limit)" : "");
    problem("");
  } else {
    $("answer-summary").textContent = `${verb}: no answer`;
    problem(r.data.error || r.text);
  }
}

async function ask(verb) {
  const input = document.querySelector(`input[data-verb="${verb}"]`);
  const query = input ? input.value.trim() : "";
  const button = document.querySelector(`button[data-verb="${verb}"]`);
  button.classList.add("busy");
  $("answer").textContent = ""; $("answer-summary").textContent = `${verb}: working…`;
  try {
    const info = verbs[verb] || {};
    const body = info.takes_file === false ? "{}" : positionText();
    if (["show", "moves"].includes(verb)) { showAnswer(verb, await post(verb, body, query)); return; }
    const started = await post(verb, body, (query ? query + "&" : "") + "async=1");
    if (!started.ok) { showAnswer(verb, started); return; }
    currentJob = started.data.job;
    showAnswer(verb, await poll(currentJob));
  } finally {
    button.classList.remove("busy");
    currentJob = null;
    $("job").textContent = "";
  }
}

async function poll(job) {
  for (;;) {
    const response = await fetch(`/api/jobs/${job}`);
    const j = await response.json();
    if (j.http_status !== undefined) {
      return {ok: j.http_status === 200, status: j.http_status, data: j.result,
              exit: j.exit_code !== undefined ? String(j.exit_code) : null};
    }
    const box = $("job");
    box.textContent = `${j.command}: ${j.status}, ${j.elapsed.toFixed(1)} s of ${j.time_limit} s `;
    const cancel = document.createElement("button");
    cancel.textContent = "Cancel"; cancel.id = "cancel";
    cancel.addEventListener("click", () => fetch(`/api/jobs/${job}`, {method: "DELETE"}));
    box.appendChild(cancel);
    await new Promise((ok) => setTimeout(ok, 150));
  }
}

async function loadVerbs() {
  const r = await fetch(`/api/${GAME}`);
  const info = await r.json();
  verbs = info.verbs;
  const box = $("verbs");
  for (const [verb, v] of Object.entries(verbs)) {
    const b = document.createElement("button");
    b.textContent = verb; b.dataset.verb = verb; b.id = `ask-${verb}`;
    b.addEventListener("click", () => ask(verb));
    const input = document.createElement("input");
    input.dataset.verb = verb; input.id = `opts-${verb}`;
    input.placeholder = v.options.map((o) => o.name + (o.flag ? "" : "=…")).join("&");
    input.title = v.options.map((o) => `${o.name}: ${o.help}`).join("\n");
    box.appendChild(b); box.appendChild(input);
  }
}

// ---------------------------------------------------------------- wiring
$("use").addEventListener("click", () => { history.length = 0; refresh(); });
$("save").addEventListener("click", () => {
  const blob = new Blob([positionText()], {type: "application/json"});
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob); a.download = `${GAME}-position.json`; a.click();
});
$("load").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (!f) return;
  setPosition(await f.text());
  history.length = 0; $("history").textContent = "";
  refresh();
});
$("undo").addEventListener("click", () => {
  if (!history.length) return;
  setPosition(history.pop());
  const h = $("history");
  if (h.lastChild) h.removeChild(h.lastChild);
  refresh();
});
$("apply").addEventListener("click", () => { if ($("moves").value) applyMove($("moves").value); });
$("chance").addEventListener("click", () => applyMove("random"));
$("hint").addEventListener("click", () => ask(CONFIG.hint));
for (const id of ["mode-play", "mode-edit"]) {
  $(id).addEventListener("change", () => {
    const edit = $("mode-edit").checked;
    $("tools").hidden = !edit; $("play").hidden = edit;
    tool = null; drawTools(); refresh();
  });
}

loadVerbs().then(refresh).then(() => {
  window.__ready = performance.now();  // page drawn with its picture and moves (bench)
  document.body.dataset.ready = "1";
});
