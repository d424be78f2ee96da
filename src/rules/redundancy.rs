//! Betza strings that work but say something twice, the long way, or to no effect: warnings
//! that teach, never errors.

use crate::notation::betza::{
    Betza, Direction, Group, MODALITIES, Problem, ProblemKind, read_directions, replaced,
    split_modifiers,
};
use crate::rules::leg::{Leg, group_legs};
use crate::text::one_of;

/// Every redundancy of the parsed Betza string `text`, in the order of the string: groups whose
/// moves the other groups give (`WWW`, `KW`), directions whose moves earlier ones give (`fffR`),
/// directions a shorter spelling says (`fbR` is `vR`).
#[must_use]
pub fn redundancies(betza: &Betza, text: &str) -> Vec<Problem> {
    let mut out = repeated_groups(betza, text);
    out.extend(betza.groups.iter().filter_map(|g| directions_problem(g, text)));
    out.sort_by_key(|p| p.detail.span.start);
    out
}

/// The moves a group gives, sorted, each once.
fn legs_of(group: &Group) -> Vec<Leg> {
    let mut legs = group_legs(group).unwrap_or_default();
    legs.sort();
    legs.dedup();
    legs
}

/// Whether one of `others` gives `leg`, under the same conditions and at least as far.
fn covered(leg: &Leg, others: &[Leg]) -> bool {
    others.iter().any(|o| Leg { reach: leg.reach, ..*o } == *leg && o.reach >= leg.reach)
}

/// Groups whose every move another group gives; of two equal groups, the later is reported.
fn repeated_groups(betza: &Betza, text: &str) -> Vec<Problem> {
    let legs: Vec<Vec<Leg>> = betza.groups.iter().map(legs_of).collect();
    let mut dropped = vec![false; legs.len()];
    let mut out = Vec::new();
    for i in (0..legs.len()).rev() {
        let kept: Vec<usize> = (0..legs.len()).filter(|&j| j != i && !dropped[j]).collect();
        let others: Vec<Leg> = kept.iter().flat_map(|&j| legs[j].iter().copied()).collect();
        if !legs[i].iter().all(|l| covered(l, &others)) {
            continue;
        }
        dropped[i] = true;
        let givers: Vec<String> = kept
            .iter()
            .filter(|&&j| legs[i].iter().any(|l| covered(l, &legs[j])))
            .map(|&j| format!("`{}`", &text[betza.groups[j].span.clone()]))
            .collect();
        let span = betza.groups[i].span.clone();
        let group = &text[span.clone()];
        let givers: Vec<&str> = givers.iter().map(String::as_str).collect();
        out.push(Problem::new(
            ProblemKind::RepeatedGroup,
            format!("`{group}` adds no move: {} already gives them", one_of(&givers)),
            span,
            format!("drop `{group}`"),
        ));
    }
    out
}

/// A direction of the group whose moves its earlier directions give, or else directions that a
/// shorter spelling says.
fn directions_problem(group: &Group, text: &str) -> Option<Problem> {
    let dirs = &group.directions;
    let (first, last) = (dirs.first()?, dirs.last()?);
    let with = |directions: Vec<Direction>| legs_of(&Group { directions, ..group.clone() });
    let whole = with(dirs.clone());
    let written: usize = dirs.iter().map(|d| d.span().len()).sum();
    let shortest = shortest_spelling(group, &whole).filter(|s| s.len() < written);
    let rewrite = |directions: &str| rewritten(group, text, directions);
    for (i, d) in dirs.iter().enumerate().skip(1) {
        let earlier = with(dirs[..i].to_vec());
        if with(vec![*d]).iter().all(|l| earlier.contains(l)) {
            let given = dirs[..i].iter().map(|d| d.text()).collect::<String>();
            let better = shortest.clone().unwrap_or_else(|| without(dirs, i));
            return Some(Problem::new(
                ProblemKind::RepeatedDirection,
                format!("direction `{}` repeats moves that `{given}` already gives", d.text()),
                d.span(),
                format!("write \"{}\"", rewrite(&better)),
            ));
        }
    }
    let shortest = shortest?;
    let written: String = dirs.iter().map(|d| d.text()).collect();
    let atom = &text[group.span.clone()].trim_start_matches(|c: char| c.is_ascii_lowercase());
    let message = if shortest.is_empty() {
        format!("directions `{written}` leave out no move of `{atom}`: they can go")
    } else {
        format!("directions `{written}` on `{atom}` give the same moves as `{shortest}`")
    };
    let span = first.at..last.span().end;
    Some(Problem::new(
        ProblemKind::LongDirections,
        message,
        span,
        format!("write \"{}\"", rewrite(&shortest)),
    ))
}

/// The direction tokens but the `i`th, as written.
fn without(dirs: &[Direction], i: usize) -> String {
    dirs.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, d)| d.text()).collect()
}

/// The shortest spelling, up to two letters, of the group's direction set `whole`.
fn shortest_spelling(group: &Group, whole: &[Leg]) -> Option<String> {
    const LETTERS: [char; 7] = ['f', 'b', 'l', 'r', 'v', 's', 'h'];
    let singles = LETTERS.iter().map(char::to_string);
    let pairs = LETTERS.iter().flat_map(|a| LETTERS.iter().map(move |b| format!("{a}{b}")));
    std::iter::once(String::new()).chain(singles).chain(pairs).find(|spelling| {
        read_directions(spelling)
            .is_some_and(|directions| legs_of(&Group { directions, ..group.clone() }) == whole)
    })
}

/// The whole string `text` with the group written with other directions, its modalities and
/// atom kept.
fn rewritten(group: &Group, text: &str, directions: &str) -> String {
    let (modifiers, atom) = split_modifiers(&text[group.span.clone()]);
    let modalities: String = modifiers.chars().filter(|c| MODALITIES.contains(*c)).collect();
    let group_text = format!("{directions}{modalities}{atom}");
    replaced(text, group.span.clone(), &group_text)
}

/// Modalities of the `moves` of a variant where nothing is captured: `c` and `e` moves that are
/// never played, `m` that changes nothing. With a carried ball (`carried_ball`), `c` and `m`
/// still say whether a piece may move onto the ball or a holder, so only `e` is reported.
#[must_use]
pub fn without_captures(betza: &Betza, text: &str, carried_ball: bool) -> Vec<Problem> {
    let mut out = Vec::new();
    for group in &betza.groups {
        let written = &text[group.span.clone()];
        let at = |letter: char| {
            let i = group.span.start + written.find(letter).unwrap_or(0);
            i..i + 1
        };
        let m = group.modalities;
        let none = "nothing is ever captured (`capture.mode = \"none\"`)";
        let (kind, letter, message) = if m.en_passant {
            (
                ProblemKind::NeverCaptures,
                'e',
                format!("`e` (en passant) in `{written}` never plays: {none}"),
            )
        } else if m.capture_only && !carried_ball {
            (
                ProblemKind::NeverCaptures,
                'c',
                format!("`{written}` only captures, and {none}: it never plays"),
            )
        } else if m.move_only && !carried_ball {
            let message =
                "`m` changes nothing where nothing is captured: every move goes to an empty square";
            (ProblemKind::IdleMoveOnly, 'm', message.to_owned())
        } else {
            continue;
        };
        let help = "set `[capture] mode = \"replace\"`, or drop the letter";
        out.push(Problem::new(kind, message, at(letter), help));
    }
    out
}

/// Modalities written in a kick pattern: a kick follows the pattern's directions and ranges
/// only, so `m c i n e` there do nothing.
#[must_use]
pub fn kick_modalities(betza: &Betza, text: &str) -> Vec<Problem> {
    // Every modality goes, so the help shows the string without any.
    let plain = without_modalities(betza, text);
    let mut out = Vec::new();
    for group in &betza.groups {
        let written = &text[group.span.clone()];
        // `p` makes a hopper's kick: the one modality a kick reads.
        let Some(i) = written.find(|c: char| c != 'p' && MODALITIES.contains(c)) else {
            continue;
        };
        let at = group.span.start + i;
        let letter = &text[at..=at];
        out.push(Problem::new(
            ProblemKind::KickModality,
            format!("`{letter}` does nothing in a kick pattern: a kick follows its directions and ranges only"),
            at..at + 1,
            format!("write \"{plain}\""),
        ));
    }
    out
}

/// `text` with the modality letters of its groups left out (the lowercase letters before an
/// atom; a modifier after its atom never reaches here, as the string parsed).
fn without_modalities(betza: &Betza, text: &str) -> String {
    let mut out = String::new();
    let mut end = 0;
    for group in &betza.groups {
        out.push_str(&text[end..group.span.start]);
        let (modifiers, atom) = split_modifiers(&text[group.span.clone()]);
        out.extend(modifiers.chars().filter(|&c| c == 'p' || !MODALITIES.contains(c)));
        out.push_str(atom);
        end = group.span.end;
    }
    out.push_str(&text[end..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::betza::parse;

    /// Each redundancy of `text`: its kind, the text under its span and its help.
    fn found(text: &str) -> Vec<(ProblemKind, String, String)> {
        redundancies(&parse(text).unwrap(), text)
            .into_iter()
            .map(|p| (p.kind, text[p.detail.span].to_owned(), p.detail.help.unwrap_or_default()))
            .collect()
    }

    /// Checks that each `(text, kind, span text, help)` is the one redundancy of its text.
    fn each_is_found(kind: ProblemKind, cases: &[(&str, &str, &str)]) {
        for &(text, at, help) in cases {
            assert_eq!(found(text), vec![(kind, at.to_owned(), help.to_owned())], "{text}");
        }
    }

    #[test]
    fn plain_strings_earn_nothing() {
        for text in
            ["K", "N", "WW", "NN", "fsW", "fmWfcF", "ifmnD", "R4N", "vRsW", "fQ", "lvN", "fhN"]
        {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn a_group_the_others_give_is_reported_once() {
        // A shorter reach is no new move.
        each_is_found(
            ProblemKind::RepeatedGroup,
            &[
                ("WWW", "W", "drop `W`"),
                ("NWN", "N", "drop `N`"),
                ("WR", "W", "drop `W`"),
                ("KfW", "fW", "drop `fW`"),
                ("W2W3", "W2", "drop `W2`"),
            ],
        );
        let e = redundancies(&parse("NWN").unwrap(), "NWN");
        assert_eq!(e[0].detail.span, 2..3, "the later of two equal groups");
        assert_eq!(e[0].detail.message, "`N` adds no move: `N` already gives them");
        // Another leap or other conditions are new moves.
        assert!(found("W3D").is_empty());
        assert!(found("mWcW").is_empty());
    }

    /// A direction the earlier ones give is reported on its own; directions that give no
    /// repeat but say the long way are reported together, with the shorter spelling.
    #[test]
    fn directions_said_twice_or_the_long_way() {
        use ProblemKind::{LongDirections as Long, RepeatedDirection as Again};
        let cases = [
            ("fffR", Again, "f", "fR"),
            ("vfR", Again, "f", "vR"),
            ("fsfW", Again, "f", "fsW"),
            ("ffmffW", Again, "ff", "fmW"),
            ("fbR", Long, "fb", "vR"),
            ("lrW", Long, "lr", "sW"),
            ("fbsR", Long, "fbs", "R"),
            ("fhQ", Long, "fh", "fQ"),
            ("fbcN", Long, "fb", "vcN"),
            ("ffmbW", Long, "ffmb", "vmW"),
            // The help shows the whole string, the other groups kept.
            ("KfffRN", Again, "f", "KfRN"),
            ("NfbR", Long, "fb", "NvR"),
            // No spelling of two letters says both of a knight's opposite pairs: the repeated
            // direction is dropped.
            ("flbrflN", Again, "fl", "flbrN"),
            ("frblfrN", Again, "fr", "frblN"),
        ];
        for (text, kind, at, better) in cases {
            each_is_found(kind, &[(text, at, &format!("write \"{better}\""))]);
        }
    }

    /// Each suggested string reads, and has one redundancy fewer of the kind it fixes.
    #[test]
    fn every_suggested_string_fixes_its_redundancy() {
        let texts = ["fffR", "vfR", "fsfW", "ffmffW", "fbR", "lrW", "fbsR", "fhQ", "fbcN"];
        let more = ["ffmbW", "KfffRN", "NfbR", "ffRbbW", "WfbRsW"];
        let count = |text: &str, kind| found(text).iter().filter(|f| f.0 == kind).count();
        let mut checked = 0;
        for text in texts.into_iter().chain(more) {
            for (kind, _, help) in found(text) {
                let Some(fixed) = help.strip_prefix("write \"").and_then(|h| h.strip_suffix('"'))
                else {
                    continue;
                };
                assert!(parse(fixed).is_ok(), "{text}: {help}");
                assert!(count(fixed, kind) < count(text, kind), "{text}: {help}");
                checked += 1;
            }
        }
        assert!(checked >= texts.len(), "only {checked} suggestions");
    }

    #[test]
    fn modalities_that_do_nothing_without_captures() {
        let kinds = |text: &str, carried: bool| -> Vec<(ProblemKind, usize)> {
            without_captures(&parse(text).unwrap(), text, carried)
                .into_iter()
                .map(|p| (p.kind, p.detail.span.start))
                .collect()
        };
        use ProblemKind::{IdleMoveOnly, NeverCaptures};
        assert_eq!(kinds("fmWfcF", false), vec![(IdleMoveOnly, 1), (NeverCaptures, 4)]);
        // With a carried ball, `m` and `c` say whether a piece may move onto the ball.
        assert_eq!(kinds("fmWfcF", true), vec![]);
        assert_eq!(kinds("fceF", true), vec![(NeverCaptures, 2)]);
        assert!(kinds("KN", false).is_empty());
    }

    #[test]
    fn modalities_of_a_kick_pattern_are_reported() {
        let text = "fmWcFR";
        let found: Vec<_> = kick_modalities(&parse(text).unwrap(), text)
            .into_iter()
            .map(|p| (p.detail.span, p.detail.help.unwrap_or_default()))
            .collect();
        assert_eq!(
            found,
            vec![(1..2, "write \"fWFR\"".to_owned()), (3..4, "write \"fWFR\"".to_owned())]
        );
        assert!(kick_modalities(&parse("fWFR").unwrap(), "fWFR").is_empty());
    }
}
