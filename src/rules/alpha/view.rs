//! What one seat may know: [`Match::view`] masks every card the seat may
//! not see ([`CardId::HIDDEN`]): the others' hands, every Net Ocean and
//! Dark Area (face down, counts only), the others' face-down plays. A seat
//! knows its own deck list, not where each of its cards is; another seat's
//! deck it knows only as its cards are shown: a view names no card of
//! another deck before then (its definition leaves the view, `UNSEEN_DEF`).
//! [`View::sample`] deals the unseen cards back out at random, consistently
//! with everything the view shows (another seat's unnamed cards guessed
//! from the cards this seat knows), so a CPU can search a world it might be
//! in without ever reading the true one.

use serde::{Deserialize, Serialize};

use super::{CardId, Match, Rng64, Wait};
use crate::cards::{Card, Requirements, Stage};
use crate::rules::Seat;

/// A card's definition in a view that may not name it (another seat's
/// card not yet shown).
pub(super) const UNSEEN_DEF: u16 = u16::MAX;

/// One seat's view of a match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    seat: Seat,
    state: Match,
    /// A spectator's view: only what is public (no hand is shown; `seat`
    /// is P1's, for the questions that need one).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    watching: bool,
}

/// What a face-down slot may hold, as its position tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Slot {
    /// A new Digimon played face down: a Level III.
    LevelIii,
    /// A face-down Option.
    Option,
    /// On a Digimon, without a partner: a Level IV+ Digimon that is no Jogress.
    Evolution,
    /// On a Digimon, with a partner: a Jogress card.
    Jogress,
    /// Anything the seat owns (a hand, a Net Ocean, a Dark Area).
    Any,
}

impl Slot {
    fn fits(self, card: &Card) -> bool {
        let d = card.as_digimon();
        match self {
            Slot::LevelIii => d.is_some_and(|d| d.level.stage() == Stage::III),
            Slot::Option => matches!(card, Card::Option(_)),
            Slot::Evolution => d.is_some_and(|d| {
                d.level.stage() != Stage::III
                    && !matches!(d.requirements, Requirements::Jogress(..))
            }),
            Slot::Jogress => d.is_some_and(|d| matches!(d.requirements, Requirements::Jogress(..))),
            Slot::Any => true,
        }
    }
}

impl Match {
    /// What `seat` may know now.
    pub fn view(&self, seat: Seat) -> View {
        self.masked(Some(seat))
    }

    /// What a spectator may know now: the open cards only.
    pub fn spectator_view(&self) -> View {
        self.masked(None)
    }

    fn masked(&self, seat: Option<Seat>) -> View {
        let mut state = self.clone();
        let visible = self.visible(seat);
        state.each_slot(|_, _, id| {
            if !id.is_hidden() && !visible[usize::from(id.0)] {
                *id = CardId::HIDDEN;
            }
        });
        state.uses.retain(|u| visible[usize::from(u.0.0)]);
        state.forget_unseen(&visible, seat);
        state.rng = Rng64::new(0);
        state.history = 0;
        state.log.clear();
        state.unlist();
        View {
            seat: seat.unwrap_or(Seat::P1),
            state,
            watching: seat.is_none(),
        }
    }

    /// Which card ids `seat` may see.
    #[cfg(test)]
    pub(super) fn visible_to(&self, seat: Seat) -> Vec<bool> {
        self.visible(Some(seat))
    }

    /// Which card ids `seat` (`None`: a spectator) may see.
    fn visible(&self, seat: Option<Seat>) -> Vec<bool> {
        let mut v = vec![false; self.ids.len()];
        let mut see = |id: CardId| {
            if let Some(x) = v.get_mut(usize::from(id.0)) {
                *x = true;
            }
        };
        for (i, st) in self.seats.iter().enumerate() {
            let mine = seat.is_some_and(|s| s.index() == i);
            if mine {
                st.hand.iter().copied().for_each(&mut see);
            }
            st.gone.iter().copied().for_each(&mut see);
            for m in &st.digimon {
                if mine || !m.down {
                    see(m.card);
                }
                for p in &m.stack {
                    if mine {
                        see(p.card);
                    }
                    p.partner.into_iter().for_each(&mut see);
                }
            }
            for o in &st.options {
                if mine || !o.down {
                    see(o.card);
                }
            }
        }
        if let Some(b) = &self.battle {
            for side in &b.sides {
                side.commands.iter().copied().for_each(&mut see);
            }
        }
        v
    }

    /// Visits every card position of the seats' zones, in a fixed order,
    /// with its owner and what it may hold.
    pub(super) fn each_slot(&mut self, mut f: impl FnMut(Seat, Slot, &mut CardId)) {
        for (i, st) in self.seats.iter_mut().enumerate() {
            let Some(owner) = Seat::new(i) else { continue };
            for id in st.hand.iter_mut().chain(&mut st.ocean).chain(&mut st.dark) {
                f(owner, Slot::Any, id);
            }
            for id in &mut st.gone {
                f(owner, Slot::Any, id);
            }
            for m in &mut st.digimon {
                let slot = if m.down { Slot::LevelIii } else { Slot::Any };
                f(owner, slot, &mut m.card);
                for p in &mut m.stack {
                    let slot = if p.partner.is_some() {
                        Slot::Jogress
                    } else {
                        Slot::Evolution
                    };
                    f(owner, slot, &mut p.card);
                    if let Some(partner) = &mut p.partner {
                        f(owner, Slot::Any, partner);
                    }
                }
            }
            for o in &mut st.options {
                let slot = if o.down { Slot::Option } else { Slot::Any };
                f(owner, slot, &mut o.card);
            }
        }
    }
}

impl View {
    /// Whether a view read from elsewhere (a LAN host's) holds together
    /// where the rules and the stage index it: 2 to 4 seats, its own seat
    /// one of them, every card id known (or hidden), every seat it names
    /// one of the table's.
    pub fn well_formed(&self) -> Result<(), String> {
        let m = &self.state;
        let n = m.seats.len();
        if !(2..=4).contains(&n) {
            return Err(format!("{n} seats"));
        }
        let seat_ok = |s: Seat| s.index() < n;
        if !seat_ok(self.seat) {
            return Err(format!("its own seat {} is not at the table", self.seat));
        }
        if !m
            .ids
            .iter()
            .all(|&(def, s)| seat_ok(s) && (def == UNSEEN_DEF || m.defs.card(def).is_some()))
        {
            return Err("a card of an unknown seat or definition".to_string());
        }
        if !m.order.iter().copied().all(seat_ok)
            || !m.seats.iter().all(|st| seat_ok(st.target))
            || m.wait.as_ref().is_some_and(|w| !seat_ok(w.seat()))
        {
            return Err("a seat that is not at the table".to_string());
        }
        let ids = m.ids.len();
        let mut bad = false;
        let mut copy = m.clone();
        copy.each_slot(|_, _, id| {
            bad |= !id.is_hidden() && usize::from(id.0) >= ids;
        });
        if bad {
            return Err("a card id out of range".to_string());
        }
        Ok(())
    }

    /// Whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Whether this is a spectator's view (no seat's own cards in it).
    pub fn is_spectator(&self) -> bool {
        self.watching
    }

    /// The masked match: every hidden card is [`CardId::HIDDEN`]. Read it
    /// with [`Match`]'s accessors; it cannot be played on.
    pub fn state(&self) -> &Match {
        &self.state
    }

    /// A fingerprint of the view (what a CPU seeds its search with).
    pub fn hash(&self) -> u64 {
        self.state.state_hash() ^ (self.seat.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The cards in the seat's own hand.
    pub fn hand(&self) -> &[CardId] {
        &self.state.seats[self.seat.index()].hand
    }

    /// A world consistent with the view: the unseen cards of each owner,
    /// dealt at random into that owner's hidden places (face-down plays get
    /// cards that could be there). The match's random numbers are fresh.
    pub fn sample(&self, rng: &mut Rng64) -> Match {
        let mut world = self.state.clone();
        let n = world.seats.len();
        let mut seen = vec![false; world.ids.len()];
        world.each_slot(|_, _, id| {
            if !id.is_hidden() {
                seen[usize::from(id.0)] = true;
            }
        });
        // Another seat's cards the view does not name are guessed: each is
        // one of the cards this seat knows (its own deck, and every card
        // shown), as a player would guess at an opponent's deck.
        let mut ids = world.ids.to_vec();
        let mut known: Vec<u16> = ids
            .iter()
            .map(|&(d, _)| d)
            .filter(|&d| d != UNSEEN_DEF)
            .collect();
        known.sort_unstable();
        known.dedup();
        if !known.is_empty() {
            for (d, _) in &mut ids {
                if *d == UNSEEN_DEF {
                    *d = known[(rng.next_u64() % known.len() as u64) as usize];
                }
            }
        }
        world.ids = ids.into();
        // Unseen cards per owner, in id order, then shuffled.
        let mut pools: Vec<Vec<CardId>> = vec![Vec::new(); n];
        for (i, &(_, owner)) in world.ids.iter().enumerate() {
            if !seen[i]
                && let Some(p) = pools.get_mut(owner.index())
            {
                p.push(CardId(i as u16));
            }
        }
        for p in &mut pools {
            rng.shuffle(p);
        }
        // Constrained places first, then the rest.
        let mut holes: Vec<(Slot, Seat, usize)> = Vec::new();
        let mut k = 0usize;
        world.each_slot(|owner, slot, id| {
            if id.is_hidden() {
                holes.push((slot, owner, k));
            }
            k += 1;
        });
        holes.sort_by_key(|&(slot, _, at)| (slot, at));
        let mut fill: Vec<(usize, CardId)> = Vec::with_capacity(holes.len());
        for (slot, owner, at) in holes {
            let pool = &mut pools[owner.index()];
            let pick = pool
                .iter()
                .position(|&c| world.card(c).is_some_and(|card| slot.fits(card)))
                .or(if pool.is_empty() { None } else { Some(0) });
            if let Some(i) = pick {
                fill.push((at, pool.swap_remove(i)));
            }
        }
        fill.sort_unstable();
        let mut k = 0usize;
        let mut next = fill.into_iter().peekable();
        world.each_slot(|_, _, id| {
            if next.peek().is_some_and(|&(at, _)| at == k)
                && let Some((_, c)) = next.next()
            {
                *id = c;
            }
            k += 1;
        });
        world.rng = Rng64::new(rng.next_u64());
        world
    }

    /// The table as text lines, as this seat sees it.
    pub fn table_lines(&self) -> Vec<String> {
        let m = &self.state;
        let name = |id: CardId| {
            m.card(id)
                .map_or_else(|| "(face down)".to_string(), |c| c.name().to_string())
        };
        let mut out = Vec::new();
        out.push(format!(
            "Turn {} — order: {}",
            m.turn,
            m.order
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
        for (i, st) in m.seats.iter().enumerate() {
            let Some(s) = Seat::new(i) else { continue };
            let mut head = format!(
                "{s}{}: {} points · hand {} · Net Ocean {} · Dark Area {} · removed {}",
                if s == self.seat && !self.watching {
                    " (you)"
                } else {
                    ""
                },
                st.points,
                st.hand.len(),
                st.ocean.len(),
                st.dark.len(),
                st.gone.len()
            );
            if !st.alive {
                head.push_str(" · OUT");
            } else if m.seats.len() > 2 {
                head.push_str(&format!(" · targets {}", st.target));
            }
            out.push(head);
            for mon in &st.digimon {
                let mut line = if mon.down {
                    format!("    Digimon: {} [face down]", name(mon.card))
                } else {
                    match m.def(mon.card) {
                        Some(d) => format!(
                            "    Digimon: {} — Speed {} · HP {} · type {} · {:?} · A {} B {} C {}{}{}",
                            d.name,
                            m.speed(mon.card),
                            m.hp(mon.card),
                            m.battle_type(mon.card),
                            d.field,
                            d.techniques.a.power,
                            d.techniques.b.power,
                            d.techniques.c.power,
                            if mon.tapped { " · TAPPED" } else { "" },
                            if mon.acted { " · acted" } else { "" },
                        ),
                        None => format!("    Digimon: {}", name(mon.card)),
                    }
                };
                for p in &mon.stack {
                    line.push_str(&format!(" ← {}", name(p.card)));
                    if let Some(partner) = p.partner {
                        line.push_str(&format!(" (with {})", name(partner)));
                    }
                }
                out.push(line);
            }
            for o in &st.options {
                out.push(format!(
                    "    Option: {}{}{}",
                    name(o.card),
                    if o.down { " [face down]" } else { "" },
                    if o.tapped { " · TAPPED" } else { "" }
                ));
            }
            if s == self.seat && !self.watching {
                let hand: Vec<String> = st
                    .hand
                    .iter()
                    .map(|&c| match m.card(c) {
                        Some(Card::Digimon(d)) => format!(
                            "{} (Lv {:?}, Cost {}, Speed {})",
                            d.name,
                            d.level.stage(),
                            d.cost,
                            d.speed
                        ),
                        Some(Card::Option(o)) => format!("{} (Option, Cost {})", o.name, o.cost),
                        Some(Card::Command(c)) => format!("{} (Command)", c.name),
                        Some(Card::Dcg(c)) => c.name.clone(),
                        Some(Card::Clash(c)) => c.name.clone(),
                        None => name(c),
                    })
                    .collect();
                out.push(format!("    Hand: {}", hand.join(" · ")));
            }
        }
        if let Some(Wait::Act(s, mon)) = &m.wait {
            out.push(format!("Now: {s}'s {} acts.", name(*mon)));
        }
        out
    }
}

/// Every zone of one seat, with card names: the whole truth, for a
/// scripted game's final state and for tests (never for a player).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Zones {
    /// The seat.
    pub seat: Seat,
    /// Its points.
    pub points: u32,
    /// Still in the game.
    pub alive: bool,
    /// Its Target Opponent.
    pub target: Seat,
    /// Hand, in order.
    pub hand: Vec<String>,
    /// Net Ocean, top first.
    pub net_ocean: Vec<String>,
    /// Dark Area, oldest first.
    pub dark_area: Vec<String>,
    /// Removed from the game.
    pub removed: Vec<String>,
    /// The Digimon Box, in line-up order.
    pub digimon: Vec<DigimonZone>,
    /// The Option Slot.
    pub options: Vec<OptionZone>,
}

/// A Digimon in a Box.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DigimonZone {
    /// Its card.
    pub card: String,
    /// Face down (played this Preparation Phase).
    pub face_down: bool,
    /// Tapped.
    pub tapped: bool,
    /// Cards placed on it, bottom first.
    pub stack: Vec<String>,
}

/// An Option card in the Slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionZone {
    /// Its card.
    pub card: String,
    /// Face down.
    pub face_down: bool,
    /// Tapped.
    pub tapped: bool,
}

impl Match {
    /// Every seat's zones, every card named.
    pub fn zones(&self) -> Vec<Zones> {
        let name = |id: CardId| {
            self.card(id)
                .map_or_else(|| "?".to_string(), |c| c.name().to_string())
        };
        let names = |v: &[CardId]| v.iter().map(|&c| name(c)).collect::<Vec<_>>();
        self.seats
            .iter()
            .enumerate()
            .map(|(i, st)| Zones {
                seat: Seat::new(i).unwrap_or(Seat::P1),
                points: st.points,
                alive: st.alive,
                target: st.target,
                hand: names(&st.hand),
                net_ocean: names(&st.ocean),
                dark_area: names(&st.dark),
                removed: names(&st.gone),
                digimon: st
                    .digimon
                    .iter()
                    .map(|m| DigimonZone {
                        card: name(m.card),
                        face_down: m.down,
                        tapped: m.tapped,
                        stack: m
                            .stack
                            .iter()
                            .flat_map(|p| p.partner.into_iter().chain([p.card]))
                            .map(name)
                            .collect(),
                    })
                    .collect(),
                options: st
                    .options
                    .iter()
                    .map(|o| OptionZone {
                        card: name(o.card),
                        face_down: o.down,
                        tapped: o.tapped,
                    })
                    .collect(),
            })
            .collect()
    }
}
