//! The text battle (`bterm battle`) and the keyboard every text game
//! answers on (`Keyboard`). The battle is the session's driver
//! with a keyboard for the people: every question, default and timeout is
//! the session's, so the arena and the terminal play the same game.

use std::io::{BufRead, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use clap::Args;

use super::{CliError, escape_lines, load_set};
use crate::cards::{Card, CardNumber, CardSet};
use crate::replay::Replay;
use crate::rules::terminal::{Match, Setup};
use crate::rules::{Question, Reply, Ruleset, Seat};
use crate::session::{People, Player, Table, drive};

/// `bterm battle`.
#[derive(Debug, Args)]
pub struct BattleArgs {
    /// Player 1's team: card numbers or names, comma-separated ("Dα-001,Dα-002,Oα-003"); "" for a default partner.
    pub team_a: String,
    /// Player 2's team.
    pub team_b: String,
    /// The seed (the same seed and inputs play the same battle).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Who plays P1: human, easy, normal or hard (the last three are the CPU).
    #[arg(long, default_value = "human", value_name = "PLAYER")]
    pub p1: Player,
    /// Who plays P2: human, easy, normal or hard.
    #[arg(long, default_value = "normal", value_name = "PLAYER")]
    pub p2: Player,
    /// Give people this many seconds for each question, as the cabinet's
    /// timer does; no answer in time is the question's default (the
    /// printed battle type, digivolve, don't block, no). Off by default.
    #[arg(long, value_name = "SECONDS")]
    pub timer: Option<f32>,
    /// Save the battle as a replay file.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
    /// Keep the battle out of the rankings and out of the replay gallery
    /// (a `--save` file is still written).
    #[arg(long)]
    pub no_record: bool,
    /// The collection's database, where the rankings are kept.
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

/// A typed team with a card the set does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("error: team \"{team}\": {error}")]
pub struct TeamError {
    /// The team as typed.
    pub team: String,
    /// Why a card of it was not found.
    pub error: crate::cards::ResolveError,
}

/// Parses a team typed as card numbers or names, comma-separated.
pub fn parse_team(text: &str, cards: &CardSet) -> Result<Vec<CardNumber>, TeamError> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            cards
                .resolve(t)
                .map(Card::number)
                .map_err(|error| TeamError {
                    team: text.to_string(),
                    error,
                })
        })
        .collect()
}

/// The longest `--timer` (a day, in seconds).
const MAX_TIMER: f32 = 86_400.0;

pub(super) fn battle(args: BattleArgs) -> Result<(), CliError> {
    if let Some(t) = args.timer
        && !(t > 0.0 && t <= MAX_TIMER)
    {
        return Err(CliError::usage(format!(
            "--timer {t}: give a number of seconds above 0 and at most {MAX_TIMER}"
        )));
    }
    save_is_free(args.save.as_deref())?;
    let set = load_set(args.cards.as_deref())?;
    let teams = [
        parse_team(&args.team_a, &set).map_err(|e| CliError::usage(e.to_string()))?,
        parse_team(&args.team_b, &set).map_err(|e| CliError::usage(e.to_string()))?,
    ];
    let setup = Setup::new(teams[0].clone(), teams[1].clone(), args.seed);
    let mut table: Table<Match> =
        Table::new(setup, &set, vec![args.p1, args.p2]).map_err(|e| {
            // Two single cards that do not build: the two teams were
            // probably meant as one, its cards comma-separated.
            let hint = if !args.team_a.contains(',') && !args.team_b.contains(',') {
                format!(
                    " (each team is one argument with its cards comma-separated: bterm battle \"{},{}\" \"Dα-021\")",
                    super::escape(args.team_a.trim()),
                    super::escape(args.team_b.trim())
                )
            } else {
                String::new()
            };
            CliError::usage(format!("error: {e}{hint}"))
        })?;
    let mut keyboard = Keyboard {
        lines: keyboard_lines(),
        timer: args.timer,
        cards: &set,
        out: std::io::stdout(),
    };
    for line in matchup(&table, &teams, [args.p1, args.p2], &set) {
        let _ = writeln!(keyboard.out, "{}", escape_lines(&line));
    }
    let played = drive(&mut table, &set, &mut keyboard);
    if played.is_ok() && table.is_over() && !args.no_record {
        super::collection::record_battle(
            args.db.as_deref(),
            &crate::collection::rankings::BattleRecord::terminal(&table, "cli"),
        );
    }
    finish(
        &table,
        &set,
        played,
        Kept {
            save: args.save.as_deref(),
            gallery: !args.no_record,
        },
        &mut keyboard.out,
        "battle",
        "teams",
    )
}

/// Who fights whom, said before the first round: each side's player and
/// team, then the two Digimon that open.
fn matchup(
    table: &Table<Match>,
    teams: &[Vec<CardNumber>; 2],
    players: [Player; 2],
    cards: &CardSet,
) -> Vec<String> {
    use crate::rules::terminal::Side;
    let who = |p: Player| match p {
        Player::Person => "you".to_string(),
        Player::Cpu(s) => format!("CPU, {}", s.to_string().to_lowercase()),
        Player::Remote => "over the LAN".to_string(),
    };
    let team = |t: &[CardNumber]| {
        t.iter()
            .map(|n| {
                cards
                    .get(n)
                    .map_or_else(|| n.to_string(), |c| c.name().to_string())
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let front = |side: Side| table.game().view(side).front.name.clone();
    vec![
        format!("P1 ({}): {}", who(players[0]), team(&teams[0])),
        format!("P2 ({}): {}", who(players[1]), team(&teams[1])),
        format!("{} (P1) fights {} (P2).", front(Side::P1), front(Side::P2)),
    ]
}

/// Refuses a `--save` file that already exists, before a game starts.
pub(super) fn save_is_free(path: Option<&Path>) -> Result<(), CliError> {
    match path {
        Some(p) if std::fs::symlink_metadata(p).is_ok() => Err(CliError::usage(format!(
            "error: {} already exists; choose another file for --save",
            escape_lines(&p.display().to_string())
        ))),
        _ => Ok(()),
    }
}

/// After a driven game: its result and why; a finished game goes into the
/// data folder's `replays/` (the arena's gallery, as a game played there
/// does); one that stopped before its end is a bug to report (`what` is
/// played with `inputs`); the replay is also saved to `save` when asked,
/// only if the file still does not exist (not even one made during the
/// game).
pub(super) fn finish<R: Ruleset>(
    table: &Table<R>,
    cards: &CardSet,
    played: Result<(), CliError>,
    kept: Kept<'_>,
    out: &mut impl std::io::Write,
    what: &str,
    inputs: &str,
) -> Result<(), CliError> {
    let played = played.and_then(|()| {
        if table.is_over() {
            Ok(())
        } else {
            Err(CliError::failed(format!(
                "error: the {what} stopped before its end: nobody could move (a bug; please report it with the seed and {inputs})"
            )))
        }
    });
    if played.is_ok() {
        if let Some(verdict) = table.game().verdict(cards) {
            let _ = writeln!(out, "{verdict}");
        }
        if kept.gallery {
            let _ = writeln!(out, "{}", keep_in_gallery(table));
        }
    }
    if let Some(path) = kept.save {
        Replay::of(table)
            .save_new(path)
            .map_err(|e| CliError::failed(format!("error: cannot save the replay: {e}")))?;
        let _ = writeln!(
            out,
            "replay saved to {}",
            escape_lines(&path.display().to_string())
        );
    }
    played
}

/// Where a finished game is kept: the file `--save` named, and the replay
/// gallery (unless `--no-record`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Kept<'a> {
    /// The file `--save` named.
    pub save: Option<&'a Path>,
    /// Into the data folder's replays, where the gallery lists it.
    pub gallery: bool,
}

impl<'a> Kept<'a> {
    /// The gallery, and `save` when given.
    pub(super) fn with(save: Option<&'a Path>) -> Kept<'a> {
        Kept {
            save,
            gallery: true,
        }
    }
}

/// Saves a finished game in the data folder's `replays/`, where the arena's
/// gallery lists it; says where, or why it is not kept (never an error: the
/// game was played).
fn keep_in_gallery<R: Ruleset>(table: &Table<R>) -> String {
    let Some(dir) = crate::save::data_dir().map(|d| d.join("replays")) else {
        return "the replay is not kept: no data folder (set BTERM_DATA_DIR)".to_string();
    };
    match Replay::of(table).save_in(&dir) {
        Ok(path) => format!(
            "replay kept in the gallery: {}",
            escape_lines(&path.display().to_string())
        ),
        Err(e) => format!("the replay is not kept: {e}"),
    }
}

/// The longest line read from the keyboard; the rest of a longer one is
/// skipped (a key is a few characters, and stdin may be a file of zeros).
const MAX_LINE: u64 = 1024;

/// Lines typed at the keyboard, read on their own thread so that a question
/// can time out. One line waits at a time, and each is at most
/// [`MAX_LINE`] bytes, so memory stays bounded whatever stdin holds.
pub(super) fn keyboard_lines() -> Receiver<std::io::Result<String>> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        loop {
            let mut line = Vec::new();
            let read = (&mut input).take(MAX_LINE).read_until(b'\n', &mut line);
            let line = match read {
                Ok(0) => break,
                Ok(_) => {
                    if !line.ends_with(b"\n") {
                        // Skip the rest of an over-long line, a chunk at a time.
                        let mut rest = Vec::new();
                        loop {
                            rest.clear();
                            match (&mut input).take(MAX_LINE).read_until(b'\n', &mut rest) {
                                Ok(0) => break,
                                Ok(_) if rest.ends_with(b"\n") => break,
                                Ok(_) => {}
                                Err(_) => break,
                            }
                        }
                    }
                    Ok(String::from_utf8_lossy(&line).into_owned())
                }
                Err(e) => Err(e),
            };
            let stop = line.is_err();
            if tx.send(line).is_err() || stop {
                break;
            }
        }
    });
    rx
}

/// The people of a text battle: questions printed, answers typed.
pub(super) struct Keyboard<'a> {
    pub(super) lines: Receiver<std::io::Result<String>>,
    pub(super) timer: Option<f32>,
    pub(super) cards: &'a CardSet,
    pub(super) out: std::io::Stdout,
}

/// The Terminal Battle at the terminal: a team of card numbers or names,
/// the host's player on the keys.
impl super::TextGame for Match {
    type Front<'a> = Keyboard<'a>;
    fn read_cards(arg: &str, set: &CardSet) -> Result<Vec<CardNumber>, CliError> {
        parse_team(arg, set).map_err(|e| CliError::usage(e.to_string()))
    }
    fn front(keys: Keyboard<'_>) -> Keyboard<'_> {
        keys
    }
}

impl<R: Ruleset> People<R> for Keyboard<'_> {
    type Error = CliError;

    fn ask(
        &mut self,
        table: &Table<R>,
        seat: Seat,
        question: &Question<R::Ask, R::Action>,
    ) -> Result<Option<Reply<R::Action>>, CliError> {
        // (The question's own `seconds` are the cabinet's; see `timer`.)
        if let Some(only) = self.only_answer(seat, question) {
            return Ok(Some(only));
        }
        let cards = self.cards;
        self.ask_prompt(seat, &question.prompt, R::own_card, &|typed| {
            table.game().refusal(seat, typed, cards)
        })
    }

    fn show(&mut self, events: &[R::Event]) {
        for e in events {
            let _ = writeln!(self.out, "{}", escape_lines(&R::describe(e, self.cards)));
        }
    }

    fn set_clock(&mut self, seconds: Option<f32>) {
        if seconds.is_some() {
            self.timer = seconds;
        }
    }
}

/// People at one terminal who each see their seat's view (the ruleset's
/// `view_lines`) before they answer; with two or more people, a curtain
/// ("pass to P2, press Enter") comes between their turns so neither sees
/// the other's hand.
pub(super) struct Seated<'a> {
    pub(super) keys: Keyboard<'a>,
    pub(super) curtain: bool,
    pub(super) last: Option<Seat>,
}

impl<'a> Seated<'a> {
    /// People on these keys; `curtain` between two or more of them.
    pub(super) fn new(keys: Keyboard<'a>, curtain: bool) -> Seated<'a> {
        Seated {
            keys,
            curtain,
            last: None,
        }
    }
}

impl<R: Ruleset> People<R> for Seated<'_> {
    type Error = CliError;

    fn ask(
        &mut self,
        table: &Table<R>,
        seat: Seat,
        question: &Question<R::Ask, R::Action>,
    ) -> Result<Option<Reply<R::Action>>, CliError> {
        // Nothing to decide: no curtain, no board, the answer taken.
        if let Some(only) = self.keys.only_answer(seat, question) {
            return Ok(Some(only));
        }
        if self.curtain && self.last != Some(seat) {
            self.keys.curtain(seat)?;
        }
        self.last = Some(seat);
        let view = table.game().seat_view(Some(seat));
        let _ = writeln!(self.keys.out);
        for line in R::view_lines(&view, self.keys.cards) {
            let _ = writeln!(self.keys.out, "{}", escape_lines(&line));
        }
        let cards = self.keys.cards;
        self.keys
            .ask_prompt(seat, &question.prompt, R::own_card, &|typed| {
                table.game().refusal(seat, typed, cards)
            })
    }

    fn show(&mut self, events: &[R::Event]) {
        People::<R>::show(&mut self.keys, events);
    }

    fn set_clock(&mut self, seconds: Option<f32>) {
        People::<R>::set_clock(&mut self.keys, seconds);
    }
}

impl Keyboard<'_> {
    /// A question with one answer, which is also its default (a priority
    /// with nothing to respond with), is answered at once and said so:
    /// nobody waits at a prompt with nothing to decide.
    fn only_answer<Ask, A: Copy + PartialEq>(
        &mut self,
        seat: Seat,
        question: &Question<Ask, A>,
    ) -> Option<Reply<A>> {
        self.take_only(seat, question.only_answer(), &question.prompt)
    }

    /// Takes `only` (a question's only answer, if it has one) and says so.
    pub(super) fn take_only<A: Copy>(
        &mut self,
        seat: Seat,
        only: Option<A>,
        prompt: &crate::rules::Prompt<A>,
    ) -> Option<Reply<A>> {
        let only = only?;
        let words = prompt.first_words().unwrap_or("the only choice");
        let _ = writeln!(
            self.out,
            "  {seat}: {} (nothing else can be done now)",
            escape_lines(words)
        );
        Some(Reply::Act(only))
    }

    /// Asks a prompt until a key it knows is typed; `Ok(None)` when the
    /// timer ran out. At every prompt `help` lists the choices again and
    /// `show CARD` prints a card; a line that is not a choice is refused
    /// with why (`refusal`: the ruleset's words, where it can tell).
    /// `show NAME` looks among the game's own cards first (`own`:
    /// [`Ruleset::own_card`]).
    pub(super) fn ask_prompt<A: Copy>(
        &mut self,
        seat: Seat,
        prompt: &crate::rules::Prompt<A>,
        own: fn(&crate::cards::Card) -> bool,
        refusal: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<Reply<A>>, CliError> {
        for line in &prompt.lines {
            let _ = writeln!(self.out, "{}", escape_lines(line));
        }
        // Every question gets the --timer's seconds: a person at a terminal
        // types slower than one at the buttons.
        let timer = self.timer;
        let deadline = timer.and_then(|t| {
            std::time::Instant::now().checked_add(Duration::try_from_secs_f32(t).ok()?)
        });
        loop {
            match timer {
                Some(t) => write!(self.out, "{}({t} s) ", escape_lines(&prompt.text)),
                None => write!(self.out, "{}", escape_lines(&prompt.text)),
            }
            .and_then(|()| self.out.flush())
            .map_err(super::output_error)?;
            let line = match self.next_line(deadline) {
                Ok(Ok(line)) => line,
                Ok(Err(e)) => {
                    return Err(CliError::failed(format!(
                        "error: cannot read the keyboard: {e}"
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = writeln!(self.out, "\n  time is up");
                    return Ok(None);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(CliError::failed(format!(
                        "error: the input closed while waiting for {seat}'s choice; use --{} easy|normal|hard for a CPU player",
                        seat.to_string().to_lowercase()
                    )));
                }
            };
            if let Some(reply) = prompt.reply(&line) {
                // Conceding ends the game for good: asked once more.
                if crate::rules::Prompt::<A>::key(&line) == "concede" && !self.sure(deadline)? {
                    continue;
                }
                return Ok(Some(reply));
            }
            let said = self.aside(&line, prompt, own, refusal);
            for l in said {
                let _ = writeln!(self.out, "  {}", escape_lines(&l));
            }
        }
    }

    /// The next line typed, waiting until `deadline` at most.
    fn next_line(
        &self,
        deadline: Option<std::time::Instant>,
    ) -> Result<std::io::Result<String>, RecvTimeoutError> {
        match deadline {
            None => self
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(d) => self
                .lines
                .recv_timeout(d.saturating_duration_since(std::time::Instant::now())),
        }
    }

    /// Whether the person means to concede: `yes` does, anything else (or
    /// the time running out) goes back to the question. Input that ends
    /// there concedes: nothing else can answer (a piped game that ends on
    /// `concede` ends as it did before this question was asked).
    fn sure(&mut self, deadline: Option<std::time::Instant>) -> Result<bool, CliError> {
        let _ = write!(
            self.out,
            "  Concede the game? Type yes to concede, anything else to go on: "
        );
        let _ = self.out.flush();
        match self.next_line(deadline) {
            Ok(Ok(line)) => Ok(matches!(line.trim().to_lowercase().as_str(), "yes" | "y")),
            Ok(Err(e)) => Err(CliError::failed(format!(
                "error: cannot read the keyboard: {e}"
            ))),
            Err(RecvTimeoutError::Timeout) => Ok(false),
            Err(RecvTimeoutError::Disconnected) => Ok(true),
        }
    }

    /// What a typed line that is not a choice gets: `help`, `show CARD`, or
    /// why it is refused.
    fn aside<A: Copy>(
        &self,
        line: &str,
        prompt: &crate::rules::Prompt<A>,
        own: fn(&crate::cards::Card) -> bool,
        refusal: &dyn Fn(&str) -> Option<String>,
    ) -> Vec<String> {
        let typed = line.trim();
        let lower = typed.to_lowercase();
        if lower == "help" || lower == "?" {
            let mut out = vec!["The choices now:".to_string()];
            out.extend(prompt.lines.iter().map(|l| format!("  {l}")));
            out.push(
                "Type a choice's number or its words; `show CARD` prints a card (by name or number); `help` shows this."
                    .to_string(),
            );
            return out;
        }
        if let Some(name) = lower.strip_prefix("show ") {
            let name = typed[typed.len() - name.len()..].trim();
            return match self.cards.resolve_preferring(name, own) {
                Ok(card) => super::cards::describe(card)
                    .lines()
                    .map(str::to_string)
                    .collect(),
                Err(e) => vec![format!("{e}")],
            };
        }
        let why = refusal(typed).map_or_else(String::new, |w| format!(": {w}"));
        vec![format!(
            "\"{}\" is not a choice now{why} (`help` lists the choices)",
            super::escape(typed)
        )]
    }

    /// The curtain between two people at one terminal: the screen and its
    /// scrollback are cleared (into a file or a pipe, forty blank lines),
    /// then the next person presses Enter.
    pub(super) fn curtain(&mut self, seat: Seat) -> Result<(), CliError> {
        use std::io::IsTerminal as _;
        // On a terminal the screen and its scrollback are cleared (the
        // last player's hand must not be a scroll away); into a file or a
        // pipe, blank lines.
        let clear = if std::io::stdout().is_terminal() {
            "\x1b[H\x1b[2J\x1b[3J".to_string()
        } else {
            "\n".repeat(40)
        };
        let _ = write!(
            self.out,
            "{clear}\n=== Pass to {seat}, then press Enter ==="
        );
        let _ = self.out.flush();
        self.wait_enter()
    }

    pub(super) fn wait_enter(&mut self) -> Result<(), CliError> {
        match self.lines.recv() {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(CliError::failed(format!(
                "error: cannot read the keyboard: {e}"
            ))),
            Err(_) => Err(CliError::failed(
                "error: the input closed at the curtain between two players",
            )),
        }
    }
}
