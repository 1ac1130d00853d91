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
        self.lay_out(None)
    }

    /// The layout; a card whose id is unknown is laid face down with the
    /// `stand_in` number (or left out without one).
    fn lay_out(&self, stand_in: Option<CardNumber>) -> Layout {
        let laid = |id: CardId, open: bool| match self.number(id) {
            Some(number) => Some(Laid { id, number, open }),
            None => stand_in.map(|number| Laid {
                id,
                number,
                open: false,
            }),
        };
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

impl CardId {
    /// The first stand-in id of a [`View::layout`]: the cards a seat may
    /// not see are laid under `STAND_IN`, `STAND_IN + 1`, … in table order.
    pub const STAND_IN: u16 = 0xC000;

    /// Whether this is a stand-in for a card the viewer may not see.
    pub fn is_stand_in(self) -> bool {
        self.0 >= CardId::STAND_IN && !self.is_hidden()
    }
}

impl super::View {
    /// The table as this seat may see it, for a stage (a LAN client's): the
    /// cards it may know are laid as [`Match::layout`] lays them; every
    /// other card is laid face down, never open, under a stand-in id
    /// ([`CardId::STAND_IN`] on, numbered in table order, so the same place
    /// may hold another stand-in after the table changes) with a stand-in
    /// card number (the first of the match's cards), so the stage draws
    /// its back where it lies.
    pub fn layout(&self) -> Layout {
        let mut m = self.state().clone();
        let mut next = CardId::STAND_IN;
        m.each_slot(|_, _, id| {
            if id.is_hidden() {
                *id = CardId(next);
                next = next.saturating_add(1).min(CardId::HIDDEN.0 - 1);
            }
        });
        let stand_in = m.defs.shared().first().map(crate::cards::Card::number);
        m.lay_out(stand_in)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::cards::CardSet;
    use crate::rules::alpha::{Rng64, Setup, deck};

    #[test]
    fn a_view_lays_out_every_card_and_shows_only_what_its_seat_may_see() {
        let cards = CardSet::embedded();
        for seats in [2, 4] {
            let mut m = start(&cards, seats, 12);
            let mut rng = Rng64::new(5);
            for step in 0..160 {
                if m.outcome().is_some() {
                    break;
                }
                let Some(seat) = m.waiting_for() else { break };
                if step % 20 == 0 {
                    let truth = m.layout();
                    let view = m.view(seat);
                    let seen = view.layout();
                    let own: HashSet<CardId> = m.seats[seat.index()].hand.iter().copied().collect();
                    for (t, s) in truth.seats.iter().zip(&seen.seats) {
                        // Every card is there, in its zone.
                        assert_eq!(t.hand.len(), s.hand.len());
                        assert_eq!(t.net_ocean.len(), s.net_ocean.len());
                        assert_eq!(t.dark_area.len(), s.dark_area.len());
                        assert_eq!(t.digimon.len(), s.digimon.len());
                        assert_eq!(t.options.len(), s.options.len());
                    }
                    let ids: Vec<CardId> = seen.cards().map(|c| c.id).collect();
                    let unique: HashSet<CardId> = ids.iter().copied().collect();
                    assert_eq!(ids.len(), unique.len(), "an id laid twice");
                    assert_eq!(ids.len(), truth.cards().count());
                    let stand_in = seen.cards().find(|c| c.id.is_stand_in()).unwrap().number;
                    let visible = m.visible_to(seat);
                    for c in seen.cards() {
                        if c.id.is_stand_in() {
                            assert!(!c.open);
                            assert_eq!(c.number, stand_in);
                        } else {
                            // A real id is one the seat may see, with its card.
                            assert!(visible[usize::from(c.id.0)], "{c:?}");
                            assert_eq!(Some(c.number), m.number(c.id));
                        }
                    }
                    // Its own hand is there, by its real ids.
                    let hand: HashSet<CardId> =
                        seen.seats[seat.index()].hand.iter().map(|c| c.id).collect();
                    assert_eq!(hand, own);
                }
                let legal = m.legal_actions(seat);
                m.apply(seat, legal[rng.below(legal.len())]).unwrap();
            }
        }
    }

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

    /// Issue 41: a view names no card of another deck before it is shown.
    /// Every id of another seat the view may not see has no card, the
    /// view's definitions hold no card only such ids are, and the view as
    /// sent over the LAN does not spell one; the seat's own deck list it
    /// keeps. Its CPU's sampled worlds still name every card.
    #[test]
    fn a_view_names_no_card_of_another_deck_before_it_is_shown() {
        let cards = CardSet::embedded();
        let mut m = start(&cards, 2, 3);
        let mut rng = Rng64::new(9);
        let mut checked = 0;
        for step in 0..200 {
            if m.outcome().is_some() {
                break;
            }
            let Some(seat) = m.waiting_for() else { break };
            if step % 10 == 0 {
                let view = m.view(seat);
                let visible = m.visible_to(seat);
                let state = view.state();
                let mut hidden_numbers = HashSet::new();
                let mut named_numbers = HashSet::new();
                for (i, &(_, owner)) in m.ids.iter().enumerate() {
                    let id = CardId(i as u16);
                    let number = m.number(id).unwrap();
                    if owner == seat || visible[i] {
                        assert_eq!(state.number(id), Some(number), "{id:?} the seat may name");
                        named_numbers.insert(number);
                    } else {
                        assert_eq!(state.number(id), None, "{id:?} unseen yet named");
                        hidden_numbers.insert(number);
                    }
                }
                let only_hidden: Vec<_> = hidden_numbers.difference(&named_numbers).collect();
                let sent = ron::to_string(&view).unwrap();
                assert!(
                    named_numbers
                        .iter()
                        .any(|n| sent.contains(&format!("\"{n}\""))),
                    "a card it may name is in the view sent, spelt so"
                );
                for n in &only_hidden {
                    assert!(!sent.contains(&format!("\"{n}\"")), "{n} in the view sent");
                    assert!(
                        !state.deck_lists().iter().flatten().any(|x| x == *n),
                        "{n} in the view's deck lists"
                    );
                }
                assert_eq!(
                    state.deck_lists()[seat.index()].len(),
                    m.deck_lists()[seat.index()].len(),
                    "the seat's own deck list"
                );
                view.well_formed().unwrap();
                let world = view.sample(&mut rng);
                assert!(world.ids.iter().all(|&(d, _)| world.defs.card(d).is_some()));
                checked += usize::from(!only_hidden.is_empty());
            }
            let legal = m.legal_actions(seat);
            let _ = m.apply(seat, legal[rng.below(legal.len())]);
        }
        assert!(
            checked > 0,
            "a card of the other deck was unseen and unnamed"
        );
    }
}
