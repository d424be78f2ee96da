//! Search speed: the time to complete two turns of search (what the default level always
//! completes, so what its tactics cost) on every puzzle of `tests/data/puzzles/`, and a fixed
//! depth-3 search from Boyer's start. The positions searched per second follow from the node
//! counts printed by `kickoff bestmove`.
//!
//! Run with `cargo bench --bench search`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use kickoff::search::{Limits, Searcher};
use kickoff::{Position, load};

fn fixed(depth: u32) -> Limits {
    Limits { depth: Some(depth), movetime: None, min_depth: depth, cap: None, exact: 0 }
}

fn puzzles(c: &mut Criterion) {
    let text = std::fs::read_to_string("tests/data/puzzles/puzzles.txt").expect("puzzles");
    let mut group = c.benchmark_group("tactics-depth-2");
    group.sample_size(10).measurement_time(Duration::from_secs(2));
    for (i, line) in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).enumerate() {
        let mut parts = line.splitn(3, ' ');
        let (kind, variant, fen) =
            (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
        let def = load(variant).expect("variant");
        let pos = Position::from_fen(&def.rules, fen).expect("fen");
        group.bench_function(format!("{i:02}-{kind}-{variant}"), |b| {
            b.iter(|| Searcher::new(&def.rules).search(black_box(&pos), &[], fixed(2)).unwrap());
        });
    }
    group.finish();
}

fn start(c: &mut Criterion) {
    let def = load("boyer-1951").expect("boyer");
    let pos = Position::start(&def.rules);
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("boyer-start-depth-3", |b| {
        b.iter(|| Searcher::new(&def.rules).search(black_box(&pos), &[], fixed(3)).unwrap());
    });
    group.finish();
}

criterion_group!(benches, puzzles, start);
criterion_main!(benches);
