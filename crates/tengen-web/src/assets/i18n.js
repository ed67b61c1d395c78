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
    learn_intro: "Four steps. Each one teaches with small problems on the board, then a game against tengen. Win a step's game to open the next game.",
    review_title: "Review a record",
    review_intro: "Open an SGF file to step through its moves and variations.",
    captures: "Captures", pass: "Pass", undo: "Undo", resign: "Resign",
    undo_asked: "Your opponent asks to take back a move.", accept: "Accept", decline: "Decline",
    marking_help: "Click a chain to mark it dead or alive, then accept. Dispute to resume play.",
    accept_dead: "Accept the dead stones", dispute: "Dispute (resume play)",
    move_numbers: "Move numbers", download_sgf: "Download SGF", review_game: "Review this game",
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
    dame_both: "Dame (counted for both)", dame_half: "Dame (half each)", seki: "Eyes in seki (not counted)", seki_counted: "Eyes in seki (counted)",
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
    lesson: "Step {n}", lesson_play: "Play the game", lesson_locked: "Locked: win the step before",
    lesson_won: "Step won! The next step is open.", lesson_lost: "Not this time: try again!",
    lesson_done: "won", back_to_path: "Back to the learning path", play_again: "Play again",
    lesson_1_title: "The first capture",
    lesson_1: "Capture a stone or a chain before your opponent does.",
    lesson_2_title: "Capture five stones",
    lesson_2: "The first to capture five stones wins. Suicide is forbidden.",
    lesson_3_title: "Go counted by stones",
    lesson_3: "Have more stones on the board when both players pass. Mind the ko.",
    lesson_4_title: "Go with territory",
    lesson_4: "Stones and surrounded empty points count. White gets komi.",
    // The screens of a learning step (teach.js).
    lesson_learn: "Learn", teach_back: "Back", teach_next: "Next", teach_play: "Play the game",
    teach_progress: "Screen {n} of {m}", teach_source: "From: {s}",
    teach_right: "Right!", teach_wrong: "Not yet.", liberty: "liberty", in_atari: "in atari",
    rule_desc_fr_only: "",
    err_occupied: "The point is occupied.",
    err_off_board: "The point is off the board.",
    err_suicide: "Your stone would have no liberty left and would capture nothing: play elsewhere (rule: no suicide).",
    err_single_stone_suicide: "A lone stone may not be played where it has no liberty: play elsewhere (rule: no single-stone suicide).",
    err_ko: "You may not take back the ko at once: play elsewhere first, then you may take it (rule: ko).",
    err_positional_superko: "This would repeat an earlier position: play elsewhere first (rule: superko, positional).",
    err_situational_superko: "This would repeat an earlier position: play elsewhere first (rule: superko, situational).",
    err_natural_situational_superko: "This would repeat a position you already made: play elsewhere first (rule: superko, natural situational).",
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
    err_too_many_sockets: "You have many games open already: close some tabs and try again.",
    err_games_too_fast: "You have created many games in a short time: wait a moment and try again.",
    err_storage_lost: "The server can no longer keep anything (its database is gone or its disk is failing): this was not kept. Tell whoever runs it.",
    disconnected: "Connection lost: reconnecting…",
    copy: "Copy",
    nav_lobby: "Lobby", name_ask: "Your name (shown to your opponents)", name_save: "OK", name_later: "Later",
    name_choose: "Choose a name", name_change: "Change your name",
    list_in_lobby: "List it in the lobby (anyone may take the seat)",
    resign_ask: "Resign this game?", resign_yes: "Yes, resign", resign_no: "No, play on",
    confirm_move: "Play here", cancel: "Cancel", confirm_where: "Play at {v}?",
    helpers: "Helpers", h_atari: "Mark chains in atari (one liberty left)", h_confirm: "Confirm each move",
    h_sound: "Sounds", estimate: "Estimate the score", zoom: "Zoom",
    estimate_lead: "Estimate: {c} leads by {p} points (dead stones crossed, territory shown until the next move).",
    estimate_even: "Estimate: the game is even.",
    chat: "Chat", chat_placeholder: "Say something", send: "Send", seat_both_short: "Players",
    copied: "Copied.", copy_failed: "Could not copy: select the link and copy it by hand.",
    presence_online: "connected", presence_away: "away", presence_not_joined: "has not joined yet",
    waiting_join: "Waiting for {c} to join: send the invitation link.",
    flag_fell: "(out of time)", colon: ": ",
    lobby_title: "Lobby", lobby_intro: "Games with a friend whose creator listed them here: take a free seat, or watch.",
    lobby_open: "Open invitations", lobby_live: "Games to watch", lobby_no_open: "No open invitation right now.",
    lobby_no_live: "No listed game is being played right now.", take_seat: "Play {c}", watch: "Watch",
    lesson_path_done: "Step won! You have finished the learning path.",
    review_move: "Move {n}: {m}", passes: "{c} passes",
    rules_unstated: "rules not given (replayed as {r})",
    err_chat_empty: "The message is empty.",
    err_chat_too_long: "A message holds at most 500 characters.",
    err_chat_too_fast: "You are sending messages too fast: wait a few seconds. ({m})",
    err_chat_spectator: "Spectators read the chat; only the players write in it.",
    err_name_too_long: "A name holds at most 40 characters.",
    err_seat_taken: "Someone took this seat first: choose another game.",
    err_clock_fraction: "Times must be whole seconds of at least 1 s: {m}",
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
    learn_intro: "Quatre étapes. Chacune apprend avec de petits problèmes sur le goban, puis une partie contre tengen. Gagnez la partie d'une étape pour ouvrir la suivante.",
    review_title: "Revoir une partie",
    review_intro: "Ouvrez un fichier SGF pour en parcourir les coups et les variantes.",
    captures: "Prisonniers", pass: "Passer", undo: "Annuler le coup", resign: "Abandonner",
    undo_asked: "Votre adversaire demande à reprendre un coup.", accept: "Accepter", decline: "Refuser",
    marking_help: "Cliquez sur une chaîne pour la marquer morte ou vivante, puis acceptez. Contestez pour reprendre le jeu.",
    accept_dead: "Accepter les pierres mortes", dispute: "Contester (reprendre le jeu)",
    move_numbers: "Numéros des coups", download_sgf: "Télécharger le SGF", review_game: "Revoir cette partie",
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
    dame_both: "Dame (comptés pour les deux)", dame_half: "Dame (moitié chacun)", seki: "Yeux en seki (non comptés)", seki_counted: "Yeux en seki (comptés)",
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
    lesson: "Étape {n}", lesson_play: "Jouer la partie", lesson_locked: "Fermée : gagnez l'étape précédente",
    lesson_won: "Étape gagnée ! L'étape suivante est ouverte.", lesson_lost: "Pas cette fois : recommencez !",
    lesson_done: "gagnée", back_to_path: "Retour au parcours", play_again: "Rejouer",
    lesson_1_title: "Le jeu de la première prise",
    lesson_1: "Capturez une pierre ou une chaîne avant votre adversaire.",
    lesson_2_title: "Capturer cinq pierres",
    lesson_2: "Le premier qui capture cinq pierres a gagné. Le suicide est interdit.",
    lesson_3_title: "Le go compté par les pierres",
    lesson_3: "Ayez plus de pierres sur le plateau quand les deux joueurs passent. Attention au ko.",
    lesson_4_title: "Le go avec territoire",
    lesson_4: "Les pierres et les points vides entourés comptent. Blanc reçoit le komi.",
    // Les écrans d'une étape (teach.js).
    lesson_learn: "Apprendre", teach_back: "Retour", teach_next: "Suivant", teach_play: "Jouer la partie",
    teach_progress: "Écran {n} sur {m}", teach_source: "D'après : {s}",
    teach_right: "Bravo !", teach_wrong: "Pas encore.", liberty: "liberté", in_atari: "en atari",
    err_occupied: "L'intersection est occupée.",
    err_off_board: "L'intersection est hors du goban.",
    err_suicide: "Votre pierre n'aurait plus de liberté et ne prendrait rien : jouez ailleurs (règle : pas de suicide).",
    err_single_stone_suicide: "Une pierre seule ne peut pas être jouée là où elle n'a aucune liberté : jouez ailleurs (règle : pas de suicide d'une pierre).",
    err_ko: "Vous ne pouvez pas reprendre le ko tout de suite : jouez d'abord ailleurs, ensuite vous pourrez le prendre (règle : ko).",
    err_positional_superko: "Ce coup répéterait une position déjà vue : jouez d'abord ailleurs (règle : superko positionnel).",
    err_situational_superko: "Ce coup répéterait une position déjà vue : jouez d'abord ailleurs (règle : superko situationnel).",
    err_natural_situational_superko: "Ce coup répéterait une position que vous avez déjà donnée : jouez d'abord ailleurs (règle : superko situationnel naturel).",
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
    err_too_many_sockets: "Vous avez déjà beaucoup de parties ouvertes : fermez quelques onglets et réessayez.",
    err_games_too_fast: "Vous avez créé beaucoup de parties en peu de temps : attendez un moment et réessayez.",
    err_storage_lost: "Le serveur ne peut plus rien garder (sa base de données a disparu ou son disque fait défaut) : ceci n'a pas été gardé. Prévenez qui le fait tourner.",
    disconnected: "Connexion perdue : reconnexion…",
    copy: "Copier",
    nav_lobby: "Salon", name_ask: "Votre nom (montré à vos adversaires)", name_save: "OK", name_later: "Plus tard",
    name_choose: "Choisir un nom", name_change: "Changer de nom",
    list_in_lobby: "L'afficher dans le salon (n'importe qui peut prendre la place)",
    resign_ask: "Abandonner cette partie ?", resign_yes: "Oui, abandonner", resign_no: "Non, continuer",
    confirm_move: "Jouer ici", cancel: "Annuler", confirm_where: "Jouer en {v} ?",
    helpers: "Aides", h_atari: "Marquer les chaînes en atari (une seule liberté)", h_confirm: "Confirmer chaque coup",
    h_sound: "Sons", estimate: "Estimer le score", zoom: "Zoom",
    estimate_lead: "Estimation : {c} mène de {p} points (pierres mortes barrées, territoire montré jusqu'au prochain coup).",
    estimate_even: "Estimation : la partie est égale.",
    chat: "Discussion", chat_placeholder: "Écrire un message", send: "Envoyer", seat_both_short: "Joueurs",
    copied: "Copié.", copy_failed: "Copie impossible : sélectionnez le lien et copiez-le à la main.",
    presence_online: "connecté", presence_away: "absent", presence_not_joined: "n'est pas encore arrivé",
    waiting_join: "En attente de {c} : envoyez le lien d'invitation.",
    flag_fell: "(temps écoulé)", colon: " : ",
    lobby_title: "Salon", lobby_intro: "Les parties entre amis que leur créateur a affichées ici : prenez une place libre, ou regardez.",
    lobby_open: "Invitations ouvertes", lobby_live: "Parties à regarder", lobby_no_open: "Aucune invitation ouverte pour l'instant.",
    lobby_no_live: "Aucune partie affichée n'est en cours.", take_seat: "Jouer {c}", watch: "Regarder",
    lesson_path_done: "Étape gagnée ! Vous avez terminé le parcours.",
    review_move: "Coup {n} : {m}", passes: "{c} passe",
    rules_unstated: "règles non indiquées (rejouée en {r})",
    err_chat_empty: "Le message est vide.",
    err_chat_too_long: "Un message contient au plus 500 caractères.",
    err_chat_too_fast: "Vous envoyez des messages trop vite : attendez quelques secondes. ({m})",
    err_chat_spectator: "Les spectateurs lisent la discussion ; seuls les joueurs y écrivent.",
    err_name_too_long: "Un nom contient au plus 40 caractères.",
    err_seat_taken: "Quelqu'un a pris cette place avant vous : choisissez une autre partie.",
    err_clock_fraction: "Les durées sont des secondes entières, au moins 1 s : {m}",
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

// The presets' names as the rules list shows them.
const PRESET_NAMES = {
  en: { "nz": "New Zealand", "chinese": "Chinese", "ffg": "French Federation (FFG)",
    "strasbourg": "Strasbourg: go counted by stones", "first-capture": "Strasbourg: first capture",
    "capture-five": "Strasbourg: capture five", "tromp-taylor": "Tromp-Taylor", "aga": "American (AGA)",
    "japanese": "Japanese" },
  fr: { "nz": "Nouvelle-Zélande", "chinese": "Chinoises", "ffg": "Fédération française (FFG)",
    "strasbourg": "Strasbourg : go compté par les pierres", "first-capture": "Strasbourg : première prise",
    "capture-five": "Strasbourg : cinq prises", "tromp-taylor": "Tromp-Taylor", "aga": "Américaines (AGA)",
    "japanese": "Japonaises" },
};
// The review's words: its tree, edits and the engine's analysis.
Object.assign(WORDS.en, {
  r_first: "First position", r_prev: "Previous move", r_next: "Next move", r_last: "Last move of the line",
  review_keys: "Keys: ← → moves, ↑ ↓ variations, Home and End the ends.",
  comment_edit: "Edit the comment", comment_placeholder: "A comment on this move",
  comment_save: "Save the comment", comment_cancel: "Cancel",
  game_tree: "Game tree", analysis: "Analysis", analyse: "Analyse the game",
  show_best: "The engine's move and line", show_owner: "Territory",
  mistakes: "Biggest mistakes",
  analysing: "Analysing: {n} of {total} positions…",
  analysed: "Analysis done: {n} of {total} positions, {p} playouts each.",
  black_chance: "Black's chance {p}", black_leads: "Black leads by {n}", white_leads: "White leads by {n}",
  engine_preferred: "tengen preferred {v}", engine_next: "tengen's line: {v}",
  graph_label: "Black's chance of winning over the game",
  graph_legend: "Solid: Black's chance of winning (top: 100%). Dashed: the score (above the middle: Black leads). Click to go to a move.",
  mistake_line: "Move {n}, {c} {v}: −{p} ({s} points)",
  err_analyses_busy: "The engine is analysing as many games as it can: try again in a moment.",
  err_too_many_analyses: "The engine is analysing a game of yours already: try again when it is done.",
});
Object.assign(WORDS.fr, {
  r_first: "Position de départ", r_prev: "Coup précédent", r_next: "Coup suivant", r_last: "Dernier coup de la ligne",
  review_keys: "Touches : ← → les coups, ↑ ↓ les variantes, Début et Fin les extrémités.",
  comment_edit: "Modifier le commentaire", comment_placeholder: "Un commentaire sur ce coup",
  comment_save: "Enregistrer le commentaire", comment_cancel: "Annuler",
  game_tree: "Arbre de la partie", analysis: "Analyse", analyse: "Analyser la partie",
  show_best: "Le coup et la suite de tengen", show_owner: "Territoire",
  mistakes: "Plus grosses erreurs",
  analysing: "Analyse\u00a0: {n} positions sur {total}…",
  analysed: "Analyse terminée\u00a0: {n} positions sur {total}, {p} parties simulées chacune.",
  black_chance: "Chances de Noir {p}", black_leads: "Noir mène de {n}", white_leads: "Blanc mène de {n}",
  engine_preferred: "tengen préférait {v}", engine_next: "La suite de tengen\u00a0: {v}",
  graph_label: "Les chances de victoire de Noir au fil de la partie",
  graph_legend: "Trait plein\u00a0: les chances de Noir (en haut\u00a0: 100\u00a0%). Tirets\u00a0: le score (au-dessus du milieu\u00a0: Noir mène). Cliquez pour aller à un coup.",
  mistake_line: "Coup {n}, {c} {v}\u00a0: −{p} ({s} points)",
  err_analyses_busy: "tengen analyse déjà autant de parties qu'il le peut\u00a0: réessayez dans un moment.",
  err_too_many_analyses: "tengen analyse déjà une de vos parties\u00a0: réessayez quand elle sera finie.",
});

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

// French typography: a non-breaking space before ":", ";", "!" and "?".
function typeset(s) { return lang === "fr" ? s.replace(/ ([:;!?])/g, "\u00a0$1") : s; }

export function t(key, vars) {
  let s = WORDS[lang][key];
  if (s === undefined) s = WORDS.en[key];
  if (s === undefined) return key;
  if (vars) for (const k in vars) s = s.split("{" + k + "}").join(vars[k]);
  return typeset(s);
}

// A preset's name in the language shown (its id if unknown).
export function presetName(id) {
  return typeset((PRESET_NAMES[lang] || PRESET_NAMES.en)[id] || PRESET_NAMES.en[id] || id);
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
  return typeset(lang === "fr" ? PRESETS_FR[p.name] || p.description : p.description);
}

// An error from the server (or a failed request) in words.
export function errorText(e) {
  if (!e || !e.code) return String(e && e.message || e);
  const key = "err_" + e.code;
  const msg = e.message || "";
  return WORDS.en[key] ? t(key, { m: msg }) : msg;
}
