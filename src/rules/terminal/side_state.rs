//! A player's side of the table inside the match: evolution lines, points,
//! Option cards and what their abilities have used.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{AbilitySlot, Carrier};
use crate::cards::{CardNumber, Digimon, OptionCard};
use crate::effects::Ability;

/// One evolution line: its scanned stages, lowest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Line {
    pub(super) stages: Vec<Arc<Digimon>>,
    /// The stage in play.
    pub(super) at: usize,
    pub(super) gauge: u32,
    pub(super) state: LineState,
    /// Techniques reduced to 0 on the card in play (A, B, C).
    pub(super) zeroed: [bool; 3],
    /// The stage that is a Jogress card, and the partner line it needs.
    pub(super) jogress: Option<(usize, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum LineState {
    InPlay,
    Deleted,
    /// Joined another line by Jogress.
    Merged,
}

impl Line {
    pub(super) fn card(&self) -> &Digimon {
        &self.stages[self.at]
    }

    pub(super) fn in_play(&self) -> bool {
        self.state == LineState::InPlay
    }
}

/// How often a player's ability has resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Used {
    pub(super) card: CardNumber,
    pub(super) index: u8,
    pub(super) game: u8,
    pub(super) turn: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct SideState {
    pub(super) lines: Vec<Line>,
    pub(super) front: usize,
    pub(super) points: i32,
    pub(super) options: Vec<Arc<OptionCard>>,
    pub(super) alpha_used: bool,
    pub(super) used: Vec<Used>,
    /// `[Action:]` abilities readied this round.
    pub(super) readied: Vec<AbilitySlot>,
    /// Speed changes that last this round.
    pub(super) speed_bonus: i32,
}

/// A card that carries abilities, held by a cheap shared handle.
pub(super) enum Holder {
    Digimon(Arc<Digimon>),
    Option(Arc<OptionCard>),
    None,
}

impl Holder {
    pub(super) fn abilities(&self) -> (CardNumber, &[Ability]) {
        match self {
            Holder::Digimon(d) => (d.number, &d.terminal),
            Holder::Option(o) => (o.number, &o.terminal),
            Holder::None => (CardNumber::new(crate::cards::Prefix::Dm, 0), &[]),
        }
    }
}

impl SideState {
    pub(super) fn holder(&self, source: Carrier) -> Holder {
        match source {
            Carrier::Front => Holder::Digimon(Arc::clone(&self.front().stages[self.front().at])),
            Carrier::Option(i) => self
                .options
                .get(usize::from(i))
                .map_or(Holder::None, |o| Holder::Option(Arc::clone(o))),
        }
    }

    pub(super) fn front(&self) -> &Line {
        &self.lines[self.front]
    }

    pub(super) fn front_mut(&mut self) -> &mut Line {
        &mut self.lines[self.front]
    }

    pub(super) fn has_digimon(&self) -> bool {
        self.lines.iter().any(Line::in_play)
    }

    pub(super) fn uses(&self, card: CardNumber, index: u8) -> (u8, u8) {
        self.used
            .iter()
            .find(|u| u.card == card && u.index == index)
            .map_or((0, 0), |u| (u.game, u.turn))
    }

    pub(super) fn record_use(&mut self, card: CardNumber, index: u8) {
        match self
            .used
            .iter_mut()
            .find(|u| u.card == card && u.index == index)
        {
            Some(u) => {
                u.game = u.game.saturating_add(1);
                u.turn = u.turn.saturating_add(1);
            }
            None => self.used.push(Used {
                card,
                index,
                game: 1,
                turn: 1,
            }),
        }
    }

    /// The card behind a slot and its Battle Terminal abilities.
    pub(super) fn slot(&self, source: Carrier) -> Option<(CardNumber, &[Ability])> {
        match source {
            Carrier::Front => {
                let d = self.front().card();
                Some((d.number, &d.terminal))
            }
            Carrier::Option(i) => self
                .options
                .get(usize::from(i))
                .map(|o| (o.number, &o.terminal[..])),
        }
    }

    pub(super) fn within_limit(&self, card: CardNumber, index: u8, a: &Ability) -> bool {
        let (game, turn) = self.uses(card, index);
        match a.limit {
            None => true,
            Some(crate::effects::Limit::PerTurn(n)) => turn < n,
            Some(crate::effects::Limit::PerGame(n)) => game < n,
        }
    }
}
