//! From a merged, schema-checked definition tree to [`Rules`], reporting every problem found.

use crate::definition::Code;
use crate::definition::diagnostic::Diagnostic;
use crate::definition::holders;
use crate::definition::keys::{self, FromKey, Literal};
use crate::definition::source::{FileId, Loc, Sources, span_in_string};
use crate::definition::tree::{Node, Table, Value};
use crate::notation::ParseError;
use crate::rules::{Placement, Rules, VariantInfo};
use crate::side::Side;

mod board;
mod combinations;
mod pieces;
mod play;
mod random;
mod start;

/// Reads the typed values of a checked tree and collects problems.
struct Compiler<'a> {
    sources: &'a Sources,
    root: &'a Table,
    out: Vec<Diagnostic>,
    /// Letters of pieces whose moves could not be read (not linted).
    broken: Vec<String>,
}

/// Compiles a merged definition tree into rules (none if any error was found) and every
/// problem found, warnings included.
pub(crate) fn compile(sources: &Sources, root: &Table) -> (Option<Rules>, Vec<Diagnostic>) {
    let mut c = Compiler { sources, root, out: Vec::new(), broken: Vec::new() };
    let rules = c.rules();
    let failed = c.out.iter().any(Diagnostic::is_error);
    (rules.filter(|_| !failed), c.out)
}

impl<'a> Compiler<'a> {
    /// The node at `path`, if the definition writes it.
    fn node(&self, path: &[&str]) -> Option<&'a Node> {
        crate::definition::tree::node_at(self.root, path)
    }

    /// The string at `path` and its node, if the definition writes one.
    fn str(&self, path: &[&str]) -> Option<(&'a str, &'a Node)> {
        let node = self.node(path)?;
        match &node.value {
            Value::String(s) => Some((s.as_str(), node)),
            _ => None,
        }
    }

    /// The value of a key that has a default: the definition's, else the key table's default.
    /// A value the checks refused has been reported (no rules will be built); the default
    /// stands in for it so that the other parts are still checked.
    fn setting<T: FromKey + Default>(&mut self, path: &[&str]) -> T {
        let given = self.node(path).and_then(|n| Literal::of(&n.value));
        match given.or_else(|| keys::default_of(path)).and_then(T::from_literal) {
            Some(value) => value,
            None => self.bug(path),
        }
    }

    /// The value of a key without a default, if the definition gives one the checks accepted.
    fn optional<T: FromKey>(&mut self, path: &[&str]) -> Option<T> {
        let node = self.node(path)?;
        if node.value == Value::Invalid {
            return None;
        }
        let value = Literal::of(&node.value).and_then(T::from_literal);
        if value.is_none() {
            self.bug::<()>(path);
        }
        value
    }

    /// The text of a key that has a default, and where the definition wrote it (nowhere when
    /// the default stands).
    fn text_setting(&mut self, path: &[&str]) -> Option<(&'a str, Option<&'a Node>)> {
        if let Some((text, node)) = self.str(path) {
            return Some((text, Some(node)));
        }
        match keys::default_of(path) {
            Some(Literal::Str(text)) => Some((text, None)),
            _ => self.bug(path),
        }
    }

    /// Reports a key that the compiler cannot read although the checks passed it: a bug in the
    /// key table or here, never in the definition. Returns a stand-in value.
    fn bug<T: Default>(&mut self, path: &[&str]) -> T {
        self.out.push(
            Diagnostic::new(
                Code::Internal,
                format!("internal error: kickoff cannot read `{}`", path.join(".")),
                written_at(None),
            )
            .with_help("this is a bug in kickoff, not in the definition; please report it"),
        );
        T::default()
    }

    /// Reports a grammar error found inside the string value of `node`.
    fn string_error(&mut self, code: Code, node: &Node, value: &str, e: ParseError, context: &str) {
        let d = self.string_diagnostic(code, node, value, e, context);
        self.out.push(d);
    }

    /// The diagnostic of a grammar error found inside the string value of `node`.
    fn string_diagnostic(
        &self,
        code: Code,
        node: &Node,
        value: &str,
        e: ParseError,
        context: &str,
    ) -> Diagnostic {
        let text = &self.sources.get(node.at.file).text;
        let span = span_in_string(text, &node.at.span, value, &e.span);
        let message = format!("{context}: {}", e.message);
        Diagnostic::new(code, message, Loc { file: node.at.file, span }).with_help_opt(e.help)
    }

    /// [`Compiler::string_error`] for a text that may be a key's default, written nowhere.
    fn text_error(
        &mut self,
        code: Code,
        node: Option<&Node>,
        value: &str,
        e: ParseError,
        context: &str,
    ) {
        match node {
            Some(node) => self.string_error(code, node, value, e, context),
            None => self.bug(&[context]),
        }
    }

    /// Builds the rules from every part that could be read. Parts that failed have been
    /// reported; checks that depend on them (the position needs the board) are skipped so that
    /// one mistake is not reported several times.
    fn rules(&mut self) -> Option<Rules> {
        let info = self.info();
        let kick = self.kick_rules();
        let mut pieces = self.pieces();
        let ball = self.ball(&pieces);
        self.out.extend(holders::check(self.root, &pieces, ball.as_ref().map(|b| b.symbol)));
        let (turn, end) = (self.turn_rules(), self.end_rules());
        let capture = self.setting(&["capture", "mode"]);
        let board = self.board()?;
        let goals = self.goals(board, pieces.iter().any(|p| p.target))?;
        self.piece_squares(&mut pieces, board);
        let mut ball = ball;
        let forbidden = self.squares(&["ball", "forbidden"], board, "the ball's forbidden squares");
        if let (Some(ball), Some(list)) = (ball.as_mut(), forbidden) {
            ball.forbidden = list.into_iter().collect();
        }
        let offside = self.squares(&["ball", "offside"], board, "the offside squares");
        if let (Some(ball), Some(list)) = (ball.as_mut(), offside) {
            ball.carried.offside = list.into_iter().collect();
        }
        let (fen_text, fen_node) = self.str(&["setup", "fen"])?;
        let mut rules = Rules {
            info,
            board,
            goals,
            pieces,
            ball: ball?,
            capture,
            setup_fen: fen_text.to_owned(),
            start: Placement::new(Vec::new(), None, Side::White),
            random: None,
            arrangement: None,
            placing: None,
            kick,
            turn,
            end,
            tables: Default::default(),
        };
        rules.arrangement = self.arrangement(board);
        rules.placing = self.placement_stage(&rules);
        if let Some(start) = self.check_setup(&rules, fen_text, fen_node) {
            rules.start = start;
        }
        let family = keys::in_boyers_family(self.root);
        rules.tables = std::sync::Arc::new(crate::rules::tables::Tables::build(&rules, family));
        self.check_holders_reach_goals(&rules);
        self.check_combinations(&rules);
        rules.random = self.random(&rules);
        self.lint_pieces(&rules);
        Some(rules)
    }

    /// The `[variant]` table: the name and the credits.
    fn info(&mut self) -> VariantInfo {
        let year = self.optional(&["variant", "year"]);
        let text = |key: &str| self.str(&["variant", key]).map(|(s, _)| s.to_owned());
        // An empty credit is no credit.
        let credit = |key: &str| text(key).filter(|s| !s.trim().is_empty());
        VariantInfo {
            name: text("name").unwrap_or_default(),
            author: credit("author"),
            year,
            description: credit("description"),
            source: credit("source"),
        }
    }
}

/// Where a value was written; for a default, written nowhere, the top of the definition.
fn written_at(node: Option<&Node>) -> Loc {
    node.map_or(Loc { file: FileId(0), span: 0..0 }, |n| n.at.clone())
}

#[cfg(test)]
mod tests {
    use crate::definition::keys::{Given, Literal, leaves};
    use crate::definition::load_text;

    /// A definition that gives every required key and nothing else.
    const BARE: &str = "\
[variant]
name = \"bare\"
[board]
files = 5
ranks = 5
[goals]
white = \"c5\"
black = \"c1\"
[pieces.K]
name = \"king\"
moves = \"K\"
[pieces.B]
name = \"bishop\"
moves = \"B\"
[setup]
fen = \"kb3/5/2a2/5/KB3 w 0\"
[setup.random]
squares = \"a1-b1\"
pieces = \"KB\"
";

    /// `BARE` with the key at `path` set to `value` (a piece's key on the king).
    fn with_key(path: &[&str], value: &str) -> String {
        let path: Vec<&str> = path.iter().map(|&p| if p == "X" { "K" } else { p }).collect();
        let (key, table) = path.split_last().unwrap();
        let line = format!("{key} = {value}");
        if table.is_empty() {
            return format!("{line}\n{BARE}");
        }
        let header = format!("[{}]", table.join("."));
        match BARE.find(&format!("{header}\n")) {
            Some(at) => {
                let after = at + header.len() + 1;
                format!("{}{line}\n{}", &BARE[..after], &BARE[after..])
            }
            None => format!("{BARE}{header}\n{line}\n"),
        }
    }

    /// Everything a definition decides, for comparing two of them.
    fn decided(text: &str) -> String {
        let def = load_text("bare.toml", text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        let r = &def.rules;
        format!(
            "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {}",
            r.board(),
            r.kick(),
            r.turn(),
            r.end(),
            r.pieces(),
            r.random_setup(),
            r.info(),
            r.ball_symbol()
        )
    }

    /// Leaving a key out is the same as writing its default: the compiler reads the defaults of
    /// the key table, which the docs and the JSON Schema show.
    #[test]
    fn a_left_out_key_takes_the_default_of_the_key_table() {
        let bare = decided(BARE);
        let mut checked = 0;
        for (path, key) in leaves() {
            let Given::Default(default) = key.given else { continue };
            let value = match default {
                Literal::Int(n) => n.to_string(),
                Literal::Bool(b) => b.to_string(),
                Literal::Str(s) => format!("\"{s}\""),
            };
            assert_eq!(decided(&with_key(&path, &value)), bare, "`{}`", path.join("."));
            checked += 1;
        }
        assert!(checked >= 15, "only {checked} defaults");
    }

    #[test]
    fn the_defaults_are_the_rules_of_boyers_game() {
        // Boyer's definition writes every option out; docs/rules.md promises that a definition
        // that leaves them out plays by the same rules.
        let boyer = crate::definition::load_shipped("boyer-1951").unwrap().rules;
        let bare = load_text("bare.toml", BARE).unwrap().rules;
        assert_eq!(bare.kick(), boyer.kick());
        assert_eq!(bare.turn(), boyer.turn());
        assert_eq!(bare.end(), boyer.end());
        assert_eq!(bare.board().a1_dark, boyer.board().a1_dark);
    }
}
