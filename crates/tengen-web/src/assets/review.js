// Review of an SGF record: the server reads the record into the nodes of
// every variation, each with the stone it adds, those it captures and the
// lexicon's names; this steps through them (buttons, keys, the tree list,
// the variation letters on the board), sends edits (a comment, a move that
// starts a variation) for the server to write back as SGF, and shows the
// engine's analysis of the main line: the win-rate and score graph, the
// biggest mistakes, the preferred move and its line, the territory.

import { t, colorWord, errorText, presetName, number, percent, said } from "./i18n.js";
import { $, show } from "./page.js";
import { api } from "./connection.js";
import { drawBoard, vertexXY, boardPoint } from "./board.js";

const SVGNS = "http://www.w3.org/2000/svg";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
// Where the record under review is kept, so that a reload finds it.
const KEPT = "tengen.review";
// Where openRecord shows a record: the end of its main line.
const END = "end";
// How often the page asks how far the analysis has gone, ms.
const POLL_MS = 700;

const review = {
  data: null, at: 0, sgf: "", boardOpts: {}, buttons: [], main: [], byNumber: [],
  analysis: null, polling: null,
  // The child last visited at each node: where "next" goes back to.
  visited: {},
};

function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function keep() {
  try {
    sessionStorage.setItem(KEPT, JSON.stringify({ sgf: review.sgf, at: review.at }));
  } catch (e) {
    // Too large to keep: a reload asks for the file again.
  }
}

// Shows a record read by the server (`data`), at node `at`.
function setReview(data, sgf, at) {
  review.data = data;
  review.sgf = sgf;
  review.at = at;
  review.visited = {};
  markPath(at);
  review.main = [0];
  for (let n = 0; data.nodes[n].children.length;) { n = data.nodes[n].children[0]; review.main.push(n); }
  review.byNumber = [];
  for (const n of review.main) if (review.byNumber[data.nodes[n].number] === undefined) review.byNumber[data.nodes[n].number] = n;
  buildTree();
  keep();
}

// Opens record `text` at node `at`, or at the end of its main line (END).
async function openRecord(text, at) {
  $("review-error").textContent = "";
  const data = await api("/api/review", { method: "POST", body: text });
  stopPolling();
  review.analysis = null;
  review.boardOpts = {};
  let node = Math.min(at || 0, data.nodes.length - 1);
  if (at === END) for (node = 0; data.nodes[node].children.length;) node = data.nodes[node].children[0];
  setReview(data, text, node);
  if (document.activeElement === $("sgf-file")) $("sgf-file").blur();
  show("reviewer");
  renderReview();
  askAnalysis(false);
}

// Opens `text`, an SGF record from elsewhere on the page (a finished
// game), at its last move: the position the players just left.
export async function reviewRecord(text) {
  await openRecord(text, END);
}

async function loadReview(file) {
  try {
    const text = await file.text();
    history.pushState({}, "", "/#review");
    await openRecord(text, 0);
  } catch (e) {
    $("review-error").textContent = errorText(e);
  }
}

// Opens the record kept by this tab before a reload; false if none.
export async function restoreReview() {
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(KEPT) || "null"); } catch (e) { kept = null; }
  if (!kept || !kept.sgf) return false;
  try {
    await openRecord(kept.sgf, kept.at);
    return true;
  } catch (e) {
    return false;
  }
}

function reviewPath(at) {
  const path = [];
  for (let n = at; n !== null && n !== undefined; n = review.data.nodes[n].parent) path.unshift(n);
  return path;
}

function reviewBoard(at) {
  const d = review.data;
  const b = d.start.split("");
  const numbers = new Array(b.length).fill(0);
  let last = null;
  for (const n of reviewPath(at)) {
    const node = d.nodes[n];
    if (!node.vertex || node.vertex === "pass") continue;
    const [x, y] = vertexXY(node.vertex, d.height);
    b[y * d.width + x] = node.color === "black" ? "X" : "O";
    numbers[y * d.width + x] = node.number;
    for (const c of node.captured) {
      const [cx, cy] = vertexXY(c, d.height);
      b[cy * d.width + cx] = ".";
      numbers[cy * d.width + cx] = 0;
    }
    last = node.vertex;
  }
  return { board: b.join(""), numbers, last };
}

// Who plays after node `n`.
function nextColor(n) {
  for (let m = n; m !== null && m !== undefined; m = review.data.nodes[m].parent) {
    const c = review.data.nodes[m].color;
    if (c) return c === "black" ? "white" : "black";
  }
  return review.data.to_move;
}

// The analysis of the position at node `n`, if it is on the main line and
// analysed.
function positionAt(n) {
  const a = review.analysis;
  if (!a || !review.main.includes(n)) return null;
  return a.positions[review.data.nodes[n].number] || null;
}

function moveText(node) {
  if (!node.vertex) return t("move_n", { n: 0 });
  return t("review_move", { n: node.number, m: node.vertex === "pass" ? t("passes", { c: colorWord(node.color) })
    : t("announce_play", { c: colorWord(node.color), v: node.vertex }) });
}

// The overlays of the review board: variation letters, the engine's line,
// the territory. Drawn over the board, under nothing the pointer needs.
function drawOverlays(svg, board) {
  const d = review.data, node = d.nodes[review.at];
  const g = svgEl("g", { class: "review-overlay", "pointer-events": "none" });
  const center = (v) => { const [x, y] = vertexXY(v, d.height); return boardPoint(x, y); };
  const pos = positionAt(review.at);
  if ($("r-owner").checked && pos) {
    for (let i = 0; i < pos.ownership.length; i++) {
      const v = (pos.ownership.charCodeAt(i) - 107) / 10;
      // Empty points, and stones the other side will own (dead ones).
      const stone = board[i] === "X" ? 1 : board[i] === "O" ? -1 : 0;
      if (Math.abs(v) < 0.2 || stone * v > 0) continue;
      const [cx, cy] = boardPoint(i % d.width, Math.floor(i / d.width));
      const s = 6 + 12 * Math.abs(v);
      svgEl("rect", { x: cx - s / 2, y: cy - s / 2, width: s, height: s, opacity: 0.7,
        fill: v > 0 ? "#111" : "#fff", stroke: "#555", "stroke-width": 0.6, class: v > 0 ? "own-b" : "own-w" }, g);
    }
  }
  if ($("r-best").checked && pos) {
    let c = nextColor(review.at);
    pos.pv.forEach((v, i) => {
      if (v !== "pass") {
        const [cx, cy] = center(v);
        const [x, y] = vertexXY(v, d.height);
        if (board[y * d.width + x] === ".") {
          svgEl("circle", { cx, cy, r: 18, fill: c === "black" ? "#111" : "#fff", opacity: 0.55,
            stroke: i === 0 ? "#0a58ca" : "none", "stroke-width": 3, class: i === 0 ? "best-move" : "pv-move", "data-pv": v }, g);
          svgEl("text", { x: cx, y: cy + 6, "text-anchor": "middle", "font-size": 17, "font-weight": 700,
            fill: c === "black" ? "#fff" : "#000" }, g).textContent = String(i + 1);
        }
      }
      c = c === "black" ? "white" : "black";
    });
  }
  if (node.children.length > 1) {
    node.children.forEach((k, i) => {
      const v = d.nodes[k].vertex;
      if (!v || v === "pass") return;
      const [cx, cy] = center(v);
      svgEl("circle", { cx, cy, r: 13, fill: "#fff", opacity: 0.85, stroke: "#8b2e16", "stroke-width": 1.5 }, g);
      svgEl("text", { x: cx, y: cy + 6, "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: "#8b2e16",
        class: "var-letter", "data-var": v }, g).textContent = LETTERS[i];
    });
  }
  svg.appendChild(g);
}

// Draws the node reviewed, if a record is loaded.
export function renderReview() {
  const d = review.data;
  if (!d) return;
  const node = d.nodes[review.at];
  const { board, numbers, last } = reviewBoard(review.at);
  const svg = drawBoard($("review-board"), d.width, d.height, board, Object.assign(review.boardOpts, {
    stars: d.star_points, last, numbers: $("r-numbers").checked ? numbers : null, liveId: "review-cursor",
    label: "goban", onPlay: playAt, hoverColor: nextColor(review.at), cursorShift: true,
  }));
  drawOverlays(svg, board);
  for (const [id, key] of [["r-first", "r_first"], ["r-prev", "r_prev"], ["r-next", "r_next"], ["r-last", "r_last"]]) {
    $(id).setAttribute("aria-label", t(key));
    $(id).title = t(key);
  }
  $("review-info").textContent = [d.black && (t("black") + " " + d.black), d.white && (t("white") + " " + d.white),
    d.rules_stated === false ? t("rules_unstated", { r: presetName(d.rules) }) : presetName(d.rules), t("komi") + " " + number(d.komi), d.result && (t("result") + " " + d.result), d.date].filter(Boolean).join(" · ");
  $("review-move").textContent = moveText(node);
  $("review-names").textContent = (node.names || []).map(said).join(" ; ");
  $("review-comment").textContent = node.comment || "";
  const vars = $("r-vars");
  vars.replaceChildren();
  node.children.forEach((c, i) => {
    const o = document.createElement("option");
    const n = d.nodes[c];
    o.value = c;
    o.textContent = LETTERS[i] + " " + (n.vertex || "—") + (n.color ? " (" + colorWord(n.color) + ")" : "");
    vars.appendChild(o);
  });
  if (review.visited[review.at] !== undefined && node.children.includes(review.visited[review.at])) {
    vars.value = String(review.visited[review.at]);
  }
  // No choice to make: no list (an empty one reads as broken).
  $("r-vars-box").hidden = node.children.length < 2;
  const notes = $("review-notes");
  notes.replaceChildren();
  for (const n of d.notes) { const li = document.createElement("li"); li.textContent = said(n); notes.appendChild(li); }
  for (const b of review.buttons) b.removeAttribute("aria-current");
  const current = review.buttons[review.at];
  if (current) {
    current.setAttribute("aria-current", "true");
    // Scrolls the tree, not the page, to the node shown.
    const tree = $("r-tree");
    if (current.offsetTop < tree.scrollTop || current.offsetTop + current.offsetHeight > tree.scrollTop + tree.clientHeight) {
      tree.scrollTop = current.offsetTop - tree.clientHeight / 2;
    }
  }
  renderAnalysis();
  keep();
}

// Notes the path to node `n` as the way "next" goes at each of its nodes.
function markPath(n) {
  for (let m = n, p = review.data.nodes[n].parent; p !== null && p !== undefined; m = p, p = review.data.nodes[p].parent) {
    review.visited[p] = m;
  }
}

function go(n) {
  if (!review.data || n === null || n === undefined || !review.data.nodes[n]) return;
  review.at = n;
  markPath(n);
  $("r-comment-box").hidden = true;
  $("r-edit-error").textContent = "";
  renderReview();
}

function reviewStep(delta) {
  const d = review.data;
  if (!d) return;
  if (delta < 0) {
    go(d.nodes[review.at].parent);
  } else {
    const kids = d.nodes[review.at].children;
    if (kids.length) go(kids.length > 1 ? parseInt($("r-vars").value || kids[0], 10) : kids[0]);
  }
}

// The sibling variation before (-1) or after (+1) the current one, at the
// nearest branch above the node shown.
function switchVariation(delta) {
  const d = review.data;
  if (!d) return;
  for (let n = review.at; d.nodes[n].parent !== null && d.nodes[n].parent !== undefined; n = d.nodes[n].parent) {
    const siblings = d.nodes[d.nodes[n].parent].children;
    if (siblings.length < 2) continue;
    const i = siblings.indexOf(n) + delta;
    if (i >= 0 && i < siblings.length) go(siblings[i]);
    return;
  }
}

function lastOfLine() {
  let n = review.at;
  while (review.data.nodes[n].children.length) n = review.data.nodes[n].children[0];
  go(n);
}

// A click (or Enter) on the board: the move of a child if it is one,
// else a new variation written into the record by the server.
async function playAt(v) {
  const d = review.data;
  // Read before the board is drawn again (which blurs the old one).
  const byPointer = review.boardOpts.pointer;
  const kid = d.nodes[review.at].children.find((c) => d.nodes[c].vertex === v);
  if (kid !== undefined) go(kid);
  else await edit({ kind: "play", node: review.at, vertex: v });
  // After a click, the keys step through the game again (on the focused
  // board they would move the keyboard cursor).
  if (byPointer && $("review-board").contains(document.activeElement)) document.activeElement.blur();
}

async function edit(change) {
  $("r-edit-error").textContent = "";
  try {
    const edited = await api("/api/review/edit", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ sgf: review.sgf, edit: change }) });
    const { sgf, at } = edited;
    const line = review.main.length;
    setReview(edited, sgf, at);
    // A move at the end of the main line lengthens it: another game to
    // the engine.
    if (review.main.length !== line) review.analysis = null;
    $("r-comment-box").hidden = true;
    renderReview();
    askAnalysis(false);
  } catch (e) {
    $("r-edit-error").textContent = errorText(e);
  }
}

// The compact tree: each line a row of move buttons, its variations
// indented below it, each labelled with its letter.
function buildTree() {
  const d = review.data, host = $("r-tree");
  host.replaceChildren();
  review.buttons = [];
  const todo = [{ start: 0, into: host }];
  while (todo.length) {
    const { start, into } = todo.pop();
    const row = document.createElement("div");
    row.className = "line";
    into.appendChild(row);
    const branches = document.createElement("div");
    branches.className = "branches";
    into.appendChild(branches);
    for (let n = start; n !== undefined; n = d.nodes[n].children[0]) {
      const node = d.nodes[n];
      const b = document.createElement("button");
      b.type = "button";
      b.className = "node" + (node.color ? " " + node.color : "") + (node.comment ? " commented" : "")
        + (node.error ? " broken" : "");
      b.dataset.node = n;
      b.textContent = n === 0 ? "0" : node.vertex === "pass" ? node.number + "·" : String(node.number);
      b.title = n === 0 ? t("move_n", { n: 0 }) : moveText(node);
      b.setAttribute("aria-label", b.title);
      b.addEventListener("click", () => go(n));
      review.buttons[n] = b;
      row.appendChild(b);
      node.children.slice(1).forEach((c, i) => {
        const box = document.createElement("div");
        box.className = "branch";
        const label = document.createElement("span");
        label.className = "var-label";
        label.textContent = LETTERS[i + 1];
        const content = document.createElement("div");
        content.className = "branch-lines";
        box.append(label, content);
        branches.appendChild(box);
        todo.push({ start: c, into: content });
      });
    }
  }
}

// ------------------------------------------------------------ analysis

function stopPolling() {
  if (review.polling) clearTimeout(review.polling);
  review.polling = null;
}

// Asks the server how far the analysis of the record has gone (starting
// it if `start`), and again while it runs.
async function askAnalysis(start) {
  stopPolling();
  const sgf = review.sgf;
  const have = review.analysis ? review.analysis.positions.length : 0;
  try {
    const got = await api("/api/review/analysis?start=" + (start ? 1 : 0) + "&since=" + have,
      { method: "POST", body: sgf });
    // The record changed meanwhile: the edit asks again.
    if (sgf !== review.sgf) return;
    const a = review.analysis || { positions: [] };
    for (const p of got.positions) a.positions[p.number] = p;
    Object.assign(a, { total: got.total, done: got.done, running: got.running, playouts: got.playouts,
      mistakes: got.mistakes });
    review.analysis = a;
    renderReview();
    if (got.running) review.polling = setTimeout(() => askAnalysis(false), POLL_MS);
  } catch (e) {
    $("r-progress-text").textContent = errorText(e);
  }
}


function lead(score) {
  const s = number(Math.abs(score), 1, true);
  return score >= 0 ? t("black_leads", { n: s }) : t("white_leads", { n: s });
}

function renderAnalysis() {
  const a = review.analysis;
  const progress = $("r-progress");
  const started = a && (a.done > 0 || a.running);
  progress.hidden = !started;
  $("r-analyse").hidden = !!(a && (a.running || (a.total > 0 && a.done >= a.total)));
  if (!started) {
    $("r-progress-text").textContent = "";
    $("r-graph").hidden = true;
    $("r-mistakes-box").hidden = true;
    $("r-eval").textContent = "";
    return;
  }
  progress.max = Math.max(1, a.total);
  progress.value = a.done;
  $("r-progress-text").textContent = a.running
    ? t("analysing", { n: a.done, total: a.total })
    : t("analysed", { n: a.done, total: a.total, p: a.playouts });
  renderGraph(a);
  renderMistakes(a);
  const pos = positionAt(review.at);
  const node = review.data.nodes[review.at];
  const before = node.number > 0 && review.main.includes(review.at) ? a.positions[node.number - 1] : null;
  const parts = [];
  if (pos) parts.push(t("black_chance", { p: percent(pos.winrate) }), lead(pos.score));
  if (before && before.best && before.best !== node.vertex) parts.push(t("engine_preferred", { v: before.best }));
  if (pos && pos.best && $("r-best").checked) parts.push(t("engine_next", { v: pos.pv.join(" ") }));
  $("r-eval").textContent = parts.join(" · ");
}

// The win-rate (solid) and score (dashed) graph of the main line; a click
// goes to that move.
function renderGraph(a) {
  const host = $("r-graph");
  host.hidden = false;
  const W = 600, H = 140, last = Math.max(1, a.total - 1);
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("graph_label"),
    "data-points": String(a.positions.filter(Boolean).length) });
  svgEl("rect", { x: 0, y: 0, width: W, height: H, fill: "#fbf8f0", stroke: "#d8cfb8" }, svg);
  svgEl("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: "#b9ad92", "stroke-dasharray": "4 4" }, svg);
  const x = (n) => (n / last) * W;
  const known = a.positions.filter(Boolean);
  const maxScore = Math.max(10, ...known.map((p) => Math.abs(p.score)));
  const wr = known.map((p) => `${x(p.number).toFixed(1)},${(H - p.winrate * H).toFixed(1)}`).join(" ");
  const sc = known.map((p) => `${x(p.number).toFixed(1)},${(H / 2 - (p.score / maxScore) * (H / 2)).toFixed(1)}`).join(" ");
  svgEl("polyline", { points: sc, fill: "none", stroke: "#8b2e16", "stroke-width": 1.5, "stroke-dasharray": "5 3",
    class: "score-line" }, svg);
  svgEl("polyline", { points: wr, fill: "none", stroke: "#111", "stroke-width": 2, class: "winrate-line" }, svg);
  for (const m of a.mistakes) {
    const p = a.positions[m.number];
    if (!p) continue;
    svgEl("circle", { cx: x(m.number), cy: H - p.winrate * H, r: 4, fill: m.color === "black" ? "#111" : "#fff",
      stroke: "#b00020", "stroke-width": 2, class: "mistake-dot" }, svg);
  }
  const node = review.data.nodes[review.at];
  svgEl("line", { x1: x(node.number), y1: 0, x2: x(node.number), y2: H, stroke: "#0a58ca", "stroke-width": 2,
    class: "graph-cursor" }, svg);
  svg.addEventListener("click", (ev) => {
    const r = svg.getBoundingClientRect();
    const n = Math.round(((ev.clientX - r.left) / r.width) * last);
    go(review.byNumber[Math.min(n, review.byNumber.length - 1)]);
  });
  host.replaceChildren(svg);
  const legend = document.createElement("p");
  legend.className = "hint";
  legend.textContent = t("graph_legend");
  host.appendChild(legend);
}

function renderMistakes(a) {
  const list = $("r-mistakes");
  list.replaceChildren();
  $("r-mistakes-box").hidden = a.mistakes.length === 0;
  for (const m of a.mistakes) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "mistake";
    b.dataset.number = m.number;
    b.textContent = t("mistake_line", { n: m.number, c: colorWord(m.color), v: m.vertex, p: percent(m.loss),
      s: number(Math.abs(m.score_loss), 1, true) }) + (m.best ? " — " + t("engine_preferred", { v: m.best }) : "");
    b.addEventListener("click", () => go(review.byNumber[m.number]));
    li.appendChild(b);
    list.appendChild(li);
  }
}

// ------------------------------------------------------------ start

function download() {
  const blob = new Blob([review.sgf], { type: "application/x-go-sgf" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  // Named after the record's players and date, as the server reads them.
  a.download = review.data.file_name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function onKey(ev) {
  if ($("reviewer").hidden || !review.data || ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.target.closest && ev.target.closest("input, textarea, select")) return;
  const action = { ArrowLeft: () => reviewStep(-1), ArrowRight: () => reviewStep(1),
    ArrowUp: () => switchVariation(-1), ArrowDown: () => switchVariation(1),
    Home: () => go(0), End: lastOfLine }[ev.key];
  if (!action) return;
  action();
  ev.preventDefault();
}

// Whether a record is loaded.
export function reviewing() { return review.data !== null; }

export function initReview() {
  $("sgf-file").addEventListener("change", (ev) => { if (ev.target.files[0]) loadReview(ev.target.files[0]); });
  $("r-first").addEventListener("click", () => go(0));
  $("r-prev").addEventListener("click", () => reviewStep(-1));
  $("r-next").addEventListener("click", () => reviewStep(1));
  $("r-last").addEventListener("click", lastOfLine);
  $("r-numbers").addEventListener("change", renderReview);
  $("r-best").addEventListener("change", renderReview);
  $("r-owner").addEventListener("change", renderReview);
  $("r-sgf").addEventListener("click", download);
  $("r-analyse").addEventListener("click", () => askAnalysis(true));
  $("r-comment-edit").addEventListener("click", () => {
    $("r-comment").value = review.data ? review.data.nodes[review.at].comment || "" : "";
    $("r-comment-box").hidden = false;
    $("r-comment").focus();
  });
  $("r-comment-cancel").addEventListener("click", () => { $("r-comment-box").hidden = true; });
  $("r-comment-save").addEventListener("click", () => edit({ kind: "comment", node: review.at, text: $("r-comment").value }));
  document.addEventListener("keydown", onKey);
}
