//! Counts in English words, singular for one: `1 ply`, `2 plies`.

/// `n` and the noun for it: `one` when `n` is 1, else `many`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular_and_the_rest_plural() {
        assert_eq!(count(1, "ply", "plies"), "1 ply");
        assert_eq!(count(0, "game", "games"), "0 games");
        assert_eq!(count(12, "win", "wins"), "12 wins");
    }
}
