//! E-mail notices of correspondence games: when a turn is played, the player now to move is told
//! by e-mail, if the server has an SMTP server (`--smtp URL`) and the player gave an address,
//! and is not following the game at that moment; at most one notice a game every ten minutes.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use lettre::message::Mailbox;
use lettre::{Message, SmtpTransport, Transport};

use crate::web::session::lock;

/// The least time between two notices of one game to one player.
const QUIET: Duration = Duration::from_secs(600);

/// Sends the server's notices.
pub struct Mailer {
    transport: SmtpTransport,
    from: Mailbox,
    /// Where the server's pages are reached, for the links in notices.
    base: String,
    sent: Mutex<HashMap<(String, i64), Instant>>,
}

/// A notice to send.
pub struct Notice {
    /// The player's account.
    pub user: i64,
    /// Their address.
    pub to: String,
    /// The game.
    pub game: String,
    /// The other player.
    pub opponent: String,
    /// The turn just played.
    pub turn: String,
}

impl Mailer {
    /// A mailer through the SMTP server of `url` (`smtp://HOST:PORT`, `smtp://USER:PASS@HOST:587?tls=required`,
    /// `smtps://...`), sending from `from`, linking to pages under `base`.
    ///
    /// # Errors
    /// The URL or the address is not valid.
    pub fn new(url: &str, from: &str, base: &str) -> Result<Mailer, String> {
        let transport = SmtpTransport::from_url(url)
            .map_err(|e| format!("--smtp: {e}"))?
            .timeout(Some(Duration::from_secs(20)))
            .build();
        let from = from.parse().map_err(|e| format!("--mail-from: {e}"))?;
        Ok(Mailer {
            transport,
            from,
            base: base.trim_end_matches('/').to_owned(),
            sent: Mutex::new(HashMap::new()),
        })
    }

    /// Whether `notice` is due (none of its game to its player in the last ten minutes); marks
    /// it sent.
    fn due(&self, notice: &Notice) -> bool {
        let mut sent = lock(&self.sent);
        let now = Instant::now();
        sent.retain(|_, at| now.duration_since(*at) < QUIET);
        let key = (notice.game.clone(), notice.user);
        if sent.contains_key(&key) {
            return false;
        }
        sent.insert(key, now);
        true
    }

    /// Sends `notice` if it is due.
    ///
    /// # Errors
    /// The message could not be made or sent.
    pub fn send(&self, notice: &Notice) -> Result<bool, String> {
        if !self.due(notice) {
            return Ok(false);
        }
        let to: Mailbox = notice.to.parse().map_err(|e| format!("{e}"))?;
        let body = format!(
            "{} played {} in your correspondence game.\n\nIt is your turn: {}/watch/{}\n\n\
             -- kickoff\n",
            notice.opponent, notice.turn, self.base, notice.game
        );
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(format!("Your turn against {}", notice.opponent))
            .body(body)
            .map_err(|e| e.to_string())?;
        self.transport.send(&message).map_err(|e| e.to_string())?;
        Ok(true)
    }
}

/// Whether `address` is an e-mail address the server can send to.
#[must_use]
pub fn valid_address(address: &str) -> bool {
    address.len() <= 254 && address.parse::<Mailbox>().is_ok_and(|m| m.name.is_none())
}
