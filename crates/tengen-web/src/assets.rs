//! The page, embedded in the binary: no CDN, no build step, works offline.

/// The page.
pub const INDEX_HTML: &str = include_str!("assets/index.html");
/// Its script: the SVG board, the socket, the forms, both languages.
pub const APP_JS: &str = include_str!("assets/app.js");
/// Its style.
pub const APP_CSS: &str = include_str!("assets/app.css");
