// What every screen of the page shares: finding an element, which section
// shows, and moving to another address inside the page (what each address
// shows is app.js's router).

export const $ = (id) => document.getElementById(id);

export function show(section) {
  for (const s of ["home", "game", "reviewer", "lobby", "teach"]) $(s).hidden = s !== section;
}

let router = () => {};

// The function that shows the current address.
export function setRouter(f) { router = f; }

// Goes to `path` as a link would, without reloading the page.
export function go(path) {
  history.pushState({}, "", path);
  router();
}
