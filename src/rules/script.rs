//! Scripted games for every ruleset: a rules scenario anyone can write
//! without Rust (`bterm script FILE.ron`). A script is a RON file whose
//! first field names its ruleset (`ruleset: Alpha`); the rest is that
//! ruleset's own: the cards each seat brings in a fixed order, the steps
//! (who, and what in words) and what must hold at the end. [`run`] reads
//! it, plays it through the ruleset's [`Scripted`] impl and returns a
//! [`Report`] that every ruleset fills the same way. The format is in
//! `docs/scripts.md`.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{Outcome, Reply, Ruleset, RulesetId, Seat, make_dispatch, registered};
use crate::cards::CardSet;

/// A ruleset that plays scripts.
pub trait Scripted: Ruleset<Event: Serialize> {
    /// A script of this ruleset, as its file holds it.
    type Script: DeserializeOwned;

    /// Plays `script`: its setup, then its steps in order (a refused step
    /// stops it), then its expectations. `Err` when the script cannot
    /// start (an unknown card, a setup the rules refuse).
    fn play_script(script: &Self::Script, cards: &CardSet) -> Result<Report, String>;

    /// The text of the script's `SetupRefused(text)` expectation, if it
    /// states one (it expects the rules to refuse its decks or teams), and
    /// how many expectations it states in all.
    fn expects_refused_setup(script: &Self::Script) -> Option<(&str, usize)>;
}

/// A step the rules refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("step {index} ({seat} \"{text}\") is refused: {reason}")]
pub struct StepError {
    /// 1-based (`step` in JSON).
    #[serde(rename = "step")]
    pub index: usize,
    /// Who.
    pub seat: Seat,
    /// As written.
    pub text: String,
    /// Why.
    pub reason: String,
}

/// One event of a scripted game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScriptEvent {
    /// The 1-based step it came from (0: before the first).
    pub step: usize,
    /// In words.
    pub text: String,
    /// As data.
    pub event: serde_json::Value,
}

/// A script played, the same shape for every ruleset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The ruleset.
    pub ruleset: RulesetId,
    /// Every event, the opening ones first.
    pub events: Vec<ScriptEvent>,
    /// The state where the script stopped, in lines.
    pub state_lines: Vec<String>,
    /// The same as data: an object whose fields are the ruleset's own
    /// (they are the top-level fields of `bterm script --json`).
    pub state: serde_json::Map<String, serde_json::Value>,
    /// How the game ended, if it did.
    pub outcome: Option<Outcome>,
    /// Who is asked next, if the game goes on.
    pub waiting: Vec<Seat>,
    /// The step the rules refused, if one stopped the script.
    pub refused: Option<StepError>,
    /// How many expectations the script states.
    pub expectations: usize,
    /// The expectations that do not hold, each in words (a refusal the
    /// script did not expect is one).
    pub failures: Vec<String>,
}

impl Report {
    /// The report of a script whose setup the rules refused, as its
    /// `SetupRefused(text)` expects (or not: the text is not in `why`).
    /// No game began, so its other expectations cannot hold.
    fn refused_setup(ruleset: RulesetId, why: &str, text: &str, expectations: usize) -> Report {
        let mut failures = Vec::new();
        if !why.contains(text) {
            failures.push(format!(
                "expected SetupRefused({text:?}); found the setup refused: {why}"
            ));
        }
        if expectations > 1 {
            let others = expectations - 1;
            failures.push(format!(
                "{others} other expectation{} cannot hold: the setup was refused, so no game began",
                if others == 1 { "" } else { "s" }
            ));
        }
        Report {
            ruleset,
            events: Vec::new(),
            state_lines: vec![format!("--- the setup was refused: {why} ---")],
            state: serde_json::Map::from_iter([(
                "setup_refused".to_string(),
                serde_json::json!(why),
            )]),
            outcome: None,
            waiting: Vec::new(),
            refused: None,
            expectations,
            failures,
        }
    }

    /// Whether the script ran as it says: every expectation holds (with
    /// none stated, no step was refused).
    pub fn holds(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Why a script file cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    /// Not RON, or not a script of its ruleset.
    #[error("not a {what} script: {why}")]
    Format {
        /// The ruleset's name, or "bterm".
        what: String,
        /// The parser's words.
        why: String,
    },
    /// The file names no ruleset.
    #[error("the script does not name its game: begin it with `ruleset: R,` where R is one of {0}")]
    NoRuleset(String),
    /// The script cannot start.
    #[error("{0}")]
    Setup(String),
}

/// Something to do with a scripted ruleset chosen at run time.
pub trait ScriptVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work with ruleset `R`.
    fn visit<R: Scripted>(self) -> Self::Output;
}

registered!(make_dispatch!(pub ScriptVisitor;));

/// The one field every script shares.
#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    ruleset: Option<RulesetId>,
}

/// The ruleset a script names, if it names one.
pub fn ruleset_of(text: &str) -> Result<Option<RulesetId>, ScriptError> {
    crate::cards::read_ron::<Head>(text)
        .map(|h| h.ruleset)
        .map_err(|e| ScriptError::Format {
            what: "bterm".to_string(),
            why: e.to_string(),
        })
}

/// Reads and plays a script. `assume` is the ruleset of a script that
/// names none (`bterm alpha --script`); else it must name one.
pub fn run(text: &str, cards: &CardSet, assume: Option<RulesetId>) -> Result<Report, ScriptError> {
    let named = ruleset_of(text)?;
    let id = named
        .or(assume)
        .ok_or_else(|| ScriptError::NoRuleset(every_variant()))?;
    if let (Some(n), Some(a)) = (named, assume)
        && n != a
    {
        return Err(ScriptError::Setup(format!(
            "the script is for the {n}, not the {a}: play it with `bterm script`"
        )));
    }
    struct Play<'a>(&'a str, &'a CardSet);
    impl ScriptVisitor for Play<'_> {
        type Output = Result<Report, ScriptError>;
        fn visit<R: Scripted>(self) -> Self::Output {
            let script: R::Script =
                crate::cards::read_ron(self.0).map_err(|e| ScriptError::Format {
                    what: R::NAME.to_string(),
                    why: e.to_string(),
                })?;
            let played = R::play_script(&script, self.1);
            match (played, R::expects_refused_setup(&script)) {
                (Err(why), Some((text, expectations))) => {
                    Ok(Report::refused_setup(R::ID, &why, text, expectations))
                }
                (played, _) => played.map_err(ScriptError::Setup),
            }
        }
    }
    dispatch(id, Play(text, cards))
}

/// Every ruleset as a script names it (`Terminal, Alpha`).
fn every_variant() -> String {
    RulesetId::ALL
        .iter()
        .map(|id| format!("{id:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Plays `steps` on `game`: each typed as a person types it at the
/// terminal, read by `read` (the default: the keys of the seat's question,
/// [`keys`]). Declined offers stay declined until the seat acts, as at a
/// table. Returns the events with their steps and the refused step.
pub fn play_steps<R: Ruleset>(
    game: &mut R,
    steps: &[(Seat, String)],
    cards: &CardSet,
    read: impl Fn(&R, Seat, &str, &[R::Action]) -> Result<Reply<R::Action>, String>,
) -> (Vec<(usize, R::Event)>, Option<StepError>) {
    let mut events: Vec<(usize, R::Event)> = game
        .opening_events()
        .iter()
        .map(|e| (0, e.clone()))
        .collect();
    let mut passed: Vec<Vec<R::Action>> = vec![Vec::new(); game.seats()];
    for (i, (seat, text)) in steps.iter().enumerate() {
        let refuse = |reason: String| StepError {
            index: i + 1,
            seat: *seat,
            text: text.clone(),
            reason,
        };
        let Some(mine) = passed.get(seat.index()).cloned() else {
            let reason = format!("the game has {} seats", game.seats());
            return (events, Some(refuse(reason)));
        };
        let reply = match read(game, *seat, text, &mine) {
            Ok(r) => r,
            Err(reason) => return (events, Some(refuse(reason))),
        };
        match reply {
            Reply::Pass => {
                let offered = game
                    .question(*seat, &mine, cards)
                    .map(|q| q.answers)
                    .unwrap_or_default();
                passed[seat.index()].extend(offered);
            }
            Reply::Act(a) => match game.apply(*seat, a) {
                Ok(evs) => {
                    passed[seat.index()].clear();
                    events.extend(evs.into_iter().map(|e| (i + 1, e)));
                }
                Err(e) => return (events, Some(refuse(e.reason))),
            },
        }
    }
    (events, None)
}

/// Reads a step as the keys of the seat's question now (what a person
/// types at the terminal): `Err` says why not, with the keys it takes.
pub fn keys<R: Ruleset>(
    game: &R,
    seat: Seat,
    text: &str,
    passed: &[R::Action],
    cards: &CardSet,
) -> Result<Reply<R::Action>, String> {
    let Some(q) = game.question(seat, passed, cards) else {
        return Err(format!("{seat} is asked nothing now"));
    };
    q.prompt.reply(text).ok_or_else(|| {
        // A move the rules can explain: the rule that stops it.
        if let Some(why) = game.refusal(seat, text, cards) {
            return why;
        }
        let keys: Vec<&str> = q.prompt.keys.iter().map(|(k, _)| k.as_str()).collect();
        format!(
            "\"{}\" is not an answer to \"{}\"; the keys are {}",
            text.trim(),
            q.prompt.text.trim(),
            keys.join(", ")
        )
    })
}

/// How a game stands, in the words an expectation's failure gives: who
/// won, a draw, or that it goes on.
pub fn outcome_words(o: Option<Outcome>) -> String {
    match o {
        Some(Outcome::Win(s)) => format!("{s} won"),
        Some(Outcome::Draw) => "a draw".to_string(),
        None => "the game goes on".to_string(),
    }
}

/// What an `Event(text)` (`wanted`) or `NoEvent(text)` expectation found
/// instead: no event with the text, or the event that has it.
pub fn event_words(texts: &[String], text: &str, wanted: bool) -> String {
    match texts.iter().find(|x| x.contains(text)) {
        Some(x) if !wanted => format!("the event \"{x}\""),
        _ => format!("no event's words hold \"{text}\""),
    }
}

/// An `EventsInOrder([..])` expectation: each text is in some event's
/// words, each in an event after the one before it. `Err` says which text
/// was not found after the ones before it.
pub fn in_order(texts: &[String], wanted: &[String]) -> Result<(), String> {
    let mut from = 0;
    for (i, w) in wanted.iter().enumerate() {
        match texts[from..].iter().position(|x| x.contains(w.as_str())) {
            Some(at) => from += at + 1,
            None if i == 0 => return Err(event_words(texts, w, true)),
            None => {
                let earlier = texts[..from].iter().any(|x| x.contains(w.as_str()));
                return Err(if earlier {
                    format!("\"{w}\" only before \"{}\" (event {from})", wanted[i - 1])
                } else {
                    event_words(texts, w, true)
                });
            }
        }
    }
    Ok(())
}

/// A `RefusedBecause(text)` expectation: a step was refused and its reason
/// holds the text. `Err` says what was found.
pub fn refused_because(refused: Option<&StepError>, text: &str) -> Result<(), String> {
    match refused {
        Some(r) if r.reason.contains(text) => Ok(()),
        Some(r) => Err(r.to_string()),
        None => Err("no step refused".to_string()),
    }
}

/// What a ruleset's step reader says of words that name no action of its
/// game ([`Unread::NotAnAction`]'s words).
pub const NOT_AN_ACTION: &str = " is not an action of this game now";

/// Why a step's words were not taken (a card game's step reader).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unread {
    /// The words name no move of the game now: what the legal ones are.
    NotAnAction(String),
    /// The words name a move the rules refuse now: why, by the rule.
    Refused(String),
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unread::NotAnAction(w) | Unread::Refused(w) => f.write_str(w),
        }
    }
}

/// What a terminal says of a typed line a ruleset's step reader refused
/// ([`Ruleset::refusal`]): the rule that stops the move it names, or
/// nothing when the words name no move.
pub fn refusal_of<A>(step: Result<Reply<A>, Unread>) -> Option<String> {
    match step {
        Err(Unread::Refused(why)) => Some(why),
        _ => None,
    }
}

/// The most refusals a question carries to a LAN seat (a bound on the
/// message, whatever the board).
pub const MOST_REFUSALS: usize = 400;

/// A card game's refusals for a LAN keyboard at `seat`
/// ([`Ruleset::refusals`]; none when `seat` is asked nothing): each of
/// `every` move that is not legal now, under each of its `words` that no
/// legal move also answers to, with `why` it is refused (given the legal
/// moves); each line once, at most [`MOST_REFUSALS`].
pub fn refusals_of<R: Ruleset>(
    m: &R,
    seat: crate::rules::Seat,
    every: impl FnOnce() -> Vec<R::Action>,
    words: impl Fn(R::Action) -> Vec<String>,
    why: impl Fn(R::Action, &[R::Action]) -> String,
) -> Vec<(String, String)> {
    let legal = m.legal_actions(seat);
    if legal.is_empty() {
        return Vec::new();
    }
    let answered: std::collections::HashSet<String> =
        legal.iter().flat_map(|a| words(*a)).collect();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for a in every() {
        if legal.contains(&a) {
            continue;
        }
        let lines: Vec<String> = words(a)
            .into_iter()
            .filter(|w| !answered.contains(w) && seen.insert(w.clone()))
            .collect();
        if lines.is_empty() {
            continue;
        }
        let why = why(a, &legal);
        for line in lines {
            if out.len() == MOST_REFUSALS {
                return out;
            }
            out.push((line, why.clone()));
        }
    }
    out
}

/// What a `SetupRefused(text)` expectation finds when the game was set up.
pub const SETUP_ACCEPTED: &str = "the rules accepted the setup and the game began";

/// The common part of a report: events in words and as data.
pub fn report_events<R: Ruleset<Event: Serialize>>(
    events: &[(usize, R::Event)],
    cards: &CardSet,
) -> Vec<ScriptEvent> {
    events
        .iter()
        .map(|(step, e)| ScriptEvent {
            step: *step,
            text: R::describe(e, cards),
            event: serde_json::to_value(e).unwrap_or_default(),
        })
        .collect()
}

/// `Debug` words with each `Seat(N)` written as a script writes the seat
/// (`Seat(0)` is `P1`), for a failed expectation.
pub fn seats_as_written(words: String) -> String {
    if !words.contains("Seat(") {
        return words;
    }
    let mut out = String::with_capacity(words.len());
    let mut rest = words.as_str();
    while let Some(at) = rest.find("Seat(") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 5..];
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        match (digits.parse::<u8>(), after[digits.len()..].starts_with(')')) {
            (Ok(n), true) => {
                out.push_str(&format!("P{}", u16::from(n) + 1));
                rest = &after[digits.len() + 1..];
            }
            _ => {
                out.push_str("Seat(");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The failures of a script's expectations, given each one's result, and a
/// refusal no expectation allowed for.
pub fn failures<E: std::fmt::Debug>(
    checked: impl IntoIterator<Item = (E, Result<(), String>)>,
    refused: Option<&StepError>,
    refusal_expected: bool,
) -> Vec<String> {
    let mut bad: Vec<String> = checked
        .into_iter()
        .filter_map(|(e, r)| {
            r.err()
                .map(|found| seats_as_written(format!("expected {e:?}; found {found}")))
        })
        .collect();
    if let Some(r) = refused
        && !refusal_expected
    {
        bad.push(format!("unexpected refusal: {r}"));
    }
    bad
}
