//! The table as a stage lays it out: every card in every zone, by instance
//! (a [`CardId`] is the same card for the whole game, so a stage can follow
//! it from the Net Ocean to the hand, the Box and the Dark Area), with what
//! it is and whether every seat may see it. The whole truth: a stage that
//! shows a person's table hides what that person may not see ([`Laid::open`]
//! and the seat that owns the hand tell it what).

use serde::Serialize;

use super::{CardId, Match, Wait};
use crate::cards::CardNumber;
use crate::rules::Seat;

/// One card on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Laid {
    /// The instance.
    pub id: CardId,
    /// The card.
    pub number: CardNumber,
    /// Face up for every seat (a hand is never open: only its owner sees it).
    pub open: bool,
}

/// A Digimon in a Box, with the cards placed on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoxLaid {
    /// Its card.
    pub card: Laid,
    /// Turned sideways.
    pub tapped: bool,
    /// Cards placed on it this Preparation Phase, bottom first (a Jogress
    /// partner, open, before its card).
    pub stack: Vec<Laid>,
}

/// An Option card in the Option Slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OptionLaid {
    /// Its card.
    pub card: Laid,
    /// Turned sideways.
    pub tapped: bool,
}

/// One seat's side of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatLaid {
    /// The seat.
    pub seat: Seat,
    /// Its points.
    pub points: u32,
    /// Still in the game.
    pub alive: bool,
    /// Its Target Opponent.
    pub target: Seat,
    /// The hand, in order.
    pub hand: Vec<Laid>,
    /// The Net Ocean, top first (face down).
    pub net_ocean: Vec<Laid>,
    /// The Dark Area, oldest first (face down).
    pub dark_area: Vec<Laid>,
    /// Removed from the game (face up).
    pub removed: Vec<Laid>,
    /// The Digimon Box, in line-up order.
    pub digimon: Vec<BoxLaid>,
    /// The Option Slot.
    pub options: Vec<OptionLaid>,
    /// Command cards it has used in the battle under way (face up).
    pub commands: Vec<Laid>,
}

/// The whole table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// Every seat.
    pub seats: Vec<SeatLaid>,
    /// The Digimon whose turn it is in the Battle Phase, if one is acting.
    pub acting: Option<(Seat, CardId)>,
}

impl Layout {
    /// Every card on the table, each once.
    pub fn cards(&self) -> impl Iterator<Item = Laid> + '_ {
        self.seats.iter().flat_map(|s| {
            s.hand
                .iter()
                .chain(&s.net_ocean)
                .chain(&s.dark_area)
                .chain(&s.removed)
                .copied()
                .chain(
                    s.digimon
                        .iter()
                        .flat_map(|d| std::iter::once(d.card).chain(d.stack.iter().copied())),
                )
                .chain(s.options.iter().map(|o| o.card))
                .chain(s.commands.iter().copied())
        })
    }
}

impl Match {
    /// The table as a stage lays it out (the whole truth; see [`Laid::open`]).
    pub fn layout(&self) -> Layout {
        let laid = |id: CardId, open: bool| self.number(id).map(|number| Laid { id, number, open });
        let all = |v: &[CardId], open: bool| v.iter().filter_map(|&c| laid(c, open)).collect();
        let commands = |seat: Seat| -> Vec<Laid> {
            self.battle
                .iter()
                .flat_map(|b| b.sides.iter())
                .filter(|side| side.seat == seat)
                .flat_map(|side| side.commands.iter().filter_map(|&c| laid(c, true)))
                .collect()
        };
        let seats = self
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, st)| {
                let seat = Seat::new(i)?;
                Some(SeatLaid {
                    seat,
                    points: st.points,
                    alive: st.alive,
                    target: st.target,
                    hand: all(&st.hand, false),
                    net_ocean: all(&st.ocean, false),
                    dark_area: all(&st.dark, false),
                    removed: all(&st.gone, true),
                    digimon: st
                        .digimon
                        .iter()
                        .filter_map(|m| {
                            Some(BoxLaid {
                                card: laid(m.card, !m.down)?,
                                tapped: m.tapped,
                                stack: m
                                    .stack
                                    .iter()
                                    .flat_map(|p| {
                                        p.partner
                                            .and_then(|x| laid(x, true))
                                            .into_iter()
                                            .chain(laid(p.card, false))
                                    })
                                    .collect(),
                            })
                        })
                        .collect(),
                    options: st
                        .options
                        .iter()
                        .filter_map(|o| {
                            Some(OptionLaid {
                                card: laid(o.card, !o.down)?,
                                tapped: o.tapped,
                            })
                        })
                        .collect(),
                    commands: commands(seat),
                })
            })
            .collect();
        Layout {
            seats,
            acting: match &self.wait {
                Some(Wait::Act(s, mon)) => Some((*s, *mon)),
                _ => None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::cards::CardSet;
    use crate::rules::alpha::{Rng64, Setup, deck};

    fn start(cards: &CardSet, seats: usize, seed: u64) -> Match {
        let names = ["courage", "friendship", "nightmare", "jogress"];
        let decks = (0..seats)
            .map(|i| deck::embedded(names[i], cards).unwrap().unwrap())
            .collect();
        Match::from_setup(&Setup::new(decks, seed), cards).unwrap()
    }

    #[test]
    fn every_card_is_laid_once_all_game_long() {
        let cards = CardSet::embedded();
        for seats in [2, 4] {
            let mut m = start(&cards, seats, 7);
            let total = m.layout().cards().count();
            assert_eq!(total, 32 * seats, "every card of every deck");
            let mut rng = Rng64::new(3);
            let mut steps = 0;
            while m.outcome().is_none() && steps < 2_000 {
                let layout = m.layout();
                let ids: HashSet<CardId> = layout.cards().map(|c| c.id).collect();
                assert_eq!(ids.len(), total, "a card twice or lost, step {steps}");
                assert!(ids.iter().all(|id| !id.is_hidden()));
                for s in &layout.seats {
                    assert!(s.hand.iter().all(|c| !c.open), "a hand is never open");
                    assert!(s.net_ocean.iter().chain(&s.dark_area).all(|c| !c.open));
                    assert!(s.removed.iter().all(|c| c.open));
                }
                let Some(seat) = m.waiting_for() else { break };
                let legal = m.legal_actions(seat);
                let _ = m.apply(seat, legal[rng.below(legal.len())]);
                steps += 1;
            }
            assert!(m.outcome().is_some(), "{seats} seats: the game ended");
        }
    }

    #[test]
    fn what_is_open_is_what_a_spectator_may_see() {
        let cards = CardSet::embedded();
        let mut m = start(&cards, 2, 11);
        let mut rng = Rng64::new(5);
        for _ in 0..400 {
            if m.outcome().is_some() {
                break;
            }
            // A seat's own view hides the other's hand, ocean and dark area
            // and face-down plays; every open card of the layout shows in it.
            let layout = m.layout();
            for viewer in [Seat::P1, Seat::P2] {
                let visible = m.visible_to(viewer);
                for c in layout.cards().filter(|c| c.open) {
                    assert!(
                        visible[usize::from(c.id.0)],
                        "{c:?} open but hidden from {viewer}"
                    );
                }
            }
            let Some(seat) = m.waiting_for() else { break };
            let legal = m.legal_actions(seat);
            let _ = m.apply(seat, legal[rng.below(legal.len())]);
        }
    }
}
