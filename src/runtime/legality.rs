//! One source of legality: a move that comes from outside the rules (a person, a file, a bot) is
//! legal only if `legal_moves` lists it. Search plays the moves `legal_moves` gives and never
//! comes through here.

use super::game::{Game, GameError, Played};

/// The most legal moves named as "nearest" to an illegal one.
const NEAREST: usize = 3;

/// Plays `mv` (written `text`) in `state` if the game lists it among its legal moves.
///
/// - not listed, and the rules explain why ([`Game::why_illegal`]): their reason (`play` is
///   not called, so it need not check what it is given);
/// - not listed and `play` refuses it: `play`'s own message;
/// - not listed but `play` accepts it: "`text` is not among the legal moves" (with the nearest
///   legal moves by spelling);
/// - listed but `play` refuses it: a bug in the rules, reported as [`GameError::Rules`] at
///   `play`'s definition.
pub fn play_listed<G: Game + ?Sized>(
    game: &G,
    state: &G::State,
    mv: &G::Move,
    text: &str,
) -> Result<Played<G::State>, GameError> {
    let legal = game.legal_moves(state)?;
    let listed = is_listed(game, state, &legal, mv, text)?;
    if !listed {
        if let Some(reason) = game.why_illegal(state, mv)? {
            return Err(GameError::Illegal(if reason.is_empty() {
                not_listed(game, state, &legal, text)
            } else {
                reason
            }));
        }
    }
    match game.play(state, mv) {
        Err(GameError::Illegal(message)) if listed => Err(GameError::Rules {
            message: format!(
                "moves() lists {text}, but play() refuses it: {message} (a bug in the rules \
                 script: moves and play disagree)"
            ),
            spot: game.definition("play"),
        }),
        Err(e) => Err(e),
        Ok(_) if !listed => Err(GameError::Illegal(not_listed(game, state, &legal, text))),
        Ok(played) => Ok(played),
    }
}

/// Whether `mv` is among `legal`: the same move value (by [`Game::move_hash`]), or else the same
/// canonical text.
fn is_listed<G: Game + ?Sized>(
    game: &G,
    state: &G::State,
    legal: &[G::Move],
    mv: &G::Move,
    text: &str,
) -> Result<bool, GameError> {
    if let Some(hash) = game.move_hash(mv) {
        if legal.iter().any(|m| game.move_hash(m) == Some(hash)) {
            return Ok(true);
        }
    }
    for m in legal {
        if game.format_move(state, m)? == text {
            return Ok(true);
        }
    }
    Ok(false)
}

/// "9h is not among the legal moves (nearest: 9g, 9i, 8h)".
fn not_listed<G: Game + ?Sized>(
    game: &G,
    state: &G::State,
    legal: &[G::Move],
    text: &str,
) -> String {
    if legal.is_empty() {
        return format!("{text} is not among the legal moves (there are none)");
    }
    let mut near: Vec<((usize, u32), String)> = legal
        .iter()
        .filter_map(|m| game.format_move(state, m).ok())
        .map(|t| ((edit_distance(&t, text), closeness(&t, text)), t))
        .filter(|((d, _), _)| *d <= 2)
        .collect();
    near.sort();
    near.truncate(NEAREST);
    if near.is_empty() {
        format!("{text} is not among the legal moves")
    } else {
        let names: Vec<String> = near.into_iter().map(|(_, t)| t).collect();
        format!(
            "{text} is not among the legal moves (nearest: {})",
            names.join(", ")
        )
    }
}

/// Between texts of equal length, how far apart their characters are (`9g` is nearer `9h` than
/// `9a` is); texts of different lengths come after.
fn closeness(a: &str, b: &str) -> u32 {
    if a.chars().count() != b.chars().count() {
        return u32::MAX;
    }
    a.chars()
        .zip(b.chars())
        .map(|(x, y)| (x as u32).abs_diff(y as u32))
        .sum()
}

/// The Levenshtein distance between two texts, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::edit_distance;

    #[test]
    fn edit_distance_counts_single_character_edits() {
        assert_eq!(edit_distance("9h", "9g"), 1);
        assert_eq!(edit_distance("9h", "10h"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
