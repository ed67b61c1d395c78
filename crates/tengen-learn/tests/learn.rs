//! Learning from the real records of `shared/data/fox_pro`: a small fit
//! predicts held-out professional moves far better than chance, and the
//! shipped model reaches its measured accuracy on test games it never saw.

use std::path::PathBuf;
use tengen_learn::{
    FitConfig, PatternPredictor, Record, Split, Tally, evaluate, fit, pick, read_records,
};
use tengen_mcts::PatternModel;

fn fox() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/fox_pro");
    assert!(
        root.is_dir(),
        "the shared data is missing: {}",
        root.display()
    );
    root
}

/// One rank folder's games (about 600), read once per test.
fn records() -> Vec<Record> {
    let files = tengen_sgf::sgf_files(&[fox().join("Pro.7z/Pro/5p")]).unwrap();
    read_records(&files, None, 20, &|| {})
}

fn top1(t: &Tally) -> f64 {
    let all = t.overall();
    all.rate(all.top1)
}

#[test]
fn a_fit_on_a_few_games_predicts_professional_moves_it_never_saw() {
    let records = records();
    let train = pick(&records, Some(Split::Train), Some(60));
    let test = pick(&records, Some(Split::Test), Some(10));
    assert_eq!(train.len(), 60);
    assert!(test.len() >= 5, "{} test games", test.len());
    assert!(
        train.iter().all(|t| test.iter().all(|u| t.key != u.key)),
        "no game in both parts"
    );
    let config = FitConfig {
        min_count: 3,
        rounds: 4,
    };
    let model = fit(&train, &config, &|_| {}).unwrap();
    assert!(model.spatial_count() > 100);
    let learned = evaluate(&test, || PatternPredictor::new(&model), &|| {});
    let uniform_model = PatternModel::uniform();
    let uniform = evaluate(&test, || PatternPredictor::new(&uniform_model), &|| {});
    assert!(learned.overall().moves > 1000);
    assert_eq!(learned.overall().moves, uniform.overall().moves);
    // Chance is under 1%; 60 games already give about a quarter.
    assert!(top1(&learned) > 0.18, "top-1 {}", top1(&learned));
    assert!(top1(&uniform) < 0.02, "uniform top-1 {}", top1(&uniform));
    assert!(
        learned.overall().mean_log_likelihood() > uniform.overall().mean_log_likelihood() + 1.5
    );
    // The file holds exactly the model.
    let back = PatternModel::from_bytes(&model.to_bytes()).unwrap();
    assert_eq!(back, model);
}

#[test]
fn the_shipped_model_predicts_a_third_of_held_out_professional_moves() {
    let records = records();
    let test = pick(&records, Some(Split::Test), Some(25));
    let tally = evaluate(
        &test,
        || PatternPredictor::new(PatternModel::shipped()),
        &|| {},
    );
    let all = tally.overall();
    assert!(all.moves > 3000, "{} moves", all.moves);
    // Measured on 500 test games of the whole collection: see the README.
    assert!(top1(&tally) > 0.34, "top-1 {}", top1(&tally));
    assert!(all.rate(all.top5) > 0.60, "top-5 {}", all.rate(all.top5));
    // The opening is the most predictable phase.
    assert!(
        tally.phases[0].rate(tally.phases[0].top1) > tally.phases[2].rate(tally.phases[2].top1)
    );
}
