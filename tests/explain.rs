//! `explain` of every shipped variant, as a person reads it.

use kickoff::definition::{load_shipped, shipped};
use kickoff::render::explain::explain;

#[test]
fn explain_every_shipped_variant() {
    for name in shipped::names() {
        let rules = load_shipped(name).unwrap().rules;
        insta::assert_snapshot!(format!("explain-{name}"), explain(&rules));
    }
}
