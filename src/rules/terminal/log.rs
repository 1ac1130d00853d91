//! Events in plain words, for the text battle and replay logs.

use super::{Cause, Event, PointsReason};
use crate::cards::{BattleType, CardNumber, CardSet};
use crate::effects::Change;
use crate::rules::Outcome;

/// A card's name, or its number when the set does not have it.
pub fn name(cards: &CardSet, n: CardNumber) -> String {
    cards
        .get(&n)
        .map_or_else(|| n.to_string(), |c| c.name().to_string())
}

/// The name of `card`'s technique for `slot`, if the set has the card.
pub fn technique_name(cards: &CardSet, card: CardNumber, slot: BattleType) -> Option<String> {
    let d = cards.get(&card)?.as_digimon()?;
    Some(d.technique(slot).name.clone())
}

fn change(c: Change) -> String {
    match c {
        Change::Add(d) if d >= 0 => format!("+{d}"),
        Change::Add(d) => format!("{d}"),
        Change::Percent(p) => format!("×{}%", p),
        Change::Set(v) => format!("= {v}"),
    }
}

fn cause(cards: &CardSet, c: Cause) -> String {
    match c {
        Cause::ReadBonus => "read bonus".to_string(),
        Cause::Ability { card, .. } => format!("{}'s ability", name(cards, card)),
    }
}

/// The result and why, in a line: "P2 WINS: P1's Agumon was deleted".
pub fn verdict(m: &super::Match, cards: &CardSet) -> Option<String> {
    let head = match m.outcome()? {
        Outcome::Win(seat) => format!("{seat} WINS"),
        Outcome::Draw => "DRAW".to_string(),
    };
    Some(format!("{head}: {}", why(m, cards)?))
}

/// Why the battle ended, in words: "P1's Agumon was deleted".
pub fn why(m: &super::Match, cards: &CardSet) -> Option<String> {
    use super::Ending;
    Some(match m.ending()? {
        Ending::Deleted {
            side,
            card,
            last_of: 1,
        } => format!("{side}'s {} was deleted", name(cards, card)),
        Ending::Deleted { side, card, .. } => {
            format!("{side}'s last Digimon, {}, was deleted", name(cards, card))
        }
        Ending::PointsOut { side } => format!("{side}'s points ran out"),
        Ending::BothOut => "both sides were out in the same clash".to_string(),
        Ending::OnPoints { points, rounds } => {
            let word = if rounds == 1 { "round" } else { "rounds" };
            format!(
                "{}–{} on points after {rounds} {word}",
                points[0], points[1]
            )
        }
    })
}

/// One event as a line of plain English.
pub fn describe(e: &Event, cards: &CardSet) -> String {
    let n = |c: CardNumber| name(cards, c);
    match e {
        Event::RoundStarted { round } => format!("— Round {round} —"),
        Event::EvolutionOffered {
            side,
            from,
            to,
            jogress,
            bench,
        } => {
            let how = if *jogress { "Jogress" } else { "digivolve" };
            let on = if bench.is_some() { " on the bench" } else { "" };
            format!("{side}: {} may {how} to {}{on}", n(*from), n(*to))
        }
        Event::Digivolved {
            side,
            from,
            to,
            bench,
        } => {
            let on = if bench.is_some() { " on the bench" } else { "" };
            format!("{side}: {} digivolves to {}{on}!", n(*from), n(*to))
        }
        Event::Jogressed { side, from, to } => {
            format!(
                "{side}: {} and {} Jogress into {}!",
                n(from[0]),
                n(from[1]),
                n(*to)
            )
        }
        Event::StanceLocked { side } => format!("{side} has pressed"),
        Event::AbilityReadied { side, card, .. } => {
            format!("{side} readies {}'s [Action:] ability", n(*card))
        }
        Event::AlphaAttack { side, group } => {
            let names: Vec<String> = group.iter().map(|c| n(*c)).collect();
            format!("{side}: ALPHA STRIKE with {}!", names.join(", "))
        }
        Event::AlphaBlock { side, group } if group.is_empty() => {
            format!("{side} does not alpha-block: the Alpha Strike goes through")
        }
        Event::AlphaBlock { side, group } => {
            let names: Vec<String> = group.iter().map(|c| n(*c)).collect();
            format!("{side} alpha-blocks with {}", names.join(", "))
        }
        Event::StancesRevealed { stances, timed_out } => {
            let t = |i: usize| if timed_out[i] { " (time up)" } else { "" };
            format!(
                "Stances: P1 {}{}, P2 {}{}",
                stances[0],
                t(0),
                stances[1],
                t(1)
            )
        }
        Event::TechniqueChosen {
            side,
            card,
            slot,
            base,
        } => {
            let tech =
                technique_name(cards, *card, *slot).unwrap_or_else(|| format!("{slot} technique"));
            format!("{side}: {} uses {tech} ({slot}), power {base}", n(*card))
        }
        Event::AbilityTriggered { side, card, index } => {
            let text = cards
                .get(card)
                .and_then(|c| c.terminal_abilities().get(usize::from(*index)))
                .map_or_else(String::new, crate::effects::text::render);
            format!("{side}: {} — {text}", n(*card))
        }
        Event::PowerModified {
            side,
            cause: c,
            change: ch,
            power,
        } => {
            format!(
                "{side}: attack power {} ({}) → {power}",
                change(*ch),
                cause(cards, *c)
            )
        }
        Event::HpModified {
            side,
            cause: c,
            change: ch,
            hp,
        } => {
            format!("{side}: HP {} ({}) → {hp}", change(*ch), cause(cards, *c))
        }
        Event::Clash {
            powers,
            hp: _,
            winner,
        } => match winner {
            Some(w) => format!("Clash: {} vs {} — {w} wins", powers[0], powers[1]),
            None => format!("Clash: {} vs {} — equal, both win", powers[0], powers[1]),
        },
        Event::PointsChanged {
            side,
            delta,
            points,
            reason,
        } => {
            let why = match reason {
                PointsReason::Burst => "Burst",
                PointsReason::LostClash => "lost the clash",
                PointsReason::Deletion => "deletion",
                PointsReason::AlphaStrike => "Alpha Strike",
                PointsReason::Ability => "ability",
            };
            format!("{side}: {delta:+} points ({why}) → {points}")
        }
        Event::DeletionPrevented { side, card } => format!("{side}: {} is not deleted!", n(*card)),
        Event::Deleted { side, card } => format!("{side}: {} is deleted!", n(*card)),
        Event::SteppedIn { side, card } => format!("{side}: {} steps in", n(*card)),
        Event::GaugeChanged { side, line, gauge } => {
            format!("{side}: gauge of line {} → {gauge}%", line + 1)
        }
        Event::RoundEnded { round, points } => {
            format!("End of round {round}: P1 {} — P2 {}", points[0], points[1])
        }
        Event::BattleEnded { outcome } => match outcome {
            Outcome::Win(seat) => format!("{seat} WINS!"),
            Outcome::Draw => "DRAW".to_string(),
        },
    }
}
