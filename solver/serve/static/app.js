// toppi serve: the game page. The position is the CLI's position file (JSON text);
// every answer comes from the API (/api/<game>/...), which runs the game's verbs.
"use strict";

const CONFIG = JSON.parse(document.getElementById("config").textContent);
const GAME = CONFIG.game;
const $ = (id) => document.getElementById(id);
const history = [];        // positions before each applied move (undo)
let moves = [];            // legal moves of the current position (the moves document)
let clicked = [];          // words clicked in play mode
let tool = null;           // edit mode: the selected piece
let verbs = {};            // GET /api/<game>
let currentJob = null;

function positionText() { return $("position").value; }
function positionData() { return JSON.parse(positionText()); }
function setPosition(data) {
  // a changed position keeps the file's indent (the CLI writes indent 1, some
  // hand-written files 2): a file written by json.dumps comes back as it was
  const indent = (/\n( +)"/.exec(positionText()) || [null, " "])[1].length;
  $("position").value = typeof data === "string" ? data : JSON.stringify(data, null, indent);
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

function problem(text) { $("problem").textContent = text || ""; fieldProblem(text); }

// ---------------------------------------------------------------- drawing
async function refresh() {
  clicked = []; editClicks = [];
  drawFields();
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
// The game's editor tools and what a click on its picture does come from the game
// (POST /api/<game>/palette and /api/<game>/edit): the page only sends the clicks.
let palette = [];
let editClicks = [];       // edit mode: clicks made with the tool, until they place it

async function loadPalette() {
  let r;
  try { r = await post("palette", positionText()); } catch (e) { return; }
  palette = r.ok ? r.data.palette : [];
}

function drawTools() {
  const box = $("tools");
  box.textContent = "";
  for (const p of palette) {
    const b = document.createElement("button");
    b.textContent = p.label; b.dataset.piece = p.id;
    if (!p.action && p.id === tool) b.classList.add("on");
    b.addEventListener("click", () => {
      if (p.action) { sendEdit([["action", p.id]]); return; }
      tool = p.id; editClicks = []; drawTools();
    });
    box.appendChild(b);
  }
}

async function sendEdit(clicks) {
  let data;
  try { data = positionData(); } catch (e) { problem("position: " + e.message); return; }
  const r = await post("edit", JSON.stringify({position: data, tool: tool, clicks: clicks}));
  if (!r.ok) { problem(r.data.error); editClicks = []; return; }
  $("clicked").textContent = r.data.note || "";
  if (r.data.tool !== null) { tool = r.data.tool; editClicks = []; drawTools(); }
  if (r.data.position !== null) {
    editClicks = [];
    setPosition(r.data.position);
    await refresh();
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
  editClicks.push([kind, id]);
  sendEdit(editClicks.slice());
}

function onRegion(kind, id, rect) {
  if ($("mode-edit").checked) editClick(kind, id); else playClick(id, rect);
}


// ---------------------------------------------------------------- fields editor
// Hands, open tasks, dice, the last move and whose turn it is, edited with pickers of
// the game's own pieces (GET /api/<game>/editor); every change is written to the
// position file's JSON and read by the engine, whose error is shown at its field.
let editorInfo = null;
const openPalettes = new Set();  // the hands whose piece palette is open

function el(tag, props, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props || {});
  for (const c of children) e.append(c);
  return e;
}

function pieceButton(piece, onClick, cls) {
  const b = el("button", {className: cls, textContent: piece.label, title: piece.label});
  b.dataset.piece = piece.id;
  if (piece.colour) b.style.borderLeft = `6px solid ${piece.colour}`;
  if (piece.colour2) b.style.borderRight = `6px solid ${piece.colour2}`;
  b.addEventListener("click", onClick);
  return b;
}

function pieceOf(f, id) {
  const list = editorInfo.pieces[f.pieces] || [];
  return list.find((p) => String(p.id) === String(id)) ||
    {id: id, label: id === "?" ? "? (unknown)" : String(id)};
}

// a list of pieces (a hand, the open tasks, the dice): chips that remove themselves
// when clicked, and a picker that adds one (buttons, or a menu for long texts)
function listEditor(f, items, path, name) {
  const row = el("div", {className: "list-row"});
  row.dataset.field = f.key;
  if (path.length > 1) row.dataset.index = String(path[1]);
  if (name) row.append(el("span", {className: "who", textContent: name}));
  items.forEach((item, i) => {
    row.append(pieceButton(pieceOf(f, item), () => editWith((d) => {
      listAt(d, path).splice(i, 1);
      if (f.kind === "dice" && !listAt(d, path).length) delete d[f.key];
    }), "chip"));
  });
  const full = f.size && items.length >= f.size;
  const choices = [...(f.unknown ? [{id: f.unknown, label: "? (unknown)"}] : []),
                   ...(editorInfo.pieces[f.pieces] || [])];
  const add = (id) => editWith((d) => {
    if (d[f.key] === undefined || d[f.key] === null) d[f.key] = [];
    listAt(d, path).push(f.kind === "dice" ? Number(id) : id);
  });
  if (full) {  // as many as the rules allow: take one out first
    row.append(el("span", {className: "dim", textContent: `full (${f.size})`,
                           title: "click a piece to take it out"}));
    return row;
  }
  const long = choices.some((c) => c.label.length > 14);
  if (long) {
    const select = el("select", {className: "add"});
    select.append(el("option", {value: "", textContent: "add…"}));
    for (const c of choices) select.append(el("option", {value: c.id, textContent: c.label}));
    select.addEventListener("change", () => { if (select.value) add(select.value); });
    row.append(select);
  } else if (choices.length <= 8) {  // a die's faces: always shown
    for (const c of choices) row.append(pieceButton(c, () => add(c.id), "pick"));
  } else {
    // tiles, cards: a palette under the row, kept open while pieces are added
    const key = path.join(".");
    const plus = el("button", {className: "add", textContent: "+", title: "add a piece"});
    const palette = el("div", {className: "palette", hidden: !openPalettes.has(key)});
    for (const c of choices) palette.append(pieceButton(c, () => add(c.id), "pick"));
    plus.addEventListener("click", () => {
      palette.hidden = !palette.hidden;
      if (palette.hidden) openPalettes.delete(key); else openPalettes.add(key);
    });
    row.append(plus, palette);
  }
  return row;
}

function listAt(d, path) {
  let v = d;
  for (const k of path) v = v[k];
  return v;
}

function drawFields() {
  const box = $("fields");
  box.textContent = "";
  if (!editorInfo) return;
  let data;
  try { data = positionData(); } catch (e) { return; }
  for (const f of editorInfo.fields) {
    const div = el("div", {className: "field", id: `field-${f.key}`});
    div.append(el("b", {textContent: f.label}));
    const value = data[f.key];
    if (f.kind === "hands") {
      (Array.isArray(value) ? value : []).forEach((hand, p) => {
        div.append(listEditor(f, Array.isArray(hand) ? hand : [], [f.key, p], `seat ${p + 1}`));
      });
    } else if (f.kind === "list" || f.kind === "dice") {
      div.append(listEditor(f, Array.isArray(value) ? value : [], [f.key], null));
    } else if (f.kind === "turn") {
      // seats as the status line says them (from 1); the file's number from `first`
      const names = f.of === "players" ? (data.players || [])
        : (data[f.of] || []).map((_, i) => i + f.first);
      const select = el("select", {id: `pick-${f.key}`});
      names.forEach((n, i) => select.append(el("option", {value: String(n),
        textContent: f.of === "players" ? n : `seat ${i + 1}`})));
      select.value = String(value === undefined ? names[0] : value);
      select.addEventListener("change", () => editWith((d) => {
        d[f.key] = f.of === "players" ? select.value : Number(select.value);
      }));
      div.append(select);
    } else if (f.kind === "one") {
      const select = el("select", {id: `pick-${f.key}`});
      select.append(el("option", {value: "", textContent: "(none)"}));
      for (const c of editorInfo.pieces[f.pieces]) select.append(el("option", {value: c.id, textContent: c.label}));
      select.value = value || "";
      select.addEventListener("change", () => editWith((d) => { d[f.key] = select.value || null; }));
      div.append(select);
    } else if (f.kind === "move") {
      const move = value && typeof value === "object" ? value : {};
      const selects = {};
      for (const [part, pieces] of Object.entries(f.parts)) {
        const select = el("select", {id: `pick-${f.key}-${part}`});
        select.append(el("option", {value: "", textContent: `${part}…`}));
        for (const c of editorInfo.pieces[pieces]) select.append(el("option", {value: c.id, textContent: c.label}));
        select.value = move[part] || "";
        selects[part] = select;
        div.append(el("span", {className: "who", textContent: part}), select);
      }
      const set = () => {
        const parts = Object.entries(selects).map(([k, s]) => [k, s.value]);
        if (parts.every(([, v]) => v)) editWith((d) => { d[f.key] = Object.fromEntries(parts); });
        else if (parts.every(([, v]) => !v)) editWith((d) => { d[f.key] = null; });
      };
      for (const s of Object.values(selects)) s.addEventListener("change", set);
      const none = el("button", {textContent: "none", id: `none-${f.key}`});
      none.addEventListener("click", () => editWith((d) => { d[f.key] = null; }));
      div.append(none);
    }
    div.append(el("div", {className: "field-problem problem", id: `problem-${f.key}`}));
    box.append(div);
  }
}

// the engine's error names the file's field (`position.json.hands[1][0]: ...`): show it
// at that field's editor as well
function fieldProblem(text) {
  for (const e of document.querySelectorAll(".field-problem")) e.textContent = "";
  for (const e of document.querySelectorAll(".field.bad")) e.classList.remove("bad");
  if (!text || !editorInfo) return;
  for (const f of editorInfo.fields) {
    const at = new RegExp(`[.\\s'"]${f.key}(\\[|:|'|"|\\s|$|\\.)`);
    if (at.test(text)) {
      $(`problem-${f.key}`).textContent = text;
      $(`field-${f.key}`).classList.add("bad");
      return;
    }
  }
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
    $("answer-summary").textContent = `${verb}: ` + ({409: "cancelled",
      504: "no answer within the time limit"}[r.status] || "no answer");
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
    // a quick verb answers at once; a solver's answer comes as a job to poll
    if (info.runs === "thread") { showAnswer(verb, await post(verb, body, query)); return; }
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
  // the job's elapsed time against its limit and the solver's own status line (best
  // found, bound, stage, counts) while it runs; the Cancel button stays in place
  const box = $("job");
  box.textContent = "";
  const line = document.createElement("span"); line.id = "job-line";
  const bar = document.createElement("progress"); bar.id = "job-bar"; bar.max = 1; bar.value = 0;
  const cancel = document.createElement("button");
  cancel.textContent = "Cancel"; cancel.id = "cancel";
  cancel.addEventListener("click", () => {
    cancel.disabled = true;
    fetch(`/api/jobs/${job}`, {method: "DELETE"});
  });
  const live = document.createElement("div"); live.id = "job-solver"; live.className = "dim";
  box.append(line, bar, cancel, live);
  for (;;) {
    const response = await fetch(`/api/jobs/${job}`);
    const j = await response.json();
    if (j.http_status !== undefined) {
      return {ok: j.http_status === 200, status: j.http_status, data: j.result,
              exit: j.exit_code !== undefined ? String(j.exit_code) : null};
    }
    line.textContent = `${j.command}: ${j.status}, ${j.elapsed.toFixed(1)} s of ${j.time_limit} s `;
    bar.value = j.progress || 0;
    live.textContent = j.solver && j.solver.text ? j.solver.text : "";
    if (j.solver) live.dataset.best = j.solver.best === undefined ? "" : String(j.solver.best);
    await new Promise((ok) => setTimeout(ok, 200));
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
// the fields follow the text as it is typed (a click on them edits what is shown)
$("position").addEventListener("input", drawFields);
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
    tool = null; loadPalette().then(drawTools); refresh();
  });
}

Promise.all([loadVerbs(), fetch(`/api/${GAME}/editor`).then((r) => r.json())
  .then((info) => { editorInfo = info; })]).then(refresh).then(() => {
  window.__ready = performance.now();  // page drawn with its picture and moves (bench)
  document.body.dataset.ready = "1";
});
