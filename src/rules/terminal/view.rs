//! What a CPU player, a HUD or a test may read of the match.

use super::{AbilitySlot, Match, Phase, Side};
use crate::cards::{CardNumber, Digimon};
use crate::effects::Ability;

/// What a CPU player or a HUD may read about one side.
#[derive(Debug, Clone, Copy)]
pub struct SideView<'a> {
    /// Points.
    pub points: i32,
    /// The Digimon at the front.
    pub front: &'a Digimon,
    /// The front line's evolution gauge.
    pub gauge: u32,
    /// Digimon still in play, front included.
    pub digimon_left: usize,
    /// Whether the Alpha Strike is spent.
    pub alpha_used: bool,
}

/// One evolution line as a HUD or test sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineView {
    /// The scanned stages, lowest first.
    pub stages: Vec<CardNumber>,
    /// The stage in play.
    pub at: usize,
    /// Evolution gauge, percent.
    pub gauge: u32,
    /// Still in play (not deleted, not joined by Jogress).
    pub in_play: bool,
    /// The stage that is a Jogress card and the partner line it needs.
    pub jogress: Option<(usize, usize)>,
}

impl Match {
    /// A player's evolution lines.
    pub fn lines(&self, side: Side) -> Vec<LineView> {
        self.players[side.index()]
            .lines
            .iter()
            .map(|l| LineView {
                stages: l.stages.iter().map(|d| d.number).collect(),
                at: l.at,
                gauge: l.gauge,
                in_play: l.in_play(),
                jogress: l.jogress,
            })
            .collect()
    }

    /// Which line is at the front.
    pub fn front_line(&self, side: Side) -> usize {
        self.players[side.index()].front
    }

    /// A side as a CPU player or HUD sees it.
    pub fn view(&self, side: Side) -> SideView<'_> {
        let p = &self.players[side.index()];
        SideView {
            points: p.points,
            front: p.front().card(),
            gauge: p.front().gauge,
            digimon_left: p.lines.iter().filter(|l| l.in_play()).count(),
            alpha_used: p.alpha_used,
        }
    }

    /// The card and ability an [`AbilitySlot`] of `side`'s names, if any.
    pub fn ability(&self, side: Side, slot: AbilitySlot) -> Option<(CardNumber, &Ability)> {
        let (card, list) = self.players[side.index()].slot(slot.source)?;
        Some((card, list.get(usize::from(slot.index))?))
    }

    /// The match as `side` may know it (`None`: a spectator), for a LAN
    /// client to draw and its CPU to choose from: the seed is withheld (so
    /// the dice cannot be read ahead), and so are the path digest and the
    /// other side's stance until the clash resolves (while the stances are
    /// pressed, and while an Alpha Strike waits for its block answer). It
    /// cannot be played on faithfully.
    pub fn masked(&self, side: Option<Side>) -> Match {
        let mut m = self.clone();
        m.seed = 0;
        m.history = 0;
        match &mut m.phase {
            Phase::Stance { pressed } => {
                for s in Side::BOTH {
                    if Some(s) != side {
                        pressed[s.index()] = None;
                    }
                }
            }
            // The stances are told only when the clash resolves, after the
            // alpha-block answer: the other side's shows as A, in time.
            Phase::Block { pressed, .. } => {
                for s in Side::BOTH {
                    if Some(s) != side {
                        pressed[s.index()].stance = crate::glossary::BattleType::A;
                        pressed[s.index()].timed_out = false;
                    }
                }
            }
            _ => {}
        }
        m
    }

    /// Whether a match read from elsewhere (a LAN host's view) holds
    /// together where the rules and the stage index it: each side has
    /// lines, its front line is one of them, each line has stages and its
    /// stage in play is one of them, a Jogress points into the line.
    pub fn well_formed(&self) -> Result<(), String> {
        for (side, p) in Side::BOTH.iter().zip(&self.players) {
            if p.lines.is_empty() || p.front >= p.lines.len() {
                return Err(format!("{side} has no front line"));
            }
            for (i, l) in p.lines.iter().enumerate() {
                if l.stages.is_empty() || l.at >= l.stages.len() {
                    return Err(format!("{side}'s line {} has no stage in play", i + 1));
                }
                if let Some((stage, partner)) = l.jogress
                    && (stage >= l.stages.len() || partner >= p.lines.len())
                {
                    return Err(format!("{side}'s line {} has a broken Jogress", i + 1));
                }
            }
        }
        Ok(())
    }

    /// Whether the match waits for `side`'s stance (rather than another question).
    pub fn awaits_stance(&self, side: Side) -> bool {
        matches!(&self.phase, Phase::Stance { pressed } if pressed[side.index()].is_none())
    }
}
