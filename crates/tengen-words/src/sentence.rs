//! A sentence not yet put into words: a catalogue key and what fills its
//! placeholders, said in any language when asked. The lexicon names a move
//! once and the page, the CLI and the engine each say it in their language.

use crate::{Lang, fill};

/// What fills one placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// The same in every language (a vertex, a number).
    Text(String),
    /// A word of the catalogue (`word.player.black`), said in the
    /// sentence's language.
    Word(&'static str),
    /// A decimal number (`7.5`), written as the language writes it.
    Number(String),
}

/// A catalogue key and its placeholders' values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sentence {
    /// The key (`lexicon.keima`).
    pub key: &'static str,
    /// Each placeholder's name and value.
    pub args: Vec<(&'static str, Arg)>,
}

impl Sentence {
    /// A sentence of `key`, nothing filled yet.
    pub fn new(key: &'static str) -> Sentence {
        Sentence {
            key,
            args: Vec::new(),
        }
    }

    /// Fills `name` with text said alike in every language.
    #[must_use]
    pub fn text(mut self, name: &'static str, value: impl ToString) -> Sentence {
        self.args.push((name, Arg::Text(value.to_string())));
        self
    }

    /// Fills `name` with a decimal number, written in each language's way.
    #[must_use]
    pub fn number(mut self, name: &'static str, value: impl ToString) -> Sentence {
        self.args.push((name, Arg::Number(value.to_string())));
        self
    }

    /// Fills `name` with the catalogue's word `key`.
    #[must_use]
    pub fn word(mut self, name: &'static str, key: &'static str) -> Sentence {
        self.args.push((name, Arg::Word(key)));
        self
    }

    /// The sentence in `lang`.
    pub fn say(&self, lang: Lang) -> String {
        let values: Vec<(&str, String)> = self
            .args
            .iter()
            .map(|(name, arg)| {
                let v = match arg {
                    Arg::Text(t) => t.clone(),
                    Arg::Word(k) => fill(lang, k, &[]),
                    Arg::Number(n) => lang.number(n),
                };
                (*name, v)
            })
            .collect();
        let pairs: Vec<(&str, &str)> = values.iter().map(|(n, v)| (*n, v.as_str())).collect();
        fill(lang, self.key, &pairs)
    }
}
