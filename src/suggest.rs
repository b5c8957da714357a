//! "Did you mean …?": the known word closest to a mistyped one (games, commands, options,
//! themes, languages).

/// The word of `known` closest to `word`, if one is close enough to be what was meant: the same
/// but for case, or at most one edit (a letter added, dropped, changed, or two swapped) for every
/// three letters.
pub fn closest<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_lowercase();
    let most = (word.chars().count() / 3).max(1);
    known
        .into_iter()
        .map(|k| (strsim::damerau_levenshtein(&word, &k.to_lowercase()), k))
        .filter(|&(d, _)| d <= most)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// "did you mean `WORD`?" for the closest of `known` to `word`, if any.
pub fn did_you_mean<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<String> {
    closest(word, known).map(|k| format!("did you mean `{k}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_and_case_find_the_word_and_strangers_find_nothing() {
        let games = ["hex", "go", "nine_men", "tic_tac_toe", "mill"];
        assert_eq!(closest("hax", games), Some("hex"));
        assert_eq!(closest("Hex", games), Some("hex"));
        assert_eq!(closest("mlil", games), Some("mill"));
        assert_eq!(closest("tic_tac_to", games), Some("tic_tac_toe"));
        assert_eq!(closest("chess", games), None);
        assert_eq!(closest("hlep", ["help", "hint", "history"]), Some("help"));
        assert_eq!(closest("9h", ["help", "hint"]), None);
    }
}
