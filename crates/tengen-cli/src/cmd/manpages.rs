//! `tengen manpages DIR`: the manual pages, `tengen.1` and one
//! `tengen-COMMAND.1` per subcommand (`tengen-train-value.1` for theirs),
//! generated from the command-line definitions by clap_mangen, so that they
//! cannot drift from them, with the sections a manual page has beyond its
//! options: exit status, environment, files, examples. The Debian package
//! installs them.

use super::exit;
use anyhow::{Context, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `tengen manpages`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The directory to write them into (created if missing).
    dir: PathBuf,
}

pub fn run(args: &Args) -> Result<ExitCode> {
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("{}: cannot create the directory", args.dir.display()))?;
    write_pages(&args.dir, &crate::cli(), &[])?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the page of `command`, reached from `tengen` by the subcommands
/// `path`, and those of its subcommands.
fn write_pages(dir: &Path, command: &clap::Command, path: &[&str]) -> Result<()> {
    // The page of `tengen train value` is `tengen-train-value(1)`, as git
    // names its own.
    let page = if path.is_empty() {
        command.clone()
    } else {
        command
            .clone()
            .name(format!("tengen-{}", path.join("-")))
            .bin_name(format!("tengen {}", path.join(" ")))
            .version(env!("CARGO_PKG_VERSION"))
    };
    write_page(dir, &page, path)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let mut sub_path = path.to_vec();
        sub_path.push(sub.get_name());
        write_pages(dir, sub, &sub_path)?;
    }
    Ok(())
}

fn write_page(dir: &Path, command: &clap::Command, path: &[&str]) -> Result<()> {
    let file = dir.join(format!("{}.1", command.get_name()));
    let page = render(command, path)
        .with_context(|| format!("{}: cannot render the page", command.get_name()))?;
    std::fs::write(&file, page).with_context(|| format!("{}: cannot write", file.display()))?;
    Ok(())
}

/// The page: clap_mangen's sections, then ours. Without clap's `help`
/// subcommand, which has no page (`tengen help COMMAND` is `tengen COMMAND
/// --help`), and with the help text after the options split into the exit
/// status and the notes.
fn render(command: &clap::Command, path: &[&str]) -> Result<Vec<u8>> {
    let man = clap_mangen::Man::new(command.clone().disable_help_subcommand(true));
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    // Every page has options: --help and --version at least.
    man.render_options_section(&mut page)?;
    if command.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(&mut page)?;
    }
    let after = command
        .get_after_long_help()
        .or_else(|| command.get_after_help())
        .map(ToString::to_string)
        .unwrap_or_default();
    let name = path.join(" ");
    let mut roff = String::new();
    exit_status(&mut roff, after.contains(exit::HELP));
    environment(&mut roff, &name);
    files(&mut roff, &name);
    let notes = after.replace(exit::HELP, "");
    if !notes.trim().is_empty() {
        section(&mut roff, "NOTES");
        paragraph(&mut roff, notes.trim());
    }
    examples(&mut roff, &name);
    see_also(&mut roff, path);
    page.extend_from_slice(roff.as_bytes());
    man.render_version_section(&mut page)?;
    Ok(page)
}

/// The statuses: the commands that read records (their help says so) give
/// 1 for a record with errors; the others succeed or fail.
fn exit_status(roff: &mut String, reads_records: bool) {
    section(roff, "EXIT STATUS");
    for (status, when) in exit::STATUSES {
        let when = match status {
            0 if !reads_records => exit::DONE,
            1 if !reads_records => continue,
            _ => when,
        };
        item(roff, &status.to_string(), &sentence(when));
    }
}

/// A variable tengen reads: its name, the commands that read it, and what
/// it changes.
type Variable = (&'static str, &'static [&'static str], &'static str);

/// The variables the binary reads (besides libpq's, [`environment`]).
const VARIABLES: [Variable; 5] = [
    (
        "RUST_LOG",
        &["serve", "gtp"],
        "Which logs go to standard error, in tracing's filter syntax (info, debug, \
         tengen_web=debug). Without it serve logs at info and gtp only errors; at info gtp \
         writes a line per move it generates: the move, its simulations and time, the win \
         rate reported and the search's own, the lead.",
    ),
    (
        "NO_COLOR",
        &["serve", "gtp"],
        "When set and not empty, the logs carry no colour even on a terminal. They never \
         do when standard error is a file, a pipe or the journal.",
    ),
    (
        "XDG_DATA_HOME",
        &["serve"],
        "When set and not empty, the default database is $XDG_DATA_HOME/tengen/tengen.db.",
    ),
    (
        "HOME",
        &["serve"],
        "Otherwise the default database is ~/.local/share/tengen/tengen.db; \
         ~/.postgresql holds libpq's default certificate files.",
    ),
    (
        "HOSTNAME",
        &["serve"],
        "The server's default name (with its port) when /proc/sys/kernel/hostname \
         cannot be read.",
    ),
];

/// The commands that read libpq's variables.
const LIBPQ_READERS: &[&str] = &["serve"];

/// The variables the command `name` reads (all of them on tengen's own
/// page, each with its commands); none, no section.
fn environment(roff: &mut String, name: &str) {
    let reads = |commands: &[&str]| name.is_empty() || commands.contains(&name);
    let commands = |commands: &[&str]| {
        if name.is_empty() {
            let pages: Vec<String> = commands.iter().map(|c| format!("tengen {c}")).collect();
            format!(" Read by {}.", pages.join(" and "))
        } else {
            String::new()
        }
    };
    let variables: Vec<&Variable> = VARIABLES.iter().filter(|(_, c, _)| reads(c)).collect();
    if variables.is_empty() && !reads(LIBPQ_READERS) {
        return;
    }
    section(roff, "ENVIRONMENT");
    for (variable, readers, what) in variables {
        item(roff, variable, &format!("{what}{}", commands(readers)));
    }
    if reads(LIBPQ_READERS) {
        let names = tengen_web::Environment::LIBPQ.join(", ");
        let what = format!(
            "Read as libpq reads them when --db is a PostgreSQL URL that does not say \
             otherwise: the password, the TLS mode, the certificates.{}",
            commands(LIBPQ_READERS)
        );
        item(roff, &names, &what);
    }
}

/// The files a command reads or writes beyond its arguments, by command;
/// tengen's own page has them all.
const FILES: [(&str, &str, &str); 4] = [
    (
        "serve",
        "$XDG_DATA_HOME/tengen/tengen.db, ~/.local/share/tengen/tengen.db",
        "The SQLite database when --db names none, created with its directory on the \
         first start.",
    ),
    (
        "serve",
        "/var/lib/tengen/tengen.db",
        "The database of the packaged service, tengen.service, run as the user tengen.",
    ),
    (
        "serve",
        "~/.postgresql/root.crt, ~/.postgresql/postgresql.crt, ~/.postgresql/postgresql.key",
        "libpq's default certificate files, read when --db is a PostgreSQL URL whose TLS \
         settings name none.",
    ),
    (
        "gtp analysis evaluate predict bench train",
        "/usr/share/doc/tengen/copyright",
        "The provenance and licence of what the search knows (the pattern model, the \
         policy and value networks, the playouts' shapes, the 9x9 opening book), which is \
         built into the binary: no file is read unless --value names one.",
    ),
];

fn files(roff: &mut String, name: &str) {
    let first = name.split(' ').next().unwrap_or_default();
    let mut entries = FILES
        .iter()
        .filter(|(commands, _, _)| name.is_empty() || commands.split(' ').any(|c| c == first))
        .peekable();
    if entries.peek().is_none() {
        return;
    }
    section(roff, "FILES");
    for (_, file, what) in entries {
        item(roff, file, what);
    }
}

/// Examples by command: what it does, the command line.
const EXAMPLES: [(&str, &str, &str); 17] = [
    (
        "",
        "Open the web board on this machine, then the address it prints:",
        "tengen serve",
    ),
    (
        "",
        "Count a finished game whose dead stones are the chain at B5:",
        "tengen score game.sgf --dead B5",
    ),
    (
        "",
        "Play over GTP, five seconds a move, from a program such as Sabaki or GoGui:",
        "tengen gtp --time 5",
    ),
    (
        "serve",
        "Serve a club's network, every player on one database:",
        "tengen serve --addr 0.0.0.0:8619 --db /srv/tengen/club.db",
    ),
    (
        "serve",
        "One of several servers sharing a PostgreSQL database, behind a proxy that passes on its public name:",
        "tengen serve --addr 10.0.0.11:8619 --db postgres://tengen@10.0.0.5/tengen --node node1 --allowed-host go.example.org",
    ),
    (
        "gtp",
        "The command to give a GTP program (Sabaki, GoGui), under the French rules:",
        "tengen gtp --rules ffg --time 5",
    ),
    (
        "gtp",
        "For Lizzie, which shows scores and ownership only for an engine named KataGo:",
        "tengen gtp --name KataGo-tengen",
    ),
    (
        "analysis",
        "Analyse the positions of the JSON queries on standard input, one a line:",
        "tengen analysis < queries.jsonl",
    ),
    (
        "analysis",
        "KaTrain's command line, as it runs KataGo (the model is not read):",
        "tengen analysis -model model.bin.gz -config analysis.cfg",
    ),
    (
        "score",
        "Count under the Japanese rules with another komi:",
        "tengen score game.sgf --dead B5 --rules japanese --komi 6.5",
    ),
    (
        "score",
        "Let playouts find the dead stones, and answer in JSON:",
        "tengen score game.sgf --dead auto --json",
    ),
    (
        "check",
        "Replay every record under a directory, each under its own rules:",
        "tengen check games/",
    ),
    (
        "check",
        "Replay records under the New Zealand rules, reporting every forbidden move:",
        "tengen check --rules nz --tolerant game.sgf",
    ),
    (
        "match",
        "Twenty 9x9 games between tengen and GNU Go, each game kept as SGF:",
        "tengen match --black \"tengen gtp --playouts 2000\" \
         --white \"gnugo --mode gtp --level 10\" --games 20 --size 9 --komi 7 --sgf-dir games/",
    ),
    (
        "explain",
        "Name the moves of a record in French:",
        "tengen explain game.sgf --lang fr",
    ),
    (
        "rules",
        "Every field of the French Federation's rules:",
        "tengen rules ffg",
    ),
    (
        "completions",
        "Complete tengen's commands and options in bash:",
        "tengen completions bash > ~/.local/share/bash-completion/completions/tengen",
    ),
];

fn examples(roff: &mut String, name: &str) {
    let mut entries = EXAMPLES.iter().filter(|(c, _, _)| *c == name).peekable();
    if entries.peek().is_none() {
        return;
    }
    section(roff, "EXAMPLES");
    for (_, what, line) in entries {
        paragraph(roff, what);
        roff.push_str(".PP\n.RS 4\n.nf\n");
        roff.push_str(&escape(line));
        roff.push_str("\n.fi\n.RE\n");
    }
}

/// The page of the command above, and on tengen's own page nothing more:
/// its subcommands' pages are listed already.
fn see_also(roff: &mut String, path: &[&str]) {
    let Some((_, above)) = path.split_last() else {
        return;
    };
    let page = if above.is_empty() {
        "tengen".to_string()
    } else {
        format!("tengen-{}", above.join("-"))
    };
    section(roff, "SEE ALSO");
    let _ = writeln!(roff, "\\fB{}\\fR(1)", escape(&page));
}

fn section(roff: &mut String, title: &str) {
    let _ = writeln!(roff, ".SH \"{title}\"");
}

fn paragraph(roff: &mut String, text: &str) {
    let _ = writeln!(roff, ".PP\n{}", escape(text));
}

/// A tagged paragraph: `tag` in bold, `text` below it, indented.
fn item(roff: &mut String, tag: &str, text: &str) {
    let _ = writeln!(roff, ".TP\n\\fB{}\\fR\n{}", escape(tag), escape(text));
}

/// `text` with a capital and a full stop, as a paragraph of its own.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let first: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    format!("{first}{}.", chars.as_str())
}

/// `text` as roff prints it: backslashes and hyphens escaped, no line
/// starting with a control character.
fn escape(text: &str) -> String {
    text.replace('\\', "\\e")
        .replace('-', "\\-")
        .lines()
        .map(|line| {
            if line.starts_with(['.', '\'']) {
                format!("\\&{line}")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
