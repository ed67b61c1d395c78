//! Turning the bytes of a file into UTF-8 text before any SGF syntax is read.
//!
//! Decoding comes first because in Shift_JIS and Big5 the second byte of a
//! character can be `0x5C` (`\`) or `0x5D` (`]`): a parser that reads bytes
//! would take half a character for an escape or the end of a value.
//!
//! The charset, in order:
//!
//! 1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE);
//! 2. UTF-16 without a mark, seen from the zero bytes of ASCII characters;
//! 3. `CA[...]` in the first root node, found in the raw bytes and looked up
//!    as an [`encoding_rs`] label (`GB2312`/`GBK`/`GB18030`, `Big5`,
//!    `Shift_JIS`, `EUC-KR`, `ISO-8859-1`, which encoding_rs reads as
//!    windows-1252, `UTF-8`, ... plus `EUC-CN` and spellings with `_`).
//!    A declared legacy charset loses to UTF-8 when the bytes are valid
//!    UTF-8 with non-ASCII characters (MultiGo and others write `CA[gb2312]`
//!    on UTF-8 files; real GB or Shift_JIS text is practically never valid
//!    UTF-8), with a [`Issue::CharsetOverridden`] warning;
//! 4. without a usable `CA`: UTF-8 if the bytes are valid UTF-8; UTF-8 too if
//!    at least half the non-ASCII bytes form valid UTF-8 sequences (Fox files
//!    are UTF-8 with some bytes replaced by `?`; legacy CJK text scores under
//!    40%); otherwise a guess among GB18030, Shift_JIS, Big5, EUC-KR and
//!    windows-1252, choosing the charset whose reading has the fewest
//!    invalid sequences and the most common characters (frequent hanzi,
//!    kana, hangul, accented letters beside ASCII letters), with a
//!    [`Issue::CharsetGuessed`] warning.
//!
//! Invalid sequences become U+FFFD with an [`Issue::Replaced`] warning in
//! lenient mode, and are an [`ParseError::InvalidBytes`] error in strict mode.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::OnceLock;

use encoding_rs::{
    BIG5, DecoderResult, EUC_KR, Encoding, GB18030, GBK, REPLACEMENT, SHIFT_JIS, UTF_8, UTF_16BE,
    UTF_16LE, WINDOWS_1252,
};

use crate::error::{Issue, LineCursor, ParseError, Span};

/// Decoded text and what was noted on the way.
#[derive(Debug)]
pub(crate) struct Decoded<'a> {
    pub(crate) text: Cow<'a, str>,
    pub(crate) encoding: &'static Encoding,
    /// Warnings with their spans in the decoded text.
    pub(crate) notes: Vec<(Issue, Span)>,
}

/// Looks up a `CA` label: encoding_rs labels (WHATWG), then a few common
/// spellings it does not know. `None` for unknown labels and for the
/// "replacement" encoding (ISO-2022-KR and others WHATWG disables).
pub fn charset_for_label(label: &str) -> Option<&'static Encoding> {
    let label = label.trim();
    if label.eq_ignore_ascii_case("UTF-8") {
        return Some(UTF_8);
    }
    let lower = label.to_ascii_lowercase();
    let found = Encoding::for_label(lower.as_bytes())
        .or_else(|| Encoding::for_label(lower.replace('_', "-").as_bytes()))
        .or_else(|| Encoding::for_label(lower.replace('-', "_").as_bytes()))
        .or_else(|| {
            let bare: String = lower.chars().filter(|c| *c != '-' && *c != '_').collect();
            match bare.as_str() {
                "euccn" | "cp936" | "ms936" | "gb2312" | "gbk" => Some(GBK),
                "gb18030" => Some(GB18030),
                "utf8" => Some(UTF_8),
                "utf16" | "utf16le" => Some(UTF_16LE),
                "utf16be" => Some(UTF_16BE),
                "latin1" | "iso88591" | "ascii" | "usascii" => Some(WINDOWS_1252),
                "sjis" | "shiftjis" | "mskanji" | "cp932" => Some(SHIFT_JIS),
                "big5" | "cp950" => Some(BIG5),
                "euckr" | "cp949" | "uhc" => Some(EUC_KR),
                _ => Encoding::for_label(bare.as_bytes()),
            }
        })?;
    if found == REPLACEMENT {
        None
    } else {
        Some(found)
    }
}

/// Finds `CA[...]` in the first root node of the raw bytes: the label and
/// the byte offset of the `C`. Escapes are honoured only after an ASCII
/// byte, so that a Shift_JIS or Big5 second byte `0x5C` does not hide the
/// end of a value.
fn find_ca(b: &[u8]) -> Option<(String, usize)> {
    let mut i = b.iter().position(|&c| c == b'(' || c == b';')?;
    let mut seen_node = false;
    let mut ident: Vec<u8> = Vec::new();
    let mut ident_start = i;
    let mut after_value = false;
    while let Some(&c) = b.get(i) {
        match c {
            b'(' if !seen_node => {}
            b';' if !seen_node => {
                seen_node = true;
                ident.clear();
            }
            b';' | b'(' | b')' => break,
            b'A'..=b'Z' | b'a'..=b'z' => {
                if after_value || ident.is_empty() {
                    ident.clear();
                    ident_start = i;
                    after_value = false;
                }
                if c.is_ascii_uppercase() && ident.len() < 8 {
                    ident.push(c);
                }
            }
            b'[' => {
                let start = i + 1;
                let mut j = start;
                while let Some(&v) = b.get(j) {
                    if v == b']' {
                        break;
                    }
                    if v == b'\\' && (j == 0 || b.get(j - 1).is_some_and(|&p| p < 0x80)) {
                        j += 1;
                    }
                    j += 1;
                }
                if ident == b"CA" {
                    let raw = b.get(start..j.min(b.len())).unwrap_or_default();
                    let label: String = raw
                        .iter()
                        .take(64)
                        .filter(|c| c.is_ascii_graphic())
                        .map(|&c| char::from(c))
                        .collect();
                    return Some((label, ident_start));
                }
                after_value = true;
                i = j;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// UTF-16 without a byte order mark: SGF syntax is ASCII, so every other
/// byte of the first characters is zero.
fn sniff_utf16(b: &[u8]) -> Option<&'static Encoding> {
    let head = b.get(..b.len().min(256) & !1).unwrap_or_default();
    let pairs = head.len() / 2;
    // Most files have no zero byte at all: one fast search says so.
    if pairs == 0 || !head.contains(&0) {
        return None;
    }
    let even = head.iter().step_by(2).filter(|&&c| c == 0).count();
    let odd = head.iter().skip(1).step_by(2).filter(|&&c| c == 0).count();
    if odd * 2 >= pairs && even * 4 <= odd {
        Some(UTF_16LE)
    } else if even * 2 >= pairs && odd * 4 <= even {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// How many bytes are not ASCII, eight at a time.
fn count_non_ascii(b: &[u8]) -> usize {
    let words = b.chunks_exact(8);
    let tail = words.remainder().iter().filter(|&&c| c >= 0x80).count();
    words
        .map(|w| {
            let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
            (w & 0x8080_8080_8080_8080).count_ones() as usize
        })
        .sum::<usize>()
        + tail
}

/// Bytes read as UTF-8 in one pass, each invalid sequence replaced by
/// U+FFFD (as encoding_rs and WHATWG do it: one per maximal invalid
/// subpart), with the counts that decide whether UTF-8 is the right
/// reading at all.
struct Lossy {
    text: String,
    /// Non-ASCII bytes in valid sequences.
    valid: usize,
    /// Bytes in invalid sequences.
    invalid: usize,
    /// Invalid sequences replaced.
    replaced: usize,
    /// Where the first replacement is in `text`.
    first: usize,
}

impl Lossy {
    fn read(b: &[u8]) -> Lossy {
        let mut lossy = Lossy {
            text: String::with_capacity(b.len() + 16),
            valid: 0,
            invalid: 0,
            replaced: 0,
            first: 0,
        };
        // `from_utf8` runs through ASCII a word at a time, where a
        // character-by-character decoder would not.
        let mut rest = b;
        loop {
            let (ok, bad) = match std::str::from_utf8(rest) {
                Ok(text) => (text, 0),
                Err(e) => {
                    let (head, tail) = rest.split_at(e.valid_up_to());
                    let bad = e.error_len().unwrap_or(tail.len());
                    rest = tail.get(bad..).unwrap_or_default();
                    (std::str::from_utf8(head).unwrap_or_default(), bad)
                }
            };
            lossy.valid += count_non_ascii(ok.as_bytes());
            lossy.text.push_str(ok);
            if bad == 0 {
                return lossy;
            }
            if lossy.replaced == 0 {
                lossy.first = lossy.text.len();
            }
            lossy.invalid += bad;
            lossy.replaced += 1;
            lossy.text.push('\u{FFFD}');
        }
    }

    /// Mostly UTF-8: at least half the non-ASCII bytes in valid sequences.
    fn mostly_utf8(&self) -> bool {
        self.valid > 0 && self.valid >= self.invalid
    }
}

fn pair_set(encoding: &'static Encoding, chars: &str) -> HashSet<u16> {
    let (bytes, _, _) = encoding.encode(chars);
    bytes
        .chunks_exact(2)
        .map(|p| u16::from_be_bytes([p[0], p[1]]))
        .collect()
}

const COMMON_HANS: &str = "的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日第黑白先胜负目半段届杯赛局手棋围让贴和";
const COMMON_HANT: &str = "的一是不了在人有我他這個們中來上大為和國地到以說時要就出會可也你對生能而子那得於著下自之年過發後作裡用道行所然家種事成方多經麼去法學如都同現當沒動面起看定天分還進好小部其些主樣理心她本前開但因只從想實日第黑白先勝負目半段屆杯賽局手棋圍讓貼";
const COMMON_KANJI: &str = "日本人大年一中子出時行見月分後前生五間上東四今金九入学高円十八長六本三二段目局先手黒白勝負碁棋戦名譲";
const COMMON_HANGUL: &str = "이다의는에을하고가지기한서로그리사도자를게수있어대해나으시인들과일정부만보아국바둑흑백승단집반불계덤전결";

fn common(which: usize) -> &'static HashSet<u16> {
    static SETS: OnceLock<[HashSet<u16>; 4]> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        [
            pair_set(GBK, COMMON_HANS),
            pair_set(BIG5, COMMON_HANT),
            pair_set(SHIFT_JIS, COMMON_KANJI),
            pair_set(EUC_KR, COMMON_HANGUL),
        ]
    });
    &sets[which.min(3)]
}

const BAD: i64 = -6;

/// Adds up the plausibility of the non-ASCII characters of `b`: `step`
/// reads one character at the start of the slice it is given and returns
/// its score and the bytes it takes (at least one).
fn scan(b: &[u8], step: impl Fn(u8, &[u8]) -> (i64, usize)) -> i64 {
    let (mut i, mut s) = (0, 0i64);
    while let Some(&c) = b.get(i) {
        if c < 0x80 {
            i += 1;
            continue;
        }
        let (score, len) = step(c, b.get(i + 1..).unwrap_or_default());
        s += score;
        i += len.max(1);
    }
    s
}

/// A double-byte character `c t`: 4 among the script's common characters,
/// 2 in its main block, 1 in its other blocks, -1 elsewhere.
fn weigh(set: &HashSet<u16>, c: u8, t: u8, main: bool, other: bool) -> i64 {
    if set.contains(&u16::from_be_bytes([c, t])) {
        4
    } else if main {
        2
    } else if other {
        1
    } else {
        -1
    }
}

/// Plausibility of reading `b` as GB18030 (GBK, GB2312).
fn score_gb(b: &[u8]) -> i64 {
    let set = common(0);
    scan(b, |c, rest| {
        let t = rest.first().copied().unwrap_or(0);
        if c == 0x80 || c == 0xFF {
            (BAD, 1)
        } else if (0x30..=0x39).contains(&t) {
            // A four-byte sequence.
            let ok = rest.get(1).is_some_and(|&x| (0x81..=0xFE).contains(&x))
                && rest.get(2).is_some_and(|&x| (0x30..=0x39).contains(&x));
            if ok { (-1, 4) } else { (BAD, 1) }
        } else if (0x40..=0xFE).contains(&t) && t != 0x7F {
            let main = t >= 0xA1 && (0xB0..=0xD7).contains(&c);
            let other = t >= 0xA1 && ((0xA1..=0xA9).contains(&c) || (0xD8..=0xF7).contains(&c));
            (weigh(set, c, t, main, other), 2)
        } else {
            (BAD, 1)
        }
    })
}

/// Plausibility of reading `b` as Big5.
fn score_big5(b: &[u8]) -> i64 {
    let set = common(1);
    scan(b, |c, rest| {
        let t = rest.first().copied().unwrap_or(0);
        let trail = (0x40..=0x7E).contains(&t) || (0xA1..=0xFE).contains(&t);
        if (0x81..=0xFE).contains(&c) && trail {
            let main = (0xA4..=0xC6).contains(&c);
            let other = (0xA1..=0xA3).contains(&c) || (0xC9..=0xF9).contains(&c);
            (weigh(set, c, t, main, other), 2)
        } else {
            (BAD, 1)
        }
    })
}

/// Plausibility of reading `b` as Shift_JIS.
fn score_sjis(b: &[u8]) -> i64 {
    let set = common(2);
    scan(b, |c, rest| {
        let t = rest.first().copied().unwrap_or(0);
        let lead = (0x81..=0x9F).contains(&c) || (0xE0..=0xFC).contains(&c);
        let trail = (0x40..=0x7E).contains(&t) || (0x80..=0xFC).contains(&t);
        if (0xA1..=0xDF).contains(&c) {
            // Half-width katakana: rare in real text, common in misreadings.
            (-1, 1)
        } else if lead && trail {
            let main = c == 0x82 || c == 0x83 || (0x88..=0x98).contains(&c);
            let other = c == 0x81 || (0x99..=0x9F).contains(&c) || (0xE0..=0xEA).contains(&c);
            (weigh(set, c, t, main, other), 2)
        } else {
            (BAD, 1)
        }
    })
}

/// Plausibility of reading `b` as EUC-KR.
fn score_euc_kr(b: &[u8]) -> i64 {
    let set = common(3);
    scan(b, |c, rest| {
        let t = rest.first().copied().unwrap_or(0);
        let trail = t.is_ascii_alphabetic() || (0x81..=0xFE).contains(&t);
        if (0x81..=0xFE).contains(&c) && trail {
            let main = t >= 0xA1 && (0xB0..=0xC8).contains(&c);
            let other = t >= 0xA1 && ((0xA1..=0xAC).contains(&c) || (0xCA..=0xFD).contains(&c));
            (weigh(set, c, t, main, other), 2)
        } else {
            (BAD, 1)
        }
    })
}

/// Plausibility of reading `b` as windows-1252: short runs of accented
/// letters beside ASCII letters (`créé`), not long runs of symbols.
fn score_latin(b: &[u8]) -> i64 {
    let is_letter = |c: u8| {
        (0xC0..=0xFF).contains(&c) && c != 0xD7 && c != 0xF7
            || matches!(c, 0x8A | 0x8C | 0x8E | 0x9A | 0x9C | 0x9E | 0x9F)
    };
    let (mut i, mut s) = (0, 0i64);
    while i < b.len() {
        if b.get(i).is_some_and(|&c| c < 0x80) {
            i += 1;
            continue;
        }
        let start = i;
        while b.get(i).is_some_and(|&c| c >= 0x80) {
            i += 1;
        }
        let run = b.get(start..i).unwrap_or_default();
        let before = start
            .checked_sub(1)
            .and_then(|j| b.get(j))
            .copied()
            .unwrap_or(0);
        let after = b.get(i).copied().unwrap_or(0);
        let beside = before.is_ascii_alphabetic() || after.is_ascii_alphabetic();
        let n = run.len() as i64;
        if run.len() <= 3 && beside && run.iter().all(|&c| is_letter(c)) {
            s += 3 * n;
        } else {
            s -= n;
        }
    }
    s
}

/// How plausible some bytes are in one charset.
type Scorer = fn(&[u8]) -> i64;

/// The most plausible legacy charset for bytes that are not UTF-8.
fn guess(b: &[u8]) -> &'static Encoding {
    let candidates: [(&'static Encoding, Scorer); 5] = [
        (GB18030, score_gb),
        (SHIFT_JIS, score_sjis),
        (BIG5, score_big5),
        (EUC_KR, score_euc_kr),
        (WINDOWS_1252, score_latin),
    ];
    let mut best = (WINDOWS_1252, i64::MIN);
    for (enc, score) in candidates {
        let s = score(b);
        if s > best.1 {
            best = (enc, s);
        }
    }
    best.0
}

/// Offset of the first byte that is not valid in `encoding`.
fn first_invalid(encoding: &'static Encoding, b: &[u8]) -> usize {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut buf = [0u8; 4096];
    let mut read_total = 0;
    loop {
        let src = b.get(read_total..).unwrap_or_default();
        let (res, read, _) = decoder.decode_to_utf8_without_replacement(src, &mut buf, true);
        read_total += read;
        match res {
            DecoderResult::InputEmpty => return b.len(),
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(bad, extra) => {
                return read_total.saturating_sub(usize::from(bad) + usize::from(extra));
            }
        }
    }
}

fn raw_location(b: &[u8], offset: usize) -> crate::error::Location {
    LineCursor::default().locate(b, offset)
}

/// Decodes `body` (the input after `skip` bytes of byte order mark).
fn finish<'a>(
    encoding: &'static Encoding,
    input: &'a [u8],
    skip: usize,
    lenient: bool,
    mut notes: Vec<(Issue, Span)>,
) -> Result<Decoded<'a>, ParseError> {
    let body = input.get(skip..).unwrap_or_default();
    if encoding == UTF_8
        && skip > 0
        && let Ok(text) = std::str::from_utf8(body)
    {
        // UTF-8 after a byte order mark: no copy needed.
        return Ok(Decoded {
            text: Cow::Borrowed(text),
            encoding,
            notes,
        });
    }
    let (text, had_errors) = encoding.decode_without_bom_handling(body);
    if had_errors {
        if !lenient {
            let at = skip + first_invalid(encoding, body);
            return Err(ParseError::InvalidBytes {
                at: raw_location(input, at),
                charset: encoding.name(),
            });
        }
        let count = text.matches('\u{FFFD}').count();
        let first = text.find('\u{FFFD}').unwrap_or(0);
        notes.push((
            Issue::Replaced {
                count,
                charset: encoding.name(),
            },
            Span::new(first, first + 3),
        ));
    }
    Ok(Decoded {
        text,
        encoding,
        notes,
    })
}

/// Decodes the input; see the module documentation for the order of tries.
pub(crate) fn decode(input: &[u8], lenient: bool) -> Result<Decoded<'_>, ParseError> {
    let mut notes = Vec::new();
    if let Some((encoding, bom)) = Encoding::for_bom(input) {
        return finish(encoding, input, bom, lenient, notes);
    }
    if let Some(encoding) = sniff_utf16(input) {
        return finish(encoding, input, 0, lenient, notes);
    }
    let declared = find_ca(input);
    let mut declared_enc = None;
    if let Some((label, at)) = &declared {
        match charset_for_label(label) {
            // UTF-16 named in ASCII bytes cannot be right: treat as wrong.
            Some(enc) if enc != UTF_16LE && enc != UTF_16BE => declared_enc = Some(enc),
            Some(_) => {}
            None => {
                let issue = Issue::UnknownCharset {
                    label: label.clone(),
                };
                if !lenient {
                    return Err(ParseError::Syntax {
                        at: raw_location(input, *at),
                        span: Span::new(*at, *at + 2),
                        issue,
                    });
                }
                notes.push((issue, Span::default()));
            }
        }
    }
    let utf8 = std::str::from_utf8(input).ok();
    let valid_utf8 = utf8.is_some();
    // Invalid UTF-8 is read once as UTF-8: the counts say whether to keep
    // that reading, and the text is ready if so.
    let lossy = if valid_utf8 {
        None
    } else {
        Some(Lossy::read(input))
    };
    let mostly_utf8 = lossy.as_ref().is_some_and(Lossy::mostly_utf8);
    let chosen = match declared_enc {
        Some(enc) if enc == UTF_8 => {
            if valid_utf8 || mostly_utf8 {
                UTF_8
            } else {
                guess(input)
            }
        }
        Some(enc) => {
            if valid_utf8 && !input.is_ascii() {
                UTF_8
            } else {
                enc
            }
        }
        None => {
            if valid_utf8 {
                UTF_8
            } else {
                let enc = if mostly_utf8 { UTF_8 } else { guess(input) };
                notes.push((
                    Issue::CharsetGuessed {
                        charset: enc.name(),
                    },
                    Span::default(),
                ));
                enc
            }
        }
    };
    if let (Some((label, _)), Some(enc)) = (&declared, declared_enc)
        && enc != chosen
    {
        notes.push((
            Issue::CharsetOverridden {
                declared: label.clone(),
                charset: chosen.name(),
            },
            Span::default(),
        ));
    }
    if chosen == UTF_8
        && let Some(text) = utf8
    {
        // Valid UTF-8 needs no decoding (and no second validation).
        return Ok(Decoded {
            text: Cow::Borrowed(text),
            encoding: UTF_8,
            notes,
        });
    }
    if chosen == UTF_8
        && lenient
        && let Some(lossy) = lossy
    {
        notes.push((
            Issue::Replaced {
                count: lossy.replaced,
                charset: UTF_8.name(),
            },
            Span::new(lossy.first, lossy.first + 3),
        ));
        return Ok(Decoded {
            text: Cow::Owned(lossy.text),
            encoding: UTF_8,
            notes,
        });
    }
    finish(chosen, input, 0, lenient, notes)
}

/// Decodes a collection game by game, each by its own `CA` (and the same
/// detection as a whole file when it has none), for files whose later
/// games declare another charset than the first. The decoded games are
/// joined in one text, so that the parser reads them as it reads any
/// file. `None` when the file has a byte order mark or is UTF-16: its
/// bytes are one charset whatever `CA` says.
pub(crate) fn decode_per_game(
    input: &[u8],
    lenient: bool,
) -> Result<Option<Decoded<'static>>, ParseError> {
    if Encoding::for_bom(input).is_some() || sniff_utf16(input).is_some() {
        return Ok(None);
    }
    let mut text = String::with_capacity(input.len() + input.len() / 2);
    let mut notes = Vec::new();
    let mut first = None;
    let mut start = 0;
    while start < input.len() {
        let rest = input.get(start..).unwrap_or_default();
        let end = start + game_end(rest);
        let piece = input.get(start..end).unwrap_or_default();
        let decoded = decode(piece, lenient)?;
        let shift = text.len();
        notes.extend(
            decoded
                .notes
                .into_iter()
                .map(|(issue, span)| (issue, Span::new(span.start + shift, span.end + shift))),
        );
        first.get_or_insert(decoded.encoding);
        text.push_str(&decoded.text);
        start = end;
    }
    Ok(Some(Decoded {
        text: Cow::Owned(text),
        encoding: first.unwrap_or(UTF_8),
        notes,
    }))
}

/// Where the first game tree of `b` ends (one past its closing `)`; the
/// end of the input when it does not close). The bytes are decoded one at
/// a time in the charset its `CA` names (UTF-8 without one), so that the
/// second byte of a Shift_JIS or Big5 character, which can be `]` or `\`,
/// is never taken for syntax; values and escapes are skipped.
fn game_end(b: &[u8]) -> usize {
    let encoding = find_ca(b)
        .and_then(|(label, _)| charset_for_label(&label))
        .filter(|e| *e != UTF_16LE && *e != UTF_16BE)
        .unwrap_or(UTF_8);
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = [0u8; 16];
    let (mut depth, mut in_value, mut escaped) = (0usize, false, false);
    for (i, byte) in b.iter().enumerate() {
        let (_, _, written, _) =
            decoder.decode_to_utf8(std::slice::from_ref(byte), &mut out, false);
        for &c in out.get(..written).unwrap_or_default() {
            if in_value {
                match c {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b']' => in_value = false,
                    _ => {}
                }
                continue;
            }
            match c {
                b'[' if depth > 0 => in_value = true,
                b'(' => depth += 1,
                b')' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
        }
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        for (label, name) in [
            ("UTF-8", "UTF-8"),
            ("utf8", "UTF-8"),
            ("GB2312", "GBK"),
            ("gb2312", "GBK"),
            ("GBK", "GBK"),
            ("EUC-CN", "GBK"),
            ("GB18030", "gb18030"),
            ("Big5", "Big5"),
            ("Shift_JIS", "Shift_JIS"),
            ("MS_KANJI", "Shift_JIS"),
            ("EUC-KR", "EUC-KR"),
            ("ISO-8859-1", "windows-1252"),
            ("iso8859_1", "windows-1252"),
            ("Latin1", "windows-1252"),
            ("ascii", "windows-1252"),
            ("ISO-2022-JP", "ISO-2022-JP"),
            ("UTF16LE", "UTF-16LE"),
            ("macintosh", "macintosh"),
        ] {
            assert_eq!(
                charset_for_label(label).map(|e| e.name()),
                Some(name),
                "{label}"
            );
        }
        assert!(charset_for_label("foo").is_none());
        assert!(charset_for_label("ISO-2022-KR").is_none());
    }

    #[test]
    fn ca_in_raw_bytes() {
        assert_eq!(
            find_ca(b"(;GM[1]CA[GB2312]SZ[19])"),
            Some(("GB2312".into(), 7))
        );
        assert_eq!(
            find_ca(b"junk (;C[x\\]CA[no]]CA[Big5])").map(|x| x.0),
            Some("Big5".into())
        );
        assert_eq!(find_ca(b"(;GM[1];CA[late])"), None);
        assert_eq!(
            find_ca(b";FF[4]CA[UTF-8]").map(|x| x.0),
            Some("UTF-8".into())
        );
        assert_eq!(
            find_ca(b"(CA[UTF-8])(;CA[x])").map(|x| x.0),
            Some("UTF-8".into())
        );
        // Shift_JIS: 0x95 0x5C is one character; the 0x5C is no escape.
        assert_eq!(
            find_ca(b"(;PB[\x95\x5C]CA[Shift_JIS])").map(|x| x.0),
            Some("Shift_JIS".into())
        );
    }

    #[test]
    fn guesses() {
        let (gb, _, _) = GBK.encode("(;PB[柯洁]PW[白]C[黑棋中盘胜])");
        assert_eq!(guess(&gb), GB18030);
        let (sj, _, _) = SHIFT_JIS.encode("(;PB[本因坊秀策]C[黒の勝ちです。])");
        assert_eq!(guess(&sj), SHIFT_JIS);
        let (kr, _, _) = EUC_KR.encode("(;PB[이세돌]C[흑 불계승입니다])");
        assert_eq!(guess(&kr), EUC_KR);
        let (b5, _, _) = BIG5.encode("(;PB[周俊勳]C[黑中盤勝。這是一個對局])");
        assert_eq!(guess(&b5), BIG5);
        let (la, _, _) =
            WINDOWS_1252.encode("(;C[Fichier SGF créé par TurboGo, partie jouée à Paris])");
        assert_eq!(guess(&la), WINDOWS_1252);
        assert_eq!(count_non_ascii("a柯洁bcdefghij白".as_bytes()), 9);
        assert!(Lossy::read("柯洁 ?? 白".as_bytes()).mostly_utf8());
        assert!(!Lossy::read(&gb).mostly_utf8());
        // A Fox name with a byte turned into `?`, then broken sequences.
        let mut fox = "柯洁白".as_bytes().to_vec();
        fox[4] = b'?';
        fox.extend_from_slice(b" \xE6\x9F;B[pd]\xFF");
        let lossy = Lossy::read(&fox);
        assert!(lossy.mostly_utf8());
        assert_eq!(lossy.text, String::from_utf8_lossy(&fox));
        assert_eq!((lossy.valid, lossy.invalid, lossy.replaced), (6, 5, 4));
        assert_eq!(lossy.first, 3);
        let (decoded, _) = UTF_8.decode_without_bom_handling(&fox);
        assert_eq!(lossy.text, decoded);
    }

    #[test]
    fn replaced_counts_invalid_sequences_only() {
        // A U+FFFD already in the text is no replacement.
        let mut b = "(;C[\u{FFFD} already here]".as_bytes().to_vec();
        b.extend_from_slice(b"PB[\xFF\xFE])");
        let decoded = decode(&b, true).unwrap();
        let replaced: Vec<_> = decoded
            .notes
            .iter()
            .filter_map(|(issue, span)| match issue {
                Issue::Replaced { count, .. } => Some((*count, span.start)),
                _ => None,
            })
            .collect();
        assert_eq!(replaced, vec![(2, 24)]);
        assert_eq!(&decoded.text[24..30], "\u{FFFD}\u{FFFD}");
        assert!(decode(&b, false).is_err());
    }

    #[test]
    fn utf16_sniffing() {
        let le: Vec<u8> = "(;CA[UTF-16LE])"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be: Vec<u8> = "(;CA[UTF-16BE])"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert_eq!(sniff_utf16(&le), Some(UTF_16LE));
        assert_eq!(sniff_utf16(&be), Some(UTF_16BE));
        assert_eq!(sniff_utf16(b"(;GM[1])"), None);
    }
}
