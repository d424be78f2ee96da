//! The definitions shipped inside the binary.

/// Every shipped definition: its name (the file name without `.toml`) and its text.
pub const SHIPPED: &[(&str, &str)] = &[
    ("boyer-1951", include_str!("../../variants/boyer-1951.toml")),
    ("vchess", include_str!("../../variants/vchess.toml")),
    ("football-960", include_str!("../../variants/football-960.toml")),
    ("mini", include_str!("../../variants/mini.toml")),
    ("stadium", include_str!("../../variants/stadium.toml")),
    ("chessball-1957", include_str!("../../variants/chessball-1957.toml")),
    ("apo-chessball", include_str!("../../variants/apo-chessball.toml")),
    ("vchess-ball", include_str!("../../variants/vchess-ball.toml")),
    ("soccer-chess-1998", include_str!("../../variants/soccer-chess-1998.toml")),
    ("mathicasa", include_str!("../../variants/mathicasa.toml")),
    ("ogneva-2014", include_str!("../../variants/ogneva-2014.toml")),
    ("footballchess-correa", include_str!("../../variants/footballchess-correa.toml")),
    ("skunne-chessball", include_str!("../../variants/skunne-chessball.toml")),
    ("orsi-chess-football", include_str!("../../variants/orsi-chess-football.toml")),
    ("tulaanh-chessfootball", include_str!("../../variants/tulaanh-chessfootball.toml")),
    ("chess-football-2025", include_str!("../../variants/chess-football-2025.toml")),
    ("xfutebol", include_str!("../../variants/xfutebol.toml")),
];

/// The text of the shipped definition `name`.
#[must_use]
pub fn shipped(name: &str) -> Option<(&'static str, &'static str)> {
    SHIPPED.iter().find(|(n, _)| *n == name).copied()
}

/// The names of every shipped definition.
pub fn names() -> impl Iterator<Item = &'static str> {
    SHIPPED.iter().map(|(n, _)| *n)
}
