//! What one seat (or a spectator) may know of a match: every card in play
//! and in the trashes, the memory gauge, the counts of hands, decks,
//! Digi-Egg decks and security stacks, and the seat's own hand. Never
//! another hand, a security card or a deck's order (DCG-SETUP-6).

use serde::{Deserialize, Serialize};

use super::{Action, Match, Perm};
use crate::cards::{CardNumber, CardSet};
use crate::effects::dcg::Keyword;
use crate::rules::{Outcome, Seat};

/// A card in play as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermView {
    /// Its id.
    pub id: u16,
    /// Its cards, bottom first (the top card last).
    pub cards: Vec<CardNumber>,
    /// Suspended.
    pub suspended: bool,
    /// Its DP now (0 for a Tamer or Option).
    pub dp: u32,
    /// Keywords it has now.
    pub keywords: Vec<Keyword>,
}

/// One seat's side of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// The seat.
    pub seat: Seat,
    /// Cards in hand.
    pub hand_count: usize,
    /// The hand itself: only in the seat's own view.
    pub hand: Option<Vec<CardNumber>>,
    /// Cards in the deck.
    pub deck: usize,
    /// Digi-Eggs left.
    pub eggs: usize,
    /// Security cards.
    pub security: usize,
    /// The trash, bottom first.
    pub trash: Vec<CardNumber>,
    /// The breeding area.
    pub breeding: Option<PermView>,
    /// The battle area.
    pub field: Vec<PermView>,
    /// 3 and 4 seats: the memory banks (DCG-LAN-4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub banks: Vec<u8>,
    /// 3 and 4 seats: the Target Opponent set (DCG-LAN-11).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Seat>,
    /// 3 and 4 seats: the opponent now (DCG-LAN-14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<Seat>,
    /// Mega Damage (DCG-LAN-19).
    #[serde(default)]
    pub mega: u8,
    /// Defeated and out of the game.
    #[serde(default)]
    pub defeated: bool,
    /// The Offline Area, face up (DCG-LAN-31).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offline: Vec<CardNumber>,
    /// Corruption (DCG-LAN-33).
    #[serde(default)]
    pub corruption: u8,
    /// The Digi-Egg deck's top card, when face up (DCG-LAN-34).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_egg: Option<CardNumber>,
}

/// What a seat (or a spectator) may know now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Whose view (`None`: a spectator's).
    pub me: Option<Seat>,
    /// The turn number.
    pub turn: u32,
    /// Whose turn.
    pub turn_player: Seat,
    /// The turn player's memory (negative: on the opponent's side).
    pub memory: i8,
    /// Each seat.
    pub seats: Vec<SeatView>,
    /// Who is asked what now.
    pub waiting: Option<(Seat, String)>,
    /// The answers this seat may give now.
    pub actions: Vec<Action>,
    /// The result, once over.
    pub outcome: Option<Outcome>,
}

impl Match {
    /// What `me` (`None`: a spectator) may know now.
    pub fn view(&self, me: Option<Seat>) -> View {
        let perm = |s: Seat, p: &Perm| PermView {
            id: p.id,
            cards: p.cards.iter().map(|&c| self.number(c)).collect(),
            suspended: p.suspended,
            dp: if self.is_digimon(p) { self.dp(s, p) } else { 0 },
            keywords: self.keywords(s, p),
        };
        let seats = Seat::all(self.seats.len())
            .map(|s| {
                let z = self.z(s);
                SeatView {
                    seat: s,
                    hand_count: z.hand.len(),
                    hand: (me == Some(s)).then(|| z.hand.iter().map(|&c| self.number(c)).collect()),
                    deck: z.deck.len(),
                    eggs: z.eggs.len(),
                    security: z.security.len(),
                    trash: z.trash.iter().map(|&c| self.number(c)).collect(),
                    // DCG-BREED-3: nothing of a breeding Digimon's text applies.
                    breeding: z.breeding.as_ref().map(|p| PermView {
                        keywords: Vec::new(),
                        ..perm(s, p)
                    }),
                    field: z.field.iter().map(|p| perm(s, p)).collect(),
                    banks: z.banks.clone(),
                    target: self
                        .lan()
                        .then(|| Seat::new(usize::from(z.target)))
                        .flatten(),
                    opponent: self.lan().then(|| self.opponent(s)),
                    mega: z.mega,
                    defeated: z.defeated,
                    offline: z.offline.iter().map(|&c| self.number(c)).collect(),
                    corruption: z.corruption,
                    open_egg: z
                        .open_egg
                        .then(|| z.eggs.last().map(|&c| self.number(c)))
                        .flatten(),
                }
            })
            .collect();
        let waiting = self.asked().map(|(s, a)| (s, a.what().to_string()));
        View {
            me,
            turn: self.turn,
            turn_player: self.turn_player,
            memory: self.memory,
            seats,
            waiting,
            actions: me.map(|s| self.legal_actions(s)).unwrap_or_default(),
            outcome: self.outcome,
        }
    }
}

impl View {
    /// Whether the view holds together (from the network).
    pub fn well_formed(&self) -> Result<(), String> {
        if !(2..=4).contains(&self.seats.len()) {
            return Err(format!(
                "a view of {} seats; the game seats 2 to 4",
                self.seats.len()
            ));
        }
        if !(-10..=10).contains(&self.memory) {
            return Err(format!("memory {} is off the gauge", self.memory));
        }
        for (i, s) in self.seats.iter().enumerate() {
            if s.seat.index() != i {
                return Err("seats out of order".into());
            }
            if s.hand.is_some() && self.me != Some(s.seat) {
                return Err(format!("the view shows {}'s hidden hand", s.seat));
            }
            if s.field.len() > 64
                || s.trash.len() > 200
                || s.hand_count > 200
                || s.banks.len() > 3
                || s.offline.len() > 2
                || s.banks.iter().any(|b| !(1..=10).contains(b))
            {
                return Err("a zone larger than any deck".into());
            }
            if s.target.is_some_and(|t| t.index() >= self.seats.len())
                || s.opponent.is_some_and(|t| t.index() >= self.seats.len())
            {
                return Err("a Target Opponent off the table".into());
            }
        }
        Ok(())
    }

    /// `seat`'s memory.
    pub fn memory_of(&self, seat: Seat) -> i8 {
        if seat == self.turn_player {
            self.memory
        } else {
            -self.memory
        }
    }

    /// The board as text lines, for a player at a terminal.
    pub fn lines(&self, cards: &CardSet) -> Vec<String> {
        let name = |n: &CardNumber| {
            cards
                .get(n)
                .map_or_else(|| n.to_string(), |c| c.name().to_string())
        };
        let perm = |p: &PermView| {
            let top = p.cards.last().map_or("?".to_string(), name);
            let mut s = top;
            let kind = p
                .cards
                .last()
                .and_then(|n| cards.get(n))
                .and_then(|c| c.as_dcg())
                .map(|c| c.kind);
            match kind {
                Some(crate::cards::DcgKind::Digimon) => s.push_str(&format!(" {} DP", p.dp)),
                Some(k) => s.push_str(&format!(" ({k})")),
                None => {}
            }
            if p.cards.len() > 1 {
                let under: Vec<String> = p.cards[..p.cards.len() - 1]
                    .iter()
                    .rev()
                    .map(name)
                    .collect();
                s.push_str(&format!(" [under: {}]", under.join(", ")));
            }
            if !p.keywords.is_empty() {
                let mut k: Vec<String> = p.keywords.iter().map(|k| k.words()).collect();
                k.dedup();
                s.push(' ');
                s.push_str(&k.join(""));
            }
            if p.suspended {
                s.push_str(" (suspended)");
            }
            format!("#{} {s}", p.id)
        };
        let mut out = Vec::new();
        let gauge = {
            let mut g = String::new();
            let p1 = self.memory_of(Seat::P1);
            for v in (-10..=10).rev() {
                g.push(if v == p1 {
                    '●'
                } else if v == 0 {
                    '0'
                } else {
                    '·'
                });
            }
            format!("P1 10 {g} 10 P2   (P1 memory {p1}, P2 memory {})", -p1)
        };
        let lan = self.seats.len() > 2;
        out.push(if self.turn == 0 {
            if lan {
                "Opening hands.".to_string()
            } else {
                format!("Opening hands.  Memory: {gauge}")
            }
        } else if lan {
            format!(
                "Turn {} — {}'s turn, memory {}.",
                self.turn, self.turn_player, self.memory
            )
        } else {
            format!(
                "Turn {} — {}'s turn.  Memory: {gauge}",
                self.turn, self.turn_player
            )
        });
        for s in &self.seats {
            let mark = if Some(s.seat) == self.me {
                " (you)"
            } else {
                ""
            };
            if s.defeated {
                out.push(format!("{}{mark}: defeated, out of the game", s.seat));
                continue;
            }
            if lan {
                let banks: Vec<String> = s.banks.iter().map(ToString::to_string).collect();
                let mut line = format!(
                    "{}{mark}: banks {} · targets {} · Mega Damage {}",
                    s.seat,
                    banks.join("/"),
                    s.target.map_or("?".into(), |t| t.to_string()),
                    s.mega
                );
                if s.opponent != s.target
                    && let Some(o) = s.opponent
                {
                    line.push_str(&format!(" · faces {o} (targeted)"));
                }
                if !s.offline.is_empty() || s.corruption > 0 {
                    let off: Vec<String> = s.offline.iter().map(name).collect();
                    line.push_str(&format!(
                        " · Corruption {} · Offline Area: {}",
                        s.corruption,
                        if off.is_empty() {
                            "empty".to_string()
                        } else {
                            off.join(", ")
                        }
                    ));
                }
                out.push(line);
            }
            out.push(format!(
                "{}{mark}: security {} · deck {} · Digi-Eggs {}{} · hand {} · trash {}{}",
                s.seat,
                s.security,
                s.deck,
                s.eggs,
                s.open_egg
                    .as_ref()
                    .map_or(String::new(), |e| format!(" (top face up: {})", name(e))),
                s.hand_count,
                s.trash.len(),
                s.trash
                    .last()
                    .map_or(String::new(), |t| format!(" (top: {})", name(t)))
            ));
            out.push(format!(
                "   breeding: {}",
                s.breeding.as_ref().map_or("empty".to_string(), perm)
            ));
            if s.field.is_empty() {
                out.push("   battle area: empty".into());
            } else {
                out.push("   battle area:".into());
                for p in &s.field {
                    out.push(format!("     {}", perm(p)));
                }
            }
            if let Some(hand) = &s.hand {
                let h: Vec<String> = hand.iter().map(name).collect();
                out.push(format!("   your hand: {}", h.join(" · ")));
            }
        }
        if let Some(o) = self.outcome {
            out.push(match o {
                Outcome::Win(s) => format!("{s} has won."),
                Outcome::Draw => "The game is a draw.".into(),
            });
        }
        out
    }
}
