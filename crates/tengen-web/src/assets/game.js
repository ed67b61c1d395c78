// The game screen: the board and panel of the game shown, kept up to date
// by the views its socket brings, and the player's requests. The rules are
// the server's: a click is sent, and the next view or an error answers it.

import { t, colorWord, errorText, number, presetName } from "./i18n.js";
import { $, show, go, learning } from "./page.js";
import * as connection from "./connection.js";
import { keepSeat, seatOf } from "./connection.js";
import { drawBoard } from "./board.js";
import { renderClocks } from "./clock.js";
import { renderCount, resultWords, estimateWords } from "./count.js";
import { renderLesson } from "./lessons.js";
import { lastMoveText } from "./names.js";
import { playerName } from "./player.js";
import { resetChat, setChatSeat, onChat, onPresence, presence, chatError, renderChat, renderPresence, initChat } from "./chat.js";
import { reviewRecord } from "./review.js";
import { markAtari, confirmMoves, stoneSound, currentEstimate, resetHelpers, renderHelpers, initHelpers } from "./helpers.js";

const state = { id: null, seat: "spectator", view: null, viewAt: 0, boardOpts: {}, pending: null, resigning: false };

// The errors that say the turn was not the player's: gone once it is.
const TURN_ERRORS = ["not_your_turn"];

// Shows game `id` and follows it on its socket; a link's `#t=` token
// becomes this browser's seat.
export function openGame(id) {
  state.id = id;
  state.view = null;
  state.boardOpts = {};
  state.pending = null;
  state.resigning = false;
  resetChat();
  resetHelpers();
  $("estimate").textContent = "";
  $("copied").textContent = "";
  $("chat-error").textContent = "";
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("t");
  if (fromLink) {
    keepSeat(id, fromLink);
    history.replaceState({}, "", "/g/" + id);
  }
  const token = seatOf(id);
  show("game");
  $("b-sgf").href = "/api/games/" + id + "/sgf";
  const invite = localStorage.getItem("tengen.invite." + id);
  $("invite").hidden = !invite;
  if (invite) {
    $("invite-url").value = location.origin + "/g/" + id + "#t=" + invite;
    $("watch-url").href = "/g/" + id;
    $("watch-url").textContent = location.origin + "/g/" + id;
  }
  connection.connect(id, token, playerName, onMessage, onLost);
}

// Tells the game shown the player's new name.
export function nameChanged(name) {
  if (state.view && state.seat !== "spectator") connection.send({ type: "name", name });
}

// What the server says on the game's socket.
function onMessage(msg) {
  if (msg.type === "welcome") { state.seat = msg.seat; clearMessage(); setChatSeat(msg.seat); }
  else if (msg.type === "view") {
    announce(state.view, msg);
    state.view = msg;
    state.viewAt = Date.now();
    state.pending = null;
    render();
  }
  else if (msg.type === "names") {
    if (state.view && msg.seq === state.view.seq) { state.view.names = msg.names; $("last-move").textContent = lastMoveText(state.view); }
  }
  else if (msg.type === "chat") onChat(msg);
  else if (msg.type === "presence") { onPresence(msg); render(); }
  else if (msg.type === "error") {
    if (msg.code.startsWith("chat_") || msg.code === "name_too_long") { chatError(msg); return; }
    $("message").textContent = errorText(msg);
    $("message").dataset.code = msg.code;
  }
}

function onLost() { $("message").textContent = t("disconnected"); }

function clearMessage() {
  $("message").textContent = "";
  delete $("message").dataset.code;
}

function send(msg) {
  clearMessage();
  connection.send(msg);
}

// Leaves the game shown, if any: its socket closes.
export function leaveGame() {
  connection.close();
  state.view = null;
  state.id = null;
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
  if (v.phase === "marking") { send({ type: "toggle_dead", vertex }); return; }
  if (canPlay() && confirmMoves(v) && state.pending !== vertex) {
    // The first tap shows the stone; a second tap there, or the button,
    // plays it.
    state.pending = vertex;
    render();
    return;
  }
  state.pending = null;
  send({ type: "play", vertex });
}

// Screen-reader announcement of the move just made, and its sound.
function announce(before, after) {
  if (!before || !after || after.move_number <= before.move_number || !after.last) return;
  let s = after.last === "pass" ? t("last_pass", { c: colorWord(after.last_color) })
    : t("announce_play", { c: colorWord(after.last_color), v: after.last });
  const caps = after.captures[after.last_color] - before.captures[after.last_color];
  if (caps > 0) s += ", " + t("announce_captures", { n: caps });
  $("status").setAttribute("aria-label", s);
  if (after.last !== "pass") stoneSound();
}

// A player of a game with a friend before the server has said who is
// there: whose turn it is would be said before knowing whether the friend
// has come.
function friendUnknown(v) {
  return !presence() && v.opponent.kind === "friend" && myColor() && state.seat !== "both";
}

// The friend invited has not opened the game yet.
function waitingForFriend(v) {
  const p = presence();
  const me = myColor();
  if (!p || v.opponent.kind !== "friend" || !me || state.seat === "both") return false;
  const other = me === "black" ? "white" : "black";
  return !p[other].joined;
}

// Territory is drawn only where the method counts it.
function countsTerritory(c) { return c.scoring !== "stones" && c.scoring !== "captures"; }

// The engine's dead stones are on their way: accepting before would count
// every stone alive.
function engineMarking(v) {
  return v.phase === "marking" && v.opponent.kind === "engine" && !v.proposer;
}

function statusText(v) {
  const engine = v.opponent.kind === "engine" ? v.opponent.engine : null;
  let status = "";
  if (v.phase === "playing") {
    if (friendUnknown(v)) return "";
    if (waitingForFriend(v)) {
      const other = myColor() === "black" ? "white" : "black";
      status = t("waiting_join", { c: colorWord(other) });
    } else if (engine && v.to_move === engine) status = t("engine_thinking");
    else if (canPlay()) status = t("your_turn", { c: colorWord(v.to_move) });
    else status = t("to_play", { c: colorWord(v.to_move) });
    if (v.undo_request && v.undo_request === myColor() && state.seat !== "both") status += " " + t("undo_waiting");
  } else if (v.phase === "marking") {
    status = t("marking");
    if (v.proposer) status += " " + t("proposed_by", { c: colorWord(v.proposer) });
    else if (engineMarking(v)) status += " " + t("engine_marking");
  } else if (v.result) {
    status = t("result") + t("colon") + resultWords(v.result) + " (" + v.result.sgf + ")";
  }
  return status;
}

// Draws the game as the last view shows it (nothing before the first).
export function render() {
  const v = state.view;
  if (!v) return;
  if (canPlay() && TURN_ERRORS.includes($("message").dataset.code)) clearMessage();
  const showCount = v.count && (v.phase === "marking" || v.phase === "over") && countsTerritory(v.count);
  const est = currentEstimate(v);
  const map = showCount ? v.count.map : est && countsTerritory(est.count) ? est.count.map : null;
  drawBoard($("board"), v.width, v.height, v.board, Object.assign(state.boardOpts, {
    stars: v.star_points,
    last: v.last && v.last !== "pass" ? v.last : null,
    numbers: $("b-numbers").checked ? v.numbers : null,
    dead: est ? est.dead : v.dead,
    map,
    ko: v.phase === "playing" ? v.ko : null,
    atari: markAtari(v) && v.phase === "playing" ? v.atari : [],
    pending: state.pending,
    pendingColor: v.to_move,
    hoverColor: canPlay() ? v.to_move : null,
    onPlay: onBoardClick,
    label: "goban " + v.width + "×" + v.height,
  }));
  $("caps-black").textContent = v.captures.black;
  $("caps-white").textContent = v.captures.white;
  $("p-black").classList.toggle("to-move", v.phase === "playing" && v.to_move === "black");
  $("p-white").classList.toggle("to-move", v.phase === "playing" && v.to_move === "white");
  $("status").textContent = statusText(v);
  $("last-move").textContent = lastMoveText(v);
  const player = state.seat !== "spectator";
  const playing = player && v.phase !== "over";
  // Once play stops the board is for marking: only accept and dispute.
  $("play-buttons").hidden = !playing || state.resigning || v.phase === "marking";
  $("resign-confirm").hidden = !playing || !state.resigning;
  $("b-pass").disabled = !canPlay();
  $("move-confirm").hidden = !state.pending;
  if (state.pending) $("move-confirm-text").textContent = t("confirm_where", { v: state.pending });
  const asked = v.undo_request && state.seat !== "both" && v.undo_request !== state.seat && player;
  $("undo-answer").hidden = !asked;
  $("mark-buttons").hidden = !player || v.phase !== "marking";
  $("b-accept-dead").disabled = engineMarking(v);
  $("over-buttons").hidden = v.phase !== "over";
  // An ended game needs no opponent: its invitation goes.
  if (v.phase === "over") $("invite").hidden = true;
  $("seat").textContent = t("seat_" + state.seat);
  $("game-info").textContent = `${presetName(v.rules)} · ${v.width}×${v.height} · ${t("komi")} ${number(v.komi)}` +
    (v.handicap ? ` · ${t("handicap")} ${v.handicap}` : "") + ` · ${t("move_n", { n: v.move_number })}`;
  if (!est) $("estimate").textContent = "";
  renderCount(v);
  renderLesson(v);
  learning(Boolean(v.lesson));
  renderPresence(v);
  renderHelpers(v);
  tickClocks();
}

// Redraws what depends on the language (the chat's seat names too).
export function renderWords() {
  render();
  renderChat();
  const est = currentEstimate(state.view);
  if (est) $("estimate").textContent = estimateWords(est);
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    $("copied").textContent = t("copied");
  } catch (e) {
    $("copied").textContent = t("copy_failed");
  }
}

// Opens the finished game in the review: its record as the server writes
// it (players, date, result), at its last move; the game's socket closes.
async function reviewGame() {
  try {
    const r = await fetch("/api/games/" + state.id + "/sgf");
    if (!r.ok) throw await r.json().catch(() => ({ code: "server", message: r.statusText }));
    await reviewRecord(await r.text());
    go("/#review");
  } catch (e) {
    $("message").textContent = errorText(e);
  }
}

export function initGame() {
  $("b-pass").addEventListener("click", () => send({ type: "pass" }));
  $("b-undo").addEventListener("click", () => send({ type: "undo" }));
  $("b-resign").addEventListener("click", () => { state.resigning = true; render(); $("b-resign-no").focus(); });
  $("b-resign-no").addEventListener("click", () => { state.resigning = false; render(); });
  $("b-resign-yes").addEventListener("click", () => { state.resigning = false; send({ type: "resign" }); render(); });
  $("b-move-yes").addEventListener("click", () => { if (state.pending) onBoardClick(state.pending); });
  $("b-move-no").addEventListener("click", () => { state.pending = null; render(); });
  $("b-accept-undo").addEventListener("click", () => send({ type: "accept_undo" }));
  $("b-decline-undo").addEventListener("click", () => send({ type: "decline_undo" }));
  $("b-accept-dead").addEventListener("click", () => send({ type: "accept_dead" }));
  $("b-dispute").addEventListener("click", () => send({ type: "dispute" }));
  $("b-review").addEventListener("click", reviewGame);
  $("b-copy-invite").addEventListener("click", () => copy($("invite-url").value));
  $("b-copy-watch").addEventListener("click", () => copy($("watch-url").textContent));
  initChat((msg) => connection.send(msg));
  initHelpers(render, () => state.id, estimateWords);
}
