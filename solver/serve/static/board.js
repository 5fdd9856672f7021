// toppi serve: what the game page does with its picture, apart from the page itself:
// which legal moves a sequence of clicks names, the picture's size on a small screen,
// and pieces drawn as small pictures. Nothing here names a game: the words come from
// the picture's marked things (`rect.hit`) and the moves' own notation.
"use strict";

const Board = (() => {
  function words(text) {
    return text.split(/[^A-Za-z0-9]+/).filter((w) => w).map((w) => w.toLowerCase());
  }

  // a move made of parts joined by " + " (a gap filler and a tile) may be clicked part
  // by part in any order
  function orderings(text) {
    const parts = text.split(" + ");
    if (parts.length === 1 || parts.length > 3) return [text];
    const out = [];
    const permute = (done, rest) => {
      if (!rest.length) { out.push(done.join(" + ")); return; }
      rest.forEach((p, i) => permute([...done, p], rest.filter((_, j) => j !== i)));
    };
    permute([], parts);
    return out;
  }

  // The clickable words of a move, in order: a word on the picture must be clicked
  // (`required`), except the words after the first of a group written A+B+C (a stack
  // named by its lowest block); a hand's piece may be clicked but is never needed.
  function moveWords(text, kinds, required) {
    const out = [];
    for (const token of text.split(/\s+/)) {
      words(token).forEach((w, i) => {
        if (kinds.has(w)) {
          out.push({word: w, kind: kinds.get(w), required: required.has(w) && !(i > 0 && token.includes("+"))});
        }
      });
    }
    return out;
  }

  // One ordering of a move against the clicks. Clicks of one kind keep their order (the
  // first space clicked takes the first face); clicks of different kinds come in any
  // order; a place a click implies (the podium under a block clicked) fits anywhere.
  // The move is named when every word it needs is clicked (a card AND its pile); it is
  // open while more clicks could still name it.
  function matchOrdering(text, clicks, kinds, required) {
    const seq = moveWords(text, kinds, required);
    const last = new Map();
    const taken = new Set();
    for (const c of clicks) {
      if (c.implied) {
        const at = seq.findIndex((e, i) => e.word === c.word && !taken.has(i));
        if (at >= 0) taken.add(at);
        continue;
      }
      const after = last.has(c.kind) ? last.get(c.kind) : -1;
      const at = seq.findIndex((e, i) => i > after && e.word === c.word && !taken.has(i));
      if (at < 0) return null;
      taken.add(at); last.set(c.kind, at);
    }
    const missing = seq.map((e, i) => i).filter((i) => seq[i].required && !taken.has(i));
    if (!seq.some((e) => e.required)) return null;  // nothing of it on the picture
    const dead = missing.some((i) => last.has(seq[i].kind) && last.get(seq[i].kind) > i);
    return {named: !missing.length, dead, missing: missing.length,
            next: missing.length ? seq[missing[0]].word : null};
  }

  // What the clicks say among the legal moves: the moves they name, the moves more
  // clicks could still name, and the words to click next (of the nearest ones).
  function match(moves, clicks, kinds, required) {
    const named = [], open = [];
    for (const m of moves) {
      let best = null;
      for (const text of orderings(m)) {
        const r = matchOrdering(text, clicks, kinds, required);
        if (!r || r.dead) continue;
        if (!best || r.missing < best.missing) best = r;
      }
      if (!best) continue;
      if (best.named) named.push(m); else open.push({move: m, ...best});
    }
    const nearest = Math.min(...open.map((o) => o.missing));
    const targets = new Set(open.filter((o) => o.missing === nearest).map((o) => o.next));
    return {named, open: open.map((o) => o.move), targets};
  }

  // ------------------------------------------------------------ the picture's size
  // Text on the picture at least MIN_FONT px on screen, and on a touch screen (or a
  // narrow one) every clickable thing at least MIN_TOUCH px: the picture is drawn
  // larger than the screen then, and its box scrolls sideways.
  const MIN_FONT = 12, MIN_TOUCH = 44;

  function rectOf(r) {
    return {x: +r.getAttribute("x"), y: +r.getAttribute("y"),
            w: +r.getAttribute("width"), h: +r.getAttribute("height")};
  }

  function overlaps(a0, a1, b0, b1) { return a0 < b1 && b0 < a1; }

  // for each clickable thing, the things around it (a podium around its blocks): a
  // click on it is a click on them too
  function containers(hits) {
    const boxes = hits.map(rectOf);
    const out = new Map();
    hits.forEach((r, i) => {
      const b = boxes[i];
      const around = hits.filter((o, j) => j !== i && boxes[j].x <= b.x && boxes[j].y <= b.y
        && boxes[j].x + boxes[j].w >= b.x + b.w && boxes[j].y + boxes[j].h >= b.y + b.h
        && boxes[j].w * boxes[j].h > b.w * b.h);
      out.set(r.dataset.id.toLowerCase(), around.map((o) => o.dataset.id.toLowerCase()));
    });
    return out;
  }

  // grow each clickable rect towards `size` (picture units), by at most half the gap to
  // its neighbours (rects that overlap it, such as a podium around its blocks, are not
  // neighbours) and within the picture
  function growHits(hits, size, view) {
    const boxes = hits.map(rectOf);
    const grow = (axis) => {
      const [p, len, q, qlen, lo, hi] = axis === "x" ? ["x", "w", "y", "h", view.x, view.x + view.width]
        : ["y", "h", "x", "w", view.y, view.y + view.height];
      const out = boxes.map((b, i) => {
        let room0 = b[p] - lo, room1 = hi - (b[p] + b[len]);
        boxes.forEach((o, j) => {
          if (i === j || !overlaps(b[q], b[q] + b[qlen], o[q], o[q] + o[qlen])) return;
          if (overlaps(b[p], b[p] + b[len], o[p], o[p] + o[len])) return;
          if (o[p] >= b[p] + b[len]) room1 = Math.min(room1, (o[p] - b[p] - b[len]) / 2);
          else room0 = Math.min(room0, (b[p] - o[p] - o[len]) / 2);
        });
        const want = Math.max(0, (size - b[len]) / 2);
        return [Math.min(want, room0), Math.min(want, room1)];
      });
      boxes.forEach((b, i) => { b[p] -= out[i][0]; b[len] += out[i][0] + out[i][1]; });
    };
    grow("x"); grow("y");
    hits.forEach((r, i) => {
      const b = boxes[i], was = rectOf(r);
      if (b.w === was.w && b.h === was.h) return;
      // the thing's own outline stays for its highlights; the larger rect only listens
      const outline = r.cloneNode(false);
      outline.setAttribute("class", "hit-outline");
      r.before(outline);
      r.classList.add("grown");
      r.setAttribute("x", b.x); r.setAttribute("y", b.y);
      r.setAttribute("width", b.w); r.setAttribute("height", b.h);
    });
    return boxes;
  }

  function smallestFont(svg) {
    let least = Infinity;
    for (const t of svg.querySelectorAll("text")) {
      if (!t.textContent.trim()) continue;
      const size = parseFloat(getComputedStyle(t).fontSize);
      if (size > 0) least = Math.min(least, size);
    }
    return least;
  }

  function touchScreen() {
    return matchMedia("(pointer: coarse), (max-width: 700px)").matches;
  }

  // the picture's width on screen: as drawn (at most its box's width), but never so
  // small that its text or clickable things fall under the minimum
  function fit(box) {
    const svg = box.querySelector("svg");
    if (!svg) return;
    const view = svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal
      : {x: 0, y: 0, width: svg.width.baseVal.value, height: svg.height.baseVal.value};
    svg.style.width = ""; svg.style.maxWidth = "";
    const room = box.clientWidth;
    let scale = Math.min(1, room / view.width);
    const font = smallestFont(svg);
    if (font < Infinity) scale = Math.max(scale, MIN_FONT / font);
    if (touchScreen()) {
      const hits = [...svg.querySelectorAll("rect.hit")];
      if (!svg.dataset.grown) {
        svg.dataset.grown = "1";
        svg.dataset.hitSize = String(Math.min(Infinity, ...growHits(hits, MIN_TOUCH / scale, view)
          .map((b) => Math.min(b.w, b.h))));
      }
      const least = +svg.dataset.hitSize;
      if (least > 0 && least < Infinity) scale = Math.max(scale, MIN_TOUCH / least);
    }
    // a hair over, so rounding never leaves a text at 11.99 px
    svg.style.width = `${Math.ceil(view.width * scale * 1.002)}px`;
    svg.style.maxWidth = "none";
    svg.style.height = "auto";
  }

  // ------------------------------------------------------------ pieces as pictures
  // A piece of the editor (`{id, label, colour, colour2}`) drawn small: a card in its
  // colour with its number, a tile of two faces in their colours with their numbers,
  // else its label.
  function number(text) {
    const m = /^[A-Za-z]*(\d+)$/.exec(text);
    return m ? m[1] : text;
  }

  function piece(p) {
    const span = document.createElement("span");
    span.className = "piece";
    const tokens = String(p.label || p.id).split(/\s+/);
    const faces = tokens[0] === String(p.id) ? tokens.slice(1) : [];
    if (p.id === "?") {
      span.classList.add("card", "unknown"); span.textContent = "?";
    } else if (p.colour && p.colour2 && faces.length === 2) {
      span.classList.add("tile");
      for (const [i, colour] of [[0, p.colour], [1, p.colour2]]) {
        const half = document.createElement("span");
        half.className = "face"; half.style.background = colour;
        half.textContent = number(faces[i]);
        span.append(half);
      }
    } else if (p.colour) {
      span.classList.add("card"); span.style.background = p.colour;
      span.textContent = number(String(p.id));
    } else {
      span.classList.add("text"); span.textContent = p.label || p.id;
    }
    return span;
  }

  return {words, match, fit, piece, touchScreen, containers};
})();
