//! KataGo's JSON form of rules: what `kata-set-rules` may be given
//! (`{"ko":"SIMPLE","scoring":"TERRITORY",...}`) and what `kata-get-rules`
//! answers. Each JSON field becomes its part of a KataGo rule string, which
//! core reads: one mapping from KataGo's words to rules, core's.

use crate::response::GtpError;
use serde_json::{Map, Value, json};
use tengen_core::{Points, Rules};

/// Reads KataGo's JSON rules. Fields left out take KataGo's defaults, as in
/// a rule string.
///
/// # Errors
/// A message naming what is wrong: text that is not a JSON object, an
/// unknown field, a value of the wrong type, or rules tengen cannot honour.
pub fn parse_json(text: &str) -> Result<Rules, GtpError> {
    let fields: Map<String, Value> = serde_json::from_str(text)
        .map_err(|e| GtpError::Other(format!("rules are not a JSON object: {e}")))?;
    from_fields(&fields)
}

/// Reads KataGo's JSON rules already parsed into an object.
///
/// # Errors
/// As [`parse_json`].
pub fn from_fields(fields: &Map<String, Value>) -> Result<Rules, GtpError> {
    let mut parts: Vec<String> = Vec::new();
    // A KataGo string starts with its scoring or its ko part.
    let scoring = match fields.get("scoring") {
        Some(v) => word(v, "scoring")?,
        None => "AREA",
    };
    parts.push(format!("score{scoring}"));
    for (key, value) in fields {
        let part = match key.as_str() {
            "scoring" => continue,
            "ko" => format!("ko{}", word(value, key)?),
            "tax" => format!("tax{}", word(value, key)?),
            "whiteHandicapBonus" => format!("whb{}", word(value, key)?),
            "suicide" => format!("sui{}", flag(value, key)?),
            "hasButton" => format!("button{}", flag(value, key)?),
            "friendlyPassOk" => format!("fpok{}", flag(value, key)?),
            "komi" => {
                let komi = value.as_f64().ok_or_else(|| wrong_type(key, "a number"))?;
                format!("komi{komi}")
            }
            _ => {
                return Err(GtpError::Other(format!(
                    "unknown rules field {key:?} (known: ko, scoring, tax, suicide, hasButton, whiteHandicapBonus, friendlyPassOk, komi)"
                )));
            }
        };
        parts.push(part);
    }
    parts
        .concat()
        .parse()
        .map_err(|e: tengen_core::ParseRulesError| GtpError::Other(e.to_string()))
}

/// Reads rules as `kata-set-rules` and KataGo's analysis queries take
/// them: a JSON object, or a preset name, alias or KataGo rule string.
///
/// # Errors
/// As [`parse_json`], or the known names when the text is none.
pub fn parse_any(text: &str) -> Result<Rules, GtpError> {
    if text.trim_start().starts_with('{') {
        return parse_json(text);
    }
    text.trim()
        .parse()
        .map_err(|e: tengen_core::ParseRulesError| GtpError::Other(e.to_string()))
}

/// The rules as KataGo's `kata-get-rules` writes them, with the game's
/// komi (fields in KataGo's alphabetical order).
pub fn to_json(rules: &Rules, komi: Points) -> String {
    to_value(rules, komi).to_string()
}

/// [`to_json`]'s object, before it is written.
pub fn to_value(rules: &Rules, komi: Points) -> Value {
    let k = rules.katago();
    json!({
        "friendlyPassOk": false,
        "hasButton": false,
        "ko": k.ko,
        "komi": f64::from(komi.in_eighths()) / 8.0,
        "scoring": k.scoring,
        "suicide": k.suicide,
        "tax": k.tax,
        "whiteHandicapBonus": k.white_handicap_bonus,
    })
}

fn word<'a>(value: &'a Value, key: &str) -> Result<&'a str, GtpError> {
    value.as_str().ok_or_else(|| wrong_type(key, "a string"))
}

fn flag(value: &Value, key: &str) -> Result<u8, GtpError> {
    value
        .as_bool()
        .map(u8::from)
        .ok_or_else(|| wrong_type(key, "true or false"))
}

fn wrong_type(key: &str, what: &str) -> GtpError {
    GtpError::Other(format!("rules field {key:?} must be {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::{HandicapCompensation, KoRule, Preset, Scoring, Suicide, Tax};

    #[test]
    fn katago_json_reads_into_rules() {
        let r = parse_json(
            r#"{"hasButton":false,"ko":"SIMPLE","scoring":"TERRITORY","suicide":false,"tax":"SEKI","whiteHandicapBonus":"0"}"#,
        )
        .unwrap();
        assert_eq!(r.ko, KoRule::Simple);
        assert_eq!(r.scoring, Scoring::Territory);
        assert_eq!(r.tax, Tax::Seki);
        assert_eq!(r.suicide, Suicide::Forbidden);
        assert_eq!(r.handicap_compensation, HandicapCompensation::None);
        let r = parse_json(r#"{"ko":"POSITIONAL","suicide":true,"tax":"NONE","komi":6}"#).unwrap();
        assert_eq!(
            (r.ko, r.scoring),
            (KoRule::Positional, Scoring::AreaDameNobody)
        );
        assert_eq!(r.komi, Points::whole(6));
    }

    #[test]
    fn bad_json_rules_are_named() {
        for (text, says) in [
            (r#"{"ko":"SIMPLE","colour":"red"}"#, "\"colour\""),
            (r#"{"ko":true}"#, "\"ko\" must be a string"),
            (r#"{"suicide":"yes"}"#, "\"suicide\" must be true or false"),
            (r#"{"tax":"ALL"}"#, "taxALL"),
            (r#"{"hasButton":true}"#, "button"),
            (r#"["ko"]"#, "not a JSON object"),
            (r#"{"ko":"SIMPLE""#, "not a JSON object"),
        ] {
            let Err(GtpError::Other(e)) = parse_json(text) else {
                panic!("{text} accepted");
            };
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn rules_write_as_katago_json_and_read_back() {
        let japanese = Preset::Japanese.rules();
        let text = to_json(&japanese, Points::halves(13));
        assert_eq!(
            text,
            r#"{"friendlyPassOk":false,"hasButton":false,"ko":"SIMPLE","komi":6.5,"scoring":"TERRITORY","suicide":false,"tax":"SEKI","whiteHandicapBonus":"0"}"#
        );
        let back = parse_json(&text).unwrap();
        assert_eq!(back.katago(), japanese.katago());
        assert_eq!(back.komi, japanese.komi);
    }
}
