//! The options whose value is a name from a list: a rule-set preset, a kind
//! of knowledge, a language. The list travels with the option, so that `--help`, the
//! manual pages and the shell completions offer the names instead of file
//! names, while the option still takes what its type parses (a preset's
//! alias, a KataGo rules string).

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser, ValueParser};
use std::any::TypeId;
use std::str::FromStr;
use tengen_core::{Preset, Rules};
use tengen_lexicon::Lang;
use tengen_mcts::Knowledge;

/// A parser that names the usual values without refusing the others.
#[derive(Clone)]
pub struct Listed<P> {
    parser: P,
    names: fn() -> Vec<PossibleValue>,
}

impl<P: TypedValueParser> TypedValueParser for Listed<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, clap::Error> {
        self.parser.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.names)().into_iter()))
    }
}

/// The presets, each with its one-line description.
fn presets() -> Vec<PossibleValue> {
    Preset::ALL
        .iter()
        .map(|p| PossibleValue::new(p.name()).help(p.description()))
        .collect()
}

/// The kinds of knowledge; the options' help says what each is.
fn knowledge() -> Vec<PossibleValue> {
    Knowledge::ALL
        .iter()
        .map(|&(name, _)| PossibleValue::new(name))
        .collect()
}

/// The languages of the catalogues of words, each with its name in
/// itself.
fn languages() -> Vec<PossibleValue> {
    Lang::all()
        .map(|l| PossibleValue::new(l.code()).help(l.name()))
        .collect()
}

/// A preset's name kept as text, for `tengen rules NAME`, which also takes
/// KataGo rules strings.
pub fn preset_name() -> Listed<StringValueParser> {
    Listed {
        parser: StringValueParser::new(),
        names: presets,
    }
}

/// `command` with every option whose value is [`Rules`], [`Knowledge`] or
/// [`Lang`], in every subcommand, naming its values. By type, so that no command
/// that takes one can forget it.
pub fn list(command: clap::Command) -> clap::Command {
    command
        .mut_args(|arg| match listed(&arg) {
            Some(parser) => arg.value_parser(parser),
            None => arg,
        })
        .mut_subcommands(list)
}

/// The naming parser of `arg`'s values, if they have one.
fn listed(arg: &clap::Arg) -> Option<ValueParser> {
    let value = arg.get_value_parser().type_id();
    if value == TypeId::of::<Rules>() {
        Some(ValueParser::new(Listed {
            parser: <Rules as FromStr>::from_str,
            names: presets,
        }))
    } else if value == TypeId::of::<Knowledge>() {
        Some(ValueParser::new(Listed {
            parser: Knowledge::from_name,
            names: knowledge,
        }))
    } else if value == TypeId::of::<Lang>() {
        // An unknown code is refused with the list of the known ones.
        Some(ValueParser::new(Listed {
            parser: <Lang as FromStr>::from_str,
            names: languages,
        }))
    } else {
        None
    }
}
