//! SGF text escapes: decoding raw values into Text and SimpleText, splitting
//! composed values, escaping text for writing, and point lists.
//!
//! FF\[4\] text rules: `\` escapes the next character; `\` followed by a line
//! break is a soft line break and is removed; Text keeps hard line breaks and
//! turns other whitespace into spaces; SimpleText turns line breaks into
//! spaces too. Line breaks are LF, CR, CRLF and LFCR.

use crate::tree::Value;

/// Length of the line break starting at `b[i]` (LF, CR, CRLF, LFCR), or 0.
fn line_break(b: &[u8], i: usize) -> usize {
    match (b.get(i), b.get(i + 1)) {
        (Some(b'\r'), Some(b'\n')) | (Some(b'\n'), Some(b'\r')) => 2,
        (Some(b'\r'), _) | (Some(b'\n'), _) => 1,
        _ => 0,
    }
}

/// Decodes a raw value. `simple`: SimpleText (line breaks become spaces)
/// instead of Text (line breaks kept, written as `\n`).
pub(crate) fn unescape(raw: &str, simple: bool) -> String {
    let b = raw.as_bytes();
    // Fast path: nothing to change.
    if !b
        .iter()
        .any(|&c| matches!(c, b'\\' | b'\r' | b'\n' | b'\t' | 0x0B | 0x0C))
    {
        return raw.to_owned();
    }
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    // Copy runs of ordinary characters as `&str` slices (cut only at ASCII
    // bytes, so always at char boundaries).
    let mut run = 0;
    while i < b.len() {
        let c = b[i];
        let special = matches!(c, b'\\' | b'\r' | b'\n' | b'\t' | 0x0B | 0x0C);
        if !special {
            i += 1;
            continue;
        }
        out.push_str(raw.get(run..i).unwrap_or_default());
        if c == b'\\' {
            let lb = line_break(b, i + 1);
            if lb > 0 {
                // Soft line break: removed.
                i += 1 + lb;
            } else if i + 1 < b.len() {
                // Escaped character: itself (whitespace still becomes space).
                let next = b[i + 1];
                if matches!(next, b'\t' | 0x0B | 0x0C) {
                    out.push(' ');
                    i += 2;
                } else {
                    // May be a multi-byte character: copy it whole.
                    let len = raw
                        .get(i + 1..)
                        .and_then(|s| s.chars().next())
                        .map_or(1, char::len_utf8);
                    out.push_str(raw.get(i + 1..i + 1 + len).unwrap_or_default());
                    i += 1 + len;
                }
            } else {
                // A lone trailing backslash (only in hand-built raw text).
                i += 1;
            }
        } else {
            let lb = line_break(b, i);
            if lb > 0 {
                out.push(if simple { ' ' } else { '\n' });
                i += lb;
            } else {
                out.push(' ');
                i += 1;
            }
        }
        run = i;
    }
    out.push_str(raw.get(run..).unwrap_or_default());
    out
}

/// Splits a raw composed value at its first unescaped `:`.
pub(crate) fn split_composed(raw: &str) -> Option<(&str, &str)> {
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b':' => return Some((raw.get(..i)?, raw.get(i + 1..)?)),
            _ => i += 1,
        }
    }
    None
}

/// Escapes decoded text for a value: `\` and `]` always, `:` too when the
/// text is one part of a composed value.
pub(crate) fn escape(text: &str, composed: bool) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    for ch in text.chars() {
        if ch == '\\' || ch == ']' || (composed && ch == ':') {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// Whether `raw` can be written between brackets as is: no unescaped `]`
/// and no trailing lone `\`.
pub(crate) fn is_valid_raw(raw: &str) -> bool {
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                if i + 1 >= b.len() {
                    return false;
                }
                i += 2;
            }
            b']' => return false,
            _ => i += 1,
        }
    }
    true
}

/// An SGF point letter: `a`-`z` are 0-25, `A`-`Z` are 26-51.
fn coord(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    }
}

/// Reads a two-letter SGF point (`"pd"` is `(15, 3)`: column, then row from
/// the top). No board size is known here, so `tt` is just `(19, 19)`: whether
/// that is a pass is the caller's business.
pub fn parse_point(s: &str) -> Option<(u8, u8)> {
    match s.as_bytes() {
        [x, y] => Some((coord(*x)?, coord(*y)?)),
        _ => None,
    }
}

/// Expands a point list (`AB`, `AW`, `AE`, `TB`, markup...) into points,
/// compressed rectangles `[aa:cc]` included, in order of first appearance
/// with duplicates removed.
///
/// Values that are not a point or a rectangle of points (empty values,
/// `tt`-style passes are kept as points) are skipped: this is a text-level
/// helper, and the board size check belongs to the caller. At most 52x52
/// distinct points can come out, so a hostile list cannot blow up memory.
pub fn expand_point_list(values: &[Value]) -> Vec<(u8, u8)> {
    let mut seen = vec![false; 52 * 52];
    let mut out = Vec::new();
    let mut add = |p: (u8, u8), out: &mut Vec<(u8, u8)>| {
        let i = usize::from(p.1) * 52 + usize::from(p.0);
        if let Some(s) = seen.get_mut(i)
            && !*s
        {
            *s = true;
            out.push(p);
        }
    };
    for v in values {
        let raw = v.raw().trim();
        if let Some((a, b)) = split_composed(raw) {
            let (Some(a), Some(b)) = (parse_point(a.trim()), parse_point(b.trim())) else {
                continue;
            };
            let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
            let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
            for y in y0..=y1 {
                for x in x0..=x1 {
                    add((x, y), &mut out);
                }
            }
        } else if let Some(p) = parse_point(raw) {
            add(p, &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_simple_text() {
        assert_eq!(unescape("plain", false), "plain");
        assert_eq!(unescape(r"a\]b\\c\:d", false), r"a]b\c:d");
        assert_eq!(unescape("l1\\\nl2", false), "l1l2");
        assert_eq!(unescape("l1\\\r\nl2", false), "l1l2");
        assert_eq!(unescape("l1\\\n\rl2", false), "l1l2");
        assert_eq!(
            unescape("l1\nl2\r\nl3\rl4\n\rl5", false),
            "l1\nl2\nl3\nl4\nl5"
        );
        assert_eq!(unescape("l1\nl2\r\nl3", true), "l1 l2 l3");
        assert_eq!(unescape("a\tb\\\tc", false), "a b c");
        assert_eq!(unescape("\\é\\漢", false), "é漢");
        assert_eq!(unescape("\\u003c", false), "u003c");
        assert_eq!(unescape("x\\", false), "x");
    }

    #[test]
    fn composed() {
        assert_eq!(split_composed("aa:cc"), Some(("aa", "cc")));
        assert_eq!(split_composed(r"x\:y:z:w"), Some((r"x\:y", "z:w")));
        assert_eq!(split_composed(r"a\\:b"), Some((r"a\\", "b")));
        assert_eq!(split_composed("abc"), None);
    }

    #[test]
    fn escaping() {
        assert_eq!(escape(r"a]b\c:d", false), r"a\]b\\c:d");
        assert_eq!(escape(r"a]b\c:d", true), r"a\]b\\c\:d");
        for s in ["", "x]", "\\", "a:b", "l1\nl2", "é]漢"] {
            let raw = escape(s, false);
            assert!(is_valid_raw(&raw));
            assert_eq!(unescape(&raw, false), s);
        }
        assert!(!is_valid_raw("a]"));
        assert!(!is_valid_raw("a\\"));
        assert!(is_valid_raw("a\\\\"));
    }

    #[test]
    fn points() {
        assert_eq!(parse_point("pd"), Some((15, 3)));
        assert_eq!(parse_point("AZ"), Some((26, 51)));
        assert_eq!(parse_point("tt"), Some((19, 19)));
        assert_eq!(parse_point(""), None);
        assert_eq!(parse_point("a1"), None);
        let vals: Vec<Value> = ["aa:bc", "cc:bb", "dd", "", "zz:", "ab"]
            .iter()
            .map(|r| Value::from_raw(r).unwrap())
            .collect();
        assert_eq!(
            expand_point_list(&vals),
            vec![
                (0, 0),
                (1, 0),
                (0, 1),
                (1, 1),
                (0, 2),
                (1, 2),
                (2, 1),
                (2, 2),
                (3, 3)
            ]
        );
        let all = [Value::from_raw("aa:ZZ").unwrap()];
        assert_eq!(expand_point_list(&all).len(), 52 * 52);
    }
}
