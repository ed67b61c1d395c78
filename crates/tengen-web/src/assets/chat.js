// The chat of the game shown and who is at it: the lines the server sends
// (the recent ones on arrival, then each new one), written by the players
// and read by everyone, each with its time; the names and presence of both
// seats beside the board. Every text a person wrote is put in as text,
// never as markup.

import { t, colorWord, errorText, clockTime } from "./i18n.js";
import { $ } from "./page.js";

const chat = { lines: [], presence: null, seat: "spectator", errorTimer: null };
// How long a refusal stays under the box: the rate allowance refills a
// line every 2 s, so by then the next line goes.
const ERROR_MS = 4000;

// Forgets the chat of the game left.
export function resetChat() {
  chat.lines = [];
  chat.presence = null;
  renderChat();
}

// This connection's seat, which says whether it may write.
export function setChatSeat(seat) {
  chat.seat = seat;
  renderChat();
}

// A `chat` message: lines, each once, in order.
export function onChat(msg) {
  for (const l of msg.lines) if (!chat.lines.some((x) => x.seq === l.seq)) chat.lines.push(l);
  chat.lines.sort((a, b) => a.seq - b.seq);
  renderChat();
}

// A `presence` message.
export function onPresence(msg) { chat.presence = msg; }

// Who is at the game (the last `presence` message).
export function presence() { return chat.presence; }

// A chat error, shown under the box for a few seconds.
export function chatError(msg) {
  $("chat-error").textContent = errorText(msg);
  clearTimeout(chat.errorTimer);
  chat.errorTimer = setTimeout(() => { $("chat-error").textContent = ""; }, ERROR_MS);
}

export function renderChat() {
  const ol = $("chat-lines");
  ol.replaceChildren();
  for (const l of chat.lines) {
    const li = document.createElement("li");
    li.className = "chat-line seat-" + l.seat;
    const who = document.createElement("b");
    who.className = "chat-name";
    const color = l.seat === "both" ? "" : colorWord(l.seat);
    who.textContent = l.name ? l.name + (color ? " (" + color + ")" : "") : color || t("seat_both_short");
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = l.text;
    const when = document.createElement("time");
    when.className = "chat-time";
    when.dateTime = new Date(l.at).toISOString();
    when.textContent = clockTime(l.at);
    li.append(when, " ", who, t("colon"), text);
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
  const writer = chat.seat !== "spectator";
  $("chat-form").hidden = !writer;
  $("chat").classList.toggle("reader", !writer);
}

// The names and presence of both seats of view `v` (the engine's seat is
// tengen's).
export function renderPresence(v) {
  for (const c of ["black", "white"]) {
    const box = $("who-" + c);
    box.replaceChildren();
    if (!v) continue;
    if (v.opponent.kind === "engine" && v.opponent.engine === c) { box.textContent = "tengen"; continue; }
    const p = chat.presence && chat.presence[c];
    if (!p) continue;
    const name = document.createElement("span");
    name.className = "who-name";
    name.textContent = p.name || "";
    const state = document.createElement("span");
    const word = p.online ? "online" : p.joined ? "away" : "not_joined";
    state.className = "presence " + word;
    state.textContent = t("presence_" + word);
    box.append(name, " ", state);
  }
}

// `send` sends a message on the game's socket.
export function initChat(send) {
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("chat-input").value;
    if (!text.trim()) return;
    $("chat-error").textContent = "";
    send({ type: "chat", text });
    $("chat-input").value = "";
  });
}
