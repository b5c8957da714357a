//! The brain's time manager: what the manager said about time (`INFO timeout_turn`,
//! `timeout_match`, `time_left`) turned into a budget for the next move.

use std::time::Duration;

/// Longer than any real tournament gives: larger numbers are refused as nonsense.
const MAX_MS: u64 = 24 * 60 * 60 * 1000;

/// Kept back from every budget for the process and the pipes (the manager measures the time
/// from sending the command to reading the answer).
const LATENCY_MS: u64 = 30;

/// The most of the measured floor put aside for each of the game's later moves: a real
/// per-move cost (25–60 ms measured on a 15×15 board) is covered to the last cell, while one
/// slow answer on a loaded machine does not leave the next moves a millisecond each.
const RESERVED_FLOOR_MS: u64 = 60;

/// The protocol's "no limit" (2³¹ − 1 ms), which managers send as `time_left` and
/// `timeout_match` when a match has no clock.
const NO_LIMIT: &str = "2147483647";

/// What the manager told the brain about time, in milliseconds, and what the brain measured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    /// The most a move may take (`timeout_turn`); 0 means "as fast as you can".
    turn: Option<u64>,
    /// The whole game's time (`timeout_match`); 0 means no limit.
    game: Option<u64>,
    /// The time left of the game's (`time_left`).
    left: Option<u64>,
    /// What a move costs beyond its search, as measured on the last moves ([`Self::measured`]):
    /// kept back from every budget.
    floor: u64,
}

impl Clock {
    /// Takes an `INFO KEY VALUE` about time. `Ok(false)` if `key` is not about time; an error
    /// (and nothing changed) if the value is not a sensible number of milliseconds.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        let slot = match key {
            "timeout_turn" => &mut self.turn,
            "timeout_match" => &mut self.game,
            "time_left" => &mut self.left,
            _ => return Ok(false),
        };
        if value.trim() == NO_LIMIT {
            *slot = None;
            return Ok(true);
        }
        let ms = parse_ms(value).map_err(|why| {
            let kept = slot.map_or("nothing".to_string(), |ms| format!("{ms} ms"));
            format!("INFO {key} {value}: {why}; keeping {kept}")
        })?;
        *slot = Some(ms);
        Ok(true)
    }

    /// The time the next move may take on a board with `empty` free cells, or `default` when
    /// the manager said nothing about time. The move gets its share of the game's time left
    /// ([`moves_to_go`]) and never more than the turn limit, less a margin for latency, and at
    /// least a millisecond ("as fast as you can" is a millisecond's search). The share is taken
    /// from what is left once the measured floor is put aside for every move of ours the board
    /// still has room for (at most [`RESERVED_FLOOR_MS`] each), so a game played to the last
    /// cell keeps time for its answers.
    pub fn budget(&self, empty: usize, default: Duration) -> Duration {
        let kept = LATENCY_MS + self.floor;
        let turn = self
            .turn
            .map(|t| t.saturating_sub(t / 5).saturating_sub(kept));
        let put_aside =
            LATENCY_MS + self.floor.min(RESERVED_FLOOR_MS) * (empty as u64).div_ceil(2).max(1);
        let share = |ms: u64| ms.saturating_sub(put_aside) / moves_to_go(empty);
        let game = match (self.game, self.left) {
            (Some(total), Some(left)) if total > 0 => Some(share(left)),
            (Some(total), None) if total > 0 => Some(share(total)),
            _ => None,
        };
        let ms = match (turn, game) {
            (None, None) => return default,
            (Some(t), Some(g)) => t.min(g),
            (Some(ms), None) | (None, Some(ms)) => ms,
        };
        Duration::from_millis(ms.max(1))
    }
}

impl Clock {
    /// Notes that a move whose search had `budget` took `took` from the command to the answer:
    /// the overhead (listing and screening moves, the rules' checks) becomes the floor kept back
    /// from later budgets — at once when it grows, a quarter of the way at a time when it falls.
    pub fn measured(&mut self, budget: Duration, took: Duration) {
        let over = took
            .saturating_sub(budget)
            .as_millis()
            .min(u128::from(MAX_MS)) as u64;
        self.floor = if over >= self.floor {
            over
        } else {
            self.floor - (self.floor - over) / 4
        };
    }
}

/// A whole number of milliseconds, 0 to a day (a negative time left counts as none).
fn parse_ms(value: &str) -> Result<u64, String> {
    let n: i128 = value
        .trim()
        .parse()
        .map_err(|_| "not a whole number of milliseconds".to_string())?;
    match u64::try_from(n.max(0)) {
        Ok(ms) if ms <= MAX_MS => Ok(ms),
        _ => Err(format!("more than a day ({MAX_MS} ms)")),
    }
}

/// How many more moves of ours a game on a board with `empty` free cells may need: a share of
/// the game's time is its time left over this (12 early on, never fewer than 10): games
/// against a strong opponent are decided by our 10th–20th move, so the early moves get a
/// twelfth of what is left (with the floor put aside for the rest of the game).
fn moves_to_go(empty: usize) -> u64 {
    (empty as u64 / 8).clamp(10, 12)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> u128 {
        d.as_millis()
    }

    #[test]
    fn the_turn_limit_caps_every_move() {
        let mut c = Clock::default();
        let default = Duration::from_millis(900);
        assert_eq!(c.budget(160, default), default);
        c.set("timeout_turn", "5000").unwrap();
        assert_eq!(ms(c.budget(160, default)), 5000 - 1000 - LATENCY_MS as u128);
        c.set("timeout_turn", "0").unwrap();
        assert_eq!(ms(c.budget(160, default)), 1, "as fast as you can");
    }

    #[test]
    fn the_match_clock_shares_the_time_left() {
        let mut c = Clock::default();
        c.set("timeout_turn", "5000").unwrap();
        c.set("timeout_match", "10000").unwrap();
        c.set("time_left", "2036").unwrap();
        assert_eq!(ms(c.budget(160, Duration::ZERO)), (2036 - 30) / 12);
        c.set("time_left", "300").unwrap();
        assert!(ms(c.budget(80, Duration::ZERO)) <= 30);
        c.set("time_left", "-50").unwrap();
        assert_eq!(ms(c.budget(80, Duration::ZERO)), 1);
        // A match without a clock (timeout_match 0) leaves the turn limit.
        c.set("timeout_match", "0").unwrap();
        assert_eq!(ms(c.budget(80, Duration::ZERO)), 3970);
    }

    #[test]
    fn the_protocols_largest_number_means_no_limit() {
        let mut c = Clock::default();
        c.set("timeout_turn", "5000").unwrap();
        c.set("timeout_match", "2147483647").unwrap();
        c.set("time_left", "2147483647").unwrap();
        assert_eq!(ms(c.budget(160, Duration::ZERO)), 3970);
        c.set("timeout_turn", "2147483647").unwrap();
        assert_eq!(ms(c.budget(160, Duration::from_millis(900))), 900);
    }

    #[test]
    fn the_measured_floor_is_kept_back() {
        let mut c = Clock::default();
        c.set("timeout_match", "100000").unwrap();
        c.set("time_left", "1000").unwrap();
        assert_eq!(ms(c.budget(2, Duration::ZERO)), (1000 - 30) / 10);
        // A move with a 10 ms search took 60 ms: 50 ms a move are kept back from now on.
        c.measured(Duration::from_millis(10), Duration::from_millis(60));
        assert_eq!(ms(c.budget(2, Duration::ZERO)), (1000 - 80) / 10);
        c.set("time_left", "70").unwrap();
        assert_eq!(
            ms(c.budget(2, Duration::ZERO)),
            1,
            "less than the floor: at once"
        );
        // Cheaper moves lower it a quarter of the way at a time.
        c.measured(Duration::from_millis(10), Duration::from_millis(10));
        c.set("time_left", "1000").unwrap();
        assert_eq!(ms(c.budget(2, Duration::ZERO)), (1000 - 30 - 38) / 10);
    }

    #[test]
    fn the_floor_is_put_aside_for_every_move_the_board_has_room_for() {
        let mut c = Clock::default();
        c.set("timeout_match", "10000").unwrap();
        c.set("time_left", "10000").unwrap();
        assert_eq!(ms(c.budget(225, Duration::ZERO)), (10000 - 30) / 12);
        c.measured(Duration::from_millis(10), Duration::from_millis(30));
        assert_eq!(
            ms(c.budget(225, Duration::ZERO)),
            (10000 - 30 - 20 * 113) / 12
        );
        // A game to the last cell, each move costing 40 ms beyond its search: time is left.
        let (mut left, mut empty) = (10_000i64, 225);
        c.measured(Duration::ZERO, Duration::from_millis(40));
        while empty > 1 {
            c.set("time_left", &left.to_string()).unwrap();
            left -= ms(c.budget(empty, Duration::ZERO)) as i64 + 40;
            assert!(left > 0, "out of time with {empty} cells empty");
            empty -= 2;
        }
    }

    #[test]
    fn nonsense_is_refused_and_changes_nothing() {
        let mut c = Clock::default();
        c.set("timeout_turn", "1000").unwrap();
        let before = c;
        assert!(c.set("timeout_turn", "18446744073709551615").is_err());
        assert!(c.set("timeout_turn", "soon").is_err());
        assert_eq!(c, before);
        assert_eq!(c.set("max_memory", "83886080"), Ok(false));
    }

    #[test]
    fn fewer_moves_to_go_late_in_the_game() {
        assert_eq!(moves_to_go(225), 12);
        assert_eq!(moves_to_go(88), 11);
        assert_eq!(moves_to_go(3), 10);
    }
}
