//! KataGo's JSON analysis protocol (`katago analysis`, KataGo's
//! `docs/Analysis_Engine.md`), the one KaTrain and batch scripts speak: one
//! JSON object a line in ([`read_input`]: queries and actions), one a line
//! out ([`answer_line`], [`no_results_line`], [`error_line`], [`warning_line`],
//! [`action_line`]). Values go out from the side that
//! `reportAnalysisWinratesAs` names (Black by default, as in KataGo's
//! example configuration, and as KaTrain asks).
//!
//! The client's side too, for a program that hands its analysis to such
//! an engine (the web board's review): [`query_line`] asks for a game's
//! last position, [`read_answer`] reads what comes back.
//!
//! Left out: running the searches, their order and their cancellation
//! (`tengen-engine`'s `json_analysis`); KataGo's fields that describe its
//! own network (`rawStWrError`, `thisHash`, `humanPrior`...); the settings
//! of `overrideSettings` other than `reportAnalysisWinratesAs`, `maxTime`,
//! `maxVisits`, `maxPlayouts` and `analysisPVLen` (each is answered with a
//! warning, as KataGo answers a field it does not use).

use crate::analysis::{Clause, ClauseKind, Report};
use crate::args::{move_text, parse_color, parse_move};
use serde_json::{Map, Value, json};
use std::time::Duration;
use tengen_core::{BoardSize, Color, Game, Move, Point, Points, Rules};

/// The side whose view the values take (KataGo's
/// `reportAnalysisWinratesAs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Perspective {
    /// Black's win chance, Black's lead, +1 for Black's points.
    #[default]
    Black,
    /// White's.
    White,
    /// The player to move at the position analysed.
    SideToMove,
}

impl Perspective {
    /// `BLACK`, `WHITE` or `SIDETOMOVE`, any case.
    pub fn from_name(name: &str) -> Option<Perspective> {
        match name.to_ascii_uppercase().as_str() {
            "BLACK" => Some(Perspective::Black),
            "WHITE" => Some(Perspective::White),
            "SIDETOMOVE" => Some(Perspective::SideToMove),
            _ => None,
        }
    }

    /// 1 where the values of the player to move stay as they are, -1
    /// where they turn.
    fn sign(self, to_move: Color) -> f64 {
        let seen = match self {
            Perspective::Black => Color::Black,
            Perspective::White => Color::White,
            Perspective::SideToMove => to_move,
        };
        if seen == to_move { 1.0 } else { -1.0 }
    }
}

/// One analysis query: a position and its moves, the turns to analyse and
/// what to say of each.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    /// The client's name for it, repeated in every answer.
    pub id: String,
    /// The rules (a name, KataGo string or KataGo JSON object).
    pub rules: Rules,
    /// The board.
    pub size: BoardSize,
    /// White's komi; the rules' when not given.
    pub komi: Option<Points>,
    /// Stones on the board before the first move.
    pub initial_stones: Vec<(Color, Point)>,
    /// Who moves first (Black when not given, or White after more black
    /// initial stones than white, as KataGo guesses a handicap).
    pub initial_player: Option<Color>,
    /// The moves, each with its player.
    pub moves: Vec<(Color, Move)>,
    /// The positions to analyse, by the number of moves played (default:
    /// the last).
    pub analyze_turns: Vec<usize>,
    /// Simulations of each search (the engine's default when not given).
    pub max_visits: Option<u64>,
    /// Time of each search.
    pub max_time: Option<Duration>,
    /// Higher runs first; equal ones in the order they came.
    pub priority: i64,
    /// `includeOwnership`.
    pub ownership: bool,
    /// `includeOwnershipStdev`.
    pub ownership_stdev: bool,
    /// `includeMovesOwnership`.
    pub moves_ownership: bool,
    /// `includeMovesOwnershipStdev`.
    pub moves_ownership_stdev: bool,
    /// `includePolicy`.
    pub policy: bool,
    /// `includePVVisits`.
    pub pv_visits: bool,
    /// `avoidMoves` and `allowMoves`, as GTP's clauses.
    pub clauses: Vec<Clause>,
    /// Answers while searching, this often (`reportDuringSearchEvery`).
    pub report_every: Option<Duration>,
    /// The longest principal variation (`analysisPVLen`).
    pub pv_len: Option<usize>,
    /// Whose view the values take, when the query says
    /// (`overrideSettings.reportAnalysisWinratesAs`).
    pub perspective: Option<Perspective>,
    /// Fields read but not used, each with why (answered as warnings).
    pub unused: Vec<(String, String)>,
}

/// One line in.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// Analyse.
    Query(Box<Query>),
    /// `terminate` (one query, `terminate_id`) or `terminate_all` (`None`),
    /// limited to some turns when `turns` is given.
    Terminate {
        /// The action's own id.
        id: String,
        /// The query to stop; every query when `None`.
        terminate_id: Option<String>,
        /// Only these turns of it.
        turns: Option<Vec<usize>>,
    },
    /// `query_version`.
    QueryVersion {
        /// The action's id.
        id: String,
    },
    /// `clear_cache`: forget the search trees kept.
    ClearCache {
        /// The action's id.
        id: String,
    },
    /// `query_models`.
    QueryModels {
        /// The action's id.
        id: String,
    },
}

/// Why a line was refused: the query's id when it could be read, the field
/// at fault when there is one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct InputError {
    /// The id of the query, when it could be read.
    pub id: Option<String>,
    /// The field at fault.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

/// The largest board side KataGo takes, and tengen's too.
const MAX_SIDE: u32 = 25;

/// The top-level fields of a query tengen reads.
const QUERY_FIELDS: &[&str] = &[
    "id",
    "moves",
    "initialStones",
    "initialPlayer",
    "rules",
    "komi",
    "boardXSize",
    "boardYSize",
    "analyzeTurns",
    "maxVisits",
    "priority",
    "priorities",
    "includeOwnership",
    "includeOwnershipStdev",
    "includeMovesOwnership",
    "includeMovesOwnershipStdev",
    "includePolicy",
    "includePVVisits",
    "avoidMoves",
    "allowMoves",
    "overrideSettings",
    "reportDuringSearchEvery",
    "analysisPVLen",
];

/// Reads one line: a query or an action.
///
/// # Errors
/// An [`InputError`] naming the field and what is wrong with it: the line
/// is not a JSON object, a required field is missing, a value has the
/// wrong type or is out of range, a move or stone is off the board.
pub fn read_input(line: &str) -> Result<Input, InputError> {
    let fields: Map<String, Value> = serde_json::from_str(line).map_err(|e| InputError {
        id: None,
        field: None,
        message: format!("could not parse the line as a JSON object: {e}"),
    })?;
    let id = match fields.get("id") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(fault(None, "id", "must be a string")),
        None => return Err(fault(None, "id", "is required")),
    };
    let reader = Reader {
        id: &id,
        fields: &fields,
    };
    match fields.get("action") {
        None => read_query(&reader).map(|q| Input::Query(Box::new(q))),
        Some(Value::String(action)) => {
            match action.as_str() {
                "terminate" => Ok(Input::Terminate {
                    id: id.clone(),
                    terminate_id: Some(reader.string("terminateId")?.ok_or_else(|| {
                        fault(Some(&id), "terminateId", "is required by terminate")
                    })?),
                    turns: reader.turns("turnNumbers")?,
                }),
                "terminate_all" => Ok(Input::Terminate {
                    id: id.clone(),
                    terminate_id: None,
                    turns: reader.turns("turnNumbers")?,
                }),
                "query_version" => Ok(Input::QueryVersion { id }),
                "clear_cache" => Ok(Input::ClearCache { id }),
                "query_models" => Ok(Input::QueryModels { id }),
                other => Err(fault(
                    Some(&id),
                    "action",
                    &format!(
                        "unknown action {other:?} (known: terminate, terminate_all, query_version, clear_cache, query_models)"
                    ),
                )),
            }
        }
        Some(_) => Err(fault(Some(&id), "action", "must be a string")),
    }
}

fn fault(id: Option<&str>, field: &str, what: &str) -> InputError {
    InputError {
        id: id.map(str::to_string),
        field: Some(field.to_string()),
        message: format!("{field} {what}"),
    }
}

/// The fields of one line, with the id its errors carry.
struct Reader<'a> {
    id: &'a str,
    fields: &'a Map<String, Value>,
}

impl Reader<'_> {
    fn fault(&self, field: &str, what: &str) -> InputError {
        fault(Some(self.id), field, what)
    }

    fn string(&self, key: &str) -> Result<Option<String>, InputError> {
        match self.fields.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.fault(key, "must be a string")),
        }
    }

    fn flag(&self, key: &str) -> Result<bool, InputError> {
        match self.fields.get(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.fault(key, "must be true or false")),
        }
    }

    /// A whole number from `low` to `high`.
    fn integer(&self, key: &str, low: i64, high: i64) -> Result<Option<i64>, InputError> {
        match self.fields.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_i64()
                .filter(|n| (low..=high).contains(n))
                .map(Some)
                .ok_or_else(|| {
                    self.fault(key, &format!("must be a whole number from {low} to {high}"))
                }),
        }
    }

    fn turns(&self, key: &str) -> Result<Option<Vec<usize>>, InputError> {
        match self.fields.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| v.as_u64().and_then(|n| usize::try_from(n).ok()))
                .collect::<Option<Vec<usize>>>()
                .map(Some)
                .ok_or_else(|| self.fault(key, "must be a list of whole numbers from 0")),
            Some(_) => Err(self.fault(key, "must be a list of whole numbers from 0")),
        }
    }

    /// `[["B","Q4"],...]`: players and vertices of this board.
    fn placed(&self, key: &str, size: BoardSize) -> Result<Vec<(Color, Move)>, InputError> {
        let Some(value) = self.fields.get(key) else {
            return Ok(Vec::new());
        };
        let shape = || self.fault(key, "must be a list of [player, vertex] pairs");
        let items = value.as_array().ok_or_else(shape)?;
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let pair = item.as_array().filter(|p| p.len() == 2).ok_or_else(shape)?;
                let (Some(who), Some(at)) = (pair[0].as_str(), pair[1].as_str()) else {
                    return Err(shape());
                };
                let color = parse_color(who).map_err(|_| {
                    self.fault(key, &format!("item {i}: {who:?} is not a player (B or W)"))
                })?;
                let mv = parse_move(at, size).map_err(|_| {
                    self.fault(
                        key,
                        &format!("item {i}: {at:?} is not a vertex of a {size} board"),
                    )
                })?;
                Ok((color, mv))
            })
            .collect()
    }

    /// `avoidMoves` or `allowMoves`: `[{"player":"B","moves":["C3"],"untilDepth":1}]`.
    fn clauses(
        &self,
        key: &str,
        kind: ClauseKind,
        size: BoardSize,
    ) -> Result<Vec<Clause>, InputError> {
        let Some(value) = self.fields.get(key) else {
            return Ok(Vec::new());
        };
        let shape = || {
            self.fault(
                key,
                "must be a list of {\"player\", \"moves\", \"untilDepth\"} objects",
            )
        };
        let items = value.as_array().ok_or_else(shape)?;
        items
            .iter()
            .map(|item| {
                let o = item.as_object().ok_or_else(shape)?;
                let color = o
                    .get("player")
                    .and_then(Value::as_str)
                    .and_then(|p| parse_color(p).ok())
                    .ok_or_else(shape)?;
                let until_depth = o
                    .get("untilDepth")
                    .and_then(Value::as_u64)
                    .and_then(|d| u32::try_from(d).ok())
                    .filter(|&d| d >= 1)
                    .ok_or_else(|| self.fault(key, "untilDepth must be a whole number from 1"))?;
                let moves = o
                    .get("moves")
                    .and_then(Value::as_array)
                    .ok_or_else(shape)?
                    .iter()
                    .map(|m| {
                        m.as_str()
                            .and_then(|t| parse_move(t, size).ok())
                            .ok_or_else(|| self.fault(key, &format!("{m} is not a vertex")))
                    })
                    .collect::<Result<Vec<Move>, InputError>>()?;
                Ok(Clause {
                    kind,
                    color,
                    moves,
                    until_depth,
                })
            })
            .collect()
    }
}

fn read_query(r: &Reader<'_>) -> Result<Query, InputError> {
    let side = |key: &str| -> Result<u32, InputError> {
        let n = r
            .integer(key, 2, i64::from(MAX_SIDE))?
            .ok_or_else(|| r.fault(key, "is required"))?;
        Ok(u32::try_from(n).unwrap_or(MAX_SIDE))
    };
    let (width, height) = (side("boardXSize")?, side("boardYSize")?);
    let size = BoardSize::new(width, height)
        .map_err(|e| r.fault("boardXSize", &format!("and boardYSize: {e}")))?;
    let rules = match r.fields.get("rules") {
        Some(Value::String(name)) => crate::rules::parse_any(name),
        Some(Value::Object(o)) => crate::rules::from_fields(o),
        Some(_) => return Err(r.fault("rules", "must be a name or a JSON object")),
        None => return Err(r.fault("rules", "is required")),
    }
    .map_err(|e| r.fault("rules", &format!("cannot be read: {e}")))?;
    let komi = match r.fields.get("komi") {
        None => None,
        Some(v) => Some(
            v.as_f64()
                .filter(|k| k.abs() <= 150.0 && (k * 2.0).fract() == 0.0)
                .and_then(|k| format!("{k}").parse::<Points>().ok())
                .ok_or_else(|| r.fault("komi", "must be a multiple of 0.5 from -150 to 150"))?,
        ),
    };
    let initial_stones = r
        .placed("initialStones", size)?
        .into_iter()
        .map(|(c, mv)| match mv {
            Move::Play(p) => Ok((c, p)),
            Move::Pass => Err(r.fault("initialStones", "cannot hold a pass")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let initial_player =
        match r.string("initialPlayer")? {
            None => None,
            Some(p) => Some(parse_color(&p).map_err(|_| {
                r.fault("initialPlayer", &format!("{p:?} is not a player (B or W)"))
            })?),
        };
    let moves = r.placed("moves", size)?;
    let analyze_turns = match r.turns("analyzeTurns")? {
        None => vec![moves.len()],
        Some(turns) => {
            if let Some(t) = turns.iter().find(|&&t| t > moves.len()) {
                return Err(r.fault(
                    "analyzeTurns",
                    &format!("holds turn {t}, after the {} moves given", moves.len()),
                ));
            }
            turns
        }
    };
    let mut clauses = r.clauses("avoidMoves", ClauseKind::Avoid, size)?;
    clauses.extend(r.clauses("allowMoves", ClauseKind::Allow, size)?);
    let mut unused: Vec<(String, String)> = r
        .fields
        .keys()
        .filter(|k| !QUERY_FIELDS.contains(&k.as_str()))
        .map(|k| (k.clone(), "unexpected or unused field".to_string()))
        .collect();
    if r.fields.contains_key("priorities") {
        unused.push((
            "priorities".to_string(),
            "one priority per query: priority is used".to_string(),
        ));
    }
    let mut query = Query {
        id: r.id.to_string(),
        rules,
        size,
        komi,
        initial_stones,
        initial_player,
        moves,
        analyze_turns,
        max_visits: r
            .integer("maxVisits", 1, 1 << 40)?
            .map(|n| u64::try_from(n).unwrap_or(1)),
        max_time: None,
        priority: r
            .integer("priority", i64::from(i32::MIN), i64::from(i32::MAX))?
            .unwrap_or(0),
        ownership: r.flag("includeOwnership")?,
        ownership_stdev: r.flag("includeOwnershipStdev")?,
        moves_ownership: r.flag("includeMovesOwnership")?,
        moves_ownership_stdev: r.flag("includeMovesOwnershipStdev")?,
        policy: r.flag("includePolicy")?,
        pv_visits: r.flag("includePVVisits")?,
        clauses,
        report_every: seconds(r, "reportDuringSearchEvery")?,
        pv_len: r
            .integer("analysisPVLen", 1, 1000)?
            .map(|n| usize::try_from(n).unwrap_or(1)),
        perspective: None,
        unused,
    };
    if let Some(settings) = r.fields.get("overrideSettings") {
        let settings = settings
            .as_object()
            .ok_or_else(|| r.fault("overrideSettings", "must be a JSON object"))?;
        override_settings(&mut query, settings, r)?;
    }
    Ok(query)
}

/// A duration in seconds, above 0.
fn seconds(r: &Reader<'_>, key: &str) -> Result<Option<Duration>, InputError> {
    match r.fields.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_f64()
            .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e7)
            .map(|s| Some(Duration::from_secs_f64(s)))
            .ok_or_else(|| r.fault(key, "must be a number of seconds above 0")),
    }
}

/// The settings of `overrideSettings` tengen honours; the others become
/// warnings.
fn override_settings(
    query: &mut Query,
    settings: &Map<String, Value>,
    r: &Reader<'_>,
) -> Result<(), InputError> {
    let inner = Reader {
        id: r.id,
        fields: settings,
    };
    for (key, value) in settings {
        match key.as_str() {
            "reportAnalysisWinratesAs" => {
                query.perspective = value
                    .as_str()
                    .and_then(Perspective::from_name)
                    .map(Some)
                    .ok_or_else(|| r.fault(key, "must be BLACK, WHITE or SIDETOMOVE"))?;
            }
            "maxTime" => query.max_time = seconds(&inner, key)?,
            "maxVisits" | "maxPlayouts" => {
                query.max_visits = inner
                    .integer(key, 1, 1 << 40)?
                    .map(|n| u64::try_from(n).unwrap_or(1));
            }
            "analysisPVLen" => {
                query.pv_len = inner
                    .integer(key, 1, 1000)?
                    .map(|n| usize::try_from(n).unwrap_or(1));
            }
            _ => query.unused.push((
                format!("overrideSettings.{key}"),
                "a KataGo setting tengen does not have".to_string(),
            )),
        }
    }
    Ok(())
}

/// What one answer holds beyond the report.
#[derive(Clone, Copy, Debug)]
pub struct AnswerOf<'a> {
    /// The query answered.
    pub query: &'a Query,
    /// Moves played before the position analysed.
    pub turn: usize,
    /// The player to move there.
    pub to_move: Color,
    /// An answer while the search goes on.
    pub during_search: bool,
    /// Whose view the values take when the query does not say.
    pub perspective: Perspective,
    /// The prior of each point (in the order of `size.points()`) then of
    /// the pass, -1 where the move is illegal; sent when asked for.
    pub policy: Option<&'a [f32]>,
}

/// One answer line (no newline): `moveInfos`, `rootInfo`, and what the
/// query asked for (`ownership`, `ownershipStdev`, `policy`, each move's
/// `ownership`), from the query's perspective. `report` is from the view
/// of the player to move, as GTP's lines are made.
pub fn answer_line(of: &AnswerOf<'_>, report: &Report) -> String {
    let q = of.query;
    let size = q.size;
    let sign = q.perspective.unwrap_or(of.perspective).sign(of.to_move);
    let win = |w: f64| if sign > 0.0 { w } else { 1.0 - w };
    let owned = |o: &[f32]| -> Vec<f64> { o.iter().map(|&v| round(f64::from(v) * sign)).collect() };
    let spread = |o: &[f32]| -> Vec<f64> { o.iter().map(|&v| round(f64::from(v))).collect() };
    let moves: Vec<Value> = report
        .moves
        .iter()
        .map(|m| {
            let take = q.pv_len.unwrap_or(usize::MAX);
            let pv: Vec<String> =
                m.pv.iter()
                    .take(take)
                    .map(|&mv| move_text(mv, size))
                    .collect();
            let winrate = win(m.winrate);
            let mut info = json!({
                "move": move_text(m.mv, size),
                "visits": m.visits,
                "edgeVisits": m.visits,
                "winrate": round(winrate),
                "scoreLead": round(sign * m.score_lead),
                "scoreMean": round(sign * m.score_lead),
                "scoreSelfplay": round(sign * m.score_lead),
                "scoreStdev": round(m.score_stdev),
                "prior": round(m.prior),
                "utility": round(2.0 * winrate - 1.0),
                "lcb": round(win(m.lcb)),
                "utilityLcb": round(2.0 * win(m.lcb) - 1.0),
                "weight": m.visits,
                "order": m.order,
                "pv": pv,
            });
            if q.pv_visits {
                info["pvVisits"] = json!(m.pv_visits.iter().take(take).collect::<Vec<_>>());
                info["pvEdgeVisits"] = info["pvVisits"].clone();
            }
            if let Some((mean, stdev)) = &m.ownership {
                if q.moves_ownership {
                    info["ownership"] = json!(owned(mean));
                }
                if q.moves_ownership_stdev {
                    info["ownershipStdev"] = json!(spread(stdev));
                }
            }
            info
        })
        .collect();
    let root = &report.root;
    let winrate = win(root.winrate);
    let mut out = json!({
        "id": q.id,
        "isDuringSearch": of.during_search,
        "turnNumber": of.turn,
        "moveInfos": moves,
        "rootInfo": {
            "currentPlayer": if of.to_move == Color::Black { "B" } else { "W" },
            "visits": root.visits,
            "winrate": round(winrate),
            "scoreLead": round(sign * root.score_lead),
            "scoreSelfplay": round(sign * root.score_lead),
            "scoreStdev": round(root.score_stdev),
            "utility": round(2.0 * winrate - 1.0),
        },
    });
    if q.ownership {
        out["ownership"] = json!(owned(&report.ownership));
    }
    if q.ownership_stdev {
        out["ownershipStdev"] = json!(spread(&report.ownership_stdev));
    }
    if let Some(policy) = of.policy.filter(|_| q.policy) {
        out["policy"] = json!(
            policy
                .iter()
                .map(|&p| round(f64::from(p)))
                .collect::<Vec<_>>()
        );
    }
    out.to_string()
}

/// Six decimals: what a client reads, a third of the bytes of a float.
fn round(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

/// The answer of a turn whose search never began (it was terminated).
pub fn no_results_line(id: &str, turn: usize) -> String {
    json!({ "id": id, "isDuringSearch": false, "turnNumber": turn, "noResults": true }).to_string()
}

/// An error line: `{"id":..,"error":..,"field":..}` (the id and the field
/// when known).
pub fn error_line(error: &InputError) -> String {
    let mut out = json!({ "error": error.message });
    if let Some(id) = &error.id {
        out["id"] = json!(id);
    }
    if let Some(field) = &error.field {
        out["field"] = json!(field);
    }
    out.to_string()
}

/// A warning line for a field read but not used.
pub fn warning_line(id: &str, field: &str, why: &str) -> String {
    json!({ "id": id, "field": field, "warning": why }).to_string()
}

/// The answer to an action: the action's own fields, with `extra` added.
pub fn action_line(id: &str, action: &str, extra: &[(&str, Value)]) -> String {
    let mut out = json!({ "id": id, "action": action });
    for (key, value) in extra {
        out[*key] = value.clone();
    }
    out.to_string()
}

/// A query for the last position of `game`, as a client sends it: its
/// stones before the first move, its moves, rules (KataGo's JSON object)
/// and komi, `max_visits`, the ownership, values from Black's view.
pub fn query_line(id: &str, game: &Game, max_visits: u64) -> String {
    let size = game.size();
    let side = |c: Color| if c == Color::Black { "B" } else { "W" };
    let initial = game.initial_board();
    let stones: Vec<Value> = size
        .points()
        .filter_map(|p| {
            initial
                .get(p)
                .map(|c| json!([side(c), move_text(Move::Play(p), size)]))
        })
        .collect();
    let moves: Vec<Value> = game
        .turns()
        .iter()
        .map(|t| json!([side(t.color), move_text(t.mv, size)]))
        .collect();
    let mut rules = crate::rules::to_value(game.rules(), game.komi());
    // The komi goes on its own, as KataGo's queries carry it.
    if let Some(o) = rules.as_object_mut() {
        o.remove("komi");
    }
    json!({
        "id": id,
        "boardXSize": size.width(),
        "boardYSize": size.height(),
        "rules": rules,
        "komi": game.komi().to_f64(),
        "initialStones": stones,
        "initialPlayer": side(game.first_to_move()),
        "moves": moves,
        "analyzeTurns": [game.turns().len()],
        "maxVisits": max_visits,
        "includeOwnership": true,
        "overrideSettings": {"reportAnalysisWinratesAs": "BLACK"},
    })
    .to_string()
}

/// A final answer as a client reads it, from Black's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Answered {
    /// The query's id.
    pub id: String,
    /// Black's chance to win.
    pub winrate: f64,
    /// Black's lead in points.
    pub score_lead: f64,
    /// Visits of the root.
    pub visits: u64,
    /// The best move's line as the engine wrote it, the move first (empty
    /// when no move was searched): read on the board it is about.
    pub pv: Vec<String>,
    /// Black's ownership, row by row from the top (empty when not sent).
    pub ownership: Vec<f32>,
}

/// One line from an analysis engine, as a client sorts it.
#[derive(Clone, Debug, PartialEq)]
pub enum Received {
    /// The final answer of a query's turn.
    Answer(Answered),
    /// A refusal: the query's id when the engine gave one.
    Error {
        /// The id.
        id: Option<String>,
        /// The engine's message.
        message: String,
    },
    /// A turn that never ran (`noResults`).
    NoResults(String),
    /// Anything else: a report during a search, a warning, an action's
    /// answer, a line that is not JSON.
    Other,
}

/// Sorts one line of an engine that answers [`query_line`]'s queries.
pub fn read_answer(line: &str) -> Received {
    let Ok(v) = serde_json::from_str::<Value>(line) else {
        return Received::Other;
    };
    let id = v.get("id").and_then(Value::as_str).map(str::to_string);
    if let Some(message) = v.get("error") {
        return Received::Error {
            id,
            message: message
                .as_str()
                .map_or_else(|| message.to_string(), str::to_string),
        };
    }
    let Some(id) = id else {
        return Received::Other;
    };
    if v.get("isDuringSearch").and_then(Value::as_bool) != Some(false) {
        return Received::Other;
    }
    if v.get("noResults").and_then(Value::as_bool) == Some(true) {
        return Received::NoResults(id);
    }
    let root = &v["rootInfo"];
    let number = |x: &Value| x.as_f64().filter(|f| f.is_finite());
    let (Some(winrate), Some(score_lead)) = (number(&root["winrate"]), number(&root["scoreLead"]))
    else {
        return Received::Error {
            id: Some(id),
            message: "an answer without rootInfo's winrate and scoreLead".to_string(),
        };
    };
    let pv = v["moveInfos"]
        .as_array()
        .and_then(|m| m.iter().find(|i| i["order"] == 0).or_else(|| m.first()))
        .and_then(|best| best["pv"].as_array())
        .map(|pv| {
            pv.iter()
                .map_while(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let ownership = v["ownership"]
        .as_array()
        .map(|o| {
            o.iter()
                .filter_map(Value::as_f64)
                .map(|x| x as f32)
                .collect()
        })
        .unwrap_or_default();
    Received::Answer(Answered {
        id,
        winrate,
        score_lead,
        visits: root["visits"].as_u64().unwrap_or(0),
        pv,
        ownership,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{InfoMove, RootInfo};
    use tengen_core::{Preset, Vertex};

    fn query(text: &str) -> Query {
        match read_input(text).unwrap() {
            Input::Query(q) => *q,
            other => panic!("not a query: {other:?}"),
        }
    }

    #[test]
    fn a_katrain_query_reads_whole() {
        let q = query(
            r#"{"id":"QUERY:3","rules":"japanese","priority":2,"analyzeTurns":[2],"maxVisits":100,"komi":6.5,
            "boardXSize":19,"boardYSize":19,"includeOwnership":true,"includeMovesOwnership":true,"includePolicy":true,
            "initialStones":[["B","D4"],["B","Q16"]],"initialPlayer":"W","moves":[["W","Q4"],["B","D16"]],
            "overrideSettings":{"reportAnalysisWinratesAs":"BLACK","wideRootNoise":0.04,"maxTime":8.0},
            "avoidMoves":[{"moves":["C3","pass"],"player":"W","untilDepth":1}]}"#,
        );
        assert_eq!(q.id, "QUERY:3");
        assert_eq!(q.rules.katago(), Preset::Japanese.rules().katago());
        assert_eq!(q.size, BoardSize::STANDARD);
        assert_eq!(q.komi, Some(Points::halves(13)));
        assert_eq!(q.initial_stones.len(), 2);
        assert_eq!(q.initial_player, Some(Color::White));
        assert_eq!(q.moves.len(), 2);
        assert_eq!(q.moves[0].0, Color::White);
        assert_eq!(q.analyze_turns, vec![2]);
        assert_eq!(q.max_visits, Some(100));
        assert_eq!(q.max_time, Some(Duration::from_secs(8)));
        assert_eq!(q.priority, 2);
        assert!(q.ownership && q.moves_ownership && q.policy && !q.pv_visits);
        assert_eq!(q.perspective, Some(Perspective::Black));
        assert_eq!(q.clauses.len(), 1);
        assert_eq!(q.clauses[0].moves.len(), 2);
        assert_eq!(
            q.unused,
            vec![(
                "overrideSettings.wideRootNoise".to_string(),
                "a KataGo setting tengen does not have".to_string()
            )]
        );
    }

    #[test]
    fn rules_come_as_names_strings_or_objects() {
        for (rules, scoring) in [
            (r#""chinese""#, "AREA"),
            (r#""tromp-taylor""#, "AREA"),
            (r#""koPOSITIONALscoreTERRITORYtaxSEKIsui0""#, "TERRITORY"),
            (
                r#"{"ko":"SIMPLE","scoring":"TERRITORY","tax":"SEKI"}"#,
                "TERRITORY",
            ),
        ] {
            let q = query(&format!(
                r#"{{"id":"r","rules":{rules},"boardXSize":9,"boardYSize":9,"moves":[]}}"#
            ));
            assert_eq!(q.rules.katago().scoring, scoring, "{rules}");
        }
    }

    #[test]
    fn bad_queries_name_the_field() {
        for (text, id, field, says) in [
            ("not json", None, None, "JSON object"),
            (r#"{"moves":[]}"#, None, Some("id"), "required"),
            (
                r#"{"id":"a","rules":"chinese","boardXSize":19,"moves":[]}"#,
                Some("a"),
                Some("boardYSize"),
                "required",
            ),
            (
                r#"{"id":"a","rules":"chinese","boardXSize":19,"boardYSize":40,"moves":[]}"#,
                Some("a"),
                Some("boardYSize"),
                "from 2 to 25",
            ),
            (
                r#"{"id":"a","rules":"klingon","boardXSize":9,"boardYSize":9,"moves":[]}"#,
                Some("a"),
                Some("rules"),
                "chinese",
            ),
            (
                r#"{"id":"a","rules":"chinese","boardXSize":9,"boardYSize":9,"moves":[["B","T19"]]}"#,
                Some("a"),
                Some("moves"),
                "\"T19\" is not a vertex of a 9x9 board",
            ),
            (
                r#"{"id":"a","rules":"chinese","boardXSize":9,"boardYSize":9,"moves":[["X","C3"]]}"#,
                Some("a"),
                Some("moves"),
                "not a player",
            ),
            (
                r#"{"id":"a","rules":"chinese","boardXSize":9,"boardYSize":9,"moves":[],"analyzeTurns":[1]}"#,
                Some("a"),
                Some("analyzeTurns"),
                "after the 0 moves",
            ),
            (
                r#"{"id":"a","rules":"chinese","boardXSize":9,"boardYSize":9,"moves":[],"komi":6.3}"#,
                Some("a"),
                Some("komi"),
                "multiple of 0.5",
            ),
            (
                r#"{"id":"a","action":"dance"}"#,
                Some("a"),
                Some("action"),
                "terminate",
            ),
            (
                r#"{"id":"a","action":"terminate"}"#,
                Some("a"),
                Some("terminateId"),
                "required",
            ),
        ] {
            let e = read_input(text).unwrap_err();
            assert_eq!(e.id.as_deref(), id, "{text}");
            assert_eq!(e.field.as_deref(), field, "{text}");
            assert!(e.message.contains(says), "{text}: {}", e.message);
            let line: Value = serde_json::from_str(&error_line(&e)).unwrap();
            assert_eq!(line["error"], json!(e.message));
        }
    }

    #[test]
    fn actions_read() {
        assert_eq!(
            read_input(r#"{"id":"t","action":"terminate","terminateId":"q","turnNumbers":[3]}"#)
                .unwrap(),
            Input::Terminate {
                id: "t".into(),
                terminate_id: Some("q".into()),
                turns: Some(vec![3])
            }
        );
        assert_eq!(
            read_input(r#"{"id":"t","action":"terminate_all"}"#).unwrap(),
            Input::Terminate {
                id: "t".into(),
                terminate_id: None,
                turns: None
            }
        );
        assert_eq!(
            read_input(r#"{"id":"v","action":"query_version"}"#).unwrap(),
            Input::QueryVersion { id: "v".into() }
        );
    }

    #[test]
    fn answers_take_the_perspective_asked_for() {
        let size = BoardSize::square(9).unwrap();
        let at = |t: &str| match Vertex::parse(t, size).unwrap() {
            Vertex::Point(p) => Move::Play(p),
            Vertex::Pass => Move::Pass,
        };
        let q = query(
            r#"{"id":"p","rules":"chinese","boardXSize":9,"boardYSize":9,"moves":[["B","E5"]],"includeOwnership":true,"includePolicy":true}"#,
        );
        let report = Report {
            moves: vec![InfoMove {
                mv: at("C3"),
                visits: 10,
                winrate: 0.25,
                lcb: 0.2,
                prior: 0.5,
                score_lead: -3.0,
                score_stdev: 9.0,
                order: 0,
                pv: vec![at("C3"), at("G7")],
                pv_visits: vec![10, 4],
                ownership: None,
            }],
            root: RootInfo {
                visits: 11,
                winrate: 0.25,
                score_lead: -3.0,
                score_stdev: 9.0,
            },
            ownership: vec![0.5; 81],
            ownership_stdev: vec![0.1; 81],
        };
        let policy = vec![0.0_f32; 82];
        let of = AnswerOf {
            query: &q,
            turn: 1,
            to_move: Color::White,
            during_search: false,
            perspective: Perspective::Black,
            policy: Some(&policy),
        };
        let black: Value = serde_json::from_str(&answer_line(&of, &report)).unwrap();
        assert_eq!(black["id"], "p");
        assert_eq!(black["turnNumber"], 1);
        assert_eq!(black["isDuringSearch"], false);
        assert_eq!(black["rootInfo"]["currentPlayer"], "W");
        assert_eq!(black["rootInfo"]["winrate"], 0.75);
        assert_eq!(black["rootInfo"]["scoreLead"], 3.0);
        assert_eq!(black["moveInfos"][0]["move"], "C3");
        assert_eq!(black["moveInfos"][0]["winrate"], 0.75);
        assert_eq!(black["moveInfos"][0]["pv"], json!(["C3", "G7"]));
        assert_eq!(black["ownership"][0], -0.5);
        assert_eq!(black["policy"].as_array().unwrap().len(), 82);
        assert!(black.get("ownershipStdev").is_none());
        let q2 = Query {
            perspective: Some(Perspective::SideToMove),
            ..q.clone()
        };
        let of = AnswerOf { query: &q2, ..of };
        let mover: Value = serde_json::from_str(&answer_line(&of, &report)).unwrap();
        assert_eq!(mover["rootInfo"]["winrate"], 0.25);
        assert_eq!(mover["moveInfos"][0]["scoreLead"], -3.0);
        assert_eq!(mover["ownership"][0], 0.5);
    }

    #[test]
    fn a_clients_query_reads_back_and_its_answer_is_sorted() {
        let size = BoardSize::square(9).unwrap();
        let mut game = Game::new(Preset::Japanese.rules(), size);
        game.set_komi(Points::halves(13));
        let at = |t: &str| match Vertex::parse(t, size).unwrap() {
            Vertex::Point(p) => Move::Play(p),
            Vertex::Pass => Move::Pass,
        };
        game.play(at("E5")).unwrap();
        game.play(at("C3")).unwrap();
        let q = query(&query_line("r7", &game, 123));
        assert_eq!(q.id, "r7");
        assert_eq!(q.size, size);
        assert_eq!(q.komi, Some(Points::halves(13)));
        assert_eq!(q.rules.katago(), Preset::Japanese.rules().katago());
        assert_eq!(
            q.moves,
            vec![(Color::Black, at("E5")), (Color::White, at("C3"))]
        );
        assert_eq!(q.analyze_turns, vec![2]);
        assert_eq!(q.max_visits, Some(123));
        assert!(q.ownership);
        assert_eq!(q.perspective, Some(Perspective::Black));
        let answer = r#"{"id":"r7","isDuringSearch":false,"turnNumber":2,"moveInfos":[{"move":"G7","order":0,"pv":["G7","C7"],"visits":90}],"rootInfo":{"winrate":0.4,"scoreLead":-1.5,"visits":123},"ownership":[0.5,-0.5]}"#;
        assert_eq!(
            read_answer(answer),
            Received::Answer(Answered {
                id: "r7".into(),
                winrate: 0.4,
                score_lead: -1.5,
                visits: 123,
                pv: vec!["G7".to_string(), "C7".to_string()],
                ownership: vec![0.5, -0.5],
            })
        );
        assert_eq!(
            read_answer(r#"{"id":"r7","isDuringSearch":true,"rootInfo":{}}"#),
            Received::Other
        );
        assert_eq!(
            read_answer(r#"{"id":"r7","error":"Illegal move 2"}"#),
            Received::Error {
                id: Some("r7".into()),
                message: "Illegal move 2".into()
            }
        );
    }
}
