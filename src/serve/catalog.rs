//! The games the server offers: each script of the rules library with its title, players and
//! options, as `GET /api/games` lists them (a script that does not load is listed with why).

use serde_json::{json, Value};

use crate::{
    runtime::Game,
    script::{Library, ScriptedGame},
    terminal::clean,
};

/// Every game of `library`, loaded once (on a blocking thread: scripts are compiled).
pub fn list(library: &Library) -> Value {
    let text = |s: &str| clean(s).into_owned();
    let games: Vec<Value> = library
        .names()
        .into_iter()
        .map(|name| match ScriptedGame::load(library, &name) {
            Ok(game) => json!({
                "name": name,
                "title": text(game.title()),
                "about": text(game.about()),
                "players": game.player_names().iter().map(|p| text(p)).collect::<Vec<_>>(),
                "options": game.options().iter().map(|o| json!({
                    "name": text(&o.name),
                    "default": text(&o.default.to_string()),
                    "help": text(&o.help),
                    "choices": o.choices.iter().map(|c| text(&c.to_string())).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            }),
            Err(ds) => json!({ "name": name, "error": text(&ds[0].message) }),
        })
        .collect();
    Value::Array(games)
}
