//! The pages, served by the binary itself (HTML, CSS and JS compiled in: no build step): the
//! lobby, a table (player or spectator), the teacher's page. Every text from a script or a
//! student is put in the page as text (`textContent`), never as markup.

use std::sync::Arc;

use axum::{http::header, response::IntoResponse, routing::get, Router};

use super::app::App;

/// A page or asset: its content type and text.
fn asset(kind: &'static str, text: &'static str) -> impl IntoResponse + Clone {
    ([(header::CONTENT_TYPE, kind)], text)
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";

/// The pages' routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route(
            "/",
            get(|| async { asset(HTML, include_str!("assets/lobby.html")) }),
        )
        .route(
            "/t/{id}",
            get(|| async { asset(HTML, include_str!("assets/table.html")) }),
        )
        .route(
            "/teacher",
            get(|| async { asset(HTML, include_str!("assets/teacher.html")) }),
        )
        .route(
            "/assets/app.css",
            get(|| async { asset("text/css; charset=utf-8", include_str!("assets/app.css")) }),
        )
        .route(
            "/assets/common.js",
            get(|| async { asset(JS, include_str!("assets/common.js")) }),
        )
        .route(
            "/assets/lobby.js",
            get(|| async { asset(JS, include_str!("assets/lobby.js")) }),
        )
        .route(
            "/assets/table.js",
            get(|| async { asset(JS, include_str!("assets/table.js")) }),
        )
        .route(
            "/assets/teacher.js",
            get(|| async { asset(JS, include_str!("assets/teacher.js")) }),
        )
}
