//! The page, embedded in the binary: one HTML document for every screen, its scripts and its
//! style sheet.

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

/// The page's files: name, content type, text.
const FILES: &[(&str, &str, &str)] = &[
    ("style.css", "text/css", include_str!("page/style.css")),
    ("app.js", "text/javascript", include_str!("page/app.js")),
    ("api.js", "text/javascript", include_str!("page/api.js")),
    ("board.js", "text/javascript", include_str!("page/board.js")),
    ("home.js", "text/javascript", include_str!("page/home.js")),
    ("play.js", "text/javascript", include_str!("page/play.js")),
    ("author.js", "text/javascript", include_str!("page/author.js")),
    ("records.js", "text/javascript", include_str!("page/records.js")),
    ("header.js", "text/javascript", include_str!("page/header.js")),
    ("lobby.js", "text/javascript", include_str!("page/lobby.js")),
    ("watch.js", "text/javascript", include_str!("page/watch.js")),
    ("table.js", "text/javascript", include_str!("page/table.js")),
];

/// The document every screen starts from (the script reads the address to pick the screen).
pub async fn index() -> Html<&'static str> {
    Html(include_str!("page/index.html"))
}

/// `GET /static/{file}`: one of the page's files, by its exact name.
pub async fn file(Path(name): Path<String>) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, text)) => (
            [
                (header::CONTENT_TYPE, format!("{kind}; charset=utf-8")),
                (header::CACHE_CONTROL, "no-cache".to_owned()),
            ],
            *text,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}
