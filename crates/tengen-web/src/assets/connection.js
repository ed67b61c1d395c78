// The server: its JSON API and the game's WebSocket (one at a time,
// reopened a second after it is lost). What the messages mean is game.js's.

import { go } from "./page.js";

export async function api(path, options) {
  const r = await fetch(path, options);
  const body = await r.json().catch(() => ({ code: "server", message: r.statusText }));
  if (!r.ok) throw body;
  return body;
}

// The seat tokens this browser holds, one per game: they are its seats,
// and their games are "my games".
const SEAT = "tengen.token.";

export function keepSeat(id, token) { localStorage.setItem(SEAT + id, token); }

export function seatOf(id) { return localStorage.getItem(SEAT + id); }

// The ids of the games this browser holds a seat of.
export function seatedGames() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k && k.startsWith(SEAT)) ids.push(k.slice(SEAT.length));
  }
  return ids;
}

// Creates a game from a new-game form, keeps its seat tokens in this
// browser and goes to its address.
export async function createGame(form) {
  const created = await api("/api/games", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(form) });
  keepSeat(created.id, created.token);
  if (created.invite) localStorage.setItem("tengen.invite." + created.id, created.invite);
  go("/g/" + created.id);
}

let socket = null;

// Opens the socket of game `id` (closing any other): `onMessage` receives
// each message read, `onLost` hears that the connection dropped. The seat
// token and the player's name (`nameOf()`, read at each connection) go in
// the first message, never in the address (which proxies and logs keep).
export function connect(id, token, nameOf, onMessage, onLost) {
  close();
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(proto + "//" + location.host + "/ws/" + id);
  socket = ws;
  ws.onopen = () => {
    const hello = { type: "hello" };
    if (token) hello.token = token;
    const name = nameOf();
    if (name) hello.name = name;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    if (socket !== ws) return;
    onLost();
    setTimeout(() => { if (socket === ws) connect(id, token, nameOf, onMessage, onLost); }, 1000);
  };
}

// Closes the socket without reopening it.
export function close() {
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
}

// Sends a request, if the socket is open.
export function send(msg) {
  if (socket && socket.readyState === 1) socket.send(JSON.stringify(msg));
}
