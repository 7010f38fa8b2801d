//! The five named presets of reaction-time.md section 5.2.

use super::{Dist, ReactionModel};

/// A named reaction-time preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Slow, distractible beginner (~27 cards/min).
    Novice,
    /// Average adult at normal pace (~37 cards/min).
    Casual,
    /// Practised player with some pipelining (~58 cards/min).
    Skilled,
    /// Near record pace (~83 cards/min).
    Expert,
    /// Constant super-human reference: 50 ms look, 100 ms per movement, no noise.
    Machine,
}

/// All presets, slowest first.
pub const ALL_PRESETS: [Preset; 5] = [Preset::Novice, Preset::Casual, Preset::Skilled, Preset::Expert, Preset::Machine];

impl Preset {
    /// The preset's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Novice => "novice",
            Preset::Casual => "casual",
            Preset::Skilled => "skilled",
            Preset::Expert => "expert",
            Preset::Machine => "machine",
        }
    }

    /// Parses a preset name.
    pub fn parse(s: &str) -> Result<Preset, String> {
        ALL_PRESETS.iter().copied().find(|p| p.name() == s).ok_or_else(|| {
            let names: Vec<&str> = ALL_PRESETS.iter().map(|p| p.name()).collect();
            format!("unknown reaction preset '{}'; known presets: {}", crate::output::quote::clip(s), names.join(", "))
        })
    }

    /// The preset's parameters (reaction-time.md table 5.2).
    pub fn model(self) -> ReactionModel {
        // (look μ, σ, τ), scan, hick, fitts a, b, grasp+release, cv, overlap, (slap μ, σ, τ), floor, miss, fumble
        type Row = ((f64, f64, f64), f64, f64, f64, f64, f64, f64, f64, (f64, f64, f64), f64, f64, f64);
        let row: Row = match self {
            Preset::Novice => ((450.0, 80.0, 250.0), 60.0, 180.0, 150.0, 150.0, 200.0, 0.15, 0.0, (300.0, 45.0, 110.0), 150.0, 0.10, 0.04),
            Preset::Casual => ((350.0, 60.0, 150.0), 45.0, 150.0, 100.0, 120.0, 144.0, 0.12, 0.0, (240.0, 30.0, 60.0), 130.0, 0.05, 0.03),
            Preset::Skilled => ((280.0, 45.0, 90.0), 35.0, 100.0, 70.0, 100.0, 110.0, 0.10, 0.4, (200.0, 22.0, 35.0), 120.0, 0.03, 0.02),
            Preset::Expert => ((230.0, 35.0, 60.0), 25.0, 60.0, 50.0, 85.0, 90.0, 0.08, 0.6, (180.0, 18.0, 25.0), 110.0, 0.015, 0.015),
            Preset::Machine => {
                return ReactionModel {
                    look: Dist::Constant(50.0),
                    scan_per_item: 0.0,
                    hick_b: 0.0,
                    fitts_a: 100.0,
                    fitts_b: 0.0,
                    grasp_release: 0.0,
                    motor_cv: 0.0,
                    overlap: 1.0,
                    simple: Dist::Constant(100.0),
                    p_miss: 0.0,
                    p_fumble: 0.0,
                }
            }
        };
        let ((lm, ls, lt), scan, hick, fa, fb, gr, cv, overlap, (sm, ss, st), floor, miss, fumble) = row;
        ReactionModel {
            look: Dist::ExGaussian { mu: lm, sigma: ls, tau: lt, floor },
            scan_per_item: scan,
            hick_b: hick,
            fitts_a: fa,
            fitts_b: fb,
            grasp_release: gr,
            motor_cv: cv,
            overlap,
            simple: Dist::ExGaussian { mu: sm, sigma: ss, tau: st, floor },
            p_miss: miss,
            p_fumble: fumble,
        }
    }
}
