//! Command lines read into typed requests. One table, [`COMMANDS`], names
//! every command the engine answers with the reader of its arguments:
//! `list_commands`, `known_command` and the engine's dispatch all come
//! from it, so a command cannot be listed and not answered, or the
//! reverse. Arguments are checked here, in the reference's order and with
//! its error strings (GNU Go's, byte for byte), so that an engine sees
//! typed values only. What a request does to a game (legality, a handicap
//! on a board with stones, files, clocks) is the engine's business, not
//! this module's.

use crate::analysis::{AnalysisFormat, AnalyzeOptions, AnalyzeRequest};
use crate::args::{arg, parse_color, parse_millis, parse_move, parse_number};
use crate::clock::{parse_kgs_time_settings, parse_time_settings};
use crate::command::Command;
use crate::response::GtpError;
use tengen_core::{BoardSize, Color, Move, Point, Points, Rules, TimeControl};

/// What a command asks, its arguments read. One variant per request; the
/// spellings of one request (`kgs-rules` and `kata-set-rules`, the four
/// analysis commands) share a variant, their difference in its fields.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// `protocol_version`.
    ProtocolVersion,
    /// `name`.
    Name,
    /// `version`.
    Version,
    /// `known_command <name>`.
    KnownCommand(String),
    /// `list_commands`.
    ListCommands,
    /// `quit`.
    Quit,
    /// `boardsize <n>`, `boardsize <w>:<h>` or `rectangular_boardsize <w>
    /// <h>`: a new empty board.
    BoardSize(BoardSize),
    /// `clear_board`.
    ClearBoard,
    /// `komi <points>`: White's komi as GTP states it (the rules add their
    /// compensation per handicap stone on top).
    Komi(Points),
    /// `get_komi`.
    GetKomi,
    /// `fixed_handicap <n>`.
    FixedHandicap(u32),
    /// `place_free_handicap <n>`: the engine chooses the points.
    PlaceFreeHandicap(u32),
    /// `set_free_handicap <vertex>...`: the controller chose them.
    SetFreeHandicap(Vec<Point>),
    /// `play <color> <vertex>`.
    Play(Color, Move),
    /// `genmove <color>`: choose a move and play it.
    Genmove(Color),
    /// `reg_genmove <color>`: choose a move without playing it.
    RegGenmove(Color),
    /// `kgs-genmove_cleanup <color>`: choose a move that captures the dead
    /// stones before the end, and play it.
    GenmoveCleanup(Color),
    /// `undo`.
    Undo,
    /// `final_score`.
    FinalScore,
    /// `final_status_list <status>`.
    FinalStatusList(StoneStatus),
    /// `time_settings <main> <byo_yomi> <stones>` or `kgs-time_settings
    /// none | absolute | byoyomi | canadian ...`: the clock they describe.
    TimeSettings(TimeControl),
    /// `time_left <color> <time> <stones>`.
    TimeLeft {
        /// Whose clock.
        color: Color,
        /// Time left in main time, or in the current overtime period, ms.
        time_ms: i64,
        /// Stones (Canadian) or periods (byo-yomi) left; 0 in main time.
        count: u32,
    },
    /// `kgs-rules <name>` or `kata-set-rules <name, KataGo string or
    /// KataGo JSON>`.
    SetRules(Rules),
    /// `kata-get-rules`.
    GetRules,
    /// `loadsgf <file> [move_number | vertex]`.
    LoadSgf {
        /// The file, as written.
        path: String,
        /// Where to stop; the whole main line when `None`.
        until: Option<LoadUntil>,
    },
    /// `printsgf [file]`: answered, or written to the file.
    PrintSgf(Option<String>),
    /// `showboard`.
    ShowBoard,
    /// `cputime`.
    CpuTime,
    /// `lz-analyze`, `kata-analyze`, `lz-genmove_analyze`,
    /// `kata-genmove_analyze`: the only requests that stream their lines.
    Analyze(AnalyzeRequest),
    /// `gogui-analyze_commands`.
    AnalyzeCommands,
    /// `tengen-explain <vertex>`: the lexicon's line for the last move.
    Explain(Move),
    /// `kgs-chat private|game <name> <message...>`: a chat message relayed
    /// by kgsGtp, which sends a success's text back as the reply and
    /// nothing for a failure.
    Chat {
        /// A private message, else one in the game's chat.
        private: bool,
        /// Who wrote it.
        from: String,
        /// What was written.
        message: String,
    },
    /// `kgs-game_over`: kgsGtp says the game on the server has ended.
    GameOver,
}

/// Where `loadsgf` stops: before a move, as GNU Go reads its second
/// argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadUntil {
    /// Before this move number (1 and below: the start).
    MoveNumber(usize),
    /// Before the first move at this point, given as a column from the
    /// left (0 for `A`) and a row from the bottom (1 for the first line):
    /// the record's board size is known only once it is read.
    Vertex {
        /// Column, from 0 at the left.
        column: u32,
        /// Row, from 1 at the bottom.
        row: u32,
    },
}

/// The stones `final_status_list` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoneStatus {
    /// Living stones outside seki.
    Alive,
    /// Dead stones.
    Dead,
    /// Living stones in seki.
    Seki,
}

/// How a command's arguments read, on a board of this size (vertices off
/// it are `invalid coordinate`).
type Reader = fn(&[String], BoardSize) -> Result<Request, GtpError>;

/// One command of the table.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The name, case-sensitive as in the reference.
    pub name: &'static str,
    read: Reader,
}

/// Every command the engine knows, in the order `list_commands` gives
/// them.
pub const COMMANDS: &[Entry] = &[
    entry("protocol_version", |_, _| Ok(Request::ProtocolVersion)),
    entry("name", |_, _| Ok(Request::Name)),
    entry("version", |_, _| Ok(Request::Version)),
    entry("known_command", |a, _| {
        Ok(Request::KnownCommand(arg(a, 0)?.to_string()))
    }),
    entry("list_commands", |_, _| Ok(Request::ListCommands)),
    entry("quit", |_, _| Ok(Request::Quit)),
    entry("boardsize", |a, _| {
        // KataGo's rectangular form `boardsize 19:13` (width:height).
        match arg(a, 0)?.split_once(':') {
            Some((w, h)) => {
                let number = |t: &str| t.parse::<u32>().map_err(|_| GtpError::Syntax);
                board_size(BoardSize::new(number(w)?, number(h)?))
            }
            None => board_size(BoardSize::square(parse_number(a, 0)?)),
        }
    }),
    entry("rectangular_boardsize", |a, _| {
        let (w, h) = (parse_number(a, 0)?, parse_number(a, 1)?);
        board_size(BoardSize::new(w, h))
    }),
    entry("clear_board", |_, _| Ok(Request::ClearBoard)),
    entry("komi", |a, _| {
        let komi = arg(a, 0)?
            .parse()
            .map_err(|_| GtpError::Other("komi not a float".into()))?;
        Ok(Request::Komi(komi))
    }),
    entry("get_komi", |_, _| Ok(Request::GetKomi)),
    entry("fixed_handicap", |a, _| {
        Ok(Request::FixedHandicap(parse_number(a, 0)?))
    }),
    entry("place_free_handicap", |a, _| {
        Ok(Request::PlaceFreeHandicap(parse_number(a, 0)?))
    }),
    entry("set_free_handicap", |a, size| {
        let points = a
            .iter()
            .map(|v| match parse_move(v, size) {
                Ok(Move::Play(p)) => Ok(p),
                _ => Err(GtpError::BadVertexList),
            })
            .collect::<Result<_, _>>()?;
        Ok(Request::SetFreeHandicap(points))
    }),
    entry("play", |a, size| {
        let color = parse_color(arg(a, 0)?)?;
        Ok(Request::Play(color, parse_move(arg(a, 1)?, size)?))
    }),
    entry("genmove", |a, _| Ok(Request::Genmove(color(a)?))),
    entry("reg_genmove", |a, _| Ok(Request::RegGenmove(color(a)?))),
    entry("kgs-genmove_cleanup", |a, _| {
        Ok(Request::GenmoveCleanup(color(a)?))
    }),
    entry("undo", |_, _| Ok(Request::Undo)),
    entry("final_score", |_, _| Ok(Request::FinalScore)),
    entry("final_status_list", |a, _| {
        let status = match arg(a, 0)? {
            "alive" => StoneStatus::Alive,
            "dead" => StoneStatus::Dead,
            "seki" => StoneStatus::Seki,
            _ => return Err(GtpError::Other("invalid status".into())),
        };
        Ok(Request::FinalStatusList(status))
    }),
    entry("time_settings", |a, _| {
        parse_time_settings(a).map(Request::TimeSettings)
    }),
    entry("kgs-time_settings", |a, _| {
        parse_kgs_time_settings(a).map(Request::TimeSettings)
    }),
    entry("time_left", |a, _| {
        Ok(Request::TimeLeft {
            color: color(a)?,
            time_ms: parse_millis(a, 1)?,
            count: parse_number(a, 2)?,
        })
    }),
    entry("kgs-rules", |a, _| set_rules(a)),
    entry("kata-set-rules", |a, _| set_rules(a)),
    entry("kata-get-rules", |_, _| Ok(Request::GetRules)),
    entry("loadsgf", |a, _| {
        let path = arg(a, 0)?.to_string();
        let until = match a.get(1) {
            Some(text) => Some(load_until(text)?),
            None => None,
        };
        Ok(Request::LoadSgf { path, until })
    }),
    entry("printsgf", |a, _| Ok(Request::PrintSgf(a.first().cloned()))),
    entry("showboard", |_, _| Ok(Request::ShowBoard)),
    entry("cputime", |_, _| Ok(Request::CpuTime)),
    entry("lz-analyze", |a, size| {
        analyze(AnalysisFormat::Leela, false, a, size)
    }),
    entry("kata-analyze", |a, size| {
        analyze(AnalysisFormat::KataGo, false, a, size)
    }),
    entry("lz-genmove_analyze", |a, size| {
        analyze(AnalysisFormat::Leela, true, a, size)
    }),
    entry("kata-genmove_analyze", |a, size| {
        analyze(AnalysisFormat::KataGo, true, a, size)
    }),
    entry("gogui-analyze_commands", |_, _| {
        Ok(Request::AnalyzeCommands)
    }),
    entry("tengen-explain", |a, size| {
        Ok(Request::Explain(parse_move(arg(a, 0)?, size)?))
    }),
    entry("kgs-chat", |a, _| {
        let private = match arg(a, 0)? {
            "private" => true,
            "game" => false,
            _ => return Err(GtpError::Syntax),
        };
        Ok(Request::Chat {
            private,
            from: arg(a, 1)?.to_string(),
            message: a.get(2..).unwrap_or_default().join(" "),
        })
    }),
    entry("kgs-game_over", |_, _| Ok(Request::GameOver)),
];

const fn entry(name: &'static str, read: Reader) -> Entry {
    Entry { name, read }
}

/// Whether the engine answers `name`.
pub fn is_known(name: &str) -> bool {
    COMMANDS.iter().any(|e| e.name == name)
}

/// The names of every command, in the table's order.
pub fn names() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|e| e.name)
}

impl Request {
    /// Reads a command line on a board of `size`.
    ///
    /// # Errors
    /// [`GtpError::UnknownCommand`] for a name not in [`COMMANDS`], else
    /// the error its arguments give (`syntax error`, `invalid color`,
    /// `invalid coordinate`, ...).
    pub fn read(cmd: &Command, size: BoardSize) -> Result<Request, GtpError> {
        let entry = COMMANDS
            .iter()
            .find(|e| e.name == cmd.name)
            .ok_or(GtpError::UnknownCommand)?;
        (entry.read)(&cmd.args, size)
    }
}

/// The first argument as a colour.
fn color(args: &[String]) -> Result<Color, GtpError> {
    parse_color(arg(args, 0)?)
}

/// A board size the protocol accepts, or `unacceptable size`.
fn board_size(size: Result<BoardSize, tengen_core::SizeError>) -> Result<Request, GtpError> {
    size.map(Request::BoardSize)
        .map_err(|_| GtpError::UnacceptableSize)
}

/// `loadsgf`'s second argument: a move number, or a vertex of any board
/// up to the largest (GNU Go reads either).
fn load_until(text: &str) -> Result<LoadUntil, GtpError> {
    if let Ok(n) = text.parse() {
        return Ok(LoadUntil::MoveNumber(n));
    }
    let largest = BoardSize::new(
        u32::from(tengen_core::size::MAX_SIZE),
        u32::from(tengen_core::size::MAX_SIZE),
    )
    .map_err(|_| GtpError::Syntax)?;
    match parse_move(text, largest) {
        Ok(Move::Play(p)) => {
            let (column, y) = largest.xy(p);
            Ok(LoadUntil::Vertex {
                column,
                row: largest.height() - y,
            })
        }
        _ => Err(GtpError::Syntax),
    }
}

/// The rules named by every argument together (a KataGo string may hold
/// no space, a preset's name or KataGo's JSON may).
fn set_rules(args: &[String]) -> Result<Request, GtpError> {
    crate::rules::parse_any(&args.join(" ")).map(Request::SetRules)
}

fn analyze(
    format: AnalysisFormat,
    genmove: bool,
    args: &[String],
    size: BoardSize,
) -> Result<Request, GtpError> {
    Ok(Request::Analyze(AnalyzeRequest {
        format,
        genmove,
        options: AnalyzeOptions::parse(args, size)?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Result<Request, GtpError> {
        let size = BoardSize::square(9).unwrap();
        Request::read(&Command::parse(line).unwrap(), size)
    }

    #[test]
    fn the_table_names_each_command_once() {
        let mut all: Vec<&str> = names().collect();
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count);
        assert!(is_known("kata-analyze") && is_known("known_command"));
        assert!(!is_known("frobnicate") && !is_known("Play"));
        assert_eq!(read("frobnicate 1 2"), Err(GtpError::UnknownCommand));
    }

    #[test]
    fn arguments_read_with_the_reference_errors() {
        assert_eq!(read("boardsize 0"), Err(GtpError::UnacceptableSize));
        assert_eq!(read("boardsize x"), Err(GtpError::Syntax));
        assert_eq!(read("rectangular_boardsize 7"), Err(GtpError::Syntax));
        assert_eq!(read("play black"), Err(GtpError::Syntax));
        assert_eq!(read("play purple A1"), Err(GtpError::InvalidColor));
        assert_eq!(read("play b K1"), Err(GtpError::InvalidCoordinate));
        assert_eq!(
            read("set_free_handicap A1 pass"),
            Err(GtpError::BadVertexList)
        );
        assert_eq!(
            read("komi seven"),
            Err(GtpError::Other("komi not a float".into()))
        );
        assert_eq!(
            read("final_status_list unknown"),
            Err(GtpError::Other("invalid status".into()))
        );
        assert_eq!(read("loadsgf f.sgf x"), Err(GtpError::Syntax));
        assert_eq!(
            read("lz-analyze b 1 frob 2"),
            Err(GtpError::Other("unknown analysis option \"frob\"".into()))
        );
        let size = BoardSize::square(9).unwrap();
        let e5 = parse_move("E5", size).unwrap();
        assert_eq!(read("play W e5"), Ok(Request::Play(Color::White, e5)));
        assert_eq!(
            read("loadsgf f.sgf 3"),
            Ok(Request::LoadSgf {
                path: "f.sgf".into(),
                until: Some(LoadUntil::MoveNumber(3))
            })
        );
        // A vertex beyond this 9x9 board still reads: the record's size
        // decides.
        assert_eq!(
            read("loadsgf f.sgf q16"),
            Ok(Request::LoadSgf {
                path: "f.sgf".into(),
                until: Some(LoadUntil::Vertex {
                    column: 15,
                    row: 16
                })
            })
        );
        assert_eq!(read("loadsgf f.sgf pass"), Err(GtpError::Syntax));
        assert_eq!(
            read("boardsize 19:13"),
            Ok(Request::BoardSize(BoardSize::new(19, 13).unwrap()))
        );
        assert_eq!(read("boardsize 19:"), Err(GtpError::Syntax));
        assert_eq!(read("boardsize 26:13"), Err(GtpError::UnacceptableSize));
        assert_eq!(
            read("kgs-chat private alice hello there"),
            Ok(Request::Chat {
                private: true,
                from: "alice".into(),
                message: "hello there".into()
            })
        );
        assert_eq!(read("kgs-chat public alice hi"), Err(GtpError::Syntax));
        assert_eq!(read("kgs-chat game"), Err(GtpError::Syntax));
        let Ok(Request::Analyze(a)) = read("kata-genmove_analyze w 10") else {
            panic!("an analysis");
        };
        assert_eq!((a.format, a.genmove), (AnalysisFormat::KataGo, true));
        assert_eq!(a.options.color, Some(Color::White));
    }

    #[test]
    fn time_settings_as_given() {
        for (line, read_as) in [
            (
                "time_settings 600 30 5",
                Request::TimeSettings(TimeControl::Canadian {
                    main_ms: 600_000,
                    stones: 5,
                    period_ms: 30_000,
                }),
            ),
            (
                "time_settings 300 0 0",
                Request::TimeSettings(TimeControl::Absolute { main_ms: 300_000 }),
            ),
            (
                "time_settings 0 1 0",
                Request::TimeSettings(TimeControl::None),
            ),
            (
                "time_settings 1e20 0 0",
                Request::TimeSettings(TimeControl::Absolute { main_ms: i64::MAX }),
            ),
            (
                "kgs-time_settings none",
                Request::TimeSettings(TimeControl::None),
            ),
            (
                "kgs-time_settings absolute 300",
                Request::TimeSettings(TimeControl::Absolute { main_ms: 300_000 }),
            ),
            (
                "kgs-time_settings byoyomi 60 10 3",
                Request::TimeSettings(TimeControl::ByoYomi {
                    main_ms: 60_000,
                    periods: 3,
                    period_ms: 10_000,
                }),
            ),
            (
                "kgs-time_settings Canadian 0 30 5",
                Request::TimeSettings(TimeControl::Canadian {
                    main_ms: 0,
                    stones: 5,
                    period_ms: 30_000,
                }),
            ),
            (
                "time_left white 8 2",
                Request::TimeLeft {
                    color: Color::White,
                    time_ms: 8_000,
                    count: 2,
                },
            ),
        ] {
            assert_eq!(read(line), Ok(read_as), "{line}");
        }
        for line in [
            "time_settings 1 2",
            "time_settings -1 2 3",
            "kgs-time_settings fischer 1 2",
            "kgs-time_settings byoyomi 60 10",
            "kgs-time_settings",
            "time_left white 8",
        ] {
            assert_eq!(read(line), Err(GtpError::Syntax), "{line}");
        }
        assert_eq!(read("time_left x 8 2"), Err(GtpError::InvalidColor));
    }
}
