//! Per-player clocks ("rush" mode): each player has a budget; the player to move's clock runs.

use std::time::{Duration, Instant};

/// The players' remaining times, and whose clock runs since when.
#[derive(Debug, Clone)]
pub struct Clock {
    /// The budget each player started with.
    pub initial: Duration,
    /// Each player's remaining time (not counting the running turn).
    pub remaining: Vec<Duration>,
    running: Option<(usize, Instant)>,
}

impl Clock {
    /// Clocks of `budget` for `players` players, none running.
    pub fn new(budget: Duration, players: usize) -> Self {
        Clock {
            initial: budget,
            remaining: vec![budget; players],
            running: None,
        }
    }

    /// Starts `player`'s clock at `now` (stopping any other without charging it).
    pub fn start(&mut self, player: usize, now: Instant) {
        self.running = Some((player, now));
    }

    /// Stops the running clock at `now`, charging its player; returns that player if their time
    /// ran out.
    pub fn stop(&mut self, now: Instant) -> Option<usize> {
        let (player, since) = self.running.take()?;
        let left = self.remaining.get_mut(player)?;
        let used = now.saturating_duration_since(since);
        *left = left.saturating_sub(used);
        left.is_zero().then_some(player)
    }

    /// Each player's time left at `now`, counting the running turn.
    pub fn left(&self, now: Instant) -> Vec<Duration> {
        let mut left = self.remaining.clone();
        if let Some((p, since)) = self.running {
            if let Some(l) = left.get_mut(p) {
                *l = l.saturating_sub(now.saturating_duration_since(since));
            }
        }
        left
    }
}

/// `4:05` for minutes and seconds, `0:09.5` under ten seconds.
pub fn format(d: Duration) -> String {
    let secs = d.as_secs();
    if secs < 10 {
        format!("0:{:02}.{}", secs, d.subsec_millis() / 100)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_running_player_is_charged_and_flags_at_zero() {
        let t0 = Instant::now();
        let mut c = Clock::new(Duration::from_secs(10), 2);
        c.start(0, t0);
        assert_eq!(
            c.left(t0 + Duration::from_secs(3))[0],
            Duration::from_secs(7)
        );
        assert_eq!(c.stop(t0 + Duration::from_secs(4)), None);
        assert_eq!(
            c.remaining,
            vec![Duration::from_secs(6), Duration::from_secs(10)]
        );
        c.start(1, t0 + Duration::from_secs(4));
        assert_eq!(c.stop(t0 + Duration::from_secs(20)), Some(1));
        assert_eq!(c.remaining[1], Duration::ZERO);
        assert_eq!(format(Duration::from_secs(245)), "4:05");
        assert_eq!(format(Duration::from_millis(9500)), "0:09.5");
    }
}
