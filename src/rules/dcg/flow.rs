//! The game's flow: setup, the turn's phases, the memory gauge, attacks,
//! security checks, deletions and effects. Work in progress is a stack of
//! processes ([`Proc`]): an effect resolving, an attack between its
//! timings, a deletion waiting on its preventions. Triggered effects wait
//! in [`Match::pending`] and resolve whenever nothing else is resolving
//! (between an attack's timings too), the turn player's first
//! (DCG-EFF-14, DCG-EFF-15). [`Match::advance`] runs everything that needs
//! no answer, and stops at the next question.

use std::sync::Arc;

use super::{
    Action, Ask, BANK_MOST, Cid, Event, Format, HAND, Info, MEGA_DAMAGE_DEFEATS, MEMORY_MOST,
    Match, PASS_MEMORY, Perm, SECURITY, SECURITY_LAN, Setup, SetupError, TURN_LIMIT, Zones, deck,
};
use crate::cards::{CardSet, DcgKind};
use crate::effects::dcg::{
    Ability, Condition, Count, Deed, Effect, Filter, Happening, Keyword, Target, Timing, Trigger,
    Whose,
};
use crate::rules::alpha::Rng64;
use crate::rules::{IllegalAction, Outcome, Seat};

/// Where the turn is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Phase {
    /// Opening hands: each seat keeps or mulligans, the first player first.
    Opening,
    /// The start of a turn: [Start of Your Turn] effects resolve, then the
    /// unsuspend and draw phases run (DCG-TURN-2..5).
    Start,
    /// The breeding phase: the turn player hatches, moves or stays.
    Breeding,
    /// The main phase.
    Main,
    /// [End of Your Turn] effects have been put to wait; the turn ends
    /// once they resolve (unless memory came back, DCG decision 19).
    Ending,
    /// 3 and 4 seats: the turn has ended and its X is stored; its player
    /// may switch their Target Opponent (DCG-LAN-13).
    AfterTurn,
    /// 3 and 4 seats: the next player's turn is to begin.
    Turnover,
    /// 3 and 4 seats: the bank step is done; the new turn player may
    /// switch their Target Opponent (DCG-LAN-13, L6).
    BeforeTurn,
    /// 3 and 4 seats: [End of Opponent's Turn] effects moved to now wait
    /// (DCG-LAN-28).
    Opens,
    /// 3 and 4 seats: [Start of Your Turn] effects wait, then the start.
    Starting,
    /// The game is over.
    Over,
}

/// Where an effect comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Source {
    /// A card in play (its id).
    Perm(u16),
    /// A card out of play: a security card revealed, an Option being used,
    /// a Digimon just deleted.
    Card,
}

/// A triggered effect waiting to resolve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Trig {
    pub owner: Seat,
    pub source: Source,
    /// The card the effect is printed on.
    pub card: Cid,
    /// Its place in the card's effects (or inherited effects).
    pub slot: u8,
    pub inherited: bool,
    /// When it triggered: effects that trigger while others are resolving
    /// resolve first (DCG-EFF-16); set by [`Match::wait`].
    pub group: u32,
}

/// Work in progress.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Proc {
    /// An effect resolving.
    Resolve(Resolving),
    /// An attack between its timings.
    Attack(Attack),
    /// Digimon about to be deleted, their preventions asked one by one.
    Delete(Deleting),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Resolving {
    pub trig: Trig,
    /// Which effect of the ability is next.
    pub at: u8,
    /// The optional effect's answer is in, or it was not optional.
    pub agreed: bool,
    /// The conditions were checked.
    pub checked: bool,
    /// Digimon chosen so far for the effect at `at`.
    pub chosen: Vec<u16>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum AttackStage {
    /// A <Blitz> offers its Digimon an attack: its player picks the target
    /// or declines.
    Blitz,
    /// Just declared: [When Attacking] and "when … attacks" effects wait.
    Declared,
    /// <Alliance> or <Raid> is offered to the attacker's player.
    Offer(Keyword),
    /// The block timing.
    Block,
    /// The battle or the checks begin.
    Confirm,
    /// Security checks left.
    Checks(u8),
    /// A checked card is out: its [Security] effect resolved, the battle next.
    Checked(u8),
    /// The end of the attack.
    End,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Attack {
    pub attacker: u16,
    pub seat: Seat,
    /// The player attacked (the attacker's Target Opponent when declared).
    pub def: Seat,
    pub target: Option<u16>,
    pub stage: AttackStage,
    pub blocked: bool,
    /// <Alliance>: DP (thousands) and a security check added for the attack.
    pub alliance: Option<i32>,
    /// The security card out of the stack, being checked.
    pub revealed: Option<Cid>,
    /// Offers still to make at declaration.
    pub offers: Vec<Keyword>,
    /// The declaration's effects have been put to wait.
    pub declared: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Cause {
    /// Lost a battle (with the Digimon it battled, if still one).
    Battle(Option<u16>),
    /// Lost a battle with a security Digimon.
    SecurityBattle,
    /// An effect of this seat.
    Effect(Seat),
    /// Rule processing (0 DP).
    Rules,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Deleting {
    pub ids: Vec<u16>,
    pub cause: Cause,
    /// How many of `ids` have had their preventions asked.
    pub asked: usize,
    /// The "when … would be deleted" effects have resolved.
    pub interrupted: bool,
}

/// A way a deletion may be prevented, offered to the Digimon's owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Save {
    Evade,
    ArmorPurge,
    /// Delete this other Digimon (the <Decoy>) instead.
    Decoy(u16),
}

/// The mark that [End of Your Turn] effects have triggered this turn.
const END_OF_TURN: (u32, Cid, u8) = (u32::MAX, 0, 0);

/// Why an action is refused ([`Match::why_not`]): the rules' words, and
/// what kind of refusal they are, for a caller that says more of one kind
/// than another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WhyNot {
    /// Another seat is asked now, or nobody: whose move it is.
    NotYours(String),
    /// The seat is asked, but another question: which.
    OtherQuestion(String),
    /// A rule refuses the move itself: the rule, by its id.
    Rule(String),
}

impl std::fmt::Display for WhyNot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WhyNot::NotYours(w) | WhyNot::OtherQuestion(w) | WhyNot::Rule(w) => f.write_str(w),
        }
    }
}

impl From<String> for WhyNot {
    fn from(words: String) -> WhyNot {
        WhyNot::Rule(words)
    }
}

impl From<&str> for WhyNot {
    fn from(words: &str) -> WhyNot {
        WhyNot::Rule(words.to_string())
    }
}

fn illegal(seat: Seat, reason: impl Into<String>) -> IllegalAction {
    IllegalAction {
        seat,
        reason: reason.into(),
    }
}

/// Starts a match: checks the decks, shuffles, draws the opening hands.
pub(super) fn start(setup: &Setup, set: &CardSet) -> Result<Match, SetupError> {
    let n = setup.decks.len();
    if !(2..=4).contains(&n) {
        return Err(SetupError::Seats(n));
    }
    if !super::ENGINES.contains(&setup.engine) {
        return Err(SetupError::Engine(setup.engine));
    }
    if n == 2 && setup.format == Format::Players {
        return Err(SetupError::PlayersFormatAtTwo);
    }
    let lan = n > 2;
    let security = if lan { SECURITY_LAN } else { SECURITY };
    let players_format = setup.format == Format::Players;
    for (seat, why) in &setup.exempt {
        if why.trim().is_empty() {
            return Err(SetupError::Exempt(format!(
                "{seat}'s deck is exempt from the deck rules without a reason; write why"
            )));
        }
    }
    let mut table: Vec<Info> = Vec::new();
    let mut index: std::collections::HashMap<crate::cards::CardNumber, Cid> =
        std::collections::HashMap::new();
    let mut seats = Vec::new();
    let mut rng = Rng64::new(setup.seed);
    for (i, list) in setup.decks.iter().enumerate() {
        let seat = Seat::new(i).unwrap_or(Seat::P1);
        let exempt = setup.exempt.iter().any(|(s, _)| *s == seat);
        if players_format {
            deck::check_players(list, set, exempt)
                .map_err(|error| SetupError::Deck { seat, error })?;
        } else if !exempt {
            deck::check(list, set).map_err(|error| SetupError::Deck { seat, error })?;
        }
        // The Players Format: the first two cards are the Player cards,
        // out of the deck in the Offline Area (DCG-LAN-31).
        let (player_cards, list) = if players_format {
            list.split_at(2)
        } else {
            list.split_at(0)
        };
        let (main, eggs) =
            deck::split(list, set).map_err(|error| SetupError::Deck { seat, error })?;
        let mut cid = |n: &crate::cards::CardNumber| -> Cid {
            *index.entry(*n).or_insert_with(|| {
                let info = set
                    .get(n)
                    .and_then(Info::of)
                    .expect("split checked the card");
                table.push(info);
                (table.len() - 1) as Cid
            })
        };
        let players: Vec<Cid> = player_cards.iter().map(&mut cid).collect();
        let mut z = Zones {
            deck: main.iter().map(&mut cid).collect(),
            eggs: eggs.iter().map(&mut cid).collect(),
            banks: if lan { vec![1; n - 1] } else { Vec::new() },
            target: ((i + 1) % n) as u8,
            offline: players.clone(),
            players,
            ..Zones::default()
        };
        z.watched = z
            .players
            .iter()
            .map(|p| z.deck.iter().chain(&z.eggs).filter(|c| *c == p).count() as u8)
            .collect();
        if z.deck.len() < HAND + security && exempt {
            return Err(SetupError::Exempt(format!(
                "{seat}'s exempt deck has {} cards; a game needs at least {} to deal the hand and security",
                z.deck.len(),
                HAND + security
            )));
        }
        if setup.stacked.is_some() {
            // Listed top first; the top is the vector's end.
            z.deck.reverse();
            z.eggs.reverse();
        } else {
            rng.shuffle(&mut z.deck);
            rng.shuffle(&mut z.eggs);
        }
        seats.push(z);
    }
    let first = setup
        .stacked
        .filter(|s| s.index() < n)
        .unwrap_or_else(|| Seat::new(rng.below(n)).unwrap_or(Seat::P1));
    let forbids = table.iter().any(|i| i.continuous_forbid);
    let mut m = Match {
        setup: setup.clone(),
        cards: Arc::from(table),
        seats,
        first,
        turn: 0,
        turn_player: first,
        memory: 0,
        phase: Phase::Opening,
        offer: None,
        procs: Vec::new(),
        pending: Vec::new(),
        group: 0,
        turn_dp: Vec::new(),
        turn_keywords: Vec::new(),
        turn_forbid: Vec::new(),
        forbids,
        used: Vec::new(),
        next_id: 1,
        rng,
        outcome: None,
        opening: Vec::new(),
        log: Vec::new(),
        quiet: false,
        engine: setup.engine,
    };
    m.log.push(Event::First(first));
    for s in Seat::all(n) {
        m.draw(s, HAND);
    }
    m.opening = std::mem::take(&mut m.log);
    Ok(m)
}

impl Match {
    pub(crate) fn info(&self, c: Cid) -> &Info {
        &self.cards[usize::from(c)]
    }

    /// Keeps an event of the action being applied (none when quiet).
    fn emit(&mut self, e: Event) {
        if !self.quiet {
            self.log.push(e);
        }
    }

    pub(crate) fn z(&self, s: Seat) -> &Zones {
        &self.seats[s.index()]
    }

    fn zm(&mut self, s: Seat) -> &mut Zones {
        &mut self.seats[s.index()]
    }

    /// `s`'s opponent now: at 2 seats the other; at 3 and 4 its Target
    /// Opponent, or the turn player while the turn player targets it
    /// (DCG-LAN-14, -15).
    pub(crate) fn opponent(&self, s: Seat) -> Seat {
        let n = self.seats.len();
        if n == 2 {
            return Seat::new((s.index() + 1) % n).unwrap_or(Seat::P1);
        }
        let tp = self.turn_player;
        if s != tp && usize::from(self.z(tp).target) == s.index() && !self.z(tp).defeated {
            return tp;
        }
        Seat::new(usize::from(self.z(s).target)).unwrap_or(Seat::P1)
    }

    /// Whether the before-turn switch is asked now (else the after-turn).
    pub(crate) fn is_before_turn(&self) -> bool {
        self.phase == Phase::BeforeTurn
    }

    /// The Player card whose Corruption is asked about.
    pub(crate) fn offered(&self) -> Option<Cid> {
        self.offer.map(|(_, c)| c)
    }

    /// How many seats the match has.
    pub(crate) fn z_count(&self) -> usize {
        self.seats.len()
    }

    /// Whether this is the LAN format (3 or 4 seats).
    pub(crate) fn lan(&self) -> bool {
        self.seats.len() > 2
    }

    /// The players whose opponent `s` is now (those its Digimon's plays
    /// and attacks are "an opponent's" to, DCG-LAN-17).
    pub(crate) fn opponents_of(&self, s: Seat) -> Vec<Seat> {
        Seat::all(self.seats.len())
            .filter(|&w| w != s && !self.z(w).defeated && self.opponent(w) == s)
            .collect()
    }

    /// The seats in turn order from `from` (itself first), defeated ones
    /// left out.
    pub(crate) fn in_turn_order(&self, from: Seat) -> Vec<Seat> {
        let n = self.seats.len();
        (0..n)
            .filter_map(|k| Seat::new((from.index() + k) % n))
            .filter(|s| !self.z(*s).defeated)
            .collect()
    }

    /// The next remaining player after `s` in turn order.
    pub(crate) fn next_after(&self, s: Seat) -> Seat {
        let n = self.seats.len();
        (1..n)
            .filter_map(|k| Seat::new((s.index() + k) % n))
            .find(|x| !self.z(*x).defeated)
            .unwrap_or(s)
    }

    /// The players `s` may switch its Target Opponent to (DCG-LAN-12).
    pub(crate) fn switch_targets(&self, s: Seat) -> Vec<Seat> {
        if !self.lan() || self.z(s).defeated {
            return Vec::new();
        }
        Seat::all(self.seats.len())
            .filter(|&w| {
                w != s && !self.z(w).defeated && w.index() != usize::from(self.z(s).target)
            })
            .collect()
    }

    /// `seat` loses: at 2 seats the game ends; at 3 and 4 the seat is
    /// defeated and leaves, and the others play on (DCG-LAN-22..27).
    pub(crate) fn lose(&mut self, seat: Seat, why: String) {
        if !self.lan() {
            let winner = self.opponent(seat);
            self.finish(Outcome::Win(winner), why);
            return;
        }
        if self.z(seat).defeated || self.outcome.is_some() {
            return;
        }
        self.zm(seat).defeated = true;
        self.emit(Event::Defeated {
            seat,
            why: why.clone(),
        });
        // DCG-LAN-23, L8: its cards leave the game, its effects end.
        let z = self.zm(seat);
        let mut gone: Vec<Cid> = z.field.drain(..).flat_map(|p| p.cards).collect();
        if let Some(b) = z.breeding.take() {
            gone.extend(b.cards);
        }
        z.trash.extend(gone);
        self.pending.retain(|t| t.owner != seat);
        self.procs.retain(|p| match p {
            Proc::Resolve(r) => r.trig.owner != seat,
            Proc::Attack(a) => a.seat != seat,
            Proc::Delete(_) => true,
        });
        for p in &mut self.procs {
            if let Proc::Attack(a) = p
                && a.def == seat
            {
                a.stage = AttackStage::End;
            }
        }
        if self.offer.is_some_and(|(s, _)| s == seat) {
            self.offer = None;
        }
        let left = self.in_turn_order(self.turn_player);
        if let [last] = left.as_slice() {
            // DCG-LAN-27.
            self.finish(
                Outcome::Win(*last),
                format!("{last} is the last player left ({why})"),
            );
            return;
        }
        // DCG-LAN-24: each remaining player removes its lowest bank.
        for &s in &left {
            let z = self.zm(s);
            if let Some(at) = (0..z.banks.len()).min_by_key(|&i| (z.banks[i], i)) {
                z.banks.remove(at);
            }
            let banks = self.z(s).banks.clone();
            self.emit(Event::Banks { seat: s, banks });
        }
        // DCG-LAN-25, L8: a target on the defeated moves on.
        for &s in &left {
            if usize::from(self.z(s).target) == seat.index() {
                let next = self.next_after(s);
                self.zm(s).target = next.index() as u8;
                self.emit(Event::Targeted {
                    seat: s,
                    target: next,
                });
            }
        }
        if seat == self.turn_player && self.phase != Phase::Opening {
            // DCG-LAN-26, L15: the turn ends at once, nothing stored.
            self.procs.clear();
            self.pending.clear();
            self.emit(Event::TurnEnded(seat));
            self.turn_dp.clear();
            self.turn_keywords.clear();
            self.turn_forbid.clear();
            self.used.clear();
            self.phase = Phase::Turnover;
        }
    }

    /// A card in the battle area by id, with its owner.
    pub(crate) fn find(&self, id: u16) -> Option<(Seat, &Perm)> {
        Seat::all(self.seats.len())
            .find_map(|s| self.z(s).field.iter().find(|p| p.id == id).map(|p| (s, p)))
    }

    pub(crate) fn find_mut(&mut self, id: u16) -> Option<&mut Perm> {
        self.seats
            .iter_mut()
            .find_map(|z| z.field.iter_mut().find(|p| p.id == id))
    }

    /// Whether a card in play is a Digimon (not a Tamer or Option).
    pub(crate) fn is_digimon(&self, p: &Perm) -> bool {
        self.info(p.top()).digimon
    }

    fn draw(&mut self, s: Seat, n: usize) -> usize {
        let z = self.zm(s);
        let k = n.min(z.deck.len());
        for _ in 0..k {
            if let Some(c) = z.deck.pop() {
                z.hand.push(c);
            }
        }
        if k > 0 {
            self.emit(Event::Drew {
                seat: s,
                count: k as u8,
            });
        }
        k
    }

    /// Memory moves: `seat` gains `n` (negative: loses), never past 10 on
    /// either side (DCG-MEM-4).
    fn gain(&mut self, seat: Seat, n: i8) {
        let delta = if seat == self.turn_player { n } else { -n };
        let before = self.memory;
        self.memory = (i16::from(self.memory) + i16::from(delta))
            .clamp(-i16::from(MEMORY_MOST), i16::from(MEMORY_MOST)) as i8;
        if self.memory != before {
            self.emit(Event::Memory {
                seat: self.turn_player,
                memory: self.memory,
                banked: self.lan(),
            });
        }
    }

    /// Whether the turn player can pay `cost` (DCG-MEM-3).
    pub(crate) fn can_pay(&self, cost: u8) -> bool {
        i16::from(self.memory) - i16::from(cost) >= -i16::from(MEMORY_MOST)
    }

    #[cfg(test)]
    pub(crate) fn new_perm_for_test(&mut self, cards: Vec<Cid>) -> Perm {
        self.new_perm(cards)
    }

    fn new_perm(&mut self, cards: Vec<Cid>) -> Perm {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1).max(1);
        Perm {
            id,
            cards,
            suspended: false,
            since: self.turn,
        }
    }

    // ----- continuous effects -----

    /// Whether an effect with this timing applies (or may trigger) now for
    /// its owner.
    fn timing_on(&self, t: Timing, owner: Seat) -> bool {
        match t {
            Timing::YourTurn | Timing::Main => owner == self.turn_player,
            // DCG-LAN-17, L9: at 3 and 4 seats, only in the turn of the
            // player's opponent.
            Timing::OpponentsTurn => {
                owner != self.turn_player && self.opponent(owner) == self.turn_player
            }
            _ => true,
        }
    }

    /// The effects a card in play has: its top card's, and the inherited
    /// effects of the cards under it (DCG-CARD-8, DCG-CARD-9).
    pub(crate) fn abilities_of<'a>(
        &'a self,
        p: &'a Perm,
    ) -> impl Iterator<Item = (Cid, u8, bool, &'a Ability)> + 'a {
        let top = p.top();
        let own = self
            .info(top)
            .effects
            .iter()
            .enumerate()
            .map(move |(i, a)| (top, i as u8, false, a));
        let under = p.cards[..p.cards.len().saturating_sub(1)]
            .iter()
            .flat_map(move |&c| {
                self.info(c)
                    .inherited
                    .iter()
                    .enumerate()
                    .map(move |(i, a)| (c, i as u8, true, a))
            });
        own.chain(under)
    }

    /// Whether a continuous ability applies now.
    fn continuous_on(&self, owner: Seat, p: &Perm, a: &Ability) -> bool {
        a.is_continuous()
            && self.timing_on(a.timing, owner)
            && a.conditions.iter().all(|c| self.holds(owner, Some(p), c))
    }

    /// Keywords a card in play has now.
    pub(crate) fn keywords(&self, owner: Seat, p: &Perm) -> Vec<Keyword> {
        let mut out = Vec::new();
        if self.may_give_keywords(p) {
            for (_, _, _, a) in self.abilities_of(p) {
                if self.continuous_on(owner, p, a) {
                    for e in &a.effects {
                        if let Effect::Keyword(k) = e {
                            out.push(*k);
                        }
                    }
                }
            }
        }
        out.extend(
            self.turn_keywords
                .iter()
                .filter(|(id, _)| *id == p.id)
                .map(|(_, k)| *k),
        );
        out
    }

    pub(crate) fn has(&self, owner: Seat, p: &Perm, k: Keyword) -> bool {
        self.turn_keywords
            .iter()
            .any(|&(id, x)| id == p.id && x == k)
            || (self.may_give_keywords(p)
                && self.abilities_of(p).any(|(_, _, _, a)| {
                    a.effects.contains(&Effect::Keyword(k)) && self.continuous_on(owner, p, a)
                }))
    }

    /// Whether any effect of a card in play gives a keyword (else it has
    /// none but the turn's).
    fn may_give_keywords(&self, p: &Perm) -> bool {
        self.info(p.top()).own_keywords
            || p.cards[..p.cards.len().saturating_sub(1)]
                .iter()
                .any(|&c| self.info(c).inherited_keywords)
    }

    /// Whether a card in play has an effect with this timing and no
    /// trigger (its inherited effects too, if asked).
    fn may_have_timing(&self, p: &Perm, timing: Timing, inherited_too: bool) -> bool {
        let bit = 1u32 << (timing as u32);
        self.info(p.top()).own_timings & bit != 0
            || (inherited_too
                && p.cards[..p.cards.len().saturating_sub(1)]
                    .iter()
                    .any(|&c| self.info(c).inherited_timings & bit != 0))
    }

    /// Whether a card in play has an effect with a trigger ("When …").
    fn may_trigger(&self, p: &Perm) -> bool {
        self.info(p.top()).own_triggers
            || p.cards[..p.cards.len().saturating_sub(1)]
                .iter()
                .any(|&c| self.info(c).inherited_triggers)
    }

    fn has_decoy(&self, owner: Seat, p: &Perm) -> Option<crate::effects::dcg::Color> {
        self.keywords(owner, p).into_iter().find_map(|k| match k {
            Keyword::Decoy(c) => Some(c),
            _ => None,
        })
    }

    /// How many security cards a Digimon checks (DCG-SEC-1, DCG-KW-1).
    pub(crate) fn checks(&self, owner: Seat, p: &Perm) -> u8 {
        let sa: i32 = self
            .keywords(owner, p)
            .into_iter()
            .map(|k| match k {
                Keyword::SecurityAttack(n) => i32::from(n),
                _ => 0,
            })
            .sum();
        (1 + sa).clamp(0, 20) as u8
    }

    /// A Digimon's DP (DCG-CARD-7: never below 0).
    pub(crate) fn dp(&self, owner: Seat, p: &Perm) -> u32 {
        let sources = Seat::all(self.seats.len())
            .flat_map(|s| self.z(s).field.iter().map(move |q| (s, q)))
            .filter(|(_, q)| self.changes_dp(q));
        self.dp_among(owner, p, sources)
    }

    /// Whether a card in play has a continuous DP change among its effects
    /// (else no DP figure needs to read it).
    fn changes_dp(&self, q: &Perm) -> bool {
        let under = &q.cards[..q.cards.len().saturating_sub(1)];
        self.info(q.top()).continuous_dp || under.iter().any(|&c| self.info(c).inherited_dp)
    }

    /// [`Match::dp`] with the cards in play that change DP given, in
    /// their order (seat by seat, each battle area in order), so that
    /// many figures can share the one look at the battle areas.
    fn dp_among<'a>(
        &'a self,
        owner: Seat,
        p: &Perm,
        sources: impl Iterator<Item = (Seat, &'a Perm)>,
    ) -> u32 {
        let base = i64::from(self.info(p.top()).dp);
        // DCG-BREED-3, -4: no effect reaches a Digimon in a breeding area.
        if self
            .z(owner)
            .breeding
            .as_ref()
            .is_some_and(|b| b.id == p.id)
        {
            return base.max(0) as u32;
        }
        let mut k: i64 = 0;
        for (s, q) in sources {
            for (_, _, _, a) in self.abilities_of(q) {
                if !self.continuous_on(s, q, a) {
                    continue;
                }
                for e in &a.effects {
                    if let Effect::Dp(t, n) = e
                        && self.continuous_target(s, q, t, owner, p)
                    {
                        k += i64::from(*n);
                    }
                }
            }
        }
        k += self
            .turn_dp
            .iter()
            .filter(|(id, _)| *id == p.id)
            .map(|(_, n)| i64::from(*n))
            .sum::<i64>();
        if let Some(Proc::Attack(a)) = self.procs.iter().find(|x| matches!(x, Proc::Attack(_)))
            && a.attacker == p.id
            && let Some(n) = a.alliance
        {
            k += i64::from(n);
        }
        (base + k * 1000).max(0) as u32
    }

    /// Whether a continuous effect of `src` (owned by `s`) with target `t`
    /// applies to `p` (owned by `owner`). DP filters read printed DP, so a
    /// DP figure never depends on itself.
    fn continuous_target(&self, s: Seat, src: &Perm, t: &Target, owner: Seat, p: &Perm) -> bool {
        if !self.is_digimon(p) {
            return false;
        }
        match t {
            Target::This => src.id == p.id,
            Target::Choose {
                side,
                count: Count::All,
                other,
                filters,
            } => {
                let side_ok = match side {
                    Whose::You => owner == s,
                    Whose::Opponent => owner != s,
                };
                side_ok
                    && !(*other && src.id == p.id)
                    && filters.iter().all(|f| self.passes(owner, p, f, false))
            }
            Target::Choose { .. } => false,
        }
    }

    fn passes(&self, owner: Seat, p: &Perm, f: &Filter, live_dp: bool) -> bool {
        let info = self.info(p.top());
        let dp = || if live_dp { self.dp(owner, p) } else { info.dp };
        match f {
            Filter::Suspended => p.suspended,
            Filter::Unsuspended => !p.suspended,
            Filter::Level(l) => info.level == *l,
            Filter::Color(c) => info.color_mask & super::color_bit(*c) != 0,
            Filter::DpAtMost(n) => dp() <= n * 1000,
            Filter::DpAtLeast(n) => dp() >= n * 1000,
            Filter::CostAtMost(n) => info.cost <= *n,
            Filter::Bare => p.cards.len() == 1,
        }
    }

    /// Whether an activation condition holds for `owner` (with `p` the card
    /// that has the effect, when in play).
    pub(crate) fn holds(&self, owner: Seat, p: Option<&Perm>, c: &Condition) -> bool {
        let z = self.z(owner);
        let opp = self.z(self.opponent(owner));
        match c {
            Condition::YouHaveTamer => z
                .field
                .iter()
                .any(|q| self.info(q.top()).kind == DcgKind::Tamer),
            Condition::ThisSuspended => p.is_some_and(|p| p.suspended),
            Condition::StackAtLeast(n) => {
                p.is_some_and(|p| p.cards.len().saturating_sub(1) >= usize::from(*n))
            }
            Condition::StackHas(name) => p.is_some_and(|p| {
                p.cards[..p.cards.len().saturating_sub(1)]
                    .iter()
                    .any(|&c| self.info(c).name.contains(name.as_str()))
            }),
            Condition::SecurityAtMost(n) => z.security.len() <= usize::from(*n),
            Condition::OpponentSecurityAtMost(n) => opp.security.len() <= usize::from(*n),
            Condition::OpponentHasBareDigimon => opp
                .field
                .iter()
                .any(|q| self.is_digimon(q) && q.cards.len() == 1),
            Condition::HandAtLeast(n) => z.hand.len() >= usize::from(*n),
        }
    }

    // ----- triggers -----

    /// The effects of a card in play (`owner`'s, `p`) that `fires` picks,
    /// as waiting effects from `source`.
    fn trigs_of(
        &self,
        owner: Seat,
        p: &Perm,
        source: Source,
        fires: impl Fn(&Ability, bool) -> bool,
    ) -> Vec<Trig> {
        self.abilities_of(p)
            .filter(|(_, _, inh, a)| fires(a, *inh))
            .map(|(card, slot, inherited, _)| Trig {
                owner,
                source,
                card,
                slot,
                inherited,
                group: 0,
            })
            .collect()
    }

    /// Puts the triggered effects of a card in play with `timing` (and no
    /// trigger) to wait.
    fn trigger_timing(&mut self, owner: Seat, id: u16, timing: Timing, inherited_too: bool) {
        let Some((_, p)) = self.find(id).or_else(|| {
            self.z(owner)
                .breeding
                .as_ref()
                .filter(|b| b.id == id)
                .map(|b| (owner, b))
        }) else {
            return;
        };
        if !self.may_have_timing(p, timing, inherited_too) {
            return;
        }
        let found = self.trigs_of(owner, p, Source::Perm(id), |a, inh| {
            a.timing == timing && a.trigger.is_none() && (inherited_too || !inh)
        });
        self.wait(found);
    }

    /// [`Match::trigger_timing`] (inherited effects too) for every card in
    /// `seat`'s battle area, in order.
    fn trigger_timing_field(&mut self, seat: Seat, timing: Timing) {
        let mut found = Vec::new();
        for p in &self.z(seat).field {
            if self.may_have_timing(p, timing, true) {
                found.extend(self.trigs_of(seat, p, Source::Perm(p.id), |a, _| {
                    a.timing == timing && a.trigger.is_none()
                }));
            }
        }
        self.wait(found);
    }

    /// Puts to wait every "When <happening>" effect that watches it, in
    /// the battle areas of `watchers` (not `except`).
    fn trigger_when(&mut self, watchers: &[Seat], h: Happening, except: Option<u16>) {
        let mut found = Vec::new();
        for &s in watchers {
            for p in &self.z(s).field {
                if Some(p.id) == except || !self.may_trigger(p) {
                    continue;
                }
                found.extend(self.trigs_of(s, p, Source::Perm(p.id), |a, _| {
                    a.trigger == Some(Trigger::When(h)) && self.timing_on(a.timing, s)
                }));
            }
        }
        self.wait(found);
    }

    pub(crate) fn ability(&self, t: &Trig) -> &Ability {
        ability_in(&self.cards, t)
    }

    fn once_key(t: &Trig) -> (u32, Cid, u8) {
        let src = match t.source {
            Source::Perm(id) => u32::from(id),
            Source::Card => 0x1_0000 + u32::from(t.card),
        };
        (src, t.card, t.slot | if t.inherited { 0x80 } else { 0 })
    }

    // ----- the questions -----

    /// The seat the match waits on, and for what.
    pub(crate) fn asked(&self) -> Option<(Seat, Ask)> {
        if self.outcome.is_some() {
            return None;
        }
        if self.phase == Phase::Opening {
            let s = self
                .in_turn_order(self.first)
                .into_iter()
                .find(|s| !self.z(*s).settled)?;
            return Some((s, Ask::Mulligan));
        }
        if let Some((s, _)) = self.offer {
            return Some((s, Ask::Corrupt));
        }
        match self.procs.last() {
            Some(Proc::Resolve(r)) => {
                let a = self.ability(&r.trig);
                if !r.agreed {
                    return Some((r.trig.owner, Ask::Optional));
                }
                let e = a.effects.get(usize::from(r.at))?;
                let t = target_of(e)?;
                return Some((r.trig.owner, Ask::Choose(self.chooser_count(t))));
            }
            Some(Proc::Delete(d)) => {
                let id = *d.ids.get(d.asked)?;
                let (s, _) = self.find(id)?;
                return Some((s, Ask::Prevent));
            }
            Some(Proc::Attack(a)) if self.pending.is_empty() => match a.stage {
                AttackStage::Offer(k) => return Some((a.seat, Ask::Offer(k))),
                AttackStage::Blitz => return Some((a.seat, Ask::Blitz)),
                AttackStage::Block => {
                    return Some((a.def, Ask::Block));
                }
                _ => {}
            },
            _ => {}
        }
        if !self.pending.is_empty() {
            let s = self.next_trigger_seat()?;
            return Some((s, Ask::Order));
        }
        match self.phase {
            Phase::Breeding => Some((self.turn_player, Ask::Breeding)),
            Phase::Main => Some((self.turn_player, Ask::Main)),
            Phase::AfterTurn | Phase::BeforeTurn => Some((self.turn_player, Ask::Target)),
            _ => None,
        }
    }

    fn chooser_count(&self, t: &Target) -> Count {
        match t {
            Target::Choose { count, .. } => *count,
            Target::This => Count::Exactly(1),
        }
    }

    /// Puts triggered effects to wait, in the newest group.
    fn wait(&mut self, trigs: impl IntoIterator<Item = Trig>) {
        let group = self.group;
        self.pending
            .extend(trigs.into_iter().map(|t| Trig { group, ..t }));
    }

    /// The waiting effects that may resolve next, as places in `pending`:
    /// the newest group's (DCG-EFF-16), the turn player's first
    /// (DCG-EFF-15), in the order they triggered.
    pub(crate) fn next_waiting(&self) -> Vec<usize> {
        let Some(newest) = self.pending.iter().map(|t| t.group).max() else {
            return Vec::new();
        };
        // The turn player first, then the others in turn order (L at 3
        // and 4 seats; at 2 the other player).
        let n = self.seats.len();
        let tp = self.turn_player.index();
        let Some(seat) = (0..n).filter_map(|k| Seat::new((tp + k) % n)).find(|s| {
            self.pending
                .iter()
                .any(|t| t.group == newest && t.owner == *s)
        }) else {
            return Vec::new();
        };
        self.pending
            .iter()
            .enumerate()
            .filter(|(_, t)| t.group == newest && t.owner == seat)
            .map(|(i, _)| i)
            .collect()
    }

    fn next_trigger_seat(&self) -> Option<Seat> {
        self.next_waiting().first().map(|&i| self.pending[i].owner)
    }

    /// The Digimon an effect may choose now (DCG-BREED-4: never one in a
    /// breeding area).
    pub(crate) fn candidates(&self, r: &Resolving, t: &Target) -> Vec<u16> {
        let Target::Choose {
            side,
            other,
            filters,
            ..
        } = t
        else {
            return Vec::new();
        };
        let owner = r.trig.owner;
        let seat = match side {
            Whose::You => owner,
            Whose::Opponent => self.opponent(owner),
        };
        let this = match r.trig.source {
            Source::Perm(id) => Some(id),
            Source::Card => None,
        };
        self.z(seat)
            .field
            .iter()
            .filter(|p| self.is_digimon(p))
            .filter(|p| !(*other && Some(p.id) == this))
            .filter(|p| !r.chosen.contains(&p.id))
            .filter(|p| filters.iter().all(|f| self.passes(seat, p, f, true)))
            .map(|p| p.id)
            .collect()
    }

    /// Every action `seat` may take now.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let Some((s, ask)) = self.asked() else {
            return Vec::new();
        };
        if s != seat {
            return Vec::new();
        }
        match ask {
            Ask::Mulligan => vec![Action::Keep, Action::Mulligan],
            Ask::Optional => vec![Action::Yes, Action::No],
            Ask::Choose(count) => {
                let Some(Proc::Resolve(r)) = self.procs.last() else {
                    return Vec::new();
                };
                let a = self.ability(&r.trig);
                let Some(t) = a.effects.get(usize::from(r.at)).and_then(target_of) else {
                    return Vec::new();
                };
                let mut v: Vec<Action> = self
                    .candidates(r, t)
                    .into_iter()
                    .map(|id| Action::Choose { id })
                    .collect();
                if matches!(count, Count::UpTo(_)) && !r.chosen.is_empty() {
                    v.push(Action::Done);
                }
                v
            }
            Ask::Prevent => {
                let mut v: Vec<Action> = self.saves().iter().map(save_action).collect();
                v.push(Action::No);
                v
            }
            Ask::Blitz => {
                let Some(Proc::Attack(a)) = self.procs.last() else {
                    return Vec::new();
                };
                let opp = self.opponent(seat);
                let mut v = vec![Action::Attack {
                    attacker: a.attacker,
                    target: None,
                }];
                v.extend(
                    self.z(opp)
                        .field
                        .iter()
                        .filter(|q| q.suspended && self.is_digimon(q))
                        .map(|q| Action::Attack {
                            attacker: a.attacker,
                            target: Some(q.id),
                        }),
                );
                v.push(Action::No);
                v
            }
            Ask::Offer(Keyword::Alliance) => {
                let Some(Proc::Attack(a)) = self.procs.last() else {
                    return Vec::new();
                };
                let mut v: Vec<Action> = self
                    .z(a.seat)
                    .field
                    .iter()
                    .filter(|p| p.id != a.attacker && self.is_digimon(p) && !p.suspended)
                    .map(|p| Action::Choose { id: p.id })
                    .collect();
                v.push(Action::No);
                v
            }
            Ask::Offer(_) => {
                let Some(Proc::Attack(a)) = self.procs.last() else {
                    return Vec::new();
                };
                let mut v: Vec<Action> = self
                    .raid_targets(a)
                    .into_iter()
                    .map(|id| Action::Choose { id })
                    .collect();
                v.push(Action::No);
                v
            }
            Ask::Block => {
                let Some(Proc::Attack(a)) = self.procs.last() else {
                    return Vec::new();
                };
                let mut v: Vec<Action> = self
                    .blockers(a)
                    .into_iter()
                    .map(|blocker| Action::Block { blocker })
                    .collect();
                v.push(Action::NoBlock);
                v
            }
            Ask::Order => (0..self.next_waiting().len())
                .map(|i| Action::Order { index: i as u8 })
                .collect(),
            Ask::Breeding => {
                let z = self.z(seat);
                let mut v = Vec::new();
                if z.breeding.is_none() && !z.eggs.is_empty() {
                    v.push(Action::Hatch);
                }
                if z.breeding
                    .as_ref()
                    .is_some_and(|b| self.info(b.top()).level >= 3)
                {
                    v.push(Action::MoveOut);
                }
                v.push(Action::StayBreeding);
                v
            }
            Ask::Main => self.main_actions(seat),
            Ask::Target => {
                let mut v: Vec<Action> = self
                    .switch_targets(seat)
                    .into_iter()
                    .map(|seat| Action::Target { seat })
                    .collect();
                v.push(Action::KeepTarget);
                v
            }
            Ask::Corrupt => vec![Action::Yes, Action::No],
        }
    }

    fn main_actions(&self, seat: Seat) -> Vec<Action> {
        let z = self.z(seat);
        let mut v = Vec::with_capacity(16);
        // What digivolving and Options read of the seat's cards in play,
        // read once: each Digimon's (breeding area first) id, level and
        // colours, and the colours of its Digimon and Tamers.
        // (On the stack while there are 16 Digimon or fewer.)
        let mut small = [(0u16, 0u8, 0u8); 16];
        let mut large = Vec::new();
        let mut count = 0;
        let mut colours = 0u8;
        if !z.hand.is_empty() {
            for p in z.breeding.iter().chain(&z.field) {
                let top = self.info(p.top());
                if top.digimon {
                    let t = (p.id, top.level, top.color_mask);
                    if count < small.len() {
                        small[count] = t;
                    } else {
                        if count == small.len() {
                            large.extend_from_slice(&small);
                        }
                        large.push(t);
                    }
                    count += 1;
                }
                if top.kind != DcgKind::Option {
                    colours |= top.color_mask;
                }
            }
        }
        let tops = if count <= small.len() {
            &small[..count]
        } else {
            &large[..]
        };
        for (i, &c) in z.hand.iter().enumerate() {
            // One answer per card, not per copy.
            if z.hand[..i].contains(&c) {
                continue;
            }
            let info = self.info(c);
            let card = i as u8;
            match info.kind {
                DcgKind::Digimon | DcgKind::Tamer if self.can_pay(info.cost) => {
                    v.push(Action::Play { card });
                }
                // DCG-MAIN-9: Digimon or Tamers of every colour of it (as
                // `option_colours_met`).
                DcgKind::Option if self.can_pay(info.cost) && info.color_mask & !colours == 0 => {
                    v.push(Action::UseOption { card });
                }
                _ => {}
            }
            if info.kind == DcgKind::Digimon && !info.digivolve.is_empty() {
                // As `digivolve_cost`, onto each Digimon in turn.
                for &(onto, level, mask) in tops {
                    if let Some(cost) = info
                        .digivolve
                        .iter()
                        .filter(|d| d.level == level && mask & super::color_bit(d.color) != 0)
                        .map(|d| d.cost)
                        .min()
                        && self.can_pay(cost)
                    {
                        v.push(Action::Digivolve { card, onto });
                    }
                }
            }
        }
        // DCG-LAN-12, -32: the LAN format's own actions.
        v.extend(
            self.switch_targets(seat)
                .into_iter()
                .map(|seat| Action::Target { seat }),
        );
        if self.can_pay(self.offline_cost(seat)) {
            v.extend((0..z.offline.len().min(8)).map(|i| Action::TakeOffline { card: i as u8 }));
        }
        let opp = self.opponent(seat);
        for p in &z.field {
            if self.can_attack(seat, p) {
                v.push(Action::Attack {
                    attacker: p.id,
                    target: None,
                });
                for q in &self.z(opp).field {
                    if q.suspended && self.is_digimon(q) {
                        v.push(Action::Attack {
                            attacker: p.id,
                            target: Some(q.id),
                        });
                    }
                }
            }
            if self.info(p.top()).kind == DcgKind::Option && p.since < self.turn {
                v.push(Action::TrashDelay { id: p.id });
            }
        }
        v.push(Action::Pass);
        v
    }

    /// Whether `action` is among [`Match::main_actions`] (the question is
    /// the main phase's): the same answer without listing them all.
    fn main_legal(&self, seat: Seat, action: Action) -> bool {
        let z = self.z(seat);
        // A hand card the list offers: the first of its copies.
        let offered = |card: u8| {
            let i = usize::from(card);
            z.hand.get(i).copied().filter(|c| !z.hand[..i].contains(c))
        };
        match action {
            Action::Play { card } => offered(card).is_some_and(|c| {
                let info = self.info(c);
                matches!(info.kind, DcgKind::Digimon | DcgKind::Tamer) && self.can_pay(info.cost)
            }),
            Action::UseOption { card } => offered(card).is_some_and(|c| {
                let info = self.info(c);
                info.kind == DcgKind::Option
                    && self.can_pay(info.cost)
                    && self.option_colours_met(seat, c)
            }),
            Action::Digivolve { card, onto } => offered(card).is_some_and(|c| {
                self.info(c).kind == DcgKind::Digimon
                    && z.breeding.iter().chain(&z.field).any(|p| {
                        p.id == onto
                            && self
                                .digivolve_cost(c, p)
                                .is_some_and(|cost| self.can_pay(cost))
                    })
            }),
            Action::Target { seat: to } => self.switch_targets(seat).contains(&to),
            Action::TakeOffline { card } => {
                self.can_pay(self.offline_cost(seat)) && usize::from(card) < z.offline.len().min(8)
            }
            Action::Attack { attacker, target } => z.field.iter().any(|p| {
                p.id == attacker
                    && self.can_attack(seat, p)
                    && target.is_none_or(|t| {
                        self.z(self.opponent(seat))
                            .field
                            .iter()
                            .any(|q| q.id == t && q.suspended && self.is_digimon(q))
                    })
            }),
            Action::TrashDelay { id } => z.field.iter().any(|p| {
                p.id == id && self.info(p.top()).kind == DcgKind::Option && p.since < self.turn
            }),
            Action::Pass => true,
            _ => false,
        }
    }

    /// Whether `seat` may take `action` now (`legal_actions` holds it).
    pub(crate) fn is_legal(&self, seat: Seat, action: Action) -> bool {
        let legal = match self.asked() {
            Some((s, Ask::Main)) if s == seat => self.main_legal(seat, action),
            _ => self.legal_actions(seat).contains(&action),
        };
        #[cfg(test)]
        assert_eq!(
            legal,
            self.legal_actions(seat).contains(&action),
            "{action:?} for {seat}"
        );
        legal
    }

    /// Why a Digimon in the battle area cannot attack now, if it cannot.
    pub(crate) fn cannot_attack(&self, seat: Seat, p: &Perm) -> Option<&'static str> {
        if !self.is_digimon(p) {
            return Some("only a Digimon attacks");
        }
        if p.suspended {
            return Some("it is suspended");
        }
        if self.forbidden(seat, p, Deed::Attack) {
            return Some(
                "an effect says it can't attack, and a prohibition wins over any permission, <Rush> included (DCG-EFF-4)",
            );
        }
        if p.since == self.turn && !self.has(seat, p, Keyword::Rush) {
            return Some("it was played this turn and has no <Rush> (DCG-MAIN-3)");
        }
        None
    }

    /// Whether an effect forbids `p` (owned by `owner`) the deed: for the
    /// turn, or while a continuous effect of a card in play applies
    /// (DCG-EFF-4: the prohibition wins over any permission).
    pub(crate) fn forbidden(&self, owner: Seat, p: &Perm, d: Deed) -> bool {
        if self.turn_forbid.iter().any(|&(id, x)| id == p.id && x == d) {
            return true;
        }
        if !self.forbids {
            return false;
        }
        let under = |q: &Perm| {
            std::iter::once(q.top())
                .chain(q.cards.iter().rev().skip(1).copied())
                .any(|c| self.info(c).continuous_forbid)
        };
        Seat::all(self.seats.len()).any(|s| {
            self.z(s).field.iter().filter(|q| under(q)).any(|q| {
                self.abilities_of(q).any(|(_, _, _, a)| {
                    self.continuous_on(s, q, a)
                        && a.effects.iter().any(|e| {
                            matches!(e, Effect::Forbid(t, x)
                                if *x == d && self.continuous_target(s, q, t, owner, p))
                        })
                })
            })
        })
    }

    fn can_attack(&self, seat: Seat, p: &Perm) -> bool {
        self.cannot_attack(seat, p).is_none()
    }

    /// The cost to digivolve `card` onto `p`, if it may (DCG-MAIN-5).
    pub(crate) fn digivolve_cost(&self, card: Cid, p: &Perm) -> Option<u8> {
        let top = self.info(p.top());
        if !matches!(top.kind, DcgKind::Digimon | DcgKind::DigiEgg) {
            return None;
        }
        self.info(card)
            .digivolve
            .iter()
            .filter(|d| d.level == top.level && top.color_mask & super::color_bit(d.color) != 0)
            .map(|d| d.cost)
            .min()
    }

    /// Whether `seat` has Digimon or Tamers with every colour of the Option
    /// (DCG-MAIN-9, decision 5; the breeding area counts, DCG-BREED-6).
    pub(crate) fn option_colours_met(&self, seat: Seat, option: Cid) -> bool {
        let z = self.z(seat);
        self.info(option).colors.iter().all(|&c| {
            z.breeding
                .iter()
                .chain(&z.field)
                .filter(|p| self.info(p.top()).kind != DcgKind::Option)
                .any(|p| self.info(p.top()).color_mask & super::color_bit(c) != 0)
        })
    }

    /// What taking a card from the Offline Area costs (DCG-LAN-32).
    pub(crate) fn offline_cost(&self, seat: Seat) -> u8 {
        self.z(seat).corruption.saturating_mul(2)
    }

    fn blockers(&self, a: &Attack) -> Vec<u16> {
        if self.find(a.attacker).is_none() {
            return Vec::new();
        }
        // DCG-LAN-18: only the attacked player blocks.
        let def = a.def;
        self.z(def)
            .field
            .iter()
            .filter(|p| {
                self.is_digimon(p)
                    && !p.suspended
                    && Some(p.id) != a.target
                    && self.has(def, p, Keyword::Blocker)
                    && !self.forbidden(def, p, Deed::Block)
            })
            .map(|p| p.id)
            .collect()
    }

    fn raid_targets(&self, a: &Attack) -> Vec<u16> {
        let def = a.def;
        let open: Vec<(&Perm, u32)> = self
            .z(def)
            .field
            .iter()
            .filter(|p| self.is_digimon(p) && !p.suspended)
            .map(|p| (p, self.dp(def, p)))
            .collect();
        let best = open.iter().map(|(_, d)| *d).max().unwrap_or(0);
        open.into_iter()
            .filter(|(p, d)| *d == best && Some(p.id) != a.target)
            .map(|(p, _)| p.id)
            .collect()
    }

    /// The ways the Digimon asked about may be saved (DCG-KW-16, -17, -20).
    pub(crate) fn saves(&self) -> Vec<Save> {
        let Some(Proc::Delete(d)) = self.procs.last() else {
            return Vec::new();
        };
        let Some(&id) = d.ids.get(d.asked) else {
            return Vec::new();
        };
        let Some((s, p)) = self.find(id) else {
            return Vec::new();
        };
        let mut v = Vec::new();
        if !p.suspended && self.has(s, p, Keyword::Evade) {
            v.push(Save::Evade);
        }
        if p.cards.len() > 1 && self.has(s, p, Keyword::ArmorPurge) {
            v.push(Save::ArmorPurge);
        }
        if matches!(d.cause, Cause::Effect(by) if by != s) {
            let colours = &self.info(p.top()).colors;
            for q in &self.z(s).field {
                if q.id != id
                    && !d.ids.contains(&q.id)
                    && self.has_decoy(s, q).is_some_and(|c| colours.contains(&c))
                {
                    v.push(Save::Decoy(q.id));
                }
            }
        }
        v
    }

    // ----- applying an action -----

    /// Applies an action; an illegal one changes nothing.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, IllegalAction> {
        if self.outcome.is_some() {
            return Err(illegal(seat, "the game is over"));
        }
        if action == Action::Concede {
            // DCG-WIN-5: at any time, at once, nothing triggers.
            if seat.index() >= self.seats.len() {
                return Err(illegal(seat, "no such seat"));
            }
            if self.z(seat).defeated {
                return Err(illegal(seat, "you are out of the game already"));
            }
            self.log.clear();
            self.lose(seat, format!("{seat} conceded"));
            self.advance();
            return Ok(std::mem::take(&mut self.log));
        }
        if !self.is_legal(seat, action) {
            return Err(illegal(seat, self.why_not(seat, action).to_string()));
        }
        self.log.clear();
        self.act(seat, action);
        self.advance();
        Ok(std::mem::take(&mut self.log))
    }

    /// Why an action is refused, in the rules' words, and of what kind (a
    /// step reader says more of a rule than of whose move it is).
    pub(crate) fn why_not(&self, seat: Seat, action: Action) -> WhyNot {
        let Some((s, ask)) = self.asked() else {
            return WhyNot::NotYours("nothing is asked now".into());
        };
        // A block by a Digimon an effect forbids to block (DCG-EFF-4).
        if let Action::Block { blocker } = action
            && let Some(p) = self.z(seat).field.iter().find(|p| p.id == blocker)
            && !p.suspended
            && self.has(seat, p, Keyword::Blocker)
            && self.forbidden(seat, p, Deed::Block)
        {
            return format!(
                "{} can't block: an effect forbids it, and a prohibition wins over <Blocker> (DCG-EFF-4)",
                self.info(p.top()).name
            )
            .into();
        }
        if s != seat {
            // A block by a suspended Digimon: no block was asked for it.
            if let Action::Block { blocker } = action
                && let Some(p) = self.z(seat).field.iter().find(|p| p.id == blocker)
                && p.suspended
            {
                return format!(
                    "{} is suspended: only an unsuspended Digimon with <Blocker> may block, so no block was asked (DCG-ATK-8)",
                    self.info(p.top()).name
                ).into();
            }
            // A block by anyone but the player attacked (DCG-ATK-8; at 3
            // and 4 seats the others are not asked, DCG-LAN-18).
            if let Action::Block { .. } = action
                && ask == Ask::Block
            {
                let rule = if self.seats.len() > 2 {
                    "DCG-ATK-8, DCG-LAN-18"
                } else {
                    "DCG-ATK-8"
                };
                return format!(
                    "only the player attacked may block, and that is {s}, asked now whether to block ({rule})"
                ).into();
            }
            return WhyNot::NotYours(format!("it is {s}'s move ({})", ask.what()));
        }
        let z = self.z(seat);
        let card = |i: u8| z.hand.get(usize::from(i)).map(|&c| self.info(c));
        let name = |id: u16| {
            z.breeding
                .iter()
                .chain(&z.field)
                .find(|p| p.id == id)
                .map(|p| (seat, p))
                .or_else(|| self.find(id))
                .map_or("that card".to_string(), |(_, p)| {
                    self.info(p.top()).name.clone()
                })
        };
        // Breeding-phase actions asked for at another time, or the wrong way.
        let phase = || {
            format!(
                "that is done in the breeding phase, once a turn (DCG-TURN-6); the question now is {}",
                ask.what()
            )
        };
        match action {
            Action::Keep | Action::Mulligan if ask != Ask::Mulligan => {
                return "the opening hands are settled: the mulligan is taken once, before the first turn (DCG-SETUP-4)".into();
            }
            Action::Hatch => {
                return match (&z.breeding, z.eggs.is_empty()) {
                    (Some(b), _) => format!(
                        "your breeding area already holds {}, and it holds one Digimon (DCG-TURN-7, DCG-BREED-1)",
                        self.info(b.top()).name
                    ).into(),
                    (None, true) => "your Digi-Egg deck is empty (DCG-TURN-7)".into(),
                    _ => phase().into(),
                };
            }
            Action::MoveOut => {
                return match &z.breeding {
                    None => "your breeding area is empty (DCG-TURN-8)".into(),
                    Some(b) if self.info(b.top()).level < 3 => format!(
                        "{} is level {}; only a level 3 or higher Digimon moves out of the breeding area (DCG-TURN-8)",
                        self.info(b.top()).name,
                        self.info(b.top()).level
                    ).into(),
                    Some(_) => phase().into(),
                };
            }
            Action::StayBreeding if ask != Ask::Breeding => return phase().into(),
            Action::Play { .. }
            | Action::UseOption { .. }
            | Action::Digivolve { .. }
            | Action::Attack { .. }
            | Action::TrashDelay { .. }
                if ask != Ask::Main =>
            {
                return format!(
                    "that is a main-phase action, taken when nothing else is asked (DCG-MAIN-1); the question now is {}",
                    ask.what()
                ).into();
            }
            _ => {}
        }
        match (ask, action) {
            (Ask::Main, Action::Play { card: i }) | (Ask::Main, Action::UseOption { card: i }) => {
                match card(i) {
                    None => format!("there is no card {} in your hand", u16::from(i) + 1).into(),
                    Some(c) if c.kind == DcgKind::DigiEgg => {
                        "a Digi-Egg is hatched in the breeding phase, not played".into()
                    }
                    Some(c) if !self.can_pay(c.cost) => format!(
                        "{} costs {} and you have {} memory; a cost may take the gauge no further than 10 on your opponent's side (DCG-MEM-3)",
                        c.name, c.cost, self.memory
                    ).into(),
                    Some(c) if c.kind == DcgKind::Option && matches!(action, Action::Play { .. }) => {
                        format!("{} is an Option: it is used, not played", c.name).into()
                    }
                    Some(c) if c.kind == DcgKind::Option => format!(
                        "{} needs a Digimon or Tamer of each of its colours ({}) in your battle or breeding area (DCG-MAIN-9)",
                        c.name,
                        c.colors
                            .iter()
                            .map(|c| c.word())
                            .collect::<Vec<_>>()
                            .join(" and ")
                    ).into(),
                    Some(c) => format!("{} is a {}: it is played, not used", c.name, c.kind).into(),
                }
            }
            (Ask::Main, Action::Digivolve { card: i, onto }) => {
                let Some(c) = card(i) else {
                    return format!("there is no card {} in your hand", u16::from(i) + 1).into();
                };
                let target = z.breeding.iter().chain(&z.field).find(|p| p.id == onto);
                match target {
                    None => "that is not one of your Digimon".into(),
                    Some(p) => match self.digivolve_cost(self.z(seat).hand[usize::from(i)], p) {
                        None => format!(
                            "{} digivolves from {}; {} is a level {} {} Digimon: the level and a colour must match (DCG-MAIN-5)",
                            c.name,
                            c.digivolve
                                .iter()
                                .map(|d| format!("a level {} {} Digimon", d.level, d.color))
                                .collect::<Vec<_>>()
                                .join(" or "),
                            self.info(p.top()).name,
                            self.info(p.top()).level,
                            self.info(p.top())
                                .colors
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join("/")
                        ).into(),
                        Some(cost) => format!(
                            "digivolving costs {cost} and you have {} memory (DCG-MEM-3)",
                            self.memory
                        ).into(),
                    },
                }
            }
            (Ask::Main, Action::Attack { attacker, target }) => {
                let Some(p) = z.field.iter().find(|p| p.id == attacker) else {
                    return format!(
                        "{} is in the breeding area, and a Digimon there cannot attack (DCG-BREED-2)",
                        name(attacker)
                    ).into();
                };
                if let Some(why) = self.cannot_attack(seat, p) {
                    return format!("{} cannot attack: {why}", self.info(p.top()).name).into();
                }
                match target.and_then(|t| self.find(t)) {
                    Some((owner, t)) if owner != self.opponent(seat) && owner != seat => format!(
                        "{} is {owner}'s, and {owner} is not your Target Opponent ({}): you may attack only your Target Opponent and its suspended Digimon (DCG-LAN-16)",
                        self.info(t.top()).name,
                        self.opponent(seat)
                    ).into(),
                    Some((_, t)) if !self.is_digimon(t) => format!(
                        "{} is a {}; only the player or a suspended Digimon may be attacked (DCG-ATK-4)",
                        self.info(t.top()).name,
                        self.info(t.top()).kind
                    ).into(),
                    Some((_, t)) if !t.suspended => format!(
                        "{} is unsuspended; only a suspended Digimon may be attacked (DCG-ATK-4)",
                        self.info(t.top()).name
                    ).into(),
                    _ => "that attack is not possible now".into(),
                }
            }
            (Ask::Block, Action::Block { .. }) => {
                "only an unsuspended Digimon with <Blocker> that is not the attack's target may block (DCG-ATK-8, DCG-ATK-9)".into()
            }
            (Ask::Breeding, Action::Hatch) => {
                "you may hatch only with an empty breeding area and a Digi-Egg left (DCG-TURN-7)".into()
            }
            (Ask::Breeding, Action::MoveOut) => {
                "only a level 3 or higher Digimon moves out of the breeding area (DCG-TURN-8)".into()
            }
            (Ask::Choose(_), Action::Done) => {
                "choose at least one: \"up to\" takes 1 or more when any can be chosen (DCG-EFF-22)".into()
            }
            (Ask::Choose(_), Action::Choose { .. }) => {
                "that Digimon is not one the effect may choose".into()
            }
            (Ask::Main, Action::Target { seat: to }) => {
                if !self.lan() {
                    "at 2 seats your opponent is the other player: there is no Target Opponent to switch".into()
                } else if to == seat {
                    "your Target Opponent is another remaining player, never yourself (DCG-LAN-11)".into()
                } else if to.index() >= self.seats.len() {
                    format!("there is no {to} at this table").into()
                } else if self.z(to).defeated {
                    format!("{to} is out of the game: only a remaining player can be your Target Opponent (DCG-LAN-11)").into()
                } else if to.index() == usize::from(self.z(seat).target) {
                    format!("{to} is already your Target Opponent").into()
                } else {
                    format!("you can't switch to {to} now (DCG-LAN-12)").into()
                }
            }
            (Ask::Main, Action::TrashDelay { id }) => {
                match self.z(seat).field.iter().find(|p| p.id == id) {
                    None => "that card is not in your battle area".into(),
                    Some(p) if self.info(p.top()).kind != DcgKind::Option => {
                        "only an Option placed in your battle area by <Delay> is trashed for its effect (DCG-KW-15)".into()
                    }
                    Some(_) => "<Delay> can't be used the turn its card was placed: trash it in the main phase of a later turn (DCG-KW-15)".into(),
                }
            }
            (ask, _) => WhyNot::OtherQuestion(format!("the question now is {}", ask.what())),
        }
    }

    fn act(&mut self, seat: Seat, action: Action) {
        match action {
            Action::Keep | Action::Mulligan => {
                if action == Action::Mulligan {
                    let z = self.zm(seat);
                    let mut hand = std::mem::take(&mut z.hand);
                    z.deck.append(&mut hand);
                    let mut deck = std::mem::take(&mut self.zm(seat).deck);
                    self.rng.shuffle(&mut deck);
                    self.zm(seat).deck = deck;
                    self.emit(Event::Settled {
                        seat,
                        mulligan: true,
                    });
                    self.draw(seat, HAND);
                } else {
                    self.emit(Event::Settled {
                        seat,
                        mulligan: false,
                    });
                }
                self.zm(seat).settled = true;
            }
            Action::Hatch => {
                self.zm(seat).open_egg = false;
                if let Some(c) = self.zm(seat).eggs.pop() {
                    let p = self.new_perm(vec![c]);
                    self.zm(seat).breeding = Some(p);
                    self.emit(Event::Hatched {
                        seat,
                        card: self.info(c).number,
                    });
                }
                self.phase = Phase::Main;
            }
            Action::MoveOut => {
                if let Some(p) = self.zm(seat).breeding.take() {
                    self.emit(Event::MovedOut {
                        seat,
                        card: self.info(p.top()).number,
                    });
                    self.zm(seat).field.push(p);
                }
                self.phase = Phase::Main;
            }
            Action::StayBreeding => self.phase = Phase::Main,
            Action::Play { card } => {
                let c = self.zm(seat).hand.remove(usize::from(card));
                let cost = self.info(c).cost;
                self.emit(Event::Played {
                    seat,
                    card: self.info(c).number,
                    cost,
                });
                self.pay(seat, cost);
                self.enter_play(seat, c);
            }
            Action::Digivolve { card, onto } => {
                let c = self.z(seat).hand[usize::from(card)];
                let z = self.z(seat);
                let Some(p) = z.breeding.iter().chain(&z.field).find(|p| p.id == onto) else {
                    return;
                };
                let cost = self.digivolve_cost(c, p).unwrap_or(0);
                let from = self.info(p.top()).number;
                self.zm(seat).hand.remove(usize::from(card));
                let z = self.zm(seat);
                if let Some(p) = z
                    .breeding
                    .iter_mut()
                    .chain(z.field.iter_mut())
                    .find(|p| p.id == onto)
                {
                    p.cards.push(c);
                }
                self.emit(Event::Digivolved {
                    seat,
                    from,
                    to: self.info(c).number,
                    cost,
                });
                self.pay(seat, cost);
                // DCG-MAIN-6: the bonus draw, then [When Digivolving].
                self.draw(seat, 1);
                let in_breeding = self.z(seat).breeding.as_ref().is_some_and(|b| b.id == onto);
                if !in_breeding {
                    self.trigger_timing(seat, onto, Timing::WhenDigivolving, false);
                }
            }
            Action::UseOption { card } => {
                let c = self.zm(seat).hand.remove(usize::from(card));
                let cost = self.info(c).cost;
                self.emit(Event::UsedOption {
                    seat,
                    card: self.info(c).number,
                    cost,
                });
                self.pay(seat, cost);
                self.use_option(seat, c);
            }
            Action::TrashDelay { id } => {
                let z = self.zm(seat);
                if let Some(at) = z.field.iter().position(|p| p.id == id) {
                    let p = z.field.remove(at);
                    z.trash.extend(p.cards.iter().copied());
                    let c = p.top();
                    let cards = self.cards.clone();
                    for (slot, a) in cards[usize::from(c)].effects.iter().enumerate() {
                        if a.timing == Timing::MainDelay {
                            self.wait([Trig {
                                owner: seat,
                                source: Source::Card,
                                card: c,
                                slot: slot as u8,
                                inherited: false,
                                group: 0,
                            }]);
                        }
                    }
                }
            }
            Action::Attack { attacker, target } => {
                if let Some(Proc::Attack(a)) = self.procs.last_mut()
                    && a.stage == AttackStage::Blitz
                {
                    self.procs.pop();
                }
                if let Some(p) = self.find_mut(attacker) {
                    p.suspended = true;
                }
                let (a_card, t_card) = (
                    self.find(attacker).map(|(_, p)| self.info(p.top()).number),
                    target.and_then(|t| self.find(t).map(|(_, p)| self.info(p.top()).number)),
                );
                let def = self.opponent(seat);
                if let Some(a_card) = a_card {
                    self.emit(Event::Attacked {
                        seat,
                        attacker: a_card,
                        target: t_card,
                        player: (self.lan() && target.is_none()).then_some(def),
                    });
                }
                self.procs.push(Proc::Attack(Attack {
                    attacker,
                    seat,
                    def,
                    target,
                    stage: AttackStage::Declared,
                    blocked: false,
                    alliance: None,
                    revealed: None,
                    offers: Vec::new(),
                    declared: false,
                }));
            }
            Action::Pass => {
                self.emit(Event::Passed(seat));
                self.memory = -PASS_MEMORY;
                self.emit(Event::Memory {
                    seat,
                    memory: self.memory,
                    banked: self.lan(),
                });
            }
            Action::Block { blocker } => {
                if let Some(p) = self.find_mut(blocker) {
                    p.suspended = true;
                }
                let card = self.find(blocker).map(|(_, p)| self.info(p.top()).number);
                if let Some(Proc::Attack(a)) = self.procs.last_mut() {
                    a.target = Some(blocker);
                    a.blocked = true;
                    a.stage = AttackStage::Confirm;
                }
                if let Some(card) = card {
                    self.emit(Event::Blocked {
                        seat,
                        blocker: card,
                    });
                }
                self.trigger_timing_when(seat, blocker, Happening::ThisBlocks);
            }
            Action::NoBlock => {
                if let Some(Proc::Attack(a)) = self.procs.last_mut() {
                    a.stage = AttackStage::Confirm;
                }
            }
            Action::Order { index } => {
                if let Some(&at) = self.next_waiting().get(usize::from(index)) {
                    let t = self.pending.remove(at);
                    self.start_waiting(t);
                }
            }
            Action::Evade => self.save(seat, Save::Evade),
            Action::ArmorPurge => self.save(seat, Save::ArmorPurge),
            Action::Decoy { id } => self.save(seat, Save::Decoy(id)),
            Action::Yes | Action::No if self.offer.is_some() => {
                self.answer_corruption(action == Action::Yes);
            }
            Action::Yes | Action::No => self.answer_yes_no(seat, action == Action::Yes),
            Action::Target { seat: target } => {
                self.zm(seat).target = target.index() as u8;
                self.emit(Event::Targeted { seat, target });
                self.leave_window();
            }
            Action::KeepTarget => self.leave_window(),
            Action::TakeOffline { card } => self.take_offline(seat, card),
            Action::Concede => {}
            Action::Choose { id } => self.answer_choose(seat, id),
            Action::Done => {
                if let Some(Proc::Resolve(_)) = self.procs.last() {
                    self.finish_effect();
                }
            }
        }
    }

    /// The before- or after-turn switch is answered: the turn goes on.
    fn leave_window(&mut self) {
        match self.phase {
            Phase::AfterTurn => self.phase = Phase::Turnover,
            Phase::BeforeTurn => self.phase = Phase::Opens,
            _ => {}
        }
    }

    /// DCG-LAN-32: a card of the Offline Area to the hand (a Digi-Egg to
    /// the breeding area, or face up on top of the Digi-Egg deck).
    fn take_offline(&mut self, seat: Seat, at: u8) {
        let cost = self.offline_cost(seat);
        let Some(c) = self.z(seat).offline.get(usize::from(at)).copied() else {
            return;
        };
        self.zm(seat).offline.remove(usize::from(at));
        self.emit(Event::TookOffline {
            seat,
            card: self.info(c).number,
            cost,
        });
        if self.info(c).kind == DcgKind::DigiEgg {
            if self.z(seat).breeding.is_none() {
                let p = self.new_perm(vec![c]);
                self.zm(seat).breeding = Some(p);
            } else {
                // L18, L19: on top, face up; the rule's own move asks no
                // Corruption.
                let z = self.zm(seat);
                z.eggs.push(c);
                z.open_egg = true;
                if let Some(i) = z.players.iter().position(|p| *p == c) {
                    z.watched[i] = z.watched[i].saturating_add(1);
                }
            }
        } else {
            self.zm(seat).hand.push(c);
        }
        self.pay(seat, cost);
    }

    /// How many of a seat's Player card `c` lie in its trash or decks.
    fn player_card_count(&self, seat: Seat, c: Cid) -> u8 {
        let z = self.z(seat);
        z.trash
            .iter()
            .chain(&z.deck)
            .chain(&z.eggs)
            .filter(|x| **x == c)
            .count()
            .min(255) as u8
    }

    /// L19: a Player card that has just gone to the trash or a deck makes
    /// its owner an offer (true when one is made).
    fn look_for_offers(&mut self) -> bool {
        if self.offer.is_some() {
            return true;
        }
        for s in Seat::all(self.seats.len()) {
            if self.z(s).defeated {
                continue;
            }
            for i in 0..self.z(s).players.len() {
                let c = self.z(s).players[i];
                let now = self.player_card_count(s, c);
                let was = self.z(s).watched[i];
                if now > was && !self.z(s).offline.contains(&c) {
                    self.offer = Some((s, c));
                    return true;
                }
                self.zm(s).watched[i] = now;
            }
        }
        false
    }

    /// DCG-LAN-33: yes, 1 Corruption and the card to the Offline Area; no,
    /// it stays where it went.
    fn answer_corruption(&mut self, yes: bool) {
        let Some((s, c)) = self.offer.take() else {
            return;
        };
        if yes {
            let z = self.zm(s);
            let from_top_egg = z.eggs.last() == Some(&c);
            let removed =
                [&mut z.trash, &mut z.deck, &mut z.eggs]
                    .into_iter()
                    .any(|zone| match zone.iter().rposition(|x| *x == c) {
                        Some(at) => {
                            zone.remove(at);
                            true
                        }
                        None => false,
                    });
            if removed {
                if from_top_egg {
                    z.open_egg = false;
                }
                z.offline.push(c);
                z.corruption = z.corruption.saturating_add(1);
                let total = z.corruption;
                self.emit(Event::Corrupted {
                    seat: s,
                    card: self.info(c).number,
                    total,
                });
            }
        }
        if let Some(i) = self.z(s).players.iter().position(|p| *p == c) {
            let now = self.player_card_count(s, c);
            self.zm(s).watched[i] = now;
        }
    }

    /// "When this Digimon blocks": the blocker's own watching effects.
    fn trigger_timing_when(&mut self, seat: Seat, id: u16, h: Happening) {
        let Some((_, p)) = self.find(id) else { return };
        let found = self.trigs_of(seat, p, Source::Perm(id), |a, _| {
            a.trigger == Some(Trigger::When(h)) && self.timing_on(a.timing, seat)
        });
        self.wait(found);
    }

    fn pay(&mut self, seat: Seat, cost: u8) {
        if cost > 0 {
            self.gain(seat, -(cost.min(20) as i8));
        }
    }

    /// A Digimon or Tamer enters the battle area: [On Play] and "when an
    /// opponent's Digimon is played" wait (DCG-MAIN-2, DCG-EFF-6).
    fn enter_play(&mut self, seat: Seat, c: Cid) {
        let p = self.new_perm(vec![c]);
        let id = p.id;
        self.zm(seat).field.push(p);
        self.trigger_timing(seat, id, Timing::OnPlay, false);
        if self.info(c).kind == DcgKind::Digimon {
            let watchers = self.opponents_of(seat);
            self.trigger_when(&watchers, Happening::OpponentPlays, None);
        }
    }

    fn use_option(&mut self, seat: Seat, c: Cid) {
        let effects = &self.info(c).effects;
        let delay = effects.iter().any(|a| a.timing == Timing::MainDelay);
        let mains: Vec<u8> = effects
            .iter()
            .enumerate()
            .filter(|(_, a)| a.timing == Timing::Main)
            .map(|(i, _)| i as u8)
            .collect();
        if delay {
            // DCG-KW-15: placed in the battle area, its effect later.
            let p = self.new_perm(vec![c]);
            self.zm(seat).field.push(p);
        } else {
            self.zm(seat).trash.push(c);
        }
        self.resolve_now(seat, c, &mains);
    }

    /// A waiting effect starts to resolve: what it triggers is newer.
    fn start_waiting(&mut self, t: Trig) {
        self.group += 1;
        self.start_resolving(t);
    }

    /// Effects of a card out of play (an Option used, a security card)
    /// resolve now, in their printed order.
    fn resolve_now(&mut self, owner: Seat, card: Cid, slots: &[u8]) {
        for &slot in slots.iter().rev() {
            self.start_resolving(Trig {
                owner,
                source: Source::Card,
                card,
                slot,
                inherited: false,
                group: 0,
            });
        }
    }

    fn start_resolving(&mut self, t: Trig) {
        self.procs.push(Proc::Resolve(Resolving {
            trig: t,
            at: 0,
            agreed: false,
            checked: false,
            chosen: Vec::new(),
        }));
    }

    fn answer_yes_no(&mut self, seat: Seat, yes: bool) {
        match self.procs.last_mut() {
            Some(Proc::Resolve(r)) => {
                if yes {
                    r.agreed = true;
                } else {
                    let t = r.trig;
                    self.procs.pop();
                    self.emit(Event::Declined {
                        seat,
                        card: self.info(t.card).number,
                    });
                }
            }
            Some(Proc::Delete(d)) => {
                // No: the deletion stands for this one.
                d.asked += 1;
            }
            Some(Proc::Attack(a)) => {
                if a.stage == AttackStage::Blitz {
                    // <Blitz> declined: no attack.
                    self.procs.pop();
                } else {
                    a.stage = AttackStage::Declared;
                }
            }
            None => {}
        }
    }

    fn answer_choose(&mut self, seat: Seat, id: u16) {
        match self.procs.last_mut() {
            Some(Proc::Resolve(r)) => {
                r.chosen.push(id);
                let r = r.clone();
                let a = self.ability(&r.trig);
                let Some(t) = a.effects.get(usize::from(r.at)).and_then(target_of) else {
                    return;
                };
                let want = match t {
                    Target::Choose {
                        count: Count::Exactly(n) | Count::UpTo(n),
                        ..
                    } => usize::from(*n),
                    _ => 1,
                };
                if r.chosen.len() >= want || self.candidates(&r, t).is_empty() {
                    self.finish_effect();
                }
            }
            Some(Proc::Delete(_)) => {}
            Some(Proc::Attack(a)) => match a.stage {
                AttackStage::Offer(Keyword::Alliance) => {
                    let partner_dp = self.find(id).map_or(0, |(s, p)| self.dp(s, p));
                    let card = self.find(id).map(|(_, p)| self.info(p.top()).number);
                    if let Some(p) = self.find_mut(id) {
                        p.suspended = true;
                    }
                    if let Some(Proc::Attack(a)) = self.procs.last_mut() {
                        a.alliance = Some((partner_dp / 1000) as i32);
                        a.stage = AttackStage::Declared;
                    }
                    if let Some(card) = card {
                        self.emit(Event::Suspended {
                            seat,
                            card,
                            suspended: true,
                        });
                    }
                }
                _ => {
                    let card = self.find(id).map(|(_, p)| self.info(p.top()).number);
                    if let Some(Proc::Attack(a)) = self.procs.last_mut() {
                        a.target = Some(id);
                        a.stage = AttackStage::Declared;
                    }
                    if let Some(target) = card {
                        self.emit(Event::Redirected { target });
                    }
                }
            },
            None => {}
        }
    }

    fn save(&mut self, seat: Seat, save: Save) {
        let Some(Proc::Delete(d)) = self.procs.last_mut() else {
            return;
        };
        let id = d.ids.remove(d.asked);
        let card = self.find(id).map(|(_, p)| self.info(p.top()).number);
        match save {
            Save::Evade => {
                if let Some(p) = self.find_mut(id) {
                    p.suspended = true;
                }
                if let Some(card) = card {
                    self.emit(Event::Saved {
                        seat,
                        card,
                        by: Keyword::Evade,
                    });
                }
            }
            Save::ArmorPurge => {
                let mut top = None;
                if let Some(p) = self.find_mut(id) {
                    top = p.cards.pop();
                }
                if let Some(t) = top {
                    self.zm(seat).trash.push(t);
                }
                if let Some(card) = card {
                    self.emit(Event::Saved {
                        seat,
                        card,
                        by: Keyword::ArmorPurge,
                    });
                }
            }
            Save::Decoy(other) => {
                if let Some(card) = card {
                    let colour = self
                        .find(other)
                        .and_then(|(s, p)| self.has_decoy(s, p))
                        .unwrap_or(crate::effects::dcg::Color::Black);
                    self.emit(Event::Saved {
                        seat,
                        card,
                        by: Keyword::Decoy(colour),
                    });
                }
                if let Some(Proc::Delete(d)) = self.procs.last_mut() {
                    // The decoy is deleted in its place (and is not asked).
                    d.ids.insert(d.asked, other);
                    d.asked += 1;
                }
            }
        }
    }

    // ----- running until a question -----

    /// Runs everything that needs no answer, up to the next question.
    pub(crate) fn advance(&mut self) {
        let players_format = self.setup.format == Format::Players;
        for _ in 0..10_000 {
            if self.outcome.is_some() {
                self.phase = Phase::Over;
                return;
            }
            if players_format && self.look_for_offers() {
                return;
            }
            // Read in place; copied only where a step needs its own copy.
            match self.procs.last() {
                Some(Proc::Resolve(r)) => {
                    let r = r.clone();
                    if !self.step_resolve(r) {
                        return;
                    }
                    continue;
                }
                Some(Proc::Delete(d)) => {
                    if !d.interrupted {
                        let ids = d.ids.clone();
                        if let Some(Proc::Delete(x)) = self.procs.last_mut() {
                            x.interrupted = true;
                        }
                        self.interrupt(&ids);
                        continue;
                    }
                    if d.asked < d.ids.len() {
                        if self.saves().is_empty() {
                            if let Some(Proc::Delete(d)) = self.procs.last_mut() {
                                d.asked += 1;
                            }
                            continue;
                        }
                        return;
                    }
                    if let Some(Proc::Delete(d)) = self.procs.pop() {
                        self.delete_now(&d.ids, d.cause);
                    }
                    continue;
                }
                Some(Proc::Attack(_)) | None => {}
            }
            // Between processes: rule processing after what resolved
            // (DCG-RP-1), then the waiting effects (DCG-EFF-15, -16).
            if self.rule_processing() {
                continue;
            }
            if self.engine >= 2 && !self.pending.is_empty() {
                // DCG-EFF-25: pending effects of cards that left play are
                // neither activated nor offered for ordering.
                let seats = &self.seats;
                self.pending.retain(|t| match t.source {
                    Source::Perm(id) => seats.iter().any(|z| z.field.iter().any(|p| p.id == id)),
                    Source::Card => true,
                });
            }
            if !self.pending.is_empty() {
                let mine = self.next_waiting();
                let distinct = mine
                    .iter()
                    .map(|&i| {
                        (
                            self.pending[i].card,
                            self.pending[i].slot,
                            self.pending[i].inherited,
                        )
                    })
                    .collect::<std::collections::HashSet<_>>()
                    .len();
                if distinct <= 1 {
                    let t = self.pending.remove(mine[0]);
                    self.start_waiting(t);
                    continue;
                }
                return;
            }
            match self.procs.last() {
                Some(Proc::Attack(a)) => {
                    if !self.step_attack(a.clone()) {
                        return;
                    }
                    continue;
                }
                Some(_) => continue,
                None => {}
            }
            match self.phase {
                Phase::Opening => {
                    if !self.seats.iter().all(|z| z.settled || z.defeated) {
                        return;
                    }
                    self.deal_security();
                    let first = self.in_turn_order(self.first)[0];
                    self.begin_turn(first);
                }
                Phase::Over => return,
                Phase::AfterTurn => {
                    if !self.switch_targets(self.turn_player).is_empty()
                        && !self.z(self.turn_player).defeated
                    {
                        return;
                    }
                    self.phase = Phase::Turnover;
                }
                Phase::Turnover => {
                    let next = self.next_after(self.turn_player);
                    self.begin_turn(next);
                }
                Phase::BeforeTurn => {
                    if !self.switch_targets(self.turn_player).is_empty() {
                        return;
                    }
                    self.phase = Phase::Opens;
                }
                Phase::Opens => {
                    // DCG-LAN-28: [End of Opponent's Turn] effects, moved.
                    let tp = self.turn_player;
                    self.trigger_timing_field(tp, Timing::EndOfOpponentsTurn);
                    self.phase = Phase::Starting;
                }
                Phase::Starting => {
                    let tp = self.turn_player;
                    self.trigger_timing_field(tp, Timing::StartOfYourTurn);
                    self.phase = Phase::Start;
                }
                Phase::Start => self.unsuspend_and_draw(),
                Phase::Breeding => {
                    let z = self.z(self.turn_player);
                    let can_hatch = z.breeding.is_none() && !z.eggs.is_empty();
                    let can_move = z
                        .breeding
                        .as_ref()
                        .is_some_and(|b| self.info(b.top()).level >= 3);
                    if can_hatch || can_move {
                        return;
                    }
                    self.phase = Phase::Main;
                }
                Phase::Main => {
                    if self.memory < 0 {
                        // DCG-TURN-11: [End of Your Turn] effects wait, once a turn.
                        self.phase = Phase::Ending;
                        if self.used.contains(&END_OF_TURN) {
                            continue;
                        }
                        self.used.push(END_OF_TURN);
                        let tp = self.turn_player;
                        self.trigger_timing_field(tp, Timing::EndOfYourTurn);
                        if !self.lan() {
                            // DCG-TURN-11 (at 3 and 4 seats they move,
                            // DCG-LAN-28).
                            let opp = self.opponent(tp);
                            self.trigger_timing_field(opp, Timing::EndOfOpponentsTurn);
                        }
                        continue;
                    }
                    return;
                }
                Phase::Ending => {
                    if self.memory >= 0 {
                        // Decision 19: memory came back, the main phase goes on.
                        self.phase = Phase::Main;
                        return;
                    }
                    self.end_turn();
                }
            }
        }
        // A guard: a loop of effects without end is a draw.
        self.finish(Outcome::Draw, "the effects looped without end".into());
    }

    fn end_turn(&mut self) {
        let tp = self.turn_player;
        self.emit(Event::TurnEnded(tp));
        self.turn_dp.clear();
        self.turn_keywords.clear();
        self.turn_forbid.clear();
        self.used.clear();
        if self.lan() {
            // DCG-LAN-5, L7: X into each other player's lowest bank.
            let x = u8::try_from(-i16::from(self.memory))
                .unwrap_or(0)
                .min(BANK_MOST);
            for s in self.in_turn_order(tp).into_iter().skip(1) {
                let z = self.zm(s);
                if let Some(at) = (0..z.banks.len()).min_by_key(|&i| (z.banks[i], i))
                    && z.banks[at] < x
                {
                    z.banks[at] = x;
                    let banks = z.banks.clone();
                    self.emit(Event::Banks { seat: s, banks });
                }
            }
            self.phase = Phase::AfterTurn;
            return;
        }
        let next = self.opponent(tp);
        self.memory = -self.memory;
        self.begin_turn(next);
    }

    /// Security is dealt (DCG-SETUP-5: one card at a time, the deck's top
    /// card ends at the bottom; 6 at 3 and 4 seats, DCG-LAN-3).
    fn deal_security(&mut self) {
        let count = if self.lan() { SECURITY_LAN } else { SECURITY };
        for s in Seat::all(self.seats.len()) {
            if self.z(s).defeated {
                continue;
            }
            for _ in 0..count {
                if let Some(c) = self.zm(s).deck.pop() {
                    self.zm(s).security.push(c);
                }
            }
        }
        self.emit(if self.lan() {
            Event::SecurityOf(count as u8)
        } else {
            Event::SecuritySet
        });
    }

    fn begin_turn(&mut self, seat: Seat) {
        self.turn += 1;
        self.turn_player = seat;
        if self.turn > TURN_LIMIT {
            self.finish(
                Outcome::Draw,
                format!("{TURN_LIMIT} turns were played without a winner"),
            );
            return;
        }
        if self.lan() {
            // DCG-LAN-6: memory from the largest bank, which goes back to 1.
            let z = self.zm(seat);
            let at = (0..z.banks.len()).max_by_key(|&i| (z.banks[i], std::cmp::Reverse(i)));
            let memory = at.map_or(0, |i| z.banks[i]);
            if let Some(i) = at {
                z.banks[i] = 1;
            }
            let banks = z.banks.clone();
            self.memory = memory.min(BANK_MOST) as i8;
            self.emit(Event::TurnBegan {
                seat,
                turn: self.turn,
                memory: self.memory,
            });
            self.emit(Event::Banks { seat, banks });
            self.phase = Phase::BeforeTurn;
            return;
        }
        self.emit(Event::TurnBegan {
            seat,
            turn: self.turn,
            memory: self.memory,
        });
        // DCG-TURN-2: [Start of Your Turn] effects wait; the unsuspend
        // and draw phases follow once they have resolved.
        self.trigger_timing_field(seat, Timing::StartOfYourTurn);
        self.phase = Phase::Start;
    }

    /// The unsuspend and draw phases.
    fn unsuspend_and_draw(&mut self) {
        let seat = self.turn_player;
        // DCG-TURN-3 (and <Reboot> of the other side, DCG-KW-8).
        for s in Seat::all(self.seats.len()) {
            if s == seat {
                for p in &mut self.zm(s).field {
                    p.suspended = false;
                }
                continue;
            }
            let ids: Vec<u16> = self
                .z(s)
                .field
                .iter()
                .filter(|p| self.has(s, p, Keyword::Reboot))
                .map(|p| p.id)
                .collect();
            for id in ids {
                if let Some(p) = self.find_mut(id) {
                    p.suspended = false;
                }
            }
        }
        // DCG-TURN-4, DCG-SETUP-8, DCG-TURN-5.
        if self.turn != 1 {
            if self.z(seat).deck.is_empty() {
                self.emit(Event::DeckedOut(seat));
                self.lose(seat, format!("{seat} had to draw from an empty deck"));
                return;
            }
            self.draw(seat, 1);
        }
        self.phase = Phase::Breeding;
    }

    pub(crate) fn finish(&mut self, outcome: Outcome, why: String) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
            self.phase = Phase::Over;
            self.emit(Event::Over { outcome, why });
        }
    }

    /// Rule processing (DCG-RP-2): Digimon with 0 DP are deleted. True when
    /// it started something.
    fn rule_processing(&mut self) -> bool {
        // DCG-RP-3: a level 2 Digimon, or an Option no effect keeps, in a
        // battle area goes to the trash (not a deletion).
        // Last first (each card's own top card decides, so the order of
        // looking does not change what goes).
        let cards = &self.cards;
        for z in &mut self.seats {
            for at in (0..z.field.len()).rev() {
                if cards[usize::from(z.field[at].top())].stray {
                    let p = z.field.remove(at);
                    z.trash.extend(p.cards.iter().copied());
                }
            }
        }
        // A DP of 0 needs a loss of DP somewhere (every printed DP is 1000
        // or more): look only when there is one.
        let loss = self.turn_dp.iter().any(|(_, n)| *n < 0)
            || self.seats.iter().any(|z| {
                z.field
                    .iter()
                    .any(|p| p.cards.iter().any(|&c| self.info(c).continuous_minus))
            });
        if !loss {
            return false;
        }
        // The cards that change DP, found once for every figure.
        let sources: Vec<(Seat, &Perm)> = Seat::all(self.seats.len())
            .flat_map(|s| self.z(s).field.iter().map(move |q| (s, q)))
            .filter(|(_, q)| self.changes_dp(q))
            .collect();
        let mut zero = Vec::new();
        for s in Seat::all(self.seats.len()) {
            for p in &self.z(s).field {
                if self.is_digimon(p) && self.dp_among(s, p, sources.iter().copied()) == 0 {
                    zero.push(p.id);
                }
            }
        }
        if zero.is_empty() {
            return false;
        }
        self.procs.push(Proc::Delete(Deleting {
            ids: zero,
            cause: Cause::Rules,
            asked: 0,
            interrupted: false,
        }));
        true
    }

    /// DCG-EFF-19: "when … would be deleted" effects resolve at once,
    /// before the deletion (the turn player's first: pushed last).
    fn interrupt(&mut self, ids: &[u16]) {
        let mut found: Vec<Trig> = Vec::new();
        for s in Seat::all(self.seats.len()) {
            for p in &self.z(s).field {
                if !self.may_trigger(p) {
                    continue;
                }
                let target = ids.contains(&p.id);
                let other = ids
                    .iter()
                    .any(|id| *id != p.id && self.find(*id).is_some_and(|(o, _)| o == s));
                found.extend(self.trigs_of(s, p, Source::Perm(p.id), |a, _| {
                    let fires = match a.trigger {
                        Some(Trigger::WhenWould(Happening::ThisDeleted)) => target,
                        Some(Trigger::WhenWould(Happening::OtherOfYoursDeleted)) => other,
                        _ => false,
                    };
                    fires && self.timing_on(a.timing, s)
                }));
            }
        }
        // Pushed last resolves first: the turn player's, then the others'
        // in turn order.
        let (tp, n) = (self.turn_player.index(), self.seats.len());
        found.sort_by_key(|t| std::cmp::Reverse((t.owner.index() + n - tp) % n));
        for t in found {
            self.start_resolving(t);
        }
    }

    /// Deletes now (after the preventions were asked): to the trash, with
    /// their [On Deletion] and "when … is deleted" effects waiting.
    fn delete_now(&mut self, ids: &[u16], cause: Cause) {
        let mut gone = Vec::new();
        for &id in ids {
            let Some((s, p)) = self.find(id) else {
                continue;
            };
            let p = p.clone();
            // [On Deletion] reads the effects it had just before (DCG-EFF-9).
            let trigs = self.trigs_of(s, &p, Source::Card, |a, _| {
                (a.timing == Timing::OnDeletion && a.trigger.is_none())
                    || (a.trigger == Some(Trigger::When(Happening::ThisDeleted))
                        && self.timing_on(a.timing, s))
            });
            let retaliation = self.has(s, &p, Keyword::Retaliation);
            let z = self.zm(s);
            z.field.retain(|q| q.id != id);
            z.trash.extend(p.cards.iter().copied());
            self.emit(Event::Deleted {
                seat: s,
                card: self.info(p.top()).number,
            });
            self.wait(trigs);
            gone.push((s, id));
            // DCG-KW-11: <Retaliation>.
            if retaliation
                && let Cause::Battle(Some(other)) = cause
                && self.find(other).is_some()
                && !ids.contains(&other)
            {
                self.procs.push(Proc::Delete(Deleting {
                    ids: vec![other],
                    cause: Cause::Battle(None),
                    asked: 0,
                    interrupted: false,
                }));
            }
        }
        // DCG-EFF-18: one trigger for one event, however many it deleted.
        let mut seats: Vec<Seat> = gone.iter().map(|(s, _)| *s).collect();
        seats.dedup();
        for s in seats {
            self.trigger_when(&[s], Happening::OtherOfYoursDeleted, None);
        }
    }

    // ----- effects -----

    /// One step of the effect on top; false when a question waits.
    fn step_resolve(&mut self, r: Resolving) -> bool {
        // The ability is read in place (the card table is shared, not
        // copied).
        let cards = Arc::clone(&self.cards);
        let a = ability_in(&cards, &r.trig);
        let owner = r.trig.owner;
        // The card in play it comes from, if still in play (its id).
        let this = match r.trig.source {
            Source::Perm(id) => self.find(id).map(|(_, p)| p.id),
            Source::Card => None,
        };
        if !r.checked {
            // DCG-EFF-25 (engine 2): the Digimon or Tamer it waited on has
            // left play, so it does not activate (no event: nothing
            // happened).
            if self.engine >= 2 && matches!(r.trig.source, Source::Perm(_)) && this.is_none() {
                self.procs.pop();
                return true;
            }
            // DCG-EFF-13: (Once Per Turn); DCG-EFF-17: conditions now.
            let key = Match::once_key(&r.trig);
            let spent = a.once_per_turn && self.used.contains(&key);
            let p = this.and_then(|id| self.find(id)).map(|(_, p)| p);
            let holds = a.conditions.iter().all(|c| self.holds(owner, p, c));
            if spent || !holds {
                // DCG-EFF-17: it does not activate (no event: nothing happened).
                self.procs.pop();
                return true;
            }
            if a.once_per_turn {
                self.used.push(key);
            }
            // An optional effect with nothing it could act on is not asked.
            let idle = a.optional
                && a.effects.iter().all(|e| {
                    matches!(target_of(e), Some(t @ Target::Choose { .. }) if self.candidates(&r, t).is_empty())
                });
            if idle {
                self.procs.pop();
                return true;
            }
            if let Some(Proc::Resolve(top)) = self.procs.last_mut() {
                top.checked = true;
                top.agreed = !a.optional;
            }
            if !self.quiet {
                self.log.push(Event::Effect {
                    seat: owner,
                    card: self.info(r.trig.card).number,
                    text: text_in(&cards, &r.trig).to_string(),
                });
            }
            return true;
        }
        if !r.agreed {
            return false;
        }
        let Some(e) = a.effects.get(usize::from(r.at)) else {
            self.procs.pop();
            return true;
        };
        if let Some(t) = target_of(e) {
            match t {
                Target::This => {
                    let Some(id) = this else {
                        self.finish_effect();
                        return true;
                    };
                    if !r.chosen.contains(&id) {
                        if let Some(Proc::Resolve(top)) = self.procs.last_mut() {
                            top.chosen = vec![id];
                        }
                        return true;
                    }
                }
                Target::Choose { count, .. } => {
                    let cands = self.candidates(&r, t);
                    let done = match count {
                        Count::All => {
                            if let Some(Proc::Resolve(top)) = self.procs.last_mut() {
                                top.chosen.extend(cands.iter().copied());
                            }
                            true
                        }
                        Count::Exactly(n) | Count::UpTo(n) => {
                            let n = usize::from(*n);
                            if cands.is_empty() || r.chosen.len() >= n {
                                true
                            } else if matches!(count, Count::Exactly(_))
                                && r.chosen.len() + cands.len() <= n
                            {
                                // As many as possible, no choice left (DCG-EFF-22).
                                if let Some(Proc::Resolve(top)) = self.procs.last_mut() {
                                    top.chosen.extend(cands.iter().copied());
                                }
                                true
                            } else {
                                false
                            }
                        }
                    };
                    if !done {
                        return false;
                    }
                }
            }
        }
        self.finish_effect();
        true
    }

    /// Carries out the effect on top with the Digimon chosen, and moves on.
    fn finish_effect(&mut self) {
        let Some(Proc::Resolve(r)) = self.procs.last().cloned() else {
            return;
        };
        let cards = Arc::clone(&self.cards);
        let a = ability_in(&cards, &r.trig);
        if let Some(e) = a.effects.get(usize::from(r.at)) {
            if let Some(Proc::Resolve(top)) = self.procs.last_mut() {
                top.at += 1;
                top.chosen.clear();
            }
            let at_before = self.procs.len();
            self.carry_out(&r, e, a);
            // A deletion the effect started runs before the next effect.
            let _ = at_before;
        }
        if let Some(pos) = self
            .procs
            .iter()
            .rposition(|p| matches!(p, Proc::Resolve(x) if x.trig == r.trig))
            && let Proc::Resolve(x) = &self.procs[pos]
            && usize::from(x.at) >= a.effects.len()
        {
            self.procs.remove(pos);
        }
    }

    fn carry_out(&mut self, r: &Resolving, e: &Effect, a: &Ability) {
        let owner = r.trig.owner;
        let opp = self.opponent(owner);
        let chosen = r.chosen.clone();
        let named = |m: &Match, id: u16| m.find(id).map(|(s, p)| (s, m.info(p.top()).number));
        match e {
            Effect::Keyword(Keyword::Blitz) => {
                // DCG-KW-14: it may attack at once while the opponent has
                // memory, if it could attack, and no attack is on.
                if let Source::Perm(id) = r.trig.source
                    && self.memory < 0
                    && let Some((s, p)) = self.find(id)
                    && self.can_attack(s, p)
                    && self.procs.iter().all(|x| !matches!(x, Proc::Attack(_)))
                {
                    let at = self
                        .procs
                        .iter()
                        .rposition(|x| matches!(x, Proc::Resolve(y) if y.trig == r.trig))
                        .unwrap_or(0);
                    self.procs.insert(
                        at,
                        Proc::Attack(Attack {
                            attacker: id,
                            seat: owner,
                            def: self.opponent(owner),
                            target: None,
                            stage: AttackStage::Blitz,
                            blocked: false,
                            alliance: None,
                            revealed: None,
                            offers: Vec::new(),
                            declared: false,
                        }),
                    );
                }
            }
            Effect::Keyword(_) => {}
            Effect::Draw(n) => {
                self.draw(owner, usize::from(*n));
            }
            Effect::Recovery(n) => {
                let mut k = 0;
                for _ in 0..*n {
                    if let Some(c) = self.zm(owner).deck.pop() {
                        self.zm(owner).security.push(c);
                        k += 1;
                    }
                }
                if k > 0 {
                    self.emit(Event::SecurityChanged { seat: owner, by: k });
                }
            }
            Effect::DeDigivolve(_, n) => {
                for id in chosen {
                    let Some((s, _)) = self.find(id) else {
                        continue;
                    };
                    let mut trashed = Vec::new();
                    if let Some(p) = self.find_mut(id) {
                        for _ in 0..*n {
                            if p.cards.len() <= 1 {
                                break;
                            }
                            let top = *p.cards.last().unwrap_or(&0);
                            trashed.push(top);
                            p.cards.pop();
                        }
                    }
                    // Never past a level 3 card (DCG-KW-9): put back what
                    // went under level 3.
                    while let Some(&last) = trashed.last() {
                        let now_top = self.find(id).map(|(_, p)| p.top());
                        if now_top.is_some_and(|t| self.info(t).level < 3) {
                            if let Some(p) = self.find_mut(id) {
                                p.cards.push(last);
                            }
                            trashed.pop();
                        } else {
                            break;
                        }
                    }
                    if !trashed.is_empty() {
                        self.zm(s).trash.extend(trashed.iter().copied());
                        if let Some((_, card)) = named(self, id) {
                            self.emit(Event::DeDigivolved {
                                seat: s,
                                card,
                                count: trashed.len() as u8,
                            });
                        }
                    }
                }
            }
            Effect::GainMemory(n) => self.gain(owner, *n as i8),
            Effect::ReduceOpponentMemory(n) => self.gain(opp, -(*n as i8)),
            Effect::Delete(_) => {
                let ids: Vec<u16> = chosen
                    .into_iter()
                    .filter(|id| self.find(*id).is_some())
                    .collect();
                if !ids.is_empty() {
                    self.procs.push(Proc::Delete(Deleting {
                        ids,
                        cause: Cause::Effect(owner),
                        asked: 0,
                        interrupted: false,
                    }));
                }
            }
            Effect::Suspend(_) | Effect::Unsuspend(_) => {
                let suspended = matches!(e, Effect::Suspend(_));
                for id in chosen {
                    let changed = self.find_mut(id).is_some_and(|p| {
                        let c = p.suspended != suspended;
                        p.suspended = suspended;
                        c
                    });
                    if changed && let Some((s, card)) = named(self, id) {
                        self.emit(Event::Suspended {
                            seat: s,
                            card,
                            suspended,
                        });
                    }
                }
            }
            Effect::ReturnToHand(_) | Effect::ToDeckBottom(_) => {
                let hand = matches!(e, Effect::ReturnToHand(_));
                for id in chosen {
                    let Some((s, p)) = self.find(id) else {
                        continue;
                    };
                    let p = p.clone();
                    let card = self.info(p.top()).number;
                    let z = self.zm(s);
                    z.field.retain(|q| q.id != id);
                    if hand {
                        // The top card to the hand, the cards under it to the trash.
                        z.hand.push(p.top());
                        z.trash.extend(p.cards[..p.cards.len() - 1].iter().copied());
                    } else {
                        for &c in p.cards.iter().rev() {
                            z.deck.insert(0, c);
                        }
                    }
                    self.emit(Event::Bounced {
                        seat: s,
                        card,
                        hand,
                    });
                }
            }
            Effect::Dp(_, n) => {
                for id in chosen {
                    self.turn_dp.push((id, *n));
                    if let Some((s, card)) = named(self, id) {
                        self.emit(Event::DpChanged {
                            seat: s,
                            card,
                            by: *n * 1000,
                        });
                    }
                }
            }
            Effect::Forbid(_, d) => {
                for id in chosen {
                    self.turn_forbid.push((id, *d));
                    if let Some((seat, card)) = named(self, id) {
                        self.emit(Event::Forbidden {
                            seat,
                            card,
                            deed: *d,
                        });
                    }
                }
            }
            Effect::Gains(_, k) => {
                for id in chosen {
                    self.turn_keywords.push((id, *k));
                    if let Some((s, card)) = named(self, id) {
                        self.emit(Event::Gained {
                            seat: s,
                            card,
                            keyword: *k,
                        });
                    }
                }
            }
            Effect::TrashSecurity(n) => {
                let mut k = 0;
                for _ in 0..*n {
                    if let Some(c) = self.zm(opp).security.pop() {
                        self.zm(opp).trash.push(c);
                        k += 1;
                    }
                }
                if k > 0 {
                    self.emit(Event::SecurityChanged { seat: opp, by: -k });
                    self.trigger_when(&[opp], Happening::SecurityRemoved, None);
                }
            }
            Effect::ActivateMain => {
                let c = r.trig.card;
                let mains: Vec<u8> = self
                    .info(c)
                    .effects
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| matches!(x.timing, Timing::Main | Timing::MainDelay))
                    .map(|(i, _)| i as u8)
                    .collect();
                self.resolve_now(owner, c, &mains);
            }
            Effect::AddToHand | Effect::PlayThis => {
                let c = r.trig.card;
                if let Some(Proc::Attack(at)) = self
                    .procs
                    .iter_mut()
                    .rev()
                    .find(|p| matches!(p, Proc::Attack(_)))
                    && at.revealed == Some(c)
                {
                    at.revealed = None;
                    if matches!(e, Effect::AddToHand) {
                        self.zm(owner).hand.push(c);
                        self.emit(Event::ToHand {
                            seat: owner,
                            card: self.info(c).number,
                        });
                    } else {
                        self.emit(Event::Played {
                            seat: owner,
                            card: self.info(c).number,
                            cost: 0,
                        });
                        self.enter_play(owner, c);
                    }
                }
            }
        }
        let _ = a;
    }

    // ----- attacks -----

    /// One step of the attack on top; false when a question waits.
    fn step_attack(&mut self, a: Attack) -> bool {
        let def = a.def;
        let set = |m: &mut Match, stage: AttackStage| {
            if let Some(Proc::Attack(x)) = m.procs.last_mut() {
                x.stage = stage;
            }
        };
        match a.stage {
            AttackStage::Blitz => false,
            AttackStage::Declared => {
                if !a.declared {
                    // DCG-ATK-6: the declaration's effects wait, then the
                    // keyword offers (decision 24).
                    self.trigger_timing(a.seat, a.attacker, Timing::WhenAttacking, true);
                    let watchers = self.opponents_of(a.seat);
                    self.trigger_when(&watchers, Happening::OpponentAttacks, None);
                    let mut offers = Vec::new();
                    if let Some((s, p)) = self.find(a.attacker) {
                        if self.has(s, p, Keyword::Alliance) {
                            offers.push(Keyword::Alliance);
                        }
                        if self.has(s, p, Keyword::Raid) {
                            offers.push(Keyword::Raid);
                        }
                    }
                    if let Some(Proc::Attack(x)) = self.procs.last_mut() {
                        x.offers = offers;
                        x.declared = true;
                    }
                    return true;
                }
                let mut offers = a.offers.clone();
                if let Some(k) = offers.pop() {
                    if let Some(Proc::Attack(x)) = self.procs.last_mut() {
                        x.offers = offers;
                    }
                    let attacker = self.find(a.attacker);
                    let usable = match k {
                        Keyword::Alliance => attacker.is_some_and(|(s, p)| {
                            self.z(s)
                                .field
                                .iter()
                                .any(|q| q.id != p.id && self.is_digimon(q) && !q.suspended)
                        }),
                        _ => attacker.is_some() && !self.raid_targets(&a).is_empty(),
                    };
                    if usable {
                        set(self, AttackStage::Offer(k));
                        return false;
                    }
                    return true;
                }
                set(self, AttackStage::Block);
                true
            }
            AttackStage::Offer(_) => false,
            AttackStage::Block => {
                if self.blockers(&a).is_empty() {
                    set(self, AttackStage::Confirm);
                    return true;
                }
                false
            }
            AttackStage::Confirm => {
                // The attacker and its target are read in place: what is
                // read of them is read before anything changes (an event
                // and the stage change nothing they are read from).
                let Some((s, p)) = self.find(a.attacker) else {
                    set(self, AttackStage::End);
                    return true;
                };
                match a.target {
                    Some(t) => {
                        let Some((ts, tp)) = self.find(t) else {
                            set(self, AttackStage::End);
                            return true;
                        };
                        let (ad, td) = (self.dp(s, p), self.dp(ts, tp));
                        let battle = Event::Battle {
                            attacker: (self.info(p.top()).number, ad),
                            defender: (self.info(tp.top()).number, td),
                        };
                        let mut losers = Vec::new();
                        if ad <= td {
                            losers.push(p.id);
                        }
                        if td <= ad {
                            losers.push(tp.id);
                        }
                        let pierce = td < ad && self.has(s, p, Keyword::Piercing);
                        let stage = if pierce {
                            AttackStage::Checks(self.checks_for_attack(&a, s, p))
                        } else {
                            AttackStage::End
                        };
                        let (p_id, tp_id) = (p.id, tp.id);
                        self.emit(battle);
                        set(self, stage);
                        // Each loser battled the other (for <Retaliation>).
                        for id in losers {
                            let other = if id == p_id { tp_id } else { p_id };
                            self.procs.push(Proc::Delete(Deleting {
                                ids: vec![id],
                                cause: Cause::Battle(Some(other)),
                                asked: 0,
                                interrupted: false,
                            }));
                        }
                        true
                    }
                    None => {
                        let n = self.checks_for_attack(&a, s, p);
                        if self.z(def).security.is_empty() {
                            if n >= 1 {
                                let why = format!(
                                    "{}'s {} attacked {def}, who had no security cards left",
                                    a.seat,
                                    self.info(p.top()).name
                                );
                                self.lose(def, why);
                            }
                            set(self, AttackStage::End);
                            return true;
                        }
                        set(self, AttackStage::Checks(n));
                        true
                    }
                }
            }
            AttackStage::Checks(left) => {
                let alive = self.find(a.attacker).is_some();
                if left == 0 || !alive || self.z(def).security.is_empty() {
                    set(self, AttackStage::End);
                    return true;
                }
                let Some(c) = self.zm(def).security.pop() else {
                    return true;
                };
                self.emit(Event::Revealed {
                    seat: def,
                    card: self.info(c).number,
                });
                // DCG-LAN-19, -20, L11: a level 6+ attacker's check.
                if self.lan()
                    && self
                        .find(a.attacker)
                        .is_some_and(|(_, p)| self.info(p.top()).level >= 6)
                {
                    let z = self.zm(def);
                    z.mega = z.mega.saturating_add(1);
                    let total = z.mega;
                    self.emit(Event::MegaDamage { seat: def, total });
                    if total >= MEGA_DAMAGE_DEFEATS {
                        self.zm(def).trash.push(c);
                        self.lose(def, format!("{def} took {MEGA_DAMAGE_DEFEATS} Mega Damage"));
                        return true;
                    }
                }
                if let Some(Proc::Attack(x)) = self.procs.last_mut() {
                    x.revealed = Some(c);
                    x.stage = AttackStage::Checked(left);
                }
                self.trigger_when(&[def], Happening::SecurityRemoved, None);
                // DCG-SEC-4: its [Security] effect, whatever its colours.
                let cards = self.cards.clone();
                for (slot, ab) in cards[usize::from(c)].effects.iter().enumerate() {
                    if ab.timing == Timing::Security {
                        self.wait([Trig {
                            owner: def,
                            source: Source::Card,
                            card: c,
                            slot: slot as u8,
                            inherited: false,
                            group: 0,
                        }]);
                    }
                }
                true
            }
            AttackStage::Checked(left) => {
                let revealed = a.revealed;
                if let Some(Proc::Attack(x)) = self.procs.last_mut() {
                    x.revealed = None;
                    x.stage = AttackStage::Checks(left - 1);
                }
                let Some(c) = revealed else { return true };
                // DCG-SEC-5, -6: a Digimon card battles the attacker.
                if self.info(c).kind == DcgKind::Digimon
                    && let Some((s, p)) = self.find(a.attacker)
                {
                    // Read before the event (which changes nothing read).
                    let (ad, sd) = (self.dp(s, p), self.info(c).dp);
                    let battle = Event::Battle {
                        attacker: (self.info(p.top()).number, ad),
                        defender: (self.info(c).number, sd),
                    };
                    let deleted = ad <= sd && !self.has(s, p, Keyword::Jamming);
                    let id = p.id;
                    self.emit(battle);
                    if deleted {
                        self.procs.push(Proc::Delete(Deleting {
                            ids: vec![id],
                            cause: Cause::SecurityBattle,
                            asked: 0,
                            interrupted: false,
                        }));
                    }
                }
                // DCG-SEC-7.
                self.zm(def).trash.push(c);
                true
            }
            AttackStage::End => {
                self.procs.pop();
                if self.find(a.attacker).is_some() {
                    self.trigger_timing(a.seat, a.attacker, Timing::EndOfAttack, true);
                }
                true
            }
        }
    }

    fn checks_for_attack(&self, a: &Attack, s: Seat, p: &Perm) -> u8 {
        self.checks(s, p) + u8::from(a.alliance.is_some())
    }
}

/// The ability a waiting effect resolves, in a card table.
fn ability_in<'a>(cards: &'a [Info], t: &Trig) -> &'a Ability {
    let info = &cards[usize::from(t.card)];
    let list = if t.inherited {
        &info.inherited
    } else {
        &info.effects
    };
    &list[usize::from(t.slot)]
}

/// The words of that ability ([`crate::effects::dcg::render`]'s).
fn text_in<'a>(cards: &'a [Info], t: &Trig) -> &'a str {
    let info = &cards[usize::from(t.card)];
    let list = if t.inherited {
        &info.inherited_texts
    } else {
        &info.texts
    };
    &list[usize::from(t.slot)]
}

/// The target an effect chooses, if it chooses one.
pub(crate) fn target_of(e: &Effect) -> Option<&Target> {
    match e {
        Effect::DeDigivolve(t, _)
        | Effect::Delete(t)
        | Effect::Suspend(t)
        | Effect::Unsuspend(t)
        | Effect::ReturnToHand(t)
        | Effect::ToDeckBottom(t)
        | Effect::Dp(t, _)
        | Effect::Gains(t, _)
        | Effect::Forbid(t, _) => Some(t),
        _ => None,
    }
}

/// The answer that takes a save.
pub(crate) fn save_action(s: &Save) -> Action {
    match s {
        Save::Evade => Action::Evade,
        Save::ArmorPurge => Action::ArmorPurge,
        Save::Decoy(id) => Action::Decoy { id: *id },
    }
}
