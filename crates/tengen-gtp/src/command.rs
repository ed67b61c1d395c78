//! Reading a command line as GNU Go's `gtp_main_loop` does.

/// One command: an optional numeric id, a name and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The id echoed in the response (`=7`), if the line began with one.
    pub id: Option<u32>,
    /// The command name (case-sensitive, as in the reference).
    pub name: String,
    /// The arguments, split on whitespace.
    pub args: Vec<String>,
}

/// Cleans a raw input line: HT becomes a space, every other control
/// character (CR included) is removed, and everything from `#` on is a
/// comment. Bytes that are not UTF-8 are replaced rather than refused, so a
/// stray byte costs one argument, never the session.
pub fn preprocess(raw: &[u8]) -> String {
    let mut kept = Vec::with_capacity(raw.len());
    for &b in raw {
        match b {
            b'#' => break,
            b'\t' => kept.push(b' '),
            0..=31 | 127 => {}
            _ => kept.push(b),
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

impl Command {
    /// Reads one input line (with or without its newline). `None` for a line
    /// that asks nothing (empty, whitespace, a comment, an id alone): the
    /// reference sends no response to those.
    pub fn parse(raw: &str) -> Option<Command> {
        Command::parse_bytes(raw.as_bytes())
    }

    /// [`Command::parse`] on raw bytes, as they come from a pipe.
    pub fn parse_bytes(raw: &[u8]) -> Option<Command> {
        let line = preprocess(raw);
        let mut words = line.split_whitespace().peekable();
        let id = match words.peek() {
            Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => {
                let id = w.parse::<u32>().ok();
                if id.is_some() {
                    words.next();
                }
                id
            }
            _ => None,
        };
        let name = words.next()?.to_string();
        Some(Command {
            id,
            name,
            args: words.map(str::to_string).collect(),
        })
    }

    /// The command as a line to send (without id or newline).
    pub fn text(&self) -> String {
        std::iter::once(self.name.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_names_and_arguments() {
        let c = Command::parse("12 boardsize 9\n").unwrap();
        assert_eq!(c.id, Some(12));
        assert_eq!(c.name, "boardsize");
        assert_eq!(c.args, ["9"]);
        let c = Command::parse("  genmove   w  ").unwrap();
        assert_eq!(c.id, None);
        assert_eq!(c.text(), "genmove w");
    }

    #[test]
    fn control_characters_tabs_and_comments() {
        assert_eq!(preprocess(b"pl\x01ay\tb\x7f D4\r\n"), "play b D4");
        let c = Command::parse_bytes(b"3\tknown_command\x1b\tplay # why not\r").unwrap();
        assert_eq!(c.id, Some(3));
        assert_eq!(c.name, "known_command");
        assert_eq!(c.args, ["play"]);
        assert_eq!(Command::parse("# only a comment"), None);
        assert_eq!(Command::parse(""), None);
        assert_eq!(Command::parse(" \t \r\n"), None);
        assert_eq!(Command::parse("42"), None);
        assert_eq!(Command::parse("42 # id and comment"), None);
    }

    #[test]
    fn an_id_too_large_is_read_as_the_name() {
        let c = Command::parse("99999999999 name").unwrap();
        assert_eq!(c.id, None);
        assert_eq!(c.name, "99999999999");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_replaced() {
        let c = Command::parse_bytes(b"name \xff\xfe").unwrap();
        assert_eq!(c.name, "name");
        assert_eq!(c.args.len(), 1);
    }
}
