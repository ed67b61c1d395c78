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

let router = () => {};

// The function that shows the current address.
export function setRouter(f) { router = f; }

// Goes to `path` as a link would, without reloading the page.
export function go(path) {
  history.pushState({}, "", path);
  router();
}
