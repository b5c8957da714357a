//! Why the computer player chose a move: a reason as a message key and the values it names, so
//! that it can be said in any language, and each reason's English text.

/// Why the computer chose a move, as a message of [`REASONS`] and the values it names, so that
/// the REPL can say it in the user's language (its catalogue's `reason-KEY`, `reason-KEY-one`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Why {
    /// The message.
    pub key: &'static str,
    /// The count `{n}` (a depth, mostly), which picks the singular or plural.
    pub n: usize,
    /// The other values, by name.
    pub args: Vec<(&'static str, String)>,
    /// A message said before this one.
    pub before: Option<Box<Why>>,
}

/// The English text of each reason, by key; `KEY-one` is the form for `{n}` = 1.
pub const REASONS: &[(&str, &str)] = &[
    ("forced-win", "wins whatever the opponent does (looked {n} moves ahead)"),
    ("forced-win-one", "wins whatever the opponent does (looked 1 move ahead)"),
    ("holds-out", "every move loses if the opponent plays well; {move} holds out longest"),
    ("best-evaluation", "the best position it found looking {n} moves ahead ({nodes} positions looked at)"),
    ("best-evaluation-one", "the best position it found looking 1 move ahead ({nodes} positions looked at)"),
    ("certain-event", "{event} (no luck involved; score {gain})"),
    ("certain", "score {gain}, no luck involved"),
    ("only-move", "the only legal move"),
    ("stopped", "no time to think (slow rules, or Ctrl-C): a move the rules allow"),
    ("no-time", "no time to look ahead (the rules' score is slow to work out): the best of the moves it looked at"),
    ("no-time-play", "no time to look ahead (the rules' play is slow to work out): the best of the moves it looked at"),
    ("no-time-hash", "no time to look ahead (the state is too large to hash in the time): a move the rules allow"),
    ("one-future", "score {gain} in one try of what luck may bring, the best of {moves} moves (no time for more tries)"),
    ("expected", "score {gain} on average over {samples} tries of what luck may bring, looking {n} moves ahead ({refined} of {moves} moves tried that often)"),
    ("expected-one", "score {gain} on average over {samples} tries of what luck may bring, looking 1 move ahead ({refined} of {moves} moves tried that often)"),
    ("wins-now", "{move} wins at once for {player}"),
    ("wins-at", "{player} wins at {move}"),
    ("blocks-win", "blocks {player}'s win at {move}"),
    ("forces-win", "{player} wins whatever the opponent does (looked {n} moves ahead)"),
    ("forces-win-one", "{player} wins whatever the opponent does (looked 1 move ahead)"),
    ("they-force", "{player} wins if they play well; {move} holds out longest"),
    ("blocks-lines", "mostly blocks {player}'s lines (looked {n} moves ahead; {nodes} positions looked at)"),
    ("blocks-lines-one", "mostly blocks {player}'s lines (looked 1 move ahead; {nodes} positions looked at)"),
    ("builds-lines", "builds {player}'s lines (looked {n} moves ahead; {nodes} positions looked at)"),
    ("builds-lines-one", "builds {player}'s lines (looked 1 move ahead; {nodes} positions looked at)"),
    ("captures-now", "captures {gain} now; "),
    ("forced-win-seen", "wins whatever the opponent does (looked {n} moves ahead)"),
    ("forced-win-seen-one", "wins whatever the opponent does (looked 1 move ahead)"),
    ("best-balance", "the most captured for the least lost, looking {n} moves ahead ({nodes} positions looked at)"),
    ("best-balance-one", "the most captured for the least lost, looking 1 move ahead ({nodes} positions looked at)"),
    ("random", "a move picked at random (easy)"),
    ("simulated", "{player} scored {percent}% in the {visits} of {iterations} random games played to the end that began with it"),
];

/// Gives the text of a reason's key for a count and named values.
pub type Say<'a> = dyn Fn(&str, usize, &[(&str, &dyn std::fmt::Display)]) -> String + 'a;

impl Why {
    /// The reason `key`, about `n` (where it names a count), with `args`.
    pub(super) fn new(key: &'static str, n: usize, args: &[(&'static str, String)]) -> Why {
        Why {
            key,
            n,
            args: args.to_vec(),
            before: None,
        }
    }

    /// This reason said after `before`.
    pub(super) fn after(mut self, before: Option<Why>) -> Why {
        self.before = before.map(Box::new);
        self
    }

    /// The reason said with `say`, which gives the text of a key for a count and values.
    pub fn say(&self, say: &Say) -> String {
        let args: Vec<(&str, &dyn std::fmt::Display)> = self
            .args
            .iter()
            .map(|(k, v)| (*k, v as &dyn std::fmt::Display))
            .collect();
        let before = self.before.as_ref().map(|b| b.say(say)).unwrap_or_default();
        before + say(self.key, self.n, &args).as_str()
    }

    /// The reason in English.
    pub fn english(&self) -> String {
        self.say(&english)
    }
}

/// The English text of reason `key` about `n`, with `args` filled in.
pub fn english(key: &str, n: usize, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    let one = format!("{key}-one");
    let find = |k: &str| REASONS.iter().find(|(name, _)| *name == k).map(|(_, t)| *t);
    let template = (n == 1).then(|| find(&one)).flatten().or_else(|| find(key));
    let mut out = template.unwrap_or(key).replace("{n}", &n.to_string());
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), &value.to_string());
    }
    out
}
