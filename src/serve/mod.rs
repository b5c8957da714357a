//! The class server (`boardrules serve`): students play in their browsers, the teacher watches
//! every table, bots play over the network. An axum web server on tokio; every table's game runs
//! on a thread of its own (a slow script never holds up another table or the web server); tables,
//! seats and moves are stored in SQLite as they happen.

mod api;
mod app;
mod catalog;
mod pages;
mod request;
mod seats;
mod store;
mod table;
mod teacher;
mod variants;

use std::{net::SocketAddr, path::PathBuf, sync::Arc};

use axum::{
    http::{header, HeaderValue, StatusCode},
    response::IntoResponse,
    Json, Router,
};
use serde_json::json;
use tower_http::{limit::RequestBodyLimitLayer, set_header::SetResponseHeaderLayer};

pub use app::App;

/// Where the server finds its scripts, listens and stores its data.
#[derive(Debug, Clone)]
pub struct Config {
    /// The rules folder (`None`: the built-in scripts, overridden by `./rules/`).
    pub rules: Option<PathBuf>,
    /// The address to listen on.
    pub addr: SocketAddr,
    /// The SQLite data file.
    pub data: PathBuf,
    /// The teacher's password.
    pub password: String,
    /// The most tables being played at once (finished ones do not count).
    pub max_tables: usize,
    /// The most tables being played at once that one client (an address) opened.
    pub max_tables_per_client: usize,
}

/// Why a request was refused, as an HTTP status and a message.
#[derive(Debug, Clone)]
pub enum Failure {
    /// 400: the request does not make sense (a bad option, an unknown game).
    Invalid(String),
    /// 403: a wrong or missing token or password.
    Forbidden(String),
    /// 404: no such table or code.
    NotFound(String),
    /// 409: not this seat's turn, or the game is over.
    Conflict(String),
    /// 422: the rules script refused the move.
    Illegal(String),
    /// 429: this client already has its most open tables.
    TooMany(String),
    /// 503: the server already has its most open tables.
    Full(String),
    /// 500: the script or the data file failed.
    Broken(String),
}

impl IntoResponse for Failure {
    fn into_response(self) -> axum::response::Response {
        let (status, message) = match self {
            Failure::Invalid(m) => (StatusCode::BAD_REQUEST, m),
            Failure::Forbidden(m) => (StatusCode::FORBIDDEN, m),
            Failure::NotFound(m) => (StatusCode::NOT_FOUND, m),
            Failure::Conflict(m) => (StatusCode::CONFLICT, m),
            Failure::Illegal(m) => (StatusCode::UNPROCESSABLE_ENTITY, m),
            Failure::TooMany(m) => (StatusCode::TOO_MANY_REQUESTS, m),
            Failure::Full(m) => (StatusCode::SERVICE_UNAVAILABLE, m),
            Failure::Broken(m) => (StatusCode::INTERNAL_SERVER_ERROR, m),
        };
        (status, Json(json!({ "error": message }))).into_response()
    }
}

/// At most 40 characters of `text` (an id from a request, quoted in a message).
pub fn short(text: &str) -> String {
    crate::terminal::clean(&text.chars().take(40).collect::<String>()).into_owned()
}

/// A fresh teacher's password: 10 characters that are easy to read aloud.
pub fn password() -> String {
    seats::token()[..10].to_string()
}

/// Runs the server until it is stopped (Ctrl-C), printing its address and the teacher's
/// password first.
pub fn run(config: Config) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
        let app = App::open(&config).await?;
        println!("boardrules class server: http://{addr}/");
        println!(
            "teacher page: http://{addr}/teacher  password: {}",
            config.password
        );
        println!("data: {}", config.data.display());
        let router = router(app);
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| format!("the server failed: {e}"))
    })
}

/// The largest request body read: a move, a table's settings, an uploaded variant.
pub const MAX_BODY: usize = 64 * 1024;

/// The pages and the API, with the body size limit and security headers on every answer.
fn router(app: Arc<App>) -> Router {
    Router::new()
        .merge(pages::routes())
        .merge(api::routes())
        .merge(teacher::routes())
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
        .layer(SetResponseHeaderLayer::overriding(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'",
            ),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .with_state(app)
}
