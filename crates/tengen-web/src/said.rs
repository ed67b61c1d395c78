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
    /// A record's finding by its wording: `text` is the record's own
    /// (said as written), other values that read as numbers are written
    /// the language's way. A finding with no wording is said as it is.
    fn from(f: &Finding) -> Said {
        let w = &f.wording;
        if w.key.is_empty() || tengen_words::text(Lang::EN, w.key).is_none() {
            return Said(Sentence::new("record.as-read").text("m", &f.message));
        }
        Said(
            w.values
                .iter()
                .fold(Sentence::new(w.key), |s, (name, value)| {
                    if *name != "text" && value.parse::<f64>().is_ok() {
                        s.number(name, value)
                    } else {
                        s.text(name, value)
                    }
                }),
        )
    }
}
