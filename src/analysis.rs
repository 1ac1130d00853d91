//! Measuring the Terminal rules with CPU players: the stance payoff matrix
//! over the card set, and many CPU battles between random equal-Cost teams
//! (`bterm analyze`, and the design tests that hold its figures).

use crate::ai::Strength;
use crate::ai::terminal::payoff_matrix;
use crate::cards::{BattleType, Card, CardSet};
use crate::rules::Outcome;
use crate::rules::terminal::pick::equal_cost_pairs;
use crate::rules::terminal::{Match, Setup, Side, Tunables};
use crate::session::{Player, Table, drive_cpus};

/// Plays a Terminal Battle CPU against CPU to its end: the table holds the
/// actions taken and the final state. `None` when the rules refuse the setup.
pub fn cpu_battle(setup: Setup, cards: &CardSet, strengths: [Strength; 2]) -> Option<Table<Match>> {
    let mut table = Table::new(setup, cards, strengths.map(Player::Cpu).to_vec()).ok()?;
    drive_cpus(&mut table, cards);
    Some(table)
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
pub fn analyze(cards: &CardSet, battles: usize, levels: [Strength; 2], seed: u64) -> Report {
    // The stance game, Digimon against Digimon: each pair of cards alone.
    let digimon: Vec<_> = cards.cards().iter().filter_map(Card::as_digimon).collect();
    let mut sum = [[0.0; 3]; 3];
    let mut pairs = 0usize;
    let mut with_dominant = 0usize;
    for a in &digimon {
        for b in &digimon {
            let m = Match::duel(a, b, &Tunables::default(), seed);
            let matrix = payoff_matrix(&m, Side::P1);
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
        let Some(table) = cpu_battle(setup, cards, levels) else {
            continue;
        };
        let m = table.game();
        match m.outcome() {
            Some(Outcome::Win(w)) if w == Side::P1.seat() => results[0] += 1,
            Some(Outcome::Win(_)) => results[1] += 1,
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
pub fn level_duel(
    cards: &CardSet,
    battles: usize,
    a: Strength,
    b: Strength,
    seed: u64,
) -> [usize; 3] {
    let mut tally = [0usize; 3];
    for (i, (t1, t2)) in equal_cost_pairs(cards, battles, seed)
        .into_iter()
        .enumerate()
    {
        let a_seat = if i % 2 == 0 { Side::P1 } else { Side::P2 };
        let mut levels = [b; 2];
        levels[a_seat.index()] = a;
        let setup = Setup::new(t1, t2, seed.wrapping_add(i as u64));
        let Some(table) = cpu_battle(setup, cards, levels) else {
            continue;
        };
        match table.game().outcome() {
            Some(Outcome::Win(w)) if w == a_seat.seat() => tally[0] += 1,
            Some(Outcome::Win(_)) => tally[1] += 1,
            _ => tally[2] += 1,
        }
    }
    tally
}
