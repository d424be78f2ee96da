//! The page, embedded in the binary: one HTML document for every screen, its scripts and its
//! style sheet.

use std::sync::LazyLock;

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::text::hex;

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
    ("gallery.js", "text/javascript", include_str!("page/gallery.js")),
    ("variant.js", "text/javascript", include_str!("page/variant.js")),
    ("puzzles.js", "text/javascript", include_str!("page/puzzles.js")),
];

/// The document every screen starts from (the script reads the address to pick the screen).
pub async fn index() -> Html<&'static str> {
    Html(include_str!("page/index.html"))
}

/// Each file's entity tag: a hash of its text, so that a browser asks again only whether its
/// copy is still the server's, and is answered 304 without the file when it is.
static TAGS: LazyLock<Vec<String>> = LazyLock::new(|| {
    FILES
        .iter()
        .map(|(_, _, text)| format!("\"{}\"", hex(&Sha256::digest(text.as_bytes())[..12])))
        .collect()
});

/// `GET /static/{file}`: one of the page's files, by its exact name.
pub async fn file(Path(name): Path<String>, headers: HeaderMap) -> Response {
    let Some(index) = FILES.iter().position(|(n, _, _)| *n == name) else {
        return (StatusCode::NOT_FOUND, "no such file").into_response();
    };
    let (_, kind, text) = FILES[index];
    let tag = &TAGS[index];
    let fresh = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == tag || t.trim() == "*");
    let head = [(header::CACHE_CONTROL, "no-cache".to_owned()), (header::ETAG, tag.clone())];
    if fresh {
        return (StatusCode::NOT_MODIFIED, head).into_response();
    }
    (head, [(header::CONTENT_TYPE, format!("{kind}; charset=utf-8"))], text).into_response()
}
