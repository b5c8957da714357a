//! The REPL's command language, lexed with logos and parsed with chumsky. A line whose first
//! word is not a command is a move (or several: `13n10n12n`).

use chumsky::{input::Stream, prelude::*};
use logos::Logos;

use crate::diag::Diagnostic;

/// A REPL command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Play the moves the text holds.
    Play(String),
    /// Take back this many moves.
    Undo(usize),
    /// Replay this many undone moves.
    Redo(usize),
    /// Show the board.
    Board,
    /// List the legal moves.
    Moves,
    /// Show the moves played.
    History,
    /// Start a new game.
    New,
    /// List the game's options.
    Options,
    /// Show help, for one command if named.
    Help(Option<String>),
    /// Leave the REPL.
    Quit,
    /// An empty line.
    Nothing,
}

/// Every command word, with its arguments and what it does (for `help` and completion).
pub const COMMANDS: &[(&str, &str, &str)] = &[
    ("undo", "[N]", "take back the last move (or N moves)"),
    ("redo", "[N]", "play an undone move again (or N)"),
    ("board", "", "show the board"),
    ("moves", "", "list the legal moves"),
    ("history", "", "show the moves played so far"),
    ("new", "", "start a new game"),
    ("options", "", "list the game's variant options"),
    ("help", "[COMMAND]", "show this help, or one command's"),
    ("quit", "", "leave (also: exit, q)"),
];

#[derive(Logos, Debug, Clone, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n]+")]
enum Token<'a> {
    #[regex(r"[0-9]+", priority = 3)]
    Number(&'a str),
    #[regex(r"[A-Za-z_][A-Za-z0-9_\-]*", priority = 2)]
    Word(&'a str),
    #[regex(r"[^ \t\r\n]+", priority = 1)]
    Other(&'a str),
}

impl std::fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Token::Number(t) | Token::Word(t) | Token::Other(t) => write!(f, "'{t}'"),
        }
    }
}

type Extra<'a> = extra::Err<Rich<'a, Token<'a>>>;

fn keyword<'a, I>(word: &'static str) -> impl Parser<'a, I, (), Extra<'a>> + Clone
where
    I: chumsky::input::ValueInput<'a, Token = Token<'a>, Span = SimpleSpan>,
{
    select! { Token::Word(w) if w.eq_ignore_ascii_case(word) => () }.labelled(word)
}

fn parser<'a, I>() -> impl Parser<'a, I, Command, Extra<'a>>
where
    I: chumsky::input::ValueInput<'a, Token = Token<'a>, Span = SimpleSpan>,
{
    let count = select! { Token::Number(n) => n }
        .try_map(|n: &str, span| {
            n.parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| Rich::custom(span, "expected a count from 1"))
        })
        .labelled("a count")
        .or_not()
        .map(|n| n.unwrap_or(1));
    let word = select! { Token::Word(w) => w.to_ascii_lowercase() }.labelled("a command name");
    choice((
        keyword("undo").ignore_then(count).map(Command::Undo),
        keyword("redo").ignore_then(count).map(Command::Redo),
        keyword("board").to(Command::Board),
        keyword("moves").to(Command::Moves),
        keyword("history").to(Command::History),
        keyword("new").to(Command::New),
        keyword("options").to(Command::Options),
        keyword("help")
            .ignore_then(word.or_not())
            .map(Command::Help),
        choice((keyword("quit"), keyword("exit"), keyword("q"))).to(Command::Quit),
    ))
    .then_ignore(end())
}

/// Whether `word` starts a command.
fn is_command_word(word: &str) -> bool {
    COMMANDS.iter().any(|(c, ..)| c.eq_ignore_ascii_case(word))
        || ["exit", "q"].iter().any(|c| c.eq_ignore_ascii_case(word))
}

/// Reads one line of input.
pub fn parse(line: &str) -> Result<Command, Diagnostic> {
    let tokens: Vec<(Token, SimpleSpan)> = Token::lexer(line)
        .spanned()
        .map(|(t, s)| (t.unwrap_or(Token::Other("")), SimpleSpan::from(s)))
        .collect();
    match tokens.first() {
        None => return Ok(Command::Nothing),
        Some((Token::Word(w), _)) if is_command_word(w) => {}
        Some(_) => return Ok(Command::Play(line.trim().to_string())),
    }
    let eoi = SimpleSpan::from(line.len()..line.len());
    let stream = Stream::from_iter(tokens).map(eoi, |(t, s): (_, _)| (t, s));
    parser().parse(stream).into_result().map_err(|errs| {
        let err = &errs[0];
        let found = match err.found() {
            Some(t) => t.to_string(),
            None => "the end of the line".to_string(),
        };
        let expected: Vec<String> = err.expected().map(|e| e.to_string()).collect();
        let label = if expected.is_empty() {
            err.reason().to_string()
        } else {
            format!("expected {}", expected.join(" or "))
        };
        Diagnostic::new(format!("cannot read the command: unexpected {found}"))
            .at("<input>", line, err.span().into_range(), label)
            .note("type `help` for the commands")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_moves() {
        assert_eq!(parse("undo").unwrap(), Command::Undo(1));
        assert_eq!(parse("  UNDO 3 ").unwrap(), Command::Undo(3));
        assert_eq!(
            parse("help undo").unwrap(),
            Command::Help(Some("undo".into()))
        );
        assert_eq!(parse("13n10n").unwrap(), Command::Play("13n10n".into()));
        assert_eq!(parse("0 0 0 1").unwrap(), Command::Play("0 0 0 1".into()));
        assert_eq!(parse("").unwrap(), Command::Nothing);
    }

    #[test]
    fn bad_arguments_point_at_themselves() {
        let d = parse("undo x").unwrap_err();
        assert_eq!(d.pointer.unwrap().span, 5..6);
        let d = parse("board 3").unwrap_err();
        assert_eq!(d.pointer.unwrap().span, 6..7);
    }
}
