//! tengen's words: one catalogue a language (`words/en.toml`,
//! `words/fr.toml`), from which the web page's words, the lessons'
//! sentences and the lexicon's explanations all come, so that a third
//! language is one more file.
//!
//! A catalogue is TOML: tables of keys whose values are texts, looked up by
//! their dotted path (`page.pass`, `lexicon.keima`). A text names what it is
//! given in braces (`{c} to play`); [`fill`] puts the values in. English is
//! complete and is what any other catalogue falls back to, key by key.
//!
//! What it leaves out: plurals and agreement are chosen by the caller,
//! which asks for the key that agrees (`word.stone.black` is `noire` in
//! French); there is no message syntax beyond the braces, and no
//! typography (the page sets French spacing itself).

mod catalogue;
mod lang;
mod sentence;

pub use catalogue::{fill, keys, text, texts};
pub use lang::{Lang, UnknownLang};
pub use sentence::{Arg, Sentence};
