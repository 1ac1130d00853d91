//! The Digimon Card Game's effects (Bandai, 2020 onward): the same reading
//! order as the rest of [`crate::effects`] — `{Timing} {Per turn}
//! {Trigger condition}, {Activation condition}, {Optional} {Effect}`, as the
//! effect-reading page (`dcg-reading-effects.txt`) reads them — with this
//! game's own timings, keywords and effects.
//!
//! Card files write each effect as the sentence a card prints;
//! [`parse`] reads exactly the sentences [`render`] writes, so a card file
//! and the engine's data never drift apart. `docs/dcg-cards.md` lists every
//! sentence the grammar knows.
//!
//! `[On Play] (Once Per Turn) When …, if …, you may delete 1 of your
//! opponent's Digimon with 4000 DP or less. Then, <Draw 1>.`

mod text;

use std::fmt;

use serde::{Deserialize, Serialize};

pub(crate) use text::target_words;
pub use text::{ParseError, parse, render};

#[cfg(test)]
use proptest_derive::Arbitrary;

/// A card's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Color {
    /// Red.
    Red,
    /// Blue.
    Blue,
    /// Yellow.
    Yellow,
    /// Green.
    Green,
    /// Black.
    Black,
    /// Purple.
    Purple,
    /// White.
    White,
}

impl Color {
    /// Every colour.
    pub const ALL: [Color; 7] = [
        Color::Red,
        Color::Blue,
        Color::Yellow,
        Color::Green,
        Color::Black,
        Color::Purple,
        Color::White,
    ];

    /// The colour as effect text writes it ("red").
    pub fn word(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Blue => "blue",
            Color::Yellow => "yellow",
            Color::Green => "green",
            Color::Black => "black",
            Color::Purple => "purple",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "Red",
            Color::Blue => "Blue",
            Color::Yellow => "Yellow",
            Color::Green => "Green",
            Color::Black => "Black",
            Color::Purple => "Purple",
            Color::White => "White",
        })
    }
}

/// One effect of a card: its timing, limit, conditions and what it does.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Ability {
    /// When it activates (or, for a continuous effect, while it applies).
    pub timing: Timing,
    /// "(Once Per Turn)".
    pub once_per_turn: bool,
    /// "When X" (after X) or "When X would" (interrupting X).
    pub trigger: Option<Trigger>,
    /// "if …" (a triggered effect) or "While …" (a continuous one): the
    /// state that must hold, all of them.
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Condition>(), 0..3)"
        )
    )]
    pub conditions: Vec<Condition>,
    /// "you may": its player chooses whether it resolves.
    pub optional: bool,
    /// What it does, in order ("…. Then, …").
    #[cfg_attr(
        test,
        proptest(
            strategy = "proptest::collection::vec(proptest::arbitrary::any::<Effect>(), 1..3)"
        )
    )]
    pub effects: Vec<Effect>,
}

impl Ability {
    /// A keyword the card has by itself (`<Blocker>` alone, no timing).
    pub fn keyword(&self) -> Option<Keyword> {
        match (self.timing, self.trigger, self.effects.as_slice()) {
            (Timing::Always, None, [Effect::Keyword(k)]) if self.conditions.is_empty() => Some(*k),
            _ => None,
        }
    }

    /// Whether it applies continuously (a turn timing with no trigger)
    /// rather than waiting to resolve.
    pub fn is_continuous(&self) -> bool {
        self.timing.is_turns() && self.trigger.is_none()
    }

    /// An interruptive effect ("when … would …").
    pub fn is_interruptive(&self) -> bool {
        matches!(self.trigger, Some(Trigger::WhenWould(_)))
    }
}

/// When an effect activates, or while it applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Timing {
    /// No bracket: a keyword the card simply has (`<Blocker>`).
    Always,
    /// `[On Play]`: when the card is played (not when digivolved into).
    OnPlay,
    /// `[When Digivolving]`: when a Digimon digivolves into this card.
    WhenDigivolving,
    /// `[When Attacking]`: when this Digimon attacks.
    WhenAttacking,
    /// `[End of Attack]`: when an attack by this Digimon ends.
    EndOfAttack,
    /// `[On Deletion]`: when this Digimon is deleted.
    OnDeletion,
    /// `[Security]`: when this card is revealed by a security check.
    Security,
    /// `[Main]`: an Option's effect as it is used.
    Main,
    /// `[Main] <Delay>`: the Option stays in the battle area; from the next
    /// turn its player may trash it in the main phase for this effect.
    MainDelay,
    /// `[Your Turn]`: continuous in its player's turn, or triggered by the
    /// "When …" after it.
    YourTurn,
    /// `[Opponent's Turn]`: the same in the opponent's turn.
    OpponentsTurn,
    /// `[All Turns]`: the same in every turn.
    AllTurns,
    /// `[Start of Your Turn]`.
    StartOfYourTurn,
    /// `[End of Your Turn]`.
    EndOfYourTurn,
    /// `[End of Opponent's Turn]` (at 3 and 4 seats: before the start of
    /// its player's next turn, DCG-LAN-28).
    EndOfOpponentsTurn,
}

impl Timing {
    /// Every timing with its bracket (`[Main] <Delay>` before `[Main]`).
    pub const WORDS: [(&'static str, Timing); 14] = [
        ("[On Play]", Timing::OnPlay),
        ("[When Digivolving]", Timing::WhenDigivolving),
        ("[When Attacking]", Timing::WhenAttacking),
        ("[End of Attack]", Timing::EndOfAttack),
        ("[On Deletion]", Timing::OnDeletion),
        ("[Security]", Timing::Security),
        ("[Main] <Delay>", Timing::MainDelay),
        ("[Main]", Timing::Main),
        ("[Your Turn]", Timing::YourTurn),
        ("[Opponent's Turn]", Timing::OpponentsTurn),
        ("[All Turns]", Timing::AllTurns),
        ("[Start of Your Turn]", Timing::StartOfYourTurn),
        ("[End of Your Turn]", Timing::EndOfYourTurn),
        ("[End of Opponent's Turn]", Timing::EndOfOpponentsTurn),
    ];

    /// Whether the timing names turns (continuous without a trigger).
    pub fn is_turns(self) -> bool {
        matches!(
            self,
            Timing::Always | Timing::YourTurn | Timing::OpponentsTurn | Timing::AllTurns
        )
    }

    /// The bracket as printed ("" for a plain keyword).
    pub fn words(self) -> &'static str {
        Timing::WORDS
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("", |(w, _)| w)
    }
}

/// A trigger condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Trigger {
    /// "When X": after X has happened.
    When(Happening),
    /// "When X would": before X, which it may prevent.
    WhenWould(Happening),
}

/// Something that happens and may trigger an effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Happening {
    /// An opponent's Digimon attacks.
    OpponentAttacks,
    /// A card leaves your security stack.
    SecurityRemoved,
    /// This Digimon is (would be) deleted.
    ThisDeleted,
    /// One of your other Digimon is (would be) deleted.
    OtherOfYoursDeleted,
    /// An opponent's Digimon is played.
    OpponentPlays,
    /// This Digimon blocks.
    ThisBlocks,
}

impl Happening {
    /// (what happened, what would happen).
    pub const WORDS: [(&'static str, &'static str, Happening); 6] = [
        (
            "an opponent's Digimon attacks",
            "an opponent's Digimon would attack",
            Happening::OpponentAttacks,
        ),
        (
            "a card is removed from your security stack",
            "a card would be removed from your security stack",
            Happening::SecurityRemoved,
        ),
        (
            "this Digimon is deleted",
            "this Digimon would be deleted",
            Happening::ThisDeleted,
        ),
        (
            "one of your other Digimon is deleted",
            "one of your other Digimon would be deleted",
            Happening::OtherOfYoursDeleted,
        ),
        (
            "an opponent's Digimon is played",
            "an opponent's Digimon would be played",
            Happening::OpponentPlays,
        ),
        (
            "this Digimon blocks",
            "this Digimon would block",
            Happening::ThisBlocks,
        ),
    ];
}

/// An activation condition, checked against the game as it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Condition {
    /// You have a Tamer in play.
    YouHaveTamer,
    /// This Digimon is suspended.
    ThisSuspended,
    /// This Digimon has N or more digivolution cards.
    StackAtLeast(#[cfg_attr(test, proptest(strategy = "1u8..=9"))] u8),
    /// A card with this text in its name is among this Digimon's digivolution cards.
    StackHas(#[cfg_attr(test, proptest(regex = "[A-Z][a-z]{1,8}"))] String),
    /// You have N or fewer security cards.
    SecurityAtMost(#[cfg_attr(test, proptest(strategy = "0u8..=9"))] u8),
    /// Your opponent has N or fewer security cards.
    OpponentSecurityAtMost(#[cfg_attr(test, proptest(strategy = "0u8..=9"))] u8),
    /// Your opponent has a Digimon with no digivolution cards.
    OpponentHasBareDigimon,
    /// You have N or more cards in your hand.
    HandAtLeast(#[cfg_attr(test, proptest(strategy = "1u8..=9"))] u8),
}

/// A keyword effect a Digimon has (`<Blocker>`) or gains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Keyword {
    /// `<Blocker>`: may suspend to become the target of an opponent's attack.
    Blocker,
    /// `<Security Attack +N>` / `-N`: checks N more (fewer) security cards.
    SecurityAttack(#[cfg_attr(test, proptest(strategy = "-3i8..=3"))] i8),
    /// `<Piercing>`: after it deletes the Digimon it attacked in battle, it
    /// checks security before the attack ends.
    Piercing,
    /// `<Jamming>`: cannot be deleted in battle with a security Digimon.
    Jamming,
    /// `<Reboot>`: unsuspends in the opponent's unsuspend phase too.
    Reboot,
    /// `<Retaliation>`: deleted in battle, it deletes the Digimon it battled.
    Retaliation,
    /// `<Rush>`: may attack the turn it was played.
    Rush,
    /// `<Blitz>`: may attack while the opponent has 1 or more memory
    /// (only as its [On Play] / [When Digivolving] effect resolves).
    Blitz,
    /// `<Decoy (colour)>`: when one of your other Digimon of the colour would
    /// be deleted by an opponent's effect, you may delete this one instead.
    Decoy(Color),
    /// `<Armor Purge>`: when it would be deleted, you may trash its top card
    /// to prevent that deletion.
    ArmorPurge,
    /// `<Alliance>`: when it attacks, you may suspend 1 of your other
    /// Digimon to add that one's DP and <Security Attack +1> for the attack.
    Alliance,
    /// `<Evade>`: when it would be deleted, you may suspend it to prevent
    /// that deletion.
    Evade,
    /// `<Raid>`: when it attacks, you may switch the target to your
    /// opponent's unsuspended Digimon with the highest DP.
    Raid,
}

impl Keyword {
    /// The keyword as printed, in angle brackets.
    pub fn words(self) -> String {
        match self {
            Keyword::Blocker => "<Blocker>".into(),
            Keyword::SecurityAttack(n) if n >= 0 => format!("<Security Attack +{n}>"),
            Keyword::SecurityAttack(n) => format!("<Security Attack -{}>", n.unsigned_abs()),
            Keyword::Piercing => "<Piercing>".into(),
            Keyword::Jamming => "<Jamming>".into(),
            Keyword::Reboot => "<Reboot>".into(),
            Keyword::Retaliation => "<Retaliation>".into(),
            Keyword::Rush => "<Rush>".into(),
            Keyword::Blitz => "<Blitz>".into(),
            Keyword::Decoy(c) => format!("<Decoy ({c})>"),
            Keyword::ArmorPurge => "<Armor Purge>".into(),
            Keyword::Alliance => "<Alliance>".into(),
            Keyword::Evade => "<Evade>".into(),
            Keyword::Raid => "<Raid>".into(),
        }
    }

    /// The keyword's reminder text: what it does, in a line.
    pub fn reminder(self) -> &'static str {
        match self {
            Keyword::Blocker => {
                "when an opponent's Digimon attacks, you may suspend this Digimon to make it the attack's target"
            }
            Keyword::SecurityAttack(_) => {
                "this Digimon checks that many more (or fewer) security cards"
            }
            Keyword::Piercing => {
                "when this Digimon deletes the Digimon it attacked in battle, it checks security before the attack ends"
            }
            Keyword::Jamming => "this Digimon cannot be deleted in battle with a security Digimon",
            Keyword::Reboot => "this Digimon unsuspends in your opponent's unsuspend phase",
            Keyword::Retaliation => {
                "when this Digimon is deleted in battle, delete the Digimon it battled"
            }
            Keyword::Rush => "this Digimon can attack the turn it comes into play",
            Keyword::Blitz => "this Digimon can attack while your opponent has 1 or more memory",
            Keyword::Decoy(_) => {
                "when one of your other Digimon of the colour would be deleted by an opponent's effect, you may delete this Digimon instead"
            }
            Keyword::ArmorPurge => {
                "when this Digimon would be deleted, you may trash its top card to prevent that deletion"
            }
            Keyword::Alliance => {
                "when this Digimon attacks, you may suspend 1 of your other Digimon to add its DP and <Security Attack +1> for the attack"
            }
            Keyword::Evade => {
                "when this Digimon would be deleted, you may suspend it to prevent that deletion"
            }
            Keyword::Raid => {
                "when this Digimon attacks, you may switch the target to your opponent's unsuspended Digimon with the highest DP"
            }
        }
    }
}

/// Whose cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Whose {
    /// The effect's player.
    You,
    /// Their opponent.
    Opponent,
}

/// How many targets: "1 of", "up to 2 of", "all of".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Count {
    /// "N of": as many as possible up to N.
    Exactly(#[cfg_attr(test, proptest(strategy = "1u8..=4"))] u8),
    /// "up to N of": 1 to N (at least 1 where any can be chosen).
    UpTo(#[cfg_attr(test, proptest(strategy = "1u8..=4"))] u8),
    /// "all of".
    All,
}

/// A restriction on which Digimon may be chosen.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Filter {
    /// "suspended".
    Suspended,
    /// "unsuspended".
    Unsuspended,
    /// "level N".
    Level(#[cfg_attr(test, proptest(strategy = "3u8..=7"))] u8),
    /// A colour ("red").
    Color(Color),
    /// "with N000 DP or less" (N in thousands).
    DpAtMost(#[cfg_attr(test, proptest(strategy = "1u32..=20"))] u32),
    /// "with N000 DP or more" (N in thousands).
    DpAtLeast(#[cfg_attr(test, proptest(strategy = "1u32..=20"))] u32),
    /// "with a play cost of N or less".
    CostAtMost(#[cfg_attr(test, proptest(strategy = "0u8..=9"))] u8),
    /// "with no digivolution cards".
    Bare,
}

/// The Digimon an effect acts on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Target {
    /// "this Digimon".
    This,
    /// "N of your (other) / your opponent's … Digimon …".
    Choose {
        /// Whose Digimon.
        side: Whose,
        /// How many.
        count: Count,
        /// "other": not the Digimon with the effect.
        other: bool,
        /// Only Digimon that match all of these.
        #[cfg_attr(
            test,
            proptest(
                strategy = "proptest::collection::vec(proptest::arbitrary::any::<Filter>(), 0..3)"
            )
        )]
        filters: Vec<Filter>,
    },
}

/// What an effect does.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Effect {
    /// The card has this keyword.
    Keyword(Keyword),
    /// `<Draw N>`: its player draws N.
    Draw(#[cfg_attr(test, proptest(strategy = "1u8..=4"))] u8),
    /// `<Recovery +N (Deck)>`: the top N of its player's deck go on top of
    /// their security stack.
    Recovery(#[cfg_attr(test, proptest(strategy = "1u8..=3"))] u8),
    /// `<De-Digivolve N>`: trash up to N cards from the top of the target
    /// (never past a level 3 card, never its last card).
    DeDigivolve(Target, #[cfg_attr(test, proptest(strategy = "1u8..=3"))] u8),
    /// Gain N memory.
    GainMemory(#[cfg_attr(test, proptest(strategy = "1u8..=4"))] u8),
    /// The opponent loses N memory ("reduce your opponent's memory by N").
    ReduceOpponentMemory(#[cfg_attr(test, proptest(strategy = "1u8..=4"))] u8),
    /// Delete the target.
    Delete(Target),
    /// Suspend the target.
    Suspend(Target),
    /// Unsuspend the target.
    Unsuspend(Target),
    /// Return the target (and its digivolution cards) to its owner's hand.
    ReturnToHand(Target),
    /// Place the target (and its stack) at the bottom of its owner's deck.
    ToDeckBottom(Target),
    /// The target gets ±N000 DP (while a continuous effect applies; for
    /// the turn when a triggered effect gives it).
    Dp(
        Target,
        #[cfg_attr(
            test,
            proptest(strategy = "proptest::prop_oneof![-9i32..=-1, 1i32..=9]")
        )]
        i32,
    ),
    /// The target gains a keyword for the turn.
    Gains(Target, Keyword),
    /// Trash the top N cards of the opponent's security stack.
    TrashSecurity(#[cfg_attr(test, proptest(strategy = "1u8..=3"))] u8),
    /// A security card's own [Main] effect, as if used.
    ActivateMain,
    /// A security card goes to its owner's hand instead of the trash.
    AddToHand,
    /// A security Tamer is played for free.
    PlayThis,
    /// "<target> can't attack" / "can't block": forbidden while a
    /// continuous effect applies, for the turn when a triggered effect
    /// says it. A prohibition wins over a permission such as <Rush>
    /// (DCG-EFF-4).
    Forbid(Target, Deed),
}

/// What an effect may forbid a Digimon ([`Effect::Forbid`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub enum Deed {
    /// "can't attack".
    Attack,
    /// "can't block".
    Block,
}

impl Deed {
    /// The verb as a card writes it.
    pub fn words(self) -> &'static str {
        match self {
            Deed::Attack => "attack",
            Deed::Block => "block",
        }
    }
}
