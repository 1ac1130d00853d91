//! Alpha Clash's CPU players. `easy` plays any legal action at random;
//! `normal` plays for this turn with the rules' sense: it keeps a cheap
//! hand, grows its resources, plays the strongest Clash card it can pay
//! for, sets its Traps, attacks where the opponent cannot obstruct well or
//! where it wins the trade, obstructs when the obstructor survives or
//! saves a low Contender, and springs its Counters on what is worth it.
//! `hard` is the shared information-set search ([`super::search`]) over
//! worlds re-dealt from what its seat may see ([`Match::sample_for`]),
//! with `normal`'s moves in its rollouts; it answers priority as any
//! other question, so it springs Traps when the search finds it pays.

use std::time::Duration;

use super::{Cpu, Strength};
use crate::cards::ClashKind;
use crate::effects::clash::{Effect, Keyword, Target};
use crate::rules::Seat;
use crate::rules::alpha::Rng64;
use crate::rules::clash::{Action, Ask, Cid, Match, View};

/// Search iterations of a `hard` decision.
pub const HARD_ITERATIONS: u32 = 300;
/// The most time a `hard` decision takes, whatever the iterations.
pub const HARD_TIME: Duration = Duration::from_millis(150);

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
        let seed = || self.view_seed(seat) ^ strength as u64;
        Some(match strength {
            Strength::Easy => legal[Rng64::new(seed()).below(legal.len())],
            Strength::Normal => greedy(self, seat, &legal),
            Strength::Hard => match self.waiting().map(|w| w.1) {
                // The opening hand and the targets: the greedy sense is as
                // good and far cheaper.
                Some(Ask::Mulligan | Ask::Target | Ask::Barrage | Ask::Resource) => {
                    greedy(self, seat, &legal)
                }
                _ => hard(self, seat, &legal, HARD_ITERATIONS, HARD_TIME),
            },
        })
    }

    fn choose_from_view(view: &View, seat: Seat, strength: Strength) -> Option<Action> {
        if view.me != Some(seat) || view.waiting.map(|w| w.0) != Some(seat) {
            return None;
        }
        let legal = &view.actions;
        if legal.is_empty() {
            return None;
        }
        let seed = crate::rules::fnv1a(format!("{view:?}").as_bytes());
        let mut rng = Rng64::new(seed ^ strength as u64);
        Some(match strength {
            Strength::Easy => legal[rng.below(legal.len())],
            Strength::Normal | Strength::Hard => from_view(view, legal),
        })
    }
}

impl super::search::Searchable for Match {
    fn to_move(&self) -> Option<(Seat, Vec<Action>)> {
        if self.outcome().is_some() {
            return None;
        }
        let (seat, _) = self.waiting()?;
        let legal = self.legal_actions(seat);
        (!legal.is_empty()).then_some((seat, legal))
    }

    fn greedy(&self, seat: Seat, legal: &[Action]) -> Action {
        greedy(self, seat, legal)
    }

    fn score(&self) -> Vec<f64> {
        let seats: Vec<Seat> = Seat::all(self.seat_count()).collect();
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
        let raw: Vec<f64> = seats
            .iter()
            .map(|&s| {
                if self.lost(s) {
                    return 0.0;
                }
                let most = f64::from(self.info_health(s).max(1));
                let health = f64::from(self.health(s)) / most;
                let board: f64 = self
                    .clash_zone(s)
                    .iter()
                    .filter(|u| !u.defeated)
                    .map(|u| f64::from(self.attack_of(u.card) + self.defense_of(u.card).max(0)))
                    .sum::<f64>()
                    / 24.0;
                let hand = self.hand(s).len() as f64 / 8.0;
                let res = self.resources(s).len() as f64 / 8.0;
                0.55 * health + 0.3 * board.min(1.0) + 0.08 * hand.min(1.0) + 0.07 * res.min(1.0)
            })
            .collect();
        let total = raw.iter().sum::<f64>().max(1e-9);
        raw.iter().map(|r| (r / total).clamp(0.0, 1.0)).collect()
    }
}

/// The hard choice: the search over worlds re-dealt from the seat's view,
/// seeded from the view.
pub fn hard(m: &Match, seat: Seat, legal: &[Action], iterations: u32, time: Duration) -> Action {
    super::search::search(
        legal,
        |rng| m.sample_for(seat, rng),
        iterations,
        time,
        &mut Rng64::new(m.view_seed(seat) ^ Strength::Hard as u64),
    )
}

/// How much a Clash card in play is worth to its side.
fn worth(m: &Match, c: Cid) -> i32 {
    i32::from(m.attack_of(c)) * 2 + i32::from(m.defense_of(c).max(0))
}

/// The greedy choice.
pub fn greedy(m: &Match, seat: Seat, legal: &[Action]) -> Action {
    let Some((_, ask)) = m.waiting() else {
        return legal[0];
    };
    match ask {
        Ask::Mulligan => mulligan(m, seat, legal),
        Ask::Resource => resource(m, seat, legal),
        Ask::Primary => primary(m, seat, legal),
        Ask::Respond | Ask::Counter => respond(m, seat, legal, ask),
        Ask::Obstruct => obstruct(m, seat, legal),
        Ask::Buff => legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Play(_)))
            .unwrap_or(Action::Pass),
        Ask::Target => target(m, seat, legal),
        Ask::Barrage => barrage(m, seat, legal),
    }
}

fn mulligan(m: &Match, seat: Seat, legal: &[Action]) -> Action {
    let hand = m.hand(seat);
    let cheap = hand
        .iter()
        .filter(|&&c| m.kind(c) == ClashKind::Clash && m.info(c).cost <= 3)
        .count();
    let returned = 8usize.saturating_sub(hand.len());
    if cheap >= 3 || returned >= 3 {
        return Action::Keep;
    }
    hand.iter()
        .copied()
        .filter(|&c| m.info(c).cost >= 4)
        .max_by_key(|&c| m.info(c).cost)
        .map(Action::Return)
        .filter(|a| legal.contains(a))
        .unwrap_or(Action::Keep)
}

fn resource(m: &Match, seat: Seat, legal: &[Action]) -> Action {
    let have = m.resources(seat).len();
    if have >= 8 {
        return Action::NoResource;
    }
    // Put in the card least wanted: the dearest, of the colour the
    // resources have least of.
    let count = |c: Cid| {
        m.resources(seat)
            .iter()
            .filter(|r| {
                m.info(r.0)
                    .colors
                    .iter()
                    .any(|h| m.info(c).colors.contains(h))
            })
            .count()
    };
    legal
        .iter()
        .copied()
        .filter_map(|a| match a {
            Action::Resource(c) => Some((c, a)),
            _ => None,
        })
        .max_by_key(|&(c, _)| (i32::from(m.info(c).cost) * 2 - count(c) as i32, c))
        .map_or(Action::NoResource, |(_, a)| a)
}

fn primary(m: &Match, seat: Seat, legal: &[Action]) -> Action {
    // Plays first: the strongest Clash card, then the rest.
    let mut best: Option<(i32, Action)> = None;
    let mut consider = |score: i32, a: Action| {
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, a));
        }
    };
    let opp_ready: Vec<Cid> = m
        .others(seat)
        .into_iter()
        .flat_map(|o| {
            m.clash_zone(o)
                .iter()
                .filter(|u| !u.engaged && !u.defeated)
                .map(|u| u.card)
                .collect::<Vec<_>>()
        })
        .collect();
    for &a in legal {
        match a {
            Action::Play(c) => {
                let i = m.info(c);
                let s = match i.kind {
                    ClashKind::Clash => 100 + i32::from(i.attack) * 3 + i32::from(i.defense) * 2,
                    ClashKind::Weapon | ClashKind::Relic => 60 + i32::from(i.cost),
                    ClashKind::Clashground => {
                        if m.clashground(seat).is_some() {
                            continue;
                        }
                        55
                    }
                    ClashKind::BasicAction => 50 + useful_action(m, seat, c),
                    _ => continue,
                };
                consider(s, a);
            }
            Action::Set(_) => consider(90, a),
            Action::Attach(_, u) => consider(40 + worth(m, u), a),
            Action::Use(c, i) => {
                let ab = &m.info(c).effects[usize::from(i)];
                let v = effects_worth(m, seat, &ab.effects);
                if v > 0 {
                    consider(25 + v, a);
                }
            }
            Action::Portal
                if m.resources(seat).len() >= 6
                    && effects_worth(m, seat, &[Effect::Draw(1)]) > 0 =>
            {
                consider(5, a);
            }
            _ => {}
        }
    }
    if let Some((_, a)) = best {
        return a;
    }
    // Then attacks.
    let mut attack: Option<(i32, Action)> = None;
    for &a in legal {
        let Action::Attack(x, t) = a else { continue };
        let atk = i32::from(m.attack_of(x));
        if atk == 0 {
            continue;
        }
        let contender_attacker = m.contender(seat) == x;
        let target_is_contender = m.others(seat).iter().any(|&o| m.contender(o) == t);
        let flying = m.has_keyword(x, Keyword::Flight);
        let blockers: Vec<Cid> = opp_ready
            .iter()
            .copied()
            .filter(|&b| {
                !flying
                    || m.has_keyword(b, Keyword::Flight)
                    || m.has_keyword(b, Keyword::Interception)
            })
            .collect();
        let def = i32::from(m.defense_of(x));
        // The defender's best obstructor: the one that makes the attack
        // worst for us (it lives and kills, or at least lives).
        let worst_block: Option<i32> = blockers
            .iter()
            .map(|&b| {
                let kills_it = i32::from(m.attack_of(x)) >= i32::from(m.defense_of(b));
                let dies = i32::from(m.attack_of(b)) >= def && !contender_attacker;
                i32::from(kills_it) * worth(m, b) - i32::from(dies) * worth(m, x)
            })
            .min();
        let score = if target_is_contender {
            // The attacked Contender hits back; an obstructor may step in.
            let through = atk - i32::from(m.defense_of(t).max(0));
            let back = i32::from(m.attack_of(t));
            // Clash damage first meets the Contender's defence, which
            // resets after each Clash: an attack that does not get past it
            // only pays for its Trigger - Attack effects.
            let triggers = i32::from(
                m.info(x)
                    .effects
                    .iter()
                    .any(|a| a.when == crate::effects::clash::When::Attack)
                    || m.has_keyword(x, Keyword::Barrage(0)),
            ) * 6;
            let unblocked = if through <= 0 {
                if back < def || contender_attacker {
                    triggers - 1
                } else {
                    -1
                }
            } else if contender_attacker {
                through * 3 - (back - def).max(0) * 2
            } else if back < def {
                10 + through * 4
            } else {
                through * 3 - worth(m, x)
            };
            match worst_block {
                None => unblocked,
                Some(v) => unblocked.min(v + 2),
            }
        } else {
            // An engaged Clash card: attack it when it falls and ours lives.
            let tdef = i32::from(m.defense_of(t));
            let tatk = i32::from(m.attack_of(t));
            let trade = if atk >= tdef && tatk < def {
                15 + worth(m, t)
            } else if atk >= tdef && !contender_attacker {
                worth(m, t) - worth(m, x)
            } else {
                -20
            };
            match worst_block {
                None => trade,
                Some(v) => trade.min(v + 2),
            }
        };
        let score = if contender_attacker && m.health(seat) <= 10 {
            score - 15
        } else {
            score
        };
        if score > 0 && attack.is_none_or(|(s, _)| score > s) {
            attack = Some((score, a));
        }
    }
    attack.map_or(Action::EndTurn, |(_, a)| a)
}

/// A Basic Action's worth now (0: nothing to gain).
fn useful_action(m: &Match, seat: Seat, c: Cid) -> i32 {
    m.info(c)
        .effects
        .iter()
        .map(|a| effects_worth(m, seat, &a.effects))
        .sum()
}

/// What effects are worth now (0 or less: nothing to gain).
fn effects_worth(m: &Match, seat: Seat, effects: &[Effect]) -> i32 {
    let foes: i32 = m
        .others(seat)
        .iter()
        .map(|&o| m.clash_zone(o).iter().filter(|u| !u.defeated).count() as i32)
        .sum();
    let mine = m.clash_zone(seat).iter().filter(|u| !u.defeated).count() as i32;
    let mut v = 0;
    {
        for e in effects {
            v += match e {
                Effect::Damage(n, Target::OpposingContenders) => i32::from(*n) * 3,
                Effect::Damage(n, t) if targets_foes(*t) => {
                    if foes > 0 {
                        i32::from(*n) * 3
                    } else {
                        0
                    }
                }
                Effect::Draw(n) => {
                    // A long game is lost by the first empty deck: draw
                    // extra cards only while the deck is not the shorter.
                    let mine = m.deck(seat).len();
                    let theirs = m
                        .others(seat)
                        .iter()
                        .map(|&o| m.deck(o).len())
                        .min()
                        .unwrap_or(0);
                    if mine > 20 || mine > theirs + 4 {
                        i32::from(*n) * 4
                    } else {
                        -5
                    }
                }
                Effect::Oblivion(t) | Effect::Bounce(t) if targets_foes(*t) => {
                    if foes > 0 {
                        12
                    } else {
                        0
                    }
                }
                Effect::Heal(n) => {
                    let room = i32::from(m.max_health(seat) - m.health(seat));
                    room.min(i32::from(*n)) * 2
                }
                Effect::Stats(
                    a,
                    d,
                    Target::ChosenYours | Target::ChosenYourClash | Target::AllYourClash,
                ) => {
                    if mine > 0 {
                        i32::from(*a) + i32::from(*d)
                    } else {
                        0
                    }
                }
                Effect::Ready(_) => {
                    if mine > 0 {
                        2
                    } else {
                        0
                    }
                }
                Effect::Engage(t) if targets_foes(*t) => {
                    if foes > 0 {
                        4
                    } else {
                        0
                    }
                }
                _ => 1,
            };
        }
    }
    v
}

fn targets_foes(t: Target) -> bool {
    matches!(
        t,
        Target::ChosenOpposing
            | Target::ChosenOpposingClash
            | Target::OpposingContenders
            | Target::AllOpposingClash
            | Target::ChosenClash
    )
}

fn respond(m: &Match, seat: Seat, legal: &[Action], ask: Ask) -> Action {
    let worth_it = match ask {
        Ask::Counter => m
            .fight()
            .is_some_and(|f| i32::from(m.attack_of(f.attacker)) >= 3 || m.health(seat) <= 12),
        _ => m.standby().last().is_some_and(|e| {
            e.seat != seat && (m.info(e.source).cost >= 3 || m.kind(e.source) == ClashKind::Trap)
        }),
    };
    if !worth_it {
        return Action::Pass;
    }
    legal
        .iter()
        .copied()
        .find(|a| !matches!(a, Action::Pass))
        .unwrap_or(Action::Pass)
}

fn obstruct(m: &Match, seat: Seat, legal: &[Action]) -> Action {
    let Some(f) = m.fight() else {
        return Action::Pass;
    };
    if !f.obstructors.is_empty() {
        return Action::Pass;
    }
    let atk = m.attack_of(f.attacker);
    let adef = m.defense_of(f.attacker);
    let on_contender = f.target == m.contender(seat);
    let mut best: Option<(i32, Action)> = None;
    for &a in legal {
        let Action::Obstruct(u) = a else { continue };
        let survives = m.defense_of(u) > atk;
        let kills = m.attack_of(u) >= adef;
        let score = match (survives, kills) {
            (true, true) => 30,
            (true, false) => 20,
            (false, true) => 10 + worth(m, f.attacker) - worth(m, u),
            (false, false) => {
                if on_contender && i32::from(m.health(seat)) <= i32::from(atk) + 3 {
                    5
                } else {
                    -1
                }
            }
        };
        if score > 0 && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, a));
        }
    }
    best.map_or(Action::Pass, |(_, a)| a)
}

fn target(m: &Match, seat: Seat, legal: &[Action]) -> Action {
    let mine = |c: Cid| m.owner(c) == seat;
    let in_fight = |c: Cid| {
        m.fight()
            .is_some_and(|f| f.attacker == c || f.target == c || f.obstructors.contains(&c))
    };
    legal
        .iter()
        .copied()
        .max_by_key(|a| match a {
            Action::Target(c) if mine(*c) => (i32::from(in_fight(*c)) * 100 + worth(m, *c), *c),
            Action::Target(c) => (worth(m, *c), *c),
            _ => (i32::MIN, 0),
        })
        .unwrap_or(legal[0])
}

fn barrage(m: &Match, seat: Seat, legal: &[Action]) -> Action {
    legal
        .iter()
        .copied()
        .filter(|a| matches!(a, Action::Target(c) if m.owner(*c) != seat))
        .min_by_key(|a| match a {
            Action::Target(c) => (m.defense_of(*c), *c),
            _ => (i16::MAX, 0),
        })
        .unwrap_or(Action::Pass)
}

/// The normal choice from a view (a CPU client on the LAN): the same sense
/// from what the view shows.
fn from_view(view: &View, legal: &[Action]) -> Action {
    let ask = view.waiting.map(|w| w.1);
    let pick = |f: &dyn Fn(&Action) -> bool| legal.iter().copied().find(|a| f(a));
    match ask {
        Some(Ask::Mulligan) => Action::Keep,
        Some(Ask::Resource) => {
            let me = view.me.and_then(|s| view.seats.get(s.index()));
            if me.is_some_and(|z| z.resources.len() >= 8) {
                Action::NoResource
            } else {
                legal.first().copied().unwrap_or(Action::NoResource)
            }
        }
        Some(Ask::Primary) => pick(&|a| matches!(a, Action::Play(_)))
            .or_else(|| pick(&|a| matches!(a, Action::Set(_))))
            .or_else(|| pick(&|a| matches!(a, Action::Attach(..))))
            .or_else(|| {
                // Attack a Contender when nothing of theirs is ready.
                let me = view.me?;
                let ready_foes = view
                    .seats
                    .iter()
                    .filter(|s| s.seat != me)
                    .flat_map(|s| s.clash.iter())
                    .any(|u| !u.engaged);
                if ready_foes {
                    None
                } else {
                    pick(&|a| {
                        matches!(a, Action::Attack(_, t) if view.seats.iter().any(|s| s.contender.card.id == *t))
                    })
                }
            })
            .unwrap_or(Action::EndTurn),
        Some(Ask::Target | Ask::Barrage) => legal[0],
        _ => Action::Pass,
    }
}

impl Match {
    fn info_health(&self, s: Seat) -> i16 {
        self.max_health(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardSet;
    use crate::rules::Ruleset;

    fn game(seed: u64) -> Match {
        let cards = CardSet::embedded();
        let decks = (0..2)
            .map(|i| Match::house_cards(Seat::new(i).unwrap(), seed, &cards))
            .collect();
        Match::from_setup(&Match::setup_for(decks, seed), &cards).unwrap()
    }

    fn play_out(mut m: Match, a: Strength, b: Strength) -> Match {
        for _ in 0..20_000 {
            let Some((s, _)) = m.waiting() else { break };
            let st = if s == Seat::P1 { a } else { b };
            let act = m.choose(s, st).expect("asked seats have an answer");
            m.apply(s, act).expect("a CPU's choice is legal");
        }
        m
    }

    #[test]
    fn cpus_of_every_strength_finish_a_game_with_legal_moves() {
        for seed in 0..6 {
            let m = play_out(game(seed), Strength::Easy, Strength::Normal);
            assert!(m.outcome().is_some(), "seed {seed}: no result");
        }
    }

    #[test]
    fn a_cpu_chooses_the_same_from_the_same_view() {
        let m = game(3);
        let (s, _) = m.waiting().unwrap();
        for st in Strength::ALL {
            assert_eq!(m.choose(s, st), m.choose(s, st));
        }
    }

    #[test]
    fn a_cpu_cannot_tell_worlds_its_seat_cannot_tell_apart() {
        // The same view, other hidden cards: the same choice.
        let m = play_out_to(game(5), 40);
        let (s, _) = m.waiting().unwrap();
        let mut rng = Rng64::new(9);
        let other = m.sample_for(s, &mut rng);
        assert_eq!(m.view(Some(s)), other.view(Some(s)));
        for st in [Strength::Easy, Strength::Normal] {
            assert_eq!(m.choose(s, st), other.choose(s, st));
        }
    }

    fn play_out_to(mut m: Match, steps: usize) -> Match {
        for _ in 0..steps {
            let Some((s, _)) = m.waiting() else { break };
            let act = m.choose(s, Strength::Normal).unwrap();
            m.apply(s, act).unwrap();
        }
        m
    }
}
