//! What the handlers share for reading requests: JSON bodies with a clear refusal, options in
//! either form, and blocking work (the data file, scripts) run off the async threads.

use axum::body::Bytes;
use serde::{de::DeserializeOwned, Deserialize};
use serde_json::{Map, Value};

use super::Failure;

/// Reads a JSON body, or says what is wrong with it (400).
pub fn body<T: DeserializeOwned>(bytes: &Bytes) -> Result<T, Failure> {
    serde_json::from_slice(bytes)
        .map_err(|e| Failure::Invalid(format!("the request body is not what was expected: {e}")))
}

/// Runs blocking work (the data file, loading scripts) off the async threads.
pub async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> Result<T, Failure> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Failure::Broken(e.to_string()))?
}

/// Options as `{"size": 9}` or `["size=9"]`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum OptionsIn {
    /// `KEY: VALUE` pairs.
    Map(Map<String, Value>),
    /// `KEY=VALUE` settings.
    List(Vec<String>),
}

impl OptionsIn {
    /// The options as `KEY=VALUE` settings.
    pub fn settings(self) -> Vec<String> {
        match self {
            OptionsIn::List(list) => list,
            OptionsIn::Map(map) => map
                .into_iter()
                .map(|(k, v)| match v {
                    Value::String(s) => format!("{k}={s}"),
                    other => format!("{k}={other}"),
                })
                .collect(),
        }
    }
}
