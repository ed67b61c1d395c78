//! `tengen rules [NAME]`: the presets as a table, or one rule set.

use anyhow::Result;
use std::io::Write;
use std::process::ExitCode;
use tengen_core::{Preset, Rules};

/// Arguments of `tengen rules`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A preset name or alias (nz, chinese, ffg, ..., NZ, French, JP) or a
    /// KataGo rules string; all presets when absent.
    #[arg(value_parser = super::names::preset_name())]
    name: Option<String>,
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    match &args.name {
        Some(name) => {
            let rules: Rules = name.parse()?;
            let title = match rules.preset() {
                Some(p) => format!("{} — {}\nsource: {}", p.name(), p.description(), p.source()),
                None => format!("{name} (not a preset)"),
            };
            writeln!(out, "{title}")?;
            let width = rules
                .fields()
                .iter()
                .map(|(k, _)| k.len())
                .max()
                .unwrap_or(0);
            for (k, v) in rules.fields() {
                writeln!(out, "  {k:<width$}  {v}")?;
            }
        }
        None => write_table(&mut out)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// One row per preset, one column per field.
fn write_table(out: &mut impl Write) -> Result<()> {
    let header: Vec<&str> = std::iter::once("preset")
        .chain(Preset::Chinese.rules().fields().iter().map(|(k, _)| *k))
        .collect();
    let rows: Vec<Vec<String>> = Preset::ALL
        .iter()
        .map(|p| {
            std::iter::once(p.name().to_string())
                .chain(p.rules().fields().into_iter().map(|(_, v)| v))
                .collect()
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|r| r.get(i).map_or(0, |s| s.chars().count()))
                .chain([header[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<&str>| -> String {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect::<Vec<_>>()
            .join(" | ")
            .trim_end()
            .to_string()
    };
    writeln!(out, "{}", line(header.clone()))?;
    writeln!(
        out,
        "{}",
        widths
            .iter()
            .map(|w| "-".repeat(*w))
            .collect::<Vec<_>>()
            .join("-|-")
    )?;
    for r in &rows {
        writeln!(out, "{}", line(r.iter().map(String::as_str).collect()))?;
    }
    writeln!(out)?;
    for p in Preset::ALL {
        writeln!(out, "{:<14} {}", p.name(), p.description())?;
    }
    Ok(())
}
