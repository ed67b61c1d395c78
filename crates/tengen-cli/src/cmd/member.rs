//! `tengen member add|reset NAME`: an organiser makes a member, or gives
//! one a new password, with no mail server. The password is made here and
//! printed once (or read from standard input with `--password-stdin`);
//! the database keeps only its Argon2id hash. A reset ends the member's
//! sessions on every device.

use anyhow::{Context, Result};
use std::io::BufRead;
use std::process::ExitCode;
use tengen_web::store::Store;

/// Arguments of `tengen member`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Make a member (a name of 2 to 32 letters, digits, spaces, '-', '_'
    /// or '.'; "Ana" and "ana" are one member).
    Add(Member),
    /// Give a member a new password, and log them out everywhere.
    Reset(Member),
}

#[derive(Debug, clap::Args)]
struct Member {
    /// The member's name.
    name: String,
    /// The database, as `tengen serve --db` takes it [default: the one
    /// `tengen serve` uses].
    #[arg(long)]
    db: Option<String>,
    /// Read the password (8 to 128 characters) from the first line of
    /// standard input rather than make one.
    #[arg(long)]
    password_stdin: bool,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode> {
    let (member, adding) = match &args.action {
        Action::Add(m) => (m, true),
        Action::Reset(m) => (m, false),
    };
    let (password, made) = if member.password_stdin {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .context("reading the password from standard input")?;
        (line.trim_end_matches(['\r', '\n']).to_string(), false)
    } else {
        (tengen_web::member::new_password()?, true)
    };
    let db = super::serve::database(member.db.as_deref())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let row = runtime.block_on(async {
        let store = Store::open(&db, "tengen-member", &super::serve::environment())
            .await
            .with_context(|| format!("opening {}", db.describe()))?;
        let now = tengen_web::store::now_ms();
        anyhow::Ok(if adding {
            tengen_web::member::add(&store, &member.name, &password, now).await?
        } else {
            tengen_web::member::reset(&store, &member.name, &password).await?
        })
    })?;
    let done = if adding {
        "is a member"
    } else {
        "has a new password (logged out everywhere)"
    };
    println!("{} {done}", row.name);
    if made {
        println!("password: {password}");
    }
    Ok(ExitCode::SUCCESS)
}
