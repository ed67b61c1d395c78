//! Rule sets as data: one [`Rules`] value per way of playing, and the named
//! presets of the source texts.
//!
//! Every field is orthogonal; a preset is only a named value, and a user may
//! build any combination. Names are read case-insensitively with spaces,
//! hyphens and underscores ignored (`New Zealand` = `new-zealand` = `NZ`),
//! and KataGo rule strings (`koPOSITIONALscoreAREAtaxNONEsui1komi7.5`) map to
//! fields.

use crate::board::Suicide;
use crate::points::Points;
use std::fmt;
use std::str::FromStr;

/// Which repetitions a stone play may not create.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum KoRule {
    /// A stone play may not recreate the arrangement that stood just before
    /// the opponent's last turn (Strasbourg, "le second joueur doit attendre
    /// un tour"). Longer cycles are legal; when a whole situation occurs for
    /// the fourth time, play stops with no result.
    Simple,
    /// A stone play may not recreate any earlier arrangement (Chinese 2002
    /// art. 6, Tromp-Taylor).
    Positional,
    /// A stone play may not recreate an arrangement that stood earlier with
    /// the opponent to move (New Zealand: passes are moves; the start counts).
    Situational,
    /// A stone play may not recreate an arrangement the same player made
    /// earlier by one of his own stone plays; passes, handicap and setup
    /// create nothing (FFG §7: "un état identique à l'un de ceux qu'il lui
    /// avait déjà donné").
    NaturalSituational,
}

/// How play stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum EndOfPlay {
    /// Two consecutive passes (FFG §8, Strasbourg game 3).
    TwoPasses,
    /// By agreement: a player proposes to stop and the other accepts; two
    /// consecutive passes count as a proposal and its acceptance (New
    /// Zealand; Chinese 2002 art. 7 names agreement and two passes).
    Agreement,
}

/// How the final position is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Scoring {
    /// Stones + empty regions reaching the colour; a region reaching both
    /// colours counts for both (New Zealand's recursive territory).
    AreaDameBoth,
    /// Stones + regions reaching only the colour + half of every region
    /// reaching both (Chinese 2002 art. 9), shown as a margin in stones.
    AreaDameShared,
    /// Stones + regions reaching only the colour (FFG, Tromp-Taylor, AGA).
    AreaDameNobody,
    /// Stones on the board only (Strasbourg game 3).
    Stones,
    /// Regions reaching only the colour, eyes in seki aside, + prisoners
    /// (Japanese, Korean; for SGF compatibility).
    Territory,
    /// The player who captured more stones wins (the capture games when two
    /// passes end them before the goal).
    Captures,
}

impl Scoring {
    /// Whether the count is stones plus surrounded regions: play inside
    /// one's own area changes nothing, and a margin plus komi is whole.
    pub fn counts_area(self) -> bool {
        matches!(
            self,
            Scoring::AreaDameBoth | Scoring::AreaDameShared | Scoring::AreaDameNobody
        )
    }
}

/// Where handicap stones go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HandicapPlacement {
    /// On the fixed points of the GTP `fixed_handicap` table.
    Fixed,
    /// Anywhere Black chooses.
    Free,
    /// Traditionally on the fixed points, free placement allowed (FFG §9).
    FixedOrFree,
    /// Black plays the stones as moves while White passes its first n-1
    /// turns (New Zealand: "les blancs passent lors de leurs n-1 premiers coups").
    WhitePasses,
}

/// What White receives in a handicap game, instead of komi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HandicapCompensation {
    /// Nothing (New Zealand, Japanese, Tromp-Taylor).
    None,
    /// n points (Chinese: Black returns n/2 stones).
    N,
    /// n-1 points.
    NMinusOne,
    /// 0.5 + (n-1) points (FFG §9, AGA).
    HalfPlusNMinusOne,
}

impl HandicapCompensation {
    /// White's points in a game of `n` handicap stones (n >= 1; a handicap
    /// of 1 is an even game without komi).
    pub fn points(self, n: u32) -> Points {
        let base = match self {
            HandicapCompensation::HalfPlusNMinusOne => Points::halves(1),
            _ => Points::ZERO,
        };
        base + self.per_stone(n)
    }

    /// The part of [`HandicapCompensation::points`] that grows with the
    /// stones (nothing below two stones). GTP `komi` and SGF `KM` leave it
    /// out in a handicap game and state the rest (0.5 under FFG and AGA),
    /// as other programs expect.
    pub(crate) fn per_stone(self, n: u32) -> Points {
        // Saturating: a count past any board is refused by the game, and
        // must not overflow here either.
        let n = i32::try_from(n).unwrap_or(i32::MAX);
        match self {
            HandicapCompensation::None => Points::ZERO,
            HandicapCompensation::N if n >= 2 => Points::whole(n),
            HandicapCompensation::N => Points::ZERO,
            HandicapCompensation::NMinusOne | HandicapCompensation::HalfPlusNMinusOne => {
                Points::whole(n.saturating_sub(1).max(0))
            }
        }
    }
}

/// Whether passes hand stones to the opponent (the FFG quick count, AGA).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PassStones {
    /// Passes give nothing; no quick count.
    NotCounted,
    /// Each pass gives a stone to the opponent and the quick count is shown
    /// beside the area count (FFG "méthode de décompte rapide").
    Counted,
}

/// What the count takes from a player's points for the eyes of his groups
/// (KataGo's `tax` part of a rule string).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Tax {
    /// Nothing: the eyes of a group in seki count like any region reaching
    /// only its colour.
    None,
    /// The eyes of a group in seki count for nobody (Japanese, Korean).
    Seki,
}

/// A complete rule set. See the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rules {
    /// Repetition rule.
    pub ko: KoRule,
    /// Suicide.
    pub suicide: Suicide,
    /// How play stops.
    pub end: EndOfPlay,
    /// How the final position is counted.
    pub scoring: Scoring,
    /// Komi for White in an even game, exact.
    pub komi: Points,
    /// Where handicap stones go.
    pub handicap_placement: HandicapPlacement,
    /// White's points in a handicap game, replacing komi.
    pub handicap_compensation: HandicapCompensation,
    /// Captured stones that win at once (`Some(1)`: the first capture wins).
    pub capture_goal: Option<u32>,
    /// Whether passes hand stones over (quick count).
    pub pass_stones: PassStones,
    /// What the eyes of groups in seki count.
    pub tax: Tax,
}

/// The named rule sets of the source texts (RULES.md section 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Preset {
    /// New Zealand Go Society, 1978.
    NewZealand,
    /// Chinese Weiqi Association, 2002, articles 1-9.
    Chinese,
    /// Fédération Française de Go.
    Ffg,
    /// Strasbourg game 3: go won by the most stones on the board.
    Strasbourg,
    /// Strasbourg game 1: the first capture wins.
    FirstCapture,
    /// Strasbourg game 2: the first to capture five stones wins.
    CaptureFive,
    /// Tromp-Taylor (computer go).
    TrompTaylor,
    /// American Go Association.
    Aga,
    /// Japanese (territory scoring, for SGF compatibility).
    Japanese,
}

impl Preset {
    /// Every preset, in the order of RULES.md section 7.
    pub const ALL: [Preset; 9] = [
        Preset::NewZealand,
        Preset::Chinese,
        Preset::Ffg,
        Preset::Strasbourg,
        Preset::FirstCapture,
        Preset::CaptureFive,
        Preset::TrompTaylor,
        Preset::Aga,
        Preset::Japanese,
    ];

    /// The canonical name.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::NewZealand => "nz",
            Preset::Chinese => "chinese",
            Preset::Ffg => "ffg",
            Preset::Strasbourg => "strasbourg",
            Preset::FirstCapture => "first-capture",
            Preset::CaptureFive => "capture-five",
            Preset::TrompTaylor => "tromp-taylor",
            Preset::Aga => "aga",
            Preset::Japanese => "japanese",
        }
    }

    /// Other names accepted, normalised (lowercase, no spaces, hyphens or
    /// underscores), including the SGF `RU[]` values found in the wild.
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            Preset::NewZealand => &["nz", "newzealand"],
            Preset::Chinese => &[
                "chinese",
                "cn",
                "zh",
                "chinese2002",
                "chineseogs",
                "chinesekgs",
            ],
            Preset::Ffg => &["ffg", "french", "france"],
            Preset::Strasbourg => &["strasbourg"],
            Preset::FirstCapture => &["firstcapture", "atarigo"],
            Preset::CaptureFive => &["capturefive", "capture5"],
            Preset::TrompTaylor => &["tromptaylor", "tt"],
            Preset::Aga => &["aga", "bga"],
            Preset::Japanese => &["japanese", "jp", "ja", "korean", "kr"],
        }
    }

    /// One line saying what the preset is.
    pub const fn description(self) -> &'static str {
        match self {
            Preset::NewZealand => {
                "New Zealand 1978: area with shared regions for both, suicide allowed, situational superko, stop by agreement, komi 7"
            }
            Preset::Chinese => {
                "Chinese 2002: area, dame shared, no suicide, no repeated board, Black needs more than 184.25 on 19x19"
            }
            Preset::Ffg => {
                "French Federation: area, no suicide, a player may not recreate a board he made, komi 7.5, quick count"
            }
            Preset::Strasbourg => {
                "Strasbourg game 3: the most stones on the board after two passes wins, simple ko"
            }
            Preset::FirstCapture => "Strasbourg game 1: the first player to capture a chain wins",
            Preset::CaptureFive => {
                "Strasbourg game 2: the first player to capture five stones in all wins"
            }
            Preset::TrompTaylor => {
                "Tromp-Taylor: area, suicide allowed, positional superko, two passes"
            }
            Preset::Aga => "AGA: area with pass stones, situational superko, no suicide, komi 7.5",
            Preset::Japanese => {
                "Japanese: territory and prisoners, simple ko (long cycles void), komi 6.5"
            }
        }
    }

    /// The source text the preset follows.
    pub const fn source(self) -> &'static str {
        match self {
            Preset::NewZealand => "Règles néo-zélandaises (NZGS 1978), trad. F. Lorrain",
            Preset::Chinese => "Règle chinoise 2002, art. 1-9",
            Preset::Ffg => {
                "Règle officielle de la Fédération Française de Go, §1-9 and the quick count"
            }
            Preset::Strasbourg | Preset::FirstCapture | Preset::CaptureFive => {
                "La « règle strasbourgeoise » du jeu de go"
            }
            Preset::TrompTaylor => "Tromp-Taylor rules (not in the texts; computer go)",
            Preset::Aga => "AGA concise rules (not in the texts)",
            Preset::Japanese => "Japanese rules (not in the texts; SGF compatibility)",
        }
    }

    /// The rules of this preset.
    pub const fn rules(self) -> Rules {
        use HandicapCompensation as C;
        use HandicapPlacement as H;
        let base = Rules {
            ko: KoRule::Simple,
            suicide: Suicide::Forbidden,
            end: EndOfPlay::TwoPasses,
            scoring: Scoring::AreaDameNobody,
            komi: Points::halves(15),
            handicap_placement: H::Fixed,
            handicap_compensation: C::None,
            capture_goal: None,
            pass_stones: PassStones::NotCounted,
            tax: Tax::None,
        };
        match self {
            Preset::NewZealand => Rules {
                ko: KoRule::Situational,
                suicide: Suicide::Allowed,
                end: EndOfPlay::Agreement,
                scoring: Scoring::AreaDameBoth,
                komi: Points::whole(7),
                handicap_placement: H::WhitePasses,
                ..base
            },
            Preset::Chinese => Rules {
                ko: KoRule::Positional,
                end: EndOfPlay::Agreement,
                scoring: Scoring::AreaDameShared,
                handicap_placement: H::Free,
                handicap_compensation: C::N,
                ..base
            },
            Preset::Ffg => Rules {
                ko: KoRule::NaturalSituational,
                handicap_placement: H::FixedOrFree,
                handicap_compensation: C::HalfPlusNMinusOne,
                pass_stones: PassStones::Counted,
                ..base
            },
            Preset::Strasbourg => Rules {
                scoring: Scoring::Stones,
                komi: Points::ZERO,
                ..base
            },
            Preset::FirstCapture => Rules {
                scoring: Scoring::Captures,
                komi: Points::ZERO,
                capture_goal: Some(1),
                ..base
            },
            Preset::CaptureFive => Rules {
                scoring: Scoring::Captures,
                komi: Points::ZERO,
                capture_goal: Some(5),
                ..base
            },
            Preset::TrompTaylor => Rules {
                ko: KoRule::Positional,
                suicide: Suicide::Allowed,
                handicap_placement: H::Free,
                ..base
            },
            Preset::Aga => Rules {
                ko: KoRule::Situational,
                handicap_compensation: C::HalfPlusNMinusOne,
                pass_stones: PassStones::Counted,
                ..base
            },
            Preset::Japanese => Rules {
                scoring: Scoring::Territory,
                komi: Points::halves(13),
                tax: Tax::Seki,
                ..base
            },
        }
    }

    /// The preset named `name` (canonical name or alias, any case, spaces,
    /// hyphens and underscores ignored).
    pub fn from_name(name: &str) -> Option<Preset> {
        let key = normalise(name);
        Preset::ALL
            .into_iter()
            .find(|p| p.aliases().contains(&key.as_str()) || normalise(p.name()) == key)
    }

    /// Every canonical name, comma separated (for error messages).
    pub fn known_names() -> String {
        Preset::ALL.map(Preset::name).join(", ")
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '\t'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The fields of KataGo's rules (its `kata-get-rules` JSON), as KataGo
/// spells their values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KataGoRules {
    /// `SIMPLE`, `POSITIONAL` or `SITUATIONAL`.
    pub ko: &'static str,
    /// `AREA` or `TERRITORY`.
    pub scoring: &'static str,
    /// `NONE` or `SEKI`.
    pub tax: &'static str,
    /// Whether multi-stone suicide is legal.
    pub suicide: bool,
    /// `0`, `N-1` or `N`.
    pub white_handicap_bonus: &'static str,
}

/// Why a rules name was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseRulesError {
    /// Neither a preset, an alias, nor a KataGo rules string.
    #[error(
        "unknown rules {name:?}: known rules are {known} (aliases such as NZ, Chinese, CN, French, Japanese, JP, AGA, TT are accepted, and KataGo strings such as koPOSITIONALscoreAREAtaxNONEsui1)"
    )]
    Unknown {
        /// The name given.
        name: String,
        /// The canonical names.
        known: String,
    },
    /// A KataGo string with a part tengen cannot honour exactly.
    #[error("KataGo rules {name:?}: {what}")]
    Unsupported {
        /// The string given.
        name: String,
        /// What is not supported.
        what: String,
    },
}

impl Rules {
    /// The preset these rules are, if any.
    pub fn preset(&self) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.rules() == *self)
    }

    /// The preset's name if these are a preset's rules, else a KataGo-style
    /// string of the fields that KataGo can say, prefixed with `tengen:` for
    /// the rest.
    pub fn name(&self) -> String {
        match self.preset() {
            Some(p) => p.name().to_string(),
            None => format!(
                "custom ({})",
                self.fields()
                    .iter()
                    .map(|(k, v)| format!("{k}: {v}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        }
    }

    /// Whether dead stones are removed by agreement at the end (not in the
    /// capture games, not when only stones count: Strasbourg game 3 "on
    /// laisse deux yeux à chaque groupe pour qu'il soit imprenable").
    pub fn removes_dead_stones(&self) -> bool {
        !matches!(self.scoring, Scoring::Stones | Scoring::Captures)
    }

    /// Every field with a readable value, in a fixed order (for tables).
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        vec![
            ("repetition", self.ko.to_string()),
            ("suicide", self.suicide_text().to_string()),
            ("end of play", self.end.to_string()),
            ("scoring", self.scoring.to_string()),
            ("komi", self.komi.to_string()),
            ("handicap placement", self.handicap_placement.to_string()),
            (
                "handicap compensation",
                self.handicap_compensation.to_string(),
            ),
            (
                "capture goal",
                match self.capture_goal {
                    None => "none".to_string(),
                    Some(1) => "first capture".to_string(),
                    Some(n) => format!("{n} captured stones"),
                },
            ),
            (
                "pass stones",
                match self.pass_stones {
                    PassStones::NotCounted => "no".to_string(),
                    PassStones::Counted => "yes (quick count shown)".to_string(),
                },
            ),
            (
                "eyes in seki",
                match self.tax {
                    Tax::None => "counted".to_string(),
                    Tax::Seki => "count for nobody".to_string(),
                },
            ),
            (
                "dead stones",
                if self.removes_dead_stones() {
                    "removed by agreement".to_string()
                } else {
                    "never removed (must be captured)".to_string()
                },
            ),
        ]
    }

    fn suicide_text(&self) -> &'static str {
        match self.suicide {
            Suicide::Forbidden => "forbidden",
            Suicide::MultiStone => "multi-stone only",
            Suicide::Allowed => "allowed (single and multi-stone)",
        }
    }

    /// The KataGo rule fields closest to these rules. KataGo has no natural
    /// situational superko, stone or capture counting, agreement, shared
    /// dame, FFG's half point or capture goals: those fields are said as
    /// their nearest KataGo value, so prefer [`Rules::name`] for anything
    /// tengen reads back.
    pub fn katago(&self) -> KataGoRules {
        KataGoRules {
            ko: match self.ko {
                KoRule::Simple => "SIMPLE",
                KoRule::Positional => "POSITIONAL",
                KoRule::Situational | KoRule::NaturalSituational => "SITUATIONAL",
            },
            scoring: match self.scoring {
                Scoring::Territory => "TERRITORY",
                _ => "AREA",
            },
            tax: match self.tax {
                Tax::None => "NONE",
                Tax::Seki => "SEKI",
            },
            suicide: self.suicide != Suicide::Forbidden,
            white_handicap_bonus: match self.handicap_compensation {
                HandicapCompensation::None => "0",
                HandicapCompensation::N => "N",
                HandicapCompensation::NMinusOne | HandicapCompensation::HalfPlusNMinusOne => "N-1",
            },
        }
    }

    /// The KataGo rules string closest to these rules (`koPOSITIONALscoreAREA
    /// taxNONEsui0whbNkomi7.5`), as [`Rules::katago`].
    pub fn katago_string(&self) -> String {
        let k = self.katago();
        format!(
            "ko{}score{}tax{}sui{}whb{}komi{}",
            k.ko,
            k.scoring,
            k.tax,
            u8::from(k.suicide),
            k.white_handicap_bonus,
            self.komi
        )
    }

    /// Reads a KataGo rules string (`koSIMPLEscoreAREAtaxNONEsui0whbNkomi7.5`;
    /// missing parts default as KataGo does).
    fn from_katago(text: &str) -> Result<Rules, ParseRulesError> {
        let unknown = || ParseRulesError::Unknown {
            name: text.to_string(),
            known: Preset::known_names(),
        };
        let unsupported = |what: &str| ParseRulesError::Unsupported {
            name: text.to_string(),
            what: what.to_string(),
        };
        let lower = text.trim().to_ascii_lowercase();
        if !(lower.starts_with("ko") || lower.starts_with("score")) {
            return Err(unknown());
        }
        let mut rules = Preset::TrompTaylor.rules();
        rules.suicide = Suicide::MultiStone;
        let mut territory = false;
        let mut tax: Option<Tax> = None;
        let mut komi: Option<Points> = None;
        let mut rest = lower.as_str();
        let take = |rest: &mut &str, options: &[&'static str]| -> Option<&'static str> {
            let found = options.iter().find(|o| rest.starts_with(**o)).copied()?;
            *rest = &rest[found.len()..];
            Some(found)
        };
        while !rest.is_empty() {
            let key = take(
                &mut rest,
                &[
                    "scoring", "score", "komi", "ko", "tax", "sui", "button", "whb", "fpok",
                ],
            )
            .ok_or_else(unknown)?;
            match key {
                "ko" => {
                    rules.ko = match take(
                        &mut rest,
                        &["simple", "positional", "situational", "spight"],
                    ) {
                        Some("positional") => KoRule::Positional,
                        Some("situational") => KoRule::Situational,
                        Some(_) => KoRule::Simple,
                        None => return Err(unknown()),
                    }
                }
                "score" | "scoring" => {
                    territory = match take(&mut rest, &["area", "territory"]) {
                        Some("area") => false,
                        Some(_) => true,
                        None => return Err(unknown()),
                    }
                }
                "tax" => {
                    tax = match take(&mut rest, &["none", "seki", "all"]) {
                        Some("none") => Some(Tax::None),
                        Some("seki") => Some(Tax::Seki),
                        Some(_) => {
                            return Err(unsupported(
                                "the group tax (taxALL, two points per group) is not supported; taxNONE and taxSEKI are",
                            ));
                        }
                        None => return Err(unknown()),
                    }
                }
                "sui" => {
                    rules.suicide = match take(&mut rest, &["0", "1"]) {
                        Some("0") => Suicide::Forbidden,
                        Some(_) => Suicide::MultiStone,
                        None => return Err(unknown()),
                    }
                }
                "button" => match take(&mut rest, &["0", "1"]) {
                    Some("0") => {}
                    Some(_) => return Err(unsupported("the button is not supported")),
                    None => return Err(unknown()),
                },
                "whb" => {
                    rules.handicap_compensation = match take(&mut rest, &["n-1", "n", "0"]) {
                        Some("n-1") => HandicapCompensation::NMinusOne,
                        Some("n") => HandicapCompensation::N,
                        Some(_) => HandicapCompensation::None,
                        None => return Err(unknown()),
                    }
                }
                "fpok" => {
                    take(&mut rest, &["0", "1"]).ok_or_else(unknown)?;
                }
                _ => {
                    let end = rest
                        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
                        .unwrap_or(rest.len());
                    let value = rest[..end]
                        .parse::<Points>()
                        .map_err(|e| unsupported(&e.to_string()))?;
                    komi = Some(value);
                    rest = &rest[end..];
                }
            }
        }
        // KataGo's defaults: seki eyes count by area, not by territory.
        rules.tax = tax.unwrap_or(if territory { Tax::Seki } else { Tax::None });
        rules.scoring = if territory {
            Scoring::Territory
        } else {
            Scoring::AreaDameNobody
        };
        rules.komi = komi.unwrap_or(if territory {
            Points::halves(13)
        } else {
            Points::halves(15)
        });
        Ok(rules)
    }
}

impl FromStr for Rules {
    type Err = ParseRulesError;

    /// A preset name or alias, or a KataGo rules string.
    fn from_str(s: &str) -> Result<Rules, ParseRulesError> {
        match Preset::from_name(s) {
            Some(p) => Ok(p.rules()),
            None => Rules::from_katago(s),
        }
    }
}

impl fmt::Display for KoRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KoRule::Simple => "simple ko (fourth repetition: no result)",
            KoRule::Positional => "positional superko",
            KoRule::Situational => "situational superko",
            KoRule::NaturalSituational => "natural situational superko",
        })
    }
}

impl fmt::Display for EndOfPlay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndOfPlay::TwoPasses => "two passes",
            EndOfPlay::Agreement => "agreement (two passes count as agreement)",
        })
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scoring::AreaDameBoth => "area, dame for both",
            Scoring::AreaDameShared => "area, dame shared (margin in stones)",
            Scoring::AreaDameNobody => "area, dame to nobody",
            Scoring::Stones => "stones on the board",
            Scoring::Territory => "territory and prisoners",
            Scoring::Captures => "captured stones",
        })
    }
}

impl fmt::Display for HandicapPlacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HandicapPlacement::Fixed => "fixed",
            HandicapPlacement::Free => "free",
            HandicapPlacement::FixedOrFree => "fixed or free",
            HandicapPlacement::WhitePasses => "free, White passes n-1 times",
        })
    }
}

impl fmt::Display for HandicapCompensation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HandicapCompensation::None => "none",
            HandicapCompensation::N => "n",
            HandicapCompensation::NMinusOne => "n-1",
            HandicapCompensation::HalfPlusNMinusOne => "0.5 + (n-1)",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_names_its_preset_and_presets_are_distinct() {
        for p in Preset::ALL {
            assert_eq!(Preset::from_name(p.name()), Some(p));
            for a in p.aliases() {
                assert_eq!(Preset::from_name(a), Some(p), "{a}");
            }
            assert_eq!(p.rules().preset(), Some(p));
        }
        for (name, p) in [
            ("New Zealand", Preset::NewZealand),
            ("CHINESE", Preset::Chinese),
            ("French", Preset::Ffg),
            ("Tromp-Taylor", Preset::TrompTaylor),
            ("tromp_taylor", Preset::TrompTaylor),
            ("Korean", Preset::Japanese),
            ("JP", Preset::Japanese),
            ("First Capture", Preset::FirstCapture),
        ] {
            assert_eq!(Preset::from_name(name), Some(p), "{name}");
        }
    }

    #[test]
    fn unknown_names_list_the_known_ones() {
        let err = "ing".parse::<Rules>().unwrap_err().to_string();
        for p in Preset::ALL {
            assert!(err.contains(p.name()), "{err}");
        }
    }

    #[test]
    fn katago_strings_map_to_fields() {
        let r: Rules = "koSITUATIONALscoreAREAtaxNONEsui1whbN-1fpok1komi7"
            .parse()
            .unwrap();
        assert_eq!(r.ko, KoRule::Situational);
        assert_eq!(r.suicide, Suicide::MultiStone);
        assert_eq!(r.handicap_compensation, HandicapCompensation::NMinusOne);
        assert_eq!(r.komi, Points::whole(7));
        let j: Rules = "koSIMPLEscoreTERRITORYtaxSEKIsui0".parse().unwrap();
        assert_eq!(j.scoring, Scoring::Territory);
        assert_eq!(j.komi, Points::halves(13));
        assert_eq!(j.tax, Tax::Seki);
        let seki_counted: Rules = "koSIMPLEscoreTERRITORYtaxNONE".parse().unwrap();
        assert_eq!(seki_counted.tax, Tax::None);
        let seki_taxed: Rules = "scoreAREAtaxSEKI".parse().unwrap();
        assert_eq!(
            (seki_taxed.scoring, seki_taxed.tax),
            (Scoring::AreaDameNobody, Tax::Seki)
        );
        assert!(seki_taxed.katago_string().contains("taxSEKI"));
        let all = "koSIMPLEscoreAREAtaxALL".parse::<Rules>().unwrap_err();
        assert!(all.to_string().contains("taxALL"), "{all}");
        assert!("koWHATEVER".parse::<Rules>().is_err());
        assert!("scoreAREAbutton1".parse::<Rules>().is_err());
    }
}
