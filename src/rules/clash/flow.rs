//! The rules in motion: who is asked, what they may do, and everything
//! that follows an answer until the next question (Standby, priority,
//! triggers, the six clash steps, state-based checks, the turn's phases).
//! Rule ids are docs/clash-rules.md's.

use super::{
    Action, Ask, Choosing, Cid, ClashStep, Entry, Event, Fight, Match, Phase, TURN_LIMIT, Unit,
    What, Window,
};
use crate::cards::ClashKind;
use crate::effects::clash::{Ability, Effect, Hue, Keyword, Target, When};
use crate::rules::{IllegalAction, Outcome, Seat};

/// Where a card in play is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// A seat's Contender.
    Contender(Seat),
    /// A seat's Clash Zone, at this index.
    Clash(Seat, usize),
    /// A seat's Accessory Zone, at this index.
    Accessory(Seat, usize),
    /// A seat's Clashground Zone.
    Ground(Seat),
}

impl Match {
    /// Where a card in play is, if it is in play.
    pub(crate) fn place(&self, c: Cid) -> Option<Place> {
        let s = self.owner(c);
        let z = self.side(s);
        if z.lost {
            return None;
        }
        if z.contender.card == c {
            return Some(Place::Contender(s));
        }
        if let Some(i) = z.clash.iter().position(|u| u.card == c) {
            return Some(Place::Clash(s, i));
        }
        if let Some(i) = z.accessories.iter().position(|a| a.card == c) {
            return Some(Place::Accessory(s, i));
        }
        if z.clashground == Some(c) {
            return Some(Place::Ground(s));
        }
        None
    }

    /// The Contender or Clash card `c`, if it is one in play.
    pub(crate) fn unit(&self, c: Cid) -> Option<&Unit> {
        match self.place(c)? {
            Place::Contender(s) => Some(&self.side(s).contender),
            Place::Clash(s, i) => Some(&self.side(s).clash[i]),
            _ => None,
        }
    }

    pub(crate) fn unit_mut(&mut self, c: Cid) -> Option<&mut Unit> {
        match self.place(c)? {
            Place::Contender(s) => Some(&mut self.side_mut(s).contender),
            Place::Clash(s, i) => Some(&mut self.side_mut(s).clash[i]),
            _ => None,
        }
    }

    /// Whether `c` is a Clash card in play, not defeated.
    pub(crate) fn standing(&self, c: Cid) -> bool {
        matches!(self.place(c), Some(Place::Clash(..))) && self.unit(c).is_some_and(|u| !u.defeated)
    }

    /// Whether an ability of the card `c` is active now: a Contender's by
    /// its health threshold (CL-CONT-2).
    pub(crate) fn active_ability(&self, c: Cid, a: &Ability) -> bool {
        match a.at_most {
            Some(n) => self.health(self.owner(c)) <= i16::from(n),
            None => true,
        }
    }

    /// Every card in play whose `Always` abilities work now, with its seat.
    fn lasting_sources(&self) -> impl Iterator<Item = (Seat, Cid)> + '_ {
        Seat::all(self.sides.len())
            .filter(|s| !self.side(*s).lost)
            .flat_map(move |s| {
                let z = self.side(s);
                std::iter::once(z.contender.card)
                    .chain(z.clash.iter().filter(|u| !u.defeated).map(|u| u.card))
                    .chain(
                        z.accessories
                            .iter()
                            .filter(|a| a.set_on.is_none())
                            .filter(|a| {
                                self.info(a.card).kind != ClashKind::Weapon || a.on.is_some()
                            })
                            .map(|a| a.card),
                    )
                    .chain(z.clashground)
                    .map(move |c| (s, c))
            })
            .filter(|(_, c)| self.info(*c).always)
    }

    /// Whether a lasting effect's target covers the card `c` (`from` is the
    /// source card, `s` its seat).
    fn covers(&self, t: Target, s: Seat, from: Cid, c: Cid) -> bool {
        let clash = matches!(self.place(c), Some(Place::Clash(..)));
        match t {
            Target::This => from == c,
            Target::Attached => {
                self.place(from).and_then(|p| match p {
                    Place::Accessory(o, i) => self.side(o).accessories[i].on,
                    _ => None,
                }) == Some(c)
            }
            Target::YourContender => self.side(s).contender.card == c,
            Target::OpposingContenders => {
                self.owner(c) != s && self.side(self.owner(c)).contender.card == c
            }
            Target::AllYourClash => clash && self.owner(c) == s,
            Target::AllOpposingClash => clash && self.owner(c) != s,
            Target::AllClash => clash,
            _ => false,
        }
    }

    /// The lasting (+attack, +defence) on `c` from every `Always` ability.
    fn lasting(&self, c: Cid) -> (i16, i16) {
        let mut out = (0, 0);
        for (s, from) in self.lasting_sources() {
            for a in &self.info(from).effects {
                if a.when != When::Always || !self.active_ability(from, a) {
                    continue;
                }
                for e in &a.effects {
                    if let Effect::Stats(at, de, t) = *e
                        && self.covers(t, s, from, c)
                    {
                        out.0 += i16::from(at);
                        out.1 += i16::from(de);
                    }
                }
            }
        }
        out
    }

    /// The attack power of a Contender or Clash card now (never below 0).
    pub fn attack_of(&self, c: Cid) -> i16 {
        let Some(u) = self.unit(c) else { return 0 };
        (self.info(c).attack + u.attack_bonus + self.lasting(c).0).max(0)
    }

    /// The defence power now: printed, changed, less damage.
    pub fn defense_of(&self, c: Cid) -> i16 {
        let Some(u) = self.unit(c) else { return 0 };
        self.info(c).defense + u.defense_bonus + self.lasting(c).1 - u.damage - u.clash_damage
    }

    /// Whether a card in play has a keyword: printed, gained until end of
    /// turn, or from a lasting effect.
    pub fn has_keyword(&self, c: Cid, k: Keyword) -> bool {
        if self.info(c).has(k) {
            return true;
        }
        if self
            .unit(c)
            .is_some_and(|u| u.granted.iter().any(|g| g.same_kind(k)))
        {
            return true;
        }
        self.lasting_sources().any(|(s, from)| {
            self.info(from).effects.iter().any(|a| {
                a.when == When::Always
                    && self.active_ability(from, a)
                    && a.effects.iter().any(|e| {
                        matches!(*e, Effect::Grant(g, t) if g.same_kind(k) && self.covers(t, s, from, c))
                    })
            })
        })
    }

    /// Whether the card would be defeated now (CL-CLASH-7; Undisputed,
    /// CL-KW-14).
    fn would_fall(&self, c: Cid) -> bool {
        self.defense_of(c) <= 0
            && !(self.fight.is_some()
                && self.owner(c) == self.active
                && self.has_keyword(c, Keyword::Undisputed))
    }

    /// The colours each ready resource of `s` may give.
    fn ready_resources(&self, s: Seat) -> Vec<(usize, &[Hue])> {
        self.side(s)
            .resources
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.1)
            .map(|(i, r)| (i, self.info(r.0).colors.as_slice()))
            .collect()
    }

    /// The resources that pay `cost` with `specific` among it, if `s` can
    /// (CL-RES-6..8): the specific colours matched first, then the rest
    /// from the colours most plentiful.
    pub(crate) fn payment(&self, s: Seat, cost: u8, specific: &[Hue]) -> Option<Vec<usize>> {
        let mut ready = self.ready_resources(s);
        // The resources the player chose first, in the order chosen (a
        // stable sort: the others keep their order).
        let chosen = |i: usize| {
            let card = self.side(s).resources[i].0;
            self.prefer.iter().position(|&c| c == card)
        };
        if !self.prefer.is_empty() {
            ready.sort_by_key(|r| chosen(r.0).unwrap_or(usize::MAX));
        }
        let cost = usize::from(cost).max(specific.len());
        let owner_of = matching(&ready, cost, specific)?;
        let mut used: Vec<usize> = owner_of
            .iter()
            .enumerate()
            .filter(|(_, o)| o.is_some())
            .map(|(i, _)| i)
            .collect();
        let mut rest: Vec<usize> = (0..ready.len())
            .filter(|i| owner_of[*i].is_none())
            .collect();
        // Keep the rarest colours for later: spend the most plentiful. (How
        // many ready resources give each colour, counted once.)
        let mut plenty: Vec<(Hue, usize)> = Vec::new();
        for &(_, hues) in &ready {
            for (k, &h) in hues.iter().enumerate() {
                if hues[..k].contains(&h) {
                    continue;
                }
                match plenty.iter_mut().find(|(p, _)| *p == h) {
                    Some((_, n)) => *n += 1,
                    None => plenty.push((h, 1)),
                }
            }
        }
        let count = |h: Hue| plenty.iter().find(|(p, _)| *p == h).map_or(0, |(_, n)| *n);
        let key: Vec<usize> = ready
            .iter()
            .map(|r| r.1.iter().map(|&h| count(h)).max().unwrap_or(0))
            .collect();
        // The chosen first; then the most plentiful.
        rest.sort_by_key(|&i| (chosen(ready[i].0).is_none(), std::cmp::Reverse(key[i])));
        let want = cost - specific.len();
        // Resources of one colour set are all alike: no choice to weigh.
        let alike = rest.windows(2).all(|w| ready[w[0]].1 == ready[w[1]].1);
        if self.engine >= 2 && want > 0 && rest.len() > want && !alike {
            // Engine 2: of the rest, one at a time, the one whose spending
            // leaves the most of the player's other costs payable (the
            // cards in hand, a set Trap, a Weapon's attach cost), so that
            // paying one card does not block the next when another choice
            // would not (CL-D30); then the one whose colours those costs
            // ask for least; a tie keeps the order above.
            // Only the costs the ready resources could pay now count: a
            // card too dear for this turn asks nothing of them yet.
            let needs: Vec<(u8, Vec<Hue>)> = self
                .needs(s)
                .into_iter()
                .filter(|(c, sp)| matching(&ready, usize::from(*c).max(sp.len()), sp).is_some())
                .collect();
            let mut picked: Vec<usize> = Vec::new();
            while picked.len() < want {
                let left = |without: usize| -> usize {
                    let pool: Vec<(usize, &[Hue])> = (0..ready.len())
                        .filter(|i| !used.contains(i) && !picked.contains(i) && *i != without)
                        .map(|i| ready[i])
                        .collect();
                    needs
                        .iter()
                        .filter(|(c, sp)| {
                            matching(&pool, usize::from(*c).max(sp.len()), sp).is_some()
                        })
                        .count()
                };
                let candidates: Vec<usize> = rest
                    .iter()
                    .copied()
                    .filter(|i| !picked.contains(i))
                    .collect();
                let Some(&first) = candidates.first() else {
                    break;
                };
                // How many of the other costs' specific gems ask for a
                // colour of the resource (the fewer, the sooner it goes).
                let asked = |i: usize| -> usize {
                    ready[i]
                        .1
                        .iter()
                        .map(|h| needs.iter().flat_map(|n| &n.1).filter(|g| *g == h).count())
                        .max()
                        .unwrap_or(0)
                };
                let best = if chosen(ready[first].0).is_some() {
                    first
                } else {
                    let score = |i: usize| (left(i), std::cmp::Reverse(asked(i)));
                    let mut best = (first, score(first));
                    let mut weighed: Vec<&[Hue]> = vec![ready[first].1];
                    for &i in &candidates[1..] {
                        // One of each colour set is weighed: the rest
                        // score as it does.
                        if chosen(ready[i].0).is_some() || weighed.contains(&ready[i].1) {
                            continue;
                        }
                        weighed.push(ready[i].1);
                        let n = score(i);
                        if n > best.1 {
                            best = (i, n);
                        }
                    }
                    best.0
                };
                picked.push(best);
            }
            rest = picked;
        }
        used.extend(rest.into_iter().take(cost - specific.len()));
        Some(used.into_iter().map(|i| ready[i].0).collect())
    }

    /// The costs `s`'s other cards will ask it to pay: the cards in hand,
    /// its set Traps, its Weapons' attach costs.
    fn needs(&self, s: Seat) -> Vec<(u8, Vec<Hue>)> {
        let z = self.side(s);
        let mut needs: Vec<(u8, Vec<Hue>)> = Vec::new();
        let mut add = |cost: u8, specific: &[Hue]| needs.push((cost, specific.to_vec()));
        for &c in &z.hand {
            let info = self.info(c);
            add(info.cost, &info.specific);
        }
        for a in &z.accessories {
            let info = self.info(a.card);
            if a.set_on.is_some() {
                add(info.cost, &info.specific);
            }
            if !info.attach.is_empty() {
                add(info.attach.len() as u8, &info.attach);
            }
        }
        needs
    }

    /// Whether `s` can pay `cost` with `specific` among it: as
    /// [`Match::payment`] finds one, without listing the resources. By
    /// Hall's theorem the specific colours can each have a resource of
    /// their own when every set of them is offered at least as many
    /// resources as it has colours; resources offering the same of them
    /// are counted together.
    fn can_pay(&self, s: Seat, cost: u8, specific: &[Hue]) -> bool {
        let cost = usize::from(cost).max(specific.len());
        if cost == 0 {
            return true;
        }
        let n = specific.len();
        let mut ready = 0usize;
        // Which of the specific colours a resource offers, and how many
        // resources offer just those.
        let mut offers = [(0u8, 0usize); 16];
        let mut kinds = 0usize;
        let mut many = n > 8;
        for &(c, engaged) in &self.side(s).resources {
            if engaged {
                continue;
            }
            ready += 1;
            if n == 0 || many {
                continue;
            }
            let hues = &self.info(c).colors;
            let mut mask = 0u8;
            for (k, h) in specific.iter().enumerate() {
                if hues.contains(h) {
                    mask |= 1 << k;
                }
            }
            if mask == 0 {
                continue;
            }
            if let Some((_, count)) = offers[..kinds].iter_mut().find(|(m, _)| *m == mask) {
                *count += 1;
            } else if kinds < offers.len() {
                offers[kinds] = (mask, 1);
                kinds += 1;
            } else {
                many = true;
            }
        }
        let can = if ready < cost {
            false
        } else if many {
            matching(&self.ready_resources(s), cost, specific).is_some()
        } else {
            (1u16..1 << n).all(|set| {
                let have: usize = offers[..kinds]
                    .iter()
                    .filter(|(m, _)| u16::from(*m) & set != 0)
                    .map(|(_, count)| count)
                    .sum();
                have >= set.count_ones() as usize
            })
        };
        #[cfg(test)]
        assert_eq!(
            can,
            matching(&self.ready_resources(s), cost, specific).is_some(),
            "can_pay({s}, {cost}, {specific:?})"
        );
        can
    }

    fn pay(&mut self, s: Seat, cost: u8, specific: &[Hue]) {
        if let Some(p) = self.payment(s, cost, specific) {
            for i in &p {
                self.side_mut(s).resources[*i].1 = true;
            }
            if !p.is_empty() {
                self.log.push(Event::Paid {
                    seat: s,
                    amount: p.len() as u8,
                });
            }
        }
    }
}

/// Each ready resource's specific colour (by its index in `specific`), if
/// `cost` resources with every colour of `specific` among them can be
/// found: each specific colour matched to a distinct resource (augmenting
/// paths; a handful of cards).
fn matching(
    ready: &[(usize, &[Hue])],
    cost: usize,
    specific: &[Hue],
) -> Option<Vec<Option<usize>>> {
    if ready.len() < cost {
        return None;
    }
    let mut owner_of: Vec<Option<usize>> = vec![None; ready.len()];
    for k in 0..specific.len() {
        let mut seen = vec![false; ready.len()];
        if !augment(k, specific, ready, &mut owner_of, &mut seen) {
            return None;
        }
    }
    Some(owner_of)
}

fn augment(
    k: usize,
    specific: &[Hue],
    ready: &[(usize, &[Hue])],
    owner_of: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for i in 0..ready.len() {
        if seen[i] || !ready[i].1.contains(&specific[k]) {
            continue;
        }
        seen[i] = true;
        let free = match owner_of[i] {
            None => true,
            Some(other) => augment(other, specific, ready, owner_of, seen),
        };
        if free {
            owner_of[i] = Some(k);
            return true;
        }
    }
    false
}

/// The seat asked now and the kind of question.
pub(crate) fn waiting(m: &Match) -> Option<(Seat, Ask)> {
    if m.outcome.is_some() {
        return None;
    }
    if let Some(c) = &m.choosing {
        return Some((
            c.entry.seat,
            if c.barrage.is_some() {
                Ask::Barrage
            } else {
                Ask::Target
            },
        ));
    }
    match m.phase {
        Phase::Mulligan => {
            let n = m.sides.len();
            return (0..n)
                .filter_map(|k| Seat::new((m.first.index() + k) % n))
                .find(|s| !m.side(*s).settled)
                .map(|s| (s, Ask::Mulligan));
        }
        Phase::Over => return None,
        _ => {}
    }
    if let Some(w) = m.windows.last()
        && usize::from(w.entry) + 1 == m.standby.len()
    {
        return w.ask.first().map(|s| (*s, Ask::Respond));
    }
    if !m.standby.is_empty() || !m.pending.is_empty() {
        return None;
    }
    if let Some(f) = &m.fight {
        return match f.step {
            ClashStep::Counter => Some((f.defender, Ask::Counter)),
            ClashStep::Obstruct => Some((f.defender, Ask::Obstruct)),
            ClashStep::AttackerBuff if !m.buff_step_used => Some((f.seat, Ask::Buff)),
            ClashStep::DefenderBuff if !m.buff_step_used => Some((f.defender, Ask::Buff)),
            _ => None,
        };
    }
    match m.phase {
        Phase::Resource => Some((m.active, Ask::Resource)),
        Phase::Primary => Some((m.active, Ask::Primary)),
        _ => None,
    }
}

/// The targets `seat` may choose for `t` from the card `source` (a Clash
/// Buff's not yet buffed this turn, CL-BUFF-4; never an opponent's
/// Safeguard card, CL-KW-12).
pub(crate) fn target_options(m: &Match, seat: Seat, source: Cid, t: Target) -> Vec<Cid> {
    let buff = m.info(source).kind == ClashKind::ClashBuff;
    let mut out = Vec::new();
    for s in Seat::all(m.sides.len()) {
        let z = m.side(s);
        if z.lost {
            continue;
        }
        let mine = s == seat;
        let contender = std::iter::once(z.contender.card);
        let clash = z.clash.iter().filter(|u| !u.defeated).map(|u| u.card);
        let cands: Vec<Cid> = match t {
            Target::ChosenYours if mine => contender.chain(clash).collect(),
            Target::ChosenYourClash if mine => clash.collect(),
            Target::ChosenOpposingClash if !mine => clash.collect(),
            Target::ChosenOpposing if !mine => contender.chain(clash).collect(),
            Target::ChosenClash => clash.collect(),
            _ => Vec::new(),
        };
        for c in cands {
            if !mine && m.has_keyword(c, Keyword::Safeguard) {
                continue;
            }
            if buff && m.buffed.contains(&c) {
                continue;
            }
            out.push(c);
        }
    }
    out
}

/// The chosen targets an ability asks for.
fn chosen(a: &Ability) -> Vec<Target> {
    a.chosen_targets()
}

/// The abilities a card resolves with when played (an Action, a Quick
/// Action's Counter ability) or activated (a Trap).
fn resolving(m: &Match, c: Cid) -> Vec<&Ability> {
    let info = m.info(c);
    info.effects
        .iter()
        .filter(|a| {
            a.when == When::Resolve
                || (matches!(info.kind, ClashKind::Trap | ClashKind::QuickAction)
                    && a.when.is_counter())
        })
        .collect()
}

/// Whether every chosen target of these abilities has a choice.
fn targets_ready(m: &Match, seat: Seat, source: Cid, abilities: &[&Ability]) -> bool {
    abilities
        .iter()
        .flat_map(|a| chosen(a))
        .all(|t| !target_options(m, seat, source, t).is_empty())
}

/// Which condition of playing a card from the hand fails first (for the
/// words of a refusal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unplayable {
    /// It may only be played with a Contender of this colour (CL-CARD-2).
    Contender(Hue),
    /// It is Exclusive and a card of its name is in your control (CL-KW-6).
    Exclusive,
    /// A Clashground of its name is in your control (CL-GROUND-6).
    SameClashground,
    /// The ready resources can't pay its cost (CL-RES-5).
    Cost,
    /// Nothing can be a target it must choose.
    NoTarget,
}

/// Whether `seat` may play the card `c` from its hand at all (colour
/// condition, Exclusive, same-name Clashground, cost, targets), and if
/// not, the first condition that fails.
pub(crate) fn playable(m: &Match, seat: Seat, c: Cid) -> Result<(), Unplayable> {
    let info = m.info(c);
    if let Some(h) = info.needs_contender
        && !m.info(m.contender(seat)).colors.contains(&h)
    {
        return Err(Unplayable::Contender(h));
    }
    if info.has(Keyword::Exclusive) && controls_named(m, seat, &info.name) {
        return Err(Unplayable::Exclusive);
    }
    if info.kind == ClashKind::Clashground
        && m.side(seat)
            .clashground
            .is_some_and(|g| m.info(g).name == info.name)
    {
        return Err(Unplayable::SameClashground);
    }
    if !m.can_pay(seat, info.cost, &info.specific) {
        return Err(Unplayable::Cost);
    }
    if !targets_ready(m, seat, c, &resolving(m, c)) {
        return Err(Unplayable::NoTarget);
    }
    Ok(())
}

/// Whether `seat` controls a card named `name` in play (CL-KW-6: the
/// Resource Zone's blank cards and Standby do not count, CL-D24).
fn controls_named(m: &Match, seat: Seat, name: &str) -> bool {
    let z = m.side(seat);
    z.clash.iter().any(|u| m.info(u.card).name == name)
        || z.accessories
            .iter()
            .any(|a| a.set_on.is_none() && m.info(a.card).name == name)
        || z.clashground.is_some_and(|g| m.info(g).name == name)
}

/// The Counter tag that answers the entry a window is open on.
fn window_tag(m: &Match) -> Option<When> {
    let w = m.windows.last()?;
    let e = m.standby.get(usize::from(w.entry))?;
    Some(match e.what {
        What::Play => When::CounterPlay,
        What::Trap => When::CounterTrap,
        _ => return None,
    })
}

/// `seat`'s responses with the Counter tag `tag` (Quick Actions from the
/// hand, set Traps, Counter abilities of cards in play).
fn responses(m: &Match, seat: Seat, tag: When) -> Vec<Action> {
    let mut out = Vec::new();
    let answered = m
        .windows
        .last()
        .and_then(|w| m.standby.get(usize::from(w.entry)));
    // Engine 1 refused a Counter that would stop an Irrefutable card; from
    // engine 2 it may be played, and the card enters play anyway (CL-D10).
    let refutable = m.engine >= 2
        || answered
            .is_none_or(|e| !(e.what == What::Play && m.info(e.source).has(Keyword::Irrefutable)));
    let fits = |a: &Ability| {
        a.when == tag
            && (refutable
                || !a.effects.iter().any(|e| {
                    matches!(
                        e,
                        Effect::Negate
                            | Effect::Bounce(Target::Answered)
                            | Effect::Oblivion(Target::Answered)
                    )
                }))
    };
    let z = m.side(seat);
    for &c in &z.hand {
        let info = m.info(c);
        if info.kind == ClashKind::QuickAction
            && info.effects.iter().any(fits)
            && playable(m, seat, c).is_ok()
        {
            out.push(Action::Play(c));
        }
    }
    for a in &z.accessories {
        let Some(set) = a.set_on else { continue };
        let info = m.info(a.card);
        if set < m.turn
            && info.effects.iter().any(fits)
            && m.can_pay(seat, info.cost, &info.specific)
            && targets_ready(m, seat, a.card, &resolving(m, a.card))
        {
            out.push(Action::Activate(a.card));
        }
    }
    for c in in_play(m, seat) {
        for (i, a) in m.info(c).effects.iter().enumerate() {
            if fits(a) && usable(m, seat, c, a) {
                out.push(Action::Use(c, i as u8));
            }
        }
    }
    out
}

/// A seat's cards in play that may have abilities to use (not set Traps).
fn in_play(m: &Match, seat: Seat) -> Vec<Cid> {
    let z = m.side(seat);
    std::iter::once(z.contender.card)
        .chain(z.clash.iter().filter(|u| !u.defeated).map(|u| u.card))
        .chain(
            z.accessories
                .iter()
                .filter(|a| a.set_on.is_none())
                .map(|a| a.card),
        )
        .chain(z.clashground)
        .collect()
}

/// Whether an ability of a card in play may be used now: active, its
/// card ready unless it is sent to Oblivion as the cost (CL-D32), its cost
/// payable, its targets there.
fn usable(m: &Match, seat: Seat, c: Cid, a: &Ability) -> bool {
    if !m.active_ability(c, a) {
        return false;
    }
    if !a.sacrifice && engaged(m, c) {
        return false;
    }
    m.can_pay(seat, a.cost, &[]) && targets_ready(m, seat, c, &[a])
}

/// Which condition of using an ability fails first (for the words of a
/// refusal): the card is engaged, the cost can't be paid, or a target it
/// must choose has no card to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Blocked {
    /// The card is engaged (an Engage ability needs it ready).
    Engaged,
    /// The ready resources can't pay the cost.
    Cost,
    /// Nothing can be the target it must choose.
    NoTarget,
    /// Its Counter tag does not answer what is in Standby now.
    Tag,
}

/// Why `seat` can't use ability `a` of `c` now, if it can't (its health
/// threshold is checked by the caller).
pub(crate) fn use_blocked(m: &Match, seat: Seat, c: Cid, a: &Ability) -> Option<Blocked> {
    if !a.sacrifice && engaged(m, c) {
        Some(Blocked::Engaged)
    } else if !m.can_pay(seat, a.cost, &[]) {
        Some(Blocked::Cost)
    } else if !targets_ready(m, seat, c, &[a]) {
        Some(Blocked::NoTarget)
    } else {
        None
    }
}

/// Why `seat` can't activate its set Trap `c` now, when it has priority
/// to respond: its tag answers something else, its cost can't be paid, or
/// it has no target.
pub(crate) fn trap_blocked(m: &Match, seat: Seat, c: Cid, ask: Ask) -> Option<Blocked> {
    let tag = match ask {
        Ask::Counter => Some(When::CounterAttack),
        _ => window_tag(m),
    };
    let info = m.info(c);
    if !tag.is_some_and(|t| info.effects.iter().any(|a| a.when == t)) {
        Some(Blocked::Tag)
    } else if !m.can_pay(seat, info.cost, &info.specific) {
        Some(Blocked::Cost)
    } else if !targets_ready(m, seat, c, &resolving(m, c)) {
        Some(Blocked::NoTarget)
    } else {
        None
    }
}

fn engaged(m: &Match, c: Cid) -> bool {
    match m.place(c) {
        Some(Place::Contender(s)) => m.side(s).contender.engaged,
        Some(Place::Clash(s, i)) => m.side(s).clash[i].engaged,
        Some(Place::Accessory(s, i)) => m.side(s).accessories[i].engaged,
        _ => false,
    }
}

fn set_engaged(m: &mut Match, c: Cid, on: bool) {
    match m.place(c) {
        Some(Place::Contender(s)) => m.side_mut(s).contender.engaged = on,
        Some(Place::Clash(s, i)) => m.side_mut(s).clash[i].engaged = on,
        Some(Place::Accessory(s, i)) => m.side_mut(s).accessories[i].engaged = on,
        _ => {}
    }
}

/// Every action `seat` may take now.
pub(crate) fn legal_actions(m: &Match, seat: Seat) -> Vec<Action> {
    let Some((asked, ask)) = waiting(m) else {
        return Vec::new();
    };
    if asked != seat {
        return Vec::new();
    }
    let mut out = Vec::new();
    match ask {
        Ask::Mulligan => {
            out.extend(m.side(seat).hand.iter().map(|&c| Action::Return(c)));
            out.push(Action::Keep);
        }
        Ask::Resource => {
            out.extend(m.side(seat).hand.iter().map(|&c| Action::Resource(c)));
            out.push(Action::NoResource);
        }
        Ask::Target => {
            if let Some(ch) = &m.choosing
                && let Some(t) = ch.need.first()
            {
                out.extend(
                    target_options(m, seat, ch.entry.source, *t)
                        .into_iter()
                        .map(Action::Target),
                );
            }
        }
        Ask::Barrage => {
            if let Some(ch) = &m.choosing
                && let Some((left, most)) = ch.barrage
            {
                let mut distinct: Vec<Cid> = ch.entry.targets.clone();
                distinct.sort_unstable();
                distinct.dedup();
                if left > 0 {
                    for c in target_options(m, seat, ch.entry.source, Target::ChosenClash) {
                        if distinct.contains(&c) || distinct.len() < usize::from(most) {
                            out.push(Action::Target(c));
                        }
                    }
                }
                out.push(Action::Pass);
            }
        }
        Ask::Respond => {
            if let Some(tag) = window_tag(m) {
                out.extend(responses(m, seat, tag));
            }
            out.push(Action::Pass);
        }
        Ask::Counter => {
            out.extend(responses(m, seat, When::CounterAttack));
            out.push(Action::Pass);
        }
        Ask::Obstruct => {
            if let Some(f) = &m.fight {
                let flying = m.has_keyword(f.attacker, Keyword::Flight);
                for u in &m.side(seat).clash {
                    if u.engaged || u.defeated || f.obstructors.contains(&u.card) {
                        continue;
                    }
                    if flying
                        && !m.has_keyword(u.card, Keyword::Flight)
                        && !m.has_keyword(u.card, Keyword::Interception)
                    {
                        continue;
                    }
                    out.push(Action::Obstruct(u.card));
                }
            }
            out.push(Action::Pass);
        }
        Ask::Buff => {
            for &c in &m.side(seat).hand {
                if m.info(c).kind == ClashKind::ClashBuff && playable(m, seat, c).is_ok() {
                    out.push(Action::Play(c));
                }
            }
            out.push(Action::Pass);
        }
        Ask::Primary => primary_actions(m, seat, &mut out),
    }
    out
}

fn primary_actions(m: &Match, seat: Seat, out: &mut Vec<Action>) {
    let z = m.side(seat);
    for &c in &z.hand {
        let kind = m.info(c).kind;
        match kind {
            ClashKind::Clash
            | ClashKind::Clashground
            | ClashKind::Weapon
            | ClashKind::Relic
            | ClashKind::BasicAction
                if playable(m, seat, c).is_ok() =>
            {
                out.push(Action::Play(c));
            }
            ClashKind::Trap => out.push(Action::Set(c)),
            _ => {}
        }
    }
    for c in in_play(m, seat) {
        for (i, a) in m.info(c).effects.iter().enumerate() {
            if a.when == When::Engage && usable(m, seat, c, a) {
                out.push(Action::Use(c, i as u8));
            }
        }
    }
    for a in &z.accessories {
        let info = m.info(a.card);
        if info.kind != ClashKind::Weapon || a.set_on.is_some() {
            continue;
        }
        if !m.can_pay(seat, info.attach.len() as u8, &info.attach) {
            continue;
        }
        for u in &z.clash {
            if u.defeated || a.on == Some(u.card) || weapon_on(m, u.card).is_some() {
                continue;
            }
            if info
                .attach_to
                .is_some_and(|aff| m.info(u.card).affiliation != Some(aff))
            {
                continue;
            }
            out.push(Action::Attach(a.card, u.card));
        }
        if a.on.is_some() {
            out.push(Action::Unattach(a.card));
        }
    }
    if !z.portal && m.can_pay(seat, super::PORTAL_COST, &[]) {
        out.push(Action::Portal);
    }
    if m.turn > 1 {
        for a in attackers(m, seat) {
            let close = m.has_keyword(a, Keyword::CloseCombat);
            for o in m.others(seat) {
                let oz = m.side(o);
                out.push(Action::Attack(a, oz.contender.card));
                for u in &oz.clash {
                    if !u.defeated && (u.engaged || close) {
                        out.push(Action::Attack(a, u.card));
                    }
                }
            }
        }
    }
    out.push(Action::EndTurn);
}

/// The Weapon attached to a Clash card.
pub(crate) fn weapon_on(m: &Match, c: Cid) -> Option<Cid> {
    let z = m.side(m.owner(c));
    z.accessories
        .iter()
        .find(|a| a.on == Some(c))
        .map(|a| a.card)
}

/// `seat`'s Contender and Clash cards that may attack (ready, not
/// Observant on the turn they entered).
fn attackers(m: &Match, seat: Seat) -> Vec<Cid> {
    let z = m.side(seat);
    let mut out = Vec::new();
    if !z.contender.engaged {
        out.push(z.contender.card);
    }
    for u in &z.clash {
        if u.engaged || u.defeated {
            continue;
        }
        if u.entered == m.turn && m.has_keyword(u.card, Keyword::Observant) {
            continue;
        }
        out.push(u.card);
    }
    out
}

/// Applies an action; an illegal one changes nothing.
pub(crate) fn apply(
    m: &mut Match,
    seat: Seat,
    action: Action,
) -> Result<Vec<Event>, IllegalAction> {
    if m.outcome.is_some() {
        return Err(IllegalAction {
            seat,
            reason: "the game is over".into(),
        });
    }
    if action == Action::Concede {
        if m.side(seat).lost {
            return Err(IllegalAction {
                seat,
                reason: "you are already out of the game".into(),
            });
        }
        m.log.clear();
        lose(m, seat, "conceded".into());
        settle(m);
        return Ok(std::mem::take(&mut m.log));
    }
    if let Action::PayWith(r) = action {
        if !may_pay_with(m, seat, r) {
            // The reason is given by `Match::apply` (text.rs).
            return Err(IllegalAction {
                seat,
                reason: String::new(),
            });
        }
        m.log.clear();
        m.prefer.push(r);
        return Ok(std::mem::take(&mut m.log));
    }
    let legal = legal_actions(m, seat);
    if !legal.contains(&action) {
        // The reason is given by `Match::apply` (the words live in text.rs).
        return Err(IllegalAction {
            seat,
            reason: String::new(),
        });
    }
    m.log.clear();
    let ask = waiting(m).map(|w| w.1);
    match action {
        Action::Return(c) => {
            let z = m.side_mut(seat);
            z.hand.retain(|&h| h != c);
            z.returning.push(c);
        }
        Action::Keep => {
            let returned = {
                let back = std::mem::take(&mut m.side_mut(seat).returning);
                let n = back.len();
                m.side_mut(seat).deck.extend(back);
                let mut deck = std::mem::take(&mut m.side_mut(seat).deck);
                if n > 0 {
                    m.rng.shuffle(&mut deck);
                }
                m.side_mut(seat).deck = deck;
                n
            };
            for _ in 0..returned {
                let z = m.side_mut(seat);
                if let Some(c) = z.deck.pop() {
                    z.hand.push(c);
                }
            }
            m.side_mut(seat).settled = true;
            m.log.push(Event::Mulligan {
                seat,
                returned: returned as u8,
            });
        }
        Action::Resource(c) => {
            let z = m.side_mut(seat);
            z.hand.retain(|&h| h != c);
            z.resources.push((c, false));
            z.resourced = true;
            let colors = m.info(c).colors.clone();
            m.log.push(Event::Resourced { seat, colors });
            m.phase = Phase::Primary;
        }
        Action::NoResource => m.phase = Phase::Primary,
        Action::Play(c) => {
            let (cost, spec) = (m.info(c).cost, m.info(c).specific.clone());
            m.pay(seat, cost, &spec);
            m.side_mut(seat).hand.retain(|&h| h != c);
            m.log.push(Event::Played {
                seat,
                card: m.named(c),
            });
            if m.info(c).kind == ClashKind::ClashBuff {
                m.buff_step_used = true;
            }
            let need: Vec<Target> = resolving(m, c).iter().flat_map(|a| chosen(a)).collect();
            let answers = answering(m, ask);
            declare(
                m,
                Entry {
                    seat,
                    source: c,
                    what: What::Play,
                    targets: Vec::new(),
                    answers,
                    negated: false,
                },
                need,
                true,
            );
        }
        Action::Set(c) => {
            let turn = m.turn;
            let z = m.side_mut(seat);
            z.hand.retain(|&h| h != c);
            z.accessories.push(super::Accessory {
                card: c,
                engaged: false,
                set_on: Some(turn),
                on: None,
            });
            m.log.push(Event::Set { seat });
        }
        Action::Activate(c) => {
            let (cost, spec) = (m.info(c).cost, m.info(c).specific.clone());
            m.pay(seat, cost, &spec);
            m.side_mut(seat).accessories.retain(|a| a.card != c);
            m.log.push(Event::Activated {
                seat,
                card: m.named(c),
            });
            let need: Vec<Target> = resolving(m, c).iter().flat_map(|a| chosen(a)).collect();
            let answers = answering(m, ask);
            declare(
                m,
                Entry {
                    seat,
                    source: c,
                    what: What::Trap,
                    targets: Vec::new(),
                    answers,
                    negated: false,
                },
                need,
                true,
            );
        }
        Action::Use(c, i) => {
            let a = m.info(c).effects[usize::from(i)].clone();
            m.pay(seat, a.cost, &[]);
            if a.sacrifice {
                to_oblivion(m, c);
            } else {
                set_engaged(m, c, true);
            }
            m.log.push(Event::Triggered {
                seat,
                card: m.named(c),
                words: a.words(),
            });
            let answers = answering(m, ask);
            declare(
                m,
                Entry {
                    seat,
                    source: c,
                    what: What::Ability(i),
                    targets: Vec::new(),
                    answers,
                    negated: false,
                },
                chosen(&a),
                // Engine 2: an effect a player activates waits in Standby
                // until every opponent has had priority (CL-RES-8, CL-D4).
                m.engine >= 2,
            );
        }
        Action::Attach(w, u) => {
            let spec = m.info(w).attach.clone();
            m.pay(seat, spec.len() as u8, &spec);
            if let Some(a) = m
                .side_mut(seat)
                .accessories
                .iter_mut()
                .find(|a| a.card == w)
            {
                a.on = Some(u);
            }
            m.log.push(Event::Attached {
                weapon: m.named(w),
                to: m.named(u),
            });
        }
        Action::Unattach(w) => {
            let spec = m.info(w).attach.clone();
            m.pay(seat, spec.len() as u8, &spec);
            if let Some(a) = m
                .side_mut(seat)
                .accessories
                .iter_mut()
                .find(|a| a.card == w)
            {
                a.on = None;
            }
            m.log.push(Event::Unattached(m.named(w)));
        }
        Action::Portal => {
            m.pay(seat, super::PORTAL_COST, &[]);
            let c = m.contender(seat);
            let entry = Entry {
                seat,
                source: c,
                what: What::Portal,
                targets: Vec::new(),
                answers: None,
                negated: false,
            };
            // Engine 2: opening it is an activation, answered as every
            // other (CL-RES-8, CL-D1).
            let window = m.engine >= 2;
            push(m, entry, window);
        }
        Action::Attack(a, t) => {
            set_engaged(m, a, true);
            let defender = m.owner(t);
            m.fight = Some(Fight {
                seat,
                attacker: a,
                target: t,
                defender,
                obstructors: Vec::new(),
                step: ClashStep::Attack,
                dealt: false,
            });
            m.log.push(Event::Step(ClashStep::Attack));
            m.log.push(Event::Attack {
                seat,
                attacker: m.named(a),
                target: m.named(t),
                defender,
            });
            triggers(m, a, When::Attack);
            if m.info(a).has(Keyword::Barrage(0)) {
                m.pending.push(Entry {
                    seat,
                    source: a,
                    what: What::Barrage,
                    targets: Vec::new(),
                    answers: None,
                    negated: false,
                });
            }
        }
        Action::Obstruct(u) => {
            set_engaged(m, u, true);
            if let Some(f) = m.fight.as_mut() {
                f.obstructors.push(u);
            }
            m.log.push(Event::Obstructed(m.named(u)));
            triggers(m, u, When::Obstruct);
        }
        Action::Target(c) => {
            if let Some(ch) = m.choosing.as_mut() {
                ch.entry.targets.push(c);
                if let Some((left, _)) = ch.barrage.as_mut() {
                    *left = left.saturating_sub(1);
                } else if !ch.need.is_empty() {
                    ch.need.remove(0);
                }
            }
            let done = m
                .choosing
                .as_ref()
                .is_some_and(|ch| ch.need.is_empty() && ch.barrage.is_none_or(|b| b.0 == 0));
            if done {
                finish_choosing(m);
            }
        }
        Action::Pass => {
            m.log.push(Event::Passed(seat));
            match ask {
                Some(Ask::Barrage) => finish_choosing(m),
                Some(Ask::Respond) => {
                    if let Some(w) = m.windows.last_mut() {
                        w.ask.retain(|s| *s != seat);
                    }
                }
                Some(Ask::Counter) => next_step(m, ClashStep::Obstruct),
                Some(Ask::Obstruct) => next_step(m, ClashStep::AttackerBuff),
                Some(Ask::Buff) => {
                    let after = match m.fight.as_ref().map(|f| f.step) {
                        Some(ClashStep::AttackerBuff) => ClashStep::DefenderBuff,
                        _ => ClashStep::Damage,
                    };
                    next_step(m, after);
                }
                _ => {}
            }
        }
        Action::EndTurn => {
            m.phase = Phase::End;
            let active = m.active;
            for c in in_play(m, active) {
                triggers(m, c, When::EndOfTurn);
            }
        }
        Action::Concede | Action::PayWith(_) => {}
    }
    settle(m);
    // A choice of resources lasts until the next action.
    m.prefer.clear();
    Ok(std::mem::take(&mut m.log))
}

/// Whether `seat` may choose its resource `r` to pay with first now: it
/// is asked, and `r` is a ready resource of its own not chosen yet.
pub(crate) fn may_pay_with(m: &Match, seat: Seat, r: Cid) -> bool {
    waiting(m).is_some_and(|w| w.0 == seat)
        && m.side(seat).resources.iter().any(|x| x.0 == r && !x.1)
        && !m.prefer.contains(&r)
}

/// The entry a response answers: the one its window is open on.
fn answering(m: &Match, ask: Option<Ask>) -> Option<u8> {
    (ask == Some(Ask::Respond))
        .then(|| m.windows.last().map(|w| w.entry))
        .flatten()
}

/// Puts a card or effect on its way into Standby: its targets chosen
/// first (CL-D26), then a priority window for the opponents if it is a
/// card played or a Trap activated (CL-STANDBY-2).
fn declare(m: &mut Match, entry: Entry, need: Vec<Target>, window: bool) {
    if need.is_empty() {
        push(m, entry, window);
    } else {
        m.choosing = Some(Choosing {
            entry,
            need,
            barrage: None,
            window,
        });
    }
}

fn finish_choosing(m: &mut Match) {
    let Some(ch) = m.choosing.take() else { return };
    if ch.barrage.is_some() && ch.entry.targets.is_empty() {
        return;
    }
    push(m, ch.entry, ch.window);
}

fn push(m: &mut Match, entry: Entry, window: bool) {
    let seat = entry.seat;
    // A Clash Buff uses up its targets for the turn once played, whatever
    // becomes of it (CL-BUFF-4, CL-D19).
    if entry.what == What::Play && m.info(entry.source).kind == ClashKind::ClashBuff {
        m.buffed.extend(entry.targets.iter().copied());
    }
    m.standby.push(entry);
    if window {
        let ask = m.others(seat);
        if let Some(first) = ask.first() {
            m.log.push(Event::Priority(*first));
        }
        m.windows.push(Window {
            entry: (m.standby.len() - 1) as u8,
            ask,
        });
    }
}

fn next_step(m: &mut Match, step: ClashStep) {
    m.buff_step_used = false;
    if let Some(f) = m.fight.as_mut() {
        f.step = step;
    }
    m.log.push(Event::Step(step));
}

/// Queues the card's abilities with this trigger tag (active ones).
fn triggers(m: &mut Match, c: Cid, when: When) {
    let seat = m.owner(c);
    let found: Vec<u8> = m
        .info(c)
        .effects
        .iter()
        .enumerate()
        .filter(|(_, a)| a.when == when && m.active_ability(c, a))
        .map(|(i, _)| i as u8)
        .collect();
    for i in found {
        m.pending.push(Entry {
            seat,
            source: c,
            what: What::Ability(i),
            targets: Vec::new(),
            answers: None,
            negated: false,
        });
    }
}

/// Runs the game on until someone must answer.
pub(crate) fn settle(m: &mut Match) {
    for _ in 0..10_000 {
        if m.outcome.is_some() || m.choosing.is_some() {
            return;
        }
        match m.phase {
            Phase::Mulligan => {
                if m.sides.iter().all(|z| z.settled) {
                    m.active = m.first;
                    begin_turn(m);
                    continue;
                }
                return;
            }
            Phase::Over => return,
            _ => {}
        }
        // State-based actions, then waiting triggers onto Standby (above
        // any open window: they resolve before its asking goes on).
        if state_checks(m) {
            continue;
        }
        if !m.pending.is_empty() {
            let e = order_pending(m);
            start_pending(m, e);
            continue;
        }
        // Standby: responses above an open window resolve first; a window
        // whose seats all passed closes and its entry resolves.
        if let Some(w) = m.windows.last() {
            let top = m.standby.len().saturating_sub(1);
            if usize::from(w.entry) > top || m.standby.is_empty() {
                m.windows.pop();
                continue;
            }
            if usize::from(w.entry) == top {
                // A card that will not resolve is answered no further.
                if w.ask.is_empty() || m.standby[top].negated {
                    m.windows.pop();
                    resolve_top(m);
                    continue;
                }
                return;
            }
            resolve_top(m);
            continue;
        }
        if !m.standby.is_empty() {
            resolve_top(m);
            continue;
        }
        if let Some(f) = m.fight.clone() {
            if !in_fight(m, &f) {
                end_clash(m);
                continue;
            }
            match f.step {
                ClashStep::Attack => {
                    next_step(m, ClashStep::Counter);
                    continue;
                }
                ClashStep::AttackerBuff if m.buff_step_used => {
                    next_step(m, ClashStep::DefenderBuff);
                    continue;
                }
                ClashStep::DefenderBuff if m.buff_step_used => {
                    next_step(m, ClashStep::Damage);
                    continue;
                }
                ClashStep::Damage if !f.dealt => {
                    damage_step(m);
                    continue;
                }
                ClashStep::Damage => {
                    end_clash(m);
                    continue;
                }
                _ => return,
            }
        }
        match m.phase {
            Phase::Start => {
                expansion(m);
                continue;
            }
            Phase::End => {
                finish_turn(m);
                continue;
            }
            _ => return,
        }
    }
}

/// Whether the Clash can go on: its attacker still in play and standing
/// (CL-D9).
fn in_fight(m: &Match, f: &Fight) -> bool {
    if f.dealt {
        return true;
    }
    let attacker_ok = m.unit(f.attacker).is_some_and(|u| !u.defeated);
    let target_ok = m.unit(f.target).is_some();
    attacker_ok && (target_ok || !f.obstructors.is_empty())
}

/// The next waiting trigger: the active player's first, then the others
/// in turn order (CL-D4), each seat's in the order they triggered.
fn order_pending(m: &mut Match) -> Entry {
    let mut order = vec![m.active];
    order.extend(m.others(m.active));
    for s in order {
        if let Some(i) = m.pending.iter().position(|e| e.seat == s) {
            return m.pending.remove(i);
        }
    }
    m.pending.remove(0)
}

fn start_pending(m: &mut Match, e: Entry) {
    match e.what {
        What::Barrage => {
            let x = m.info(e.source).x_of(Keyword::Barrage(0)).unwrap_or(1);
            let points = m.info(e.source).attack.max(0) as u8;
            if points == 0 || target_options(m, e.seat, e.source, Target::ChosenClash).is_empty() {
                return;
            }
            m.choosing = Some(Choosing {
                entry: e,
                need: Vec::new(),
                barrage: Some((points, x)),
                window: false,
            });
        }
        What::Ability(i) => {
            let a = m.info(e.source).effects[usize::from(i)].clone();
            m.log.push(Event::Triggered {
                seat: e.seat,
                card: m.named(e.source),
                words: a.words(),
            });
            let need = chosen(&a);
            if need
                .iter()
                .any(|t| target_options(m, e.seat, e.source, *t).is_empty())
            {
                // A trigger with no target it may choose does nothing.
                return;
            }
            declare(m, e, need, false);
        }
        _ => push(m, e, false),
    }
}

/// State-based actions (CL-D4): defeats, cards whose Trigger - Defeat
/// effects are done going to Oblivion, Contenders at 0 health. Whether
/// anything changed.
fn state_checks(m: &mut Match) -> bool {
    let mut changed = false;
    let n = m.sides.len();
    for s in Seat::all(n) {
        if m.side(s).lost {
            continue;
        }
        let units: Vec<Cid> = m.side(s).clash.iter().map(|u| u.card).collect();
        for c in units {
            let Some(u) = m.unit(c) else { continue };
            if !u.defeated && m.would_fall(c) {
                if let Some(u) = m.unit_mut(c) {
                    u.defeated = true;
                }
                m.log.push(Event::Defeated(m.named(c)));
                triggers(m, c, When::Defeat);
                changed = true;
            } else if u.defeated
                && !m.pending.iter().any(|e| e.source == c)
                && !m.standby.iter().any(|e| e.source == c)
            {
                to_oblivion(m, c);
                changed = true;
            }
        }
    }
    let fallen: Vec<Seat> = Seat::all(n)
        .filter(|s| !m.side(*s).lost && m.side(*s).health <= 0)
        .collect();
    if !fallen.is_empty() {
        for s in &fallen {
            lose(m, *s, "their Contender's health is 0".into());
        }
        changed = true;
    }
    changed
}

/// A seat is out (CL-WIN-2, -3): its cards leave play; the last seat in
/// wins; nobody left is a draw.
pub(crate) fn lose(m: &mut Match, s: Seat, why: String) {
    if m.side(s).lost {
        return;
    }
    m.side_mut(s).lost = true;
    m.log.push(Event::Lost { seat: s, why });
    for w in m.windows.iter_mut() {
        w.ask.retain(|o| *o != s);
    }
    m.pending.retain(|e| e.seat != s);
    if m.choosing.as_ref().is_some_and(|c| c.entry.seat == s) {
        m.choosing = None;
    }
    let left: Vec<Seat> = Seat::all(m.sides.len())
        .filter(|o| !m.side(*o).lost)
        .collect();
    match left.len() {
        0 => finish(m, Outcome::Draw),
        1 => finish(m, Outcome::Win(left[0])),
        _ => {
            if m.fight
                .as_ref()
                .is_some_and(|f| f.seat == s || f.defender == s)
            {
                m.fight = None;
            }
            if m.active == s {
                m.standby.clear();
                m.windows.clear();
                m.pending.clear();
                m.choosing = None;
                m.phase = Phase::End;
            }
        }
    }
}

fn finish(m: &mut Match, o: Outcome) {
    if m.outcome.is_none() {
        m.outcome = Some(o);
        m.phase = Phase::Over;
        m.log.push(Event::Over(o));
    }
}

/// Sends a card in play to its owner's Oblivion (a Contender never goes,
/// CL-CONT-5; a Clash card's Weapon goes back to the Accessory Zone,
/// CL-WEAPON-5).
pub(crate) fn to_oblivion(m: &mut Match, c: Cid) {
    let Some(p) = m.place(c) else { return };
    match p {
        Place::Contender(_) => return,
        Place::Clash(s, i) => {
            m.side_mut(s).clash.remove(i);
            unattach_from(m, c);
        }
        Place::Accessory(s, i) => {
            m.side_mut(s).accessories.remove(i);
        }
        Place::Ground(s) => m.side_mut(s).clashground = None,
    }
    let s = m.owner(c);
    m.side_mut(s).oblivion.push(c);
    m.log.push(Event::ToOblivion(m.named(c)));
}

fn unattach_from(m: &mut Match, c: Cid) {
    for s in Seat::all(m.sides.len()) {
        let mut back = Vec::new();
        for a in m.side_mut(s).accessories.iter_mut() {
            if a.on == Some(c) {
                a.on = None;
                back.push(a.card);
            }
        }
        for w in back {
            m.log.push(Event::Unattached(m.named(w)));
        }
    }
}

/// Returns a card in play to its owner's hand.
fn to_hand(m: &mut Match, c: Cid) {
    let Some(p) = m.place(c) else { return };
    match p {
        Place::Contender(_) => return,
        Place::Clash(s, i) => {
            m.side_mut(s).clash.remove(i);
            unattach_from(m, c);
        }
        Place::Accessory(s, i) => {
            m.side_mut(s).accessories.remove(i);
        }
        Place::Ground(s) => m.side_mut(s).clashground = None,
    }
    let s = m.owner(c);
    m.side_mut(s).hand.push(c);
    m.log.push(Event::ToHand(m.named(c)));
}

fn draw(m: &mut Match, s: Seat, n: u8) {
    let mut drew = 0;
    for _ in 0..n {
        match m.side_mut(s).deck.pop() {
            Some(c) => {
                m.side_mut(s).hand.push(c);
                drew += 1;
            }
            None => {
                if drew > 0 {
                    m.log.push(Event::Drew {
                        seat: s,
                        count: drew,
                    });
                }
                m.log.push(Event::DeckedOut(s));
                lose(m, s, "they had to draw from an empty deck".into());
                return;
            }
        }
    }
    if drew > 0 {
        m.log.push(Event::Drew {
            seat: s,
            count: drew,
        });
    }
}

/// Resolves the top of Standby (CL-STANDBY-3).
fn resolve_top(m: &mut Match) {
    let Some(e) = m.standby.pop() else { return };
    let kind = m.info(e.source).kind;
    if e.negated {
        m.log.push(Event::Negated(m.named(e.source)));
        if matches!(e.what, What::Play | What::Trap) && m.place(e.source).is_none() {
            let s = m.owner(e.source);
            if !m.side(s).hand.contains(&e.source) {
                m.side_mut(s).oblivion.push(e.source);
                m.log.push(Event::ToOblivion(m.named(e.source)));
            }
        }
        return;
    }
    match e.what {
        What::Play => {
            m.log.push(Event::Resolved(m.named(e.source)));
            match kind {
                ClashKind::Clash => {
                    if m.info(e.source).has(Keyword::Exclusive)
                        && controls_named(m, e.seat, &m.info(e.source).name.clone())
                    {
                        m.side_mut(e.seat).oblivion.push(e.source);
                        m.log.push(Event::ToOblivion(m.named(e.source)));
                        return;
                    }
                    let turn = m.turn;
                    m.side_mut(e.seat).clash.push(Unit::new(e.source, turn));
                    m.log.push(Event::Entered {
                        seat: e.seat,
                        card: m.named(e.source),
                    });
                    triggers(m, e.source, When::Enter);
                    if m.info(e.source).has(Keyword::AweFactor(0)) {
                        m.pending.push(Entry {
                            what: What::Awe,
                            ..e.clone()
                        });
                    }
                }
                ClashKind::Clashground => {
                    for s in Seat::all(m.sides.len()) {
                        if let Some(g) = m.side(s).clashground {
                            m.log.push(Event::Replaced(m.named(g)));
                            to_oblivion(m, g);
                        }
                    }
                    m.side_mut(e.seat).clashground = Some(e.source);
                    m.log.push(Event::Entered {
                        seat: e.seat,
                        card: m.named(e.source),
                    });
                    triggers(m, e.source, When::Enter);
                }
                ClashKind::Weapon | ClashKind::Relic => {
                    if m.info(e.source).has(Keyword::Exclusive)
                        && controls_named(m, e.seat, &m.info(e.source).name.clone())
                    {
                        m.side_mut(e.seat).oblivion.push(e.source);
                        m.log.push(Event::ToOblivion(m.named(e.source)));
                        return;
                    }
                    m.side_mut(e.seat).accessories.push(super::Accessory {
                        card: e.source,
                        engaged: false,
                        set_on: None,
                        on: None,
                    });
                    m.log.push(Event::Entered {
                        seat: e.seat,
                        card: m.named(e.source),
                    });
                    triggers(m, e.source, When::Enter);
                }
                _ => {
                    let abilities: Vec<Ability> =
                        resolving(m, e.source).into_iter().cloned().collect();
                    run(m, &e, &abilities);
                    m.side_mut(e.seat).oblivion.push(e.source);
                    m.log.push(Event::ToOblivion(m.named(e.source)));
                }
            }
        }
        What::Trap => {
            m.log.push(Event::Resolved(m.named(e.source)));
            let abilities: Vec<Ability> = resolving(m, e.source).into_iter().cloned().collect();
            run(m, &e, &abilities);
            m.side_mut(e.seat).oblivion.push(e.source);
            m.log.push(Event::ToOblivion(m.named(e.source)));
        }
        What::Ability(i) => {
            m.log.push(Event::Resolved(m.named(e.source)));
            let a = m.info(e.source).effects[usize::from(i)].clone();
            run(m, &e, std::slice::from_ref(&a));
        }
        What::Barrage => {
            m.log.push(Event::Resolved(m.named(e.source)));
            for &t in &e.targets {
                if m.standing(t) {
                    damage(m, t, 1);
                }
            }
        }
        What::Awe => {
            let x = i16::from(m.info(e.source).x_of(Keyword::AweFactor(0)).unwrap_or(0));
            for o in m.others(e.seat) {
                let cs: Vec<Cid> = m.side(o).clash.iter().map(|u| u.card).collect();
                for c in cs {
                    stats(m, c, -x, 0);
                }
            }
        }
        What::Portal => {
            m.side_mut(e.seat).portal = true;
            m.log.push(Event::PortalOpened(e.seat));
            draw(m, e.seat, 1);
        }
    }
}

fn stats(m: &mut Match, c: Cid, a: i16, d: i16) {
    if let Some(u) = m.unit_mut(c) {
        u.attack_bonus += a;
        u.defense_bonus += d;
        m.log.push(Event::Stats {
            card: m.named(c),
            attack: a,
            defense: d,
        });
    }
}

/// Non-clash damage (CL-CLASH-6; to a Contender, its health, CL-D14;
/// Enrage, CL-KW-5).
fn damage(m: &mut Match, c: Cid, n: i16) {
    match m.place(c) {
        Some(Place::Contender(s)) => {
            let h = (m.side(s).health - n).max(0);
            m.side_mut(s).health = h;
            m.log.push(Event::Damage {
                to: m.named(c),
                amount: n,
            });
            m.log.push(Event::Health { seat: s, health: h });
        }
        Some(Place::Clash(..)) => {
            let enrage = if m.has_keyword(c, Keyword::Enrage(0)) {
                i16::from(m.info(c).x_of(Keyword::Enrage(0)).unwrap_or(0))
            } else {
                0
            };
            if let Some(u) = m.unit_mut(c) {
                u.damage += n;
                u.attack_bonus += enrage * n;
            }
            m.log.push(Event::Damage {
                to: m.named(c),
                amount: n,
            });
            if enrage > 0 {
                m.log.push(Event::Stats {
                    card: m.named(c),
                    attack: enrage * n,
                    defense: 0,
                });
            }
        }
        _ => {}
    }
}

/// The cards an effect's target stands for, for the entry `e` (a chosen
/// target is the entry's target at `slot`).
fn targets_of(m: &Match, e: &Entry, t: Target, slot: usize) -> Vec<Cid> {
    let s = e.seat;
    let clash_of = |pred: &dyn Fn(Seat) -> bool| -> Vec<Cid> {
        Seat::all(m.sides.len())
            .filter(|o| !m.side(*o).lost && pred(*o))
            .flat_map(|o| {
                m.side(o)
                    .clash
                    .iter()
                    .filter(|u| !u.defeated)
                    .map(|u| u.card)
            })
            .collect()
    };
    match t {
        Target::This => vec![e.source],
        Target::Attached => m
            .side(m.owner(e.source))
            .accessories
            .iter()
            .find(|a| a.card == e.source)
            .and_then(|a| a.on)
            .into_iter()
            .collect(),
        Target::YourContender => vec![m.contender(s)],
        Target::OpposingContenders => m.others(s).into_iter().map(|o| m.contender(o)).collect(),
        Target::AllYourClash => clash_of(&|o| o == s),
        Target::AllOpposingClash => clash_of(&|o| o != s),
        Target::AllClash => clash_of(&|_| true),
        Target::Attacker => m.fight.as_ref().map(|f| f.attacker).into_iter().collect(),
        Target::Answered => match e.answers {
            Some(i) => m
                .standby
                .get(usize::from(i))
                .map(|a| a.source)
                .into_iter()
                .collect(),
            None => m.fight.as_ref().map(|f| f.attacker).into_iter().collect(),
        },
        _ => {
            let c = e.targets.get(slot).copied();
            // A chosen target that left play is gone (CL-D26).
            c.filter(|c| m.unit(*c).is_some_and(|u| !u.defeated))
                .into_iter()
                .collect()
        }
    }
}

/// Runs abilities' effects for the entry.
fn run(m: &mut Match, e: &Entry, abilities: &[Ability]) {
    let mut base = 0usize;
    for a in abilities {
        let kinds = a.chosen_targets();
        for eff in &a.effects {
            let targets = eff.target().map(|t| {
                let slot = base + kinds.iter().position(|k| *k == t).unwrap_or(0);
                targets_of(m, e, t, slot)
            });
            let ts = targets.clone().unwrap_or_default();
            match *eff {
                Effect::Damage(n, _) => {
                    for c in ts {
                        damage(m, c, i16::from(n));
                    }
                }
                Effect::Stats(a, d, _) => {
                    for c in ts {
                        stats(m, c, i16::from(a), i16::from(d));
                    }
                }
                Effect::Grant(k, _) => {
                    for c in ts {
                        if let Some(u) = m.unit_mut(c) {
                            u.granted.push(k);
                            m.log.push(Event::Granted {
                                card: m.named(c),
                                keyword: k,
                            });
                        }
                    }
                }
                Effect::Heal(n) => {
                    let s = e.seat;
                    let most = m.info(m.contender(s)).health;
                    let h = (m.side(s).health + i16::from(n)).min(most);
                    m.side_mut(s).health = h;
                    m.log.push(Event::Health { seat: s, health: h });
                }
                Effect::Draw(n) => draw(m, e.seat, n),
                Effect::OpponentDiscards(n) => {
                    for o in m.others(e.seat) {
                        for _ in 0..n {
                            let len = m.side(o).hand.len();
                            if len == 0 {
                                break;
                            }
                            let i = m.rng.below(len);
                            let c = m.side_mut(o).hand.remove(i);
                            m.side_mut(o).oblivion.push(c);
                            m.log.push(Event::Discarded {
                                seat: o,
                                card: m.named(c),
                            });
                        }
                    }
                }
                Effect::Oblivion(t) | Effect::Bounce(t) if t == Target::Answered => {
                    let to_hand = matches!(eff, Effect::Bounce(_));
                    answer_entry(m, e, to_hand);
                }
                Effect::Negate => answer_entry(m, e, false),
                Effect::Oblivion(_) => {
                    for c in ts {
                        to_oblivion(m, c);
                    }
                }
                Effect::Bounce(_) => {
                    for c in ts {
                        to_hand(m, c);
                    }
                }
                Effect::Engage(_) | Effect::Ready(_) => {
                    let on = matches!(eff, Effect::Engage(_));
                    for c in ts {
                        set_engaged(m, c, on);
                        m.log.push(Event::Engaged {
                            card: m.named(c),
                            engaged: on,
                        });
                    }
                }
                Effect::Prevent(n, _) => {
                    for c in ts {
                        if let Some(u) = m.unit_mut(c) {
                            u.prevent = u.prevent.saturating_add(n);
                        }
                    }
                }
            }
        }
        base += kinds.len();
    }
}

/// A Counter's answer to the entry it answers: that card or effect does
/// not resolve (to Oblivion, or back to the hand); an Irrefutable card is
/// never stopped so, and enters play all the same (CL-KW-9, CL-D10). Answering an attack (Counter - Attack):
/// the attacker goes.
fn answer_entry(m: &mut Match, e: &Entry, to_hand_: bool) {
    match e.answers {
        Some(i) => {
            let Some(target) = m.standby.get(usize::from(i)).cloned() else {
                return;
            };
            if target.what == What::Play && m.info(target.source).has(Keyword::Irrefutable) {
                return;
            }
            if to_hand_ && matches!(target.what, What::Play) {
                m.standby[usize::from(i)].negated = true;
                let s = m.owner(target.source);
                m.side_mut(s).hand.push(target.source);
                m.log.push(Event::ToHand(m.named(target.source)));
            } else {
                m.standby[usize::from(i)].negated = true;
            }
        }
        None => {
            if let Some(a) = m.fight.as_ref().map(|f| f.attacker) {
                if to_hand_ {
                    to_hand(m, a);
                } else {
                    to_oblivion(m, a);
                }
            }
        }
    }
}

/// Clash damage to `c` (CL-TURN-C6): prevention first; a Contender's
/// defence takes it and the rest comes off its health.
fn clash_damage(m: &mut Match, c: Cid, n: i16) -> i16 {
    let mut n = n;
    if let Some(u) = m.unit_mut(c) {
        let p = i16::from(u.prevent).min(n);
        u.prevent -= p as u8;
        n -= p;
        if p > 0 {
            m.log.push(Event::Prevented {
                to: m.named(c),
                amount: p,
            });
        }
    }
    if n <= 0 {
        return 0;
    }
    match m.place(c) {
        Some(Place::Contender(s)) => {
            let def = m.defense_of(c).max(0);
            let absorbed = n.min(def);
            m.side_mut(s).contender.clash_damage += absorbed;
            m.log.push(Event::ClashDamage {
                to: m.named(c),
                amount: n,
            });
            if n > absorbed {
                let h = (m.side(s).health - (n - absorbed)).max(0);
                m.side_mut(s).health = h;
                m.log.push(Event::Health { seat: s, health: h });
            }
        }
        Some(Place::Clash(..)) => {
            if let Some(u) = m.unit_mut(c) {
                u.clash_damage += n;
            }
            m.log.push(Event::ClashDamage {
                to: m.named(c),
                amount: n,
            });
        }
        _ => {}
    }
    n
}

/// C6: clash damage, dealt at once; Superspeed first (CL-KW-13, CL-D8);
/// Breakthrough's excess to the Contender (CL-KW-3, CL-D2); Necrotic
/// marks (CL-KW-10); then defeats, Victory, and who lost.
fn damage_step(m: &mut Match) {
    let Some(f) = m.fight.clone() else { return };
    if let Some(ff) = m.fight.as_mut() {
        ff.dealt = true;
    }
    let attacker_ok = m.unit(f.attacker).is_some_and(|u| !u.defeated);
    let defenders: Vec<Cid> = if f.obstructors.is_empty() {
        vec![f.target]
    } else {
        f.obstructors.clone()
    }
    .into_iter()
    .filter(|c| m.unit(*c).is_some_and(|u| !u.defeated))
    .collect();
    if !attacker_ok || defenders.is_empty() {
        return;
    }
    let fast = |m: &Match, c: Cid| m.has_keyword(c, Keyword::Superspeed);
    let any_fast = fast(m, f.attacker) || defenders.iter().any(|&d| fast(m, d));
    let passes: &[bool] = if any_fast { &[true, false] } else { &[false] };
    let mut fell_by: Vec<(Cid, Cid)> = Vec::new(); // (victim, dealer)
    let health_before: Vec<i16> = m.sides.iter().map(|z| z.health).collect();
    for &first in passes {
        let speed = |m: &Match, c: Cid| !any_fast || fast(m, c) == first;
        // Every dealer's damage is figured before any is dealt.
        let mut blows: Vec<(Cid, Cid, i16)> = Vec::new();
        let out = |m: &Match, c: Cid| {
            m.unit(c).is_none_or(|u| u.defeated) || m.would_fall(c) && !first_pass_alive(m, c)
        };
        if speed(m, f.attacker) && !out(m, f.attacker) {
            let atk = m.attack_of(f.attacker);
            for &d in &defenders {
                if m.unit(d).is_some() {
                    blows.push((f.attacker, d, atk));
                }
            }
            let clash_cards: Vec<Cid> = defenders
                .iter()
                .copied()
                .filter(|d| matches!(m.place(*d), Some(Place::Clash(..))))
                .collect();
            if m.has_keyword(f.attacker, Keyword::Breakthrough) && !clash_cards.is_empty() {
                let total: i16 = clash_cards.iter().map(|&d| m.defense_of(d).max(0)).sum();
                if atk > total {
                    blows.push((f.attacker, m.contender(f.defender), atk - total));
                }
            }
        }
        for &d in &defenders {
            if speed(m, d) && !out(m, d) && m.unit(f.attacker).is_some() {
                blows.push((d, f.attacker, m.attack_of(d)));
            }
        }
        for (from, to, n) in blows {
            if n <= 0 {
                continue;
            }
            let dealt = clash_damage(m, to, n);
            if dealt > 0
                && m.has_keyword(from, Keyword::Necrotic)
                && matches!(m.place(to), Some(Place::Clash(..)))
                && let Some(u) = m.unit_mut(to)
            {
                u.necrotic = true;
            }
            if matches!(m.place(to), Some(Place::Clash(..))) {
                fell_by.push((to, from));
            }
        }
    }
    // Who lost: both Contenders at 0 by clash damage, the active player
    // wins (CL-CONT-7).
    let fallen: Vec<Seat> = Seat::all(m.sides.len())
        .filter(|s| !m.side(*s).lost && m.side(*s).health <= 0 && health_before[s.index()] > 0)
        .collect();
    if fallen.len() > 1 && fallen.contains(&m.active) {
        let active = m.active;
        m.side_mut(active).health = 0;
        m.log.push(Event::Lost {
            seat: fallen
                .iter()
                .copied()
                .find(|s| *s != active)
                .unwrap_or(active),
            why: "both Contenders fell to clash damage: the active player wins".into(),
        });
        let active_win = Outcome::Win(active);
        for s in fallen.iter().filter(|s| **s != active) {
            m.side_mut(*s).lost = true;
        }
        finish(m, active_win);
        return;
    }
    // Defeats now, so Victory can be told.
    let mut victories: Vec<Cid> = Vec::new();
    for (victim, dealer) in &fell_by {
        if m.unit(*victim).is_some_and(|u| !u.defeated) && m.would_fall(*victim) {
            if let Some(u) = m.unit_mut(*victim) {
                u.defeated = true;
            }
            m.log.push(Event::Defeated(m.named(*victim)));
            triggers(m, *victim, When::Defeat);
            if !victories.contains(dealer) {
                victories.push(*dealer);
            }
        }
    }
    for d in victories {
        if m.unit(d).is_some_and(|u| !u.defeated) && !m.would_fall(d) {
            triggers(m, d, When::Victory);
        }
    }
}

/// Whether a card at 0 defence still deals damage in the second pass: only
/// if it is Undisputed on its turn (it is not defeated).
fn first_pass_alive(m: &Match, c: Cid) -> bool {
    !m.would_fall(c)
}

/// After C6 (or a Clash cut short): defences reset, Necrotic's victims to
/// Oblivion, back to the Primary Phase (CL-TURN-C6, CL-KW-10).
fn end_clash(m: &mut Match) {
    m.fight = None;
    m.buff_step_used = false;
    let mut necrotic = Vec::new();
    for z in m.sides.iter_mut() {
        z.contender.clash_damage = 0;
        for u in z.clash.iter_mut() {
            u.clash_damage = 0;
            if u.necrotic && !u.defeated {
                necrotic.push(u.card);
            }
            u.necrotic = false;
        }
    }
    m.log.push(Event::ClashOver);
    for c in necrotic {
        to_oblivion(m, c);
    }
}

/// A new turn for `m.active` (CL-TURN-1): the Start of Turn Phase.
fn begin_turn(m: &mut Match) {
    m.turn += 1;
    if m.turn > TURN_LIMIT {
        finish(m, Outcome::Draw);
        return;
    }
    let s = m.active;
    m.side_mut(s).resourced = false;
    m.log.push(Event::TurnBegan {
        seat: s,
        turn: m.turn,
    });
    m.phase = Phase::Start;
    for c in in_play(m, s) {
        triggers(m, c, When::StartOfTurn);
    }
}

/// E1 and E2 (the first player skips both on the first turn, CL-START-6a),
/// then E3 asks.
fn expansion(m: &mut Match) {
    let s = m.active;
    if m.turn > 1 {
        let z = m.side_mut(s);
        z.contender.engaged = false;
        for u in z.clash.iter_mut() {
            u.engaged = false;
        }
        for r in z.resources.iter_mut() {
            r.1 = false;
        }
        for a in z.accessories.iter_mut() {
            a.engaged = false;
        }
        m.log.push(Event::Readied(s));
        draw(m, s, 1);
        if m.outcome.is_some() || m.side(s).lost {
            return;
        }
    }
    m.phase = Phase::Resource;
}

/// The End of Turn Phase's last part (CL-TURN-END, CL-D20): "until end of
/// turn" ends, non-clash damage is removed, then the next player's turn.
fn finish_turn(m: &mut Match) {
    for z in m.sides.iter_mut() {
        for u in std::iter::once(&mut z.contender).chain(z.clash.iter_mut()) {
            u.attack_bonus = 0;
            u.defense_bonus = 0;
            u.granted.clear();
            u.prevent = 0;
            if !u.defeated {
                u.damage = 0;
            }
        }
    }
    m.buffed.clear();
    m.log.push(Event::TurnEnded(m.active));
    let next = m.others(m.active).first().copied();
    match next {
        Some(n) => {
            m.active = n;
            begin_turn(m);
        }
        None => finish(m, Outcome::Draw),
    }
}
