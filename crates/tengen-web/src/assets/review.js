// Review of an SGF record: the server reads the record into the nodes of
// every variation, each with the stone it adds and those it captures; this
// steps through them, forward, back and across variations.

import { t, colorWord, errorText, presetName } from "./i18n.js";
import { $, show } from "./page.js";
import { api } from "./connection.js";
import { drawBoard, vertexXY } from "./board.js";

const review = { data: null, at: 0, boardOpts: {} };

async function loadReview(file) {
  $("review-error").textContent = "";
  try {
    const text = await file.text();
    review.data = await api("/api/review", { method: "POST", body: text });
    review.at = 0;
    review.boardOpts = {};
    show("reviewer");
    history.pushState({}, "", "/#review");
    renderReview();
  } catch (e) {
    $("review-error").textContent = errorText(e);
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

// Draws the node reviewed, if a record is loaded.
export function renderReview() {
  const d = review.data;
  if (!d) return;
  const node = d.nodes[review.at];
  const { board, numbers, last } = reviewBoard(review.at);
  drawBoard($("review-board"), d.width, d.height, board, Object.assign(review.boardOpts, {
    stars: d.star_points, last, numbers: $("b-numbers").checked ? numbers : null, liveId: "review-move", label: "goban",
  }));
  $("review-info").textContent = [d.black && (t("black") + " " + d.black), d.white && (t("white") + " " + d.white),
    d.rules_stated === false ? t("rules_unstated", { r: presetName(d.rules) }) : presetName(d.rules), t("komi") + " " + d.komi, d.result && (t("result") + " " + d.result)].filter(Boolean).join(" · ");
  $("review-move").textContent = node.vertex
    ? t("review_move", { n: node.number, m: node.vertex === "pass" ? t("passes", { c: colorWord(node.color) })
      : t("announce_play", { c: colorWord(node.color), v: node.vertex }) })
    : t("move_n", { n: 0 });
  $("review-comment").textContent = node.comment || "";
  const vars = $("r-vars");
  vars.replaceChildren();
  node.children.forEach((c, i) => {
    const o = document.createElement("option");
    const n = d.nodes[c];
    o.value = c;
    o.textContent = (i === 0 ? "▶ " : "") + (n.vertex || "—") + (n.color ? " (" + colorWord(n.color) + ")" : "");
    vars.appendChild(o);
  });
  vars.disabled = node.children.length < 2;
  const notes = $("review-notes");
  notes.replaceChildren();
  for (const n of d.notes) { const li = document.createElement("li"); li.textContent = n; notes.appendChild(li); }
}

function reviewStep(delta) {
  const d = review.data;
  if (!d) return;
  if (delta < 0) {
    const p = d.nodes[review.at].parent;
    if (p !== null && p !== undefined) review.at = p;
  } else {
    const kids = d.nodes[review.at].children;
    if (kids.length) review.at = parseInt($("r-vars").value || kids[0], 10);
  }
  renderReview();
}

// Whether a record is loaded.
export function reviewing() { return review.data !== null; }

export function initReview() {
  $("sgf-file").addEventListener("change", (ev) => { if (ev.target.files[0]) loadReview(ev.target.files[0]); });
  $("r-first").addEventListener("click", () => { review.at = 0; renderReview(); });
  $("r-prev").addEventListener("click", () => reviewStep(-1));
  $("r-next").addEventListener("click", () => reviewStep(1));
  $("r-last").addEventListener("click", () => {
    while (review.data && review.data.nodes[review.at].children.length) review.at = review.data.nodes[review.at].children[0];
    renderReview();
  });
}
