//! The page, embedded in the binary: no CDN, no build step, works offline.
//! Its script is a set of ES modules that import one another by path
//! (`import { drawBoard } from "./board.js"`); each is served as it is
//! written, and nothing bundles or rewrites them. One module is made, not
//! written: `words.js`, the page's part of `tengen-words`'s catalogues.

use std::sync::OnceLock;
use tengen_words::Lang;

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
/// its screen and starts the others; `i18n` the language chosen and the
/// words in it (from [`words`]); `page` element lookup, the sections shown and navigation;
/// `connection` the JSON API and the game's WebSocket; `board` the SVG
/// board; `form` the new-game form; `game` the game screen; `clock`,
/// `count`, `names` and `lessons` its clocks, count, lexicon and
/// learning-path panels (`lessons` the path's list too); `review` the
/// review of an SGF record; `player` the player's name, `chat` the game's
/// chat and who is at it, `helpers` the helpers during play, `lobby` the
/// lobby; `teach` the screens of a learning step.
pub const MODULES: [Asset; 20] = modules![
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
    "mine",
    "teach",
    "class",
    "member",
];

/// The catalogues' words for the page, as a module (`/words.js`): the
/// languages (code and name), and for each language its `page` words, the
/// rules presets' names and descriptions. Made once, from the catalogues
/// compiled in.
pub fn words() -> Asset {
    static BODY: OnceLock<String> = OnceLock::new();
    let body = BODY.get_or_init(|| {
        let table = |prefix: &str| {
            serde_json::Value::Object(
                Lang::all()
                    .map(|l| {
                        let texts = tengen_words::texts(l, prefix)
                            .map(|(k, v)| (k.to_owned(), v.into()))
                            .collect();
                        (l.code().to_owned(), serde_json::Value::Object(texts))
                    })
                    .collect(),
            )
        };
        let languages: Vec<[&str; 2]> = Lang::all().map(|l| [l.code(), l.name()]).collect();
        format!(
            "// Made by the server from its catalogues of words (tengen-words).\n\
             export const LANGUAGES = {};\n\
             export const WORDS = {};\n\
             export const PRESET_NAMES = {};\n\
             export const PRESET_DESCRIPTIONS = {};\n",
            serde_json::json!(languages),
            table("page."),
            table("rules.name."),
            table("rules.description."),
        )
    });
    Asset {
        path: "/words.js",
        content_type: JS,
        body,
    }
}

/// Every file the page loads.
pub fn files() -> impl Iterator<Item = Asset> {
    [STYLE, words()].into_iter().chain(MODULES)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn served(path: &str) -> Option<Asset> {
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
        let all: Vec<Asset> = files().collect();
        for (i, a) in all.iter().enumerate() {
            assert!(
                all.iter().skip(i + 1).all(|b| b.path != a.path),
                "{} twice",
                a.path
            );
        }
        for a in MODULES.iter().skip(1).chain([&words()]) {
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

    /// Every word the page names by a literal key (`t("pass")`,
    /// `data-i18n="pass"`; `t("seat_" + seat)` by its beginning) is in the
    /// English catalogue, which every other catalogue matches
    /// (tengen-words' tests).
    #[test]
    fn every_word_the_page_names_is_in_the_catalogue() {
        let known: Vec<&str> = tengen_words::keys("page.").collect();
        let mut named = 0;
        for body in MODULES.iter().map(|a| a.body).chain([PAGE.body]) {
            let pieces: Vec<&str> = body.split("t(\"").collect();
            // `t("` as a call, not the end of `split("`.
            let calls = pieces
                .iter()
                .zip(pieces.iter().skip(1))
                .filter(|(before, _)| !before.ends_with(|c: char| c.is_alphanumeric() || c == '_'))
                .filter_map(|(_, rest)| {
                    let (key, after) = rest.split_once('"')?;
                    Some((key, after.trim_start().starts_with('+')))
                });
            let attributes = ["data-i18n=\"", "data-i18n-placeholder=\""]
                .into_iter()
                .flat_map(|marker| referenced(body, marker))
                .map(|key| (key, false));
            for (key, prefix) in calls.chain(attributes) {
                named += 1;
                let key = format!("page.{key}");
                let found = if prefix {
                    known.iter().any(|k| k.starts_with(&key))
                } else {
                    known.contains(&key.as_str())
                };
                assert!(found, "{key} is not in words/en.toml");
            }
        }
        assert!(named > 100, "only {named} keys found");
    }
}
