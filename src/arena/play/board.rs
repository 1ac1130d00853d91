//! The board: what the audience has been shown of a duel so far, side by
//! side (the HUD draws it). It follows the staged events, never the Match
//! itself, so the screen never runs ahead of the show.

use std::collections::VecDeque;

use bevy::prelude::*;

use crate::arena::play::duel::Duel;
use crate::cards::{BattleType, CardNumber, CardSet};
use crate::rules::Outcome;
use crate::rules::terminal::{Event, Match, Side, log};

/// Captions kept in the HUD's log.
const LOG_LINES: usize = 4;

/// One side as the audience has seen it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SideBoard {
    /// The front Digimon.
    pub front: Option<CardNumber>,
    /// Its name.
    pub name: String,
    /// Its level, as printed.
    pub level: String,
    /// Points.
    pub points: i32,
    /// The front Digimon's HP in this battle.
    pub hp: u32,
    /// The front line's evolution gauge, percent.
    pub gauge: u32,
    /// Which line is at the front.
    pub front_line: usize,
    /// Every line's evolution gauge, percent.
    pub gauges: Vec<u32>,
    /// Digimon still in play.
    pub left: usize,
    /// Digimon in the team.
    pub team: usize,
    /// Pressed this round.
    pub locked: bool,
    /// The revealed stance.
    pub stance: Option<BattleType>,
    /// The technique in use: name, basic power.
    pub technique: Option<(String, u32)>,
    /// The attack power after every change.
    pub power: Option<u32>,
}

/// What the show has staged so far: the HUD's source.
#[derive(Resource, Debug, Clone, Default)]
pub struct Board {
    /// Both sides.
    pub sides: [SideBoard; 2],
    /// The round (1-based; 0 before the first).
    pub round: u32,
    /// The last round there can be.
    pub max_rounds: u32,
    /// The clash's winner this round, once shown (`Some(None)`: equal powers).
    pub clash: Option<Option<Side>>,
    /// The result, once shown.
    pub outcome: Option<Outcome>,
    /// The latest captions, newest last.
    pub log: VecDeque<String>,
    /// A big centre caption and how long it stays (seconds).
    pub banner: Option<(String, f32)>,
}

impl Board {
    /// The board at a duel's start.
    pub fn new(duel: &Duel) -> Board {
        let mut b = Board {
            max_rounds: duel.m().tunables().max_rounds,
            ..Board::default()
        };
        for side in Side::BOTH {
            let v = duel.m().view(side);
            let lines = duel.m().lines(side);
            let s = &mut b.sides[side.index()];
            s.points = duel.m().tunables().start_points;
            s.front_line = duel.m().front_line(side);
            s.gauge = 0;
            s.team = lines.len();
            s.gauges = lines.iter().map(|l| l.gauge).collect();
            s.left = v.digimon_left;
            set_front(s, &duel.cards, lines[s.front_line].stages[0]);
        }
        b
    }

    /// Records a staged event: what the HUD shows changes with it.
    pub fn record(&mut self, e: &Event, cards: &CardSet, m: &Match) {
        self.say(log::describe(e, cards));
        match e {
            Event::RoundStarted { round } => {
                self.round = *round;
                self.clash = None;
                for s in &mut self.sides {
                    s.locked = false;
                    s.stance = None;
                    s.technique = None;
                    s.power = None;
                }
                self.banner = Some((format!("ROUND {round}"), 1.0));
            }
            Event::Digivolved { bench: Some(_), .. } => {
                self.banner = Some(("DIGIVOLVE!".into(), 1.4));
            }
            Event::Digivolved { side, to, .. } | Event::Jogressed { side, to, .. } => {
                let s = &mut self.sides[side.index()];
                set_front(s, cards, *to);
                s.gauge = 0;
                let word = if matches!(e, Event::Jogressed { .. }) {
                    "JOGRESS!"
                } else {
                    "DIGIVOLVE!"
                };
                self.banner = Some((word.into(), 1.4));
            }
            Event::StanceLocked { side } => self.sides[side.index()].locked = true,
            Event::AlphaAttack { side, .. } => {
                self.banner = Some((format!("{side} ALPHA STRIKE!"), 1.0));
            }
            Event::AlphaBlock { side, group } => {
                if !group.is_empty() {
                    self.banner = Some((format!("{side} ALPHA BLOCK!"), 1.0));
                }
            }
            Event::StancesRevealed { stances, .. } => {
                for side in Side::BOTH {
                    self.sides[side.index()].stance = Some(stances[side.index()]);
                }
            }
            Event::TechniqueChosen {
                side,
                card,
                slot,
                base,
            } => {
                let name = log::technique_name(cards, *card, *slot)
                    .unwrap_or_else(|| format!("Technique {}", slot.letter()));
                let s = &mut self.sides[side.index()];
                s.technique = Some((name, *base));
                s.power = Some(*base);
            }
            Event::PowerModified { side, power, .. } => {
                self.sides[side.index()].power = Some(*power);
            }
            Event::HpModified { side, hp, .. } => self.sides[side.index()].hp = *hp,
            Event::Clash { powers, hp, winner } => {
                for side in Side::BOTH {
                    let s = &mut self.sides[side.index()];
                    s.power = Some(powers[side.index()]);
                    s.hp = hp[side.index()];
                }
                self.clash = Some(*winner);
                let text = match winner {
                    Some(w) => format!("{w} WINS THE CLASH"),
                    None => "EVEN!".to_string(),
                };
                self.banner = Some((text, 1.0));
            }
            Event::PointsChanged { side, points, .. } => {
                self.sides[side.index()].points = *points;
            }
            Event::Deleted { side, .. } => {
                let s = &mut self.sides[side.index()];
                s.left = s.left.saturating_sub(1);
                self.banner = Some((format!("{} DELETED", s.name.to_uppercase()), 1.4));
            }
            Event::SteppedIn { side, card } => {
                let s = &mut self.sides[side.index()];
                set_front(s, cards, *card);
                if let Some(line) = m.lines(*side).iter().position(|l| l.stages.contains(card)) {
                    s.front_line = line;
                }
                s.gauge = s.gauges.get(s.front_line).copied().unwrap_or(0);
            }
            Event::GaugeChanged { side, line, gauge } => {
                let s = &mut self.sides[side.index()];
                let line = usize::from(*line);
                if let Some(g) = s.gauges.get_mut(line) {
                    *g = *gauge;
                }
                if line == s.front_line {
                    s.gauge = *gauge;
                }
            }
            Event::RoundEnded { points, .. } => {
                for side in Side::BOTH {
                    self.sides[side.index()].points = points[side.index()];
                }
            }
            Event::BattleEnded { outcome } => {
                self.outcome = Some(*outcome);
                let text = match outcome {
                    Outcome::Win(w) => format!("{w} WINS!"),
                    Outcome::Draw => "DRAW".to_string(),
                };
                self.banner = Some((text, 3.0));
            }
            Event::EvolutionOffered { .. }
            | Event::AbilityReadied { .. }
            | Event::AbilityTriggered { .. }
            | Event::DeletionPrevented { .. } => {}
        }
    }

    fn say(&mut self, line: String) {
        self.log.push_back(line);
        while self.log.len() > LOG_LINES {
            self.log.pop_front();
        }
    }
}

fn set_front(s: &mut SideBoard, cards: &CardSet, card: CardNumber) {
    s.front = Some(card);
    if let Some(d) = cards.get(&card).and_then(|c| c.as_digimon()) {
        s.name = d.name.clone();
        s.level = d.level.to_string();
        s.hp = d.hp;
    }
}
