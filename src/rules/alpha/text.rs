//! Actions and questions in words. Every action has one text
//! ([`Match::action_text`]); a typed or scripted line is read back by
//! finding the legal action with that text ([`Match::parse_action`]), so
//! the terminal, the scripts and the log speak the same words.

use super::{Action, CardId, Match, Wait};
use crate::rules::{Outcome, Prompt, Question, Reply, Seat};

/// The kinds of question the Card Game Alpha asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// Discard from hand or play (Preparation Phase).
    Discard,
    /// Play cards face down.
    Play,
    /// Which Digimon acts first among equals.
    Lead,
    /// A Digimon's action.
    Act,
    /// Supporters.
    Support,
    /// Block or alpha-block.
    Block,
    /// Command cards.
    Command,
    /// A choice for an effect.
    Choose,
    /// Use an ability or not.
    Confirm,
}

/// Seconds a person has for a question (a tabletop turn is unhurried).
pub const SECONDS: f32 = 300.0;

impl Match {
    pub(super) fn name_of(&self, id: CardId) -> String {
        self.card(id)
            .map_or_else(|| "a hidden card".to_string(), |c| c.name().to_string())
    }

    /// The words for an action, as a person or a script types them.
    pub fn action_text(&self, action: Action) -> String {
        let n = |id| self.name_of(id);
        match action {
            Action::Done => "done".to_string(),
            Action::Discard(c) => format!("discard {}", n(c)),
            Action::Scrap(c) => format!("scrap {}", n(c)),
            Action::Play(c) => format!("play {}", n(c)),
            Action::Evolve(c, on) => format!("play {} on {}", n(c), n(on)),
            Action::Jogress(c, on, p) => format!("play {} on {} with {}", n(c), n(on), n(p)),
            Action::Target(s) => format!("target {s}"),
            Action::Lead(c) => format!("lead {}", n(c)),
            Action::Attack(None) => "attack player".to_string(),
            Action::Attack(Some(c)) => format!("attack {}", n(c)),
            Action::AlphaAttack => "alpha-attack".to_string(),
            Action::Support(c) => format!("support {}", n(c)),
            Action::Block(c) => format!("block {}", n(c)),
            Action::NoBlock => "no block".to_string(),
            Action::Pass if matches!(self.wait, Some(Wait::Supporters(_))) => {
                "call off".to_string()
            }
            Action::Pass => "pass".to_string(),
            Action::Command(c) => format!("command {}", n(c)),
            Action::Pick(c) => format!("pick {}", n(c)),
            Action::Resolve(true) => "yes".to_string(),
            Action::Resolve(false) => "no".to_string(),
        }
    }

    /// Reads a typed action for `seat`: the first legal action whose text
    /// matches (case and spaces ignored; a card number may stand for a name).
    pub fn parse_action(&self, seat: Seat, typed: &str) -> Result<Action, String> {
        let want = squash(typed);
        let legal = self.legal_actions(seat);
        if legal.is_empty() {
            // Say who is asked what instead (a Digimon that already acted,
            // a Command card before the attacker's, a game that is over).
            let why = match self.outcome() {
                Some(Outcome::Win(w)) => format!("the game is over: {w} won"),
                Some(Outcome::Draw) => "the game is over: a draw".to_string(),
                None => self.asked_now(seat),
            };
            return Err(format!("{seat} has nothing to do now: {why}"));
        }
        for &a in &legal {
            if squash(&self.action_text(a)) == want || squash(&self.action_number_text(a)) == want {
                return Ok(a);
            }
        }
        // A move bterm can explain (play, block): the rule that stops it.
        if let Some(why) = self.refusal(seat, typed) {
            return Err(why);
        }
        Err(format!(
            "\"{}\" is not a legal action for {seat} now; legal: {}",
            typed.trim(),
            legal
                .iter()
                .map(|&a| self.action_text(a))
                .collect::<Vec<_>>()
                .join(" | ")
        ))
    }

    /// The words for each of a list of choices, told apart where two would
    /// read the same (two Digimon of one name: their places in the line-up
    /// and whether they are tapped; two copies in hand: which copy).
    pub fn choice_texts(&self, actions: &[Action]) -> Vec<String> {
        let plain: Vec<String> = actions.iter().map(|&a| self.action_text(a)).collect();
        plain
            .iter()
            .zip(actions)
            .enumerate()
            .map(|(i, (text, &a))| {
                let same: Vec<usize> = (0..plain.len()).filter(|&j| plain[j] == *text).collect();
                if same.len() < 2 {
                    return text.clone();
                }
                let place = Self::card_of(a)
                    .and_then(|c| self.mon(c).map(|place| (c, place)))
                    .map(|(c, (owner, k))| {
                        let tapped = if self.is_tapped(c) { ", tapped" } else { "" };
                        format!(" ({owner}'s no. {} in line{tapped})", k + 1)
                    });
                let copy = same.iter().position(|&j| j == i).unwrap_or(0) + 1;
                format!(
                    "{text}{}",
                    place.unwrap_or_else(|| format!(" (copy {copy})"))
                )
            })
            .collect()
    }

    /// The card an action is about (the one played, attacked, chosen…).
    fn card_of(a: Action) -> Option<CardId> {
        match a {
            Action::Discard(c)
            | Action::Scrap(c)
            | Action::Play(c)
            | Action::Lead(c)
            | Action::Attack(Some(c))
            | Action::Support(c)
            | Action::Block(c)
            | Action::Command(c)
            | Action::Pick(c) => Some(c),
            Action::Evolve(_, on) | Action::Jogress(_, on, _) => Some(on),
            _ => None,
        }
    }

    /// The action's text with card numbers for names.
    fn action_number_text(&self, action: Action) -> String {
        let n = |id| self.number(id).map_or_else(String::new, |x| x.to_string());
        match action {
            Action::Discard(c) => format!("discard {}", n(c)),
            Action::Scrap(c) => format!("scrap {}", n(c)),
            Action::Play(c) => format!("play {}", n(c)),
            Action::Evolve(c, on) => format!("play {} on {}", n(c), n(on)),
            Action::Jogress(c, on, p) => format!("play {} on {} with {}", n(c), n(on), n(p)),
            Action::Lead(c) => format!("lead {}", n(c)),
            Action::Attack(Some(c)) => format!("attack {}", n(c)),
            Action::Support(c) => format!("support {}", n(c)),
            Action::Block(c) => format!("block {}", n(c)),
            Action::Command(c) => format!("command {}", n(c)),
            Action::Pick(c) => format!("pick {}", n(c)),
            a => self.action_text(a),
        }
    }

    /// What `seat` is asked now, with its legal answers numbered.
    pub fn question(&self, seat: Seat) -> Option<Question<Ask, Action>> {
        let legal = self.legal_actions(seat);
        let wait = self.wait.as_ref()?;
        if legal.is_empty() {
            return None;
        }
        let (ask, text) = match wait {
            Wait::Discards(_) => (
                Ask::Discard,
                "Discard from hand or play (the hand must end at 6 or fewer), then done"
                    .to_string(),
            ),
            Wait::Plays(_) => {
                let st = &self.seats[seat.index()];
                (
                    Ask::Play,
                    format!(
                        "Play cards face down (Cost so far {} of 10; {} Digimon and {} Option cards played of 3)",
                        st.played_cost, st.played_digimon, st.played_options
                    ),
                )
            }
            Wait::Lead(..) => (
                Ask::Lead,
                "Which of your equally fast Digimon acts first?".to_string(),
            ),
            Wait::Act(_, mon) => (
                Ask::Act,
                format!(
                    "{} acts (Speed {}): target {} — what does it do?",
                    self.name_of(*mon),
                    self.speed(*mon),
                    self.target(seat)
                ),
            ),
            Wait::Supporters(_) => (
                Ask::Support,
                if self
                    .battle
                    .as_ref()
                    .is_some_and(|b| b.sides[0].support.is_empty())
                {
                    "Choose at least one supporter for the alpha-attack (then done), or call it off"
                        .to_string()
                } else {
                    "Choose more supporters for the alpha-attack, or done to declare it".to_string()
                },
            ),
            Wait::Block(_) => (
                Ask::Block,
                "You are attacked: block with a faster untapped Digimon?".to_string(),
            ),
            Wait::AlphaBlock(_) => (
                Ask::Block,
                "You are alpha-attacked: alpha-block?".to_string(),
            ),
            Wait::BlockSupporters(_) => (
                Ask::Support,
                "Choose supporters for the alpha-block".to_string(),
            ),
            Wait::Commands(_) => (
                Ask::Command,
                "Use Command cards in this battle, then done".to_string(),
            ),
            Wait::Pick { .. } => (Ask::Choose, "Choose Digimon for the effect".to_string()),
            Wait::DiscardFor { left, .. } => (
                Ask::Choose,
                format!("An effect: discard {left} card(s) from your hand"),
            ),
            Wait::Confirm(_) => {
                let what = match self.steps.last() {
                    Some(super::Step::Fire { ctx, .. }) => {
                        let ability = self
                            .card(ctx.card)
                            .and_then(|c| c.alpha_abilities().get(usize::from(ctx.index)))
                            .map(crate::effects::text::render)
                            .unwrap_or_default();
                        format!("{}: {ability}", self.name_of(ctx.card))
                    }
                    _ => "an ability".to_string(),
                };
                (Ask::Confirm, format!("Use {what}?"))
            }
        };
        let on_timeout = [
            Action::Done,
            Action::NoBlock,
            Action::Pass,
            Action::Resolve(false),
        ]
        .into_iter()
        .find(|a| legal.contains(a))
        .or_else(|| legal.first().copied());
        let mut keys = Vec::new();
        let mut lines = Vec::new();
        for (i, (&a, text)) in legal.iter().zip(self.choice_texts(&legal)).enumerate() {
            lines.push(format!("{:>3}. {text}", i + 1));
            keys.push(((i + 1).to_string(), Reply::Act(a)));
            keys.push((squash(&text), Reply::Act(a)));
            if text != self.action_text(a) {
                keys.push((squash(&self.action_text(a)), Reply::Act(a)));
            }
        }
        Some(Question {
            ask,
            answers: legal,
            seconds: SECONDS,
            on_timeout,
            prompt: Prompt {
                lines,
                text: format!("{seat}: {text} > "),
                keys,
            },
        })
    }
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}
