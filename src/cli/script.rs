//! `bterm script FILE.ron [--json]`: a scripted game of any ruleset (the
//! file names it), its events and final state printed, its expectations
//! checked. `bterm alpha --script` is the same for a script that names no
//! ruleset. The format: `docs/scripts.md`.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;

use super::{CliError, escape_lines, load_set};
use crate::cards::CardSet;
use crate::rules::RulesetId;
use crate::rules::script::{Report, ScriptError, run};

/// The largest script file read.
const MAX_SCRIPT: u64 = 1024 * 1024;

/// `bterm script`.
#[derive(Debug, Args)]
pub struct ScriptArgs {
    /// The script (RON; its first field names the game: `ruleset: Alpha,`).
    #[arg(value_name = "FILE.ron")]
    pub file: PathBuf,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
    /// Card files added to the set (a scenario's own test cards beside the
    /// sample set); a number the set already gives another card is refused.
    #[arg(long, value_name = "PATH")]
    pub add_cards: Option<PathBuf>,
}

pub(super) fn script(args: ScriptArgs) -> Result<(), CliError> {
    let mut set = load_set(args.cards.as_deref())?;
    if let Some(path) = &args.add_cards {
        let shown = escape_lines(&path.display().to_string());
        let own = load_set(Some(path))?;
        set = set.with_cards(own.cards()).map_err(|e| {
            CliError::failed(format!(
                "{}\nerror: the cards of {shown} do not go with the set they are added to \
                 (a number used twice?); renumber them and try again",
                escape_lines(&e.to_string())
            ))
        })?;
    }
    run_file(&args.file, args.json, &set, None)
}

/// Plays the script at `path` and prints it; `assume` is the game of a
/// script that names none.
pub(super) fn run_file(
    path: &Path,
    json: bool,
    set: &CardSet,
    assume: Option<RulesetId>,
) -> Result<(), CliError> {
    let shown = escape_lines(&path.display().to_string());
    let text = crate::save::read_text(path, MAX_SCRIPT)
        .map_err(|e| CliError::failed(format!("error: cannot read {shown}: {e}")))?;
    let report = run(&text, set, assume).map_err(|e| {
        let hint = match e {
            ScriptError::Setup(_) => "",
            _ => " (docs/scripts.md shows the format)",
        };
        CliError::failed(format!(
            "error: {shown}: {}{hint}",
            escape_lines(&e.to_string())
        ))
    })?;
    let mut out = std::io::stdout().lock();
    if json {
        // The ruleset's own fields (the Alpha's turn, waiting_for and
        // seats, as `bterm alpha --script --json` always printed them),
        // then the shared ones.
        let mut value = report.state.clone();
        for (k, v) in [
            ("ruleset", serde_json::json!(report.ruleset)),
            ("events", serde_json::json!(report.events)),
            ("outcome", serde_json::json!(report.outcome)),
            ("refused", serde_json::json!(report.refused)),
            ("expectations", serde_json::json!(report.expectations)),
            ("failures", serde_json::json!(report.failures)),
        ] {
            value.insert(k.to_string(), v);
        }
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
    } else {
        print_text(&mut out, &report);
    }
    if report.holds() {
        if report.expectations > 0 && !json {
            let _ = writeln!(out, "expectations: all {} hold", report.expectations);
        }
        return Ok(());
    }
    match (&report.refused, report.expectations) {
        (Some(r), 0) => Err(CliError::failed(format!(
            "error: {shown}: {}",
            escape_lines(&r.to_string())
        ))),
        _ => Err(CliError::failed(format!(
            "error: {shown}: {} of {} expectations fail:\n  {}",
            report.failures.len(),
            report.expectations,
            escape_lines(&report.failures.join("\n  "))
        ))),
    }
}

fn print_text(out: &mut impl std::io::Write, report: &Report) {
    for e in &report.events {
        let _ = writeln!(out, "[{:>3}] {}", e.step, escape_lines(&e.text));
    }
    for line in &report.state_lines {
        let _ = writeln!(out, "{}", escape_lines(line));
    }
    if let Some(o) = report.outcome {
        let said = match o {
            crate::rules::Outcome::Win(seat) => format!("{seat} wins"),
            crate::rules::Outcome::Draw => "a draw".to_string(),
        };
        let _ = writeln!(out, "outcome: {said}");
    } else if !report.waiting.is_empty() {
        let who: Vec<String> = report.waiting.iter().map(ToString::to_string).collect();
        let _ = writeln!(out, "waiting for {}", who.join(", "));
    }
    if let Some(r) = &report.refused {
        let _ = writeln!(out, "refused: {}", escape_lines(&r.to_string()));
    }
}
