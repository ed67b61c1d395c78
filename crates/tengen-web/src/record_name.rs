//! The file name a record under review is saved as: its players and date
//! when the record names them (`Honinbo Shusaku vs Gennan Inseki
//! 1846-09-11.sgf`), so that a folder of downloads says what each file is;
//! `review.sgf` when it names nothing.

/// Characters kept of one name or date: enough for any real name.
const MAX_PART: usize = 60;

/// The name given when the record names neither player nor date.
pub const UNNAMED: &str = "review.sgf";

/// `text` made safe in a file name on every system: the characters file
/// systems forbid or read as paths (`/ \ : * ? " < > |`, control
/// characters) become spaces, runs of blanks one space, leading dots go
/// (no hidden file), and the part is cut at [`MAX_PART`] characters.
/// `None` when nothing is left.
fn part(text: &str) -> Option<String> {
    let replaced: String = text
        .chars()
        .map(|c| {
            if c.is_control() || "/\\:*?\"<>|".contains(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    let joined = replaced.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut: String = joined
        .trim_start_matches(['.', ' '])
        .chars()
        .take(MAX_PART)
        .collect();
    let cut = cut.trim_end().to_string();
    (!cut.is_empty()).then_some(cut)
}

/// The file name of a record with these players (`PB`, `PW`) and date
/// (`DT`), each when known. See the module docs.
pub fn file_name(black: Option<&str>, white: Option<&str>, date: Option<&str>) -> String {
    let players = match (black.and_then(part), white.and_then(part)) {
        (Some(b), Some(w)) => Some(format!("{b} vs {w}")),
        (b, w) => b.or(w),
    };
    let words: Vec<String> = players.into_iter().chain(date.and_then(part)).collect();
    if words.is_empty() {
        UNNAMED.to_string()
    } else {
        format!("{}.sgf", words.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::{UNNAMED, file_name};

    #[test]
    fn players_and_date() {
        assert_eq!(
            file_name(
                Some("Honinbo Shusaku"),
                Some("Gennan Inseki"),
                Some("1846-09-11")
            ),
            "Honinbo Shusaku vs Gennan Inseki 1846-09-11.sgf"
        );
        assert_eq!(file_name(Some("Ann"), Some("Bob"), None), "Ann vs Bob.sgf");
        assert_eq!(
            file_name(None, Some("Bob"), Some("2024-05-01")),
            "Bob 2024-05-01.sgf"
        );
        assert_eq!(file_name(None, None, Some("2024-05-01")), "2024-05-01.sgf");
        assert_eq!(
            file_name(Some("李昌鎬"), Some("曹薰鉉"), None),
            "李昌鎬 vs 曹薰鉉.sgf"
        );
    }

    #[test]
    fn nothing_known_is_review_sgf() {
        assert_eq!(file_name(None, None, None), UNNAMED);
        // Names of nothing but blanks or forbidden characters name nothing.
        assert_eq!(file_name(Some("  "), Some("/:*"), Some("\n")), UNNAMED);
    }

    #[test]
    fn no_path_hidden_file_or_endless_name() {
        let name = file_name(
            Some("../../etc/passwd"),
            Some("a\\b\"c<d>e|f?g"),
            Some("2024\t01"),
        );
        assert_eq!(name, "etc passwd vs a b c d e f g 2024 01.sgf");
        assert!(!name.contains('/') && !name.contains(".."), "{name}");
        let long = "x".repeat(500);
        let name = file_name(Some(&long), None, None);
        assert_eq!(name.chars().count(), 60 + ".sgf".len(), "{name}");
    }
}
