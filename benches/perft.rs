//! perft speed: depth 3 of every position of the reference perft file (single thread), and
//! depth 4 of Boyer's start on one and two threads.
//!
//! Run with `cargo bench --bench perft`; medians land in `target/criterion/*/new/estimates.json`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use kickoff::movegen::{PerftOptions, perft};
use kickoff::{Position, load};
use serde_json::Value;

/// (name, rule set, fen) of every reference position.
fn reference_positions() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string("tests/data/football-perft.json").expect("perft data");
    let data: Value = serde_json::from_str(&text).expect("perft json");
    data["positions"]
        .as_array()
        .expect("positions")
        .iter()
        .map(|p| {
            let text = |key: &str| p[key].as_str().unwrap_or_default().to_owned();
            (text("name"), text("rules"), text("fen"))
        })
        .collect()
}

fn depth_3(c: &mut Criterion) {
    let boyer = load("boyer-1951").expect("boyer");
    let vchess = load("vchess").expect("vchess");
    let mut group = c.benchmark_group("perft3");
    group.sample_size(10).warm_up_time(Duration::from_millis(500));
    for (name, set, fen) in reference_positions() {
        let rules = if set == "boyer" { &boyer.rules } else { &vchess.rules };
        let pos = Position::from_fen(rules, &fen).expect("fen");
        let id = format!("{} {set}", name.split(' ').next().unwrap_or(&name));
        group.bench_function(id, |b| {
            b.iter(|| perft(black_box(&pos), 3, &PerftOptions::default(), None).unwrap());
        });
    }
    group.finish();
}

fn depth_4_threads(c: &mut Criterion) {
    let boyer = load("boyer-1951").expect("boyer");
    let pos = Position::start(&boyer.rules);
    let mut group = c.benchmark_group("perft4-boyer-start");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    for threads in [1, 2] {
        let options = PerftOptions { threads, ..PerftOptions::default() };
        group.bench_function(format!("threads-{threads}"), |b| {
            b.iter(|| perft(black_box(&pos), 4, &options, None).unwrap());
        });
    }
    group.finish();
}

criterion_group!(benches, depth_3, depth_4_threads);
criterion_main!(benches);
