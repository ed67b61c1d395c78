// What every screen of the page shares: finding an element, which section
// shows, and moving to another address inside the page (what each address
// shows is app.js's router).

export const $ = (id) => document.getElementById(id);

export function show(section) {
  for (const s of ["home", "game", "reviewer", "lobby", "teach", "class"]) $(s).hidden = s !== section;
  learning(section === "teach");
}

// Whether the page shows the learning path (its screens or a step's game):
// then what a child needs nothing of (the name prompt, the chat, undo, the
// SGF download, the glossary's names of moves) stays out of sight.
export function learning(on) { document.body.classList.toggle("learning", on); }

// How often a list that others change (the lobby, a class) is asked again.
const REFRESH_MS = 4000;
const refreshing = {};

// Runs `load` now, then every few seconds while `section` shows and the
// tab is in view, so that what others do comes by itself; it stops once
// the section is left.
export function whileShown(section, load) {
  clearTimeout(refreshing[section]);
  const tick = async () => {
    if ($(section).hidden) return;
    if (document.visibilityState !== "hidden") await load();
    refreshing[section] = setTimeout(tick, REFRESH_MS);
  };
  return tick();
}

let router = () => {};

// The function that shows the current address.
export function setRouter(f) { router = f; }

// Goes to `path` as a link would, without reloading the page.
export function go(path) {
  history.pushState({}, "", path);
  router();
}
