//! The catalogues, read once from the files compiled in, and the lookup
//! of a key with English as the fallback.

use crate::Lang;
use std::collections::BTreeMap;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/catalogues.rs"));

/// One language's texts by dotted key.
type Texts = BTreeMap<String, String>;

/// Every catalogue read, in the order of `CATALOGUES`. A file that is not
/// valid TOML reads as empty, so its keys fall back to English; the tests
/// read every file and refuse that.
fn catalogues() -> &'static [Texts] {
    static READ: OnceLock<Vec<Texts>> = OnceLock::new();
    READ.get_or_init(|| {
        CATALOGUES
            .iter()
            .map(|(_, text)| read(text).unwrap_or_default())
            .collect()
    })
}

/// The texts of one catalogue by dotted key, or why it cannot be read.
pub(crate) fn read(text: &str) -> Result<Texts, String> {
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
    let mut out = Texts::new();
    flatten("", &table, &mut out)?;
    Ok(out)
}

fn flatten(prefix: &str, table: &toml::Table, out: &mut Texts) -> Result<(), String> {
    for (k, v) in table {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::String(s) => {
                out.insert(key, s.clone());
            }
            toml::Value::Table(t) => flatten(&key, t, out)?,
            other => {
                return Err(format!(
                    "{key}: a text is expected, not {}",
                    other.type_str()
                ));
            }
        }
    }
    Ok(())
}

pub(crate) fn count() -> usize {
    CATALOGUES.len()
}

pub(crate) fn code(lang: Lang) -> &'static str {
    CATALOGUES.get(lang.0).map_or("en", |(code, _)| code)
}

/// The raw files, for the tests that read them strictly.
#[cfg(test)]
pub(crate) fn files() -> &'static [(&'static str, &'static str)] {
    CATALOGUES
}

/// The text of `key` in `lang`, or in English where `lang` lacks it.
pub fn text(lang: Lang, key: &str) -> Option<&'static str> {
    let all = catalogues();
    all.get(lang.0)
        .and_then(|t| t.get(key))
        .or_else(|| all.first().and_then(|t| t.get(key)))
        .map(String::as_str)
}

/// The text of `key` in `lang` with each `{name}` replaced by its value;
/// the key itself where no catalogue has it.
pub fn fill(lang: Lang, key: &str, args: &[(&str, &str)]) -> String {
    let mut s = text(lang, key).unwrap_or(key).to_owned();
    for (name, value) in args {
        s = s.replace(&format!("{{{name}}}"), value);
    }
    s
}

/// Every key of `lang`'s own catalogue under `prefix` (`page.`), with the
/// rest of the key and the text.
pub fn texts(lang: Lang, prefix: &str) -> impl Iterator<Item = (&'static str, &'static str)> {
    catalogues()
        .get(lang.0)
        .into_iter()
        .flat_map(|t| t.iter())
        .filter_map(move |(k, v)| Some((k.strip_prefix(prefix)?, v.as_str())))
}

/// Every English key under `prefix`, whole.
pub fn keys(prefix: &str) -> impl Iterator<Item = &'static str> {
    catalogues()
        .first()
        .into_iter()
        .flat_map(|t| t.keys())
        .filter(move |k| k.starts_with(prefix))
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placeholders a text names, in order.
    fn placeholders(s: &str) -> Vec<&str> {
        s.split('{')
            .skip(1)
            .filter_map(|rest| rest.split('}').next())
            .collect()
    }

    #[test]
    fn every_catalogue_reads_and_english_comes_first() {
        assert_eq!(files().first().map(|(c, _)| *c), Some("en"));
        for (code, text) in files() {
            let texts = read(text).unwrap_or_else(|e| panic!("words/{code}.toml: {e}"));
            assert!(
                texts.contains_key("language.name"),
                "{code}: no language.name"
            );
        }
    }

    /// Every other catalogue says what English says, with the same
    /// placeholders, and nothing English lacks.
    #[test]
    fn every_catalogue_has_every_english_key_with_its_placeholders() {
        let en = read(files()[0].1).unwrap_or_default();
        for (code, text) in &files()[1..] {
            let other = read(text).unwrap_or_default();
            for (k, v) in &en {
                let Some(w) = other.get(k) else {
                    panic!("words/{code}.toml lacks {k}");
                };
                let mut a = placeholders(v);
                let mut b = placeholders(w);
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(
                    a, b,
                    "words/{code}.toml, {k}: other placeholders than English"
                );
            }
            for k in other.keys() {
                assert!(
                    en.contains_key(k),
                    "words/{code}.toml: {k} is not an English key"
                );
            }
        }
    }

    #[test]
    fn a_number_is_written_the_languages_way_and_other_text_as_it_is() {
        let fr = Lang::parse("fr").unwrap();
        assert_eq!(fr.number("7.5"), "7,5");
        assert_eq!(fr.number("-0.5"), "-0,5");
        assert_eq!(fr.number("KM[7.5]"), "KM[7.5]");
        assert_eq!(Lang::EN.number("7.5"), "7.5");
    }

    #[test]
    fn a_missing_key_falls_back_to_english_then_to_itself() {
        let fr = Lang::parse("fr").unwrap();
        assert_eq!(text(fr, "language.name"), Some("Français"));
        assert_eq!(fill(fr, "no.such.key", &[]), "no.such.key");
        assert!(read("a = 1").is_err());
        assert!(read("[a]\nb = \"x\"").is_ok_and(|t| t["a.b"] == "x"));
    }

    #[test]
    fn fill_replaces_every_placeholder() {
        assert_eq!(
            fill(Lang::EN, "page.wins_by", &[("c", "Black"), ("p", "7.5")]),
            "Black wins by 7.5 points"
        );
    }

    #[test]
    fn unknown_codes_list_the_known() {
        let e = Lang::parse("xx").unwrap_err();
        assert_eq!(e.to_string(), "unknown language \"xx\"; known: en, fr");
        assert_eq!(Lang::parse("FR").map(Lang::code), Ok("fr"));
    }
}
