// The game screen: the board and panel of the game shown, kept up to date
// by the views its socket brings, and the player's requests. The rules are
// the server's: a click is sent, and the next view or an error answers it.

import { t, colorWord, errorText, language } from "./i18n.js";
import { $, show } from "./page.js";
import * as connection from "./connection.js";
import { drawBoard } from "./board.js";
import { renderClocks } from "./clock.js";
import { renderCount, resultWords } from "./count.js";
import { renderLesson } from "./lessons.js";
import { lastMoveText } from "./names.js";

const state = { seat: "spectator", view: null, viewAt: 0, boardOpts: {} };

// Shows game `id` and follows it on its socket; a link's `#t=` token
// becomes this browser's seat.
export function openGame(id) {
  state.view = null;
  state.boardOpts = {};
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("t");
  if (fromLink) {
    localStorage.setItem("tengen.token." + id, fromLink);
    history.replaceState({}, "", "/g/" + id);
  }
  const token = localStorage.getItem("tengen.token." + id);
  show("game");
  $("b-sgf").href = "/api/games/" + id + "/sgf";
  const invite = localStorage.getItem("tengen.invite." + id);
  $("invite").hidden = !invite;
  if (invite) {
    $("invite-url").value = location.origin + "/g/" + id + "#t=" + invite;
    $("watch-url").href = "/g/" + id;
    $("watch-url").textContent = location.origin + "/g/" + id;
  }
  connection.connect(id, token, onMessage, onLost);
}

// What the server says on the game's socket.
function onMessage(msg) {
  if (msg.type === "welcome") { state.seat = msg.seat; $("message").textContent = ""; }
  else if (msg.type === "view") { announce(state.view, msg); state.view = msg; state.viewAt = Date.now(); render(); }
  else if (msg.type === "names") {
    if (state.view && msg.seq === state.view.seq) { state.view.names = msg.names; $("last-move").textContent = lastMoveText(state.view); }
  }
  else if (msg.type === "error") { $("message").textContent = errorText(msg); $("message").dataset.code = msg.code; }
}

function onLost() { $("message").textContent = t("disconnected"); }

function send(msg) {
  $("message").textContent = "";
  delete $("message").dataset.code;
  connection.send(msg);
}

// Leaves the game shown, if any: its socket closes.
export function leaveGame() {
  connection.close();
  state.view = null;
}

// Redraws the clocks (between views, as time passes).
export function tickClocks() { renderClocks(state.view, state.viewAt); }

function myColor() {
  const v = state.view;
  if (state.seat === "black" || state.seat === "white") return state.seat;
  if (state.seat === "both" && v) return v.to_move;
  return null;
}

function canPlay() {
  const v = state.view;
  return v && v.phase === "playing" && myColor() === v.to_move;
}

function onBoardClick(vertex) {
  const v = state.view;
  if (!v) return;
  if (v.phase === "marking") send({ type: "toggle_dead", vertex });
  else send({ type: "play", vertex });
}

// Screen-reader announcement of the move just made.
function announce(before, after) {
  if (!before || !after || after.move_number <= before.move_number || !after.last) return;
  let s = after.last === "pass" ? t("last_pass", { c: colorWord(after.last_color) })
    : t("announce_play", { c: colorWord(after.last_color), v: after.last });
  const caps = after.captures[after.last_color] - before.captures[after.last_color];
  if (caps > 0) s += ", " + t("announce_captures", { n: caps });
  $("status").setAttribute("aria-label", s);
}

// Draws the game as the last view shows it (nothing before the first).
export function render() {
  const v = state.view;
  if (!v) return;
  const showCount = v.count && (v.phase === "marking" || v.phase === "over");
  drawBoard($("board"), v.width, v.height, v.board, Object.assign(state.boardOpts, {
    stars: v.star_points,
    last: v.last && v.last !== "pass" ? v.last : null,
    numbers: $("b-numbers").checked ? v.numbers : null,
    dead: v.dead,
    map: showCount ? v.count.map : null,
    hoverColor: canPlay() ? v.to_move : null,
    onPlay: onBoardClick,
    label: "goban " + v.width + "×" + v.height,
  }));
  $("caps-black").textContent = v.captures.black;
  $("caps-white").textContent = v.captures.white;
  $("p-black").classList.toggle("to-move", v.phase === "playing" && v.to_move === "black");
  $("p-white").classList.toggle("to-move", v.phase === "playing" && v.to_move === "white");
  const engine = v.opponent.kind === "engine" ? v.opponent.engine : null;
  let status = "";
  if (v.phase === "playing") {
    if (engine && v.to_move === engine) status = t("engine_thinking");
    else if (canPlay()) status = t("your_turn", { c: colorWord(v.to_move) });
    else status = t("to_play", { c: colorWord(v.to_move) });
    if (v.undo_request && v.undo_request === myColor() && state.seat !== "both") status += " " + t("undo_waiting");
  } else if (v.phase === "marking") {
    status = t("marking");
    if (v.proposer) status += " " + t("proposed_by", { c: colorWord(v.proposer) });
  } else if (v.result) {
    status = t("result") + (language() === "fr" ? " : " : ": ") + resultWords(v.result) + " (" + v.result.sgf + ")";
  }
  $("status").textContent = status;
  $("last-move").textContent = lastMoveText(v);
  const player = state.seat !== "spectator";
  $("play-buttons").hidden = !player || v.phase === "over";
  $("b-pass").disabled = !canPlay();
  const asked = v.undo_request && state.seat !== "both" && v.undo_request !== state.seat && player;
  $("undo-answer").hidden = !asked;
  $("mark-buttons").hidden = !player || v.phase !== "marking";
  $("seat").textContent = t("seat_" + state.seat);
  $("game-info").textContent = `${v.rules} · ${v.width}×${v.height} · ${t("komi")} ${v.komi}` +
    (v.handicap ? ` · ${t("handicap")} ${v.handicap}` : "") + ` · ${t("move_n", { n: v.move_number })}`;
  renderCount(v);
  renderLesson(v);
  tickClocks();
}

export function initGame() {
  $("b-pass").addEventListener("click", () => send({ type: "pass" }));
  $("b-undo").addEventListener("click", () => send({ type: "undo" }));
  $("b-resign").addEventListener("click", () => send({ type: "resign" }));
  $("b-accept-undo").addEventListener("click", () => send({ type: "accept_undo" }));
  $("b-decline-undo").addEventListener("click", () => send({ type: "decline_undo" }));
  $("b-accept-dead").addEventListener("click", () => send({ type: "accept_dead" }));
  $("b-dispute").addEventListener("click", () => send({ type: "dispute" }));
}
