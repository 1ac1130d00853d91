//! What happened, in order. An event never names a card its seats may not
//! all see: a hand discard or a face-down play is a count, not a card.

use serde::{Deserialize, Serialize};

use crate::cards::{CardNumber, CardSet};
use crate::rules::{Outcome, Seat};

/// What an attack is aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Struck {
    /// The player.
    Player(Seat),
    /// One of its Digimon.
    Digimon(Seat, CardNumber),
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// Who is first to attack on turn 1.
    FirstToAttack(Seat),
    /// A hand with no Level III is shown and redrawn (at setup or in the
    /// Preparation Phase).
    Redraw {
        /// Whose.
        seat: Seat,
        /// The hand shown.
        shown: Vec<CardNumber>,
    },
    /// A turn begins, with its order (first to attack first).
    TurnStarts {
        /// The turn, from 1.
        turn: u32,
        /// The order.
        order: Vec<Seat>,
    },
    /// Every card is untapped.
    Untapped,
    /// A seat's Preparation Phase begins.
    Preparation(Seat),
    /// Cards discarded from hand (face down).
    DiscardedFromHand {
        /// Whose.
        seat: Seat,
        /// How many.
        count: u8,
    },
    /// A card in play discarded.
    Scrapped {
        /// Whose.
        seat: Seat,
        /// Which.
        card: CardNumber,
    },
    /// Cards drawn.
    Drew {
        /// Whose.
        seat: Seat,
        /// How many.
        count: u8,
    },
    /// The Lifespan Process.
    Lifespan {
        /// Whose.
        seat: Seat,
        /// Cards that became the new Net Ocean.
        recycled: u16,
    },
    /// A card played face down.
    PlayedFaceDown {
        /// Whose.
        seat: Seat,
        /// On which Digimon (for an evolution), or `None` for a new card.
        on: Option<CardNumber>,
    },
    /// A Jogress partner shown from hand and set aside with its card.
    JogressPartner {
        /// Whose.
        seat: Seat,
        /// The partner.
        card: CardNumber,
    },
    /// The Target Opponent changed.
    TargetSwitched {
        /// Whose.
        seat: Seat,
        /// To whom.
        to: Seat,
    },
    /// The Evolution Phase begins.
    EvolutionPhase,
    /// A seat's played cards turn face up.
    Revealed {
        /// Whose.
        seat: Seat,
        /// The cards.
        cards: Vec<CardNumber>,
    },
    /// The Burst Process.
    Burst {
        /// Whose.
        seat: Seat,
        /// Cost over 10.
        over: u32,
        /// Whether the Net Ocean was too short (the played cards went instead).
        played_cards_lost: bool,
    },
    /// An evolution.
    Evolved {
        /// Whose.
        seat: Seat,
        /// From.
        from: CardNumber,
        /// To.
        to: CardNumber,
    },
    /// A failed evolution: the card (and any above it) to the Dark Area.
    EvolutionFailed {
        /// Whose.
        seat: Seat,
        /// The card that failed.
        card: CardNumber,
        /// The Digimon it was on.
        on: CardNumber,
    },
    /// The line-up, fastest first.
    LinedUp {
        /// Whose.
        seat: Seat,
        /// The Digimon.
        cards: Vec<CardNumber>,
    },
    /// The Battle Phase begins.
    BattlePhase,
    /// A tapped Digimon's turn passes.
    TappedIdle {
        /// Whose.
        seat: Seat,
        /// Which.
        card: CardNumber,
    },
    /// A Digimon does nothing.
    Idle {
        /// Whose.
        seat: Seat,
        /// Which.
        card: CardNumber,
    },
    /// An attack.
    Attack {
        /// Whose Digimon.
        seat: Seat,
        /// Which.
        card: CardNumber,
        /// Aimed at.
        target: Struck,
    },
    /// An alpha-attack.
    AlphaAttack {
        /// Whose Digimon.
        seat: Seat,
        /// The main Digimon.
        card: CardNumber,
        /// The supporters.
        support: Vec<CardNumber>,
        /// Aimed at.
        target: Seat,
    },
    /// An alpha-attack called off before it was declared (its Digimon
    /// acts again).
    AlphaAttackCalledOff {
        /// Whose Digimon.
        seat: Seat,
        /// The main Digimon.
        card: CardNumber,
    },
    /// A block.
    Block {
        /// Whose Digimon.
        seat: Seat,
        /// Which.
        card: CardNumber,
    },
    /// An alpha-block.
    AlphaBlock {
        /// Whose Digimon.
        seat: Seat,
        /// The main Digimon.
        card: CardNumber,
        /// The supporters.
        support: Vec<CardNumber>,
    },
    /// No block.
    NoBlock(Seat),
    /// A player loses points to an attack.
    Damage {
        /// Who.
        seat: Seat,
        /// How many.
        amount: u32,
        /// Left.
        points: u32,
    },
    /// A Command card used.
    Command {
        /// Whose.
        seat: Seat,
        /// Which.
        card: CardNumber,
    },
    /// An ability resolves.
    Ability {
        /// Whose.
        seat: Seat,
        /// The card.
        card: CardNumber,
        /// Which of its Alpha abilities (0-based).
        index: u8,
    },
    /// An ability's conditions did not hold: it does nothing.
    AbilityFizzled {
        /// Whose.
        seat: Seat,
        /// The card.
        card: CardNumber,
    },
    /// A side's power in a battle.
    Power {
        /// Whose.
        seat: Seat,
        /// The main Digimon.
        card: CardNumber,
        /// The technique letter used.
        technique: char,
        /// Attack power.
        power: u32,
        /// HP.
        hp: u32,
    },
    /// Who won the battle.
    BattleResult {
        /// Winners (both on a tie).
        winners: Vec<Seat>,
    },
    /// A Digimon deleted (removed from the game).
    Deleted {
        /// Whose.
        seat: Seat,
        /// Which.
        card: CardNumber,
    },
    /// A deletion prevented.
    Saved {
        /// Whose.
        seat: Seat,
        /// Which.
        card: CardNumber,
    },
    /// A Digimon tapped.
    Tapped {
        /// Whose.
        seat: Seat,
        /// Which.
        card: CardNumber,
    },
    /// A Digimon untapped by an effect.
    UntappedOne {
        /// Whose.
        seat: Seat,
        /// Which.
        card: CardNumber,
    },
    /// Points changed by an effect.
    Points {
        /// Whose.
        seat: Seat,
        /// By how much.
        by: i32,
        /// Now.
        points: u32,
    },
    /// The end of the turn.
    TurnEnds(u32),
    /// A player leaves the game (it lost).
    Left {
        /// Who.
        seat: Seat,
        /// Why, in the rulebook's words.
        why: String,
    },
    /// A card's own winning condition was met (rulebook, Winning
    /// Conditions).
    WonByCard {
        /// Who wins.
        seat: Seat,
        /// The card.
        card: CardNumber,
    },
    /// The game is over.
    Over(Outcome),
}

fn name(n: &CardNumber, cards: &CardSet) -> String {
    cards
        .get(n)
        .map_or_else(|| n.to_string(), |c| c.name().to_string())
}

fn names(v: &[CardNumber], cards: &CardSet) -> String {
    if v.is_empty() {
        return "nothing".to_string();
    }
    v.iter()
        .map(|n| name(n, cards))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An event in plain words.
pub fn describe(e: &Event, cards: &CardSet) -> String {
    match e {
        Event::FirstToAttack(s) => format!("{s} is first to attack."),
        Event::Redraw { seat, shown } => format!(
            "{seat} has no Level III: shows {} and redraws 6.",
            names(shown, cards)
        ),
        Event::TurnStarts { turn, order } => format!(
            "— Turn {turn} — order: {}",
            order
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::Untapped => "Every card untaps.".to_string(),
        Event::Preparation(s) => format!("{s}'s Preparation Phase."),
        Event::DiscardedFromHand { seat, count } => {
            format!("{seat} discards {count} card(s) from hand.")
        }
        Event::Scrapped { seat, card } => {
            format!("{seat} discards {} from play.", name(card, cards))
        }
        Event::Drew { seat, count } => format!("{seat} draws {count}."),
        Event::Lifespan { seat, recycled } => format!(
            "{seat}'s Net Ocean runs out: Lifespan Process ({recycled} cards become the Net Ocean); {seat} plays nothing this phase."
        ),
        Event::PlayedFaceDown { seat, on: None } => format!("{seat} plays a card face down."),
        Event::PlayedFaceDown { seat, on: Some(n) } => {
            format!("{seat} places a card face down on {}.", name(n, cards))
        }
        Event::JogressPartner { seat, card } => format!(
            "{seat} shows {} from hand as the Jogress partner (it goes to the Dark Area at evolution).",
            name(card, cards)
        ),
        Event::TargetSwitched { seat, to } => format!("{seat} now targets {to}."),
        Event::EvolutionPhase => "Evolution Phase: played cards turn face up.".to_string(),
        Event::Revealed { seat, cards: c } => format!("{seat} reveals {}.", names(c, cards)),
        Event::Burst {
            seat,
            over,
            played_cards_lost,
        } => {
            if *played_cards_lost {
                format!(
                    "{seat} BURSTS ({over} Cost over 10) and the Net Ocean is too short: every card played this turn goes to the Dark Area."
                )
            } else {
                format!(
                    "{seat} BURSTS: {over} Cost over 10 sends {over} Net Ocean card(s) to the Dark Area."
                )
            }
        }
        Event::Evolved { seat, from, to } => format!(
            "{seat}'s {} evolves to {}.",
            name(from, cards),
            name(to, cards)
        ),
        Event::EvolutionFailed { seat, card, on } => format!(
            "{seat}'s {} cannot evolve from {}: it goes to the Dark Area.",
            name(card, cards),
            name(on, cards)
        ),
        Event::LinedUp { seat, cards: c } => format!("{seat} lines up {}.", names(c, cards)),
        Event::BattlePhase => "Battle Phase.".to_string(),
        Event::TappedIdle { seat, card } => {
            format!("{seat}'s {} is tapped and does nothing.", name(card, cards))
        }
        Event::Idle { seat, card } => format!("{seat}'s {} does nothing.", name(card, cards)),
        Event::Attack { seat, card, target } => match target {
            Struck::Player(p) => format!("{seat}'s {} attacks {p}!", name(card, cards)),
            Struck::Digimon(p, d) => format!(
                "{seat}'s {} attacks {p}'s {}!",
                name(card, cards),
                name(d, cards)
            ),
        },
        Event::AlphaAttack {
            seat,
            card,
            support,
            target,
        } => format!(
            "{seat}'s {} ALPHA-ATTACKS {target}, supported by {}!",
            name(card, cards),
            names(support, cards)
        ),
        Event::AlphaAttackCalledOff { seat, card } => format!(
            "{seat} calls off {}'s alpha-attack before declaring it.",
            name(card, cards)
        ),
        Event::Block { seat, card } => format!("{seat} blocks with {}.", name(card, cards)),
        Event::AlphaBlock {
            seat,
            card,
            support,
        } => format!(
            "{seat} alpha-blocks with {}, supported by {}.",
            name(card, cards),
            names(support, cards)
        ),
        Event::NoBlock(s) => format!("{s} does not block."),
        Event::Damage {
            seat,
            amount,
            points,
        } => format!("{seat} takes {amount} damage: {points} points left."),
        Event::Command { seat, card } => format!("{seat} uses {}.", name(card, cards)),
        Event::Ability { seat, card, index } => {
            // What the ability does, in the card's own words.
            let text = cards
                .get(card)
                .and_then(|c| c.alpha_abilities().get(usize::from(*index)))
                .map(crate::effects::text::render);
            let head = format!("{seat}'s {} — ability {}.", name(card, cards), index + 1);
            match text {
                Some(t) => format!("{head} {t}"),
                None => head,
            }
        }
        Event::AbilityFizzled { seat, card } => format!(
            "{seat}'s {}: its conditions do not hold; nothing happens.",
            name(card, cards)
        ),
        Event::Power {
            seat,
            card,
            technique,
            power,
            hp,
        } => format!(
            "{seat}'s {} uses its {technique} technique: power {power}, HP {hp}.",
            name(card, cards)
        ),
        Event::BattleResult { winners } => match winners.as_slice() {
            [w] => format!("{w} wins the battle."),
            _ => "Equal power: both sides win the battle.".to_string(),
        },
        Event::Deleted { seat, card } => format!(
            "{seat}'s {} is DELETED (removed from the game).",
            name(card, cards)
        ),
        Event::Saved { seat, card } => {
            format!("{seat}'s {} is saved from deletion.", name(card, cards))
        }
        Event::Tapped { seat, card } => format!("{seat}'s {} taps.", name(card, cards)),
        Event::UntappedOne { seat, card } => format!("{seat}'s {} untaps.", name(card, cards)),
        Event::Points { seat, by, points } => {
            format!(
                "{seat} {} {} points: {points} left.",
                if *by < 0 { "loses" } else { "gains" },
                by.unsigned_abs()
            )
        }
        Event::TurnEnds(t) => format!("Turn {t} ends."),
        Event::Left { seat, why } => format!("{seat} is out: {why}."),
        Event::WonByCard { seat, card } => {
            format!(
                "{seat}'s {} meets its winning condition.",
                name(card, cards)
            )
        }
        Event::Over(Outcome::Win(s)) => format!("{s} WINS the game."),
        Event::Over(Outcome::Draw) => "The game is a DRAW.".to_string(),
    }
}
