//! The built-in themes, as the REPL draws boards with them.

use boardrules::repl::theme::Theme;

#[test]
fn lines98_balls_are_coloured_in_plain_and_told_apart_by_shape_in_stones() {
    let board = "1 2 3 4 5 6 7 .";
    let plain = Theme::load("plain").unwrap();
    assert_eq!(plain.draw("lines98", board, false), board);
    let coloured = plain.draw("lines98", board, true);
    // seven colours and the reset after each ball
    let styles: std::collections::BTreeSet<&str> = coloured
        .split("\u{1b}[")
        .skip(1)
        .filter_map(|s| s.split('m').next())
        .collect();
    assert_eq!(styles.len(), 8, "{coloured:?}");
    let stones = Theme::load("stones").unwrap().draw("lines98", board, false);
    let shapes: std::collections::BTreeSet<char> = stones.chars().filter(|c| *c != ' ').collect();
    assert_eq!(shapes.len(), 8, "{stones}");
}
