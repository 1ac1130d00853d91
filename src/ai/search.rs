//! The `hard` CPU of every card game, written once: information-set Monte
//! Carlo tree search. Each iteration samples a world the searching seat
//! cannot tell from the real one (its ruleset re-deals what the seat does
//! not see), walks one shared tree through the actions that world allows
//! (UCB over availability counts), plays a short rollout and scores it per
//! seat; each node keeps the value of the seat that moved into it (max^n),
//! so it plays 3 and 4 seats as well as 2.

use std::time::{Duration, Instant};

use crate::rules::alpha::Rng64;
use crate::rules::{Ruleset, Seat};

/// What the search needs of a ruleset, beyond [`Ruleset`].
pub trait Searchable: Ruleset {
    /// Who is asked now and the actions the search weighs (all the legal
    /// ones, or a ruleset's sensible part of them), while the game goes on.
    fn to_move(&self) -> Option<(Seat, Vec<Self::Action>)>;
    /// The ruleset's greedy player's move (its `normal` CPU).
    fn greedy(&self, seat: Seat, legal: &[Self::Action]) -> Self::Action;
    /// A rollout's move: the greedy player's, one time in five a random one.
    fn rollout_action(&self, seat: Seat, legal: &[Self::Action], rng: &mut Rng64) -> Self::Action {
        if rng.below(5) == 0 {
            legal[rng.below(legal.len())]
        } else {
            self.greedy(seat, legal)
        }
    }
    /// Each seat's standing, 0 (out) to 1 (won).
    fn score(&self) -> Vec<f64>;
}

/// Actions a rollout plays before the position is scored.
pub const ROLLOUT_ACTIONS: usize = 120;

struct Node<A> {
    /// Who chose the action that led here.
    mover: Option<Seat>,
    action: Option<A>,
    children: Vec<usize>,
    visits: u32,
    /// How often this node's action was legal when its parent was visited.
    avail: u32,
    /// Summed value for the mover.
    total: f64,
}

/// Searches from the seat's knowledge: `sample` deals a world consistent
/// with it; `root` are the answers the seat may give now. At most
/// `iterations`, and no longer than `time` (after 16 iterations).
pub fn search<R: Searchable>(
    root: &[R::Action],
    mut sample: impl FnMut(&mut Rng64) -> R,
    iterations: u32,
    time: Duration,
    rng: &mut Rng64,
) -> R::Action {
    let start = Instant::now();
    let mut nodes: Vec<Node<R::Action>> = vec![Node {
        mover: None,
        action: None,
        children: Vec::new(),
        visits: 0,
        avail: 0,
        total: 0.0,
    }];
    for it in 0..iterations {
        if it > 16 && start.elapsed() > time {
            break;
        }
        let mut world = sample(rng);
        let mut path = vec![0usize];
        let mut node = 0usize;
        // Selection and expansion.
        while let Some((seat, legal)) = world.to_move() {
            let kids: Vec<usize> = nodes[node]
                .children
                .iter()
                .copied()
                .filter(|&c| nodes[c].action.is_some_and(|a| legal.contains(&a)))
                .collect();
            for &c in &kids {
                nodes[c].avail += 1;
            }
            let untried: Vec<R::Action> = legal
                .iter()
                .copied()
                .filter(|a| !kids.iter().any(|&c| nodes[c].action == Some(*a)))
                .collect();
            let next = if !untried.is_empty() {
                let a = untried[rng.below(untried.len())];
                nodes.push(Node {
                    mover: Some(seat),
                    action: Some(a),
                    children: Vec::new(),
                    visits: 0,
                    avail: 1,
                    total: 0.0,
                });
                let id = nodes.len() - 1;
                nodes[node].children.push(id);
                let _ = world.apply(seat, a);
                path.push(id);
                break;
            } else {
                let mut best = kids[0];
                let mut best_ucb = f64::MIN;
                for &c in &kids {
                    let n = &nodes[c];
                    let mean = n.total / f64::from(n.visits.max(1));
                    let ucb = mean
                        + 0.7
                            * (f64::from(n.avail.max(1)).ln() / f64::from(n.visits.max(1))).sqrt();
                    if ucb > best_ucb {
                        best_ucb = ucb;
                        best = c;
                    }
                }
                best
            };
            if let Some(a) = nodes[next].action {
                let _ = world.apply(seat, a);
            }
            path.push(next);
            node = next;
        }
        // Rollout.
        for _ in 0..ROLLOUT_ACTIONS {
            let Some((seat, legal)) = world.to_move() else {
                break;
            };
            let a = world.rollout_action(seat, &legal, rng);
            if world.apply(seat, a).is_err() {
                break;
            }
        }
        let values = world.score();
        for &n in &path {
            let node = &mut nodes[n];
            node.visits += 1;
            if let Some(s) = node.mover {
                node.total += values.get(s.index()).copied().unwrap_or(0.0);
            }
        }
    }
    nodes[0]
        .children
        .iter()
        .filter_map(|&c| Some((nodes[c].action?, nodes[c].visits)))
        .filter(|(a, _)| root.contains(a))
        .max_by_key(|&(_, v)| v)
        .map(|(a, _)| a)
        .unwrap_or(root[0])
}
