//! Arguments as GTP writes them: colours, vertices, numbers, vertex lists.

use crate::response::GtpError;
use tengen_core::{Board, BoardSize, ByColor, Color, Move, Point, Vertex};

/// `b`, `black`, `w` or `white`, any case (GNU Go `gtp_decode_color`).
///
/// # Errors
/// [`GtpError::InvalidColor`] for anything else.
pub fn parse_color(text: &str) -> Result<Color, GtpError> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(GtpError::InvalidColor),
    }
}

/// A vertex (`D4`, `q16`, `pass`; the letter I is skipped) on this board.
///
/// # Errors
/// [`GtpError::InvalidCoordinate`] when it does not read or is off the board.
pub fn parse_vertex(text: &str, size: BoardSize) -> Result<Vertex, GtpError> {
    Vertex::parse(text, size).map_err(|_| GtpError::InvalidCoordinate)
}

/// A vertex read as a move.
///
/// # Errors
/// [`GtpError::InvalidCoordinate`] as [`parse_vertex`].
pub fn parse_move(text: &str, size: BoardSize) -> Result<Move, GtpError> {
    Ok(match parse_vertex(text, size)? {
        Vertex::Pass => Move::Pass,
        Vertex::Point(p) => Move::Play(p),
    })
}

/// A vertex's text: `D4` or `pass`.
pub fn move_text(mv: Move, size: BoardSize) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(p) => Vertex::point_name(p, size),
    }
}

/// The argument at `index`, or [`GtpError::Syntax`] when it is missing.
///
/// # Errors
/// [`GtpError::Syntax`] when there are too few arguments.
pub fn arg(args: &[String], index: usize) -> Result<&str, GtpError> {
    args.get(index).map(String::as_str).ok_or(GtpError::Syntax)
}

/// A whole number argument.
///
/// # Errors
/// [`GtpError::Syntax`] when it is missing or not a number.
pub fn parse_number<T: std::str::FromStr>(args: &[String], index: usize) -> Result<T, GtpError> {
    arg(args, index)?.parse().map_err(|_| GtpError::Syntax)
}

/// The seconds at `index`, in milliseconds: GTP sends integers, fractions
/// are accepted, and times beyond what a clock can hold saturate (a
/// controller's `1e20` is a very long game, not an error).
///
/// # Errors
/// [`GtpError::Syntax`] when it is missing, not a number, negative or not
/// finite.
pub fn parse_millis(args: &[String], index: usize) -> Result<i64, GtpError> {
    tengen_core::seconds_to_ms(parse_number(args, index)?).ok_or(GtpError::Syntax)
}

/// Points on one line, in board order, separated by spaces.
pub fn point_list(points: &[Point], size: BoardSize) -> String {
    let mut sorted = points.to_vec();
    sorted.sort();
    sorted
        .iter()
        .map(|&p| Vertex::point_name(p, size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Stones grouped one chain per line, as GNU Go's `final_status_list`
/// prints them (controllers split on any whitespace, so a one-line reader
/// reads them too).
pub fn chain_lines(board: &Board, stones: &[Point]) -> String {
    let size = board.size();
    let mut seen: Vec<Point> = Vec::new();
    let mut lines = Vec::new();
    let mut sorted = stones.to_vec();
    sorted.sort();
    for p in sorted {
        if seen.contains(&p) {
            continue;
        }
        let chain: Vec<Point> = if board.get(p).is_some() {
            board.chain(p).collect()
        } else {
            vec![p]
        };
        seen.extend(&chain);
        lines.push(point_list(&chain, size));
    }
    lines.join("\n")
}

/// `showboard`'s diagram: column letters above and below, row numbers on
/// both sides, `X` Black, `O` White, `.` empty, then the captures. It
/// starts with an empty line so that the board begins on its own line.
pub fn diagram(board: &Board, captures: ByColor<u32>) -> String {
    let size = board.size();
    let letters: String = (0..size.width())
        .filter_map(|x| size.point(x, 0))
        .map(|p| {
            let name = Vertex::point_name(p, size);
            format!(" {}", name.trim_end_matches(|c: char| c.is_ascii_digit()))
        })
        .collect();
    let mut text = format!("\n   {letters}\n");
    for y in 0..size.height() {
        let row = size.height() - y;
        let stones: String = (0..size.width())
            .map(|x| match size.point(x, y).and_then(|p| board.get(p)) {
                Some(Color::Black) => " X",
                Some(Color::White) => " O",
                None => " .",
            })
            .collect();
        text.push_str(&format!("{row:>2} {stones}  {row}\n"));
    }
    text.push_str(&format!(
        "   {letters}\ncaptures: black {} white {}",
        captures.black, captures.white
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours() {
        for t in ["b", "B", "black", "BLACK", "Black"] {
            assert_eq!(parse_color(t), Ok(Color::Black));
        }
        for t in ["w", "W", "white", "White"] {
            assert_eq!(parse_color(t), Ok(Color::White));
        }
        for t in ["", "bl", "x", "blackk"] {
            assert_eq!(parse_color(t), Err(GtpError::InvalidColor));
        }
    }

    #[test]
    fn vertices_skip_i_and_read_any_case() {
        let size = BoardSize::square(19).unwrap();
        let j = parse_move("j10", size).unwrap();
        assert_eq!(move_text(j, size), "J10");
        assert_eq!(parse_move("PaSs", size), Ok(Move::Pass));
        assert_eq!(move_text(Move::Pass, size), "pass");
        for bad in ["I9", "T20", "Z1", "A0", "", "9D"] {
            assert_eq!(
                parse_move(bad, size),
                Err(GtpError::InvalidCoordinate),
                "{bad}"
            );
        }
        let small = BoardSize::square(9).unwrap();
        assert_eq!(parse_move("K9", small), Err(GtpError::InvalidCoordinate));
        assert!(parse_move("J9", small).is_ok());
    }

    #[test]
    fn numbers_and_missing_arguments() {
        let args = vec!["19".to_string(), "x".to_string()];
        assert_eq!(parse_number::<u32>(&args, 0), Ok(19));
        assert_eq!(parse_number::<u32>(&args, 1), Err(GtpError::Syntax));
        assert_eq!(parse_number::<u32>(&args, 2), Err(GtpError::Syntax));
        let args: Vec<String> = ["1.5", "1e20", "-1", "inf"].map(String::from).to_vec();
        assert_eq!(parse_millis(&args, 0), Ok(1500));
        assert_eq!(parse_millis(&args, 1), Ok(i64::MAX));
        for index in 2..5 {
            assert_eq!(parse_millis(&args, index), Err(GtpError::Syntax));
        }
    }

    #[test]
    fn chains_one_per_line() {
        let board = Board::from_ascii(
            ". X X .\n\
             . . . .\n\
             O . . X\n\
             O . . .",
        )
        .unwrap();
        let size = board.size();
        let stones: Vec<Point> = size.points().filter(|&p| board.get(p).is_some()).collect();
        assert_eq!(chain_lines(&board, &stones), "B4 C4\nA2 A1\nD2");
    }

    #[test]
    fn diagram_has_coordinates_and_captures() {
        let board = Board::from_ascii(". X\nO .").unwrap();
        let text = diagram(&board, ByColor { black: 1, white: 0 });
        assert_eq!(
            text,
            "\n    A B\n 2  . X  2\n 1  O .  1\n    A B\ncaptures: black 1 white 0"
        );
    }
}
