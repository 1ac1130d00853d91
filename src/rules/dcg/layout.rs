//! Where every card of a Digimon Card Game match lies, zone by zone, for a
//! presenter that shows each card (the arena's table): the playmat's areas
//! at each seat, each Digimon's digivolution cards under it, what is face
//! up and what is not. The layout follows the rules' zones and never
//! changes them. A hand is never open: only its owner sees it, and a
//! presenter decides whose hand to show. The rules keep no identity for
//! the copies of a card (two Agumon are the same card), so neither does
//! the layout: a presenter that moves cards matches copies by place.

use serde::Serialize;

use super::{Cid, Match, Perm, PermView, View, flow};
use crate::cards::CardNumber;
use crate::rules::Seat;

/// A card where it lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Laid {
    /// The card (a stand-in's number when `hidden`).
    pub number: CardNumber,
    /// Face up for every seat.
    pub open: bool,
    /// A card whose face the layout's viewer may not know (laid out from
    /// a seat's view): never shown face up.
    pub hidden: bool,
}

/// A card in play with the cards under it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StackLaid {
    /// Its id in play.
    pub id: u16,
    /// Its cards, bottom first: the top card, the one in play, is the last.
    pub cards: Vec<Laid>,
    /// Suspended (turned sideways).
    pub suspended: bool,
    /// A Digimon (its figure stands on it), not a Tamer or an Option.
    pub digimon: bool,
}

impl StackLaid {
    /// Its top card.
    pub fn top(&self) -> Option<Laid> {
        self.cards.last().copied()
    }
}

/// One seat's zones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatLaid {
    /// The seat.
    pub seat: Seat,
    /// The deck, face down, top last.
    pub deck: Vec<Laid>,
    /// The Digi-Egg deck, top last (face down, but for a top card the
    /// Players Format turned face up).
    pub eggs: Vec<Laid>,
    /// The hand, in order (never open).
    pub hand: Vec<Laid>,
    /// The security stack, face down, top last.
    pub security: Vec<Laid>,
    /// The security card being checked: out of the stack, face up, until
    /// it goes to the trash (or into play).
    pub revealed: Option<Laid>,
    /// The trash, face up, oldest first.
    pub trash: Vec<Laid>,
    /// The breeding area.
    pub breeding: Option<StackLaid>,
    /// The battle area: Digimon, Tamers and delayed Options, in the order
    /// they came.
    pub field: Vec<StackLaid>,
    /// The Players Format's Offline Area, face up.
    pub offline: Vec<Laid>,
    /// Memory banks (3–4 seats).
    pub banks: Vec<u8>,
    /// The Target Opponent (3–4 seats).
    pub target: Option<Seat>,
    /// Mega Damage taken.
    pub mega: u8,
    /// Corruption.
    pub corruption: u8,
    /// Defeated and out of the game.
    pub defeated: bool,
}

impl SeatLaid {
    /// Every card of the seat, each once.
    pub fn cards(&self) -> impl Iterator<Item = Laid> + '_ {
        self.deck
            .iter()
            .chain(&self.eggs)
            .chain(&self.hand)
            .chain(&self.security)
            .chain(&self.revealed)
            .chain(&self.trash)
            .chain(&self.offline)
            .copied()
            .chain(
                self.breeding
                    .iter()
                    .chain(&self.field)
                    .flat_map(|s| s.cards.iter().copied()),
            )
    }
}

/// Every card of a match, where it lies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// Every seat.
    pub seats: Vec<SeatLaid>,
    /// Whose turn.
    pub turn_player: Seat,
    /// The turn player's memory (negative: on the opponent's side).
    pub memory: i8,
    /// The attacking Digimon, while an attack is under way: its seat and id.
    pub attacking: Option<(Seat, u16)>,
    /// The seat asked now.
    pub waiting: Option<Seat>,
}

impl Layout {
    /// Every card on the table, each once.
    pub fn cards(&self) -> impl Iterator<Item = Laid> + '_ {
        self.seats.iter().flat_map(SeatLaid::cards)
    }
}

impl Match {
    /// The match's cards, zone by zone.
    pub fn layout(&self) -> Layout {
        let laid = |c: Cid, open: bool| Laid {
            number: self.number(c),
            open,
            hidden: false,
        };
        let all = |v: &[Cid], open: bool| v.iter().map(|&c| laid(c, open)).collect::<Vec<_>>();
        let stack = |p: &Perm| StackLaid {
            id: p.id,
            cards: all(&p.cards, true),
            suspended: p.suspended,
            digimon: self.is_digimon(p),
        };
        let seats = Seat::all(self.seats.len())
            .map(|s| {
                let z = self.z(s);
                let mut eggs = all(&z.eggs, false);
                if z.open_egg
                    && let Some(top) = eggs.last_mut()
                {
                    top.open = true;
                }
                SeatLaid {
                    seat: s,
                    deck: all(&z.deck, false),
                    eggs,
                    hand: all(&z.hand, false),
                    security: all(&z.security, false),
                    revealed: self.procs.iter().find_map(|p| match p {
                        flow::Proc::Attack(a) if a.def == s => a.revealed.map(|c| laid(c, true)),
                        _ => None,
                    }),
                    trash: all(&z.trash, true),
                    breeding: z.breeding.as_ref().map(stack),
                    field: z.field.iter().map(stack).collect(),
                    offline: all(&z.offline, true),
                    banks: z.banks.clone(),
                    target: self
                        .lan()
                        .then(|| Seat::new(usize::from(z.target)))
                        .flatten(),
                    mega: z.mega,
                    corruption: z.corruption,
                    defeated: z.defeated,
                }
            })
            .collect();
        Layout {
            seats,
            turn_player: self.turn_player(),
            memory: self.memory,
            attacking: self.attacking(),
            waiting: self.waiting().map(|(s, _)| s),
        }
    }
}

impl View {
    /// What the view's seat may see, laid out as [`Match::layout`] lays the
    /// whole match: the cards it may not see (other hands, decks, security
    /// stacks) are face-down stand-ins, `hidden`.
    pub fn layout(&self) -> Layout {
        // Any number will do for a card laid face down: one the view
        // shows, or the first starter deck's first.
        let stand_in = self
            .seats
            .iter()
            .find_map(|s| {
                s.hand
                    .iter()
                    .flatten()
                    .chain(&s.trash)
                    .chain(s.field.iter().chain(&s.breeding).flat_map(|p| &p.cards))
                    .chain(&s.offline)
                    .next()
                    .copied()
            })
            .or_else(|| "ST1-01".parse().ok());
        let shown = |n: &CardNumber| Laid {
            number: *n,
            open: true,
            hidden: false,
        };
        let hidden = |k: usize| -> Vec<Laid> {
            stand_in.map_or_else(Vec::new, |number| {
                vec![
                    Laid {
                        number,
                        open: false,
                        hidden: true,
                    };
                    k
                ]
            })
        };
        let stack = |p: &PermView| StackLaid {
            id: p.id,
            cards: p.cards.iter().map(shown).collect(),
            suspended: p.suspended,
            digimon: p.dp > 0,
        };
        let seats = self
            .seats
            .iter()
            .map(|s| {
                let mut eggs = hidden(s.eggs);
                if let (Some(top), Some(n)) = (eggs.last_mut(), s.open_egg) {
                    *top = shown(&n);
                }
                SeatLaid {
                    seat: s.seat,
                    deck: hidden(s.deck),
                    eggs,
                    hand: match &s.hand {
                        Some(h) => h
                            .iter()
                            .map(|n| Laid {
                                open: false,
                                ..shown(n)
                            })
                            .collect(),
                        None => hidden(s.hand_count),
                    },
                    security: hidden(s.security),
                    revealed: None,
                    trash: s.trash.iter().map(shown).collect(),
                    breeding: s.breeding.as_ref().map(stack),
                    field: s.field.iter().map(stack).collect(),
                    offline: s.offline.iter().map(shown).collect(),
                    banks: s.banks.clone(),
                    target: s.target,
                    mega: s.mega,
                    corruption: s.corruption,
                    defeated: s.defeated,
                }
            })
            .collect();
        Layout {
            seats,
            turn_player: self.turn_player,
            memory: self.memory,
            attacking: None,
            waiting: self.waiting.as_ref().map(|(s, _)| *s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;
    use crate::rules::Ruleset;
    use crate::rules::dcg::Format;

    fn game(seats: usize, format: Format, seed: u64) -> (Match, CardSet) {
        let cards = CardSet::embedded();
        let decks: Vec<_> = (0..seats)
            .map(|i| Match::house_cards(Seat::new(i).unwrap(), seed + i as u64, &cards))
            .collect();
        let mut setup = Match::setup_for(decks, seed);
        if format != Format::Standard {
            setup.format = format;
            setup.decks = (0..seats)
                .map(|i| {
                    Match::format_house_cards("players", Seat::new(i).unwrap(), i as u64, &cards)
                        .unwrap()
                })
                .collect();
        }
        (Match::from_setup(&setup, &cards).unwrap(), cards)
    }

    /// The seat asked takes one of its legal answers, picked by `k` (the
    /// rules' tests do without the CPU players); a game that is over stays.
    fn step_on(m: &mut Match, k: usize) {
        let Some((seat, _)) = m.waiting() else { return };
        let legal = m.legal_actions(seat);
        // Mostly the first answer (play on, attack), now and then another.
        let a = if k.is_multiple_of(3) {
            legal[(k / 3) % legal.len()]
        } else {
            legal[0]
        };
        m.apply(seat, a).unwrap();
    }

    /// Plays legal moves and checks the layout after each: every card of a
    /// seat's deck lies in exactly one of its places, a hand, the deck and
    /// the security stack are never open, the trash always is.
    #[test]
    fn every_card_lies_once_and_hidden_zones_stay_hidden() {
        let sorted = |mut v: Vec<CardNumber>| {
            v.sort_by_key(ToString::to_string);
            v
        };
        for (seats, format) in [
            (2, Format::Standard),
            (4, Format::Players),
            (3, Format::Standard),
        ] {
            let (mut m, _cards) = game(seats, format, 7);
            let decks: Vec<Vec<CardNumber>> = m.setup().decks.iter().cloned().map(sorted).collect();
            for step in 0..400 {
                if m.waiting().is_none() {
                    break;
                }
                let layout = m.layout();
                for (s, deck) in layout.seats.iter().zip(&decks) {
                    if !s.defeated {
                        let laid = sorted(s.cards().map(|c| c.number).collect());
                        assert_eq!(&laid, deck, "{} at step {step}", s.seat);
                    }
                    assert!(
                        s.hand
                            .iter()
                            .chain(&s.security)
                            .chain(&s.deck)
                            .all(|c| !c.open)
                    );
                    assert!(s.trash.iter().all(|c| c.open));
                    for p in s.field.iter().chain(&s.breeding) {
                        assert!(!p.cards.is_empty());
                    }
                }
                step_on(&mut m, step);
            }
        }
    }

    /// A seat's view lays out as many cards in each place as the match,
    /// the same cards where the seat may see them, and stand-ins (never
    /// face up) where it may not.
    #[test]
    fn a_view_lays_out_what_its_seat_may_see() {
        let (mut m, _) = game(3, Format::Standard, 11);
        for seen in 0..300 {
            let full = m.layout();
            for me in [Some(Seat::P1), Some(Seat::P2), None] {
                let seen = m.view(me).layout();
                assert_eq!(seen.memory, full.memory);
                assert_eq!(seen.waiting, full.waiting);
                for (a, b) in full.seats.iter().zip(&seen.seats) {
                    assert_eq!(a.deck.len(), b.deck.len());
                    assert_eq!(a.security.len(), b.security.len());
                    assert_eq!(a.eggs.len(), b.eggs.len());
                    assert_eq!(a.hand.len(), b.hand.len());
                    assert_eq!(a.trash, b.trash);
                    assert_eq!(a.field, b.field);
                    assert!(
                        b.deck
                            .iter()
                            .chain(&b.security)
                            .all(|c| c.hidden && !c.open)
                    );
                    let mine = me == Some(a.seat);
                    assert!(b.hand.iter().all(|c| c.hidden != mine && !c.open));
                    if mine {
                        let numbers = |h: &[Laid]| h.iter().map(|c| c.number).collect::<Vec<_>>();
                        assert_eq!(numbers(&a.hand), numbers(&b.hand));
                    }
                }
            }
            if m.waiting().is_none() {
                break;
            }
            step_on(&mut m, seen);
        }
    }

    #[test]
    fn a_suspended_digimon_and_its_stack_are_laid_as_the_rules_hold_them() {
        let (mut m, _) = game(2, Format::Standard, 3);
        // Play on until some Digimon in the battle area has cards under it.
        for turn in 0..2000 {
            let layout = m.layout();
            for (s, laid) in layout.seats.iter().enumerate() {
                let seat = Seat::new(s).unwrap();
                for (p, l) in m.field(seat).iter().zip(&laid.field) {
                    assert_eq!(p.id, l.id);
                    assert_eq!(p.suspended, l.suspended);
                    let numbers: Vec<_> = p.cards.iter().map(|&c| m.number(c)).collect();
                    let laid_numbers: Vec<_> = l.cards.iter().map(|c| c.number).collect();
                    assert_eq!(numbers, laid_numbers);
                }
            }
            if layout
                .seats
                .iter()
                .any(|s| s.field.iter().any(|p| p.digimon && p.cards.len() > 1))
            {
                return;
            }
            if m.waiting().is_none() {
                break;
            }
            step_on(&mut m, turn);
        }
        panic!("no Digimon ever digivolved in play");
    }
}
