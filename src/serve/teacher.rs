//! The teacher's API (behind the password printed at start, sent as `Authorization: Bearer
//! PASSWORD` and compared in constant time): every table with its result, live as server-sent
//! events, "everyone plays this variant now", the upload of a student's variant, and the
//! finished games as a tournament journal and as trace files.

use std::{convert::Infallible, sync::Arc};

use axum::{
    body::Bytes,
    extract::{Path, State},
    http::{header, HeaderMap, StatusCode},
    response::{
        sse::{Event, KeepAlive, Sse},
        IntoResponse,
    },
    routing::{get, post},
    Json, Router,
};
use serde::Deserialize;
use serde_json::{json, Value};
use subtle::ConstantTimeEq;
use tokio_stream::{wrappers::BroadcastStream, Stream, StreamExt};

use super::{
    app::App,
    request::{blocking, body, OptionsIn},
    short,
    table::Request,
    Failure,
};
use crate::{driver::apply_option, script::library::is_name, script::ScriptedGame};

/// The teacher's routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/teacher/tables", get(tables))
        .route("/api/teacher/events", get(events))
        .route("/api/teacher/variants", post(upload))
        .route("/api/teacher/assignment", post(assign))
        .route("/api/teacher/journal/{game}", get(journal))
        .route("/api/teacher/tables/{id}/trace", get(trace))
}

/// Refuses a request without the teacher's password (403).
fn check(app: &App, headers: &HeaderMap) -> Result<(), Failure> {
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if bool::from(given.as_bytes().ct_eq(app.password.as_bytes())) {
        Ok(())
    } else {
        Err(Failure::Forbidden(
            "the teacher's password is wrong or missing (Authorization: Bearer PASSWORD)".into(),
        ))
    }
}

/// Every table: game, options, seats, moves played, result.
async fn tables(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Json<Value>, Failure> {
    check(&app, &headers)?;
    let store = app.store.clone();
    let summaries = blocking(move || store.summaries().map_err(Failure::Broken)).await?;
    Ok(Json(json!(summaries)))
}

/// Every table's changes as server-sent events: first `tables` (the whole list, as `GET
/// /api/teacher/tables` gives it), then `table` (one table's new summary) at each change, and
/// `stale` when this watcher fell behind (reload the list).
async fn events(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Failure> {
    check(&app, &headers)?;
    let changes = app.changes.subscribe();
    let store = app.store.clone();
    let summaries = blocking(move || store.summaries().map_err(Failure::Broken)).await?;
    let first = Event::default()
        .event("tables")
        .data(json!(summaries).to_string());
    let next = BroadcastStream::new(changes).map(|change| {
        Ok(match change {
            Ok(summary) => Event::default().event("table").data(summary.to_string()),
            Err(_) => Event::default().event("stale").data("{}"),
        })
    });
    Ok(Sse::new(tokio_stream::once(Ok(first)).chain(next)).keep_alive(KeepAlive::default()))
}

#[derive(Debug, Deserialize)]
struct VariantIn {
    name: String,
    script: String,
}

/// Checks a student's variant as `boardrules check` would and, if it passes, offers it in the
/// lobby (201 with the check's summary); a failing check is refused (422) with its report.
async fn upload(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<impl IntoResponse, Failure> {
    check(&app, &headers)?;
    let request: VariantIn = body(&bytes)?;
    let shared = app.clone();
    let answer = blocking(move || {
        let answer = super::variants::upload(
            &shared.library,
            &shared.store,
            &request.name,
            &request.script,
        )?;
        shared.refresh_catalog();
        Ok(answer)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(answer)))
}

#[derive(Debug, Deserialize)]
struct AssignIn {
    /// `null` clears the assignment.
    game: Option<String>,
    #[serde(default)]
    options: Option<OptionsIn>,
}

/// Sets what everyone plays now (checked by loading the game with its options), or clears it.
async fn assign(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Result<Json<Value>, Failure> {
    check(&app, &headers)?;
    let request: AssignIn = body(&bytes)?;
    let store = app.store.clone();
    let library = app.library.clone();
    let value = blocking(move || {
        let value = match request.game {
            None => Value::Null,
            Some(game) => {
                if !is_name(&game) {
                    return Err(Failure::Invalid(format!(
                        "'{}' is not a game's name",
                        short(&game)
                    )));
                }
                let options = request.options.map(OptionsIn::settings).unwrap_or_default();
                let mut loaded = ScriptedGame::load(&library, &game)
                    .map_err(|ds| Failure::Invalid(ds[0].message.clone()))?;
                for setting in &options {
                    apply_option(&mut loaded, setting).map_err(|(_, m)| {
                        Failure::Invalid(format!("bad option '{}': {m}", short(setting)))
                    })?;
                }
                json!({ "game": game, "title": loaded.title(), "options": options })
            }
        };
        store
            .set_setting("assignment", &value.to_string())
            .map_err(Failure::Broken)?;
        Ok(value)
    })
    .await?;
    Ok(Json(value))
}

/// The finished two-player games of `game` as a tournament journal (one JSON line per game,
/// numbered by table), which `boardrules tournament merge` reads.
async fn journal(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(game): Path<String>,
) -> Result<impl IntoResponse, Failure> {
    check(&app, &headers)?;
    let disposition = format!(
        "attachment; filename=\"{}.jsonl\"",
        short(&game).replace(
            |c: char| !c.is_ascii_alphanumeric() && c != '_' && c != '-',
            "_"
        )
    );
    let store = app.store.clone();
    let text = blocking(move || {
        let mut out = String::new();
        for t in store.summaries().map_err(Failure::Broken)? {
            let Some(result) = t.result.filter(|r| r != "over" && t.game == game) else {
                continue;
            };
            let players: Vec<String> = t
                .seats
                .iter()
                .map(|(kind, name)| format!("{name} ({kind})"))
                .collect();
            let entry = json!({
                "game": t.number,
                "rules": t.game,
                "options": t.options,
                "players": players,
                "seed": t.seed,
                "result": result,
                "reason": t.reason.unwrap_or_default(),
                "moves": store.moves(&t.id).map_err(Failure::Broken)?,
            });
            out += &entry.to_string();
            out.push('\n');
        }
        Ok(out)
    })
    .await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/jsonl; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    ))
}

/// A finished table's game as a trace file that `boardrules test` replays (409 before the end).
async fn trace(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<impl IntoResponse, Failure> {
    check(&app, &headers)?;
    let export = app.ask(&id, Request::Export).await?;
    let Some(text) = export["trace"].as_str() else {
        return Err(Failure::Conflict("the game is not over yet".into()));
    };
    let disposition = format!("attachment; filename=\"table-{id}.trace\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text.to_string(),
    ))
}
