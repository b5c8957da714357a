//! `boardrules picture` and the REPL's `picture FILE`: the SVG is rasterised (resvg) and a few
//! pixels checked; the SVG text of three games is snapshotted; every shipped game's picture
//! says whose turn it is, who is who, marks the last move and shows the game's numbers; PNG
//! output has the size asked for and its text drawn.

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
    assert_eq!(p.width(), 420, "the board, with the panel under it");
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
    assert_eq!(p.width(), 488, "the board, with the panel under it");
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

/// An element of an SVG: its name, attributes and (for `<text>`) its text.
#[derive(Debug)]
struct Element {
    name: String,
    attrs: std::collections::HashMap<String, String>,
    text: String,
}

/// The elements of `svg`, in document order (read with the `svg` crate's parser).
fn elements(svg: &str) -> Vec<Element> {
    use svg::parser::Event;
    let mut out: Vec<Element> = Vec::new();
    for event in svg::read(svg).unwrap() {
        match event {
            Event::Tag(name, kind, attrs) if kind != svg::node::element::tag::Type::End => out
                .push(Element {
                    name: name.to_string(),
                    attrs: attrs
                        .iter()
                        .map(|(k, v)| (k.clone(), v.to_string()))
                        .collect(),
                    text: String::new(),
                }),
            Event::Text(t) => {
                if let Some(last) = out.last_mut() {
                    last.text += t.trim();
                }
            }
            _ => {}
        }
    }
    out
}

/// The texts of `svg`'s `<text>` elements.
fn texts(svg: &str) -> Vec<String> {
    elements(svg)
        .into_iter()
        .filter(|e| e.name == "text")
        .map(|e| e.text)
        .collect()
}

/// The marks of `svg` (circles drawn without a fill: the last move's rings), as centres.
fn rings(svg: &str) -> Vec<(f64, f64)> {
    elements(svg)
        .into_iter()
        .filter(|e| e.name == "circle" && e.attrs.get("fill").map(String::as_str) == Some("none"))
        .map(|e| {
            (
                e.attrs["cx"].parse().unwrap(),
                e.attrs["cy"].parse().unwrap(),
            )
        })
        .collect()
}

/// How many players' pointers (whose turn it is) `svg` draws.
fn pointers(svg: &str) -> usize {
    elements(svg)
        .iter()
        .filter(|e| e.attrs.get("class").map(String::as_str) == Some("to-move"))
        .count()
}

/// Every shipped two-player game, with its players' names.
const TWO_PLAYER: [(&str, [&str; 2]); 6] = [
    ("caro", ["X", "O"]),
    ("gomoku", ["X", "O"]),
    ("renju", ["Black", "White"]),
    ("o_an_quan", ["player 1", "player 2"]),
    ("oware", ["Player 0", "Player 1"]),
    ("five_step", ["player 1", "player 2"]),
];

#[test]
fn every_shipped_game_s_picture_says_whose_turn_it_is_and_who_is_who() {
    for (game, names) in TWO_PLAYER {
        let svg = picture(&[game]);
        let texts = texts(&svg);
        assert!(
            texts.contains(&format!("{} to move", names[0])),
            "{game}: {texts:?}"
        );
        for name in names {
            assert!(
                texts
                    .iter()
                    .any(|t| t == name || t.starts_with(&format!("{name} — "))),
                "{game}'s legend names {name}: {texts:?}"
            );
        }
        assert_eq!(pointers(&svg), 1, "{game}: one player is pointed at");
    }
    // The pieces in the legend are the board's: X's black stone, O's white one.
    let svg = picture(&["caro", "-o", "size=5"]);
    let discs: Vec<String> = elements(&svg)
        .into_iter()
        .filter(|e| e.name == "circle" && e.attrs["r"] == "12")
        .map(|e| e.attrs["fill"].clone())
        .collect();
    assert_eq!(discs, ["#1a1a1a", "#f5f5f5"]);
    // A finished game says how it ended, and points at no one.
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
    assert!(texts(&svg).contains(&"game over: X wins".to_string()));
    assert_eq!(pointers(&svg), 0);
    // A one-player game has no turn to tell, nor a legend.
    let svg = picture(&["lines98", "--seed", "3"]);
    assert!(!texts(&svg).iter().any(|t| t.ends_with("to move")), "{svg}");
    assert_eq!(pointers(&svg), 0);
}

#[test]
fn every_shipped_game_s_picture_marks_the_last_move() {
    let first_move = |game: &str| -> String {
        common::stdout(["moves", game, "--seed", "3"])
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    for game in [
        "caro",
        "gomoku",
        "renju",
        "o_an_quan",
        "oware",
        "five_step",
        "lines98",
        "color_lines",
    ] {
        assert!(
            rings(&picture(&[game, "--seed", "3"])).is_empty(),
            "{game}: no move yet"
        );
        let mv = first_move(game);
        let marked = rings(&picture(&[game, "--seed", "3", &mv]));
        assert!(!marked.is_empty(), "{game}: {mv} is marked");
    }
    // Caro's move is a cell: 4d on a 9×9 board is cell (3, 5).
    assert_eq!(
        rings(&picture(&["caro", "-o", "size=9", "4d"])),
        [(170.0, 250.0)]
    );
    // Five-step's is a path: each of its cells is ringed.
    assert_eq!(
        rings(&picture(&["five_step", "0 0 0 1 0 2"])),
        [(50.0, 50.0), (50.0, 90.0), (50.0, 130.0)]
    );
    // Ô ăn quan's is a pit and a direction: the pit sown from (pit 1, the first of the ring).
    assert_eq!(rings(&picture(&["o_an_quan", "1R"])), [(124.0, 124.0)]);
}

#[test]
fn the_games_own_numbers_are_under_the_board() {
    let oaq = texts(&picture(&["o_an_quan", "1R", "7P"]));
    let scores: Vec<&String> = oaq
        .iter()
        .filter(|t| t.starts_with("score of player"))
        .collect();
    assert_eq!(scores.len(), 2, "{oaq:?}");
    let ow = texts(&picture(&["oware"]));
    assert!(ow.contains(&"score of Player 0: 0".to_string()), "{ow:?}");
    assert!(ow.contains(&"houses A–F".to_string()) || ow.iter().any(|t| t.ends_with("houses A–F")));
    // Lines98: the preview as balls in their colours, and the score.
    let svg = picture(&["lines98", "--seed", "3"]);
    assert!(texts(&svg).contains(&"next:".to_string()), "{svg}");
    assert!(texts(&svg).contains(&"score: 0".to_string()), "{svg}");
    let preview = elements(&svg)
        .into_iter()
        .filter(|e| e.name == "circle" && e.attrs["r"] == "12")
        .count();
    assert_eq!(preview, 3, "three balls come next");
    let fs = texts(&picture(&["five_step", "-o", "max_plies=40", "0 0 0 1"]));
    assert!(fs.contains(&"plies: 1 of 40".to_string()), "{fs:?}");
}

#[test]
fn five_step_labels_its_board_as_its_moves_name_cells() {
    let texts = texts(&picture(&["five_step"]));
    for label in ["0", "1", "2", "3", "4"] {
        assert_eq!(
            texts.iter().filter(|t| *t == label).count(),
            4,
            "{label} on all four sides: {texts:?}"
        );
    }
    assert!(!texts.iter().any(|t| t == "a" || t == "5"), "{texts:?}");
    assert!(texts.contains(&"x across, y down".to_string()));
}

/// The PNG `boardrules picture ARGS… --png FILE` writes, decoded.
fn png(args: &[&str]) -> tiny_skia::Pixmap {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.png");
    boardrules()
        .arg("picture")
        .args(args)
        .arg("--png")
        .arg(&path)
        .assert()
        .success();
    tiny_skia::Pixmap::decode_png(&std::fs::read(path).unwrap()).expect("a PNG")
}

/// The bounding box of the dark pixels within `r` of `(cx, cy)`: (left, top, right, bottom).
fn ink_box(p: &tiny_skia::Pixmap, cx: u32, cy: u32, r: u32) -> (u32, u32, u32, u32) {
    let mut b = (u32::MAX, u32::MAX, 0, 0);
    for y in cy - r..=cy + r {
        for x in cx - r..=cx + r {
            let (red, green, blue) = rgb(p, x, y);
            if red < 100 && green < 100 && blue < 100 {
                b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
            }
        }
    }
    assert!(b.0 <= b.2, "some ink near ({cx}, {cy})");
    b
}

#[test]
fn numbers_are_centred_when_drawn_by_resvg_with_the_bundled_font() {
    let svg = picture(&["o_an_quan"]);
    assert!(!svg.contains("dominant-baseline"), "baselines are explicit");
    let p = png(&["o_an_quan"]);
    // Pit 1 (centre (124, 124)) holds 5: its digit's ink is centred on the pit.
    let (left, top, right, bottom) = ink_box(&p, 124, 124, 17);
    let (x, y) = (f64::from(left + right) / 2.0, f64::from(top + bottom) / 2.0);
    assert!(
        (x - 124.0).abs() <= 2.0 && (y - 124.0).abs() <= 2.0,
        "the 5 is centred at ({x}, {y})"
    );
    assert!(
        bottom - top >= 10,
        "a digit of 20 px is drawn: {}",
        bottom - top
    );
}

#[test]
fn png_pictures_have_the_size_asked_for_and_their_text_drawn() {
    let natural = png(&["caro", "-o", "size=9"]);
    assert_eq!(natural.width(), 420);
    // The panel's first line, "X to move", is drawn in the bundled font.
    let (left, _, right, _) = ink_box(&natural, 60, 420 + 34, 14);
    assert!(right - left > 10, "the text under the board is drawn");
    let fitted = png(&["caro", "-o", "size=9", "--size", "800x600"]);
    assert_eq!((fitted.width(), fitted.height()), (800, 600));
    let wide = png(&["caro", "-o", "size=9", "--size", "1000"]);
    assert_eq!(wide.width(), 1000);
    assert_eq!(
        wide.height(),
        (f64::from(natural.height()) * 1000.0 / 420.0).round() as u32
    );
    let double = png(&["caro", "-o", "size=9", "--scale", "2"]);
    assert_eq!(
        (double.width(), double.height()),
        (840, 2 * natural.height())
    );
    // The SVG takes the size too, and both files are written at once.
    let dir = tempfile::tempdir().unwrap();
    let (svg_path, png_path) = (dir.path().join("a.svg"), dir.path().join("a.png"));
    boardrules()
        .args(["picture", "caro", "--scale", "2", "--svg"])
        .arg(&svg_path)
        .arg("--png")
        .arg(&png_path)
        .assert()
        .success();
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let size = usvg::Tree::from_str(&svg, &usvg::Options::default())
        .unwrap()
        .size();
    let png = tiny_skia::Pixmap::decode_png(&std::fs::read(&png_path).unwrap()).unwrap();
    assert_eq!(
        (size.width() as u32, size.height() as u32),
        (png.width(), png.height())
    );
    assert_eq!(png.width(), 2 * 660);
}

#[test]
fn bad_sizes_and_a_missing_file_are_reported() {
    for (args, says) in [
        (&["--png", "never.png", "--size", "0x10"][..], "not a size"),
        (&["--png", "never.png", "--scale=-2"][..], "not a scale"),
        (&["--png", "never.png", "--scale", "60"][..], "at most 8192"),
        (
            &["--png", "never.png", "--size", "10", "--scale", "2"][..],
            "cannot be used with",
        ),
        (&[][..], "--svg FILE, --png FILE"),
    ] {
        let out = boardrules()
            .args(["picture", "caro"])
            .args(args)
            .assert()
            .failure();
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!std::path::Path::new("never.png").exists());
    }
}
