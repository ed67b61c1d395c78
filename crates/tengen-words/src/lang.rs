//! The languages: one per catalogue, by its file name.

use crate::catalogue;

/// A language that has a catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lang(pub(crate) usize);

/// A language code with no catalogue.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown language {given:?}; known: {}", known.join(", "))]
pub struct UnknownLang {
    /// What was asked for.
    pub given: String,
    /// The codes there are catalogues for.
    pub known: Vec<&'static str>,
}

impl Lang {
    /// English: complete, and what the other languages fall back to.
    pub const EN: Lang = Lang(0);

    /// Every language, English first.
    pub fn all() -> impl Iterator<Item = Lang> {
        (0..catalogue::count()).map(Lang)
    }

    /// The language of a code (`en`, `fr`), in any case.
    pub fn parse(code: &str) -> Result<Lang, UnknownLang> {
        Lang::all()
            .find(|l| l.code().eq_ignore_ascii_case(code))
            .ok_or_else(|| UnknownLang {
                given: code.to_owned(),
                known: Lang::all().map(Lang::code).collect(),
            })
    }

    /// Its code: the catalogue's file name (`fr`).
    pub fn code(self) -> &'static str {
        catalogue::code(self)
    }

    /// Its name in itself (`Français`), the catalogue's `language.name`.
    pub fn name(self) -> &'static str {
        catalogue::text(self, "language.name").unwrap_or_else(|| self.code())
    }

    /// A decimal number (`7.5`) as the language writes it (`7,5`), by the
    /// catalogue's `language.decimal`; other text is left as it is.
    pub fn number(self, text: &str) -> String {
        let sep = catalogue::text(self, "language.decimal").unwrap_or(".");
        if sep != "." && text.parse::<f64>().is_ok() {
            text.replacen('.', sep, 1)
        } else {
            text.to_owned()
        }
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl std::str::FromStr for Lang {
    type Err = UnknownLang;
    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        Lang::parse(s)
    }
}
