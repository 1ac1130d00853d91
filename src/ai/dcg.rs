//! The Digimon Card Game's CPU players. `easy` plays any legal action at
//! random; `normal` plays for this turn with the rules' sense: it keeps
//! the memory it would give away small, digivolves when it pays off,
//! attacks what it beats, takes the win when it sees one, blocks when the
//! block holds. `hard` is the shared information-set search
//! ([`super::search`]) over worlds re-dealt from what its seat may see
//! ([`Match::sample_for`]), with `normal`'s moves in its rollouts.
//!
//! A CPU sees what its seat may see: its own hand, everything in play,
//! the counts of the hidden zones.

use std::time::Duration;

use super::{Cpu, Strength};
use crate::cards::DcgKind;
use crate::effects::dcg::Keyword;
use crate::rules::Seat;
use crate::rules::alpha::Rng64;
use crate::rules::dcg::{Action, Ask, Match, View};

/// Search iterations of a `hard` decision.
pub const HARD_ITERATIONS: u32 = 1000;
/// The most time a `hard` decision takes, whatever the iterations.
pub const HARD_TIME: Duration = Duration::from_millis(400);

impl Cpu for Match {
    // The hard search deals its worlds from the match (`Match::sample_for`);
    // a LAN client's view is a summary it cannot deal from.
    const HARD_FROM_VIEW: bool = false;

    fn choose(&self, seat: Seat, strength: Strength) -> Option<Action> {
        let legal = self.legal_actions(seat);
        if legal.is_empty() {
            return None;
        }
        if legal.len() == 1 {
            return Some(legal[0]);
        }
        // Seeded from the seat's view only, never from the hidden cards.
        let seed = || self.view_seed(seat) ^ strength as u64;
        // A main-phase switch of the Target Opponent is free and changes
        // the view a CPU's choice is seeded from: chosen at random or by
        // the search, two switches could follow each other for ever. The
        // switch is the greedy sense's alone, which only ever moves to a
        // target it values more (`best_target`).
        let steady = without_switches(&legal);
        Some(match strength {
            Strength::Normal => greedy(self, seat, &legal),
            Strength::Easy => steady[Rng64::new(seed()).below(steady.len())],
            Strength::Hard => match self.waiting().map(|w| w.1) {
                Some(Ask::Main | Ask::Target) if best_target(self, seat, &legal).is_some() => {
                    best_target(self, seat, &legal).unwrap_or(Action::KeepTarget)
                }
                Some(Ask::Target) => Action::KeepTarget,
                _ => hard(self, seat, &steady, HARD_ITERATIONS, HARD_TIME),
            },
        })
    }

    fn choose_from_view(view: &View, seat: Seat, strength: Strength) -> Option<Action> {
        if view.me != Some(seat) || view.waiting.as_ref().map(|w| w.0) != Some(seat) {
            return None;
        }
        let legal = &view.actions;
        if legal.is_empty() {
            return None;
        }
        let seed = crate::rules::fnv1a(format!("{view:?}").as_bytes());
        let mut rng = Rng64::new(seed ^ strength as u64);
        let steady = without_switches(legal);
        Some(match strength {
            Strength::Easy => steady[rng.below(steady.len())],
            Strength::Normal | Strength::Hard => from_view(view, seat, legal),
        })
    }
}

/// The answers without the main phase's free Target Opponent switches
/// (the before- and after-turn questions keep theirs: answering leaves
/// them).
fn without_switches(legal: &[Action]) -> Vec<Action> {
    if legal.contains(&Action::KeepTarget) {
        return legal.to_vec();
    }
    let v: Vec<Action> = legal
        .iter()
        .copied()
        .filter(|a| !matches!(a, Action::Target { .. }))
        .collect();
    if v.is_empty() { legal.to_vec() } else { v }
}

impl super::search::Searchable for Match {
    fn to_move(&self) -> Option<(Seat, Vec<Action>)> {
        if self.outcome().is_some() {
            return None;
        }
        let (seat, _) = self.waiting()?;
        let legal = without_switches(&self.legal_actions(seat));
        (!legal.is_empty()).then_some((seat, legal))
    }

    fn greedy(&self, seat: Seat, legal: &[Action]) -> Action {
        greedy(self, seat, legal)
    }

    fn score(&self) -> Vec<f64> {
        let seats: Vec<Seat> = Seat::all(self.z_count()).collect();
        if let Some(o) = self.outcome() {
            return seats
                .iter()
                .map(|s| match o {
                    crate::rules::Outcome::Win(w) if w == *s => 1.0,
                    crate::rules::Outcome::Win(_) => 0.0,
                    crate::rules::Outcome::Draw => 0.5,
                })
                .collect();
        }
        let full = if seats.len() > 2 { 6.0 } else { 5.0 };
        let raw: Vec<f64> = seats
            .iter()
            .map(|&s| {
                if self.z(s).defeated {
                    return 0.0;
                }
                let mega = f64::from(self.z(s).mega) / 10.0;
                let security = self.security_count(s) as f64 / full - 0.5 * mega;
                let board: f64 = self
                    .field(s)
                    .iter()
                    .map(|p| f64::from(self.dp(s, p)))
                    .sum::<f64>()
                    / 30_000.0;
                let hand = self.hand(s).len() as f64 / 8.0;
                0.55 * security.min(1.2) + 0.35 * board.min(1.0) + 0.1 * hand.min(1.0)
            })
            .collect();
        let total = raw.iter().sum::<f64>().max(1e-9);
        raw.iter().map(|r| (r / total).clamp(0.0, 1.0)).collect()
    }
}

/// The hard choice: the search over worlds re-dealt from the seat's view,
/// seeded from the view. The same view gives the same choice (the time cap
/// aside, which a decision meets only on a machine far slower than the
/// benches', or in a debug build).
pub fn hard(m: &Match, seat: Seat, legal: &[Action], iterations: u32, time: Duration) -> Action {
    super::search::search(
        legal,
        |rng| m.sample_for(seat, rng),
        iterations,
        time,
        &mut Rng64::new(m.view_seed(seat) ^ Strength::Hard as u64),
    )
}

/// The greedy choice, from the match as the seat may see it.
fn greedy(m: &Match, seat: Seat, legal: &[Action]) -> Action {
    let Some((_, ask)) = m.waiting() else {
        return legal[0];
    };
    let opp = m.opponent(seat);
    let memory = i32::from(m.memory_of(seat));
    match ask {
        Ask::Mulligan => {
            let has_rookie = m
                .hand(seat)
                .iter()
                .any(|&c| m.info(c).kind == DcgKind::Digimon && m.info(c).level == 3);
            if has_rookie {
                Action::Keep
            } else {
                Action::Mulligan
            }
        }
        Ask::Breeding => {
            let z = m.z(seat);
            let level = z.breeding.as_ref().map_or(0, |b| m.info(b.top()).level);
            if legal.contains(&Action::MoveOut) && (level >= 4 || z.field.is_empty()) {
                Action::MoveOut
            } else if legal.contains(&Action::Hatch) {
                Action::Hatch
            } else {
                Action::StayBreeding
            }
        }
        Ask::Block => {
            let attacker_dp = m
                .attacking()
                .map_or(0, |(s, id)| m.find(id).map_or(0, |(_, p)| m.dp(s, p)));
            let low = m.security_count(seat) <= 1;
            legal
                .iter()
                .copied()
                .filter(|a| matches!(a, Action::Block { .. }))
                .max_by_key(|a| match a {
                    Action::Block { blocker } => m.dp_of(*blocker),
                    _ => 0,
                })
                .filter(|a| match a {
                    Action::Block { blocker } => m.dp_of(*blocker) >= attacker_dp || low,
                    _ => false,
                })
                .unwrap_or(Action::NoBlock)
        }
        Ask::Optional | Ask::Prevent | Ask::Blitz | Ask::Offer(_) => legal
            .iter()
            .copied()
            .find(|a| *a != Action::No)
            .unwrap_or(Action::No),
        Ask::Choose(_) => {
            // Opponent's Digimon: the strongest; one's own: the first.
            let strongest = legal
                .iter()
                .copied()
                .filter_map(|a| match a {
                    Action::Choose { id } => Some((id, m.find(id).map(|(s, _)| s))),
                    _ => None,
                })
                .max_by_key(|(id, s)| (*s == Some(opp), m.dp_of(*id)));
            match strongest {
                Some((id, _)) => Action::Choose { id },
                None => legal[0],
            }
        }
        Ask::Order => legal[0],
        Ask::Main => main(m, seat, legal, memory, opp),
        Ask::Target => best_target(m, seat, legal).unwrap_or(Action::KeepTarget),
        // Keep the Player card while taking it back stays cheap.
        Ask::Corrupt => {
            if m.z(seat).corruption < 3 {
                Action::Yes
            } else {
                Action::No
            }
        }
    }
}

/// How much `seat` wants `other` as its Target Opponent: the weakest (few
/// security cards, much Mega Damage), and the one that targets it.
fn target_value(m: &Match, seat: Seat, other: Seat) -> i32 {
    let z = m.z(other);
    let finish = if z.security.is_empty() { 100 } else { 0 };
    let threat = if usize::from(z.target) == seat.index() {
        3
    } else {
        0
    };
    let board: i32 = m.field(other).iter().filter(|p| p.suspended).count().min(3) as i32;
    finish + 4 * (6 - z.security.len() as i32) + i32::from(z.mega) / 2 + threat + board
}

/// The switch to the player `seat` most wants to target, when that is not
/// its target already (the `target` answers among `legal`).
fn best_target(m: &Match, seat: Seat, legal: &[Action]) -> Option<Action> {
    let now = m.opponent(seat);
    let now_value = target_value(m, seat, now);
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Target { seat: t } => Some((*t, *a)),
            _ => None,
        })
        .map(|(t, a)| (target_value(m, seat, t), std::cmp::Reverse(t.index()), a))
        .filter(|(v, _, _)| *v > now_value)
        .max_by_key(|(v, r, _)| (*v, *r))
        .map(|(_, _, a)| a)
}

fn main(m: &Match, seat: Seat, legal: &[Action], memory: i32, opp: Seat) -> Action {
    // 3 and 4 seats: the Target Opponent first (a free action), then a
    // Player card from the Offline Area while it fits this turn's memory.
    if let Some(a) = best_target(m, seat, legal) {
        return a;
    }
    if let Some(a) = legal
        .iter()
        .find(|a| matches!(a, Action::TakeOffline { .. }))
        && i32::from(m.offline_cost(seat)) <= memory
    {
        return *a;
    }
    let blockers_up = m
        .field(opp)
        .iter()
        .filter(|p| !p.suspended && m.has(opp, p, Keyword::Blocker))
        .map(|p| m.dp(opp, p))
        .max();
    // The win: a direct attack on an empty security stack, no blocker up.
    if m.security_count(opp) == 0
        && blockers_up.is_none()
        && let Some(a) = legal
            .iter()
            .find(|a| matches!(a, Action::Attack { target: None, .. }))
    {
        return *a;
    }
    let cost_of = |a: &Action| -> i32 {
        match a {
            Action::Play { card } | Action::UseOption { card } => m
                .hand(seat)
                .get(usize::from(*card))
                .map_or(99, |&c| i32::from(m.info(c).cost)),
            Action::Digivolve { card, onto } => m
                .hand(seat)
                .get(usize::from(*card))
                .and_then(|&c| {
                    let z = m.z(seat);
                    z.breeding
                        .iter()
                        .chain(&z.field)
                        .find(|p| p.id == *onto)
                        .and_then(|p| m.digivolve_cost(c, p))
                })
                .map_or(99, i32::from),
            _ => 0,
        }
    };
    // Digivolve within this turn's memory: the highest level first.
    let best_digivolve = legal
        .iter()
        .filter(|a| matches!(a, Action::Digivolve { .. }) && cost_of(a) <= memory)
        .max_by_key(|a| match a {
            Action::Digivolve { card, .. } => m
                .hand(seat)
                .get(usize::from(*card))
                .map_or(0, |&c| m.info(c).level),
            _ => 0,
        });
    if let Some(a) = best_digivolve {
        return *a;
    }
    // Attacks: a suspended Digimon it beats; the player when the attacker
    // is strong enough to survive a security Digimon and no bigger blocker.
    let mut best: Option<(i64, Action)> = None;
    for a in legal {
        let Action::Attack { attacker, target } = *a else {
            continue;
        };
        let adp = i64::from(m.dp_of(attacker));
        let score = match target {
            Some(t) => {
                let tdp = i64::from(m.dp_of(t));
                if adp > tdp { 200 + tdp / 1000 } else { -1 }
            }
            None => {
                let blocked = blockers_up.is_some_and(|b| i64::from(b) >= adp);
                if blocked || adp < 3000 {
                    -1
                } else {
                    100 + adp / 1000
                }
            }
        };
        if score > 0 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, *a));
        }
    }
    if let Some((_, a)) = best {
        return a;
    }
    // Plays within memory: Digimon first, then Tamers, then Options.
    let affordable = legal
        .iter()
        .filter(|a| matches!(a, Action::Play { .. } | Action::UseOption { .. }))
        .filter(|a| cost_of(a) <= memory)
        .max_by_key(|a| cost_of(a));
    if let Some(a) = affordable {
        return *a;
    }
    // Nothing fits: one card that gives away no more than a pass would.
    let last = legal
        .iter()
        .filter(|a| {
            matches!(
                a,
                Action::Play { .. } | Action::Digivolve { .. } | Action::UseOption { .. }
            )
        })
        .filter(|a| cost_of(a) <= memory + 3 && cost_of(a) > memory)
        .max_by_key(|a| cost_of(a));
    last.copied().unwrap_or(Action::Pass)
}

/// A LAN client's choice from its view alone: the same sense, with the
/// DP in the view and without the hand's card data.
fn from_view(view: &View, seat: Seat, legal: &[Action]) -> Action {
    let dp = |id: u16| {
        view.seats
            .iter()
            .flat_map(|s| s.breeding.iter().chain(&s.field))
            .find(|p| p.id == id)
            .map_or(0, |p| p.dp)
    };
    let me = view.seats.iter().find(|s| s.seat == seat);
    let target = me.and_then(|s| s.opponent);
    let opp = view
        .seats
        .iter()
        .find(|s| s.seat != seat && target.is_none_or(|t| t == s.seat))
        .map(|s| s.security)
        .unwrap_or(5);
    // 3 and 4 seats: target the player with the fewest security cards.
    let weakest = view
        .seats
        .iter()
        .filter(|s| s.seat != seat && !s.defeated)
        .min_by_key(|s| (s.security, std::cmp::Reverse(s.mega)))
        .map(|s| s.seat);
    if let Some(w) = weakest
        && target.is_some_and(|t| t != w)
        && let Some(a) = legal
            .iter()
            .find(|a| matches!(a, Action::Target { seat } if *seat == w))
    {
        return *a;
    }
    let first = |f: &dyn Fn(&Action) -> bool| legal.iter().copied().find(|a| f(a));
    if opp == 0
        && let Some(a) = first(&|a| matches!(a, Action::Attack { target: None, .. }))
    {
        return a;
    }
    first(&|a| matches!(a, Action::Keep | Action::Hatch | Action::MoveOut))
        .or_else(|| first(&|a| matches!(a, Action::Digivolve { .. })))
        .or_else(|| {
            first(&|a| match a {
                Action::Attack {
                    attacker,
                    target: Some(t),
                } => dp(*attacker) > dp(*t),
                Action::Attack {
                    attacker,
                    target: None,
                } => dp(*attacker) >= 4000,
                _ => false,
            })
        })
        .or_else(|| {
            first(&|a| matches!(a, Action::Play { .. } | Action::Yes | Action::Choose { .. }))
        })
        .or_else(|| {
            first(&|a| {
                matches!(
                    a,
                    Action::Pass
                        | Action::NoBlock
                        | Action::No
                        | Action::StayBreeding
                        | Action::KeepTarget
                )
            })
        })
        .unwrap_or(legal[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;
    use crate::rules::Ruleset;
    use crate::rules::dcg::deck;

    #[test]
    fn a_cpu_cannot_tell_worlds_its_seat_cannot_tell_apart() {
        // Two matches that differ only in P2's hidden cards (its hand and
        // deck order): P1's CPUs choose the same, hard included.
        let cards = CardSet::embedded();
        let d = |n: &str| deck::embedded(n, &cards).unwrap().unwrap();
        let mut a = Match::from_setup(
            &<Match as Ruleset>::setup_for(vec![d("red"), d("purple")], 5),
            &cards,
        )
        .unwrap();
        let mut rng = Rng64::new(5);
        while a.waiting() != Some((Seat::P1, Ask::Main)) || a.turn() < 3 {
            let (seat, _) = a.waiting().expect("the game goes on to P1's third turn");
            let legal = a.legal_actions(seat);
            a.apply(seat, legal[rng.below(legal.len())]).unwrap();
        }
        let b = a.with_hidden_cards_moved(Seat::P2);
        let seat = Seat::P1;
        assert_ne!(a.state_hash(), b.state_hash());
        assert_eq!(a.view(Some(seat)), b.view(Some(seat)));
        for s in [Strength::Easy, Strength::Normal] {
            assert_eq!(a.choose(seat, s), b.choose(seat, s), "{s}");
        }
        // Hard without its time cap, so that a slow machine (a debug
        // build) does the same number of iterations for both.
        let legal = a.legal_actions(seat);
        let forever = Duration::from_secs(3600);
        assert_eq!(
            hard(&a, seat, &legal, 120, forever),
            hard(&b, seat, &legal, 120, forever)
        );
    }
}
