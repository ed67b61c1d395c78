//! The page, embedded in the binary: no CDN, no build step, works offline.
//! Its script is a set of ES modules that import one another by path
//! (`import { drawBoard } from "./board.js"`); each is served as it is
//! written, and nothing bundles or rewrites them.

/// One embedded file and the path it is served at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asset {
    /// The path, from the root (`/board.js`).
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// The file.
    pub body: &'static str,
}

/// The page, served at `/` and at every game's address.
pub const PAGE: Asset = Asset {
    path: "/",
    content_type: "text/html; charset=utf-8",
    body: include_str!("assets/index.html"),
};

const JS: &str = "text/javascript; charset=utf-8";

/// The modules named, each served at `/NAME.js` from `assets/NAME.js`.
macro_rules! modules {
    ($($name:literal),* $(,)?) => {
        [$(Asset {
            path: concat!("/", $name, ".js"),
            content_type: JS,
            body: include_str!(concat!("assets/", $name, ".js")),
        }),*]
    };
}

/// The page's style.
pub const STYLE: Asset = Asset {
    path: "/app.css",
    content_type: "text/css; charset=utf-8",
    body: include_str!("assets/app.css"),
};

/// The script's modules, the entry first: `app` routes each address to
/// its screen and starts the others; `i18n` holds the words in English and
/// French; `page` element lookup, the sections shown and navigation;
/// `connection` the JSON API and the game's WebSocket; `board` the SVG
/// board; `form` the new-game form; `game` the game screen; `clock`,
/// `count`, `names` and `lessons` its clocks, count, lexicon and
/// learning-path panels (`lessons` the path's list too); `review` the
/// review of an SGF record; `player` the player's name, `chat` the game's
/// chat and who is at it, `helpers` the helpers during play, `lobby` the
/// lobby; `teach` the screens of a learning step.
pub const MODULES: [Asset; 17] = modules![
    "app",
    "i18n",
    "page",
    "connection",
    "board",
    "form",
    "game",
    "clock",
    "count",
    "names",
    "lessons",
    "review",
    "player",
    "chat",
    "helpers",
    "lobby",
    "teach",
];

/// Every file the page loads.
pub fn files() -> impl Iterator<Item = &'static Asset> {
    std::iter::once(&STYLE).chain(&MODULES)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn served(path: &str) -> Option<&'static Asset> {
        files().find(|a| a.path == path)
    }

    /// The paths a file names after `marker` and up to the closing quote.
    fn referenced<'a>(text: &'a str, marker: &'a str) -> impl Iterator<Item = &'a str> {
        text.split(marker)
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
    }

    #[test]
    fn every_file_the_page_names_is_served() {
        let page: Vec<&str> = referenced(PAGE.body, "src=\"")
            .chain(referenced(PAGE.body, "rel=\"stylesheet\" href=\""))
            .collect();
        assert_eq!(page, ["/app.js", "/app.css"]);
        assert!(
            PAGE.body
                .contains(r#"<script type="module" src="/app.js">"#)
        );
        for path in page {
            assert!(served(path).is_some(), "{path} is not served");
        }
        for asset in &MODULES {
            let imports: Vec<&str> = referenced(asset.body, " from \"./").collect();
            for import in imports {
                let path = format!("/{import}");
                assert!(
                    served(&path).is_some_and(|a| a.content_type == JS),
                    "{} imports {path}, which is not a served module",
                    asset.path
                );
            }
        }
    }

    #[test]
    fn every_module_is_imported_and_served_once() {
        let all: Vec<&Asset> = files().collect();
        for (i, a) in all.iter().enumerate() {
            assert!(
                all.iter().skip(i + 1).all(|b| b.path != a.path),
                "{} twice",
                a.path
            );
        }
        for a in MODULES.iter().skip(1) {
            let name = a.path.trim_start_matches('/');
            assert!(
                MODULES
                    .iter()
                    .any(|b| b.body.contains(&format!(" from \"./{name}\""))),
                "{} is served but never imported",
                a.path
            );
        }
    }
}
