// The page's words in English and French, the language chosen, and the
// server's error codes in words. The server sends codes, English text and
// data; every word the page shows in either language is here.

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
    seki_eye_b: "Black's eye in seki", seki_eye_w: "White's eye in seki",
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
    err_too_many_engine_games: "You already have as many games against tengen in progress as allowed: finish or leave one first.",
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
    err_conflict: "The game changed meanwhile: look at the board and play again.",
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
    seki_eye_b: "œil noir en seki", seki_eye_w: "œil blanc en seki",
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
    err_too_many_engine_games: "Vous avez déjà autant de parties contre tengen en cours que permis : terminez-en ou quittez-en une d'abord.",
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
    err_conflict: "La partie a changé entre-temps : regardez le plateau et rejouez.",
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

// The language shown: "en" or "fr".
export function language() { return lang; }

// Chooses the language and remembers it; the caller redraws.
export function setLang(l) {
  lang = l;
  localStorage.setItem("tengen.lang", l);
}

export function t(key, vars) {
  let s = WORDS[lang][key];
  if (s === undefined) s = WORDS.en[key];
  if (s === undefined) return key;
  if (vars) for (const k in vars) s = s.split("{" + k + "}").join(vars[k]);
  return s;
}
export const colorWord = (c) => t(c);

// The words of the static page (its data-i18n attributes) and the state of
// the language buttons.
export function translatePage() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
  document.getElementById("lang-en").setAttribute("aria-pressed", String(lang === "en"));
  document.getElementById("lang-fr").setAttribute("aria-pressed", String(lang === "fr"));
}

// A preset's one-line description in the language shown.
export function presetDescription(p) {
  return lang === "fr" ? PRESETS_FR[p.name] || p.description : p.description;
}

// An error from the server (or a failed request) in words.
export function errorText(e) {
  if (!e || !e.code) return String(e && e.message || e);
  const key = "err_" + e.code;
  const msg = e.message || "";
  return WORDS.en[key] ? t(key, { m: msg }) : msg;
}
