//! The value network's targets and training on real records of
//! `shared/data`: a counted Fox game recorded with `KM[0]` gets the komi
//! its count shows, a resigned game only its winner; a tiny network with
//! every head learns on a few games, stops and resumes from its
//! checkpoint.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{data, read};
use tengen_core::{Color, Points};
use tengen_mcts::value::{ValueNetwork, ValueShape};
use tengen_sgf::record::RecordedResult;
use tengen_train::judge::recorded_lead;
use tengen_train::{
    Ending, Judged, Komi, Record, Schedule, Split, ValueConfig, ValueEvent, endings, pick,
    train_value,
};

fn ends(records: &[&Record]) -> Vec<(Ending, Komi)> {
    endings(records, 400, &|| {})
        .into_iter()
        .flatten()
        .collect()
}

/// Fox 1542468839010001392 (RE[W+3.50]) and 1534948629010001692
/// (RE[W+12.5]): two counted games recorded with KM[0].
fn two_counted() -> Vec<Record> {
    let dir = data("fox_pro").join("Pro2.7z/Pro/1p");
    ["1542468839010001392.sgf", "1534948629010001692.sgf"]
        .iter()
        .flat_map(|f| read(dir.join(f)))
        .collect()
}

#[test]
fn a_counted_record_without_its_komi_gets_the_komi_its_count_shows() {
    // Both KM[0]: tengen counts B+3 and W+6 before komi, so both were
    // played with 6.5.
    let records = two_counted();
    assert_eq!(records.len(), 2);
    assert!(records.iter().all(|r| r.komi.is_zero()));
    let refs: Vec<&Record> = records.iter().collect();
    for (ending, komi) in ends(&refs) {
        assert_eq!(komi, Komi::Counted);
        assert_eq!(ending.komi, Points::halves(13));
        assert_eq!(ending.winner, Some(Color::White));
        assert!(ending.counted.is_some());
    }
}

#[test]
fn a_counted_record_keeps_its_count_and_a_resigned_one_its_winner() {
    // Fox 1542502963010001796: RE[B+1.75] (stones), KM[375] is read as
    // 7.5 points; 1536213903010001982: RE[B+1.50], KM[650].
    let dir = data("fox_pro").join("Pro2.7z/Pro/8p");
    let records: Vec<Record> = ["1536213903010001982.sgf", "1542502963010001796.sgf"]
        .iter()
        .flat_map(|f| read(dir.join(f)))
        .collect();
    assert_eq!(records.len(), 2);
    let refs: Vec<&Record> = records.iter().collect();
    let got = ends(&refs);
    assert_eq!(got.len(), 2);
    for ((ending, komi), record) in got.iter().zip(&records) {
        assert_eq!(
            ending.winner,
            Some(Color::Black),
            "{}",
            record.path.display()
        );
        assert_eq!(*komi, Komi::Recorded);
        assert_eq!(ending.komi, record.komi);
        let counted = ending
            .counted
            .as_ref()
            .expect("counted within a few points");
        assert_eq!(counted.owner.len(), 361);
        // The margin learned is the recorded one, komi added back.
        let lead = recorded_lead(
            record.result.as_ref().unwrap(),
            record.komi,
            record.rules.scoring.counts_area(),
        )
        .unwrap();
        let komi = record.komi.to_f64();
        assert!((f64::from(counted.black_area) - (lead + komi)).abs() < 1e-6);
        // The map mostly agrees with the margin (dame and kos aside).
        let owned: i32 = counted.owner.iter().map(|&o| i32::from(o)).sum();
        assert!((owned as f32 - counted.black_area).abs() <= 6.0, "{owned}");
    }
    // Resigned games: a winner, no count, and mostly an estimate of the
    // final ownership that gives the game to its winner.
    let resigned: Vec<Record> = read(data("fox_pro").join("Pro.7z/Pro/5p"))
        .into_iter()
        .filter(
            |r| matches!(&r.result, Some(RecordedResult::Outcome(o)) if o.to_sgf().ends_with("+R")),
        )
        .take(20)
        .collect();
    assert_eq!(resigned.len(), 20);
    let refs: Vec<&Record> = resigned.iter().collect();
    let mut estimated = 0;
    for ((ending, _), record) in ends(&refs).iter().zip(&resigned) {
        assert!(ending.counted.is_none());
        let winner = ending.winner.expect("a winner");
        if let Some(owner) = &ending.estimated {
            estimated += 1;
            assert_eq!(owner.len(), 361);
            assert!(owner.iter().all(|o| (-1.0..=1.0).contains(o)));
            let lead = f64::from(owner.iter().sum::<f32>()) - ending.komi.to_f64();
            assert_eq!(
                lead > 0.0,
                winner == Color::Black,
                "{}",
                record.path.display()
            );
        }
        // Fox writes KM[0]: an even game gets a komi all the same.
        if record.handicap == 0 {
            assert!(ending.komi > Points::ZERO, "{}", record.path.display());
        }
    }
    // The playouts see the winner's lead on most final boards of
    // resigned professional games (the others resigned over a fight
    // the board does not show settled).
    assert!(estimated >= 12, "{estimated} of 20 estimated");
}

#[test]
fn a_tiny_value_network_learns_every_head_and_resumes_from_its_checkpoint() {
    let records = read(data("kgs_6d").join("KGS_6d_190000/KGS-2017_01-19-733-.tar.gz"));
    let games = pick(&records, Some(Split::Train), Some(120));
    let found: Vec<(&Record, Ending)> = games
        .iter()
        .zip(endings(&games, 200, &|| {}))
        .filter_map(|(r, e)| Some((*r, e?.0)))
        .collect();
    let counted = found.iter().filter(|(_, e)| e.counted.is_some()).count();
    assert!(counted >= 10, "{counted} counted games");
    let judged: Vec<Judged> = found
        .iter()
        .map(|(record, ending)| Judged { record, ending })
        .collect();
    let dir = std::env::temp_dir().join(format!("tengen-value-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = ValueConfig {
        shape: ValueShape {
            channels: 8,
            layers: 2,
        },
        schedule: Schedule {
            batch: 32,
            learning_rate: 3e-3,
            steps: 60,
            checkpoint_every: 30,
            test_positions: 256,
            seed: 3,
            from: None,
        },
        per_game: 2,
    };
    // Measured on the training games themselves: the ownership, the dense
    // target, must fall within a few steps; the win and the margin need
    // far longer, and must only stay finite.
    let events = std::sync::Mutex::new(Vec::new());
    let trainer = train_value(&judged, &judged, &config, &dir, &|e| {
        events.lock().unwrap().push(e)
    })
    .unwrap();
    assert_eq!(trainer.step(), 60);
    let measured: Vec<_> = events
        .into_inner()
        .unwrap()
        .into_iter()
        .filter_map(|e| match e {
            ValueEvent::Measured { step, train, .. } => Some((step, train)),
            _ => None,
        })
        .collect();
    assert_eq!(
        measured.iter().map(|m| m.0).collect::<Vec<_>>(),
        vec![0, 30, 60]
    );
    let (first, last) = (measured[0].1, measured[2].1);
    assert!(first.counted > 0 && first.positions > 100);
    assert!(
        last.owner_error < first.owner_error - 0.1,
        "{first:?} {last:?}"
    );
    assert!(last.win_loss.is_finite() && last.margin_error.is_finite());
    assert!((0.0..=1.0).contains(&last.favoured));
    // A second run resumes at step 60 with the checkpoint's shape.
    let more = ValueConfig {
        shape: ValueShape::SHIPPED,
        schedule: Schedule {
            steps: 62,
            ..config.schedule.clone()
        },
        ..config.clone()
    };
    let resumed = train_value(&judged, &[], &more, &dir, &|_| {}).unwrap();
    assert_eq!(resumed.step(), 62);
    let bytes = std::fs::read(dir.join("value.safetensors")).unwrap();
    let network = ValueNetwork::from_bytes(&bytes).unwrap();
    assert_eq!(network.shape(), config.shape);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_shipped_network_calls_a_won_position_won() {
    // Fox 1512716401010001537, RE[B+14.5] with KM[650], counted: its final
    // position, with either player to move.
    let records = read(data("fox_pro").join("Pro.7z/Pro/1p/1512716401010001537.sgf"));
    let record = records.first().expect("the record reads");
    let mut game = record.game_after(record.moves.len()).expect("it replays");
    game.set_komi(record.komi);
    let value = ValueNetwork::shipped().expect("the shipped value network loads");
    let j = value.judge_game(&game);
    assert!(j.black_wins > 0.6, "{:?}", (j.black_wins, j.black_lead));
    assert!((j.black_lead - 14.5).abs() < 6.0, "{}", j.black_lead);
    assert!(j.spread > 0.0);
    // Black owns more of the board than White does.
    assert!(j.ownership.iter().sum::<f32>() > 0.0);
}

#[test]
fn the_export_holds_every_game_and_positions_as_tengen_reads_them() {
    // Two counted Fox games: the file an accelerator's trainer reads.
    let records = two_counted();
    let refs: Vec<&Record> = records.iter().collect();
    let ended: Vec<Ending> = ends(&refs).into_iter().map(|(e, _)| e).collect();
    let judged: Vec<Judged> = records
        .iter()
        .zip(&ended)
        .map(|(record, ending)| Judged { record, ending })
        .collect();
    let mut file = Vec::new();
    let written =
        tengen_train::export::write_games(&judged[..1], &judged[1..], 50, 7, &mut file).unwrap();
    assert_eq!(written, 2);
    assert_eq!(&file[..8], tengen_train::export::MAGIC);
    let length = u32::from_le_bytes(file[8..12].try_into().unwrap()) as usize;
    let header: serde_json::Value = serde_json::from_slice(&file[12..12 + length]).unwrap();
    let moves: usize = records.iter().map(|r| r.moves.len()).sum();
    assert_eq!(header["games"], 2);
    assert_eq!(header["moves"], moves);
    assert_eq!(header["checks"], 50);
    assert_eq!(header["points"], 361);
    // Every array whole: 16 bytes and two boards per game, 3 per move,
    // 8 and a board per check.
    let body = 2 * (16 + 2 * 361) + 3 * moves + 50 * (8 + 361);
    assert_eq!(file.len(), 12 + length + body);
    // The first game is for training, the second for testing; both
    // counted, Black's margin the count's.
    let at = 12 + length;
    assert_eq!(&file[at..at + 2], &[0, 1]);
    assert_eq!(&file[at + 6..at + 8], &[1, 1]);
    // Each check's stones are those of its game's board at its turn.
    let checks = at + body - 50 * (8 + 361);
    for k in 0..50 {
        let pair = &file[checks + 8 * k..checks + 8 * k + 8];
        let game = u32::from_le_bytes(pair[..4].try_into().unwrap()) as usize;
        let turn = u32::from_le_bytes(pair[4..].try_into().unwrap()) as usize;
        let board = records[game].board_before(turn).unwrap();
        let codes = &file[checks + 400 + 361 * k..checks + 400 + 361 * (k + 1)];
        let size = board.size();
        for (p, &code) in size.points().zip(codes) {
            let expected = match board.get(p) {
                None => 0,
                Some(c) => {
                    let libs = board.liberties(p).clamp(1, 3) as u8;
                    if c == Color::Black { libs } else { 3 + libs }
                }
            };
            assert_eq!(code, expected, "check {k}: game {game}, turn {turn}");
        }
    }
}
