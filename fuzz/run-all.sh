#!/usr/bin/env bash
# Runs every fuzz target for a while, one after the other: ./run-all.sh [SECONDS]
set -u
cd "$(dirname "$0")"
seconds=${1:-600}
for target in definition betza squares fen turn record notation positions lint line perft; do
    echo "== $target ($(date -u +%H:%M))"
    # The definition format's keys and choices guide the targets that read definitions.
    dict=()
    case $target in definition | lint) dict=(-dict=definition.dict) ;; esac
    RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" "corpus/$target" -- "${dict[@]}" \
        -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=10 2>&1 | grep -E "^#[0-9]+.*(DONE|cov)|ERROR|panicked|SUMMARY|Test unit written" | tail -4
done
