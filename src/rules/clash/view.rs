//! What one seat (or a spectator) may know of an Alpha Clash match: every
//! public zone, its own hand, the colours of every Resource (CL-D29), the
//! counts of the hidden zones, and face-down Traps as face-down cards
//! (their owner sees them). Never a hidden card of another seat.

use serde::{Deserialize, Serialize};

use super::{Action, Cid, ClashStep, Match, Named, Phase, What};
use crate::cards::CardSet;
use crate::effects::clash::{Hue, Keyword};
use crate::rules::{Outcome, Seat};

/// A Contender or Clash card as a seat sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitView {
    /// The card.
    pub card: Named,
    /// Attack power now.
    pub attack: i16,
    /// Defence power now.
    pub defense: i16,
    /// Engaged.
    pub engaged: bool,
    /// Entered play this turn.
    pub new: bool,
    /// Defeated, its Defeat effects waiting.
    pub defeated: bool,
    /// Its keywords now.
    pub keywords: Vec<Keyword>,
    /// The Weapon attached.
    pub weapon: Option<Named>,
}

/// A card of the Accessory Zone as a seat sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccessoryView {
    /// The card; `None` for another seat's face-down Trap.
    pub card: Option<Named>,
    /// Set face down.
    pub face_down: bool,
    /// Engaged.
    pub engaged: bool,
    /// Attached to this card.
    pub on: Option<Cid>,
}

/// One seat's zones as a seat sees them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// The seat.
    pub seat: Seat,
    /// The Contender.
    pub contender: UnitView,
    /// Its health.
    pub health: i16,
    /// Its printed health.
    pub max_health: i16,
    /// The hand, when it is the viewer's own.
    pub hand: Option<Vec<Named>>,
    /// Cards in hand.
    pub hand_count: usize,
    /// Cards in the deck.
    pub deck_count: usize,
    /// Oblivion, public (CL-ZONE-7).
    pub oblivion: Vec<Named>,
    /// Each Resource's colours and whether it is engaged.
    pub resources: Vec<(Vec<Hue>, bool)>,
    /// The Clash Zone.
    pub clash: Vec<UnitView>,
    /// The Accessory Zone.
    pub accessories: Vec<AccessoryView>,
    /// The Clashground.
    pub clashground: Option<Named>,
    /// The Portal is open.
    pub portal: bool,
    /// Out of the game.
    pub lost: bool,
}

/// A card or effect in Standby.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandbyView {
    /// Whose.
    pub seat: Seat,
    /// The card it comes from.
    pub card: Named,
    /// What it is.
    pub what: What,
    /// Its targets.
    pub targets: Vec<Named>,
    /// It will not resolve.
    pub negated: bool,
}

/// What a seat (or a spectator, `me: None`) may know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The viewer.
    pub me: Option<Seat>,
    /// Every seat.
    pub seats: Vec<SeatView>,
    /// The turn.
    pub turn: u32,
    /// Whose turn.
    pub active: Seat,
    /// The phase.
    pub phase: Phase,
    /// The Clash: attacker, target, obstructors, step.
    pub fight: Option<(Seat, Cid, Cid, Vec<Cid>, ClashStep)>,
    /// Standby, the next to resolve last.
    pub standby: Vec<StandbyView>,
    /// Who is asked, and what.
    pub waiting: Option<(Seat, super::Ask)>,
    /// The viewer's legal actions when it is asked.
    pub actions: Vec<Action>,
    /// The result.
    pub outcome: Option<Outcome>,
}

impl Match {
    fn unit_view(&self, c: Cid) -> Option<UnitView> {
        let u = self.unit(c)?;
        let keywords = [
            Keyword::Flight,
            Keyword::Interception,
            Keyword::Breakthrough,
            Keyword::CloseCombat,
            Keyword::Necrotic,
            Keyword::Observant,
            Keyword::Safeguard,
            Keyword::Superspeed,
            Keyword::Undisputed,
            Keyword::Irrefutable,
            Keyword::Exclusive,
            Keyword::Unrivaled,
        ]
        .into_iter()
        .filter(|k| self.has_keyword(c, *k))
        .chain(self.info(c).keywords.iter().copied().filter(|k| {
            matches!(
                k,
                Keyword::AweFactor(_) | Keyword::Barrage(_) | Keyword::Enrage(_)
            )
        }))
        .collect();
        Some(UnitView {
            card: self.named(c),
            attack: self.attack_of(c),
            defense: self.defense_of(c),
            engaged: u.engaged,
            new: u.entered == self.turn && self.turn > 0,
            defeated: u.defeated,
            keywords,
            weapon: super::flow::weapon_on(self, c).map(|w| self.named(w)),
        })
    }

    /// What `seat` (`None`: a spectator) may know now.
    pub fn view(&self, seat: Option<Seat>) -> View {
        let seats = Seat::all(self.sides.len())
            .map(|s| {
                let z = self.side(s);
                let mine = seat == Some(s);
                SeatView {
                    seat: s,
                    contender: self.unit_view(z.contender.card).unwrap_or(UnitView {
                        card: self.named(z.contender.card),
                        attack: 0,
                        defense: 0,
                        engaged: z.contender.engaged,
                        new: false,
                        defeated: false,
                        keywords: Vec::new(),
                        weapon: None,
                    }),
                    health: z.health,
                    max_health: self.info(z.contender.card).health,
                    hand: mine.then(|| z.hand.iter().map(|&c| self.named(c)).collect()),
                    hand_count: z.hand.len() + z.returning.len(),
                    deck_count: z.deck.len(),
                    oblivion: z.oblivion.iter().map(|&c| self.named(c)).collect(),
                    resources: z
                        .resources
                        .iter()
                        .map(|r| (self.info(r.0).colors.clone(), r.1))
                        .collect(),
                    clash: z
                        .clash
                        .iter()
                        .filter_map(|u| self.unit_view(u.card))
                        .collect(),
                    accessories: z
                        .accessories
                        .iter()
                        .map(|a| AccessoryView {
                            card: (a.set_on.is_none() || mine).then(|| self.named(a.card)),
                            face_down: a.set_on.is_some(),
                            engaged: a.engaged,
                            on: a.on,
                        })
                        .collect(),
                    clashground: z.clashground.map(|c| self.named(c)),
                    portal: z.portal,
                    lost: z.lost,
                }
            })
            .collect();
        let waiting = self.waiting();
        View {
            me: seat,
            seats,
            turn: self.turn,
            active: self.active,
            phase: self.phase,
            fight: self
                .fight
                .as_ref()
                .map(|f| (f.seat, f.attacker, f.target, f.obstructors.clone(), f.step)),
            // A card declared whose targets are being chosen is shown in
            // Standby already.
            standby: self
                .standby
                .iter()
                .chain(
                    self.choosing
                        .as_ref()
                        .map(|c| &c.entry)
                        .filter(|e| matches!(e.what, What::Play | What::Trap)),
                )
                .map(|e| StandbyView {
                    seat: e.seat,
                    card: self.named(e.source),
                    what: e.what,
                    targets: e.targets.iter().map(|&c| self.named(c)).collect(),
                    negated: e.negated,
                })
                .collect(),
            actions: match (seat, waiting) {
                (Some(me), Some((s, _))) if s == me => self.legal_actions(me),
                _ => Vec::new(),
            },
            waiting,
            outcome: self.outcome,
        }
    }
}

impl View {
    /// Whether the view holds together (a client refuses one that does
    /// not, rather than index into it).
    pub fn well_formed(&self) -> Result<(), String> {
        let n = self.seats.len();
        if !(2..=4).contains(&n) {
            return Err(format!("an Alpha Clash view has 2 to 4 seats, not {n}"));
        }
        for (i, s) in self.seats.iter().enumerate() {
            if s.seat.index() != i {
                return Err("the seats are out of order".into());
            }
        }
        if self.me.is_some_and(|m| m.index() >= n) || self.active.index() >= n {
            return Err("a seat beyond the table".into());
        }
        if self.waiting.is_some_and(|(s, _)| s.index() >= n) {
            return Err("a seat beyond the table is asked".into());
        }
        Ok(())
    }

    /// The board in lines, for a player at a terminal.
    pub fn lines(&self, cards: &CardSet) -> Vec<String> {
        let name = |n: &Named| {
            cards
                .get(&n.number)
                .map_or_else(|| n.number.to_string(), |c| c.name().to_string())
        };
        let unit = |u: &UnitView| {
            let mut s = format!("{} {}/{}", name(&u.card), u.attack, u.defense);
            if u.engaged {
                s.push_str(" (engaged)");
            }
            if u.defeated {
                s.push_str(" (defeated)");
            }
            if !u.keywords.is_empty() {
                s.push_str(&format!(
                    " [{}]",
                    u.keywords
                        .iter()
                        .map(|k| k.words())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if let Some(w) = &u.weapon {
                s.push_str(&format!(" + {}", name(w)));
            }
            s
        };
        let mut out = vec![if self.phase == Phase::Mulligan {
            "Opening hands".to_string()
        } else {
            format!(
                "Turn {} — {}'s turn{}",
                self.turn,
                self.active,
                match self.phase {
                    Phase::Mulligan => String::new(),
                    Phase::Resource => " — Resource Step".into(),
                    // Declaring an attack starts the Clash Phase (CL-TURN-8).
                    Phase::Primary => match &self.fight {
                        Some(f) => format!(" — Clash Phase, {}", f.4.words()),
                        None => " — Primary Phase".into(),
                    },
                    Phase::Start => " — Start of Turn".into(),
                    Phase::End => " — End of Turn".into(),
                    Phase::Over => " — game over".into(),
                }
            )
        }];
        for s in &self.seats {
            let you = if self.me == Some(s.seat) {
                " (you)"
            } else {
                ""
            };
            let lost = if s.lost { " — out" } else { "" };
            out.push(format!(
                "{}{you}{lost}: {} — health {}/{} — hand {} — deck {} — Oblivion {}{}",
                s.seat,
                unit(&s.contender),
                s.health,
                s.max_health,
                s.hand_count,
                s.deck_count,
                s.oblivion.len(),
                if s.portal { " — Portal open" } else { "" }
            ));
            let mut by: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
            for (hues, engaged) in &s.resources {
                let k = hues.iter().map(|h| h.name()).collect::<Vec<_>>().join("/");
                let e = by.entry(k).or_default();
                e.0 += 1;
                if !engaged {
                    e.1 += 1;
                }
            }
            let res: Vec<String> = by
                .iter()
                .map(|(k, (n, ready))| format!("{k} {ready}/{n} ready"))
                .collect();
            out.push(format!(
                "    Resources: {}",
                if res.is_empty() {
                    "none".into()
                } else {
                    res.join(", ")
                }
            ));
            if let Some(g) = &s.clashground {
                out.push(format!("    Clashground: {}", name(g)));
            }
            if !s.clash.is_empty() {
                out.push(format!(
                    "    Clash Zone: {}",
                    s.clash.iter().map(unit).collect::<Vec<_>>().join(" · ")
                ));
            }
            if !s.accessories.is_empty() {
                let acc: Vec<String> = s
                    .accessories
                    .iter()
                    .map(|a| match (&a.card, a.face_down) {
                        (Some(c), true) => format!("{} (set)", name(c)),
                        (None, _) => "a face-down Trap".into(),
                        (Some(c), false) => {
                            let mut t = name(c);
                            if a.on.is_some() {
                                t.push_str(" (attached)");
                            }
                            if a.engaged {
                                t.push_str(" (engaged)");
                            }
                            t
                        }
                    })
                    .collect();
                out.push(format!("    Accessories: {}", acc.join(" · ")));
            }
            if let Some(h) = &s.hand {
                out.push(format!(
                    "    Hand: {}",
                    h.iter().map(name).collect::<Vec<_>>().join(" · ")
                ));
            }
        }
        if let Some((seat, a, t, obs, step)) = &self.fight {
            let find = |c: Cid| {
                self.seats
                    .iter()
                    .flat_map(|s| std::iter::once(&s.contender).chain(&s.clash))
                    .find(|u| u.card.id == c)
                    .map_or("a card no longer in play".into(), |u| name(&u.card))
            };
            let mut line = format!(
                "Clash — {}: {seat}'s {} attacks {}",
                step.words(),
                find(*a),
                find(*t)
            );
            if !obs.is_empty() {
                line.push_str(&format!(
                    ", obstructed by {}",
                    obs.iter().map(|c| find(*c)).collect::<Vec<_>>().join(", ")
                ));
            }
            out.push(line);
        }
        if !self.standby.is_empty() {
            let s: Vec<String> = self
                .standby
                .iter()
                .rev()
                .map(|e| {
                    // What waits, and what it targets: a player answers
                    // knowing both.
                    let what = match e.what {
                        super::What::Play => String::new(),
                        super::What::Trap => " (Trap)".into(),
                        super::What::Ability(_) => " (ability)".into(),
                        super::What::Barrage => " (Barrage)".into(),
                        super::What::Awe => " (Awe Factor)".into(),
                        super::What::Portal => " (opening the Portal)".into(),
                    };
                    let targets = if e.targets.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " → {}",
                            e.targets.iter().map(name).collect::<Vec<_>>().join(", ")
                        )
                    };
                    format!(
                        "{}'s {}{what}{targets}{}",
                        e.seat,
                        name(&e.card),
                        if e.negated { " (will not resolve)" } else { "" }
                    )
                })
                .collect();
            out.push(format!("Standby (next first): {}", s.join(" ← ")));
        }
        if let Some((s, ask)) = self.waiting {
            out.push(match ask {
                super::Ask::Respond => format!("{s} has priority."),
                _ => format!("{s} is asked {}.", ask.what()),
            });
        }
        out
    }

    /// Where a card is in this view (for a presenter).
    pub fn place_of(&self, c: Cid) -> Option<(Seat, &'static str)> {
        for s in &self.seats {
            if s.contender.card.id == c {
                return Some((s.seat, "contender"));
            }
            if s.clash.iter().any(|u| u.card.id == c) {
                return Some((s.seat, "clash"));
            }
        }
        None
    }
}
