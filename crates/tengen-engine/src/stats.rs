//! Match statistics: the win rate with its Wilson interval and the Elo
//! difference it implies.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of a proportion `score / n` (draws count a
/// half in `score`), at `z` standard deviations. `(0, 1)` without games.
pub fn wilson(score: f64, n: u32, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = f64::from(n);
    let p = (score / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference at which the stronger side scores `p` (logistic
/// model): infinite at 0 and 1.
pub fn elo(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// A match's result for engine A.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tally {
    /// Games played.
    pub games: u32,
    /// A's wins.
    pub a_wins: u32,
    /// B's wins.
    pub b_wins: u32,
    /// Draws and games without a result.
    pub draws: u32,
}

impl Tally {
    /// A's score rate, draws counting a half (0.5 without games).
    pub fn rate(&self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        (f64::from(self.a_wins) + f64::from(self.draws) / 2.0) / f64::from(self.games)
    }

    /// The 95% Wilson interval of [`Tally::rate`].
    pub fn interval(&self) -> (f64, f64) {
        wilson(
            f64::from(self.a_wins) + f64::from(self.draws) / 2.0,
            self.games,
            Z95,
        )
    }

    /// The summary lines: win rate with its interval, then the Elo
    /// difference A minus B with the interval mapped through [`elo`].
    pub fn summary(&self) -> String {
        let (lo, hi) = self.interval();
        format!(
            "games {}: A won {}, B won {}, draws or void {}\n\
             A win rate {:.1}% (95% Wilson interval {:.1}% to {:.1}%)\n\
             Elo A-B {} (95% interval {} to {})",
            self.games,
            self.a_wins,
            self.b_wins,
            self.draws,
            100.0 * self.rate(),
            100.0 * lo,
            100.0 * hi,
            signed(elo(self.rate())),
            signed(elo(lo)),
            signed(elo(hi)),
        )
    }
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_textbook() {
        // 90 of 100: the Wilson interval is 0.8256 to 0.9448.
        let (lo, hi) = wilson(90.0, 100, Z95);
        assert!((lo - 0.8256).abs() < 1e-3, "{lo}");
        assert!((hi - 0.9448).abs() < 1e-3, "{hi}");
        // 0 of 10: from 0 to 0.2775.
        let (lo, hi) = wilson(0.0, 10, Z95);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3, "{hi}");
        assert_eq!(wilson(0.0, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn elo_of_rates() {
        assert_eq!(elo(0.5), 0.0);
        assert!((elo(0.9) - 381.7).abs() < 0.1);
        assert!((elo(0.1) + 381.7).abs() < 0.1);
        assert_eq!(elo(1.0), f64::INFINITY);
    }

    #[test]
    fn summary_lines() {
        let t = Tally {
            games: 4,
            a_wins: 2,
            b_wins: 1,
            draws: 1,
        };
        assert_eq!(t.rate(), 0.625);
        let s = t.summary();
        assert!(
            s.starts_with(
                "games 4: A won 2, B won 1, draws or void 1\nA win rate 62.5% (95% Wilson interval "
            ),
            "{s}"
        );
        assert!(s.contains("Elo A-B +89 (95% interval -"), "{s}");
        let all = Tally {
            games: 2,
            a_wins: 2,
            b_wins: 0,
            draws: 0,
        };
        assert!(all.summary().contains("Elo A-B +inf"));
    }
}
