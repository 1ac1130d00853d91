//! Where every card of an Alpha Clash match lies, zone by zone, for a
//! presenter that shows each card (the arena's table): each seat's
//! Contender, Clash Zone, Accessory Zone, Clashground, Resource Zone (face
//! down, its colours public), deck, Oblivion and hand, and what waits in
//! Standby between the players. The layout follows the rules' zones and
//! never changes them. Every card keeps its id in the match, so a
//! presenter moves each card from where it was to where it goes.

use serde::Serialize;

use super::{Cid, ClashStep, Match, Named, Phase, View};
use crate::cards::CardNumber;
use crate::rules::Seat;

/// A card where it lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Laid {
    /// Its id in the match (`None`: a stand-in the viewer may not know).
    pub id: Option<Cid>,
    /// The card (a stand-in's number when hidden).
    pub number: CardNumber,
    /// Face up for every seat.
    pub open: bool,
    /// Turned sideways (engaged).
    pub engaged: bool,
}

impl Laid {
    /// Whether the viewer may not know the card.
    pub fn hidden(&self) -> bool {
        self.id.is_none()
    }
}

/// A Contender or Clash card in play, with its figures now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct UnitLaid {
    /// The card.
    pub card: Laid,
    /// Attack and defence now.
    pub attack: i16,
    /// Defence now.
    pub defense: i16,
    /// The Weapon attached.
    pub weapon: Option<Laid>,
}

/// One seat's zones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatLaid {
    /// The seat.
    pub seat: Seat,
    /// The Contender.
    pub contender: UnitLaid,
    /// Health now, and the most.
    pub health: (i16, i16),
    /// The Clash Zone.
    pub clash: Vec<UnitLaid>,
    /// The Accessory Zone's cards not attached (set Traps face down).
    pub accessories: Vec<Laid>,
    /// The Clashground.
    pub clashground: Option<Laid>,
    /// The Resource Zone, face down.
    pub resources: Vec<Laid>,
    /// The deck, face down, top last.
    pub deck: Vec<Laid>,
    /// Oblivion, face up.
    pub oblivion: Vec<Laid>,
    /// The hand (never open).
    pub hand: Vec<Laid>,
    /// The Portal is open.
    pub portal: bool,
    /// Out of the game.
    pub lost: bool,
}

/// Every card of a match, where it lies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// Every seat.
    pub seats: Vec<SeatLaid>,
    /// Standby, the next to resolve last: whose, and the card.
    pub standby: Vec<(Seat, Laid)>,
    /// Whose turn.
    pub active: Seat,
    /// The Clash under way: its step, attacker and target.
    pub fight: Option<(ClashStep, Cid, Cid)>,
    /// The seat asked now.
    pub waiting: Option<Seat>,
    /// The game is over.
    pub over: bool,
}

impl Layout {
    /// Every card on the table, each once.
    pub fn cards(&self) -> impl Iterator<Item = Laid> + '_ {
        self.seats
            .iter()
            .flat_map(|s| {
                std::iter::once(s.contender.card)
                    .chain(s.clash.iter().map(|u| u.card))
                    .chain(
                        std::iter::once(&s.contender)
                            .chain(&s.clash)
                            .filter_map(|u| u.weapon),
                    )
                    .chain(s.accessories.iter().copied())
                    .chain(s.clashground)
                    .chain(s.resources.iter().copied())
                    .chain(s.deck.iter().copied())
                    .chain(s.oblivion.iter().copied())
                    .chain(s.hand.iter().copied())
            })
            .chain(self.standby.iter().map(|(_, c)| *c))
    }
}

impl Match {
    /// The match's cards, zone by zone.
    pub fn layout(&self) -> Layout {
        let laid = |c: Cid, open: bool, engaged: bool| Laid {
            id: Some(c),
            number: self.number(c),
            open,
            engaged,
        };
        let unit = |c: Cid, engaged: bool| UnitLaid {
            card: laid(c, true, engaged),
            attack: self.attack_of(c),
            defense: self.defense_of(c),
            weapon: super::flow::weapon_on(self, c).map(|w| laid(w, true, false)),
        };
        let seats = Seat::all(self.sides.len())
            .map(|s| {
                let z = self.side(s);
                SeatLaid {
                    seat: s,
                    contender: unit(z.contender.card, z.contender.engaged),
                    health: (z.health, self.max_health(s)),
                    clash: z.clash.iter().map(|u| unit(u.card, u.engaged)).collect(),
                    accessories: z
                        .accessories
                        .iter()
                        .filter(|a| a.on.is_none())
                        .map(|a| laid(a.card, a.set_on.is_none(), a.engaged))
                        .collect(),
                    clashground: z.clashground.map(|c| laid(c, true, false)),
                    resources: z.resources.iter().map(|r| laid(r.0, false, r.1)).collect(),
                    deck: z.deck.iter().map(|&c| laid(c, false, false)).collect(),
                    oblivion: z.oblivion.iter().map(|&c| laid(c, true, false)).collect(),
                    hand: z
                        .hand
                        .iter()
                        .chain(&z.returning)
                        .map(|&c| laid(c, false, false))
                        .collect(),
                    portal: z.portal,
                    lost: z.lost,
                }
            })
            .collect();
        Layout {
            seats,
            // A card declared whose targets are being chosen is on its way
            // into Standby: it lies there already. An ability, the Portal,
            // Awe Factor or a Barrage waiting there is an effect: its card
            // stays where it is.
            standby: self
                .standby
                .iter()
                .chain(self.choosing.as_ref().map(|c| &c.entry))
                .filter(|e| matches!(e.what, super::What::Play | super::What::Trap))
                .map(|e| (e.seat, laid(e.source, true, false)))
                .collect(),
            active: self.active,
            fight: self.fight.as_ref().map(|f| (f.step, f.attacker, f.target)),
            waiting: self.waiting().map(|w| w.0),
            over: self.outcome.is_some() || self.phase == Phase::Over,
        }
    }
}

impl View {
    /// What the view's seat may see, laid out as [`Match::layout`] lays the
    /// whole match: the cards it may not see (other hands, decks, face-down
    /// Traps and Resources) are face-down stand-ins without an id.
    pub fn layout(&self) -> Layout {
        // Any number will do for a card laid face down: a Contender's.
        let stand_in = self.seats[0].contender.card.number;
        let hidden = |engaged: bool| Laid {
            id: None,
            number: stand_in,
            open: false,
            engaged,
        };
        let shown = |n: &Named, engaged: bool| Laid {
            id: Some(n.id),
            number: n.number,
            open: true,
            engaged,
        };
        let unit = |u: &super::UnitView| UnitLaid {
            card: shown(&u.card, u.engaged),
            attack: u.attack,
            defense: u.defense,
            weapon: u.weapon.as_ref().map(|w| shown(w, false)),
        };
        let seats = self
            .seats
            .iter()
            .map(|s| {
                let mine = self.me == Some(s.seat);
                SeatLaid {
                    seat: s.seat,
                    contender: unit(&s.contender),
                    health: (s.health, s.max_health),
                    clash: s.clash.iter().map(unit).collect(),
                    accessories: s
                        .accessories
                        .iter()
                        .filter(|a| a.on.is_none())
                        .map(|a| match &a.card {
                            Some(c) => Laid {
                                open: !a.face_down,
                                ..shown(c, a.engaged)
                            },
                            None => hidden(a.engaged),
                        })
                        .collect(),
                    clashground: s.clashground.as_ref().map(|c| shown(c, false)),
                    resources: s.resources.iter().map(|r| hidden(r.1)).collect(),
                    deck: (0..s.deck_count).map(|_| hidden(false)).collect(),
                    oblivion: s.oblivion.iter().map(|c| shown(c, false)).collect(),
                    hand: match (&s.hand, mine) {
                        (Some(h), true) => h
                            .iter()
                            .map(|c| Laid {
                                open: false,
                                ..shown(c, false)
                            })
                            .collect(),
                        _ => (0..s.hand_count).map(|_| hidden(false)).collect(),
                    },
                    portal: s.portal,
                    lost: s.lost,
                }
            })
            .collect();
        Layout {
            seats,
            standby: self
                .standby
                .iter()
                .filter(|e| matches!(e.what, super::What::Play | super::What::Trap))
                .map(|e| (e.seat, shown(&e.card, false)))
                .collect(),
            active: self.active,
            fight: self.fight.as_ref().map(|f| (f.4, f.1, f.2)),
            waiting: self.waiting.map(|w| w.0),
            over: self.outcome.is_some(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;
    use crate::rules::Ruleset;
    use crate::rules::alpha::Rng64;

    /// Every card of each seat is laid out exactly once, wherever the
    /// game is; hands, decks and Resources are never open; a seat's view
    /// lays out what the match does where the seat may see.
    #[test]
    fn every_card_lies_once_and_a_view_agrees_with_the_match() {
        let set = CardSet::embedded();
        for seats in 2..=3 {
            let decks = (0..seats)
                .map(|i| Match::house_cards(Seat::new(i).unwrap(), i as u64, &set))
                .collect();
            let mut m = Match::from_setup(&Match::setup_for(decks, 3), &set).unwrap();
            let mut rng = Rng64::new(seats as u64);
            for step in 0..3000 {
                let l = m.layout();
                let mut ids: Vec<Cid> = l.cards().filter_map(|c| c.id).collect();
                let n = ids.len();
                ids.sort_unstable();
                ids.dedup();
                assert_eq!(ids.len(), n, "step {step}: a card laid twice");
                assert_eq!(n, m.cards.len(), "step {step}: every card laid");
                for s in &l.seats {
                    assert!(
                        s.hand
                            .iter()
                            .chain(&s.deck)
                            .chain(&s.resources)
                            .all(|c| !c.open)
                    );
                }
                let v = m.view(Some(Seat::P1)).layout();
                assert_eq!(v.seats[0].clash, l.seats[0].clash, "step {step}");
                assert_eq!(v.seats[1].clash, l.seats[1].clash, "step {step}");
                assert_eq!(v.standby, l.standby);
                assert!(v.seats[1].hand.iter().all(Laid::hidden));
                assert_eq!(v.seats[1].hand.len(), l.seats[1].hand.len());
                let Some((s, _)) = m.waiting() else { break };
                let legal = m.legal_actions(s);
                m.apply(s, legal[rng.below(legal.len())]).unwrap();
            }
        }
    }
}
