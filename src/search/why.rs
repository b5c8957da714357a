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
    ("forced-win", "a forced win (searched {n} moves ahead)"),
    ("forced-win-one", "a forced win (searched 1 move ahead)"),
    ("holds-out", "every move loses against best play; {move} holds out longest"),
    ("best-evaluation", "the best evaluation {n} moves ahead (positions seen: {nodes})"),
    ("best-evaluation-one", "the best evaluation 1 move ahead (positions seen: {nodes})"),
    ("certain-event", "{event} (certain; evaluation {gain})"),
    ("certain", "evaluation {gain}, certain"),
    ("only-move", "the only legal move"),
    ("stopped", "no time to search (a slow script, or Ctrl-C): a move the rules accept"),
    ("no-time", "no time to look ahead (the evaluation is slow): the best of the moves looked at"),
    ("one-future", "evaluation {gain} in one sampled future, the best of {moves} moves (no time to sample more)"),
    ("expected", "expected evaluation {gain} over {samples} sampled futures, {n} moves deep ({refined} of {moves} moves sampled)"),
    ("expected-one", "expected evaluation {gain} over {samples} sampled futures, 1 move deep ({refined} of {moves} moves sampled)"),
    ("wins-now", "{move} wins at once for {player}"),
    ("wins-at", "{player} wins at {move}"),
    ("blocks-win", "blocks {player}'s win at {move}"),
    ("forces-win", "{player} forces a win (seen {n} moves ahead)"),
    ("forces-win-one", "{player} forces a win (seen 1 move ahead)"),
    ("they-force", "{player} can force a win; {move} holds out longest"),
    ("blocks-lines", "mostly blocks {player}'s lines (searched {n} moves ahead; positions seen: {nodes})"),
    ("blocks-lines-one", "mostly blocks {player}'s lines (searched 1 move ahead; positions seen: {nodes})"),
    ("builds-lines", "builds {player}'s lines (searched {n} moves ahead; positions seen: {nodes})"),
    ("builds-lines-one", "builds {player}'s lines (searched 1 move ahead; positions seen: {nodes})"),
    ("captures-now", "captures {gain} now; "),
    ("forced-win-seen", "a forced win (seen {n} moves ahead)"),
    ("forced-win-seen-one", "a forced win (seen 1 move ahead)"),
    ("best-balance", "the best balance of captures {n} moves ahead (positions seen: {nodes})"),
    ("best-balance-one", "the best balance of captures 1 move ahead (positions seen: {nodes})"),
    ("random", "a move picked at random (easy)"),
    ("simulated", "{player} scores {percent}% in the {visits} of {iterations} simulated games that tried it"),
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
