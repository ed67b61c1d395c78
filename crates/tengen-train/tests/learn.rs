//! Learning from the real records of `shared/data/fox_pro`: a small fit
//! predicts held-out professional moves far better than chance, the
//! shipped model reaches its measured accuracy on test games it never
//! saw, and a tiny network learns, stops and resumes from its checkpoint.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // tests fail loudly

mod common;

use common::{data, read};
use tengen_mcts::net::Shape;
use tengen_mcts::shape::ShapeModel;
use tengen_mcts::{Network, PatternModel};
use tengen_train::{
    FitConfig, NetPredictor, PatternPredictor, Record, Schedule, Split, Tally, TrainConfig,
    TrainEvent, evaluate, fit, fit_shapes, pick, shape_log_likelihood, train,
};

/// One rank folder's games (about 600), read once per test.
fn records() -> Vec<Record> {
    read(data("fox_pro").join("Pro.7z/Pro/5p"))
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
fn playout_shapes_fitted_on_records_predict_the_local_answers_of_unseen_games() {
    let records = records();
    let train = pick(&records, Some(Split::Train), Some(200));
    let test = pick(&records, Some(Split::Test), Some(20));
    let fitted = fit_shapes(&train, 4, &|_| {});
    let even = ShapeModel::new([], 1.0);
    let shipped = ShapeModel::shipped();
    let (lf, le, ls) = (
        shape_log_likelihood(&test, &fitted),
        shape_log_likelihood(&test, &even),
        shape_log_likelihood(&test, shipped),
    );
    // Even strengths are a uniform choice among about 7 answers and
    // tenuki; learned shapes know which answer, and how often none.
    assert!(lf > le + 0.2, "fitted {lf}, even {le}");
    assert!(ls > lf, "shipped {ls}, fitted on 200 games {lf}");
    // Professionals play elsewhere more often than at any one point next
    // to the last stone.
    assert!(fitted.tenuki() > 1.0, "{}", fitted.tenuki());
    // The file holds exactly the model.
    let back = ShapeModel::from_bytes(&fitted.to_bytes()).unwrap();
    assert_eq!(back.to_bytes(), fitted.to_bytes());
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

#[test]
fn a_tiny_network_learns_and_resumes_from_its_checkpoint() {
    let records = records();
    let games = pick(&records, Some(Split::Train), Some(3));
    let dir = std::env::temp_dir().join(format!("tengen-net-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = TrainConfig {
        shape: Shape {
            channels: 16,
            layers: 3,
        },
        schedule: Schedule {
            batch: 32,
            learning_rate: 1e-2,
            steps: 100,
            checkpoint_every: 50,
            test_positions: 200,
            seed: 7,
            from: None,
        },
    };
    // Measured on the training positions themselves: the loss there must fall.
    let events = std::sync::Mutex::new(Vec::new());
    let trainer = train(&games, &games, &config, &dir, &|e| {
        events.lock().unwrap().push(e)
    })
    .unwrap();
    assert_eq!(trainer.step(), 100);
    let events = events.into_inner().unwrap();
    let tested: Vec<(u64, f64)> = events
        .iter()
        .filter_map(|e| match *e {
            TrainEvent::Tested {
                step,
                log_likelihood,
                ..
            } => Some((step, log_likelihood)),
            _ => None,
        })
        .collect();
    assert_eq!(
        tested.iter().map(|t| t.0).collect::<Vec<_>>(),
        vec![0, 50, 100]
    );
    assert!(tested[2].1 > tested[0].1 + 0.01, "{tested:?}");
    let saved = events
        .iter()
        .filter(|e| matches!(e, TrainEvent::Saved { .. }))
        .count();
    assert_eq!(saved, 2);
    // A second run resumes at step 100, with the checkpoint's shape.
    let more = TrainConfig {
        shape: Shape::SHIPPED,
        schedule: Schedule {
            steps: 105,
            ..config.schedule.clone()
        },
    };
    let first_step = std::sync::Mutex::new(None);
    let resumed = train(&games, &[], &more, &dir, &|e| {
        if let TrainEvent::Step { step, loss } = e {
            assert!(loss.is_finite());
            first_step.lock().unwrap().get_or_insert(step);
        }
    })
    .unwrap();
    assert_eq!(resumed.step(), 105);
    assert_eq!(first_step.into_inner().unwrap(), Some(101));
    // The checkpoint's weights are what the search reads.
    let bytes = std::fs::read(dir.join("policy.safetensors")).unwrap();
    let network = Network::from_bytes(&bytes).unwrap();
    assert_eq!(network.shape(), config.shape);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_shipped_network_predicts_held_out_professional_moves_better_than_the_patterns() {
    let records = records();
    let test = pick(&records, Some(Split::Test), Some(10));
    let network = Network::shipped().expect("the shipped network loads");
    let net = evaluate(&test, || NetPredictor::new(network), &|| {});
    let patterns = evaluate(
        &test,
        || PatternPredictor::new(PatternModel::shipped()),
        &|| {},
    );
    assert_eq!(net.overall().moves, patterns.overall().moves);
    assert!(net.overall().moves > 1000);
    assert!(
        net.overall().mean_log_likelihood() > patterns.overall().mean_log_likelihood(),
        "net {} patterns {}",
        net.overall().mean_log_likelihood(),
        patterns.overall().mean_log_likelihood()
    );
    assert!(top1(&net) > 0.33, "top-1 {}", top1(&net));
}
