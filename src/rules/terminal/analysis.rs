//! Measuring the design: the stance payoff matrix over the card set, random
//! equal-Cost teams, and many CPU battles.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Action, Event, Match, Setup};
use crate::ai::{self, Level};
use crate::cards::{BattleType, Card, CardNumber, CardSet, Stage};
use crate::rules::{Outcome, Side};

/// Plays a match to its end with a chooser for each side, returning every
/// action taken. `on_event` sees every event in order.
pub fn play_out(
    m: &mut Match,
    mut choose: impl FnMut(&Match, Side) -> Option<Action>,
    mut on_event: impl FnMut(&Event),
) -> Vec<(Side, Action)> {
    m.opening_events().iter().for_each(&mut on_event);
    let mut actions = Vec::new();
    while m.outcome().is_none() {
        let mut acted = false;
        for side in Side::BOTH {
            if let Some(action) = choose(m, side) {
                match m.apply(side, action) {
                    Ok(events) => {
                        events.iter().for_each(&mut on_event);
                        actions.push((side, action));
                        acted = true;
                    }
                    // A chooser offered an illegal action: it is skipped; the loop asks again.
                    Err(_) => continue,
                }
            }
        }
        if !acted {
            break;
        }
    }
    actions
}

/// Plays a match CPU against CPU.
pub fn cpu_battle(m: &mut Match, levels: [Level; 2]) -> Vec<(Side, Action)> {
    play_out(m, |m, s| ai::choose(m, s, levels[s.index()]), |_| {})
}

/// A random team: one to three lines of one to three stages, and up to two
/// Option cards. The rules may refuse it (too many Digimon for the
/// tunables, say): [`accepted_team`] draws until they do not.
pub fn random_team(cards: &CardSet, rng: &mut ChaCha8Rng) -> Vec<CardNumber> {
    let digimon: Vec<_> = cards.cards().iter().filter_map(Card::as_digimon).collect();
    let rookies: Vec<_> = digimon
        .iter()
        .filter(|d| d.level.stage() == Stage::III)
        .collect();
    let options: Vec<_> = cards
        .cards()
        .iter()
        .filter(|c| matches!(c, Card::Option(_)))
        .collect();
    let mut team = Vec::new();
    let lines = rng.random_range(1..=3usize);
    for _ in 0..lines {
        let mut card = *rookies[rng.random_range(0..rookies.len())];
        if team.contains(&card.number) {
            continue;
        }
        team.push(card.number);
        for _ in 0..rng.random_range(0..=2usize) {
            let next: Vec<_> = digimon
                .iter()
                .filter(|d| {
                    d.evolves_from(&card.name)
                        && !matches!(d.requirements, crate::cards::Requirements::Jogress(..))
                })
                .collect();
            if next.is_empty() || team.len() >= 5 {
                break;
            }
            card = next[rng.random_range(0..next.len())];
            team.push(card.number);
        }
    }
    for _ in 0..rng.random_range(0..=2usize) {
        let o = options[rng.random_range(0..options.len())].number();
        if !team.contains(&o) {
            team.push(o);
        }
    }
    team
}

/// A random team the rules accept on its own, drawn with [`random_team`]
/// until one is; `None` after `tries` refusals.
pub fn accepted_team(
    cards: &CardSet,
    rng: &mut ChaCha8Rng,
    tries: usize,
) -> Option<Vec<CardNumber>> {
    (0..tries)
        .map(|_| random_team(cards, rng))
        .find(|team| Match::from_setup(&Setup::new(team.clone(), Vec::new(), 0), cards).is_ok())
}

/// A team's total Cost.
pub fn team_cost(cards: &CardSet, team: &[CardNumber]) -> u32 {
    team.iter()
        .filter_map(|n| cards.get(n))
        .filter_map(Card::cost)
        .map(u32::from)
        .sum()
}

/// Pairs of valid random teams with equal total Cost.
pub fn equal_cost_pairs(
    cards: &CardSet,
    count: usize,
    seed: u64,
) -> Vec<(Vec<CardNumber>, Vec<CardNumber>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut by_cost: std::collections::BTreeMap<u32, Vec<Vec<CardNumber>>> = Default::default();
    let mut pairs = Vec::new();
    let mut tries = 0;
    while pairs.len() < count && tries < count * 200 {
        tries += 1;
        let Some(team) = accepted_team(cards, &mut rng, 1) else {
            continue;
        };
        let cost = team_cost(cards, &team);
        let bucket = by_cost.entry(cost).or_default();
        if let Some(other) = bucket.pop() {
            pairs.push((other, team));
        } else {
            bucket.push(team);
        }
    }
    pairs
}

/// What `bterm analyze` measures.
#[derive(Debug, Clone)]
pub struct Report {
    /// Average clash value (P1's points swing) for P1's stance (row) vs P2's (column), over every pair of front Digimon.
    pub stance_matrix: [[f64; 3]; 3],
    /// Rows of `stance_matrix` that dominate every other row.
    pub dominant_rows: Vec<BattleType>,
    /// Share of single matchups that have a dominant stance.
    pub matchups_with_dominant_stance: f64,
    /// Battles played for the rates below.
    pub battles: usize,
    /// P1's wins, P2's wins, draws.
    pub results: [usize; 3],
    /// Rounds per battle: mean, median, min, max.
    pub rounds: (f64, u32, u32, u32),
}

/// Whether row `r` of `a` is at least as good as every other row in every column, and better somewhere.
pub fn dominates(a: &[[f64; 3]; 3], r: usize) -> bool {
    (0..3)
        .filter(|&o| o != r)
        .all(|o| (0..3).all(|c| a[r][c] >= a[o][c]) && (0..3).any(|c| a[r][c] > a[o][c]))
}

/// Measures the design over `cards`.
pub fn analyze(cards: &CardSet, battles: usize, levels: [Level; 2], seed: u64) -> Report {
    // The stance game, Digimon against Digimon: each pair of cards alone.
    let digimon: Vec<_> = cards.cards().iter().filter_map(Card::as_digimon).collect();
    let mut sum = [[0.0; 3]; 3];
    let mut pairs = 0usize;
    let mut with_dominant = 0usize;
    for a in &digimon {
        for b in &digimon {
            let m = Match::duel(a, b, &super::Tunables::default(), seed);
            let matrix = ai::payoff_matrix(&m, Side::P1);
            for (i, row) in matrix.iter().enumerate() {
                for (j, v) in row.iter().enumerate() {
                    sum[i][j] += v;
                }
            }
            pairs += 1;
            if (0..3).any(|r| dominates(&matrix, r)) {
                with_dominant += 1;
            }
        }
    }
    let n = pairs.max(1) as f64;
    let stance_matrix = sum.map(|row| row.map(|v| v / n));
    let dominant_rows = (0..3)
        .filter(|&r| dominates(&stance_matrix, r))
        .map(|r| BattleType::ALL[r])
        .collect();

    let mut results = [0usize; 3];
    let mut rounds = Vec::new();
    for (i, (t1, t2)) in equal_cost_pairs(cards, battles, seed)
        .into_iter()
        .enumerate()
    {
        let setup = Setup::new(t1, t2, seed.wrapping_add(i as u64));
        let Ok(mut m) = Match::from_setup(&setup, cards) else {
            continue;
        };
        cpu_battle(&mut m, levels);
        match m.outcome() {
            Some(Outcome::Win(Side::P1)) => results[0] += 1,
            Some(Outcome::Win(Side::P2)) => results[1] += 1,
            _ => results[2] += 1,
        }
        rounds.push(m.round());
    }
    rounds.sort_unstable();
    let played = rounds.len();
    let mean = rounds.iter().map(|&r| f64::from(r)).sum::<f64>() / played.max(1) as f64;
    let median = rounds.get(played / 2).copied().unwrap_or(0);
    Report {
        stance_matrix,
        dominant_rows,
        matchups_with_dominant_stance: with_dominant as f64 / n,
        battles: played,
        results,
        rounds: (
            mean,
            median,
            rounds.first().copied().unwrap_or(0),
            rounds.last().copied().unwrap_or(0),
        ),
    }
}

/// Plays `battles` battles of level `a` against level `b` on random
/// equal-Cost teams, swapping seats every battle: (a's wins, b's wins, draws).
pub fn level_duel(cards: &CardSet, battles: usize, a: Level, b: Level, seed: u64) -> [usize; 3] {
    let mut tally = [0usize; 3];
    for (i, (t1, t2)) in equal_cost_pairs(cards, battles, seed)
        .into_iter()
        .enumerate()
    {
        let a_seat = if i % 2 == 0 { Side::P1 } else { Side::P2 };
        let mut levels = [b; 2];
        levels[a_seat.index()] = a;
        let Ok(mut m) = Match::from_setup(&Setup::new(t1, t2, seed.wrapping_add(i as u64)), cards)
        else {
            continue;
        };
        cpu_battle(&mut m, levels);
        match m.outcome() {
            Some(Outcome::Win(w)) if w == a_seat => tally[0] += 1,
            Some(Outcome::Win(_)) => tally[1] += 1,
            _ => tally[2] += 1,
        }
    }
    tally
}
