//! Who sits at a table: a person (in a browser), the computer at a level, or a bot program over
//! the network; each seat's secret token (compared in constant time) and short join code.

use std::{fmt, str::FromStr};

use rand::Rng;
use subtle::ConstantTimeEq;

use crate::search::player::Level;

/// The kind of a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatKind {
    /// A person, playing in a browser (or with curl).
    Human,
    /// A bot program playing through the API.
    Bot,
    /// The server's own search player at a level.
    Computer(Level),
}

impl fmt::Display for SeatKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatKind::Human => f.write_str("human"),
            SeatKind::Bot => f.write_str("bot"),
            SeatKind::Computer(level) => write!(f, "computer:{}", level.name()),
        }
    }
}

impl FromStr for SeatKind {
    type Err = String;

    /// Reads `human`, `bot`, `computer` (medium) or `computer:LEVEL`.
    fn from_str(text: &str) -> Result<SeatKind, String> {
        match text.split_once(':') {
            None if text == "human" => Ok(SeatKind::Human),
            None if text == "bot" => Ok(SeatKind::Bot),
            None if text == "computer" => Ok(SeatKind::Computer(Level::Medium)),
            Some(("computer", level)) => Level::parse(level)
                .map(SeatKind::Computer)
                .ok_or_else(|| format!("'{level}' is not a level: easy, medium or hard")),
            _ => Err(format!(
                "'{text}' is not a seat kind: human, bot, computer or computer:LEVEL"
            )),
        }
    }
}

/// A seat at a table.
#[derive(Debug, Clone)]
pub struct Seat {
    /// Who plays it.
    pub kind: SeatKind,
    /// The name shown (and written in exported journals).
    pub name: String,
    /// The secret that moves for this seat.
    pub token: String,
    /// The short code a student types to join this seat.
    pub code: String,
}

impl Seat {
    /// A new seat of `kind` named `name`, with a fresh token and join code.
    pub fn new(kind: SeatKind, name: String) -> Seat {
        Seat {
            kind,
            name,
            token: token(),
            code: code(),
        }
    }

    /// Whether `given` is this seat's token (in time that does not depend on where they differ).
    pub fn has_token(&self, given: &str) -> bool {
        !matches!(self.kind, SeatKind::Computer(_))
            && bool::from(self.token.as_bytes().ct_eq(given.as_bytes()))
    }
}

/// The seat of `seats` whose token is `given`: every seat is compared, in constant time each.
pub fn seat_of(seats: &[Seat], given: &str) -> Option<usize> {
    seats.iter().enumerate().fold(None, |found, (i, seat)| {
        if seat.has_token(given) {
            Some(i)
        } else {
            found
        }
    })
}

/// 128 random bits, as 32 hex digits.
pub fn token() -> String {
    let bits: u128 = rand::rng().random();
    format!("{bits:032x}")
}

/// Letters and digits that are hard to mistake for each other when read aloud or copied.
const CODE_ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

/// A short join code: 6 characters of [`CODE_ALPHABET`] (about 2^29 codes).
pub fn code() -> String {
    let mut rng = rand::rng();
    (0..6)
        .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
        .collect()
}

/// A table id: 8 characters of [`CODE_ALPHABET`].
pub fn table_id() -> String {
    let mut rng = rand::rng();
    (0..8)
        .map(|_| CODE_ALPHABET[rng.random_range(0..CODE_ALPHABET.len())] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_read_back_what_they_write() {
        for kind in [
            SeatKind::Human,
            SeatKind::Bot,
            SeatKind::Computer(Level::Hard),
        ] {
            assert_eq!(kind.to_string().parse::<SeatKind>(), Ok(kind));
        }
        assert!("robot".parse::<SeatKind>().unwrap_err().contains("human"));
    }

    #[test]
    fn only_a_seats_own_token_finds_it_and_a_computer_has_none() {
        let mut seats = vec![
            Seat::new(SeatKind::Human, "a".into()),
            Seat::new(SeatKind::Human, "b".into()),
        ];
        assert_eq!(seat_of(&seats, &seats[1].token.clone()), Some(1));
        assert_eq!(seat_of(&seats, ""), None);
        assert_eq!(seat_of(&seats, &seats[0].token[..31]), None);
        seats[0].kind = SeatKind::Computer(Level::Easy);
        assert_eq!(seat_of(&seats, &seats[0].token.clone()), None);
    }
}
