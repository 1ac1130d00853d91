//! The Terminal Battle's CPU player. Easy: any legal action, at random;
//! normal: the stance with the best average result this round against any
//! stance; hard: the stance game's mixed Nash equilibrium, looking a few
//! rounds ahead.

use rand::RngExt;

use super::{Cpu, Strength};
use crate::cards::BattleType;
use crate::rules::terminal::{Action, Match, Side};
use crate::rules::{Outcome, Seat};

impl Cpu for Match {
    fn choose(&self, seat: Seat, strength: Strength) -> Option<Action> {
        choose(self, Side::of(seat)?, strength)
    }

    /// A Terminal Battle's view is the match with the other side's hidden
    /// cards masked, which is all the CPU looks at.
    fn choose_from_view(view: &Match, seat: Seat, strength: Strength) -> Option<Action> {
        view.choose(seat, strength)
    }
}

/// Chooses `side`'s next action, or `None` when it has nothing to do.
pub fn choose(m: &Match, side: Side, level: Strength) -> Option<Action> {
    let legal = m.legal_actions(side);
    if legal.is_empty() {
        return None;
    }
    let mut rng = m.cpu_rng(side);
    if level == Strength::Easy {
        return Some(legal[rng.random_range(0..legal.len())]);
    }
    // Normal and hard: evolve when offered, use ready abilities, block alpha strikes.
    for want in [
        Action::Jogress,
        Action::Digivolve(true),
        Action::AlphaBlock(true),
    ] {
        if legal.contains(&want) {
            return Some(want);
        }
    }
    if let Some(a) = legal.iter().find(|a| matches!(a, Action::UseAbility(_))) {
        return Some(*a);
    }
    if !m.awaits_stance(side) {
        return legal.first().copied();
    }
    let payoff = match level {
        Strength::Hard => lookahead_matrix(m, side, HARD_DEPTH),
        _ => payoff_matrix(m, side),
    };
    let mixed = match level {
        Strength::Normal => {
            let row = (0..3)
                .max_by(|&a, &b| row_mean(&payoff, a).total_cmp(&row_mean(&payoff, b)))
                .unwrap_or(0);
            let mut x = [0.0; 3];
            x[row] = 1.0;
            x
        }
        _ => nash(&payoff).0,
    };
    let r: f64 = rng.random();
    let mut acc = 0.0;
    for (i, p) in mixed.iter().enumerate() {
        acc += p;
        if r < acc {
            return Some(Action::Stance(BattleType::ALL[i]));
        }
    }
    Some(Action::Stance(
        BattleType::ALL[mixed.iter().rposition(|&p| p > 0.0).unwrap_or(0)],
    ))
}

fn row_mean(a: &[[f64; 3]; 3], row: usize) -> f64 {
    a[row].iter().sum::<f64>() / 3.0
}

/// How good the round's result is for `side`: the points swing, Digimon
/// kept, and the battle's end.
fn value(before: &Match, after: &Match, side: Side) -> f64 {
    if let Some(outcome) = after.outcome() {
        return match outcome {
            Outcome::Win(w) if w == side.seat() => 1000.0,
            Outcome::Win(_) => -1000.0,
            Outcome::Draw => 0.0,
        };
    }
    let swing = |m: &Match| {
        let (me, them) = (m.view(side), m.view(side.other()));
        f64::from(me.points - them.points)
            + 15.0 * (me.digimon_left as f64 - them.digimon_left as f64)
    };
    swing(after) - swing(before)
}

/// Rows: `side`'s stance A, B, C; columns: the opponent's. Each cell plays
/// the round out on a copy of the match.
pub fn payoff_matrix(m: &Match, side: Side) -> [[f64; 3]; 3] {
    let mut a = [[0.0; 3]; 3];
    for (i, &mine) in BattleType::ALL.iter().enumerate() {
        for (j, &theirs) in BattleType::ALL.iter().enumerate() {
            if let Some(after) = m.try_stances(side, mine, theirs) {
                a[i][j] = value(m, &after, side);
            }
        }
    }
    a
}

/// Rounds the hard CPU looks ahead.
const HARD_DEPTH: u32 = 3;
/// How much a later round counts against this one.
const DISCOUNT: f64 = 0.9;

/// Like [`payoff_matrix`], but each cell also counts what the following
/// rounds are worth when both sides play them at equilibrium.
pub fn lookahead_matrix(m: &Match, side: Side, depth: u32) -> [[f64; 3]; 3] {
    let mut a = [[0.0; 3]; 3];
    for (i, &mine) in BattleType::ALL.iter().enumerate() {
        for (j, &theirs) in BattleType::ALL.iter().enumerate() {
            let Some(after) = m.try_stances(side, mine, theirs) else {
                continue;
            };
            a[i][j] = value(m, &after, side);
            if depth > 1 && after.outcome().is_none() {
                let next = to_stances(after);
                if next.awaits_stance(side) {
                    a[i][j] += DISCOUNT * nash(&lookahead_matrix(&next, side, depth - 1)).2;
                }
            }
        }
    }
    a
}

/// Answers evolution questions (always digivolving) until the match waits for stances.
fn to_stances(mut m: Match) -> Match {
    for _ in 0..4 {
        let mut acted = false;
        for s in Side::BOTH {
            let legal = m.legal_actions(s);
            if let Some(a) = [Action::Jogress, Action::Digivolve(true)]
                .into_iter()
                .find(|a| legal.contains(a))
            {
                acted |= m.apply(s, a).is_ok();
            }
        }
        if !acted {
            break;
        }
    }
    m
}

/// A mixed Nash equilibrium of the zero-sum game `a` (row player
/// maximises): (row strategy, column strategy, value). Found by support
/// enumeration, smallest supports first, so a pure saddle point is preferred.
pub fn nash(a: &[[f64; 3]; 3]) -> ([f64; 3], [f64; 3], f64) {
    const EPS: f64 = 1e-9;
    for k in 1..=3 {
        for rows in subsets(k) {
            for cols in subsets(k) {
                let Some((x, v)) = indifferent(a, &rows, &cols, false) else {
                    continue;
                };
                let Some((y, w)) = indifferent(a, &rows, &cols, true) else {
                    continue;
                };
                if (v - w).abs() > 1e-6 {
                    continue;
                }
                let row_best =
                    (0..3).all(|i| (0..3).map(|j| a[i][j] * y[j]).sum::<f64>() <= v + 1e-6);
                let col_best =
                    (0..3).all(|j| (0..3).map(|i| a[i][j] * x[i]).sum::<f64>() >= v - 1e-6);
                if row_best && col_best && x.iter().chain(&y).all(|&p| p >= -EPS) {
                    return (x.map(|p| p.max(0.0)), y.map(|p| p.max(0.0)), v);
                }
            }
        }
    }
    let u = [1.0 / 3.0; 3];
    (u, u, 0.0)
}

fn subsets(k: usize) -> Vec<Vec<usize>> {
    (0u8..8)
        .filter(|m| m.count_ones() as usize == k)
        .map(|m| (0..3).filter(|i| m & (1 << i) != 0).collect())
        .collect()
}

/// Solves for the strategy on one support that makes the other player
/// indifferent over theirs: the row strategy (over `rows`, equalising the
/// `cols` columns) or, with `for_cols`, the column strategy.
fn indifferent(
    a: &[[f64; 3]; 3],
    rows: &[usize],
    cols: &[usize],
    for_cols: bool,
) -> Option<([f64; 3], f64)> {
    let (mine, theirs) = if for_cols { (cols, rows) } else { (rows, cols) };
    let k = mine.len();
    // Unknowns: k probabilities and the value v. Equations: one per opposing
    // pure strategy (payoff = v), and the probabilities sum to 1.
    let n = k + 1;
    let mut m = vec![vec![0.0; n + 1]; n];
    for (e, &t) in theirs.iter().enumerate() {
        for (u, &s) in mine.iter().enumerate() {
            m[e][u] = if for_cols { a[t][s] } else { a[s][t] };
        }
        m[e][k] = -1.0;
    }
    m[k][..k].fill(1.0);
    m[k][n] = 1.0;
    let sol = gauss(m)?;
    let mut p = [0.0; 3];
    for (u, &s) in mine.iter().enumerate() {
        p[s] = sol[u];
    }
    Some((p, sol[k]))
}

fn gauss(mut m: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let n = m.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rock_paper_scissors_is_uniform() {
        let a = [[0.0, 1.0, -1.0], [-1.0, 0.0, 1.0], [1.0, -1.0, 0.0]];
        let (x, y, v) = nash(&a);
        for p in x.iter().chain(&y) {
            assert!((p - 1.0 / 3.0).abs() < 1e-9, "{x:?} {y:?}");
        }
        assert!(v.abs() < 1e-9);
    }

    #[test]
    fn a_dominant_row_is_played_pure() {
        let a = [[5.0, 6.0, 7.0], [0.0, 1.0, 2.0], [-1.0, 0.0, 1.0]];
        let (x, y, v) = nash(&a);
        assert_eq!(x, [1.0, 0.0, 0.0]);
        assert_eq!(y, [1.0, 0.0, 0.0]);
        assert_eq!(v, 5.0);
    }

    #[test]
    fn a_two_by_two_mix_is_exact() {
        // Matching pennies in the first two stances; the third is bad for the row player.
        let a = [[1.0, -1.0, 5.0], [-1.0, 1.0, 5.0], [-9.0, -9.0, -9.0]];
        let (x, y, _) = nash(&a);
        assert!(
            (x[0] - 0.5).abs() < 1e-9 && (x[1] - 0.5).abs() < 1e-9 && x[2] == 0.0,
            "{x:?}"
        );
        assert!(
            (y[0] - 0.5).abs() < 1e-9 && (y[1] - 0.5).abs() < 1e-9,
            "{y:?}"
        );
    }
}
