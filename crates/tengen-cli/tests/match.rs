//! `tengen match` against the built binary: a real opponent (GNU Go),
//! dead-stone disputes settled by play, and engines that crash, play
//! illegally or never answer.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

use std::path::{Path, PathBuf};
use std::process::Command;
use tengen_core::{Move, Phase, Preset};
use tengen_sgf::record::{self, RecordedResult, ReplayMode, ReplayOptions, Severity};

const GNUGO: &str = "/usr/games/gnugo";

fn tengen() -> String {
    env!("CARGO_BIN_EXE_tengen").to_string()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-match-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs a match and returns stdout's lines.
fn run_match(args: &[&str]) -> Vec<String> {
    let out = Command::new(tengen())
        .arg("match")
        .args(args)
        .output()
        .expect("tengen match runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout.lines().map(str::to_string).collect()
}

/// Replays a written record strictly under Chinese rules: every move legal.
fn replay(path: &Path) -> (tengen_core::Game, String) {
    let bytes = std::fs::read(path).unwrap();
    let parsed = tengen_sgf::parse(&bytes, &tengen_sgf::ParseOptions::strict()).unwrap();
    let tree = &parsed.collection.trees[0];
    let options = ReplayOptions {
        mode: ReplayMode::Strict,
        ..Default::default()
    };
    let (info, r) = record::replay_main_line(tree, &options).unwrap();
    assert!(r.complete, "{}: {:?}", path.display(), r.findings);
    assert!(
        r.findings.iter().all(|f| f.severity != Severity::Error),
        "{:?}",
        r.findings
    );
    (r.game, info.result_text.unwrap_or_default())
}

fn require_gnugo() {
    assert!(
        Path::new(GNUGO).exists(),
        "GNU Go is required: apt-get install gnugo"
    );
}

/// Two games on 9x9 with komi 7, records in `sgf_dir`; stdout's lines,
/// two of them games.
fn two_games_on_9x9(black: &str, white: &str, sgf_dir: &Path) -> Vec<String> {
    let lines = run_match(&[
        "--black",
        black,
        "--white",
        white,
        "--games",
        "2",
        "--size",
        "9",
        "--komi",
        "7",
        "--sgf-dir",
        sgf_dir.to_str().unwrap(),
        "--move-timeout",
        "60",
    ]);
    let games = lines.iter().filter(|l| l.starts_with("game ")).count();
    assert_eq!(games, 2, "{lines:?}");
    lines
}

#[test]
fn tengen_against_gnu_go_scores_every_game_and_writes_legal_records() {
    require_gnugo();
    let dir = temp_dir("gnugo");
    // A fixed seed: GNU Go plays the same game every time, so the games do
    // not depend on the clock (GNU Go knows no superko, and a game where it
    // breaks the rule in cleanup play would end by forfeit).
    let black = format!("{} gtp --playouts 200 --threads 1 --seed 7", tengen());
    let white = format!("{GNUGO} --mode gtp --level 1 --chinese-rules");
    let lines = two_games_on_9x9(&black, &white, &dir);
    let games: Vec<&String> = lines.iter().filter(|l| l.starts_with("game ")).collect();
    assert!(games[0].starts_with("game 1: A black B white: "));
    assert!(games[1].starts_with("game 2: A white B black: "));
    for (i, line) in games.iter().enumerate() {
        let re = line.split(": ").nth(2).unwrap().split(' ').next().unwrap();
        let parsed = RecordedResult::parse(re);
        assert!(
            matches!(parsed, RecordedResult::Outcome(_)) || re.ends_with("+R"),
            "{line}"
        );
        assert!(!re.ends_with("+F") && !re.ends_with("+T"), "{line}");
        let (game, recorded) = replay(&dir.join(format!("game-{:03}.sgf", i + 1)));
        assert_eq!(recorded, re);
        assert_eq!(*game.rules(), Preset::Chinese.rules());
        assert_eq!(game.komi().to_string(), "7");
        if !re.ends_with("+R") {
            // Counted: play stopped at two passes.
            let turns = game.turns();
            assert!(turns.len() >= 2);
            assert!(turns[turns.len() - 2..].iter().all(|t| t.mv == Move::Pass));
            assert_ne!(game.phase(), Phase::Playing);
        }
    }
    let summary = lines.join("\n");
    assert!(summary.contains("games 2: A won "), "{summary}");
    assert!(summary.contains("95% Wilson interval"));
    assert!(summary.contains("Elo A-B "));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The web board's beginner, played over GTP as the guide's level table
/// measured it (9x9, komi 7.5, the colours alternating): GNU Go at its
/// weakest wins most games. No fixed seed: each game draws its own, so that
/// twenty games are twenty samples. With one seed the engine replays the
/// same game each time GNU Go does, and a single lucky game counted six
/// times once made the beginner look even with GNU Go. At the table's one
/// game in five, the beginner wins ten of twenty about once in four
/// hundred runs.
#[test]
fn the_beginner_loses_most_games_to_gnu_go_level_1() {
    require_gnugo();
    let dir = temp_dir("beginner");
    let black = format!(
        "{} gtp --strength beginner --threads 1 --resign-below 0.05",
        tengen()
    );
    let white = format!("{GNUGO} --mode gtp --level 1 --chinese-rules");
    let lines = run_match(&[
        "--black",
        &black,
        "--white",
        &white,
        "--games",
        "20",
        "--size",
        "9",
        "--komi",
        "7.5",
        "--sgf-dir",
        dir.to_str().unwrap(),
        "--move-timeout",
        "60",
    ]);
    let summary = lines.join("\n");
    let gnugo_won: u32 = summary
        .split("B won ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no tally: {summary}"));
    assert!(gnugo_won >= 11, "{summary}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// GNU Go behind a relay in POSIX sh that refuses `final_status_list`, so
/// that the engines never agree on the dead stones. Everything else goes
/// to GNU Go through a pair of fifos, answers back until their blank line.
const NO_DEAD_LIST: &str = r#"set -f
fifos=$(mktemp -d) || exit 1
trap 'rm -rf "$fifos"' EXIT
mkfifo "$fifos/in" "$fifos/out" || exit 1
/usr/games/gnugo --mode gtp --level 1 --never-resign --chinese-rules <"$fifos/in" >"$fifos/out" &
exec 3>"$fifos/in" 4<"$fifos/out"
while IFS= read -r line; do
  set -- $line
  id=
  case $1 in [0-9]*) id=$1; shift;; esac
  if [ "$1" = final_status_list ]; then
    printf '?%s cannot tell dead stones\n\n' "$id"
    continue
  fi
  printf '%s\n' "$line" >&3
  while IFS= read -r answer <&4; do
    printf '%s\n' "$answer"
    [ -z "$answer" ] && break
  done
  [ "$1" = quit ] && exit 0
done
"#;

/// The engine command of [`NO_DEAD_LIST`], written into `dir`.
fn no_dead_list_engine(dir: &Path) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let relay = dir.join("no-dead-list.sh");
    std::fs::write(&relay, NO_DEAD_LIST).unwrap();
    format!("sh {}", relay.display())
}

/// The number in `(... cleanup play (K moves))` of a game's line.
fn cleanup_moves(line: &str) -> usize {
    let rest = line
        .split("settled by cleanup play (")
        .nth(1)
        .unwrap_or_else(|| panic!("not settled by cleanup play: {line}"));
    rest.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn a_dispute_on_dead_stones_is_settled_by_cleanup_play_under_area_rules() {
    require_gnugo();
    let dir = temp_dir("cleanup");
    let a = no_dead_list_engine(&dir);
    let b = format!("{GNUGO} --mode gtp --level 1 --never-resign --chinese-rules");
    let sgf_dir = dir.join("sgf");
    let lines = two_games_on_9x9(&a, &b, &sgf_dir);
    let games: Vec<&String> = lines.iter().filter(|l| l.starts_with("game ")).collect();
    for (i, line) in games.iter().enumerate() {
        // A, which never answers, is Black in game 1 and White in game 2.
        let refused = if i == 0 {
            "(black: no answer, white: "
        } else {
            ", white: no answer)"
        };
        assert!(
            line.contains("engines disagreed on dead stones (") && line.contains(refused),
            "{line}"
        );
        let k = cleanup_moves(line);
        let re = results(&[line.to_string()]).remove(0);
        assert!(
            matches!(RecordedResult::parse(&re), RecordedResult::Outcome(_)),
            "{line}"
        );

        let (game, recorded) = replay(&sgf_dir.join(format!("game-{:03}.sgf", i + 1)));
        assert_eq!(recorded, re);
        // The record holds the first stop, then the K cleanup moves ending
        // in two passes.
        let turns = game.turns();
        assert!(
            line.contains(&format!(" moves {} (", turns.len())),
            "{line}"
        );
        let first_stop = turns.len() - k;
        assert!(k >= 2 && first_stop >= 2, "{line}");
        for t in [
            first_stop - 2,
            first_stop - 1,
            turns.len() - 2,
            turns.len() - 1,
        ] {
            assert_eq!(turns[t].mv, Move::Pass, "{line}: turn {t}");
        }
        // Every stone left is alive: the count with no dead stones.
        assert_eq!(game.phase(), Phase::Marking);
        assert_eq!(game.score(&[]).outcome().to_sgf(), re, "{line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_dispute_under_territory_rules_is_settled_by_the_referee() {
    require_gnugo();
    let dir = temp_dir("territory");
    let a = no_dead_list_engine(&dir);
    let b = format!("{GNUGO} --mode gtp --level 1 --never-resign");
    let lines = run_match(&[
        "--black", &a, "--white", &b, "--games", "1", "--size", "9", "--rules", "japanese",
    ]);
    let line = lines.iter().find(|l| l.starts_with("game 1: ")).unwrap();
    assert!(
        line.contains("engines disagreed on dead stones (black: no answer, white: ")
            && line.contains("the referee's estimate marks ")
            && line.contains("play-on would change a territory count"),
        "{line}"
    );
    assert!(!line.contains("cleanup"), "{line}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A fake engine in shell: answers everything with success, and `genmove`
/// as `$1` says: `crash`, `silent` or a fixed vertex.
fn fake(genmove: &str) -> String {
    let answer = match genmove {
        "crash" => "exit 1".to_string(),
        "silent" => ":".to_string(),
        v => format!("printf \"=%s {v}\\n\\n\" $id"),
    };
    format!(
        "sh -c 'while read id cmd rest; do case $cmd in genmove) {answer};; quit) printf \"=%s\\n\\n\" $id; exit 0;; *) printf \"=%s\\n\\n\" $id;; esac; done'"
    )
}

fn results(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("game "))
        .map(|l| {
            l.split(": ")
                .nth(2)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn a_crash_an_illegal_move_and_a_timeout_lose() {
    let engine = format!("{} gtp --playouts 50 --threads 1", tengen());
    // Room for tengen's first move (loading its models) on a machine busy
    // with the other tests: only the silent engine waits it out, once.
    let common = ["--size", "9", "--games", "2", "--move-timeout", "3"];
    let crash = fake("crash");
    let mut args = vec!["--black", engine.as_str(), "--white", crash.as_str()];
    args.extend(common);
    let lines = run_match(&args);
    assert_eq!(results(&lines), ["B+F", "W+F"], "{lines:?}");
    assert!(lines.join("\n").contains("A won 2, B won 0"));

    // Always A1: legal once, then occupied.
    let illegal = fake("A1");
    let mut args = vec!["--black", illegal.as_str(), "--white", engine.as_str()];
    args.extend(common);
    let lines = run_match(&args);
    assert_eq!(results(&lines), ["W+F", "B+F"], "{lines:?}");

    let silent = fake("silent");
    let mut args = vec!["--black", engine.as_str(), "--white", silent.as_str()];
    args.extend(["--size", "9", "--games", "1", "--move-timeout", "3"]);
    let lines = run_match(&args);
    assert_eq!(results(&lines), ["B+T"], "{lines:?}");
}

#[test]
fn a_missing_engine_is_an_error() {
    let out = Command::new(tengen())
        .args([
            "match",
            "--black",
            "/nonexistent/engine",
            "--white",
            "/nonexistent/too",
            "--games",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot start"), "{err}");
}

#[test]
fn an_engine_that_does_not_speak_gtp_loses_every_game() {
    let engine = format!("{} gtp --playouts 50 --threads 1", tengen());
    let start = std::time::Instant::now();
    let lines = run_match(&[
        "--black",
        "/bin/cat",
        "--white",
        engine.as_str(),
        "--size",
        "9",
        "--games",
        "2",
        "--command-timeout",
        "1",
    ]);
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
    assert_eq!(results(&lines), ["W+F", "B+F"], "{lines:?}");
    let text = lines.join("\n");
    assert!(
        text.contains("engine A: /bin/cat does not speak GTP: no answer to \"name\" within 1.0 s, it wrote \"1 name\""),
        "{text}"
    );
    assert!(text.contains("A won 0, B won 2"), "{text}");
}

/// A fake engine in shell that writes every command it reads into `log`
/// and answers `genmove` after `delay` seconds with the next point of
/// `column` (rows 1 to 9, then pass); with `kgs` false it refuses
/// `kgs-time_settings`, as an engine that knows only GTP 2 does.
fn logging(log: &Path, column: char, delay: &str, kgs: bool) -> String {
    let refuse = if kgs {
        String::new()
    } else {
        "kgs-time_settings) printf \"?%s unknown command\\n\\n\" $id;; ".to_string()
    };
    format!(
        "sh -c 'n=0; while read id cmd rest; do echo \"$cmd $rest\" >> {}; case $cmd in \
         {refuse}genmove) sleep {delay}; n=$((n+1)); v={column}$n; [ $n -gt 9 ] && v=pass; \
         printf \"=%s $v\\n\\n\" $id;; quit) printf \"=%s\\n\\n\" $id; exit 0;; \
         *) printf \"=%s\\n\\n\" $id;; esac; done'",
        log.display()
    )
}

/// The clock commands a [`logging`] engine was told, in order.
fn told(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.contains("time_settings") || l.starts_with("time_left"))
        .map(String::from)
        .collect()
}

/// `thinking B x s W y s` of a game's line.
fn thinking(line: &str) -> (f64, f64) {
    let rest = line.split(" thinking B ").nth(1).unwrap();
    let words: Vec<&str> = rest.split_whitespace().collect();
    (words[0].parse().unwrap(), words[3].parse().unwrap())
}

#[test]
fn a_clock_is_told_kept_and_its_flag_loses_the_game() {
    let dir = temp_dir("clock");
    std::fs::create_dir_all(&dir).unwrap();
    let (fast_log, slow_log) = (dir.join("fast.log"), dir.join("slow.log"));
    // Black answers at once and knows only GTP 2's time_settings; White
    // takes 0.4 s a move under one second of sudden death: its third move
    // comes after its flag fell.
    let fast = logging(&fast_log, 'C', "0", false);
    let slow = logging(&slow_log, 'G', "0.4", true);
    let clock = ["--games", "1", "--size", "9", "--clock", "absolute 1"];
    let records = dir.join("records");
    let mut args = vec!["--black", fast.as_str(), "--white", slow.as_str()];
    args.extend(clock);
    args.extend(["--sgf-dir", records.to_str().unwrap()]);
    let lines = run_match(&args);
    assert_eq!(results(&lines), ["B+T"], "{lines:?}");
    // The record keeps the clock.
    let (_, re) = replay(&records.join("game-001.sgf"));
    assert_eq!(re, "B+T");
    let sgf = std::fs::read_to_string(records.join("game-001.sgf")).unwrap();
    assert!(sgf.contains("TM[1]") && !sgf.contains("OT["), "{sgf}");
    let line = lines.iter().find(|l| l.starts_with("game 1: ")).unwrap();
    assert!(
        line.contains(" moves 5 (white lost on time: ") && line.contains(" s left) "),
        "{line}"
    );
    // The move after the flag counts in White's thinking.
    let (black, white) = thinking(line);
    assert!(black < white && white >= 1.0, "{line}");
    let summary = lines.last().unwrap();
    assert!(
        summary.starts_with("thinking: A 0.") && summary.contains(" a move (3 moves), B 0."),
        "{summary}"
    );

    // Told the clock once by KGS's command, then its time left before each
    // move, rounded down: 1 s, then 0.6 and 0.2 s.
    assert_eq!(
        told(&slow_log),
        [
            "kgs-time_settings absolute 1",
            "time_left white 1 0",
            "time_left white 0 0",
            "time_left white 0 0"
        ]
    );
    // The engine that refused KGS's command is told GTP 2's.
    assert_eq!(
        told(&fast_log),
        [
            "kgs-time_settings absolute 1",
            "time_settings 1 0 0",
            "time_left black 1 0",
            "time_left black 0 0",
            "time_left black 0 0"
        ]
    );

    // Without a clock nobody is told one, and nobody loses on time: ten
    // moves each (the tenth a pass), then the count.
    std::fs::remove_file(&fast_log).unwrap();
    let other = logging(&fast_log, 'G', "0", true);
    let lines = run_match(&[
        "--black", &fast, "--white", &other, "--games", "1", "--size", "9",
    ]);
    assert!(lines[0].contains(" moves 20 "), "{lines:?}");
    let said = std::fs::read_to_string(&fast_log).unwrap();
    assert!(!said.contains("time_"), "{said}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tengen_keeps_its_byo_yomi_against_gnu_go() {
    require_gnugo();
    let black = format!("{} gtp --threads 1 --seed 3", tengen());
    let white = format!("{GNUGO} --mode gtp --level 1 --chinese-rules");
    // Two seconds of main time and three periods of two seconds: most of
    // tengen's moves are played in byo-yomi, each inside its period.
    let clock = ["--games", "1", "--size", "9", "--komi", "7"];
    let mut args = vec!["--black", black.as_str(), "--white", white.as_str()];
    args.extend(clock);
    let records = temp_dir("byoyomi");
    args.extend([
        "--clock",
        "byoyomi 2 2 3",
        "--sgf-dir",
        records.to_str().unwrap(),
    ]);
    let lines = run_match(&args);
    let sgf = std::fs::read_to_string(records.join("game-001.sgf")).unwrap();
    assert!(
        sgf.contains("TM[2]") && sgf.contains("OT[3x2 byo-yomi]"),
        "{sgf}"
    );
    std::fs::remove_dir_all(&records).unwrap();
    let line = lines.iter().find(|l| l.starts_with("game 1: ")).unwrap();
    assert!(!line.contains("lost on time"), "{line}");
    // It used its time: more than its main time alone.
    assert!(thinking(line).0 > 2.0, "{line}");
}
