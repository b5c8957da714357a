//! The tournament page's games: each game's players, result and moves, with a replay that steps
//! through the boards move by move. The boards are the pictures `boardrules picture` draws,
//! made here: the first whole, each next one as the lines that changed (a move changes a few
//! lines of a picture), rebuilt by a few lines of script in the page itself (nothing is loaded
//! from elsewhere). Every text is escaped.

use serde_json::{json, Value};
use similar::{capture_diff_slices, Algorithm, DiffOp};

use super::{html::escape, journal::Entry};
use crate::{
    picture,
    repl::theme::Theme,
    runtime::{Game, History},
    script::ScriptedGame,
};

/// The most boards the page holds, over all its games (a page for a projector, not an archive:
/// later games are listed with their moves only).
const MOST_FRAMES: usize = 20_000;

/// Steps through a game's boards: the buttons, the slider and the arrow keys.
const SCRIPT: &str = r#"<script>
for (const box of document.querySelectorAll(".replay")) {
  const data = JSON.parse(document.getElementById(box.dataset.frames).textContent);
  let lines = data.first.slice();
  const frames = [lines.join("\n")];
  for (const step of data.steps) {
    const next = [];
    let at = 0;
    for (const op of step) {
      if (typeof op === "number") { if (op > 0) next.push(...lines.slice(at, at + op)); at += Math.abs(op); }
      else next.push(...op);
    }
    lines = next;
    frames.push(lines.join("\n"));
  }
  const img = box.querySelector("img"), slider = box.querySelector("input"), ply = box.querySelector(".ply");
  const moves = box.querySelectorAll("li");
  const show = (i) => {
    i = Math.max(0, Math.min(frames.length - 1, i));
    slider.value = i;
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(frames[i]);
    ply.textContent = i + " / " + (frames.length - 1);
    moves.forEach((m, k) => m.classList.toggle("now", k === i - 1));
  };
  slider.max = frames.length - 1;
  slider.addEventListener("input", () => show(Number(slider.value)));
  box.querySelector(".first").addEventListener("click", () => show(0));
  box.querySelector(".back").addEventListener("click", () => show(Number(slider.value) - 1));
  box.querySelector(".next").addEventListener("click", () => show(Number(slider.value) + 1));
  box.querySelector(".last").addEventListener("click", () => show(frames.length - 1));
  box.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") show(Number(slider.value) - 1);
    if (e.key === "ArrowRight") show(Number(slider.value) + 1);
  });
  moves.forEach((m, k) => m.addEventListener("click", () => show(k + 1)));
  show(0);
}
</script>
"#;

/// The styles of the games' section.
pub const STYLE: &str =
    ".replay img{display:block;max-width:100%;height:auto;border:1px solid #aaa}\
    .replay ol{font-family:monospace;columns:12em}.replay li{cursor:pointer}\
    .replay li.now{background:#ffe58f}.replay button{font-size:1.1em;margin:4px}";

/// The games' section of the page: every game of `entries` (sorted by number), each with its
/// replay when `game` (the rules played, with the tournament's options) can replay it.
pub fn section(game: Option<&ScriptedGame>, entries: &[Entry]) -> String {
    let mut sorted: Vec<&Entry> = entries.iter().collect();
    sorted.sort_by_key(|e| e.game);
    let mut out = String::from("<h2>Games</h2>\n");
    if game.is_none() {
        out += "<p>These rules could not be loaded here, so the games are listed without their boards.</p>\n";
    }
    let mut budget = MOST_FRAMES;
    let mut replays = 0;
    for e in sorted {
        out += &format!(
            "<section class=\"game\" id=\"game-{n}\"><h3>Game {n}: {a} against {b} — {result} ({reason})</h3>\n",
            n = e.game + 1,
            a = escape(&e.players[0]),
            b = escape(&e.players[1]),
            result = escape(&e.result),
            reason = escape(&e.reason),
        );
        let frames = match game {
            Some(g) if e.moves.len() < budget => frames(g, &e.moves),
            _ => Frames::default(),
        };
        budget = budget.saturating_sub(frames.svgs.len());
        if let Some(problem) = &frames.problem {
            out += &format!("<p>The replay stops here: {}</p>\n", escape(problem));
        }
        if frames.svgs.is_empty() {
            out += &move_list(&e.moves);
        } else {
            replays += 1;
            out += &format!(
                "<div class=\"replay\" data-frames=\"frames-{n}\" tabindex=\"0\">\n\
                 <img alt=\"the board of game {n}\">\n<div><button class=\"first\" type=\"button\">first</button>\
                 <button class=\"back\" type=\"button\">back</button>\
                 <input type=\"range\" min=\"0\" value=\"0\" aria-label=\"move\">\
                 <button class=\"next\" type=\"button\">next</button>\
                 <button class=\"last\" type=\"button\">last</button> move <span class=\"ply\"></span></div>\n{moves}</div>\n\
                 <script type=\"application/json\" id=\"frames-{n}\">{json}</script>\n",
                n = e.game + 1,
                moves = move_list(&e.moves),
                json = script_safe(&encode(&frames.svgs)),
            );
        }
        out += "</section>\n";
    }
    if replays < entries.len() && game.is_some() {
        out += &format!(
            "<p>The page holds the boards of {replays} of the {} games (at most {MOST_FRAMES} boards); \
             `boardrules run` replays any game from its moves.</p>\n",
            entries.len()
        );
    }
    if replays > 0 {
        out += SCRIPT;
    }
    out
}

/// A game's moves as a numbered list.
fn move_list(moves: &[String]) -> String {
    let items: String = moves
        .iter()
        .map(|m| format!("<li>{}</li>", escape(m)))
        .collect();
    format!("<ol class=\"moves\">{items}</ol>\n")
}

/// The boards of a game: the start and the position after each move, as SVG.
#[derive(Debug, Default)]
struct Frames {
    svgs: Vec<String>,
    /// Why the replay stopped before the end.
    problem: Option<String>,
}

/// The boards of the game played with `moves`, as far as they replay.
fn frames(game: &ScriptedGame, moves: &[String]) -> Frames {
    let palette = Theme::load_built_in("plain")
        .map(|t| t.palette(game.name()))
        .unwrap_or_else(|| picture::Palette::new([], []));
    let draw = |history: &History<ScriptedGame>| {
        let last = history.steps().last().map(|s| &s.mv);
        picture::svg(game, history.current(), last, &palette)
    };
    let mut out = Frames::default();
    let mut history = match game.start() {
        Ok(start) => History::new(start),
        Err(e) => {
            out.problem = Some(e.to_string());
            return out;
        }
    };
    game.record_events(false);
    for mv in std::iter::once(None).chain(moves.iter().map(Some)) {
        if let Some(mv) = mv {
            if let Err(e) = history.play_text(game, mv) {
                out.problem = Some(format!("move {} ({mv}): {e}", history.ply() + 1));
                break;
            }
        }
        match draw(&history) {
            Ok(svg) => out.svgs.push(svg),
            Err(e) => {
                out.problem = Some(e.to_string());
                break;
            }
        }
    }
    game.record_events(true);
    out
}

/// The boards as JSON: `first`, the first board's lines, and `steps`, for each next board the
/// edits of the one before: a positive number keeps that many lines, a negative one drops that
/// many, an array inserts its lines.
fn encode(svgs: &[String]) -> Value {
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    let mut steps = Vec::new();
    for pair in svgs.windows(2) {
        let (old, new) = (lines(&pair[0]), lines(&pair[1]));
        let mut ops: Vec<Value> = Vec::new();
        for op in capture_diff_slices(Algorithm::Myers, &old, &new) {
            match op {
                DiffOp::Equal { len, .. } => ops.push(json!(len)),
                DiffOp::Delete { old_len, .. } => ops.push(json!(-(old_len as i64))),
                DiffOp::Insert {
                    new_index, new_len, ..
                } => ops.push(json!(new[new_index..new_index + new_len])),
                DiffOp::Replace {
                    old_len,
                    new_index,
                    new_len,
                    ..
                } => {
                    ops.push(json!(-(old_len as i64)));
                    ops.push(json!(new[new_index..new_index + new_len]));
                }
            }
        }
        steps.push(Value::Array(ops));
    }
    json!({ "first": svgs.first().map(|s| lines(s)).unwrap_or_default(), "steps": steps })
}

/// JSON that can stand inside a `<script>` element: `<`, `>` and `&` (only ever inside its
/// strings) written as escapes, so no text can close the element.
fn script_safe(value: &Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the page's script does with `encode`'s output, in Rust.
    fn decode(value: &Value) -> Vec<String> {
        let mut lines: Vec<String> = serde_json::from_value(value["first"].clone()).unwrap();
        let mut out = vec![lines.join("\n")];
        for step in value["steps"].as_array().unwrap() {
            let mut next = Vec::new();
            let mut at = 0usize;
            for op in step.as_array().unwrap() {
                if let Some(n) = op.as_i64() {
                    if n > 0 {
                        next.extend_from_slice(&lines[at..at + n as usize]);
                    }
                    at += n.unsigned_abs() as usize;
                } else {
                    next.extend(
                        op.as_array()
                            .unwrap()
                            .iter()
                            .map(|l| l.as_str().unwrap().to_string()),
                    );
                }
            }
            lines = next;
            out.push(lines.join("\n"));
        }
        out
    }

    #[test]
    fn boards_encoded_as_edits_decode_to_the_same_boards() {
        let svgs = vec![
            "<svg>\n<a/>\n<b/>\n</svg>".to_string(),
            "<svg>\n<a/>\n<c/>\n<b/>\n</svg>".to_string(),
            "<svg>\n<c/>\n<d x=\"</script>\"/>\n</svg>".to_string(),
        ];
        let encoded = encode(&svgs);
        assert_eq!(decode(&encoded), svgs);
        let safe = script_safe(&encoded);
        assert!(!safe.contains("</script"), "{safe}");
        let back: Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, encoded);
    }
}
