// The board in SVG: grid, star points, stones, move numbers, dead-stone
// and territory marks, the helpers' marks (the ko point, chains in atari,
// a stone waiting for confirmation), and the input layer (pointer and keyboard, labelled
// for screen readers). Where the star points go is the server's word; this
// module knows no rule of the game.

import { t } from "./i18n.js";

const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
const SVGNS = "http://www.w3.org/2000/svg";
const CELL = 40;

function vertexName(x, y, h) { return LETTERS[x] + (h - y); }
export function vertexXY(v, h) {
  const x = LETTERS.indexOf(v[0].toUpperCase());
  const y = h - parseInt(v.slice(1), 10);
  return [x, y];
}

// The centre of point (x, y) in the board's SVG coordinates, for what
// other modules draw over it.
export function boardPoint(x, y) {
  const m = CELL * 1.15;
  return [m + x * CELL, m + y * CELL];
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// Draws a board into `host`. `b` is one letter per point (. X O), row by
// row from the top; `o` holds the star points the server gives (vertices),
// the overlays and the input callbacks.
export function drawBoard(host, w, h, b, o) {
  const m = CELL * 1.15;
  const W = (w - 1) * CELL + 2 * m, H = (h - 1) * CELL + 2 * m;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "grid", tabindex: "0",
    "aria-label": o.label || "goban" });
  el("rect", { x: 0, y: 0, width: W, height: H, fill: "#dcb35c", rx: 6 }, svg);
  const px = (x) => boardPoint(x, 0)[0], py = (y) => boardPoint(0, y)[1];
  const grid = el("g", { stroke: "#3b2a12", "stroke-width": 1.2 }, svg);
  for (let x = 0; x < w; x++) el("line", { x1: px(x), y1: py(0), x2: px(x), y2: py(h - 1) }, grid);
  for (let y = 0; y < h; y++) el("line", { x1: px(0), y1: py(y), x2: px(w - 1), y2: py(y) }, grid);
  for (const v of o.stars || []) {
    const [x, y] = vertexXY(v, h);
    el("circle", { cx: px(x), cy: py(y), r: 4, fill: "#3b2a12", class: "star" }, svg);
  }
  const coords = el("g", { "font-size": 14, fill: "#3b2a12", "text-anchor": "middle", "aria-hidden": "true" }, svg);
  for (let x = 0; x < w; x++) {
    el("text", { x: px(x), y: m * 0.3 + 5 }, coords).textContent = LETTERS[x];
    el("text", { x: px(x), y: H - m * 0.3 + 5 }, coords).textContent = LETTERS[x];
  }
  for (let y = 0; y < h; y++) {
    el("text", { x: m * 0.3, y: py(y) + 5 }, coords).textContent = String(h - y);
    el("text", { x: W - m * 0.3, y: py(y) + 5 }, coords).textContent = String(h - y);
  }
  const defs = el("defs", {}, svg);
  const gb = el("radialGradient", { id: "gb", cx: "35%", cy: "35%", r: "65%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#666" }, gb);
  el("stop", { offset: "100%", "stop-color": "#111" }, gb);
  const gw = el("radialGradient", { id: "gw", cx: "35%", cy: "35%", r: "70%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#fff" }, gw);
  el("stop", { offset: "100%", "stop-color": "#d8d8d8" }, gw);

  const marks = el("g", {}, svg);
  const stones = el("g", {}, svg);
  const dead = new Set(o.dead || []);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x, c = b[i], v = vertexName(x, y, h);
    const own = o.map ? o.map[i] : null;
    if (c === "X" || c === "O") {
      const isDead = dead.has(v);
      el("circle", { cx: px(x), cy: py(y), r: CELL * 0.47, fill: c === "X" ? "url(#gb)" : "url(#gw)",
        stroke: "#000", "stroke-width": c === "X" ? 0 : 0.8, opacity: isDead ? 0.45 : 1,
        class: "stone-" + (c === "X" ? "black" : "white") + (isDead ? " dead" : ""), "data-v": v }, stones);
      const fg = c === "X" ? "#fff" : "#000";
      if (o.numbers && o.numbers[i]) {
        el("text", { x: px(x), y: py(y) + 5, "text-anchor": "middle", "font-size": o.numbers[i] > 99 ? 13 : 16,
          fill: fg, "aria-hidden": "true" }, stones).textContent = String(o.numbers[i]);
      } else if (o.last === v && !(o.labels && o.labels[v])) {
        // A letter on the stone says enough: a ring around it read as "@".
        el("circle", { cx: px(x), cy: py(y), r: CELL * 0.18, fill: "none", stroke: fg, "stroke-width": 2.5,
          class: "last-move", "data-v": v }, stones);
      }
      if (isDead) {
        el("path", { d: `M${px(x) - 9} ${py(y) - 9}L${px(x) + 9} ${py(y) + 9}M${px(x) + 9} ${py(y) - 9}L${px(x) - 9} ${py(y) + 9}`,
          stroke: "#b00020", "stroke-width": 3 }, stones);
      }
    }
    if (own === "b" || own === "w") {
      el("rect", { x: px(x) - 7, y: py(y) - 7, width: 14, height: 14, fill: own === "b" ? "#111" : "#fff",
        stroke: "#000", "stroke-width": 0.8, class: "territory-" + own }, marks);
    } else if (own === "B" || own === "W") {
      // An eye in seki: counted by area, not by territory; drawn as an
      // outlined diamond so it does not read as territory.
      el("path", { d: `M${px(x)} ${py(y) - 8}L${px(x) + 8} ${py(y)}L${px(x)} ${py(y) + 8}L${px(x) - 8} ${py(y)}Z`,
        fill: "none", stroke: own === "B" ? "#111" : "#fff", "stroke-width": 2.5, class: "seki-eye-" + own.toLowerCase() }, marks);
    } else if (own === "d") {
      el("circle", { cx: px(x), cy: py(y), r: 3.5, fill: "#8b2e16", class: "dame" }, marks);
    }
  }
  // The helpers' marks: the point the ko rule forbids now and the stone a
  // confirmation waits for (the rings of chains in atari: drawMarks).
  if (o.ko) {
    const [x, y] = vertexXY(o.ko, h);
    el("rect", { x: px(x) - 10, y: py(y) - 10, width: 20, height: 20, fill: "none", stroke: "#b00020",
      "stroke-width": 3, class: "ko", "data-v": o.ko }, marks);
  }
  if (o.pending) {
    const [x, y] = vertexXY(o.pending, h);
    el("circle", { cx: px(x), cy: py(y), r: CELL * 0.47, fill: o.pendingColor === "black" ? "#111" : "#fff",
      opacity: 0.6, stroke: "#0a58ca", "stroke-width": 3, class: "pending", "data-v": o.pending,
      "pointer-events": "none" }, stones);
  }
  drawMarks(svg, o, px, py, h, b, w);
  // The input layer: one cell per point, labelled for screen readers.
  const cells = el("g", { fill: "transparent" }, svg);
  const ghost = el("circle", { r: CELL * 0.47, opacity: 0.45, visibility: "hidden", "pointer-events": "none" }, svg);
  const cursor = el("rect", { width: CELL, height: CELL, fill: "none", stroke: "#0a58ca", "stroke-width": 3,
    rx: 4, class: "cursor", visibility: "hidden", "pointer-events": "none" }, svg);
  for (let y = 0; y < h; y++) {
    const row = el("g", { role: "row" }, cells);
    for (let x = 0; x < w; x++) {
      const i = y * w + x, v = vertexName(x, y, h);
      const r = el("rect", { x: px(x) - CELL / 2, y: py(y) - CELL / 2, width: CELL, height: CELL,
        role: "gridcell", "aria-label": pointLabel(v, b[i], dead.has(v), o.map ? o.map[i] : null) + markWords(v, o),
        "data-v": v, class: "pt" }, row);
      if (o.onPlay) {
        r.addEventListener("click", () => { o.cursor = [x, y]; o.onPlay(v); });
        r.addEventListener("pointerenter", () => {
          if (b[i] !== "." || !o.hoverColor) return;
          ghost.setAttribute("cx", px(x)); ghost.setAttribute("cy", py(y));
          ghost.setAttribute("fill", o.hoverColor === "black" ? "#111" : "#fff");
          ghost.setAttribute("visibility", "visible");
        });
        r.addEventListener("pointerleave", () => ghost.setAttribute("visibility", "hidden"));
      }
    }
  }
  // Keyboard: arrows move the cursor, Enter or Space plays. Where the
  // arrows already mean something else (the review's moves),
  // `o.cursorShift` leaves them to it and Shift+arrows move the cursor.
  const showCursor = () => {
    const [x, y] = o.cursor;
    cursor.setAttribute("x", px(x) - CELL / 2); cursor.setAttribute("y", py(y) - CELL / 2);
    cursor.setAttribute("visibility", "visible");
    const i = y * w + x, v = vertexName(x, y, h);
    const label = pointLabel(v, b[i], dead.has(v), o.map ? o.map[i] : null) + markWords(v, o);
    svg.setAttribute("aria-label", label);
    const live = document.getElementById(o.liveId || "cursor-label");
    if (live) live.textContent = label;
  };
  if (!o.cursor) o.cursor = [Math.floor(w / 2), Math.floor(h / 2)];
  // The cursor is for keyboard play: a click or a tap does not show it,
  // nor does the board redrawn after one (the focus moves to the new
  // board, and the old one's blur must not forget how it was reached).
  // Focus by the keyboard (Tab) shows it again.
  svg.addEventListener("pointerdown", () => { o.pointer = true; cursor.setAttribute("visibility", "hidden"); });
  svg.addEventListener("focus", () => { if (!o.pointer || svg.matches(":focus-visible")) showCursor(); });
  svg.addEventListener("blur", () => cursor.setAttribute("visibility", "hidden"));
  svg.addEventListener("keydown", (ev) => {
    o.pointer = false;
    const arrows = !o.cursorShift || ev.shiftKey;
    const d = arrows && { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
    if (d) {
      o.cursor = [Math.min(w - 1, Math.max(0, o.cursor[0] + d[0])), Math.min(h - 1, Math.max(0, o.cursor[1] + d[1]))];
      showCursor();
      ev.preventDefault();
    } else if ((ev.key === "Enter" || ev.key === " ") && o.onPlay) {
      o.onPlay(vertexName(o.cursor[0], o.cursor[1], h));
      ev.preventDefault();
    }
  });
  const hadFocus = host.contains(document.activeElement);
  host.replaceChildren(svg);
  if (hadFocus) { svg.focus(); if (!o.pointer) showCursor(); }
  return svg;
}

function pointLabel(v, c, isDead, own) {
  let s = v + ", ";
  if (c === "X") s += t("stone_black");
  else if (c === "O") s += t("stone_white");
  else if (own === "b") s += t("territory_b");
  else if (own === "w") s += t("territory_w");
  else if (own === "B") s += t("seki_eye_b");
  else if (own === "W") s += t("seki_eye_w");
  else if (own === "d") s += t("dame");
  else s += t("empty");
  if (isDead) s += ", " + t("dead_stone");
  return s;
}

// The marks of a teaching position: letters the texts name points by
// (`o.labels`, vertex to letter), the liberties of a chain (`o.liberties`)
// and a red ring round each stone of a chain in atari (`o.atari`).
function drawMarks(svg, o, px, py, h, b, w) {
  if (!o.labels && !o.liberties && !o.atari) return;
  const g = el("g", { "pointer-events": "none" }, svg);
  for (const v of o.atari || []) {
    const [x, y] = vertexXY(v, h);
    el("circle", { cx: px(x), cy: py(y), r: CELL * 0.5, fill: "none", stroke: "#d0021b", "stroke-width": 3.5,
      class: "atari", "data-v": v }, g);
  }
  for (const v of o.liberties || []) {
    const [x, y] = vertexXY(v, h);
    el("circle", { cx: px(x), cy: py(y), r: 7, fill: "#0a58ca", class: "liberty", "data-v": v }, g);
  }
  for (const v in o.labels || {}) {
    const [x, y] = vertexXY(v, h);
    const c = b[y * w + x];
    if (c === ".") el("circle", { cx: px(x), cy: py(y), r: 11, fill: "#dcb35c" }, g);
    // Upright and bold: an italic "a" in a ring read as "@" to children.
    el("text", { x: px(x), y: py(y) + 7, "text-anchor": "middle", "font-size": 22, "font-weight": "bold",
      "font-family": "sans-serif", fill: c === "X" ? "#fff" : "#000", class: "label", "data-v": v }, g).textContent = o.labels[v];
  }
}

// What a screen reader hears of those marks at `v`.
function markWords(v, o) {
  let s = "";
  if (o.labels && o.labels[v]) s += ", " + o.labels[v];
  if (o.liberties && o.liberties.includes(v)) s += ", " + t("liberty");
  if (o.atari && o.atari.includes(v)) s += ", " + t("in_atari");
  return s;
}
