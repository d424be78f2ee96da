//! Independent jobs shared among threads: each thread takes the next job not yet taken, so
//! that slow jobs do not hold the others back.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `work` on every item of `items` on `threads` threads (at least one); each thread makes
/// its own `state` first (an engine, a table) and hands it to each job it takes.
pub fn for_each<T: Sync, S>(
    threads: usize,
    items: &[T],
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &T) + Sync,
) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                let mut own = state();
                while let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed)) {
                    work(&mut own, item);
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    #[test]
    fn every_item_is_done_once_whatever_the_threads() {
        for threads in [0, 1, 3, 64] {
            let items: Vec<usize> = (0..100).collect();
            let seen = Mutex::new(vec![0; 100]);
            super::for_each(threads, &items, || (), |(), &i| seen.lock().unwrap()[i] += 1);
            assert_eq!(seen.into_inner().unwrap(), vec![1; 100], "{threads} threads");
        }
    }
}
