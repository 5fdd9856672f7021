// toppi serve: the game page. The position is the CLI's position file (JSON text);
// every answer comes from the API (/api/<game>/...), which runs the game's verbs.
"use strict";

const CONFIG = JSON.parse(document.getElementById("config").textContent);
const GAME = CONFIG.game;
const $ = (id) => document.getElementById(id);
let moves = [];            // legal moves of the current position (the moves document)
let chanceNode = false;    // the position waits for a roll or a draw
let clicks = [];           // play mode: [{word, kind}] clicked so far
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
  if (data === null || typeof data !== "object") data = {error: String(text)};
  return {ok: response.ok, status: response.status, data: data, text: text,
          exit: response.headers.get("X-Toppi-Exit")};
}

function el(tag, props, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props || {});
  for (const c of children) e.append(c);
  return e;
}

function problem(text) { $("problem").textContent = text || ""; fieldProblem(text); }

// ---------------------------------------------------------------- changes and undo
// Every change of the position (a move, an edit, a loaded file, the JSON typed) is one
// step of one stack: Undo brings back whatever was changed, Redo does it again.
let current = null;        // the position text the page shows (committed)
const past = [];           // [{position, label}] before each change
const future = [];         // undone changes, for Redo

function drawHistory() {
  $("history").replaceChildren(...past.map((e) => el("li", {textContent: e.label})));
  $("undo").disabled = !past.length;
  $("redo").disabled = !future.length;
}

async function commit(text, label) {
  past.push({position: current, label: label});
  future.length = 0;
  setPosition(text);
  current = positionText();
  drawHistory();
  return refresh();
}

async function undo() {
  if (!past.length) return;
  const e = past.pop();
  future.push({position: current, label: e.label});
  setPosition(e.position); current = e.position;
  drawHistory();
  await refresh();
}

async function redo() {
  if (!future.length) return;
  const e = future.pop();
  past.push({position: current, label: e.label});
  setPosition(e.position); current = e.position;
  drawHistory();
  await refresh();
}

// ---------------------------------------------------------------- drawing
let kinds = new Map();     // clickable word -> its kind (the picture's, a hand's chips)
let pictureWords = new Set();
let around = new Map();    // clickable word -> the words of the things around it

async function refresh() {
  if (preview) {  // a plan's step was shown: the player's position again
    preview = null;
    $("picture").classList.remove("preview");
    if (answer && answer.explained) drawAnswerActions();
  }
  resetClicks();
  editClicks = [];
  drawFields();
  const text = positionText();
  const [shown, pic] = await Promise.all([post("show", text), post("picture", text)]);
  answerFreshness();
  loadForm();
  if (!shown.ok) {
    problem(shown.data.error || shown.text);
    $("status").textContent = "";
    // the picture shows the last position the engine could read: said so on it
    $("picture").classList.add("stale");
    $("picture").dataset.note = "not redrawn: the position above has a problem";
    return false;
  }
  problem("");
  $("picture").classList.remove("stale");
  const s = shown.data;
  const who = s.to_move === null ? "nobody (game over)" :
    s.to_move === "chance" ? "chance (roll / draw)" : `seat ${s.to_move}`;
  $("status").textContent = `To act: ${who} · ${s.status}` +
    (s.unknown && s.unknown.length ? ` · unknown: ${s.unknown.join("; ")}` : "");
  $("status").dataset.toMove = String(s.to_move);
  if (pic.ok) drawPicture(pic.text);
  await loadMoves(s.to_move);
  showMarks();
  return true;
}

function drawPicture(svg) {
  const box = $("picture");
  box.innerHTML = svg;
  around = Board.containers([...box.querySelectorAll("rect.hit")]);
  Board.fit(box);
  kinds = new Map();
  for (const r of box.querySelectorAll("rect.hit")) {
    kinds.set(r.dataset.id.toLowerCase(), r.dataset.kind);
    r.addEventListener("click", () => onRegion(r.dataset.kind, r.dataset.id));
  }
  pictureWords = new Set(kinds.keys());
  // a hand's pieces may be clicked too (they name the tile or card of a move)
  if (editorInfo) {
    for (const f of editorInfo.fields) {
      if (f.kind !== "hands") continue;
      for (const p of editorInfo.pieces[f.pieces] || []) {
        const w = String(p.id).toLowerCase();
        if (/^[a-z0-9]+$/.test(w) && !kinds.has(w)) kinds.set(w, `piece:${f.pieces}`);
      }
    }
  }
}

async function loadMoves(toMove) {
  const select = $("moves");
  select.textContent = "";
  moves = [];
  chanceNode = false;
  $("chance").hidden = true;
  if (toMove === null) return;
  const r = await post("moves", positionText());
  if (!r.ok) { problem(r.data.error); return; }
  chanceNode = r.data.to_move === "chance";
  $("chance").hidden = !chanceNode;
  const list = r.data.chance_outcomes.length ? r.data.chance_outcomes : r.data.moves;
  moves = list.map((m) => m.text);
  for (const m of moves) select.append(el("option", {value: m, textContent: m}));
}

// ---------------------------------------------------------------- play
async function applyMove(text) {
  const before = positionText();
  const r = await post("apply", before, "move=" + encodeURIComponent(text));
  if (r.status === 409) { showCandidates(r.data.candidates, "several moves fit:"); return; }
  if (!r.ok) { problem(r.data.error); return; }
  const indent = (/\n( +)"/.exec(before) || [null, " "])[1].length;
  await commit(JSON.stringify(r.data.position, null, indent), r.data.move.text);
}

// highlight the picture's things with these ids (their outline, where the clickable
// rect was made larger for a finger)
function marked(cls, ids) {
  const things = "#picture rect.hit, #picture rect.hit-outline";
  for (const r of document.querySelectorAll(things)) r.classList.remove(cls);
  const want = new Set([...ids].map((i) => String(i).toLowerCase()));
  for (const r of document.querySelectorAll(things)) {
    if (want.has(r.dataset.id.toLowerCase())) r.classList.add(cls);
  }
}

function resetClicks() {
  clicks = [];
  marked("chosen", []); marked("target", []);
  $("candidates").textContent = ""; $("clicked").textContent = "";
  for (const c of document.querySelectorAll(".fields button.chip.chosen")) c.classList.remove("chosen");
}

// a short list of moves to choose from, each with the pieces it names drawn
function showCandidates(list, title) {
  const box = $("candidates");
  box.textContent = "";
  box.append(el("span", {className: "dim", textContent: title}));
  for (const m of list.slice(0, 12)) {
    const b = el("button", {className: "candidate", title: m});
    b.dataset.move = m;
    for (const w of m.split(/\s+/)) {
      const p = pieceByWord(w);
      if (p) b.append(Board.piece(p));
    }
    b.append(el("span", {textContent: m}));
    b.addEventListener("click", () => applyMove(m));
    box.append(b);
  }
  if (list.length > 12) box.append(el("span", {className: "dim", textContent: `and ${list.length - 12} more`}));
}

function pieceByWord(word) {
  if (!editorInfo) return null;
  for (const f of editorInfo.fields) {
    if (f.kind !== "hands") continue;
    const p = (editorInfo.pieces[f.pieces] || []).find((x) => String(x.id) === word);
    if (p) return p;
  }
  return null;
}

// A click adds a word; only clicks that name a whole move make it (a card AND its
// pile), one that names several offers them, and the places that could come next are
// lit on the picture.
function playClick(word) {
  if (preview) { $("clicked").textContent = "showing a step of the plan: back to your position first"; return; }
  if (chanceNode) { $("clicked").textContent = "roll or draw first (the list below, or at random)"; return; }
  const w = word.toLowerCase();
  clicks.push({word: w, kind: kinds.get(w) || "word"});
  for (const a of around.get(w) || []) clicks.push({word: a, kind: kinds.get(a), implied: true});
  const said = `clicked: ${clicks.filter((c) => !c.implied).map((c) => c.word).join(" ")}`;
  marked("chosen", clicks.filter((c) => !c.implied).map((c) => c.word));
  for (const c of document.querySelectorAll(".fields button.chip")) {
    c.classList.toggle("chosen", clicks.some((k) => k.word === String(c.dataset.piece).toLowerCase()));
  }
  $("candidates").textContent = "";
  const found = Board.match(moves, clicks, kinds, pictureWords);
  marked("target", found.targets);
  if (found.named.length === 1 && !found.open.length) { applyMove(found.named[0]); return; }
  if (!found.named.length && !found.open.length) {
    problem(`no legal move with ${clicks.filter((c) => !c.implied).map((c) => c.word).join(", ")}`);
    resetClicks();
    return;
  }
  problem("");
  $("clicked").textContent = found.named.length ? said :
    `${said} · now click a lit place (${found.open.length} move(s) fit)`;
  if (found.named.length) {
    showCandidates(found.named, found.open.length ? "did you mean (or click on a lit place):"
      : "did you mean:");
  }
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
  const actions = el("span", {className: "actions"});
  for (const p of palette) {
    const b = el("button", {textContent: p.label});
    b.dataset.piece = p.id;
    if (p.action) b.classList.add("action");
    if (!p.action && p.id === tool) b.classList.add("on");
    b.addEventListener("click", () => {
      if (p.action) { sendEdit([["action", p.id]], p.label); return; }
      tool = p.id; editClicks = []; drawTools();
    });
    (p.action ? actions : box).append(b);
  }
  if (actions.childNodes.length) box.prepend(actions);
}

async function sendEdit(sent, label) {
  let data;
  try { data = positionData(); } catch (e) { problem("position: " + e.message); return; }
  const r = await post("edit", JSON.stringify({position: data, tool: tool, clicks: sent}));
  if (!r.ok) {
    // refused: the picture is drawn again from the position as it is, the line at it
    editClicks = [];
    await refresh();
    pictureProblem(r.data.error);
    return;
  }
  $("clicked").textContent = r.data.note || "";
  if (r.data.tool !== null) { tool = r.data.tool; editClicks = []; drawTools(); }
  if (r.data.position !== null) {
    editClicks = [];
    await commit(JSON.stringify(r.data.position, null, indentOf()), label || `edit: ${tool || ""}`);
  }
}

function indentOf() { return (/\n( +)"/.exec(positionText()) || [null, " "])[1].length; }

function pictureProblem(text) {
  problem(text);
  $("picture-problem").textContent = text || "";
}

async function editWith(change, label) {
  let data;
  try { data = positionData(); } catch (e) { problem("position: " + e.message); return; }
  change(data);
  await commit(JSON.stringify(data, null, indentOf()), label);
}

function editClick(kind, id) {
  editClicks.push([kind, id]);
  marked("chosen", editClicks.map((c) => c[1]));
  sendEdit(editClicks.slice(), `edit: ${tool || ""} on ${editClicks.map((c) => c[1]).join(", ")}`);
}

function editing() { return $("mode-edit").checked; }

function onRegion(kind, id) {
  $("picture-problem").textContent = "";
  if (editing()) editClick(kind, id); else playClick(id);
}


// ---------------------------------------------------------------- fields editor
// Hands, open tasks, dice, the last move and whose turn it is, edited with pickers of
// the game's own pieces (GET /api/<game>/editor) in edit mode; every change is written
// to the position file's JSON and read by the engine, whose error is shown at its
// field. In play mode they are read-only, and a hand's piece names it for a move.
let editorInfo = null;
const openPalettes = new Set();  // the hands whose piece palette is open

function pieceButton(piece, onClick, cls) {
  const b = el("button", {className: cls, title: piece.label});
  b.append(Board.piece(piece));
  b.dataset.piece = piece.id;
  b.addEventListener("click", onClick);
  return b;
}

function pieceOf(f, id) {
  const list = editorInfo.pieces[f.pieces] || [];
  return list.find((p) => String(p.id) === String(id)) ||
    {id: id, label: id === "?" ? "? (unknown)" : String(id)};
}

// a list of pieces (a hand, the open tasks, the dice): in edit mode chips that remove
// themselves when clicked and a picker that adds one (buttons, or a menu for long
// texts); in play mode a hand's chips name their piece for the move
function listEditor(f, items, path, name) {
  const row = el("div", {className: "list-row"});
  row.dataset.field = f.key;
  if (path.length > 1) row.dataset.index = String(path[1]);
  if (name) row.append(el("span", {className: "who", textContent: name}));
  const edit = editing();
  items.forEach((item, i) => {
    const p = pieceOf(f, item);
    const chip = pieceButton(p, () => {
      if (edit) {
        editWith((d) => {
          listAt(d, path).splice(i, 1);
          if (f.kind === "dice" && !listAt(d, path).length) delete d[f.key];
        }, `edit: ${f.label}: ${p.label} out`);
      } else if (f.kind === "hands") {
        playClick(String(item));
      }
    }, "chip");
    chip.disabled = !edit && f.kind !== "hands";
    row.append(chip);
  });
  if (!edit) return row;
  const full = f.size && items.length >= f.size;
  const choices = [...(f.unknown ? [{id: f.unknown, label: "? (unknown)"}] : []),
                   ...(editorInfo.pieces[f.pieces] || [])];
  const add = (id) => editWith((d) => {
    if (d[f.key] === undefined || d[f.key] === null) d[f.key] = [];
    listAt(d, path).push(f.kind === "dice" ? Number(id) : id);
  }, `edit: ${f.label}: ${pieceOf(f, id).label} in`);
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
    const box = el("div", {className: "palette", hidden: !openPalettes.has(key)});
    for (const c of choices) box.append(pieceButton(c, () => add(c.id), "pick"));
    plus.addEventListener("click", () => {
      box.hidden = !box.hidden;
      if (box.hidden) openPalettes.delete(key); else openPalettes.add(key);
    });
    row.append(plus, box);
  }
  return row;
}

function listAt(d, path) {
  let v = d;
  for (const k of path) v = v[k];
  return v;
}

function turnField(f, data, value) {
  // seats as the status line says them (from 1); the file's number from `first`
  const names = f.of === "players" ? (data.players || [])
    : (data[f.of] || []).map((_, i) => i + f.first);
  const select = el("select", {id: `pick-${f.key}`});
  names.forEach((n, i) => select.append(el("option", {value: String(n),
    textContent: f.of === "players" ? n : `seat ${i + 1}`})));
  select.value = String(value === undefined ? names[0] : value);
  select.addEventListener("change", () => editWith((d) => {
    d[f.key] = f.of === "players" ? select.value : Number(select.value);
  }, `edit: ${f.label}`));
  return [select];
}

function oneField(f, value) {
  const select = el("select", {id: `pick-${f.key}`});
  select.append(el("option", {value: "", textContent: "(none)"}));
  for (const c of editorInfo.pieces[f.pieces]) select.append(el("option", {value: c.id, textContent: c.label}));
  select.value = value || "";
  select.addEventListener("change", () => editWith((d) => { d[f.key] = select.value || null; },
    `edit: ${f.label}`));
  return [select];
}

function moveField(f, value) {
  const move = value && typeof value === "object" ? value : {};
  const selects = {};
  const out = [];
  for (const [part, pieces] of Object.entries(f.parts)) {
    const select = el("select", {id: `pick-${f.key}-${part}`});
    select.append(el("option", {value: "", textContent: `${part}…`}));
    for (const c of editorInfo.pieces[pieces]) select.append(el("option", {value: c.id, textContent: c.label}));
    select.value = move[part] || "";
    selects[part] = select;
    out.push(el("span", {className: "who", textContent: part}), select);
  }
  const set = () => {
    const parts = Object.entries(selects).map(([k, s]) => [k, s.value]);
    if (parts.every(([, v]) => v)) editWith((d) => { d[f.key] = Object.fromEntries(parts); }, `edit: ${f.label}`);
    else if (parts.every(([, v]) => !v)) editWith((d) => { d[f.key] = null; }, `edit: ${f.label}`);
  };
  for (const s of Object.values(selects)) s.addEventListener("change", set);
  const none = el("button", {textContent: "none", id: `none-${f.key}`});
  none.addEventListener("click", () => editWith((d) => { d[f.key] = null; }, `edit: ${f.label}`));
  out.push(none);
  return out;
}

function drawFields() {
  const box = $("fields");
  box.textContent = "";
  if (!editorInfo) return;
  let data;
  try { data = positionData(); } catch (e) { return; }
  box.classList.toggle("read-only", !editing());
  for (const f of editorInfo.fields) {
    const div = el("div", {className: "field", id: `field-${f.key}`});
    div.append(el("b", {textContent: f.label}));
    const value = data[f.key];
    let parts = [];
    if (f.kind === "hands") {
      parts = (Array.isArray(value) ? value : []).map((hand, p) =>
        listEditor(f, Array.isArray(hand) ? hand : [], [f.key, p], `seat ${p + 1}`));
    } else if (f.kind === "list" || f.kind === "dice") {
      parts = [listEditor(f, Array.isArray(value) ? value : [], [f.key], null)];
    } else if (f.kind === "turn") {
      parts = turnField(f, data, value);
    } else if (f.kind === "one") {
      parts = oneField(f, value);
    } else if (f.kind === "move") {
      parts = moveField(f, value);
    }
    div.append(...parts);
    if (!editing()) {
      for (const c of div.querySelectorAll("select, button:not(.chip)")) c.disabled = true;
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

// ---------------------------------------------------------------- the questions' forms
// One button per verb, labelled in the player's words, with its options as inputs
// under "more options", prefilled by the game (POST /api/<game>/form) for the position
// so that every button answers without typing.
let form = null;           // the last form answer: {verbs: {VERB: {offered, label, values}}}
let formFor = null;        // the position it was asked for

function optionInput(verb, o) {
  const id = `opt-${verb}-${o.name}`;
  let input;
  if (o.flag) {
    input = el("input", {type: "checkbox", id: id, checked: !!o.default});
  } else if (o.choices) {
    input = el("select", {id: id});
    if (o.default === null) input.append(el("option", {value: "", textContent: "(default)"}));
    for (const c of o.choices) input.append(el("option", {value: c, textContent: c}));
    input.value = o.default === null ? "" : String(o.default);
  } else {
    const numeric = typeof o.default === "number";
    input = el("input", {type: numeric ? "number" : "text", id: id,
                         value: o.default === null ? "" : String(o.default)});
    if (numeric) input.step = "any";
  }
  input.dataset.option = o.name;
  input.addEventListener("change", () => { input.dataset.touched = "1"; });
  const label = el("label", {className: "option", title: o.help},
                   el("span", {textContent: o.name}), input);
  return label;
}

function setInput(input, value) {
  if (input.dataset.touched) return;  // what the player chose stays
  if (input.type === "checkbox") input.checked = value === true || value === "true" || value === "1";
  else input.value = Array.isArray(value) ? value.join("; ") : (value === null ? "" : String(value));
  if (Array.isArray(value)) input.dataset.list = JSON.stringify(value); else delete input.dataset.list;
}

function drawVerbs() {
  const box = $("verbs");
  box.textContent = "";
  for (const [verb, v] of Object.entries(verbs)) {
    const row = el("div", {className: "verb", id: `verb-${verb}`});
    row.dataset.verb = verb;
    const b = el("button", {className: "ask", id: `ask-${verb}`, textContent: verb});
    b.dataset.verb = verb;
    b.addEventListener("click", () => ask(verb));
    const more = el("details", {className: "more"}, el("summary", {textContent: "more options"}));
    const fields = el("div", {className: "options", id: `options-${verb}`});
    for (const o of v.options) fields.append(optionInput(verb, o));
    // anything else as the API's query string (`within=3&cards=known`): it wins
    const raw = el("input", {id: `opts-${verb}`, className: "raw"});
    raw.dataset.verb = verb;
    raw.placeholder = "more as a query: " + v.options.map((o) => o.name + (o.flag ? "" : "=…")).join("&");
    fields.append(el("label", {className: "option raw-option"}, el("span", {textContent: "query"}), raw));
    more.append(fields);
    row.append(b, more);
    box.append(row);
  }
}

async function loadForm() {
  const text = positionText();
  if (text === formFor) return;
  formFor = text;
  let r;
  try { r = await post("form", text); } catch (e) { return; }
  if (formFor !== text) return;  // the position changed meanwhile
  if (!r.ok || !r.data.verbs) { applyForm(null); return; }
  applyForm(r.data);
}

function applyForm(answer) {
  form = answer;
  for (const verb of Object.keys(verbs)) {
    const f = answer && answer.verbs[verb];
    const row = $(`verb-${verb}`);
    if (!row) continue;
    row.hidden = !!(f && f.offered === false);
    $(`ask-${verb}`).textContent = f && f.label ? f.label : verb;
    $(`ask-${verb}`).title = f && f.label ? `${verb} (toppi ${GAME} ${verb})` : "";
    for (const [name, value] of Object.entries((f && f.values) || {})) {
      const input = $(`opt-${verb}-${name}`);
      if (input) setInput(input, value);
    }
  }
}

// the options as the API's query: what differs from the command's own defaults, then
// the query field (whose options replace the inputs' of the same name)
function queryOf(verb) {
  const pairs = [];
  const raw = new URLSearchParams(($(`opts-${verb}`) || {value: ""}).value.trim());
  const given = new Set([...raw.keys()].map((k) => k.replace(/_/g, "-")));
  for (const o of verbs[verb].options) {
    if (given.has(o.name)) continue;
    const input = $(`opt-${verb}-${o.name}`);
    if (!input) continue;
    if (o.flag) {
      if (input.checked !== !!o.default) pairs.push([o.name, input.checked ? "1" : "0"]);
      continue;
    }
    const value = input.value.trim();
    if (value === "" || value === String(o.default === null ? "" : o.default)) continue;
    // several values the game gave stay several; a typed text is one value
    const values = input.dataset.list && !input.dataset.touched ? JSON.parse(input.dataset.list) : [value];
    for (const x of values) pairs.push([o.name, String(x)]);
  }
  for (const [k, v] of raw) pairs.push([k, v]);
  return pairs;
}

// ---------------------------------------------------------------- answers
// The answer in the game's words (POST /api/<game>/explain), its move marked on the
// picture with an Apply button, a plan stepped through on the board; the document
// itself under "the answer's JSON". An answer for another position than the one shown
// says so.
let answer = null;         // {verb, position, explained}
let preview = null;        // a plan's step shown on the picture: {step, positions}

function summary(verb, d) {
  // without the game's explanation: the document's main fields in one line
  if (!d || typeof d !== "object") return "";
  const keys = ["answer", "status", "achievable", "reachable", "total", "score", "best",
                "expected_shed", "probability", "chance", "win_rate", "verdict",
                "count", "length", "winner"];
  const parts = [];
  for (const k of keys) {
    if (k in d && d[k] !== null && typeof d[k] !== "object") parts.push(`${k}: ${d[k]}`);
  }
  const line = `${verb}: ` + (parts.join(" · ") || "answered");
  return line.length > 160 ? line.slice(0, 157) + "…" : line;
}

function clearAnswer() {
  answer = null; preview = null;
  $("answer-summary").textContent = ""; $("answer-certainty").textContent = "";
  $("answer-actions").textContent = "";
  $("answer-box").classList.remove("stale");
  $("answer-stale").hidden = true;
  $("answer").textContent = "";
  $("answer-details").hidden = true;
  delete $("answer-summary").dataset.explained;
  marked("mark", []); marked("step", []);
}

async function showAnswer(verb, r, position) {
  $("answer").textContent = typeof r.data === "string" ? r.data : JSON.stringify(r.data, null, 2);
  $("answer-details").hidden = false;
  $("answer").dataset.verb = verb;
  $("answer").dataset.status = String(r.status);
  if (!r.ok) {
    $("answer-summary").textContent = `${verb}: ` + ({409: "cancelled",
      504: "no answer within the time limit"}[r.status] || "no answer");
    $("answer-summary").dataset.explained = "1";
    problem(r.data.error || r.text);
    return;
  }
  problem("");
  answer = {verb: verb, position: position, explained: null};
  $("answer-summary").textContent = summary(verb, r.data) + (r.exit === "3" ? " (time limit)" : "");
  answerFreshness();
  let data = null;
  try { data = JSON.parse(position); } catch (e) { data = null; }
  const e = data && await post("explain", JSON.stringify({verb: verb, position: data, answer: r.data}));
  if (answer === null || answer.position !== position) return;
  if (e && e.ok && typeof e.data.text === "string") {
    answer.explained = e.data;
    $("answer-summary").textContent = e.data.text;
    $("answer-certainty").textContent = e.data.certainty && e.data.certainty !== "none" ? e.data.certainty : "";
    $("answer-certainty").dataset.certainty = e.data.certainty || "";
    drawAnswerActions();
    showMarks();
  }
  $("answer-summary").dataset.explained = "1";
  answerFreshness();
}

function fresh() { return answer !== null && answer.position === current; }

// a changed position: the answer stays, marked as for an earlier position (and back to
// fresh if Undo brings that position back)
function answerFreshness() {
  if (answer === null) return;
  const stale = !fresh();
  $("answer-box").classList.toggle("stale", stale);
  $("answer-stale").hidden = !stale;
  for (const b of $("answer-actions").querySelectorAll("button")) b.disabled = stale;
  if (stale) { marked("mark", []); marked("step", []); }
}

function showMarks() {
  if (preview || !answer || !answer.explained || !fresh()) { if (!preview) marked("mark", []); return; }
  marked("mark", answer.explained.marks || []);
}

function drawAnswerActions() {
  const box = $("answer-actions");
  box.textContent = "";
  const e = answer.explained;
  if (e.plan && e.plan.length) {
    const back = el("button", {id: "plan-back", textContent: "◀ Back"});
    const next = el("button", {id: "plan-next", textContent: "Next ▶"});
    const where = el("span", {id: "plan-step", className: "dim"});
    const take = el("button", {id: "plan-apply", textContent: "Apply these steps"});
    const home = el("button", {id: "plan-home", textContent: "My position"});
    back.addEventListener("click", () => stepTo(preview ? preview.step - 1 : 0));
    next.addEventListener("click", () => stepTo(preview ? preview.step + 1 : 1));
    home.addEventListener("click", () => stepTo(0));
    take.addEventListener("click", applySteps);
    box.append(back, next, where, home, take);
    where.textContent = `plan of ${e.plan.length} step(s): Next shows each on the board`;
    take.hidden = true; home.hidden = true;
  } else if (e.moves && e.moves.length) {
    const apply = el("button", {id: "answer-apply", className: "primary", textContent: `Apply ${e.moves[0]}`});
    apply.dataset.move = e.moves[0];
    apply.addEventListener("click", () => applyMove(e.moves[0]));
    box.append(apply);
  }
}

// the plan's steps applied one by one to a copy of the position: the player's own is
// unchanged until "Apply these steps"
async function stepTo(step) {
  const plan = answer.explained.plan;
  step = Math.max(0, Math.min(plan.length, step));
  if (!preview) preview = {step: 0, positions: [current]};
  while (preview.positions.length <= step) {
    const k = preview.positions.length - 1;
    const r = await post("apply", preview.positions[k], "move=" + encodeURIComponent(plan[k]));
    if (!r.ok) { problem(`step ${k + 1} (${plan[k]}): ${r.data.error}`); step = k; break; }
    preview.positions.push(JSON.stringify(r.data.position, null, indentOf()));
  }
  preview.step = step;
  const pic = await post("picture", preview.positions[step]);
  if (pic.ok) drawPicture(pic.text);
  const showing = step > 0;
  $("picture").classList.toggle("preview", showing);
  $("picture").dataset.note = showing ? `step ${step} of the plan: ${plan[step - 1]} (not played yet)` : "";
  $("plan-step").textContent = showing
    ? `step ${step} of ${plan.length}: ${plan[step - 1]} (your position is unchanged)`
    : `plan of ${plan.length} step(s): Next shows each on the board`;
  $("plan-apply").hidden = !showing;
  $("plan-home").hidden = !showing;
  $("plan-apply").textContent = step === 1 ? "Apply step 1" : `Apply steps 1-${step}`;
  $("plan-back").disabled = step === 0;
  $("plan-next").disabled = step >= plan.length || preview.positions.length <= step;
  marked("mark", []);
  marked("step", showing ? Board.words(plan[step - 1]).filter((w) => pictureWords.has(w)) : []);
  if (!showing) { preview = null; showMarks(); }
}

async function applySteps() {
  const steps = answer.explained.plan.slice(0, preview.step);
  const positions = preview.positions;
  steps.forEach((m, k) => past.push({position: positions[k], label: m}));
  future.length = 0;
  setPosition(positions[steps.length]); current = positionText();
  drawHistory();
  $("picture").classList.remove("preview");
  await refresh();
}

async function ask(verb) {
  // JSON typed in the position file's box is the position asked about
  if (positionText() !== current) await commit(positionText(), "JSON edited");
  const pairs = queryOf(verb);
  const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  const button = $(`ask-${verb}`);
  button.classList.add("busy");
  clearAnswer();
  $("answer").dataset.query = query;
  $("answer").dataset.verb = "";
  $("answer-summary").textContent = `${button.textContent}: working…`;
  const position = current;
  try {
    const info = verbs[verb] || {};
    const body = info.takes_file === false ? "{}" : position;
    // a quick verb answers at once; a solver's answer comes as a job to poll
    if (info.runs === "thread") { await showAnswer(verb, await post(verb, body, query), position); return; }
    const started = await post(verb, body, (query ? query + "&" : "") + "async=1");
    if (!started.ok) { await showAnswer(verb, started, position); return; }
    currentJob = started.data.job;
    await showAnswer(verb, await poll(currentJob), position);
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
  const line = el("span", {id: "job-line"});
  const bar = el("progress", {id: "job-bar", max: 1, value: 0});
  const cancel = el("button", {textContent: "Cancel", id: "cancel"});
  cancel.addEventListener("click", () => {
    cancel.disabled = true;
    fetch(`/api/jobs/${job}`, {method: "DELETE"});
  });
  const live = el("div", {id: "job-solver", className: "dim"});
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
  verbs = (await r.json()).verbs;
  drawVerbs();
}

// ---------------------------------------------------------------- wiring
$("use").addEventListener("click", () => commit(positionText(), "JSON edited"));
// the fields follow the text as it is typed (a click on them edits what is shown)
$("position").addEventListener("input", drawFields);
$("save").addEventListener("click", () => {
  const blob = new Blob([positionText()], {type: "application/json"});
  const a = el("a", {href: URL.createObjectURL(blob), download: `${GAME}-position.json`});
  a.click();
});
$("load").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  if (!f) return;
  const text = await f.text();
  e.target.value = "";
  $("position").value = text;  // kept byte for byte
  await commit(text, `loaded ${f.name}`);
});
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
document.addEventListener("keydown", (e) => {
  if (!(e.ctrlKey || e.metaKey) || /^(TEXTAREA|INPUT|SELECT)$/.test(e.target.tagName)) return;
  const key = e.key.toLowerCase();
  if (key === "z" && !e.shiftKey) { e.preventDefault(); undo(); }
  else if (key === "y" || (key === "z" && e.shiftKey)) { e.preventDefault(); redo(); }
});
$("apply").addEventListener("click", () => { if ($("moves").value) applyMove($("moves").value); });
$("chance").addEventListener("click", () => applyMove("random"));
$("clear-clicks").addEventListener("click", resetClicks);
for (const id of ["mode-play", "mode-edit"]) {
  $(id).addEventListener("change", () => {
    const edit = editing();
    $("tools").hidden = !edit; $("play").hidden = edit;
    document.body.classList.toggle("editing", edit);
    tool = null; loadPalette().then(drawTools); refresh();
  });
}
let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => Board.fit($("picture")), 100);
});

current = positionText();
drawHistory();
Promise.all([loadVerbs(), fetch(`/api/${GAME}/editor`).then((r) => r.json())
  .then((info) => { editorInfo = info; })]).then(refresh).then(() => {
  window.__ready = performance.now();  // page drawn with its picture and moves (bench)
  document.body.dataset.ready = "1";
});
