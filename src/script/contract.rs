//! The functions a rules script defines, and the check that it defines them.

/// One function of the rules-script contract.
#[derive(Debug, Clone, Copy)]
pub struct ContractFn {
    /// Its name.
    pub name: &'static str,
    /// Its parameters, by conventional name.
    pub params: &'static [&'static str],
    /// Whether every script must define it.
    pub required: bool,
    /// What it does, in a line.
    pub purpose: &'static str,
}

impl ContractFn {
    /// The signature as a script writes it: `fn play(state, mv)`.
    pub fn signature(&self) -> String {
        format!("fn {}({})", self.name, self.params.join(", "))
    }
}

/// Every function of the contract, required ones first.
pub const CONTRACT: &[ContractFn] = &[
    ContractFn {
        name: "setup",
        params: &["opts"],
        required: true,
        purpose: "the start state for the chosen options",
    },
    ContractFn {
        name: "to_move",
        params: &["state"],
        required: true,
        purpose: "the index (0, 1, …) of the player to move",
    },
    ContractFn {
        name: "moves",
        params: &["state"],
        required: true,
        purpose: "an array of every legal move",
    },
    ContractFn {
        name: "play",
        params: &["state", "mv"],
        required: true,
        purpose: "the state after the move; `throw` a message for an illegal move",
    },
    ContractFn {
        name: "result",
        params: &["state"],
        required: true,
        purpose: "() while the game goes on, the winner's index, or \"draw\"",
    },
    ContractFn {
        name: "parse_move",
        params: &["state", "text"],
        required: true,
        purpose: "the move written as text; `throw` a message for bad text",
    },
    ContractFn {
        name: "format_move",
        params: &["state", "mv"],
        required: true,
        purpose: "the move in canonical notation",
    },
    ContractFn {
        name: "render",
        params: &["state"],
        required: true,
        purpose: "the state as text",
    },
    ContractFn {
        name: "parse_state",
        params: &["text", "opts", "turn"],
        required: true,
        purpose: "the state a rendering shows (turn: () or the player to move)",
    },
    ContractFn {
        name: "info",
        params: &[],
        required: false,
        purpose: "#{ title: …, about: … } for `boardrules list`",
    },
    ContractFn {
        name: "options",
        params: &[],
        required: false,
        purpose: "#{ name: #{ value: …, help: …, choices: [...] } } — the variant options",
    },
    ContractFn {
        name: "players",
        params: &["opts"],
        required: false,
        purpose: "the players' names in turn order (default: player 1, player 2)",
    },
    ContractFn {
        name: "split_moves",
        params: &["text"],
        required: false,
        purpose: "split a move list such as \"13n10n12n\" into move texts",
    },
    ContractFn {
        name: "bot_cells",
        params: &["state"],
        required: false,
        purpose: "the position as the class bot protocol's words, one per cell (default: the grid's or track's values)",
    },
    ContractFn {
        name: "from_bot_cells",
        params: &["cells", "opts", "turn"],
        required: false,
        purpose: "the state the bot protocol's words show (default: the start state's board filled in, read back by parse_state)",
    },
    ContractFn {
        name: "warnings",
        params: &["state"],
        required: false,
        purpose: "an array of warnings about the state (\"X has four: 9k wins next\")",
    },
    ContractFn {
        name: "native",
        params: &["state"],
        required: false,
        purpose: "the position as a native game family, so playouts and search run natively",
    },
    ContractFn {
        name: "native_move",
        params: &["state", "pit", "dir"],
        required: false,
        purpose: "for a sowing native form whose moves choose a direction: the move sowing `pit` towards `dir` (+1 or -1) as `moves` writes it",
    },
    ContractFn {
        name: "levels",
        params: &[],
        required: false,
        purpose: "#{ easy: #{ depth: …, time_ms: … }, medium: …, hard: … } — what each computer level means",
    },
    ContractFn {
        name: "evaluate",
        params: &["state", "player"],
        required: false,
        purpose: "for search: how good the state is for `player` (an integer, higher is better)",
    },
    ContractFn {
        name: "why_illegal",
        params: &["state", "mv"],
        required: false,
        purpose: "why a move `moves` does not list is illegal, in words; `play` then never sees one",
    },
];
