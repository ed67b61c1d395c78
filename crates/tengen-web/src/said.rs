//! A sentence of the catalogues in every language, by code
//! (`{"en": .., "fr": ..}`), so that the page shows its own language
//! (`said(w)` in i18n.js) without asking the server again.

use serde::Serialize;
use tengen_sgf::record::Finding;
use tengen_words::{Lang, Sentence};

/// A sentence said in every language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said(pub Sentence);

impl Serialize for Said {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(Lang::all().map(|l| (l.code(), self.0.say(l))))
    }
}

impl From<&Finding> for Said {
    /// A record's finding by its wording: the property's text as written,
    /// its numbers the language's way. A finding with no wording is said
    /// as it is.
    fn from(f: &Finding) -> Said {
        let Some(w) = f
            .wording
            .as_deref()
            .filter(|w| tengen_words::text(Lang::EN, w.key).is_some())
        else {
            return Said(Sentence::new("record.as-read").text("m", &f.message));
        };
        let said = Sentence::new(w.key).text("text", &w.text);
        Said(
            w.numbers
                .iter()
                .fold(said, |s, (name, n)| s.number(name, n)),
        )
    }
}
