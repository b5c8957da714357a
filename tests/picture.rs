//! `boardrules picture` and the REPL's `picture FILE`: the SVG is rasterised (resvg, shapes
//! only) and a few pixels checked; the SVG text of three games is snapshotted.

mod common;

use common::boardrules;
use resvg::{tiny_skia, usvg};

/// The SVG `boardrules picture ARGS… --svg FILE` writes.
fn picture(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.svg");
    boardrules()
        .arg("picture")
        .args(args)
        .arg("--svg")
        .arg(&path)
        .assert()
        .success();
    std::fs::read_to_string(path).unwrap()
}

/// The picture as pixels.
fn raster(svg: &str) -> tiny_skia::Pixmap {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("a valid SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
}

/// The colour at `(x, y)`.
fn rgb(p: &tiny_skia::Pixmap, x: u32, y: u32) -> (u8, u8, u8) {
    let c = p.pixel(x, y).unwrap().demultiply();
    (c.red(), c.green(), c.blue())
}

/// Whether `a` is within 12 of `b` in each channel.
fn near(a: (u8, u8, u8), b: (u8, u8, u8)) -> bool {
    a.0.abs_diff(b.0) <= 12 && a.1.abs_diff(b.1) <= 12 && a.2.abs_diff(b.2) <= 12
}

const BOARD: (u8, u8, u8) = (0xe3, 0xbd, 0x72);

// A 9×9 board: cell (x, y) (y from the top) has its centre at (50 + 40x, 50 + 40y).
fn centre(x: u32, y: u32) -> (u32, u32) {
    (50 + 40 * x, 50 + 40 * y)
}

#[test]
fn stones_are_dark_and_light_and_empty_cells_are_the_board() {
    let svg = picture(&["caro", "-o", "size=9", "5e", "5f", "4d"]);
    let p = raster(&svg);
    assert_eq!((p.width(), p.height()), (420, 420));
    let (x, y) = centre(4, 4); // 5e: X, the first player: a black stone
    let (r, g, b) = rgb(&p, x, y);
    assert!(r < 60 && g < 60 && b < 60, "5e is {:?}", (r, g, b));
    let (x, y) = centre(5, 4); // 5f: O, a white stone
    let (r, g, b) = rgb(&p, x, y);
    assert!(r > 200 && g > 200 && b > 200, "5f is {:?}", (r, g, b));
    let (x, y) = centre(0, 8); // 1a: empty
    assert!(near(rgb(&p, x, y), BOARD), "1a is {:?}", rgb(&p, x, y));
    // The last move (4d) is ringed in the theme's `last` colour (yellow), its centre still black.
    let (x, y) = centre(3, 5);
    assert!(rgb(&p, x, y).0 < 60);
    let ring = rgb(&p, x + 7, y);
    assert!(
        ring.0 > 200 && ring.1 > 120 && ring.2 < 100,
        "the ring is {ring:?}"
    );
}

#[test]
fn the_winning_line_is_framed_in_the_win_colour() {
    let svg = picture(&[
        "caro",
        "-o",
        "size=7",
        "-o",
        "block_rule=false",
        "1a",
        "2a",
        "1b",
        "2b",
        "1c",
        "2c",
        "1d",
        "2d",
        "1e",
    ]);
    let p = raster(&svg);
    // 1a is cell (0, 6) of 7: centre (50, 290); the frame runs 18 px from the centre.
    let frame = rgb(&p, 50 - 18, 290);
    assert!(
        frame.1 > frame.0 + 40 && frame.1 > frame.2 + 40,
        "the frame is {frame:?}"
    );
    let not_won = rgb(&p, 50 - 18, 250); // 2a's frame side: no frame
    assert!(frame != not_won);
}

#[test]
fn a_track_is_drawn_as_pits_with_counts() {
    let svg = picture(&["o_an_quan"]);
    let p = raster(&svg);
    // Two rows of five pits between the two quans: seven columns of 60 px after a 34 px margin.
    assert_eq!((p.width(), p.height()), (488, 188));
    assert_eq!(svg.matches("<circle").count(), 10, "ten round pits");
    assert_eq!(
        svg.matches("font-size=\"20\"").count(),
        12,
        "a count in every pit"
    );
    // The script names its pits as its moves do: 1–5, the quans A and B.
    assert!(svg.contains(">\nA\n<") && svg.contains(">\nB\n<"), "{svg}");
    let pit = rgb(&p, 34 + 60 + 10, 34 + 90); // the first pit, off its number
    assert!(near(pit, (0xc9, 0x96, 0x4f)), "a pit is {pit:?}");
}

#[test]
fn a_script_s_picture_hints_set_colours_labels_marks_and_a_caption() {
    let svg = picture(&["tests/fixtures/caro_picture.rhai", "-o", "size=9", "5e"]);
    assert!(svg.contains("O to move"), "the caption: {svg}");
    let p = raster(&svg);
    let (x, y) = centre(4, 4);
    let (r, g, b) = rgb(&p, x - 12, y); // a red stone (its letter is text, not rasterised)
    assert!(r > 150 && g < 80 && b < 80, "5e is {:?}", (r, g, b));
    assert!(
        svg.contains(">X<") || svg.contains(">\nX\n<"),
        "the stone is lettered"
    );
}

#[test]
fn a_state_without_a_board_is_reported() {
    let out = boardrules()
        .args(["picture", "tests/fixtures/pile.rhai", "--svg", "never.svg"])
        .assert()
        .failure();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.contains("holds no grid or track"), "{err}");
    assert!(!std::path::Path::new("never.svg").exists());
    let out = boardrules()
        .args(["picture", "caro", "9z9", "--svg", "never.svg"])
        .assert()
        .failure();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.contains("9z9"), "{err}");
}

#[test]
fn the_repl_writes_the_position_on_screen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.svg");
    let input = format!("9h\n10h\npicture {}\n", path.display());
    let out = boardrules()
        .args(["play", "caro"])
        .write_stdin(input)
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("wrote the picture to"), "{stdout}");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_eq!(svg, picture(&["caro", "9h", "10h"]));
}

#[test]
fn svg_snapshots() {
    insta::assert_snapshot!("caro", picture(&["caro", "-o", "size=5", "3c", "3d"]));
    insta::assert_snapshot!("o_an_quan", picture(&["o_an_quan", "1R"]));
    insta::assert_snapshot!(
        "lines98",
        picture(&["lines98", "-o", "size=5", "--seed", "4"])
    );
}
