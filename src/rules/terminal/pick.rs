//! Picking teams for the Terminal Battle: random teams the rules accept
//! (the attract demo, the CPU's team, the design measures), whether a
//! scanned card may join a team, and the card the cabinet gives out.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Event, Match, PointsReason, Setup, SetupError, Side};
use crate::cards::{Card, CardNumber, CardSet, Stage};

/// Draws before a demo team gives up (an empty team is the rules' default
/// partner).
pub const DEMO_TRIES: usize = 50;

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
    while pairs.len() < count && tries < count.saturating_mul(200) {
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

/// Two random teams the rules accept, drawn from `seed` (an empty team,
/// the rules' default partner, when none is found in [`DEMO_TRIES`] draws).
pub fn demo_teams(cards: &CardSet, rng: &mut ChaCha8Rng) -> [Vec<CardNumber>; 2] {
    [(); 2].map(|()| accepted_team(cards, rng, DEMO_TRIES).unwrap_or_default())
}

/// The setup for two teams of scanned cards (each with whether it is in the
/// card set: the others travel with the setup as extra cards).
pub fn setup_of(teams: [&[(Card, bool)]; 2], seed: u64) -> Setup {
    let mut setup = Setup::new(
        teams[0].iter().map(|(c, _)| c.number()).collect(),
        teams[1].iter().map(|(c, _)| c.number()).collect(),
        seed,
    );
    for (c, in_set) in teams.iter().flat_map(|t| t.iter()) {
        if !in_set && !setup.extra.iter().any(|e| e.number() == c.number()) {
            setup.extra.push(c.clone());
        }
    }
    setup
}

/// Why a scanned card may not join a team.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Command cards are for the tabletop game only.
    #[error("{side}: {name} is a Command card; the Terminal plays Digimon and Option cards")]
    CommandCard {
        /// Whose team.
        side: Side,
        /// The card's name.
        name: String,
    },
    /// The team with the card breaks a team rule.
    #[error("{0}")]
    Rules(#[from] SetupError),
}

/// What the rules say to `team` plus `card` (with whether it is in the card
/// set): a refusal, or the Burst warning if the team's Cost goes over the
/// cap.
pub fn check_card(
    cards: &CardSet,
    side: Side,
    team: &[(Card, bool)],
    card: &Card,
    in_set: bool,
) -> Result<Option<String>, Refusal> {
    if card.as_digimon().is_none() && card.as_option().is_none() {
        return Err(Refusal::CommandCard {
            side,
            name: card.name().to_string(),
        });
    }
    let mut mine = team.to_vec();
    mine.push((card.clone(), in_set));
    let teams = match side {
        Side::P1 => [&mine[..], &[][..]],
        Side::P2 => [&[][..], &mine[..]],
    };
    let m = Match::from_setup(&setup_of(teams, 1), cards)?;
    let burst = m.opening_events().iter().find_map(|e| match e {
        Event::PointsChanged {
            side: s,
            delta,
            reason: PointsReason::Burst,
            ..
        } if *s == side => Some(*delta),
        _ => None,
    });
    Ok(burst.map(|d| {
        format!(
            "Burst! The team's Cost is over {}: {side} starts with {} fewer points",
            m.tunables().cost_cap,
            -d
        )
    }))
}

/// The card the cabinet gives out after a battle: drawn from the set
/// (Digimon and Option cards) by the battle's seed, so a replay's result
/// gives the same card.
pub fn prize(setup: &Setup, cards: &CardSet) -> Option<Card> {
    let pool: Vec<&Card> = cards
        .cards()
        .iter()
        .filter(|c| c.as_digimon().is_some() || c.as_option().is_some())
        .collect();
    if pool.is_empty() {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(setup.seed ^ 0xD15E_45ED);
    Some(pool[rng.random_range(0..pool.len())].clone())
}
