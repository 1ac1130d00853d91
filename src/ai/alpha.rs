//! CPU players for the Card Game Alpha. Every strength sees only its
//! seat's [`View`]: `easy` plays a random legal action; `normal` is a
//! greedy player that knows the rules; `hard` is information-set Monte
//! Carlo tree search: one tree over worlds sampled from the view
//! ([`View::sample`], never the true state), availability counts for the
//! actions a world allows, and a value per seat (max^n), so it plays 3 and
//! 4 seats as well as 2.

use std::time::Duration;

use super::{Cpu, Strength};
use crate::cards::Card;
use crate::rules::Seat;
use crate::rules::alpha::{Action, COST_LIMIT, CardId, Match, Rng64, View};

/// Search iterations of a `hard` decision.
pub const HARD_ITERATIONS: u32 = 400;
/// The most time a `hard` decision takes, whatever the iterations.
pub const HARD_TIME: Duration = Duration::from_millis(400);

impl Cpu for Match {
    fn choose(&self, seat: Seat, strength: Strength) -> Option<Action> {
        if self.legal_actions(seat).is_empty() {
            return None;
        }
        let view = self.view(seat);
        Some(choose(&view, strength))
    }

    fn choose_from_view(view: &View, seat: Seat, strength: Strength) -> Option<Action> {
        if view.is_spectator() || view.seat() != seat || view.state().waiting_for() != Some(seat) {
            return None;
        }
        Some(choose(view, strength))
    }
}

/// A CPU's choice from a view. The same view and strength give the same
/// choice (the search's time cap aside, which a decision meets only on a
/// machine far slower than the benches').
pub fn choose(view: &View, strength: Strength) -> Action {
    let m = view.state();
    let seat = view.seat();
    let mut rng = Rng64::new(view.hash() ^ strength as u64);
    let legal = m.legal_actions(seat);
    if legal.len() == 1 {
        return legal[0];
    }
    match strength {
        Strength::Easy => legal[rng.below(legal.len())],
        Strength::Normal => greedy(m, seat, &legal),
        Strength::Hard => search(view, HARD_ITERATIONS, HARD_TIME, &mut rng),
    }
}

// ------------------------------------------------------------------ normal

fn value(m: &Match, id: CardId) -> i64 {
    match m.card(id) {
        Some(Card::Digimon(d)) => {
            i64::from(d.cost) * 10 + i64::from(d.hp / 50) + d.level.stage() as i64 * 15
        }
        Some(c) => i64::from(c.cost().unwrap_or(2)) * 8,
        None => 0,
    }
}

/// A greedy player: evolves where the requirements hold, keeps within
/// Cost, attacks where it wins, blocks where it survives.
pub fn greedy(m: &Match, seat: Seat, legal: &[Action]) -> Action {
    let first = legal[0];
    let has = |a: Action| legal.contains(&a);
    let score = |a: Action| -> i64 {
        match a {
            Action::Evolve(c, on) => {
                if !m.would_evolve(c, on, None) || over_cost(m, seat, c) {
                    return i64::MIN;
                }
                1000 + value(m, c)
            }
            Action::Jogress(c, on, p) => {
                if !m.would_evolve(c, on, Some(p)) || over_cost(m, seat, c) {
                    return i64::MIN;
                }
                1200 + value(m, c)
            }
            Action::Play(c) => {
                if over_cost(m, seat, c) {
                    return i64::MIN;
                }
                match m.card(c) {
                    Some(Card::Digimon(_)) => 500 + value(m, c),
                    Some(Card::Option(_)) => 200 + value(m, c),
                    _ => i64::MIN,
                }
            }
            Action::Attack(None) => attack_player(m, seat),
            Action::Attack(Some(d)) => match m.acting() {
                Some(me) => {
                    let c = m.clash(me, d);
                    if c.deletes() {
                        40 + value(m, d)
                    } else if c.dies() {
                        -100 - value(m, me)
                    } else if c.wins() {
                        5
                    } else {
                        -20
                    }
                }
                None => i64::MIN,
            },
            Action::AlphaAttack => {
                let opp = m.target(seat);
                if m.digimon(opp).iter().all(|&d| m.is_tapped(d)) {
                    120
                } else {
                    -5
                }
            }
            Action::Pass => 0,
            Action::Block(b) => match m.attack() {
                Some((Some(a), _)) => {
                    let c = m.clash(a, b);
                    if c.dies() {
                        90 // The attacker falls to the block.
                    } else if !c.deletes() {
                        30 // Survives: the 10 points are saved.
                    } else {
                        -1 - value(m, b) / 20
                    }
                }
                _ => 0,
            },
            Action::NoBlock => 0,
            Action::Resolve(yes) => i64::from(yes),
            Action::Support(c) => 10 + value(m, c) / 100,
            Action::Lead(c) => value(m, c),
            Action::Command(_) => losing_battle(m, seat),
            Action::Discard(c) => -value(m, c),
            Action::Pick(c) => {
                if m.owner(c) == Some(seat) {
                    value(m, c)
                } else {
                    -value(m, c)
                }
            }
            Action::Done => {
                if has(Action::Resolve(true)) {
                    0
                } else {
                    1
                }
            }
            Action::Scrap(_) | Action::Target(_) => -1000,
        }
    };
    // In the Preparation Phase "done" ends the plays; anything worth more
    // than nothing is played first.
    let mut best = first;
    let mut best_score = i64::MIN;
    for &a in legal {
        let s = score(a);
        if s > best_score {
            best = a;
            best_score = s;
        }
    }
    if best_score == i64::MIN {
        if has(Action::Done) {
            return Action::Done;
        }
        return first;
    }
    // Retarget to the weakest opponent with 3–4 seats, once per question.
    if let Some(weakest) = legal
        .iter()
        .filter_map(|a| match a {
            Action::Target(s) => Some(*s),
            _ => None,
        })
        .min_by_key(|&s| m.points(s))
        && m.points(weakest) + 20 < m.points(m.target(seat))
    {
        return Action::Target(weakest);
    }
    best
}

fn over_cost(m: &Match, seat: Seat, c: CardId) -> bool {
    let cost = m.card(c).and_then(Card::cost).map_or(0, u32::from);
    m.played_cost(seat) + cost > crate::rules::alpha::COST_LIMIT
}

fn attack_player(m: &Match, seat: Seat) -> i64 {
    let Some(me) = m.acting() else { return 0 };
    let opp = m.target(seat);
    let sp = m.speed_of(me);
    let blockers: Vec<CardId> = m
        .digimon(opp)
        .into_iter()
        .filter(|&d| !m.is_tapped(d) && m.speed_of(d) > sp)
        .collect();
    if blockers.is_empty() {
        return 100;
    }
    // The best block against it.
    if blockers.iter().any(|&b| m.clash(me, b).dies()) {
        -80
    } else {
        10
    }
}

fn losing_battle(m: &Match, seat: Seat) -> i64 {
    match m.attack() {
        Some((Some(a), Some(d))) => {
            let c = m.clash(a, d);
            let mine_attacks = m.owner(a) == Some(seat);
            let losing = if mine_attacks { !c.wins() } else { c.wins() };
            if losing { 50 } else { -10 }
        }
        _ => -10,
    }
}

// ------------------------------------------------------------------ hard

/// The shared search ([`super::search`]) from the view: worlds are
/// [`View::sample`]s, never the true state.
pub fn search(view: &View, iterations: u32, time: Duration, rng: &mut Rng64) -> Action {
    let me = view.seat();
    let root = sensible(view.state(), me, view.state().legal_actions(me));
    super::search::search(
        &root,
        |rng| {
            let mut world = view.sample(rng);
            world.set_quiet(true);
            world
        },
        iterations,
        time,
        rng,
    )
}

impl super::search::Searchable for Match {
    fn to_move(&self) -> Option<(Seat, Vec<Action>)> {
        to_move(self)
    }
    fn greedy(&self, seat: Seat, legal: &[Action]) -> Action {
        greedy(self, seat, legal)
    }
    fn score(&self) -> Vec<f64> {
        score(self)
    }
}

/// Who is asked now and what it may do, while the game goes on.
fn to_move(world: &Match) -> Option<(Seat, Vec<Action>)> {
    if world.outcome().is_some() {
        return None;
    }
    let seat = world.waiting_for()?;
    let legal = sensible(world, seat, world.legal_actions(seat));
    (!legal.is_empty()).then_some((seat, legal))
}

/// The actions the search considers: all the legal ones but a play that
/// takes the turn's Cost over 10 for an Option or a new Level III (a Burst
/// for a card that can as well wait a turn); an evolution over 10 is still
/// weighed, and so is everything when the plays cannot end.
fn sensible(m: &Match, seat: Seat, mut legal: Vec<Action>) -> Vec<Action> {
    if !legal.contains(&Action::Done) {
        return legal;
    }
    let played = m.played_cost(seat);
    legal.retain(|&a| match a {
        Action::Play(c) => {
            played + m.card(c).and_then(Card::cost).map_or(0, u32::from) <= COST_LIMIT
        }
        _ => true,
    });
    legal
}

/// Each seat's standing, 0 (out) to 1 (won).
pub fn score(m: &Match) -> Vec<f64> {
    let n = m.seats();
    if let Some(o) = m.outcome() {
        return Seat::all(n)
            .map(|s| match o {
                crate::rules::Outcome::Win(w) if w == s => 1.0,
                crate::rules::Outcome::Win(_) => 0.0,
                crate::rules::Outcome::Draw => 0.5,
            })
            .collect();
    }
    let board = |s: Seat| -> f64 {
        m.digimon(s)
            .iter()
            .map(|&d| match m.card(d) {
                Some(Card::Digimon(x)) => f64::from(x.cost) + (x.level.stage() as u8 as f64),
                _ => 0.0,
            })
            .sum::<f64>()
    };
    let raw: Vec<f64> = Seat::all(n)
        .map(|s| {
            if !m.alive(s) {
                return 0.0;
            }
            let pts = f64::from(m.points(s)) / 100.0;
            let b = board(s).min(20.0) / 20.0;
            // Cards still to come: a Burst or a Lifespan costs some.
            let cards = (m.cards_in_hand_and_ocean(s) as f64 / 32.0).min(1.0);
            0.7 * pts + 0.2 * b + 0.1 * cards
        })
        .collect();
    let total: f64 = raw.iter().sum::<f64>().max(1e-9);
    // Relative standing: a seat's share, spread to 0–1.
    raw.iter()
        .map(|&r| (r / total * n as f64 * 0.5).clamp(0.0, 1.0))
        .collect()
}
