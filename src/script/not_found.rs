//! A script's call of a function that does not exist ("Function not found: cels_with (Grid,
//! Fn)"): the closest name that does (`did you mean `cells_with`?`), among the runtime's
//! primitives, Rhai's standard library and the script's own functions; or, when the name exists,
//! that only its arguments are wrong.

use std::{cell::RefCell, rc::Rc, sync::OnceLock};

use rhai::EvalAltResult;

use super::{api, sandbox};

/// What to say about `err` if it is a call of a function that does not exist: the closest known
/// name, or that the name exists for other arguments; `None` for any other error, or when no
/// name is close. `script_functions` are the names the script (and its base) define.
pub fn suggestion(err: &EvalAltResult, script_functions: &[String]) -> Option<String> {
    let EvalAltResult::ErrorFunctionNotFound(signature, _) = err else {
        return None;
    };
    let called = signature.split([' ', '(']).next()?.trim();
    let name = called.rsplit("::").next().unwrap_or(called);
    let mut known = registered()
        .iter()
        .chain(script_functions)
        .map(String::as_str);
    if known.any(|k| k == name) {
        return Some(format!(
            "`{name}` exists, but not for these arguments (`boardrules doc {name}` lists its forms)"
        ));
    }
    let known = registered()
        .iter()
        .chain(script_functions)
        .map(String::as_str);
    crate::suggest::did_you_mean(name, known)
}

/// Every function name an engine set up as a game's knows (the runtime's primitives and Rhai's
/// standard library; properties by their bare name), read once from its metadata.
fn registered() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut engine = sandbox::engine();
        let _ = api::register(&mut engine, Rc::new(RefCell::new(api::EventLog::default())));
        let json = engine.gen_fn_metadata_to_json(true).unwrap_or_default();
        let meta: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
        let mut names: Vec<String> = meta["functions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f["name"].as_str())
            .map(|n| n.trim_start_matches("get$").trim_start_matches("set$"))
            .filter(|n| n.chars().all(|c| c.is_alphanumeric() || c == '_'))
            .map(str::to_string)
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn not_found(signature: &str) -> EvalAltResult {
        EvalAltResult::ErrorFunctionNotFound(signature.into(), rhai::Position::NONE)
    }

    #[test]
    fn a_misspelt_primitive_finds_the_right_name_and_a_stranger_none() {
        let none: &[String] = &[];
        let say = |s: &str| suggestion(&not_found(s), none);
        assert_eq!(
            say("cels_with (Grid, Fn)").as_deref(),
            Some("did you mean `cells_with`?")
        );
        // Rhai's own library and the script's functions are known too.
        assert_eq!(
            say("to_char (string)").as_deref(),
            Some("did you mean `to_chars`?")
        );
        let mine = ["count_threats".to_string()];
        assert_eq!(
            suggestion(&not_found("count_threat (map)"), &mine).as_deref(),
            Some("did you mean `count_threats`?")
        );
        assert!(say("to_chars (())")
            .unwrap()
            .starts_with("`to_chars` exists, but not"));
        assert_eq!(say("zzzqqqxxx (i64)"), None);
        let other = EvalAltResult::ErrorRuntime("cels_with".into(), rhai::Position::NONE);
        assert_eq!(suggestion(&other, none), None);
    }
}
