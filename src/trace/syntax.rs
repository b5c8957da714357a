//! The trace file format: lexed line by line with logos, parsed with chumsky.
//!
//! ```text
//! # Example 3: an open five wins.        (comments start with "# "; blank lines are ignored)
//! game: demo
//! option: exact=false                    (any number of option lines)
//! seed: 7
//! to-move: 2                             (1-based; for positions that do not say it)
//! position:                              (the start position, as the game renders it …)
//!  …rendering lines…
//! start:                                 (… or the start rendering expected, when there is no position)
//!  …rendering lines…
//! > 9h                                   (a move, then the rendering expected after it, if given)
//!  …rendering lines…
//! * an event line expected after the move (if any are given, all must match)
//! result: X wins                         (the result expected after the move; `none`: not over)
//! > 9m
//! error: the game is over                (the move must fail with a message containing this)
//! ```

use std::ops::Range;

use chumsky::{input::Stream, prelude::*};
use logos::Logos;

use crate::diag::Diagnostic;

/// A line of a trace file.
#[derive(Logos, Debug, Clone, PartialEq, Eq)]
enum Line<'a> {
    #[regex(r"#[^\n]*\n?", logos::skip, priority = 5, allow_greedy = true)]
    #[regex(r"[ \t\r]*\n", logos::skip, priority = 6)]
    Ignored,
    #[regex(r"game:[^\n]*\n?", |l| value(l.slice(), "game:"), priority = 5, allow_greedy = true)]
    Game(&'a str),
    #[regex(r"option:[^\n]*\n?", |l| value(l.slice(), "option:"), priority = 5, allow_greedy = true)]
    Option(&'a str),
    #[regex(r"seed:[^\n]*\n?", |l| value(l.slice(), "seed:"), priority = 5, allow_greedy = true)]
    Seed(&'a str),
    #[regex(r"to-move:[^\n]*\n?", |l| value(l.slice(), "to-move:"), priority = 5, allow_greedy = true)]
    ToMove(&'a str),
    #[regex(r"position:[ \t\r]*\n?", priority = 5)]
    Position,
    #[regex(r"start:[ \t\r]*\n?", priority = 5)]
    Start,
    #[regex(r">[^\n]*\n?", |l| value(l.slice(), ">"), priority = 5, allow_greedy = true)]
    Move(&'a str),
    #[regex(r"\*[^\n]*\n?", |l| value(l.slice(), "*"), priority = 5, allow_greedy = true)]
    Event(&'a str),
    #[regex(r"result:[^\n]*\n?", |l| value(l.slice(), "result:"), priority = 5, allow_greedy = true)]
    Result(&'a str),
    #[regex(r"error:[^\n]*\n?", |l| value(l.slice(), "error:"), priority = 5, allow_greedy = true)]
    Error(&'a str),
    #[regex(r"[^\n]+\n?", |l| l.slice().trim_end_matches(['\n', '\r']), priority = 1, allow_greedy = true)]
    Text(&'a str),
}

fn value<'a>(line: &'a str, key: &str) -> &'a str {
    line[key.len()..].trim()
}

/// A piece of a trace file with where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Its bytes in the trace file.
    pub span: Range<usize>,
}

/// How a trace starts: from a given position, or from the game's start with its rendering
/// checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// Play from this position (the game's rendering).
    Position(Spanned<String>),
    /// Play from the start; it must render like this.
    Expect(Spanned<String>),
}

/// What is expected of a state (after the start or after a move).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expect {
    /// The rendering, when given.
    pub rendering: Option<Spanned<String>>,
    /// The events, when given.
    pub events: Vec<Spanned<String>>,
    /// The result (`X wins`, `draw`), when given.
    pub result: Option<Spanned<String>>,
}

/// A move of a trace and what must follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceMove {
    /// The move as written.
    pub text: Spanned<String>,
    /// What the state after it must look like.
    pub expect: Expect,
    /// If set, the move must fail with a message containing this.
    pub error: Option<Spanned<String>>,
}

/// A parsed trace file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// The game's name or script path.
    pub game: Spanned<String>,
    /// `KEY=VALUE` option settings.
    pub options: Vec<Spanned<String>>,
    /// The seed, if given.
    pub seed: Option<Spanned<String>>,
    /// The player to move at the start (1-based text), if given.
    pub to_move: Option<Spanned<String>>,
    /// The start block, if any.
    pub start: Option<Start>,
    /// What the start state must satisfy besides its rendering (its result).
    pub start_result: Option<Spanned<String>>,
    /// The moves.
    pub moves: Vec<TraceMove>,
}

type Tok<'a> = Line<'a>;
type Extra<'a> = extra::Err<Rich<'a, Tok<'a>>>;

fn spanned<T>(value: T, span: SimpleSpan) -> Spanned<T> {
    Spanned {
        value,
        span: span.into_range(),
    }
}

fn parser<'a, I>() -> impl Parser<'a, I, Trace, Extra<'a>>
where
    I: chumsky::input::ValueInput<'a, Token = Tok<'a>, Span = SimpleSpan>,
{
    let text = select! { Line::Text(t) => t.to_string() }
        .repeated()
        .at_least(1)
        .collect::<Vec<_>>()
        .map_with(|lines, e| spanned(lines.join("\n"), e.span()));
    let game = select! { Line::Game(g) => g.to_string() }.map_with(|g, e| spanned(g, e.span()));
    let option = select! { Line::Option(o) => o.to_string() }.map_with(|o, e| spanned(o, e.span()));
    let seed = select! { Line::Seed(s) => s.to_string() }.map_with(|s, e| spanned(s, e.span()));
    let to_move =
        select! { Line::ToMove(s) => s.to_string() }.map_with(|s, e| spanned(s, e.span()));
    let result = select! { Line::Result(r) => r.to_string() }.map_with(|r, e| spanned(r, e.span()));
    let error = select! { Line::Error(r) => r.to_string() }.map_with(|r, e| spanned(r, e.span()));
    let event = select! { Line::Event(v) => v.to_string() }.map_with(|v, e| spanned(v, e.span()));
    let mv = select! { Line::Move(m) => m.to_string() }.map_with(|m, e| spanned(m, e.span()));

    let start = choice((
        just(Line::Position).ignore_then(text).map(Start::Position),
        just(Line::Start).ignore_then(text).map(Start::Expect),
    ));
    let entry = mv
        .then(text.or_not())
        .then(event.repeated().collect::<Vec<_>>())
        .then(result.or_not())
        .then(error.or_not())
        .map(|((((text, rendering), events), result), error)| TraceMove {
            text,
            expect: Expect {
                rendering,
                events,
                result,
            },
            error,
        });
    enum Header {
        Option(Spanned<String>),
        Seed(Spanned<String>),
        ToMove(Spanned<String>),
    }
    let header = choice((
        option.map(Header::Option),
        seed.map(Header::Seed),
        to_move.map(Header::ToMove),
    ));
    game.then(header.repeated().collect::<Vec<_>>())
        .then(start.or_not())
        .then(result.or_not())
        .then(entry.repeated().collect::<Vec<_>>())
        .then_ignore(end())
        .map(|((((game, headers), start), start_result), moves)| {
            let mut trace = Trace {
                game,
                options: Vec::new(),
                seed: None,
                to_move: None,
                start,
                start_result,
                moves,
            };
            for h in headers {
                match h {
                    Header::Option(o) => trace.options.push(o),
                    Header::Seed(s) => trace.seed = Some(s),
                    Header::ToMove(t) => trace.to_move = Some(t),
                }
            }
            trace
        })
}

fn describe(token: Option<&Line>) -> String {
    match token {
        None => "the end of the file".into(),
        Some(Line::Game(_)) => "a second `game:` line".into(),
        Some(Line::Option(_)) => "`option:` (options go right after `game:`)".into(),
        Some(Line::Seed(_)) => "`seed:` (it goes right after `game:`)".into(),
        Some(Line::ToMove(_)) => "`to-move:` (it goes right after `game:`)".into(),
        Some(Line::Position) | Some(Line::Start) => "a start block after the moves began".into(),
        Some(Line::Move(_)) => "a move".into(),
        Some(Line::Event(_)) => "an event line here".into(),
        Some(Line::Result(_)) => "a `result:` line here".into(),
        Some(Line::Error(_)) => "an `error:` line here".into(),
        Some(Line::Text(_)) => "text outside a block".into(),
        Some(Line::Ignored) => "a comment".into(),
    }
}

/// Parses a trace file; `name` names it in error reports.
pub fn parse(name: &str, text: &str) -> Result<Trace, Diagnostic> {
    let tokens = Line::lexer(text).spanned().map(|(tok, span)| {
        // Every line lexes (Text takes the rest), so an error here is unreachable in practice;
        // map it to a text line so the parser reports it in context.
        (tok.unwrap_or(Line::Text("")), SimpleSpan::from(span))
    });
    let eoi = SimpleSpan::from(text.len()..text.len());
    let stream = Stream::from_iter(tokens).map(eoi, |(t, s): (_, _)| (t, s));
    parser().parse(stream).into_result().map_err(|errs| {
        let err = &errs[0];
        let found = describe(err.found());
        let message = if text.trim().is_empty() || !text.trim_start().starts_with("game:") && err.span().start == 0 {
            "a trace starts with a `game:` line".to_string()
        } else {
            format!("unexpected {found}")
        };
        Diagnostic::new(format!("bad trace file: {message}"))
            .at(name, text, err.span().into_range(), found)
            .note("format: game:, option:/seed:/to-move:, position: or start: block, then `> move` entries")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACE: &str = "# a comment\ngame: demo\noption: exact=false\n\nposition:\n . X\n O .\n> 9h\n row\n* ev\nresult: X wins\n> 9i\nerror: game is over\n";

    #[test]
    fn parses_every_part() {
        let t = parse("t", TRACE).unwrap();
        assert_eq!(t.game.value, "demo");
        assert_eq!(t.options[0].value, "exact=false");
        assert!(matches!(&t.start, Some(Start::Position(p)) if p.value == " . X\n O ."));
        assert_eq!(t.moves.len(), 2);
        assert_eq!(t.moves[0].expect.rendering.as_ref().unwrap().value, " row");
        assert_eq!(t.moves[0].expect.events[0].value, "ev");
        assert_eq!(t.moves[0].expect.result.as_ref().unwrap().value, "X wins");
        assert_eq!(t.moves[1].error.as_ref().unwrap().value, "game is over");
        assert_eq!(&TRACE[t.moves[1].text.span.clone()], "> 9i\n");
    }

    #[test]
    fn misplaced_lines_point_at_themselves() {
        let bad = "game: demo\n> 9h\noption: x=1\n";
        let d = parse("t", bad).unwrap_err();
        let p = d.pointer.unwrap();
        assert_eq!(&bad[p.span], "option: x=1\n");
        assert!(parse("t", "> 9h\n").unwrap_err().message.contains("game:"));
    }
}
