// tengen web board: the SVG board, the game socket, the forms, the review
// mode and the learning path, in French and English. No dependencies.
"use strict";

// ---------------------------------------------------------------- words

const WORDS = {
  en: {
    nav_new: "New game", nav_learn: "Learn", nav_review: "Review",
    new_game: "New game", rules: "Rules", board_size: "Board size", custom: "Custom",
    komi: "Komi", handicap: "Handicap", placement: "Handicap placement",
    fixed: "Fixed", free: "Free", stones_placeholder: "stones, e.g. D4 F6",
    opponent: "Opponent", opp_engine: "tengen (engine)", opp_same: "A friend on this screen",
    opp_friend: "A friend elsewhere (invitation link)", strength: "Strength",
    easy: "easy", medium: "medium", strong: "strong", beginner: "beginner", my_color: "I play",
    black: "Black", white: "White", clock: "Clock", clock_none: "none",
    clock_absolute: "absolute", clock_byo_yomi: "byo-yomi", clock_canadian: "Canadian",
    clock_fischer: "Fischer", main_min: "Main time (min)", periods: "Periods",
    stones_per_period: "Stones per period", period_s: "Period (s)", increment_s: "Increment (s)",
    create: "Start the game", learn_title: "Learn to play",
    learn_intro: "Four steps against tengen on a small board. Win a step to open the next.",
    review_title: "Review a record",
    review_intro: "Open an SGF file to step through its moves and variations.",
    captures: "Captures", pass: "Pass", undo: "Undo", resign: "Resign",
    undo_asked: "Your opponent asks to take back a move.", accept: "Accept", decline: "Decline",
    marking_help: "Click a chain to mark it dead or alive, then accept. Dispute to resume play.",
    accept_dead: "Accept the dead stones", dispute: "Dispute (resume play)",
    move_numbers: "Move numbers", download_sgf: "Download SGF",
    invite_link: "Invitation link (send it to your opponent)", watch_link: "Spectators",
    variations: "Variations",
    to_play: "{c} to play", your_turn: "Your turn ({c})", engine_thinking: "tengen is thinking…",
    marking: "Play has stopped: agree on the dead stones.",
    proposed_by: "Dead stones proposed by {c}.", waiting_accept: "Waiting for your opponent to accept.",
    undo_waiting: "Undo requested: waiting for your opponent.",
    seat_black: "You play Black.", seat_white: "You play White.",
    seat_both: "Both players on this screen.", seat_spectator: "You are watching (spectator).",
    last_move: "Last move: {c} {v}", last_pass: "Last move: {c} passes", move_n: "move {n}",
    stone_black: "black stone", stone_white: "white stone", empty: "empty",
    dead_stone: "dead", territory_b: "Black's territory", territory_w: "White's territory",
    dame: "dame (neutral point)",
    announce_play: "{c} plays {v}", announce_captures: "{n} stones captured",
    result: "Result", wins_by: "{c} wins by {p} points", wins_resign: "{c} wins by resignation",
    wins_time: "{c} wins on time", wins_forfeit: "{c} wins by forfeit",
    wins_captures: "{c} wins by capture", draw: "Draw (jigo)",
    void: "No result: the same position occurred a fourth time",
    count_title: "The count", count_provisional: "Count if these stones are dead",
    stones_on_board: "Stones on the board", territory: "Territory", dame_row: "Dame",
    dame_both: "Dame (counted for both)", dame_half: "Dame (half each)", seki: "Eyes in seki (not counted)",
    prisoners: "Prisoners (captures + dead stones)", dead_removed: "Dead stones removed",
    total: "Total", area: "Area (stones + territory)", margin: "Margin",
    chinese_count: "Chinese count: Black {b} points against {t}: {m} stones",
    quick_count: "FFG quick count (pass stones)", held: "Stones to fill with",
    pass_stones: "of which pass stones", remaining: "Territory left", quick_margin: "Quick-count margin",
    method_area_dame_nobody: "Area counting: stones + territory",
    method_area_dame_both: "Area counting, dame counted for both (New Zealand)",
    method_area_dame_shared: "Area counting, dame shared (Chinese)",
    method_stones: "Stones on the board (Strasbourg)",
    method_territory: "Territory + prisoners (Japanese)", method_captures: "Captures",
    lesson: "Step {n}", lesson_play: "Play this step", lesson_locked: "Locked: win the step before",
    lesson_won: "Step won! The next step is open.", lesson_lost: "Not this time: try again!",
    lesson_done: "won", back_to_path: "Back to the learning path", play_again: "Play again",
    lesson_1_title: "The first capture",
    lesson_1: "The board starts empty. Black plays first by putting a stone on an intersection; then the players take turns. A stone once put is never moved, but it can be captured: surround it. The lines leaving a stone are its liberties; stones joined by a line form a chain. A chain with no liberty left is captured. The first player to capture an opponent's chain wins.",
    lesson_2_title: "Capture five stones",
    lesson_2: "Captured stones are taken off the board and the game goes on. The game ends as soon as a player has captured at least five stones in all. Suicide is forbidden: you may not play where your own chain would have no liberty, unless the move captures an opponent's chain.",
    lesson_3_title: "Go counted by stones",
    lesson_3: "Now the goal is to have the most stones of your colour on the board. On each turn you may pass. The game ends when both players pass one after the other; whoever then has more stones on the board wins. A group with two eyes can never be captured. Ko: after a stone takes in a ko, the other player must wait one turn before taking back.",
    lesson_4_title: "Go with territory",
    lesson_4: "Go is a game of conquering space: the players share an empty board, each trying to control the larger part. At the end, both agree on the dead stones, which are removed; each player counts his stones and the empty points he surrounds (his territory). White receives komi for playing second.",
    rule_desc_fr_only: "",
    err_occupied: "The point is occupied.",
    err_off_board: "The point is off the board.",
    err_suicide: "Suicide is forbidden: the stone would have no liberty and capture nothing.",
    err_single_stone_suicide: "Single-stone suicide is forbidden.",
    err_ko: "Ko: the ko may not be retaken at once; play elsewhere first (simple ko rule).",
    err_positional_superko: "Superko (positional): the move would recreate an earlier board position.",
    err_situational_superko: "Superko (situational): the move would recreate a position that stood with your opponent to move.",
    err_natural_situational_superko: "Superko (natural situational): the move would recreate a position you already made.",
    err_game_over: "The game is over.",
    err_wrong_phase: "Play has stopped: agree on the dead stones, or dispute to resume play.",
    err_not_your_turn: "It is not your turn.",
    err_spectator: "Spectators cannot play.",
    err_no_request: "There is no request to answer.",
    err_pending: "A request is already waiting for an answer.",
    err_end_wrong_phase: "Not possible at this stage of the game.",
    err_not_a_stone: "There is no stone there.",
    err_no_proposal: "There is no proposal from your opponent to accept.",
    err_no_agreement: "Under these rules play stops only after two passes.",
    err_nothing_to_undo: "There is no move to take back.",
    err_malformed: "The server could not read the message.",
    err_too_large: "The message is too large.",
    err_invalid: "Invalid setting: {m}",
    err_no_game: "There is no such game.",
    err_sgf: "The SGF file could not be read: {m}",
    err_server: "The server failed: {m}",
    disconnected: "Connection lost: reconnecting…",
    copy: "Copy",
  },
  fr: {
    nav_new: "Nouvelle partie", nav_learn: "Apprendre", nav_review: "Revoir",
    new_game: "Nouvelle partie", rules: "Règles", board_size: "Taille du goban", custom: "Autre",
    komi: "Komi", handicap: "Handicap", placement: "Placement du handicap",
    fixed: "Fixe", free: "Libre", stones_placeholder: "pierres, par ex. D4 F6",
    opponent: "Adversaire", opp_engine: "tengen (programme)", opp_same: "Un ami sur cet écran",
    opp_friend: "Un ami ailleurs (lien d'invitation)", strength: "Force",
    easy: "facile", medium: "moyen", strong: "fort", beginner: "débutant", my_color: "Je joue",
    black: "Noir", white: "Blanc", clock: "Pendule", clock_none: "aucune",
    clock_absolute: "temps absolu", clock_byo_yomi: "byo-yomi", clock_canadian: "canadien",
    clock_fischer: "Fischer", main_min: "Temps principal (min)", periods: "Périodes",
    stones_per_period: "Pierres par période", period_s: "Période (s)", increment_s: "Incrément (s)",
    create: "Commencer la partie", learn_title: "Apprendre à jouer",
    learn_intro: "Quatre étapes contre tengen sur un petit goban. Gagnez une étape pour ouvrir la suivante.",
    review_title: "Revoir une partie",
    review_intro: "Ouvrez un fichier SGF pour en parcourir les coups et les variantes.",
    captures: "Prisonniers", pass: "Passer", undo: "Annuler le coup", resign: "Abandonner",
    undo_asked: "Votre adversaire demande à reprendre un coup.", accept: "Accepter", decline: "Refuser",
    marking_help: "Cliquez sur une chaîne pour la marquer morte ou vivante, puis acceptez. Contestez pour reprendre le jeu.",
    accept_dead: "Accepter les pierres mortes", dispute: "Contester (reprendre le jeu)",
    move_numbers: "Numéros des coups", download_sgf: "Télécharger le SGF",
    invite_link: "Lien d'invitation (à envoyer à votre adversaire)", watch_link: "Spectateurs",
    variations: "Variantes",
    to_play: "{c} joue", your_turn: "À vous ({c})", engine_thinking: "tengen réfléchit…",
    marking: "Le jeu est arrêté : mettez-vous d'accord sur les pierres mortes.",
    proposed_by: "Pierres mortes proposées par {c}.", waiting_accept: "En attente de l'accord de votre adversaire.",
    undo_waiting: "Reprise demandée : en attente de votre adversaire.",
    seat_black: "Vous jouez Noir.", seat_white: "Vous jouez Blanc.",
    seat_both: "Les deux joueurs sur cet écran.", seat_spectator: "Vous regardez la partie (spectateur).",
    last_move: "Dernier coup : {c} {v}", last_pass: "Dernier coup : {c} passe", move_n: "coup {n}",
    stone_black: "pierre noire", stone_white: "pierre blanche", empty: "vide",
    dead_stone: "morte", territory_b: "territoire noir", territory_w: "territoire blanc",
    dame: "dame (point neutre)",
    announce_play: "{c} joue {v}", announce_captures: "{n} pierres capturées",
    result: "Résultat", wins_by: "{c} gagne de {p} points", wins_resign: "{c} gagne par abandon",
    wins_time: "{c} gagne au temps", wins_forfeit: "{c} gagne par forfait",
    wins_captures: "{c} gagne par prise", draw: "Partie nulle (jigo)",
    void: "Pas de résultat : la même position est apparue une quatrième fois",
    count_title: "Le décompte", count_provisional: "Décompte si ces pierres sont mortes",
    stones_on_board: "Pierres sur le goban", territory: "Territoire", dame_row: "Dame",
    dame_both: "Dame (comptés pour les deux)", dame_half: "Dame (moitié chacun)", seki: "Yeux en seki (non comptés)",
    prisoners: "Prisonniers (prises + pierres mortes)", dead_removed: "Pierres mortes retirées",
    total: "Total", area: "Surface (pierres + territoire)", margin: "Écart",
    chinese_count: "Décompte chinois : Noir {b} points contre {t} : {m} pierres",
    quick_count: "Décompte rapide FFG (pierres de passe)", held: "Pierres pour remplir",
    pass_stones: "dont pierres de passe", remaining: "Territoire restant", quick_margin: "Écart au décompte rapide",
    method_area_dame_nobody: "Décompte par surface : pierres + territoire",
    method_area_dame_both: "Surface, dame comptés pour les deux (Nouvelle-Zélande)",
    method_area_dame_shared: "Surface, dame partagés (règle chinoise)",
    method_stones: "Pierres sur le goban (règle strasbourgeoise)",
    method_territory: "Territoire + prisonniers (règle japonaise)", method_captures: "Prises",
    lesson: "Étape {n}", lesson_play: "Jouer cette étape", lesson_locked: "Fermée : gagnez l'étape précédente",
    lesson_won: "Étape gagnée ! L'étape suivante est ouverte.", lesson_lost: "Pas cette fois : recommencez !",
    lesson_done: "gagnée", back_to_path: "Retour au parcours", play_again: "Rejouer",
    lesson_1_title: "Le jeu de la première prise",
    lesson_1: "Au départ le plateau est vide. Noir commence en posant une pierre sur une intersection ; les coups sont ensuite joués à tour de rôle. Une fois posée, une pierre ne peut plus être déplacée, mais elle peut être capturée : il faut l'encercler. Les petits traits qui partent d'une pierre sont ses libertés ; des pierres reliées par un trait forment une chaîne. Une chaîne qui n'a plus de liberté est capturée. Le vainqueur est le joueur qui réussit le premier à capturer une chaîne adverse.",
    lesson_2_title: "Capturer cinq pierres",
    lesson_2: "Lorsque des pierres sont capturées, on les retire du jeu et la partie continue. La partie est terminée dès qu'un joueur a capturé au moins cinq pierres, au total. Le suicide est interdit : il est interdit de jouer à un endroit où sa propre chaîne n'aurait aucune liberté, sauf si ce coup permet de capturer une chaîne adverse.",
    lesson_3_title: "Le go compté par les pierres",
    lesson_3: "Le but est maintenant d'avoir le plus de pierres de sa couleur sur le plateau. À chaque coup, le joueur peut passer. La partie est terminée lorsque les deux joueurs passent consécutivement ; le vainqueur est celui qui a alors le plus de pierres sur le plateau. Un groupe qui a deux yeux est imprenable. Le ko : après la première prise, le second joueur doit attendre un tour avant de pouvoir reprendre.",
    lesson_4_title: "Le go avec territoire",
    lesson_4: "Le jeu de go est un jeu de conquête d'espace : les deux joueurs se partagent un territoire initialement vide en essayant d'en contrôler la plus grande partie. À la fin, les joueurs s'accordent sur les pierres mortes, qui sont retirées ; chacun compte ses pierres et les intersections vides qu'il entoure (son territoire). Blanc reçoit le komi parce qu'il joue en second.",
    err_occupied: "L'intersection est occupée.",
    err_off_board: "L'intersection est hors du goban.",
    err_suicide: "Le suicide est interdit : la pierre n'aurait aucune liberté et ne prendrait rien.",
    err_single_stone_suicide: "Le suicide d'une seule pierre est interdit.",
    err_ko: "Ko : on ne peut pas reprendre le ko tout de suite ; il faut d'abord jouer ailleurs (règle du ko simple).",
    err_positional_superko: "Superko (positionnel) : le coup recréerait une position déjà vue.",
    err_situational_superko: "Superko (situationnel) : le coup recréerait une position déjà vue avec votre adversaire au trait.",
    err_natural_situational_superko: "Superko (situationnel naturel) : le coup recréerait une position que vous avez déjà donnée.",
    err_game_over: "La partie est terminée.",
    err_wrong_phase: "Le jeu est arrêté : mettez-vous d'accord sur les pierres mortes, ou contestez pour reprendre.",
    err_not_your_turn: "Ce n'est pas votre tour.",
    err_spectator: "Les spectateurs ne peuvent pas jouer.",
    err_no_request: "Il n'y a pas de demande à laquelle répondre.",
    err_pending: "Une demande attend déjà une réponse.",
    err_end_wrong_phase: "Impossible à ce stade de la partie.",
    err_not_a_stone: "Il n'y a pas de pierre ici.",
    err_no_proposal: "Votre adversaire n'a pas fait de proposition à accepter.",
    err_no_agreement: "Avec ces règles, le jeu s'arrête seulement après deux passes.",
    err_nothing_to_undo: "Il n'y a aucun coup à reprendre.",
    err_malformed: "Le serveur n'a pas pu lire le message.",
    err_too_large: "Le message est trop long.",
    err_invalid: "Réglage invalide : {m}",
    err_no_game: "Cette partie n'existe pas.",
    err_sgf: "Le fichier SGF n'a pas pu être lu : {m}",
    err_server: "Le serveur a échoué : {m}",
    disconnected: "Connexion perdue : reconnexion…",
    copy: "Copier",
  },
};

// One-line descriptions of the presets in French (English from the server).
const PRESETS_FR = {
  "nz": "Nouvelle-Zélande 1978 : surface, régions partagées comptées pour les deux, suicide permis, superko situationnel, arrêt par accord, komi 7",
  "chinese": "Chinoise 2002 : surface, dame partagés, pas de suicide, pas de répétition de position, Noir doit dépasser 184,25 en 19x19",
  "ffg": "Fédération française : surface, pas de suicide, un joueur ne peut recréer une position qu'il a donnée, komi 7,5, décompte rapide",
  "strasbourg": "Strasbourg, jeu 3 : après deux passes, le plus de pierres sur le goban gagne, ko simple",
  "first-capture": "Strasbourg, jeu 1 : le premier joueur qui capture une chaîne gagne",
  "capture-five": "Strasbourg, jeu 2 : le premier à capturer cinq pierres au total gagne",
  "tromp-taylor": "Tromp-Taylor : surface, suicide permis, superko positionnel, deux passes",
  "aga": "AGA : surface avec pierres de passe, superko situationnel, pas de suicide, komi 7,5",
  "japanese": "Japonaise : territoire et prisonniers, ko simple (longs cycles : partie nulle), komi 6,5",
};

let lang = localStorage.getItem("tengen.lang") ||
  ((navigator.languages && navigator.languages[0]) || navigator.language || "en").slice(0, 2).toLowerCase();
if (!WORDS[lang]) lang = "en";

function t(key, vars) {
  let s = WORDS[lang][key];
  if (s === undefined) s = WORDS.en[key];
  if (s === undefined) return key;
  if (vars) for (const k in vars) s = s.split("{" + k + "}").join(vars[k]);
  return s;
}
const colorWord = (c) => t(c);

function applyWords() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
  document.getElementById("lang-en").setAttribute("aria-pressed", String(lang === "en"));
  document.getElementById("lang-fr").setAttribute("aria-pressed", String(lang === "fr"));
  showPresetDescription();
  renderLessons();
  if (state.view) render();
  if (review.data) renderReview();
}

function setLang(l) {
  lang = l;
  localStorage.setItem("tengen.lang", l);
  applyWords();
}

// ---------------------------------------------------------------- board

const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
const SVGNS = "http://www.w3.org/2000/svg";
const CELL = 40;

function vertexName(x, y, h) { return LETTERS[x] + (h - y); }
function vertexXY(v, h) {
  const x = LETTERS.indexOf(v[0].toUpperCase());
  const y = h - parseInt(v.slice(1), 10);
  return [x, y];
}

function starPoints(w, h) {
  if (w !== h || w < 7) return [];
  const e = w >= 13 ? 3 : 2;
  const c = (w - 1) / 2;
  const pts = [[e, e], [w - 1 - e, e], [e, h - 1 - e], [w - 1 - e, h - 1 - e]];
  if (w % 2 === 1) pts.push([c, c]);
  if (w >= 19 && w % 2 === 1) pts.push([e, c], [w - 1 - e, c], [c, e], [c, h - 1 - e]);
  return pts;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// Draws a board into `host`. `b` is one letter per point (. X O), row by
// row from the top; `o` holds the overlays and the input callbacks.
function drawBoard(host, w, h, b, o) {
  const m = CELL * 1.15;
  const W = (w - 1) * CELL + 2 * m, H = (h - 1) * CELL + 2 * m;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "grid", tabindex: "0",
    "aria-label": o.label || "goban" });
  el("rect", { x: 0, y: 0, width: W, height: H, fill: "#dcb35c", rx: 6 }, svg);
  const px = (x) => m + x * CELL, py = (y) => m + y * CELL;
  const grid = el("g", { stroke: "#3b2a12", "stroke-width": 1.2 }, svg);
  for (let x = 0; x < w; x++) el("line", { x1: px(x), y1: py(0), x2: px(x), y2: py(h - 1) }, grid);
  for (let y = 0; y < h; y++) el("line", { x1: px(0), y1: py(y), x2: px(w - 1), y2: py(y) }, grid);
  for (const [x, y] of starPoints(w, h)) el("circle", { cx: px(x), cy: py(y), r: 4, fill: "#3b2a12" }, svg);
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
      } else if (o.last === v) {
        el("circle", { cx: px(x), cy: py(y), r: CELL * 0.18, fill: "none", stroke: fg, "stroke-width": 2.5,
          class: "last-move" }, stones);
      }
      if (isDead) {
        el("path", { d: `M${px(x) - 9} ${py(y) - 9}L${px(x) + 9} ${py(y) + 9}M${px(x) + 9} ${py(y) - 9}L${px(x) - 9} ${py(y) + 9}`,
          stroke: "#b00020", "stroke-width": 3 }, stones);
      }
    }
    if (own === "b" || own === "w") {
      el("rect", { x: px(x) - 7, y: py(y) - 7, width: 14, height: 14, fill: own === "b" ? "#111" : "#fff",
        stroke: "#000", "stroke-width": 0.8, class: "territory-" + own }, marks);
    } else if (own === "d") {
      el("circle", { cx: px(x), cy: py(y), r: 3.5, fill: "#8b2e16", class: "dame" }, marks);
    }
  }
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
        role: "gridcell", "aria-label": pointLabel(v, b[i], dead.has(v), o.map ? o.map[i] : null),
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
  // Keyboard: arrows move the cursor, Enter or Space plays.
  const showCursor = () => {
    const [x, y] = o.cursor;
    cursor.setAttribute("x", px(x) - CELL / 2); cursor.setAttribute("y", py(y) - CELL / 2);
    cursor.setAttribute("visibility", "visible");
    const i = y * w + x, v = vertexName(x, y, h);
    const label = pointLabel(v, b[i], dead.has(v), o.map ? o.map[i] : null);
    svg.setAttribute("aria-label", label);
    const live = document.getElementById(o.liveId || "cursor-label");
    if (live) live.textContent = label;
  };
  if (!o.cursor) o.cursor = [Math.floor(w / 2), Math.floor(h / 2)];
  // The cursor is for keyboard play: a click or a tap does not show it.
  svg.addEventListener("pointerdown", () => { o.pointer = true; cursor.setAttribute("visibility", "hidden"); });
  svg.addEventListener("focus", () => { if (!o.pointer) showCursor(); });
  svg.addEventListener("blur", () => { o.pointer = false; cursor.setAttribute("visibility", "hidden"); });
  svg.addEventListener("keydown", (ev) => {
    o.pointer = false;
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
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
  else if (own === "d") s += t("dame");
  else s += t("empty");
  if (isDead) s += ", " + t("dead_stone");
  return s;
}

// ---------------------------------------------------------------- state

const state = { id: null, token: null, seat: "spectator", view: null, socket: null, viewAt: 0,
  boardOpts: {}, lessons: null, unlocked: 1, presets: [] };
const $ = (id) => document.getElementById(id);

function show(section) {
  for (const s of ["home", "game", "reviewer"]) $(s).hidden = s !== section;
}

async function api(path, options) {
  const r = await fetch(path, options);
  const body = await r.json().catch(() => ({ code: "server", message: r.statusText }));
  if (!r.ok) throw body;
  return body;
}

function errorText(e) {
  if (!e || !e.code) return String(e && e.message || e);
  const key = "err_" + e.code;
  const msg = e.message || "";
  return WORDS.en[key] ? t(key, { m: msg }) : msg;
}

// ---------------------------------------------------------------- new game

async function loadPresets() {
  state.presets = await api("/api/presets");
  const sel = $("f-rules");
  sel.replaceChildren();
  for (const p of state.presets) {
    const o = document.createElement("option");
    o.value = p.name; o.textContent = p.name;
    sel.appendChild(o);
  }
  sel.value = "ffg";
  presetChanged();
}

function currentPreset() { return state.presets.find((p) => p.name === $("f-rules").value); }

function showPresetDescription() {
  const p = currentPreset();
  if (!p) return;
  $("f-rules-desc").textContent = lang === "fr" ? PRESETS_FR[p.name] || p.description : p.description;
}

function presetChanged() {
  const p = currentPreset();
  if (!p) return;
  $("f-komi").value = p.komi;
  $("f-handicap").disabled = !p.handicap;
  $("f-placement-set").disabled = !p.handicap || !p.free_placement;
  showPresetDescription();
}

function clockFields() {
  const kind = $("f-clock").value;
  document.querySelectorAll("#f-clock-fields label").forEach((l) => {
    const c = l.className;
    l.hidden = kind === "none" || (c && !((kind === "byo_yomi" && c.includes("c-byo")) ||
      (kind === "canadian" && c.includes("c-can")) || (kind === "fischer" && c.includes("c-fis"))));
  });
}

function formValue() {
  const sizeChoice = document.querySelector("input[name=size]:checked").value;
  const size = sizeChoice === "custom" ? parseInt($("f-custom").value, 10) : parseInt(sizeChoice, 10);
  const opp = document.querySelector("input[name=opponent]:checked").value;
  const color = $("f-color").value;
  const opponent = opp === "engine" ? { kind: "engine", strength: $("f-strength").value, color }
    : opp === "friend" ? { kind: "friend", color } : { kind: "same_screen" };
  const form = { rules: $("f-rules").value, size, opponent, handicap: parseInt($("f-handicap").value || "0", 10) };
  const komi = $("f-komi").value.trim().replace(",", ".");
  const p = currentPreset();
  if (komi && !(p && komi === p.komi && form.handicap > 0)) form.komi = komi;
  if (document.querySelector("input[name=placement]:checked").value === "free" && form.handicap > 1) {
    form.handicap_stones = $("f-stones").value;
  }
  const kind = $("f-clock").value;
  if (kind !== "none") {
    const main_s = Math.round(parseFloat($("f-main").value || "0") * 60);
    const period_s = parseInt($("f-period").value || "0", 10);
    form.clock = kind === "absolute" ? { kind, main_s }
      : kind === "byo_yomi" ? { kind, main_s, periods: parseInt($("f-periods").value, 10), period_s }
      : kind === "canadian" ? { kind, main_s, stones: parseInt($("f-cstones").value, 10), period_s }
      : { kind, main_s, increment_s: parseInt($("f-inc").value || "0", 10), max_s: 0 };
  }
  return form;
}

async function createGame(form) {
  const created = await api("/api/games", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(form) });
  localStorage.setItem("tengen.token." + created.id, created.token);
  if (created.invite) localStorage.setItem("tengen.invite." + created.id, created.invite);
  history.pushState({}, "", "/g/" + created.id);
  openGame(created.id);
}

// ---------------------------------------------------------------- learning path

async function loadLessons() {
  const l = await api("/api/learn");
  state.lessons = l.lessons;
  state.unlocked = l.unlocked;
  renderLessons();
}

function renderLessons() {
  const ol = $("lessons");
  if (!state.lessons || !ol) return;
  ol.replaceChildren();
  for (const l of state.lessons) {
    const li = document.createElement("li");
    const h = document.createElement("strong");
    h.textContent = t("lesson", { n: l.step }) + " — " + t("lesson_" + l.step + "_title");
    li.appendChild(h);
    if (l.step < state.unlocked) {
      const s = document.createElement("span");
      s.className = "done"; s.textContent = " ✓ " + t("lesson_done");
      li.appendChild(s);
    }
    const p = document.createElement("p");
    p.textContent = t("lesson_" + l.step);
    li.appendChild(p);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "lesson-play";
    b.dataset.step = l.step;
    b.disabled = l.step > state.unlocked;
    b.textContent = l.step > state.unlocked ? t("lesson_locked") : t("lesson_play");
    b.addEventListener("click", () => startLesson(l.step));
    li.appendChild(b);
    ol.appendChild(li);
  }
}

function startLesson(step) {
  createGame({ lesson: step, opponent: { kind: "same_screen" } }).catch((e) => { $("f-error").textContent = errorText(e); });
}

// ---------------------------------------------------------------- the game

function openGame(id) {
  state.id = id;
  state.view = null;
  state.boardOpts = {};
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("t");
  if (fromLink) {
    localStorage.setItem("tengen.token." + id, fromLink);
    history.replaceState({}, "", "/g/" + id);
  }
  state.token = localStorage.getItem("tengen.token." + id);
  show("game");
  $("b-sgf").href = "/api/games/" + id + "/sgf";
  const invite = localStorage.getItem("tengen.invite." + id);
  $("invite").hidden = !invite;
  if (invite) {
    $("invite-url").value = location.origin + "/g/" + id + "#t=" + invite;
    $("watch-url").href = "/g/" + id;
    $("watch-url").textContent = location.origin + "/g/" + id;
  }
  connect();
}

function connect() {
  if (state.socket) { state.socket.onclose = null; state.socket.close(); }
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = state.token ? "?token=" + encodeURIComponent(state.token) : "";
  const ws = new WebSocket(proto + "//" + location.host + "/ws/" + state.id + q);
  state.socket = ws;
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "welcome") { state.seat = msg.seat; $("message").textContent = ""; }
    else if (msg.type === "view") { announce(state.view, msg); state.view = msg; state.viewAt = Date.now(); render(); }
    else if (msg.type === "names") {
      if (state.view && msg.seq === state.view.seq) { state.view.names = msg.names; $("last-move").textContent = lastMoveText(state.view); }
    }
    else if (msg.type === "error") { $("message").textContent = errorText(msg); $("message").dataset.code = msg.code; }
  };
  ws.onclose = () => {
    if (state.socket !== ws) return;
    $("message").textContent = t("disconnected");
    setTimeout(() => { if (state.socket === ws && state.id) connect(); }, 1000);
  };
}

function send(msg) {
  $("message").textContent = "";
  delete $("message").dataset.code;
  if (state.socket && state.socket.readyState === 1) state.socket.send(JSON.stringify(msg));
}

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

function render() {
  const v = state.view;
  if (!v) return;
  const showCount = v.count && (v.phase === "marking" || v.phase === "over");
  drawBoard($("board"), v.width, v.height, v.board, Object.assign(state.boardOpts, {
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
    status = t("result") + (lang === "fr" ? " : " : ": ") + resultWords(v.result) + " (" + v.result.sgf + ")";
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
  renderClocks();
}

function lastMoveText(v) {
  if (!v.last) return "";
  let s = v.last === "pass" ? t("last_pass", { c: colorWord(v.last_color) })
    : t("last_move", { c: colorWord(v.last_color), v: v.last });
  if (v.names && v.names.length) s += " — " + v.names.map((n) => n[lang] || n.en).join(", ");
  return s;
}

function resultWords(r) {
  const c = r.winner ? colorWord(r.winner) : "";
  switch (r.by) {
    case "score": return t("wins_by", { c, p: r.sgf.split("+")[1] });
    case "resignation": return t("wins_resign", { c });
    case "time": return t("wins_time", { c });
    case "forfeit": return t("wins_forfeit", { c });
    case "captures": return t("wins_captures", { c });
    case "draw": return t("draw");
    default: return t("void");
  }
}

function row(table, label, b, w) {
  const tr = document.createElement("tr");
  for (const [i, x] of [label, b, w].entries()) {
    const cell = document.createElement(i === 0 ? "th" : "td");
    cell.textContent = x === undefined || x === null ? "" : String(x);
    tr.appendChild(cell);
  }
  table.appendChild(tr);
}

function renderCount(v) {
  const box = $("count");
  const c = v.count;
  box.hidden = !c;
  if (!c) return;
  box.replaceChildren();
  const h = document.createElement("h3");
  h.textContent = v.phase === "over" ? t("count_title") : t("count_provisional");
  box.appendChild(h);
  const m = document.createElement("p");
  m.className = "hint";
  m.textContent = t("method_" + c.scoring);
  box.appendChild(m);
  const table = document.createElement("table");
  table.className = "count";
  row(table, "", t("black"), t("white"));
  const s = c.scoring;
  if (s === "captures") {
    row(table, t("captures"), c.captures.black, c.captures.white);
  } else if (s === "stones") {
    row(table, t("stones_on_board"), c.stones.black, c.stones.white);
    row(table, t("komi"), "", c.komi);
  } else if (s === "territory") {
    row(table, t("territory"), c.territory.black - c.seki.black, c.territory.white - c.seki.white);
    if (c.seki.black || c.seki.white) row(table, t("seki"), c.seki.black, c.seki.white);
    row(table, t("prisoners"), c.captures.black + c.dead.white, c.captures.white + c.dead.black);
    row(table, t("komi"), "", c.komi);
  } else {
    row(table, t("stones_on_board"), c.stones.black, c.stones.white);
    row(table, t("territory"), c.territory.black, c.territory.white);
    if (s === "area_dame_both") row(table, t("dame_both"), c.dame, c.dame);
    if (s === "area_dame_shared") row(table, t("dame_half"), c.dame / 2, c.dame / 2);
    if (s === "area_dame_nobody" && c.dame) row(table, t("dame_row"), c.dame, "");
    row(table, t("dead_removed"), c.dead.black, c.dead.white);
    row(table, t("komi"), "", c.komi);
  }
  row(table, t("total"), c.totals.black, c.totals.white);
  row(table, t("margin"), c.margin, "");
  box.appendChild(table);
  if (s === "area_dame_shared") {
    const p = document.createElement("p");
    p.className = "chinese";
    p.textContent = t("chinese_count", { b: c.chinese.black, t: c.chinese.threshold, m: c.chinese.margin_stones });
    box.appendChild(p);
  }
  if (c.quick) {
    const q = document.createElement("table");
    q.className = "count quick";
    const cap = document.createElement("caption");
    cap.textContent = t("quick_count");
    q.appendChild(cap);
    row(q, "", t("black"), t("white"));
    row(q, t("held"), c.quick.held.black, c.quick.held.white);
    row(q, t("pass_stones"), c.quick.pass_stones.black, c.quick.pass_stones.white);
    row(q, t("remaining"), c.quick.remaining.black, c.quick.remaining.white);
    row(q, t("komi"), "", c.quick.komi);
    row(q, t("quick_margin"), c.quick.margin, "");
    box.appendChild(q);
  }
  if (v.result) {
    const r = document.createElement("p");
    r.className = "result";
    r.id = "result";
    r.textContent = resultWords(v.result) + " — " + v.result.sgf;
    box.appendChild(r);
  }
}

function renderLesson(v) {
  const box = $("lesson-text");
  box.hidden = !v.lesson;
  if (!v.lesson) return;
  box.replaceChildren();
  const h = document.createElement("strong");
  h.textContent = t("lesson", { n: v.lesson }) + " — " + t("lesson_" + v.lesson + "_title");
  const p = document.createElement("span");
  p.textContent = " " + t("lesson_" + v.lesson);
  box.append(h, p);
  if (v.phase === "over" && v.result) {
    const won = v.result.winner && v.result.winner !== v.opponent.engine;
    const end = document.createElement("p");
    end.className = "lesson-end " + (won ? "won" : "lost");
    end.textContent = won ? t("lesson_won") : t("lesson_lost");
    const back = document.createElement("a");
    back.href = "/#learn";
    back.textContent = t("back_to_path");
    end.append(" ", back);
    box.appendChild(end);
  }
}

function fmt(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return m + ":" + String(s % 60).padStart(2, "0");
}

function renderClocks() {
  const v = state.view;
  for (const c of ["black", "white"]) {
    const box = $("clock-" + c);
    if (!v || !v.clock) { box.textContent = ""; continue; }
    const side = v.clock.sides[c];
    const ctl = v.clock.control;
    let main = side.main_ms;
    let extra = "";
    if (v.clock.running === c) {
      const left = v.clock.left_ms - (Date.now() - state.viewAt);
      const overtime = ctl.kind === "byo_yomi" ? side.periods * ctl.period_s * 1000
        : ctl.kind === "canadian" && side.main_ms > 0 ? ctl.period_s * 1000 : 0;
      main = ctl.kind === "canadian" && side.main_ms === 0 ? left : Math.max(0, left - overtime);
      if (ctl.kind === "byo_yomi" && left <= overtime) {
        const periods = Math.max(1, Math.ceil(left / (ctl.period_s * 1000)));
        main = left - (periods - 1) * ctl.period_s * 1000;
        extra = " (" + periods + "×" + ctl.period_s + "s)";
      }
      box.classList.toggle("low", left < 10000);
    } else {
      box.classList.remove("low");
    }
    if (ctl.kind === "byo_yomi" && !extra) extra = " +" + side.periods + "×" + ctl.period_s + "s";
    if (ctl.kind === "canadian") extra = side.main_ms > 0 && main > 0 ? " +" + ctl.stones + "/" + ctl.period_s + "s" : " (" + side.stones + ")";
    box.textContent = fmt(main) + extra;
  }
}

// ---------------------------------------------------------------- review

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

function renderReview() {
  const d = review.data;
  const node = d.nodes[review.at];
  const { board, numbers, last } = reviewBoard(review.at);
  drawBoard($("review-board"), d.width, d.height, board, Object.assign(review.boardOpts, {
    last, numbers: $("b-numbers").checked ? numbers : null, liveId: "review-move", label: "goban",
  }));
  $("review-info").textContent = [d.black && (t("black") + " " + d.black), d.white && (t("white") + " " + d.white),
    d.rules, t("komi") + " " + d.komi, d.result && (t("result") + " " + d.result)].filter(Boolean).join(" · ");
  $("review-move").textContent = node.vertex
    ? t("move_n", { n: node.number }) + " : " + (node.vertex === "pass" ? t("last_pass", { c: colorWord(node.color) })
      : t("announce_play", { c: colorWord(node.color), v: node.vertex }))
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

// ---------------------------------------------------------------- routing

function route() {
  const m = location.pathname.match(/^\/g\/([0-9a-f]+)$/);
  if (m) { openGame(m[1]); return; }
  if (state.socket) { state.socket.onclose = null; state.socket.close(); state.socket = null; }
  state.id = null;
  state.view = null;
  if (location.hash === "#review" && review.data) { show("reviewer"); renderReview(); return; }
  show("home");
  loadLessons().catch(() => {});
  if (location.hash) {
    const target = document.getElementById(location.hash.slice(1));
    if (target) target.scrollIntoView();
  }
}

function init() {
  $("lang-en").addEventListener("click", () => setLang("en"));
  $("lang-fr").addEventListener("click", () => setLang("fr"));
  $("f-rules").addEventListener("change", presetChanged);
  $("f-clock").addEventListener("change", clockFields);
  $("new-game").addEventListener("submit", (ev) => {
    ev.preventDefault();
    $("f-error").textContent = "";
    createGame(formValue()).catch((e) => { $("f-error").textContent = errorText(e); });
  });
  $("b-pass").addEventListener("click", () => send({ type: "pass" }));
  $("b-undo").addEventListener("click", () => send({ type: "undo" }));
  $("b-resign").addEventListener("click", () => send({ type: "resign" }));
  $("b-accept-undo").addEventListener("click", () => send({ type: "accept_undo" }));
  $("b-decline-undo").addEventListener("click", () => send({ type: "decline_undo" }));
  $("b-accept-dead").addEventListener("click", () => send({ type: "accept_dead" }));
  $("b-dispute").addEventListener("click", () => send({ type: "dispute" }));
  $("b-numbers").addEventListener("change", () => { if (state.view) render(); if (review.data) renderReview(); });
  $("sgf-file").addEventListener("change", (ev) => { if (ev.target.files[0]) loadReview(ev.target.files[0]); });
  $("r-first").addEventListener("click", () => { review.at = 0; renderReview(); });
  $("r-prev").addEventListener("click", () => reviewStep(-1));
  $("r-next").addEventListener("click", () => reviewStep(1));
  $("r-last").addEventListener("click", () => {
    while (review.data && review.data.nodes[review.at].children.length) review.at = review.data.nodes[review.at].children[0];
    renderReview();
  });
  document.querySelectorAll("header a").forEach((a) => a.addEventListener("click", (ev) => {
    ev.preventDefault();
    history.pushState({}, "", a.getAttribute("href"));
    route();
  }));
  window.addEventListener("popstate", route);
  setInterval(renderClocks, 250);
  clockFields();
  applyWords();
  loadPresets().catch((e) => { $("f-error").textContent = errorText(e); });
  route();
}

init();
