//! A string that stores short contents inline.
//!
//! Nearly every value in a game record is a two-letter point (`B[pd]`) and
//! nearly every identifier is one or two letters, so keeping them inline
//! saves one heap allocation per property and per value, which is most of
//! the cost of parsing.

use std::fmt;

const INLINE: usize = 14;

/// The 52 SGF letters.
const LETTERS: &[u8; 52] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Every pair of SGF letters, `aa ab ... ZZ`: a point or a short identifier
/// is a slice of it, stored as an index, with no bytes copied.
static PAIR_BYTES: [u8; 52 * 52 * 2] = {
    let mut out = [0u8; 52 * 52 * 2];
    let mut i = 0;
    while i < 52 * 52 {
        out[2 * i] = LETTERS[i / 52];
        out[2 * i + 1] = LETTERS[i % 52];
        i += 1;
    }
    out
};

/// Index of each byte among the SGF letters; 255 for other bytes.
static LETTER_INDEX: [u8; 256] = {
    let mut out = [255u8; 256];
    let mut i = 0;
    while i < 52 {
        out[LETTERS[i] as usize] = i as u8;
        i += 1;
    }
    out
};

/// Short strings inline, longer ones on the heap, one or two letters as a
/// slice of a static table.
#[derive(Clone)]
pub(crate) enum SmallStr {
    /// `PAIR_BYTES[start..start + len]`, `len` 1 or 2.
    Pair {
        start: u16,
        len: u8,
    },
    Inline {
        len: u8,
        buf: [u8; INLINE],
    },
    /// Boxed twice so that the whole type stays 16 bytes: long values are
    /// few (comments, names) and long enough that a second allocation is
    /// cheap beside copying them.
    Heap(Box<Box<str>>),
}

/// The one letter of index `i` (0-51) in `PAIR_BYTES`: the first letter of
/// the pair that repeats it.
#[inline(always)]
const fn single(i: u16) -> SmallStr {
    SmallStr::Pair {
        start: 2 * 53 * i,
        len: 1,
    }
}

/// The letters of indices `i` then `j` (0-51) in `PAIR_BYTES`.
#[inline(always)]
const fn double(i: u16, j: u16) -> SmallStr {
    SmallStr::Pair {
        start: 2 * (52 * i + j),
        len: 2,
    }
}

impl SmallStr {
    /// One or two SGF letters as a slice of the static table.
    #[inline(always)]
    fn pair(bytes: &[u8]) -> Option<SmallStr> {
        match *bytes {
            [a] => {
                let i = u16::from(*LETTER_INDEX.get(usize::from(a))?);
                (i < 52).then_some(single(i))
            }
            [a, b] => {
                let i = u16::from(*LETTER_INDEX.get(usize::from(a))?);
                let j = u16::from(*LETTER_INDEX.get(usize::from(b))?);
                (i < 52 && j < 52).then_some(double(i, j))
            }
            _ => None,
        }
    }

    /// An upper-case letter `A`-`Z` (a move's identifier), the caller
    /// having checked it: the same string [`SmallStr::new`] builds, with
    /// no table lookup. (Another byte gives a wrong string, not a panic.)
    #[inline(always)]
    pub(crate) fn upper(c: u8) -> SmallStr {
        single(26 + u16::from(c.wrapping_sub(b'A')))
    }

    /// Two lower-case letters `a`-`z` (a point), the caller having checked
    /// them: the same string [`SmallStr::new`] builds, with no table lookup.
    /// (Other bytes give a wrong string, not a panic.)
    #[inline(always)]
    pub(crate) fn lower_pair(x: u8, y: u8) -> SmallStr {
        double(
            u16::from(x.wrapping_sub(b'a')),
            u16::from(y.wrapping_sub(b'a')),
        )
    }

    #[inline]
    pub(crate) fn new(s: &str) -> Self {
        SmallStr::from_text(s, 0, s.len())
    }

    /// `text[start..end]`, cut at ASCII bytes (so at char boundaries), without
    /// the boundary checks `str` slicing makes: the parser's hot path.
    #[inline(always)]
    pub(crate) fn from_text(text: &str, start: usize, end: usize) -> Self {
        let bytes = text.as_bytes().get(start..end).unwrap_or_default();
        if let Some(p) = SmallStr::pair(bytes) {
            return p;
        }
        if bytes.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..bytes.len()].copy_from_slice(bytes);
            SmallStr::Inline {
                len: bytes.len() as u8,
                buf,
            }
        } else {
            SmallStr::Heap(Box::new(Box::from(
                text.get(start..end).unwrap_or_default(),
            )))
        }
    }

    pub(crate) fn from_string(s: String) -> Self {
        if s.len() <= INLINE {
            SmallStr::new(&s)
        } else {
            SmallStr::Heap(Box::new(s.into_boxed_str()))
        }
    }

    #[inline]
    pub(crate) fn as_bytes(&self) -> &[u8] {
        match self {
            SmallStr::Pair { start, len } => {
                let start = usize::from(*start);
                PAIR_BYTES
                    .get(start..start + usize::from(*len))
                    .unwrap_or_default()
            }
            SmallStr::Inline { len, buf } => buf.get(..usize::from(*len)).unwrap_or_default(),
            SmallStr::Heap(s) => s.as_bytes(),
        }
    }

    pub(crate) fn as_str(&self) -> &str {
        match self {
            // Always valid: built from a `&str` cut at a char boundary. The
            // check costs a few nanoseconds for these short strings and keeps
            // the crate free of `unsafe`.
            SmallStr::Pair { .. } | SmallStr::Inline { .. } => {
                std::str::from_utf8(self.as_bytes()).unwrap_or_default()
            }
            SmallStr::Heap(s) => s,
        }
    }
}

impl PartialEq for SmallStr {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            // Equal contents always make equal pairs: `new` and `from_text`
            // use the pair form for every one- or two-letter string.
            (SmallStr::Pair { start: a, len: m }, SmallStr::Pair { start: b, len: n }) => {
                a == b && m == n
            }
            (SmallStr::Pair { .. }, _) | (_, SmallStr::Pair { .. }) => false,
            _ => self.as_bytes() == other.as_bytes(),
        }
    }
}

impl Eq for SmallStr {}

impl fmt::Debug for SmallStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_and_heap() {
        for s in [
            "",
            "pd",
            "é漢字",
            "0123456789012345678901",
            "01234567890123456789012",
        ] {
            let a = SmallStr::new(s);
            assert_eq!(a.as_str(), s);
            assert_eq!(SmallStr::from_string(s.to_string()), a);
        }
        assert!(matches!(SmallStr::new("pd"), SmallStr::Pair { len: 2, .. }));
        assert!(matches!(SmallStr::new("B"), SmallStr::Pair { len: 1, .. }));
        assert!(matches!(SmallStr::new("ZZ"), SmallStr::Pair { .. }));
        assert!(matches!(SmallStr::new("z"), SmallStr::Pair { .. }));
        let t = "é;pd]long value with more than 14 bytes]x]";
        assert_eq!(SmallStr::from_text(t, 3, 5).as_str(), "pd");
        assert_eq!(SmallStr::from_text(t, 0, 2).as_str(), "é");
        assert_eq!(
            SmallStr::from_text(t, 6, 40).as_str(),
            "long value with more than 14 bytes"
        );
        assert_eq!(SmallStr::from_text(t, 41, 42).as_str(), "x");
        assert!(matches!(SmallStr::new("p1"), SmallStr::Inline { .. }));
        for a in LETTERS {
            for b in LETTERS {
                let s = String::from_utf8(vec![*a, *b]).unwrap();
                assert_eq!(SmallStr::new(&s).as_str(), s);
                assert_eq!(SmallStr::new(&s[..1]).as_str(), &s[..1]);
            }
        }
        assert!(matches!(SmallStr::new(&"x".repeat(15)), SmallStr::Heap(_)));
        for c in b'A'..=b'Z' {
            assert_eq!(
                SmallStr::upper(c),
                SmallStr::new(&char::from(c).to_string())
            );
        }
        for x in b'a'..=b'z' {
            for y in b'a'..=b'z' {
                let s = String::from_utf8(vec![x, y]).unwrap();
                assert_eq!(SmallStr::lower_pair(x, y).as_str(), s);
                assert_eq!(SmallStr::lower_pair(x, y), SmallStr::new(&s));
            }
        }
        assert_eq!(std::mem::size_of::<SmallStr>(), 16);
    }
}
