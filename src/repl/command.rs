//! The REPL's command language, lexed with logos and parsed with chumsky. A line whose first
//! word is not a command is a move (or several: `13n10n12n`).

use std::{ops::Range, time::Duration};

use chumsky::{input::Stream, prelude::*};
use logos::Logos;

use super::{i18n::Catalog, settings::ColorChoice};
use crate::{diag::Diagnostic, search::player::Level};

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
    /// Start a new game with an option changed (`KEY=VALUE`).
    Set(String),
    /// Switch to another rules script (a name or a path).
    Variant(String),
    /// Re-read the rules script and replay the game through it.
    Reload,
    /// Step through a history (a move list or `@FILE`), or the current game's.
    Replay(Option<String>),
    /// Replay: go to the start.
    First,
    /// Replay: one move back.
    Prev,
    /// Replay: one move on.
    Next,
    /// Replay: go to the end.
    Last,
    /// Replay: go to after move N.
    Goto(usize),
    /// Replay: stop and go back to the game.
    Stop,
    /// Save the game to a file.
    Save(String),
    /// Load a game from a file.
    Load(String),
    /// Write the position on screen to an SVG file.
    Picture(String),
    /// Show the last move's events step by step (with the board after each if asked).
    Explain {
        /// Show the board after each step.
        boards: bool,
    },
    /// Try moves on a scratch copy of the game.
    Draft,
    /// Drop the scratch copy and go back.
    DraftEnd,
    /// Give each player this much time (`None`: clock off).
    Clock(Option<Duration>),
    /// Suggest a move for the side to move (at the remembered level, or this one).
    Hint(Option<Level>),
    /// The computer plays a side at a level (`None`: stop): the side named (a player's name or
    /// number), or the side not to move.
    Vs(Option<(Option<String>, Level)>),
    /// Clear the screen.
    Clear,
    /// The computer plays one move for the side to move (at the remembered level, or this one).
    Go(Option<Level>),
    /// Switch the message language.
    Lang(String),
    /// Switch the display theme (a name or a file).
    Theme(String),
    /// Colour on, off, or automatic.
    Color(ColorChoice),
    /// Show the reference of a function scripts can call (every name if none).
    Doc(Option<String>),
    /// Show help, for one command if named.
    Help(Option<String>),
    /// Leave the REPL.
    Quit,
    /// An empty line.
    Nothing,
}

/// One command word: its arguments, what it does, and an example.
pub struct CommandHelp {
    /// The word.
    pub name: &'static str,
    /// Its arguments.
    pub args: &'static str,
    /// The message-catalogue key of its description.
    pub about_key: &'static str,
    /// An example line.
    pub example: &'static str,
}

/// Every command word, for `help` and completion.
pub const COMMANDS: &[CommandHelp] = &[
    CommandHelp {
        name: "undo",
        args: "[N]",
        about_key: "help-undo",
        example: "undo 2",
    },
    CommandHelp {
        name: "redo",
        args: "[N]",
        about_key: "help-redo",
        example: "redo",
    },
    CommandHelp {
        name: "board",
        args: "",
        about_key: "help-board",
        example: "board",
    },
    CommandHelp {
        name: "moves",
        args: "",
        about_key: "help-moves",
        example: "moves",
    },
    CommandHelp {
        name: "history",
        args: "",
        about_key: "help-history",
        example: "history",
    },
    CommandHelp {
        name: "new",
        args: "",
        about_key: "help-new",
        example: "new",
    },
    CommandHelp {
        name: "options",
        args: "",
        about_key: "help-options",
        example: "options",
    },
    CommandHelp {
        name: "set",
        args: "KEY=VALUE",
        about_key: "help-set",
        example: "set exact=false",
    },
    CommandHelp {
        name: "variant",
        args: "FILE|NAME",
        about_key: "help-variant",
        example: "variant my_rules.rhai",
    },
    CommandHelp {
        name: "reload",
        args: "",
        about_key: "help-reload",
        example: "reload",
    },
    CommandHelp {
        name: "replay",
        args: "[MOVES|@FILE]",
        about_key: "help-replay",
        example: "replay 13n10n12n8e",
    },
    CommandHelp {
        name: "first",
        args: "",
        about_key: "help-first",
        example: "first",
    },
    CommandHelp {
        name: "prev",
        args: "",
        about_key: "help-prev",
        example: "prev   (or p)",
    },
    CommandHelp {
        name: "next",
        args: "",
        about_key: "help-next",
        example: "next   (or n)",
    },
    CommandHelp {
        name: "last",
        args: "",
        about_key: "help-last",
        example: "last",
    },
    CommandHelp {
        name: "goto",
        args: "N",
        about_key: "help-goto",
        example: "goto 10",
    },
    CommandHelp {
        name: "stop",
        args: "",
        about_key: "help-stop",
        example: "stop   (or s)",
    },
    CommandHelp {
        name: "save",
        args: "FILE",
        about_key: "help-save",
        example: "save game.txt",
    },
    CommandHelp {
        name: "load",
        args: "FILE",
        about_key: "help-load",
        example: "load game.txt",
    },
    CommandHelp {
        name: "picture",
        args: "FILE",
        about_key: "help-picture",
        example: "picture board.svg",
    },
    CommandHelp {
        name: "explain",
        args: "[--boards]",
        about_key: "help-explain",
        example: "explain --boards",
    },
    CommandHelp {
        name: "draft",
        args: "[end]",
        about_key: "help-draft",
        example: "draft",
    },
    CommandHelp {
        name: "clock",
        args: "TIME|off",
        about_key: "help-clock",
        example: "clock 5m",
    },
    CommandHelp {
        name: "hint",
        args: "[LEVEL]",
        about_key: "help-hint",
        example: "hint hard",
    },
    CommandHelp {
        name: "vs",
        args: "[SIDE] easy|medium|hard|off",
        about_key: "help-vs",
        example: "vs O hard",
    },
    CommandHelp {
        name: "go",
        args: "[LEVEL]",
        about_key: "help-go",
        example: "go easy",
    },
    CommandHelp {
        name: "lang",
        args: "CODE",
        about_key: "help-lang",
        example: "lang vi",
    },
    CommandHelp {
        name: "theme",
        args: "NAME|FILE",
        about_key: "help-theme",
        example: "theme stones",
    },
    CommandHelp {
        name: "color",
        args: "on|off|auto",
        about_key: "help-color",
        example: "color off",
    },
    CommandHelp {
        name: "doc",
        args: "[NAME]",
        about_key: "help-doc",
        example: "doc runs_through",
    },
    CommandHelp {
        name: "help",
        args: "[COMMAND]",
        about_key: "help-help",
        example: "help replay",
    },
    CommandHelp {
        name: "clear",
        args: "",
        about_key: "help-clear",
        example: "clear   (or cls)",
    },
    CommandHelp {
        name: "quit",
        args: "",
        about_key: "help-quit",
        example: "quit   (or exit, q)",
    },
];

#[derive(Logos, Debug, Clone, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n]+")]
enum Token<'a> {
    #[regex(r"[0-9]+(ms|s|m|h)([0-9]+(ms|s|m|h))*", priority = 4)]
    Duration(&'a str),
    #[regex(r"[0-9]+", priority = 3)]
    Number(&'a str),
    #[regex(r"[A-Za-z_][A-Za-z0-9_\-]*", priority = 2)]
    Word(&'a str),
    #[token("=", priority = 3)]
    Eq,
    #[regex(r"[^ \t\r\n=]+", priority = 1)]
    Other(&'a str),
}

impl std::fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Token::Duration(t) | Token::Number(t) | Token::Word(t) | Token::Other(t) => {
                write!(f, "'{t}'")
            }
            Token::Eq => f.write_str("'='"),
        }
    }
}

/// A command as parsed, with raw arguments still as spans of the line.
#[derive(Debug, Clone)]
enum Parsed {
    Done(Command),
    Raw(fn(String) -> Command, Range<usize>),
    OptionalRaw(fn(Option<String>) -> Command, Option<Range<usize>>),
}

type Extra<'a> = extra::Err<Rich<'a, Token<'a>>>;

fn keyword<'a, I>(word: &'static str) -> impl Parser<'a, I, (), Extra<'a>> + Clone
where
    I: chumsky::input::ValueInput<'a, Token = Token<'a>, Span = SimpleSpan>,
{
    select! { Token::Word(w) if w.eq_ignore_ascii_case(word) => () }.labelled(word)
}

fn parse_duration(text: &str) -> Option<Duration> {
    let mut total = Duration::ZERO;
    let mut digits = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let n: u64 = digits.parse().ok()?;
        digits.clear();
        total += match c {
            'm' if chars.peek() == Some(&'s') => {
                chars.next();
                Duration::from_millis(n)
            }
            'm' => Duration::from_secs(n.checked_mul(60)?),
            'h' => Duration::from_secs(n.checked_mul(3600)?),
            's' => Duration::from_secs(n),
            _ => return None,
        };
    }
    digits.is_empty().then_some(total)
}

fn parser<'a, I>() -> impl Parser<'a, I, Parsed, Extra<'a>>
where
    I: chumsky::input::ValueInput<'a, Token = Token<'a>, Span = SimpleSpan>,
{
    use Command as C;
    let count = select! { Token::Number(n) => n }
        .try_map(|n: &str, span| {
            n.parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| Rich::custom(span, "expected a count from 1"))
        })
        .labelled("a count");
    let ply = select! { Token::Number(n) => n }
        .try_map(|n: &str, span| {
            n.parse::<usize>()
                .map_err(|_| Rich::custom(span, "expected a move number"))
        })
        .labelled("a move number");
    let rest = any().repeated().at_least(1).to_span();
    let word = select! { Token::Word(w) => w.to_ascii_lowercase() }.labelled("a command name");
    let duration = select! {
        Token::Duration(d) => d,
        Token::Number(n) => n,
    }
    .try_map(|d: &str, span| {
        parse_duration(d)
            .filter(|d| !d.is_zero())
            .ok_or_else(|| Rich::custom(span, "expected a time like 5m, 90s or 1m30s"))
    })
    .labelled("a time like 5m");
    let level = choice((
        keyword("easy").to(Level::Easy),
        keyword("medium").to(Level::Medium),
        keyword("hard").to(Level::Hard),
    ));
    let side = select! {
        Token::Word(w) => w,
        Token::Number(n) => n,
        Token::Other(o) => o,
    }
    .labelled("a side");
    let on_off = choice((
        keyword("on").to(ColorChoice::On),
        keyword("off").to(ColorChoice::Off),
        keyword("auto").to(ColorChoice::Auto),
    ));
    let done = |c: Command| Parsed::Done(c);
    let commands = choice((
        keyword("undo")
            .ignore_then(count.or_not())
            .map(move |n| done(C::Undo(n.unwrap_or(1)))),
        keyword("redo")
            .ignore_then(count.or_not())
            .map(move |n| done(C::Redo(n.unwrap_or(1)))),
        keyword("board").to(done(C::Board)),
        keyword("moves").to(done(C::Moves)),
        keyword("history").to(done(C::History)),
        keyword("new").to(done(C::New)),
        keyword("options").to(done(C::Options)),
        keyword("set")
            .ignore_then(
                select! { Token::Word(_) => () }
                    .labelled("an option name")
                    .then(just(Token::Eq).labelled("'='"))
                    .then(any().repeated().at_least(1))
                    .to_span(),
            )
            .map(|s: SimpleSpan| Parsed::Raw(C::Set, s.into_range())),
        keyword("variant")
            .ignore_then(rest)
            .map(|s: SimpleSpan| Parsed::Raw(C::Variant, s.into_range())),
        keyword("reload").to(done(C::Reload)),
        keyword("replay")
            .ignore_then(rest.or_not())
            .map(|s: Option<SimpleSpan>| Parsed::OptionalRaw(C::Replay, s.map(|s| s.into_range()))),
    ));
    let more = choice((
        keyword("first").to(done(C::First)),
        choice((keyword("prev"), keyword("p"))).to(done(C::Prev)),
        choice((keyword("next"), keyword("n"))).to(done(C::Next)),
        keyword("last").to(done(C::Last)),
        keyword("goto")
            .ignore_then(ply)
            .map(move |n| done(C::Goto(n))),
        choice((keyword("stop"), keyword("s"))).to(done(C::Stop)),
        keyword("save")
            .ignore_then(rest)
            .map(|s: SimpleSpan| Parsed::Raw(C::Save, s.into_range())),
        keyword("load")
            .ignore_then(rest)
            .map(|s: SimpleSpan| Parsed::Raw(C::Load, s.into_range())),
        keyword("picture")
            .ignore_then(rest)
            .map(|s: SimpleSpan| Parsed::Raw(C::Picture, s.into_range())),
        keyword("explain")
            .ignore_then(
                select! {
                    Token::Other(o) if o == "--boards" => (),
                    Token::Word(w) if w == "boards" => (),
                }
                .labelled("--boards")
                .or_not(),
            )
            .map(move |b| {
                done(C::Explain {
                    boards: b.is_some(),
                })
            }),
        keyword("draft")
            .ignore_then(keyword("end").or_not())
            .map(move |e| done(if e.is_some() { C::DraftEnd } else { C::Draft })),
        keyword("clock")
            .ignore_then(choice((keyword("off").to(None), duration.map(Some))))
            .map(move |d| done(C::Clock(d))),
        keyword("hint")
            .ignore_then(level.clone().or_not())
            .map(move |l| done(C::Hint(l))),
        keyword("vs")
            .ignore_then(choice((
                keyword("off").to(None),
                level.clone().map(|l| Some((None, l))),
                side.then(level.clone())
                    .map(|(s, l): (&str, Level)| Some((Some(s.to_string()), l))),
            )))
            .map(move |v| done(C::Vs(v))),
        keyword("go")
            .ignore_then(level.or_not())
            .map(move |l| done(C::Go(l))),
        keyword("lang")
            .ignore_then(rest)
            .map(|s: SimpleSpan| Parsed::Raw(C::Lang, s.into_range())),
        keyword("theme")
            .ignore_then(rest)
            .map(|s: SimpleSpan| Parsed::Raw(C::Theme, s.into_range())),
        choice((keyword("color"), keyword("colour")))
            .ignore_then(on_off)
            .map(move |c| done(C::Color(c))),
        keyword("doc")
            .ignore_then(
                select! { Token::Word(w) => w }
                    .labelled("a function's name")
                    .or_not(),
            )
            .map(move |w| done(C::Doc(w.map(str::to_string)))),
        keyword("help")
            .ignore_then(word.or_not())
            .map(move |w| done(C::Help(w))),
        choice((keyword("clear"), keyword("cls"))).to(done(C::Clear)),
        choice((keyword("quit"), keyword("exit"), keyword("q"))).to(done(C::Quit)),
    ));
    commands.or(more).then_ignore(end())
}

/// The command words, including short forms.
const ALIASES: &[&str] = &["p", "n", "s", "exit", "q", "colour", "cls"];

/// Whether `word` starts a command.
pub fn is_command_word(word: &str) -> bool {
    COMMANDS.iter().any(|c| c.name.eq_ignore_ascii_case(word))
        || ALIASES.iter().any(|c| c.eq_ignore_ascii_case(word))
}

/// Reads one line of input; errors in English.
pub fn parse(line: &str) -> Result<Command, Diagnostic> {
    parse_in(line, &Catalog::english())
}

/// Reads one line of input; errors say what the command needs, in `catalog`'s language, with
/// an example.
pub fn parse_in(line: &str, catalog: &Catalog) -> Result<Command, Diagnostic> {
    let tokens: Vec<(Token, SimpleSpan)> = Token::lexer(line)
        .spanned()
        .map(|(t, s)| (t.unwrap_or(Token::Other("")), SimpleSpan::from(s)))
        .collect();
    let word = match tokens.first() {
        None => return Ok(Command::Nothing),
        Some((Token::Word(w), _)) if is_command_word(w) => w.to_ascii_lowercase(),
        Some(_) => return Ok(Command::Play(line.trim().to_string())),
    };
    let eoi = SimpleSpan::from(line.len()..line.len());
    let stream = Stream::from_iter(tokens).map(eoi, |(t, s): (_, _)| (t, s));
    let text = |span: Range<usize>| line[span].trim().to_string();
    match parser().parse(stream).into_result() {
        Ok(Parsed::Done(c)) => Ok(c),
        Ok(Parsed::Raw(make, span)) => Ok(make(text(span))),
        Ok(Parsed::OptionalRaw(make, span)) => Ok(make(span.map(text))),
        Err(errs) => Err(usage_error(line, &word, &errs[0], catalog)),
    }
}

/// The help entry of a command word or alias.
fn help_of(word: &str) -> Option<&'static CommandHelp> {
    let name = match word {
        "p" => "prev",
        "n" => "next",
        "s" => "stop",
        "q" | "exit" => "quit",
        "colour" => "color",
        "cls" => "clear",
        other => other,
    };
    COMMANDS.iter().find(|c| c.name == name)
}

/// A command written wrong, in plain words: what it needs, what was expected where, and an
/// example.
fn usage_error(line: &str, word: &str, err: &Rich<Token>, catalog: &Catalog) -> Diagnostic {
    let Some(help) = help_of(word) else {
        return Diagnostic::new(catalog.text("see-help", &[]));
    };
    let usage = format!("{} {}", help.name, help.args);
    let usage = usage.trim();
    let mut expected: Vec<String> = err
        .expected()
        .filter_map(|e| match e {
            chumsky::error::RichPattern::EndOfInput => None,
            other => Some(in_words(&other.to_string(), catalog)),
        })
        .collect();
    expected.sort();
    expected.dedup();
    let (message, label) = match (err.found(), err.reason()) {
        (_, chumsky::error::RichReason::Custom(m)) => (
            catalog.text("command-usage", &[("usage", &usage)]),
            in_words(m, catalog),
        ),
        (None, _) => (
            catalog.text(
                "command-needs",
                &[("command", &help.name), ("usage", &usage)],
            ),
            catalog.text("command-missing", &[]),
        ),
        (Some(found), _) if expected.is_empty() => (
            catalog.text("command-usage", &[("usage", &usage)]),
            catalog.text("command-no-more", &[("found", found)]),
        ),
        (Some(found), _) => (
            catalog.text("command-usage", &[("usage", &usage)]),
            catalog.text(
                "command-expected",
                &[("found", found), ("expected", &either(&expected, catalog))],
            ),
        ),
    };
    Diagnostic::new(message)
        .at("<input>", line, err.span().into_range(), label)
        .note(catalog.text("command-example", &[("example", &help.example)]))
}

/// What the parser expected (`a count`), in the catalogue's words (`expect-a-count`) if it has
/// them.
fn in_words(what: &str, catalog: &Catalog) -> String {
    let key: String = what
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ')
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-");
    let key = format!("expect-{key}");
    if catalog.has(&key) {
        catalog.text(&key, &[])
    } else {
        what.to_string()
    }
}

/// `a, b or c`.
fn either(words: &[String], catalog: &Catalog) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => catalog.text("either", &[("list", &rest.join(", ")), ("last", last)]),
    }
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
        assert_eq!(
            parse("set exact=false").unwrap(),
            Command::Set("exact=false".into())
        );
        assert_eq!(
            parse("replay 13n10n 12n").unwrap(),
            Command::Replay(Some("13n10n 12n".into()))
        );
        assert_eq!(parse("replay").unwrap(), Command::Replay(None));
        assert_eq!(
            parse("save /tmp/a b.txt").unwrap(),
            Command::Save("/tmp/a b.txt".into())
        );
        assert_eq!(
            parse("explain --boards").unwrap(),
            Command::Explain { boards: true }
        );
        assert_eq!(parse("draft end").unwrap(), Command::DraftEnd);
        assert_eq!(
            parse("clock 1m30s").unwrap(),
            Command::Clock(Some(Duration::from_secs(90)))
        );
        assert_eq!(
            parse("clock 250ms").unwrap(),
            Command::Clock(Some(Duration::from_millis(250)))
        );
        assert_eq!(parse("clock off").unwrap(), Command::Clock(None));
        assert_eq!(parse("n").unwrap(), Command::Next);
        assert_eq!(
            parse("vs hard").unwrap(),
            Command::Vs(Some((None, Level::Hard)))
        );
        assert_eq!(
            parse("vs O easy").unwrap(),
            Command::Vs(Some((Some("O".into()), Level::Easy)))
        );
        assert_eq!(
            parse("vs 2 medium").unwrap(),
            Command::Vs(Some((Some("2".into()), Level::Medium)))
        );
        assert_eq!(parse("vs off").unwrap(), Command::Vs(None));
        assert_eq!(parse("cls").unwrap(), Command::Clear);
        assert_eq!(parse("clear").unwrap(), Command::Clear);
        assert_eq!(parse("goto 0").unwrap(), Command::Goto(0));
        assert_eq!(
            parse("color off").unwrap(),
            Command::Color(ColorChoice::Off)
        );
    }

    #[test]
    fn bad_arguments_point_at_themselves() {
        let d = parse("undo x").unwrap_err();
        assert_eq!(d.pointer.unwrap().span, 5..6);
        let d = parse("board 3").unwrap_err();
        assert_eq!(d.pointer.unwrap().span, 6..7);
        let d = parse("clock soon").unwrap_err();
        assert_eq!(d.pointer.unwrap().span, 6..10);
        let d = parse("set exact").unwrap_err();
        assert!(d.message.contains("`set KEY=VALUE`"), "{}", d.message);
        assert_eq!(d.pointer.unwrap().span, 9..9);
        let d = parse("hint impossible").unwrap_err();
        assert_eq!(
            d.pointer.unwrap().label,
            "'impossible' is not easy, hard or medium"
        );
        assert_eq!(d.notes, ["for example: `hint hard`"]);
        assert!(parse("goto").is_err());
    }
}
