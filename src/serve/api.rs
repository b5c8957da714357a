//! The JSON API under `/api` that the pages, bots and curl use: games, tables, seats with
//! tokens, moves, live updates (server-sent events), join codes and rematches.

use std::{convert::Infallible, net::SocketAddr, sync::Arc};

use axum::{
    body::Bytes,
    extract::{ConnectInfo, Path, State},
    http::StatusCode,
    response::{
        sse::{Event, KeepAlive, Sse},
        IntoResponse, Response,
    },
    routing::{get, post},
    Json, Router,
};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio_stream::{wrappers::BroadcastStream, Stream, StreamExt};

use super::{
    app::App,
    request::{blocking, body, OptionsIn},
    seats::{self, Seat, SeatKind},
    short,
    store::TableRecord,
    table::Request,
    Failure,
};
use crate::{script::library::is_name, terminal::clean};

/// The longest seat name kept (longer ones are cut).
const NAME_CHARS: usize = 40;

/// The API's routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/games", get(games))
        .route("/api/tables", get(list_tables).post(new_table))
        .route("/api/tables/{id}", get(table))
        .route("/api/tables/{id}/moves", post(play))
        .route("/api/tables/{id}/picture", get(picture))
        .route("/api/tables/{id}/events", get(events))
        .route("/api/tables/{id}/rematch", post(rematch))
        .route("/api/join", post(join))
        .route("/api/assignment", get(assignment))
}

async fn games(State(app): State<Arc<App>>) -> Json<Value> {
    let catalog = app
        .catalog
        .read()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    Json((*catalog).clone())
}

async fn list_tables(State(app): State<Arc<App>>) -> Result<Json<Value>, Failure> {
    let store = app.store.clone();
    let summaries = blocking(move || store.summaries().map_err(Failure::Broken)).await?;
    Ok(Json(json!(summaries)))
}

#[derive(Debug, Deserialize)]
struct SeatIn {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Debug, Deserialize)]
struct NewTable {
    game: String,
    #[serde(default)]
    options: Option<OptionsIn>,
    #[serde(default)]
    seats: Vec<SeatIn>,
    #[serde(default)]
    seed: Option<u64>,
}

/// A seat name as given: control characters dropped, at most [`NAME_CHARS`] characters.
fn seat_name(given: &str) -> String {
    clean(given.trim())
        .chars()
        .filter(|c| !c.is_control())
        .take(NAME_CHARS)
        .collect()
}

/// Opens a table: stores it and its seats (one person per player when none are given), starts
/// its game; answers its id, state and each seat's token and join code (201). Refused with 503
/// or 429 when the server or this client already has its most tables in play.
async fn new_table(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    bytes: Bytes,
) -> Result<Response, Failure> {
    let request: NewTable = body(&bytes)?;
    if !is_name(&request.game) {
        return Err(Failure::Invalid(format!(
            "'{}' is not a game's name (see GET /api/games)",
            short(&request.game)
        )));
    }
    let seats = request
        .seats
        .iter()
        .map(|s| {
            let kind: SeatKind = s
                .kind
                .as_deref()
                .unwrap_or("human")
                .parse()
                .map_err(Failure::Invalid)?;
            let name = s.name.as_deref().map(seat_name).unwrap_or_default();
            Ok(Seat::new(kind, name))
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    let record = TableRecord {
        id: seats::table_id(),
        number: 0,
        game: request.game,
        options: request.options.map(OptionsIn::settings).unwrap_or_default(),
        seed: request.seed.unwrap_or_else(rand::random),
        seats,
        moves: Vec::new(),
        rematch: None,
        client: client.ip().to_string(),
    };
    let id = record.id.clone();
    app.open_table(record).await?;
    let view = app.ask(&id, Request::View).await?;
    let (store, key) = (app.store.clone(), id.clone());
    let stored = blocking(move || store.table(&key).map_err(Failure::Broken)).await?;
    let seats = stored.map(|t| t.seats).unwrap_or_default();
    Ok((StatusCode::CREATED, Json(created(&id, &view, &seats))).into_response())
}

/// The answer to opening a table: its id and state, and each seat's token and code.
fn created(id: &str, view: &Value, seats: &[Seat]) -> Value {
    json!({
        "id": id,
        "table": view,
        "seats": seats.iter().enumerate().map(|(i, s)| json!({
            "seat": i,
            "player": view["seats"][i]["player"],
            "kind": s.kind.to_string(),
            "name": view["seats"][i]["name"],
            "token": (!matches!(s.kind, SeatKind::Computer(_))).then_some(&s.token),
            "code": (!matches!(s.kind, SeatKind::Computer(_))).then_some(&s.code),
        })).collect::<Vec<_>>(),
    })
}

async fn table(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Failure> {
    Ok(Json((*app.ask(&id, Request::View).await?).clone()))
}

async fn picture(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, Failure> {
    Ok(Json((*app.ask(&id, Request::Picture).await?).clone()))
}

#[derive(Debug, Deserialize)]
struct MoveIn {
    #[serde(default)]
    token: String,
    #[serde(rename = "move")]
    text: String,
}

/// Plays a move: 200 and the new state, or 403 (token), 409 (turn, game over) or 422 (the
/// script's refusal) with nothing changed.
async fn play(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<Value>, Failure> {
    let request: MoveIn = body(&bytes)?;
    let view = app
        .ask(&id, |reply| Request::Play {
            token: request.token.clone(),
            text: request.text.clone(),
            reply,
        })
        .await?;
    Ok(Json((*view).clone()))
}

/// The table's states as server-sent events (`event: state`), the current one first.
async fn events(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Failure> {
    let (now, updates) = app.watch(&id).await?;
    let states = tokio_stream::once(now)
        .chain(BroadcastStream::new(updates).filter_map(Result::ok))
        .map(|state| Ok(Event::default().event("state").data(state.to_string())));
    Ok(Sse::new(states).keep_alive(KeepAlive::default()))
}

#[derive(Debug, Deserialize)]
struct JoinIn {
    code: String,
    #[serde(default)]
    name: Option<String>,
}

/// Joins the seat of a code: its table, seat number and token (and renames it if a name is given).
async fn join(State(app): State<Arc<App>>, bytes: Bytes) -> Result<Json<Value>, Failure> {
    let request: JoinIn = body(&bytes)?;
    let code = request.code.trim().to_ascii_lowercase();
    let store = app.store.clone();
    let name = request
        .name
        .as_deref()
        .map(seat_name)
        .filter(|n| !n.is_empty());
    let (id, seat, token) = blocking(move || {
        let (id, seat) = store
            .seat_by_code(&code)
            .map_err(Failure::Broken)?
            .ok_or_else(|| Failure::NotFound(format!("no seat has the code '{}'", short(&code))))?;
        let record = store
            .table(&id)
            .map_err(Failure::Broken)?
            .ok_or_else(|| Failure::NotFound("the table of this code is gone".into()))?;
        if let Some(name) = &name {
            store
                .set_seat_name(&id, seat, name)
                .map_err(Failure::Broken)?;
        }
        Ok((id, seat, record.seats[seat].token.clone()))
    })
    .await?;
    if let Some(name) = request
        .name
        .as_deref()
        .map(seat_name)
        .filter(|n| !n.is_empty())
    {
        app.tell(&id, Request::Rename(seat, name)).await?;
    }
    Ok(Json(json!({ "id": id, "seat": seat, "token": token })))
}

#[derive(Debug, Deserialize)]
struct TokenIn {
    #[serde(default)]
    token: String,
}

/// Opens the rematch of a finished table (once; later calls answer the same one): the same game
/// and options, the seats' order reversed, each seat keeping its token.
async fn rematch(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<Value>, Failure> {
    let request: TokenIn = body(&bytes)?;
    let view = app.ask(&id, Request::View).await?;
    let store = app.store.clone();
    let key = id.clone();
    let old = blocking(move || {
        store
            .table(&key)
            .map_err(Failure::Broken)?
            .ok_or_else(|| Failure::NotFound("no such table".into()))
    })
    .await?;
    if seats::seat_of(&old.seats, &request.token).is_none() {
        return Err(Failure::Forbidden(
            "only a player of this table can ask for a rematch".into(),
        ));
    }
    if view["result"].is_null() {
        return Err(Failure::Conflict("the game is not over yet".into()));
    }
    if let Some(rematch) = old.rematch {
        return Ok(Json(json!({ "id": rematch })));
    }
    let mut seats = old.seats.clone();
    seats.reverse();
    for s in &mut seats {
        s.code = seats::code();
    }
    let record = TableRecord {
        id: seats::table_id(),
        number: 0,
        seats,
        moves: Vec::new(),
        rematch: None,
        seed: rand::random(),
        client: client.ip().to_string(),
        ..old
    };
    let new_id = record.id.clone();
    app.open_table(record).await?;
    let store = app.store.clone();
    let (from, to) = (id.clone(), new_id.clone());
    blocking(move || store.set_rematch(&from, &to).map_err(Failure::Broken)).await?;
    app.tell(&id, Request::Rematch(new_id.clone())).await?;
    Ok(Json(json!({ "id": new_id })))
}

/// What the teacher asked everyone to play, or `null`.
async fn assignment(State(app): State<Arc<App>>) -> Result<Json<Value>, Failure> {
    let store = app.store.clone();
    let text = blocking(move || store.setting("assignment").map_err(Failure::Broken)).await?;
    Ok(Json(
        text.and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(Value::Null),
    ))
}
