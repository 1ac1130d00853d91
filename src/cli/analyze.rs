//! `bterm analyze`: the Terminal rules measured over the card set.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;

use super::{CliError, load_set};
use crate::ai::Strength;
use crate::cards::BattleType;

/// `bterm analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Battles between equal-Cost teams to play (at most 1,000,000).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub battles: u32,
    /// The CPU strength of both players: easy, normal or hard.
    #[arg(long, default_value = "normal", value_name = "STRENGTH")]
    pub level: Strength,
    /// Seed for team generation and battles.
    #[arg(long, default_value_t = 2006)]
    pub seed: u64,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
}

pub(super) fn analyze(args: AnalyzeArgs) -> Result<(), CliError> {
    let set = load_set(args.cards.as_deref())?;
    let r = crate::analysis::analyze(
        &set,
        args.battles as usize,
        [args.level, args.level],
        args.seed,
    );
    let mut out = std::io::stdout().lock();
    let w = |out: &mut std::io::StdoutLock<'_>, s: String| {
        writeln!(out, "{s}").map_err(|e| CliError::failed(format!("error: {e}")))
    };
    w(&mut out, "Stance payoff matrix (P1's points swing; rows P1's stance, columns P2's), averaged over every pair of Digimon:".into())?;
    w(&mut out, "        P2 A     P2 B     P2 C".into())?;
    for (i, row) in r.stance_matrix.iter().enumerate() {
        w(
            &mut out,
            format!(
                "P1 {}  {:>7.2}  {:>7.2}  {:>7.2}",
                BattleType::ALL[i],
                row[0],
                row[1],
                row[2]
            ),
        )?;
    }
    let dominant = if r.dominant_rows.is_empty() {
        "none".to_string()
    } else {
        format!("{:?}", r.dominant_rows)
    };
    w(&mut out, format!("Dominant row: {dominant}"))?;
    w(
        &mut out,
        format!(
            "Single matchups with a dominant stance: {:.1}%",
            100.0 * r.matchups_with_dominant_stance
        ),
    )?;
    let n = r.battles.max(1) as f64;
    w(
        &mut out,
        format!(
            "Equal-Cost battles ({:?} vs {:?}): {} — P1 wins {:.1}%, P2 wins {:.1}%, draws {:.1}%",
            args.level,
            args.level,
            r.battles,
            100.0 * r.results[0] as f64 / n,
            100.0 * r.results[1] as f64 / n,
            100.0 * r.results[2] as f64 / n
        ),
    )?;
    w(
        &mut out,
        format!(
            "Rounds per battle: mean {:.2}, median {}, range {}–{}",
            r.rounds.0, r.rounds.1, r.rounds.2, r.rounds.3
        ),
    )?;
    for (a, b) in [
        (Strength::Hard, Strength::Normal),
        (Strength::Hard, Strength::Easy),
        (Strength::Normal, Strength::Easy),
    ] {
        let [wa, wb, d] = crate::analysis::level_duel(&set, args.battles as usize, a, b, args.seed);
        let total = (wa + wb + d).max(1) as f64;
        let pct = |x: usize| 100.0 * x as f64 / total;
        w(
            &mut out,
            format!(
                "{a:?} vs {b:?} ({} battles, seats swapped): {a:?} wins {:.1}%, {b:?} wins {:.1}%, draws {:.1}%",
                wa + wb + d,
                pct(wa),
                pct(wb),
                pct(d)
            ),
        )?;
    }
    Ok(())
}
