// The helpers during play, each a choice kept in this browser: the
// beginner's marks on chains in atari (on by default in the learning
// path's games, whose lessons teach them), move confirmation (on by default
// for boards of 13 and more on phones), sounds (off by default, made with
// WebAudio, no file), zoom, and the score estimate on request (the
// server's engine estimate, drawn as a territory preview until the next
// move).

import { $ } from "./page.js";
import { api } from "./connection.js";

const KEY = "tengen.helpers";
const saved = (() => { try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch (e) { return {}; } })();
const settings = Object.assign({ atari: null, confirm: null, sound: false }, saved);
const estimate = { data: null, busy: false };
let audio = null;

function store() { localStorage.setItem(KEY, JSON.stringify(settings)); }

function phone() {
  return window.matchMedia("(max-width: 820px)").matches || window.matchMedia("(pointer: coarse)").matches;
}

// Whether chains in atari are marked on board `v`: the choice made, or by
// default in a learning-path game.
export function markAtari(v) {
  if (settings.atari !== null) return settings.atari;
  return Boolean(v && v.lesson);
}

// Whether a move on board `v` waits for a confirmation: the choice made,
// or by default on phones for boards of 13 and more.
export function confirmMoves(v) {
  if (settings.confirm !== null) return settings.confirm;
  return phone() && Math.max(v.width, v.height) >= 13;
}

// A short click for a stone put, if sounds are on.
export function stoneSound() {
  if (!settings.sound) return;
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "triangle";
    osc.frequency.setValueAtTime(620, now);
    osc.frequency.exponentialRampToValueAtTime(180, now + 0.08);
    gain.gain.setValueAtTime(0.3, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.12);
    osc.connect(gain).connect(audio.destination);
    osc.start(now);
    osc.stop(now + 0.13);
  } catch (e) {
    // No audio on this device: silence is the default anyway.
  }
}

// The estimate of the position of view `v`, if one was asked for it.
export function currentEstimate(v) {
  return v && estimate.data && estimate.data.seq === v.seq && v.phase === "playing" ? estimate.data : null;
}

// Forgets the estimate (another game opened).
export function resetHelpers() { estimate.data = null; }

// Shows the choices for view `v`.
export function renderHelpers(v) {
  $("h-atari").checked = markAtari(v);
  $("h-sound").checked = settings.sound;
  if (v) $("h-confirm").checked = confirmMoves(v);
  $("b-estimate").disabled = !v || v.phase !== "playing" || estimate.busy;
}

// `redraw` redraws the game; `gameId` gives the game shown; `words`
// writes an estimate in words.
export function initHelpers(redraw, gameId, words) {
  $("h-atari").addEventListener("change", () => { settings.atari = $("h-atari").checked; store(); redraw(); });
  $("h-confirm").addEventListener("change", () => { settings.confirm = $("h-confirm").checked; store(); redraw(); });
  $("h-sound").addEventListener("change", () => { settings.sound = $("h-sound").checked; store(); });
  $("b-zoom").addEventListener("click", () => {
    const on = !$("board-wrap").classList.contains("zoomed");
    $("board-wrap").classList.toggle("zoomed", on);
    $("b-zoom").setAttribute("aria-pressed", String(on));
  });
  $("b-estimate").addEventListener("click", async () => {
    const id = gameId();
    if (!id) return;
    estimate.busy = true;
    redraw();
    try {
      estimate.data = await api("/api/games/" + id + "/estimate");
      $("estimate").textContent = words(estimate.data);
    } catch (e) {
      $("estimate").textContent = words(null, e);
    }
    estimate.busy = false;
    redraw();
  });
}
