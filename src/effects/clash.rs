//! Alpha Clash card abilities as data: the rulebook's card abilities
//! (keywords such as *Flight* or *Barrage X*), its trigger tags, and the
//! effects the sample cards print, each one a plain value a card file
//! writes (`assets/cards/clash/*.ron`, docs/clash-cards.md) and
//! [`Ability::words`] reads back as the card's text.

use std::fmt;

use serde::{Deserialize, Serialize};

#[cfg(test)]
use proptest_derive::Arbitrary;

/// The five colours (the rulebook's "Colors & Costs").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Hue {
    /// Black.
    Black,
    /// Green.
    Green,
    /// White.
    White,
    /// Blue.
    Blue,
    /// Red.
    Red,
}

impl Hue {
    /// Every colour, in the rulebook's order.
    pub const ALL: [Hue; 5] = [Hue::Black, Hue::Green, Hue::White, Hue::Blue, Hue::Red];

    /// The colour's name.
    pub fn name(self) -> &'static str {
        match self {
            Hue::Black => "Black",
            Hue::Green => "Green",
            Hue::White => "White",
            Hue::Blue => "Blue",
            Hue::Red => "Red",
        }
    }

    /// One letter for a compact line (`K` is black, as printers write it).
    pub fn letter(self) -> char {
        match self {
            Hue::Black => 'K',
            Hue::Green => 'G',
            Hue::White => 'W',
            Hue::Blue => 'U',
            Hue::Red => 'R',
        }
    }
}

impl fmt::Display for Hue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rulebook's card abilities ("Card Abilities").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Keyword {
    /// When this card enters play, Clash cards you don't control get -X/-0
    /// until end of turn.
    AweFactor(#[cfg_attr(test, proptest(strategy = "1u8..=3"))] u8),
    /// When this card attacks, you may deal damage equal to its printed
    /// attack power divided among up to X target Clash cards.
    Barrage(#[cfg_attr(test, proptest(strategy = "1u8..=3"))] u8),
    /// An attacking card's attack above the opposing Clash cards' total
    /// defence is dealt to the opposing Contender.
    Breakthrough,
    /// This card can attack ready Clash cards.
    CloseCombat,
    /// Whenever this card is dealt non-clash damage, +X/+0 until end of
    /// turn for each point.
    Enrage(#[cfg_attr(test, proptest(strategy = "1u8..=3"))] u8),
    /// Only one copy of this card can be in your control.
    Exclusive,
    /// Only Clash cards with Flight or Interception can obstruct it.
    Flight,
    /// This card can obstruct Clash cards with Flight.
    Interception,
    /// This card can't be prevented from entering play.
    Irrefutable,
    /// A Clash card this card deals clash damage to goes to Oblivion after
    /// the Clash.
    Necrotic,
    /// This card can't attack the turn it enters play.
    Observant,
    /// This card can't be the target of card effects or abilities your
    /// opponents control.
    Safeguard,
    /// This card deals clash damage before cards without Superspeed.
    Superspeed,
    /// This Clash card can't be defeated during a Clash on your turn.
    Undisputed,
    /// Only one card with Unrivaled is allowed per deck list.
    Unrivaled,
}

impl Keyword {
    /// The keyword as printed ("Barrage 2").
    pub fn words(self) -> String {
        match self {
            Keyword::AweFactor(x) => format!("Awe Factor {x}"),
            Keyword::Barrage(x) => format!("Barrage {x}"),
            Keyword::Enrage(x) => format!("Enrage {x}"),
            Keyword::Breakthrough => "Breakthrough".into(),
            Keyword::CloseCombat => "Close Combat".into(),
            Keyword::Exclusive => "Exclusive".into(),
            Keyword::Flight => "Flight".into(),
            Keyword::Interception => "Interception".into(),
            Keyword::Irrefutable => "Irrefutable".into(),
            Keyword::Necrotic => "Necrotic".into(),
            Keyword::Observant => "Observant".into(),
            Keyword::Safeguard => "Safeguard".into(),
            Keyword::Superspeed => "Superspeed".into(),
            Keyword::Undisputed => "Undisputed".into(),
            Keyword::Unrivaled => "Unrivaled".into(),
        }
    }

    /// Whether two keywords are the same ability, whatever their X.
    pub fn same_kind(self, other: Keyword) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&other)
    }
}

/// When an ability works: a trigger tag of the rulebook, a Counter tag
/// (a response), an engage ability, the effect of an Action or a Trap,
/// or a continuous effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum When {
    /// **Trigger – Enter:** when this card enters play.
    Enter,
    /// **Trigger – Attack:** when this card attacks.
    Attack,
    /// **Trigger – Obstruct:** when this card obstructs.
    Obstruct,
    /// **Trigger – Defeat:** when this card is defeated.
    Defeat,
    /// **Trigger – Victory:** when this card defeats a Clash card in a
    /// clash and is not defeated.
    Victory,
    /// **Counter – Attack:** in response to an opponent attacking you.
    CounterAttack,
    /// **Counter – Play:** in response to an opponent playing a card.
    CounterPlay,
    /// **Counter – Trap:** in response to an opponent activating a Trap.
    CounterTrap,
    /// At the start of your turn.
    StartOfTurn,
    /// At the end of your turn.
    EndOfTurn,
    /// **Engage:** during your Primary Phase, engage this card (and pay
    /// the ability's cost) to put the effect in Standby.
    Engage,
    /// What an Action or a Trap does when it resolves.
    Resolve,
    /// Always, while the card is in play (a Weapon's, while attached).
    Always,
}

impl When {
    /// Whether this is one of the three Counter tags.
    pub fn is_counter(self) -> bool {
        matches!(
            self,
            When::CounterAttack | When::CounterPlay | When::CounterTrap
        )
    }

    /// The tag as printed.
    pub fn words(self) -> &'static str {
        match self {
            When::Enter => "Trigger - Enter",
            When::Attack => "Trigger - Attack",
            When::Obstruct => "Trigger - Obstruct",
            When::Defeat => "Trigger - Defeat",
            When::Victory => "Trigger - Victory",
            When::CounterAttack => "Counter - Attack",
            When::CounterPlay => "Counter - Play",
            When::CounterTrap => "Counter - Trap",
            When::StartOfTurn => "Start of Turn",
            When::EndOfTurn => "End of Turn",
            When::Engage => "Engage",
            When::Resolve => "",
            When::Always => "",
        }
    }
}

/// Who or what an effect works on. The `Chosen…` targets are chosen when
/// the card or effect is put into Standby (docs/clash-rules.md, CL-D26).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Target {
    /// The card itself.
    This,
    /// The Clash card this Weapon is attached to.
    Attached,
    /// Your Contender.
    YourContender,
    /// Each opposing Contender.
    OpposingContenders,
    /// A Contender or Clash card you control, chosen.
    ChosenYours,
    /// A Clash card you control, chosen.
    ChosenYourClash,
    /// An opposing Clash card, chosen.
    ChosenOpposingClash,
    /// An opposing Contender or Clash card, chosen.
    ChosenOpposing,
    /// Any Clash card in play, chosen.
    ChosenClash,
    /// Every Clash card you control.
    AllYourClash,
    /// Every Clash card you don't control.
    AllOpposingClash,
    /// Every Clash card in play.
    AllClash,
    /// The card or effect this one answers (a Counter's).
    Answered,
    /// The card attacking in this Clash.
    Attacker,
}

impl Target {
    /// Whether the target is chosen by the player.
    pub fn is_chosen(self) -> bool {
        matches!(
            self,
            Target::ChosenYours
                | Target::ChosenYourClash
                | Target::ChosenOpposingClash
                | Target::ChosenOpposing
                | Target::ChosenClash
        )
    }

    /// In words, as the card's text says it ("target Clash card you
    /// don't control").
    pub fn words(self) -> &'static str {
        match self {
            Target::This => "this card",
            Target::Attached => "the attached Clash card",
            Target::YourContender => "your Contender",
            Target::OpposingContenders => "each opposing Contender",
            Target::ChosenYours => "target Contender or Clash card you control",
            Target::ChosenYourClash => "target Clash card you control",
            Target::ChosenOpposingClash => "target Clash card you don't control",
            Target::ChosenOpposing => "target opposing Contender or Clash card",
            Target::ChosenClash => "target Clash card",
            Target::AllYourClash => "each Clash card you control",
            Target::AllOpposingClash => "each Clash card you don't control",
            Target::AllClash => "each Clash card",
            Target::Answered => "the card or effect this answers",
            Target::Attacker => "the attacking card",
        }
    }
}

/// What an ability does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Effect {
    /// Non-clash damage.
    Damage(#[cfg_attr(test, proptest(strategy = "1u8..=5"))] u8, Target),
    /// +attack/+defence: until end of turn, or while it lasts for an
    /// `Always` ability.
    Stats(
        #[cfg_attr(test, proptest(strategy = "-3i8..=3"))] i8,
        #[cfg_attr(test, proptest(strategy = "-3i8..=3"))] i8,
        Target,
    ),
    /// A keyword, for as long as [`Effect::Stats`] would last.
    Grant(Keyword, Target),
    /// Your Contender gains health (never above its printed health).
    Heal(#[cfg_attr(test, proptest(strategy = "1u8..=5"))] u8),
    /// You draw cards.
    Draw(#[cfg_attr(test, proptest(strategy = "1u8..=3"))] u8),
    /// Each opponent discards cards at random.
    OpponentDiscards(#[cfg_attr(test, proptest(strategy = "1u8..=2"))] u8),
    /// Send to Oblivion (not a defeat).
    Oblivion(Target),
    /// Return to its owner's hand.
    Bounce(Target),
    /// Engage.
    Engage(Target),
    /// Ready.
    Ready(Target),
    /// Prevent the next X clash damage to the target this turn.
    Prevent(#[cfg_attr(test, proptest(strategy = "1u8..=4"))] u8, Target),
    /// The card or effect answered does not resolve: a card goes to its
    /// owner's Oblivion from Standby (never an Irrefutable one).
    Negate,
}

impl Effect {
    /// The target the effect works on, if any.
    pub fn target(self) -> Option<Target> {
        match self {
            Effect::Damage(_, t)
            | Effect::Stats(_, _, t)
            | Effect::Grant(_, t)
            | Effect::Oblivion(t)
            | Effect::Bounce(t)
            | Effect::Engage(t)
            | Effect::Ready(t)
            | Effect::Prevent(_, t) => Some(t),
            Effect::Negate => Some(Target::Answered),
            Effect::Heal(_) | Effect::Draw(_) | Effect::OpponentDiscards(_) => None,
        }
    }

    /// The effect in words.
    pub fn words(self, lasting: bool) -> String {
        self.words_naming(lasting, false)
    }

    /// The effect in words, its target named "that card" when `again` (a
    /// chosen target an earlier effect of the ability named).
    pub fn words_naming(self, lasting: bool, again: bool) -> String {
        let until = if lasting { "" } else { " until end of turn" };
        let tw = |t: Target| if again { "that card" } else { t.words() };
        match self {
            Effect::Damage(n, t) => format!("Deal {n} damage to {}.", tw(t)),
            Effect::Stats(a, d, t) => {
                let gets = if matches!(
                    t,
                    Target::AllClash
                        | Target::AllOpposingClash
                        | Target::AllYourClash
                        | Target::OpposingContenders
                ) {
                    "get"
                } else {
                    "gets"
                };
                format!("{} {gets} {a:+}/{d:+}{until}.", capital(tw(t)))
            }
            Effect::Grant(k, t) => format!(
                "{} {} {}{until}.",
                capital(tw(t)),
                if matches!(
                    t,
                    Target::AllClash | Target::AllOpposingClash | Target::AllYourClash
                ) {
                    "gain"
                } else {
                    "gains"
                },
                k.words()
            ),
            Effect::Heal(n) => format!("Your Contender gains {n} health."),
            Effect::Draw(1) => "Draw one card.".into(),
            Effect::Draw(n) => format!("Draw {n} cards."),
            Effect::OpponentDiscards(1) => "Each opponent discards a card at random.".into(),
            Effect::OpponentDiscards(n) => format!("Each opponent discards {n} cards at random."),
            Effect::Oblivion(t) => format!("Send {} to Oblivion.", tw(t)),
            Effect::Bounce(t) => format!("Return {} to its owner's hand.", tw(t)),
            Effect::Engage(t) => format!("Engage {}.", tw(t)),
            Effect::Ready(t) => format!("Ready {}.", tw(t)),
            Effect::Prevent(n, t) => {
                format!(
                    "Prevent the next {n} clash damage that would be dealt to {} this turn.",
                    tw(t)
                )
            }
            Effect::Negate => "It does not resolve: send it to its owner's Oblivion.".into(),
        }
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// One ability of a card: when it works, what it costs, and what it does,
/// in order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Ability {
    /// When it works.
    pub when: When,
    /// A Contender's threshold: the ability is active only while that
    /// Contender's health is at most this ("at thirty or less health").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<u8>,
    /// The resources an `Engage` ability or a Counter ability of a card in
    /// play costs (any colour).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cost: u8,
    /// Whether a Counter ability of a card in play sends the card itself to
    /// Oblivion as its cost ("You may send this card to Oblivion. If you
    /// do, …").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sacrifice: bool,
    /// What it does, in order.
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Effect>(), 1..3)"
        )
    )]
    pub effects: Vec<Effect>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl Ability {
    /// The ability as the card prints it.
    pub fn words(&self) -> String {
        let lasting = self.when == When::Always;
        let mut out = String::new();
        if let Some(n) = self.at_most {
            out.push_str(&format!("At {n} or less health: "));
        }
        let tag = self.when.words();
        if !tag.is_empty() {
            out.push_str(tag);
            if self.cost > 0 {
                out.push_str(&format!(" (pay {})", self.cost));
            }
            out.push_str(": ");
        }
        if self.sacrifice {
            out.push_str("You may send this card to Oblivion. If you do, ");
        }
        // A chosen target named again is the same card, chosen once
        // (`chosen_targets`): "That card gains Necrotic", not a second
        // "Target …".
        let mut named: Vec<Target> = Vec::new();
        let said: Vec<String> = self
            .effects
            .iter()
            .map(|e| {
                let chosen = e.target().filter(|t| t.is_chosen());
                let again = chosen.is_some_and(|t| named.contains(&t));
                if let Some(t) = chosen.filter(|_| !again) {
                    named.push(t);
                }
                e.words_naming(lasting, again)
            })
            .collect();
        let body = said.join(" ");
        if self.sacrifice {
            let mut c = body.chars();
            if let Some(f) = c.next() {
                out.extend(f.to_lowercase());
                out.push_str(c.as_str());
            }
        } else {
            out.push_str(&body);
        }
        out
    }

    /// The chosen targets the ability asks for, in order of its effects:
    /// one of each kind ("Target Clash card you control gets +3/+0 and
    /// gains Breakthrough" is one target).
    pub fn chosen_targets(&self) -> Vec<Target> {
        let mut out: Vec<Target> = Vec::new();
        for t in self.effects.iter().filter_map(|e| e.target()) {
            if t.is_chosen() && !out.contains(&t) {
                out.push(t);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An ability with no cost and no limit.
    fn ability(when: When, effects: Vec<Effect>) -> Ability {
        Ability {
            when,
            at_most: None,
            cost: 0,
            sacrifice: false,
            effects,
        }
    }

    #[test]
    fn a_chosen_target_named_twice_reads_as_one_card() {
        let a = ability(
            When::Resolve,
            vec![
                Effect::Stats(2, 0, Target::ChosenYours),
                Effect::Grant(Keyword::Necrotic, Target::ChosenYours),
                Effect::Damage(1, Target::ChosenOpposingClash),
            ],
        );
        assert_eq!(a.chosen_targets().len(), 2);
        assert!(
            a.words().ends_with(
                "Target Contender or Clash card you control gets +2/+0 until end of turn. That card gains Necrotic until end of turn. Deal 1 damage to target Clash card you don't control."
            ),
            "{}",
            a.words()
        );
    }

    #[test]
    fn abilities_read_as_cards_print_them() {
        let a = ability(
            When::CounterAttack,
            vec![Effect::Prevent(2, Target::ChosenYourClash), Effect::Heal(2)],
        );
        assert_eq!(
            a.words(),
            "Counter - Attack: Prevent the next 2 clash damage that would be dealt to target Clash card you control this turn. Your Contender gains 2 health."
        );
        let w = ability(
            When::Always,
            vec![
                Effect::Stats(2, 2, Target::Attached),
                Effect::Grant(Keyword::Flight, Target::Attached),
            ],
        );
        assert_eq!(
            w.words(),
            "The attached Clash card gets +2/+2. The attached Clash card gains Flight."
        );
        let t = Ability {
            when: When::CounterPlay,
            at_most: Some(10),
            cost: 0,
            sacrifice: true,
            effects: vec![Effect::Bounce(Target::Answered)],
        };
        assert_eq!(
            t.words(),
            "At 10 or less health: Counter - Play: You may send this card to Oblivion. If you do, return the card or effect this answers to its owner's hand."
        );
        assert_eq!(Keyword::Barrage(2).words(), "Barrage 2");
        assert!(Keyword::Barrage(1).same_kind(Keyword::Barrage(3)));
    }
}
