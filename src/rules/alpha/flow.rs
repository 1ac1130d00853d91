//! The order of play (`docs/alpha-rules.md`, section 4): setup, the turn,
//! the Preparation, Evolution and Battle Phases, and every action a seat
//! may take at each point.

use super::moment::Moment;
use super::table::{Kind, Needs};
use super::{
    Action, Battle, CardId, Event, HAND, Match, Mon, Opt, PLAY_LIMIT, Placed, Side, Step,
    TURN_LIMIT, Wait,
};
use crate::cards::{Card, CardNumber};
use crate::rules::{Outcome, Seat};

impl Match {
    // ---------------------------------------------------------------- setup

    /// Shuffles the decks and draws the opening hands, with the Level III
    /// redraw (once; automatic, D25).
    pub(super) fn setup_hands(&mut self, shuffle: bool) {
        let order = self.order.clone();
        for &s in &order {
            if shuffle {
                let mut ocean = std::mem::take(&mut self.st(s).ocean);
                self.rng.shuffle(&mut ocean);
                self.st(s).ocean = ocean;
            }
            self.draw(s, HAND);
            if !self.hand_has_level_iii(s) {
                self.redraw(s, shuffle);
            }
        }
    }

    /// Shows the hand, shuffles it back and draws 6. A scripted (unshuffled)
    /// match puts the hand under the Net Ocean in order instead.
    fn redraw(&mut self, s: Seat, shuffle: bool) {
        let hand = std::mem::take(&mut self.st(s).hand);
        self.emit_with(|m| Event::Redraw {
            seat: s,
            shown: hand.iter().filter_map(|&c| m.number(c)).collect(),
        });
        let st = self.st(s);
        st.ocean.extend(hand);
        if shuffle {
            let mut ocean = std::mem::take(&mut self.st(s).ocean);
            self.rng.shuffle(&mut ocean);
            self.st(s).ocean = ocean;
        }
        self.draw(s, HAND);
    }

    /// Draws up to `n` cards from the top of the Net Ocean; returns how many.
    pub(super) fn draw(&mut self, s: Seat, n: usize) -> usize {
        let st = self.st(s);
        let k = n.min(st.ocean.len());
        st.hand.extend(st.ocean.drain(..k));
        if k > 0 {
            self.emit(Event::Drew {
                seat: s,
                count: k as u8,
            });
        }
        k
    }

    pub(super) fn is_level_iii(&self, id: CardId) -> bool {
        self.info(id).is_some_and(|i| i.level_iii)
    }

    fn hand_has_level_iii(&self, s: Seat) -> bool {
        self.seats[s.index()]
            .hand
            .iter()
            .any(|&c| self.is_level_iii(c))
    }

    // ---------------------------------------------------------------- the loop

    /// Runs steps until a seat must answer or the game is over.
    pub(super) fn advance(&mut self) {
        loop {
            self.check_points();
            if self.outcome.is_some() {
                self.steps.clear();
                self.wait = None;
                return;
            }
            if let Some(w) = &self.wait {
                if self.alive(w.seat()) {
                    return;
                }
                self.wait = None;
            }
            let Some(step) = self.steps.pop() else {
                return;
            };
            self.run(step);
        }
    }

    /// Pushes steps so that they run in the order given.
    pub(super) fn then(&mut self, steps: impl IntoIterator<Item = Step>) {
        let at = self.steps.len();
        self.steps.extend(steps);
        self.steps[at..].reverse();
    }

    fn run(&mut self, step: Step) {
        match step {
            Step::TurnStart => self.turn_start(),
            Step::Prep(s) => {
                if !self.alive(s) {
                    return;
                }
                self.emit(Event::Preparation(s));
                self.steps.push(Step::PrepDraw(s));
                if self.turn > 1 {
                    self.wait = Some(Wait::Discards(s));
                }
            }
            Step::PrepDraw(s) => self.prep_draw(s),
            Step::PrepAbilities(s) => {
                if self.alive(s) {
                    let fires = self.seat_fires(s, Moment::Preparation);
                    self.then(fires);
                }
            }
            Step::Evolution => self.evolution(),
            Step::BattlePhase => {
                self.emit(Event::BattlePhase);
                self.steps.push(Step::NextActor);
            }
            Step::NextActor => self.next_actor(),
            Step::BlockOrDamage => self.block_or_damage(),
            Step::BattleStart => self.battle_start(),
            Step::Commands(k) => {
                let Some(seat) = self.battle.as_ref().map(|b| b.sides[usize::from(k)].seat) else {
                    return;
                };
                if self.alive(seat) && self.commands_in_hand(seat).next().is_some() {
                    self.wait = Some(Wait::Commands(seat));
                }
            }
            Step::Outcome => self.battle_outcome(),
            Step::Delete(k) => self.battle_delete(k),
            Step::Tapping => self.battle_tapping(),
            Step::AfterBattle => {
                let fires = self.after_battle_fires();
                self.then(fires);
            }
            Step::EndAction(mon) => {
                if let Some(b) = self.battle.take() {
                    for side in b.sides {
                        if self.alive(side.seat) {
                            self.st(side.seat).dark.extend(side.commands);
                        }
                    }
                }
                if let Some(m) = self.mon_mut(mon) {
                    m.acted = true;
                }
                self.steps.push(Step::NextActor);
            }
            Step::EndOfTurn => {
                self.steps.push(Step::TurnEnd);
                let order = self.order.clone();
                let mut fires = Vec::new();
                for s in order.into_iter().filter(|&s| self.alive(s)) {
                    self.seat_fires_into(s, Moment::EndOfTurn, &mut fires);
                }
                self.then(fires);
            }
            Step::TurnEnd => self.turn_end(),
            Step::Fire { ctx, next, stage } => self.fire(ctx, next, stage),
        }
    }

    // ---------------------------------------------------------------- turns

    fn turn_start(&mut self) {
        self.turn += 1;
        if self.turn > 1 {
            for st in &mut self.seats {
                st.digimon.iter_mut().for_each(|m| m.tapped = false);
                st.options.iter_mut().for_each(|o| o.tapped = false);
            }
            self.emit(Event::Untapped);
        }
        // D10: fewest points first; equal points keep last turn's order (on
        // turn 1, the order the game began with: at 100 points each, that
        // order; a script that starts a seat lower puts it first).
        {
            let mut last = [usize::MAX; 4];
            for (k, s) in self.order.iter().enumerate() {
                if let Some(at) = last.get_mut(s.index()) {
                    *at = k;
                }
            }
            let mut order = std::mem::take(&mut self.order);
            order.clear();
            order.extend(self.living());
            order.sort_by_key(|&s| {
                (
                    self.points(s),
                    last.get(s.index()).copied().unwrap_or(usize::MAX),
                    s.index(),
                )
            });
            self.order = order;
        }
        for st in &mut self.seats {
            st.played_digimon = 0;
            st.played_options = 0;
            st.played_cost = 0;
            st.lifespan = false;
            for m in &mut st.digimon {
                m.acted = false;
                m.fresh = false;
            }
            st.options.iter_mut().for_each(|o| o.fresh = false);
        }
        self.uses.iter_mut().for_each(|u| u.2 = 0);
        self.emit_with(|m| Event::TurnStarts {
            turn: m.turn,
            order: m.order.clone(),
        });
        // The steps run last pushed first.
        self.steps.push(Step::Evolution);
        for k in (0..self.order.len()).rev() {
            self.steps.push(Step::Prep(self.order[k]));
        }
    }

    fn turn_end(&mut self) {
        self.emit(Event::TurnEnds(self.turn));
        for st in &mut self.seats {
            st.digimon
                .iter_mut()
                .for_each(|m| m.mods = Default::default());
        }
        if self.turn >= TURN_LIMIT {
            // E-f: the most points wins; a shared top is a draw.
            let best = self.living().map(|s| self.points(s)).max().unwrap_or(0);
            let top: Vec<Seat> = self.living().filter(|&s| self.points(s) == best).collect();
            let outcome = match top.as_slice() {
                [one] => Outcome::Win(*one),
                _ => Outcome::Draw,
            };
            self.finish(outcome);
            return;
        }
        self.steps.push(Step::TurnStart);
    }

    pub(super) fn finish(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
            self.emit(Event::Over(outcome));
        }
    }

    /// Any seat at 0 points leaves (D18); the last seat standing wins.
    pub(super) fn check_points(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        while let Some(i) = self.seats.iter().position(|s| s.alive && s.points == 0) {
            let Some(s) = Seat::new(i) else { break };
            self.leave(s, "its points dropped to 0");
        }
    }

    /// A seat loses and leaves: its cards leave the game, targets on it
    /// move on (D18).
    pub(super) fn leave(&mut self, s: Seat, why: &str) {
        if !self.alive(s) {
            return;
        }
        self.emit_with(|_| Event::Left {
            seat: s,
            why: why.to_string(),
        });
        let st = self.st(s);
        st.alive = false;
        let mut all: Vec<CardId> = Vec::new();
        all.append(&mut st.ocean);
        all.append(&mut st.hand);
        all.append(&mut st.dark);
        for m in st.digimon.drain(..) {
            all.push(m.card);
            all.extend(
                m.stack
                    .into_iter()
                    .flat_map(|p| p.partner.into_iter().chain([p.card])),
            );
        }
        all.extend(st.options.drain(..).map(|o| o.card));
        st.gone.extend(all);
        if let Some(b) = &mut self.battle {
            for side in &mut b.sides {
                if side.seat == s {
                    side.seat_gone_cards(&mut self.seats[s.index()].gone);
                }
            }
        }
        let n = self.seats.len();
        for i in 0..n {
            if self.seats[i].alive && self.seats[i].target == s {
                let next = (1..n)
                    .map(|k| (s.index() + k) % n)
                    .find(|&j| self.seats[j].alive && j != i);
                if let Some(j) = next.and_then(Seat::new) {
                    self.seats[i].target = j;
                }
            }
        }
        self.order.retain(|&x| x != s);
        let living: Vec<Seat> = self.living().collect();
        match living.as_slice() {
            [] => self.finish(Outcome::Draw),
            [one] => self.finish(Outcome::Win(*one)),
            _ => {}
        }
    }

    // ---------------------------------------------------------------- Preparation

    fn prep_draw(&mut self, s: Seat) {
        if !self.alive(s) {
            return;
        }
        let need = HAND.saturating_sub(self.seats[s.index()].hand.len());
        if self.seats[s.index()].ocean.len() >= need {
            self.draw(s, need);
        } else {
            self.draw(s, need);
            // The Lifespan Process (D19): play (but Options) to the Dark
            // Area, which is shuffled and becomes the Net Ocean.
            let st = self.st(s);
            let mut dark = std::mem::take(&mut st.dark);
            for m in st.digimon.drain(..) {
                dark.push(m.card);
                dark.extend(
                    m.stack
                        .into_iter()
                        .flat_map(|p| p.partner.into_iter().chain([p.card])),
                );
            }
            self.rng.shuffle(&mut dark);
            let recycled = dark.len() as u16;
            let st = self.st(s);
            st.ocean = dark;
            st.lifespan = true;
            self.emit(Event::Lifespan { seat: s, recycled });
            let need = HAND.saturating_sub(self.seats[s.index()].hand.len());
            self.draw(s, need);
            if self.seats[s.index()].hand.len() < HAND {
                self.leave(
                    s,
                    "its Net Ocean is exhausted even after the Lifespan Process",
                );
                return;
            }
        }
        let lifespan = self.seats[s.index()].lifespan;
        if self.turn > 1 && !lifespan && !self.has_level_iii_anywhere(s) {
            self.redraw(s, true);
        }
        if self.seats[s.index()].wiped && (lifespan || !self.hand_has_level_iii(s)) {
            self.leave(
                s,
                "all its Digimon were deleted and it cannot play a Level III to go on",
            );
            return;
        }
        self.steps.push(Step::PrepAbilities(s));
        if !lifespan {
            self.wait = Some(Wait::Plays(s));
        }
    }

    fn has_level_iii_anywhere(&self, s: Seat) -> bool {
        let st = &self.seats[s.index()];
        self.hand_has_level_iii(s)
            || st.digimon.iter().any(|m| self.is_level_iii(m.card))
            || st.options.iter().any(|o| self.is_level_iii(o.card))
    }

    /// Whether the ◎ one card limit refuses card `id` for seat `s` (D26).
    pub(super) fn limit_refuses(&self, s: Seat, id: CardId) -> bool {
        let Some(info) = self.info(id) else {
            return false;
        };
        if !info.one_card_limit {
            return false;
        }
        let name = info.name;
        let st = &self.seats[s.index()];
        let same = |c: CardId| self.info(c).is_some_and(|i| i.name == name);
        match info.kind {
            Kind::Option => st.options.iter().any(|o| same(o.card)),
            _ => st
                .digimon
                .iter()
                .any(|m| same(m.card) || m.stack.iter().any(|p| same(p.card))),
        }
    }

    fn play_actions(&self, s: Seat, out: &mut Vec<Action>) {
        let st = &self.seats[s.index()];
        let ups = || st.digimon.iter().filter(|m| !m.down).map(|m| m.card);
        for (i, &id) in st.hand.iter().enumerate() {
            // The same card twice in hand plays the same: offer the first.
            if st.hand[..i].iter().any(|&o| self.same_card(o, id)) {
                continue;
            }
            let Some(info) = self.info(id) else { continue };
            if self.limit_refuses(s, id) {
                continue;
            }
            match info.kind {
                Kind::Option if st.played_options < PLAY_LIMIT => out.push(Action::Play(id)),
                Kind::Digimon if st.played_digimon < PLAY_LIMIT => {
                    if info.level_iii {
                        out.push(Action::Play(id));
                    } else if let Needs::Jogress(x, y) = info.needs {
                        for on in ups() {
                            for &p in &st.hand {
                                let ok = p != id
                                    && self.info(p).is_some_and(|c| c.name == x || c.name == y);
                                if ok && !out.contains(&Action::Jogress(id, on, p)) {
                                    out.push(Action::Jogress(id, on, p));
                                }
                            }
                        }
                    } else {
                        out.extend(ups().map(|on| Action::Evolve(id, on)));
                    }
                }
                _ => {}
            }
        }
    }

    // ---------------------------------------------------------------- Evolution

    fn evolution(&mut self) {
        self.emit(Event::EvolutionPhase);
        let mut fires = Vec::new();
        for pos in 0..self.order.len() {
            let s = self.order[pos];
            if !self.alive(s) {
                continue;
            }
            // Face up, untapped; the cards turned are named only when
            // events are kept.
            let loud = !self.scratch.quiet;
            let mut revealed = Vec::new();
            let st = self.st(s);
            for m in &mut st.digimon {
                if m.down {
                    m.down = false;
                    m.tapped = false;
                    if loud {
                        revealed.push(m.card);
                    }
                }
                if loud {
                    revealed.extend(m.stack.iter().map(|p| p.card));
                }
            }
            for o in &mut st.options {
                if o.down {
                    o.down = false;
                    o.tapped = false;
                    if loud {
                        revealed.push(o.card);
                    }
                }
            }
            if !revealed.is_empty() {
                let cards = revealed.iter().filter_map(|&c| self.number(c)).collect();
                self.emit(Event::Revealed { seat: s, cards });
            }
            self.burst(s);
            fires.extend(self.evolve_stacks(s));
            // Fastest first; equal Speeds keep their order (the owner picks
            // which acts first when their turn comes, D28).
            let lined_up = self.seats[s.index()]
                .digimon
                .windows(2)
                .all(|w| self.mon_speed(&w[0]) >= self.mon_speed(&w[1]));
            if !lined_up {
                let mut sorted: Vec<(u32, usize)> = self.seats[s.index()]
                    .digimon
                    .iter()
                    .enumerate()
                    .map(|(i, m)| (self.mon_speed(m), i))
                    .collect();
                sorted.sort_by_key(|&(sp, i)| (std::cmp::Reverse(sp), i));
                let st = self.st(s);
                let old = std::mem::take(&mut st.digimon);
                let mut slots: Vec<Option<Mon>> = old.into_iter().map(Some).collect();
                st.digimon = sorted
                    .iter()
                    .filter_map(|&(_, i)| slots[i].take())
                    .collect();
            }
            let st = self.st(s);
            if !st.digimon.is_empty() {
                st.wiped = false;
                if !self.scratch.quiet {
                    let st = &self.seats[s.index()];
                    let cards = st
                        .digimon
                        .iter()
                        .filter_map(|m| self.number(m.card))
                        .collect();
                    self.emit(Event::LinedUp { seat: s, cards });
                }
            }
        }
        self.steps.push(Step::BattlePhase);
        self.then(fires);
    }

    fn burst(&mut self, s: Seat) {
        let total = self.seats[s.index()].played_cost;
        if total <= super::COST_LIMIT {
            return;
        }
        let over = total - super::COST_LIMIT;
        let st = self.st(s);
        if st.ocean.len() >= over as usize {
            let sent: Vec<CardId> = st.ocean.drain(..over as usize).collect();
            st.dark.extend(sent);
            self.emit(Event::Burst {
                seat: s,
                over,
                played_cards_lost: false,
            });
            return;
        }
        // D5: every card played this turn goes; the Net Ocean stays.
        let mut lost = Vec::new();
        st.digimon.retain_mut(|m| {
            lost.extend(
                m.stack
                    .drain(..)
                    .flat_map(|p| p.partner.into_iter().chain([p.card])),
            );
            if m.fresh {
                lost.push(m.card);
                false
            } else {
                true
            }
        });
        st.options.retain(|o| {
            if o.fresh {
                lost.push(o.card);
            }
            !o.fresh
        });
        st.dark.extend(lost);
        self.emit(Event::Burst {
            seat: s,
            over,
            played_cards_lost: true,
        });
    }

    /// Each stack, bottom up; the first failure sends it and the cards
    /// above it to the Dark Area (D15). Returns the Evolution abilities.
    fn evolve_stacks(&mut self, s: Seat) -> Vec<Step> {
        let mut fires = Vec::new();
        for k in 0..self.seats[s.index()].digimon.len() {
            let stack = std::mem::take(&mut self.st(s).digimon[k].stack);
            for (i, placed) in stack.iter().enumerate() {
                let below = self.seats[s.index()].digimon[k].card;
                if self.meets(placed, below) {
                    self.st(s).dark.push(below);
                    self.st(s).dark.extend(placed.partner);
                    let m = &mut self.st(s).digimon[k];
                    m.card = placed.card;
                    m.tapped = false;
                    if let (Some(from), Some(to)) = (self.number(below), self.number(placed.card)) {
                        self.emit(Event::Evolved { seat: s, from, to });
                    }
                    fires.extend(self.digimon_fires(s, placed.card, Moment::Evolved));
                } else {
                    if let (Some(card), Some(on)) = (self.number(placed.card), self.number(below)) {
                        self.emit(Event::EvolutionFailed { seat: s, card, on });
                    }
                    let rest: Vec<CardId> = stack[i..]
                        .iter()
                        .flat_map(|p| p.partner.into_iter().chain([p.card]))
                        .collect();
                    self.st(s).dark.extend(rest);
                    break;
                }
            }
        }
        fires
    }

    pub(super) fn meets_public(&self, card: CardId, on: CardId, partner: Option<CardId>) -> bool {
        self.meets(&Placed { card, partner }, on)
    }

    /// Whether a placed card's requirements are met by the Digimon below.
    fn meets(&self, placed: &Placed, below: CardId) -> bool {
        let (Some(d), Some(b)) = (self.info(placed.card), self.info(below)) else {
            return false;
        };
        let below = b.name;
        match &d.needs {
            Needs::None => false,
            Needs::AnyOf(names) => names.contains(&below),
            &Needs::Jogress(x, y) => {
                let Some(p) = placed.partner.and_then(|p| self.info(p)) else {
                    return false;
                };
                (below == x && p.name == y) || (below == y && p.name == x)
            }
        }
    }

    // ---------------------------------------------------------------- Battle Phase

    fn next_actor(&mut self) {
        // The fastest (speed, earliest in the order), its first Digimon,
        // and whether another one ties with it.
        let mut best: Option<((u32, usize), CardId, bool)> = None;
        for (pos, &s) in self.order.iter().enumerate() {
            if !self.alive(s) {
                continue;
            }
            for m in &self.seats[s.index()].digimon {
                if m.down || m.acted {
                    continue;
                }
                let key = (self.mon_speed(m), usize::MAX - pos);
                match &mut best {
                    Some((b, _, _)) if key < *b => {}
                    Some((b, _, tie)) if key == *b => *tie = true,
                    _ => best = Some((key, m.card, false)),
                }
            }
        }
        let Some(((speed, _), first, tie)) = best else {
            self.steps.push(Step::EndOfTurn);
            return;
        };
        if tie {
            if let Some(s) = self.owner(first) {
                self.wait = Some(Wait::Lead(s, speed));
            }
        } else {
            self.start_action(first);
        }
    }

    fn start_action(&mut self, id: CardId) {
        let Some((s, k)) = self.mon(id) else {
            self.steps.push(Step::NextActor);
            return;
        };
        let m = &mut self.st(s).digimon[k];
        if m.tapped {
            m.acted = true;
            if let Some(card) = self.number(id) {
                self.emit(Event::TappedIdle { seat: s, card });
            }
            self.steps.push(Step::NextActor);
        } else {
            self.wait = Some(Wait::Act(s, id));
        }
    }

    fn lead_candidates(&self, s: Seat, speed: u32) -> impl Iterator<Item = CardId> + '_ {
        self.seats[s.index()]
            .digimon
            .iter()
            .filter(move |m| !m.down && !m.acted && self.mon_speed(m) == speed)
            .map(|m| m.card)
    }

    /// Untapped face-up Digimon of `s` that may support `main` (same
    /// battle type and Field).
    pub(super) fn supporters<'a>(
        &'a self,
        s: Seat,
        main: CardId,
        taken: &'a [CardId],
    ) -> impl Iterator<Item = CardId> + 'a {
        let field = self.def(main).map(|d| d.field);
        let bt = self.battle_type(main);
        self.seats[s.index()]
            .digimon
            .iter()
            .filter(move |m| {
                field.is_some()
                    && !m.down
                    && !m.tapped
                    && m.card != main
                    && !taken.contains(&m.card)
                    && self.battle_type(m.card) == bt
                    && self.def(m.card).map(|x| x.field) == field
            })
            .map(|m| m.card)
    }

    /// The Digimon that may block the attack under way (alpha-block: with
    /// as many supporters as the attack has).
    fn blockers(&self) -> impl Iterator<Item = CardId> + '_ {
        let b = self.battle.as_ref().filter(|b| b.sides[0].main.is_some());
        let def = b.map_or(Seat::P1, |b| b.sides[1].seat);
        let alpha = b.map(|b| b.alpha);
        let need = b.map_or(0, |b| usize::from(b.need));
        let sp = match (b, alpha) {
            (Some(b), Some(false)) => b.sides[0].main.map_or(0, |a| self.speed(a)),
            _ => 0,
        };
        self.seats[def.index()]
            .digimon
            .iter()
            .filter(move |m| {
                !m.down
                    && !m.tapped
                    && match alpha {
                        None => false,
                        Some(true) => {
                            need == 0 || self.supporters(def, m.card, &[]).nth(need - 1).is_some()
                        }
                        Some(false) => self.mon_speed(m) > sp,
                    }
            })
            .map(|m| m.card)
    }

    fn block_or_damage(&mut self) {
        let Some(b) = &self.battle else { return };
        let def = b.sides[1].seat;
        if !self.alive(def) {
            return;
        }
        if self.blockers().next().is_none() {
            self.unblocked();
        } else if b.alpha {
            self.wait = Some(Wait::AlphaBlock(def));
        } else {
            self.wait = Some(Wait::Block(def));
        }
    }

    /// No block: 10 damage, the attacker (and supporters) tap.
    fn unblocked(&mut self) {
        let Some(b) = &self.battle else { return };
        let def = b.sides[1].seat;
        let main = b.sides[0].main;
        let st = self.st(def);
        st.points = st.points.saturating_sub(super::DAMAGE);
        let points = st.points;
        self.emit(Event::Damage {
            seat: def,
            amount: super::DAMAGE,
            points,
        });
        if let Some(id) = main {
            self.tap(id);
        }
        self.tap_support(0);
        let fires = self.lose_points_fires(def);
        self.then(fires);
    }

    /// Taps the supporters of battle side `k`.
    fn tap_support(&mut self, k: usize) {
        for i in 0.. {
            let Some(id) = self
                .battle
                .as_ref()
                .and_then(|b| b.sides[k].support.get(i).copied())
            else {
                break;
            };
            self.tap(id);
        }
    }

    pub(super) fn tap(&mut self, id: CardId) {
        let Some((s, k)) = self.mon(id) else { return };
        let m = &mut self.st(s).digimon[k];
        if !m.tapped {
            m.tapped = true;
            if let Some(card) = self.number(id) {
                self.emit(Event::Tapped { seat: s, card });
            }
        }
    }

    fn battle_start(&mut self) {
        let Some(b) = &self.battle else { return };
        if b.sides
            .iter()
            .any(|s| s.main.is_none() || !self.alive(s.seat))
        {
            return;
        }
        let mut fires = Vec::new();
        for k in 0..2 {
            self.side_fires_into(k, Moment::BattleStart, &mut fires);
        }
        fires.extend([Step::Commands(0), Step::Commands(1), Step::Outcome]);
        self.then(fires);
    }

    fn battle_outcome(&mut self) {
        let Some(b) = &self.battle else { return };
        let (Some(a), Some(d)) = (b.sides[0].main, b.sides[1].main) else {
            return;
        };
        if !self.is_up(a) || !self.is_up(d) {
            return; // A Digimon left the battle (an effect deleted it).
        }
        let seats = [b.sides[0].seat, b.sides[1].seat];
        let mut power = [0u32; 2];
        let mut hp = [0u32; 2];
        let mut letters = [crate::cards::BattleType::A; 2];
        let mains = [a, d];
        for k in 0..2 {
            (power[k], letters[k]) = self.side_power(b, k);
            hp[k] = self.hp(mains[k]);
        }
        for k in 0..2 {
            if let Some(card) = self.number(mains[k]) {
                self.emit(Event::Power {
                    seat: seats[k],
                    card,
                    technique: letters[k].letter(),
                    power: power[k],
                    hp: hp[k],
                });
            }
        }
        let won = [power[0] >= power[1], power[1] >= power[0]];
        self.emit_with(|_| Event::BattleResult {
            winners: (0..2).filter(|&k| won[k]).map(|k| seats[k]).collect(),
        });
        let mut steps = Vec::new();
        if let Some(bb) = &mut self.battle {
            for k in 0..2 {
                bb.sides[k].power = power[k];
                bb.sides[k].won = won[k];
                bb.sides[k].lost = !won[k];
            }
        }
        for k in 0..2usize {
            if !won[k] && hp[k] < power[1 - k] {
                self.side_fires_into(k, Moment::WouldDelete, &mut steps);
                steps.push(Step::Delete(k as u8));
            }
        }
        steps.extend([Step::Tapping, Step::AfterBattle]);
        self.then(steps);
    }

    fn battle_delete(&mut self, k: u8) {
        let Some(b) = &self.battle else { return };
        let Some(main) = b.sides[usize::from(k)].main else {
            return;
        };
        if self.delete(main)
            && let Some(b) = &mut self.battle
        {
            b.sides[usize::from(k)].deleted = true;
        }
    }

    /// Deletes a Digimon unless it is shielded; returns whether it went.
    pub(super) fn delete(&mut self, id: CardId) -> bool {
        let Some((s, k)) = self.mon(id) else {
            return false;
        };
        let card = self.number(id);
        if self.take_shield(id) {
            if let Some(card) = card {
                self.emit(Event::Saved { seat: s, card });
            }
            return false;
        }
        let st = self.st(s);
        let m = st.digimon.remove(k);
        st.gone.push(m.card);
        st.dark.extend(
            m.stack
                .into_iter()
                .flat_map(|p| p.partner.into_iter().chain([p.card])),
        );
        if st.digimon.is_empty() {
            st.wiped = true;
        }
        if let Some(card) = card {
            self.emit(Event::Deleted { seat: s, card });
        }
        true
    }

    fn battle_tapping(&mut self) {
        let Some(b) = &self.battle else { return };
        let [att, def] = &b.sides;
        let attacker = att.main;
        let blocker = (def.lost && b.blocked && !def.deleted)
            .then_some(def.main)
            .flatten();
        let alpha_block = def.lost && b.alpha;
        if let Some(id) = attacker {
            self.tap(id);
        }
        self.tap_support(0);
        if let Some(id) = blocker {
            self.tap(id);
        }
        if alpha_block {
            self.tap_support(1);
        }
    }

    // ---------------------------------------------------------------- actions

    /// Every action `seat` may take now, worked out from the state.
    pub(super) fn list_actions(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::with_capacity(16);
        self.list_actions_into(seat, &mut out);
        out
    }

    /// Appends every action `seat` may take now to `out`.
    pub(super) fn list_actions_into(&self, seat: Seat, out: &mut Vec<Action>) {
        let Some(wait) = &self.wait else { return };
        if wait.seat() != seat || self.outcome.is_some() {
            return;
        }
        let st = &self.seats[seat.index()];
        let targets = |out: &mut Vec<Action>| {
            if self.seats.len() > 2 && self.living().count() > 2 {
                for s in self.living() {
                    if s != seat && s != st.target {
                        out.push(Action::Target(s));
                    }
                }
            }
        };
        match wait {
            Wait::Discards(_) => {
                out.extend(st.hand.iter().map(|&c| Action::Discard(c)));
                out.extend(st.digimon.iter().map(|m| Action::Scrap(m.card)));
                out.extend(st.options.iter().map(|o| Action::Scrap(o.card)));
                targets(out);
                if st.hand.len() <= HAND {
                    out.push(Action::Done);
                }
            }
            Wait::Plays(_) => {
                self.play_actions(seat, out);
                targets(out);
                out.push(Action::Done);
            }
            Wait::Lead(_, speed) => {
                out.extend(self.lead_candidates(seat, *speed).map(Action::Lead));
            }
            Wait::Act(_, mon) => {
                let opp = st.target;
                out.push(Action::Attack(None));
                out.extend(
                    self.seats[opp.index()]
                        .digimon
                        .iter()
                        .filter(|m| !m.down)
                        .map(|m| Action::Attack(Some(m.card))),
                );
                if self.called_off != Some(*mon)
                    && self.supporters(seat, *mon, &[]).next().is_some()
                {
                    out.push(Action::AlphaAttack);
                }
                out.push(Action::Pass);
                targets(out);
            }
            Wait::Supporters(_) => {
                if let Some(b) = &self.battle
                    && let Some(main) = b.sides[0].main
                {
                    out.extend(
                        self.supporters(seat, main, &b.sides[0].support)
                            .map(Action::Support),
                    );
                    if !b.sides[0].support.is_empty() {
                        out.push(Action::Done);
                    }
                    // Called off before it is declared: the Digimon acts again.
                    out.push(Action::Pass);
                }
            }
            Wait::Block(_) | Wait::AlphaBlock(_) => {
                out.extend(self.blockers().map(Action::Block));
                out.push(Action::NoBlock);
            }
            Wait::BlockSupporters(_) => {
                if let Some(b) = &self.battle
                    && let Some(main) = b.sides[1].main
                {
                    out.extend(
                        self.supporters(seat, main, &b.sides[1].support)
                            .map(Action::Support),
                    );
                }
            }
            Wait::Commands(_) => {
                let first = out.len();
                for c in self.commands_in_hand(seat) {
                    let seen = out[first..]
                        .iter()
                        .any(|a| matches!(a, Action::Command(o) if self.same_card(*o, c)));
                    if !seen {
                        out.push(Action::Command(c));
                    }
                }
                out.push(Action::Done);
            }
            Wait::Pick {
                candidates,
                chosen,
                min,
                ..
            } => {
                out.extend(
                    candidates
                        .iter()
                        .filter(|c| !chosen.contains(c))
                        .map(|&c| Action::Pick(c)),
                );
                if chosen.len() >= usize::from(*min) {
                    out.push(Action::Done);
                }
            }
            Wait::DiscardFor { .. } => out.extend(st.hand.iter().map(|&c| Action::Discard(c))),
            Wait::Confirm(_) => out.extend([Action::Resolve(true), Action::Resolve(false)]),
        }
    }

    pub(super) fn commands_in_hand(&self, s: Seat) -> impl Iterator<Item = CardId> + '_ {
        self.seats[s.index()]
            .hand
            .iter()
            .copied()
            .filter(|&c| self.info(c).is_some_and(|i| i.kind == Kind::Command))
    }

    /// Why an action is refused, in words.
    pub(super) fn why_not(&self, seat: Seat, action: Action) -> String {
        match &self.wait {
            None => "nothing is asked now".to_string(),
            Some(w) if w.seat() != seat => format!("it is {}'s turn to answer", w.seat()),
            Some(_) => match action {
                Action::Play(_) | Action::Evolve(..) | Action::Jogress(..) => format!(
                    "that card cannot be played there now (at most {PLAY_LIMIT} Digimon and {PLAY_LIMIT} Option cards a turn; a Level III starts a new Digimon, a higher level goes on a Digimon in play; ◎ one of a name)"
                ),
                Action::Done => "this step cannot end yet (a hand ends the discard step at 6 cards or fewer; an alpha-attack needs a supporter)".to_string(),
                _ => format!("{action:?} is not one of the choices now"),
            },
        }
    }

    /// Carries out a legal action.
    pub(super) fn act(&mut self, seat: Seat, action: Action) {
        let Some(wait) = self.wait.clone() else {
            return;
        };
        match (wait, action) {
            (_, Action::Target(to)) => {
                self.st(seat).target = to;
                self.emit(Event::TargetSwitched { seat, to });
            }
            (Wait::Discards(_), Action::Discard(c)) => {
                self.st(seat).hand.retain(|&x| x != c);
                self.st(seat).dark.push(c);
                self.emit(Event::DiscardedFromHand { seat, count: 1 });
            }
            (Wait::Discards(_), Action::Scrap(c)) => {
                let st = self.st(seat);
                st.digimon.retain(|m| m.card != c);
                st.options.retain(|o| o.card != c);
                st.dark.push(c);
                if let Some(card) = self.number(c) {
                    self.emit(Event::Scrapped { seat, card });
                }
            }
            (Wait::Plays(_), Action::Play(c)) => {
                let cost = self.cost(c);
                let is_option = matches!(self.card(c), Some(Card::Option(_)));
                let st = self.st(seat);
                st.hand.retain(|&x| x != c);
                st.played_cost += cost;
                if is_option {
                    st.played_options += 1;
                    st.options.push(Opt {
                        card: c,
                        down: true,
                        fresh: true,
                        tapped: false,
                    });
                } else {
                    st.played_digimon += 1;
                    st.digimon.push(Mon {
                        card: c,
                        down: true,
                        fresh: true,
                        stack: Vec::new(),
                        tapped: false,
                        acted: false,
                        mods: Default::default(),
                    });
                }
                self.emit(Event::PlayedFaceDown { seat, on: None });
            }
            (Wait::Plays(_), Action::Evolve(c, on) | Action::Jogress(c, on, _)) => {
                let partner = match action {
                    Action::Jogress(_, _, p) => Some(p),
                    _ => None,
                };
                let cost = self.cost(c);
                let st = self.st(seat);
                st.hand.retain(|&x| x != c && Some(x) != partner);
                st.played_cost += cost;
                st.played_digimon += 1;
                if let Some(m) = st.digimon.iter_mut().find(|m| m.card == on) {
                    m.stack.push(Placed { card: c, partner });
                }
                if let Some(card) = partner.and_then(|p| self.number(p)) {
                    self.emit(Event::JogressPartner { seat, card });
                }
                let on = self.number(on);
                self.emit(Event::PlayedFaceDown { seat, on });
            }
            (Wait::Discards(_) | Wait::Plays(_), Action::Done) => self.wait = None,
            (Wait::Lead(..), Action::Lead(c)) => {
                self.wait = None;
                self.start_action(c);
            }
            (Wait::Act(_, mon), Action::Attack(target)) => {
                self.wait = None;
                let opp = self.target(seat);
                self.battle = Some(Battle {
                    sides: [Side::new(seat, Some(mon)), Side::new(opp, target)],
                    alpha: false,
                    blocked: false,
                    need: 0,
                    mods: Vec::new(),
                });
                let card = self.number(mon);
                let struck = match target {
                    None => Some(super::Struck::Player(opp)),
                    Some(t) => self.number(t).map(|n| super::Struck::Digimon(opp, n)),
                };
                if let (Some(card), Some(target)) = (card, struck) {
                    self.emit(Event::Attack { seat, card, target });
                }
                let mut steps = self.digimon_fires(seat, mon, Moment::Attacking);
                steps.push(if target.is_some() {
                    Step::BattleStart
                } else {
                    Step::BlockOrDamage
                });
                steps.push(Step::EndAction(mon));
                self.then(steps);
            }
            (Wait::Act(_, mon), Action::AlphaAttack) => {
                let opp = self.target(seat);
                self.battle = Some(Battle {
                    sides: [Side::new(seat, Some(mon)), Side::new(opp, None)],
                    alpha: true,
                    blocked: false,
                    need: 0,
                    mods: Vec::new(),
                });
                self.wait = Some(Wait::Supporters(seat));
            }
            (Wait::Act(_, mon), Action::Pass) => {
                self.wait = None;
                if let Some(card) = self.number(mon) {
                    self.emit(Event::Idle { seat, card });
                }
                if let Some(m) = self.mon_mut(mon) {
                    m.acted = true;
                }
                self.steps.push(Step::NextActor);
            }
            (Wait::Supporters(_), Action::Support(c)) => {
                if let Some(b) = &mut self.battle {
                    b.sides[0].support.push(c);
                }
            }
            (Wait::Supporters(_), Action::Pass) => {
                let main = self.battle.take().and_then(|b| b.sides[0].main);
                if let Some(mon) = main {
                    self.called_off = Some(mon);
                    self.wait = Some(Wait::Act(seat, mon));
                    if let Some(card) = self.number(mon) {
                        self.emit(Event::AlphaAttackCalledOff { seat, card });
                    }
                } else {
                    self.wait = None;
                }
            }
            (Wait::Supporters(_), Action::Done) => {
                self.wait = None;
                let Some(b) = &mut self.battle else { return };
                b.need = b.sides[0].support.len() as u8;
                let (Some(mon), target) = (b.sides[0].main, b.sides[1].seat) else {
                    return;
                };
                if let Some(card) = self.number(mon) {
                    self.emit_with(|m| Event::AlphaAttack {
                        seat,
                        card,
                        support: m.support_numbers(0),
                        target,
                    });
                }
                let mut steps = self.digimon_fires(seat, mon, Moment::Attacking);
                steps.extend([Step::BlockOrDamage, Step::EndAction(mon)]);
                self.then(steps);
            }
            (Wait::Block(_), Action::Block(c)) => {
                self.wait = None;
                let Some(b) = &mut self.battle else { return };
                b.sides[1].main = Some(c);
                b.blocked = true;
                let attacker = b.sides[0].main;
                if let Some(card) = self.number(c) {
                    self.emit(Event::Block { seat, card });
                }
                self.after_block(seat, c, attacker);
            }
            (Wait::AlphaBlock(_), Action::Block(c)) => {
                if let Some(b) = &mut self.battle {
                    b.sides[1].main = Some(c);
                    b.blocked = true;
                }
                self.wait = Some(Wait::BlockSupporters(seat));
                self.finish_alpha_block(seat);
            }
            (Wait::BlockSupporters(_), Action::Support(c)) => {
                if let Some(b) = &mut self.battle {
                    b.sides[1].support.push(c);
                }
                self.finish_alpha_block(seat);
            }
            (Wait::Block(_) | Wait::AlphaBlock(_), Action::NoBlock) => {
                self.wait = None;
                self.emit(Event::NoBlock(seat));
                self.unblocked();
            }
            (Wait::Commands(_), Action::Command(c)) => {
                self.wait = None;
                let Some(b) = &mut self.battle else { return };
                let k = usize::from(b.sides[1].seat == seat);
                b.sides[k].commands.push(c);
                self.st(seat).hand.retain(|&x| x != c);
                if let Some(card) = self.number(c) {
                    self.emit(Event::Command { seat, card });
                }
                let mut steps = self.command_fires(k, c);
                self.side_fires_into(1 - k, Moment::OpponentUsed, &mut steps);
                steps.push(Step::Commands(k as u8));
                self.then(steps);
            }
            (Wait::Commands(_), Action::Done) => self.wait = None,
            (Wait::Pick { .. }, Action::Pick(c)) => {
                if let Some(Wait::Pick { chosen, max, .. }) = &mut self.wait {
                    chosen.push(c);
                    if chosen.len() >= usize::from(*max) {
                        self.finish_pick();
                    }
                }
            }
            (Wait::Pick { .. }, Action::Done) => self.finish_pick(),
            (Wait::DiscardFor { left, .. }, Action::Discard(c)) => {
                let st = self.st(seat);
                st.hand.retain(|&x| x != c);
                st.dark.push(c);
                let empty = st.hand.is_empty();
                self.emit(Event::DiscardedFromHand { seat, count: 1 });
                self.wait = if left <= 1 || empty {
                    None
                } else {
                    Some(Wait::DiscardFor {
                        seat,
                        left: left - 1,
                    })
                };
            }
            (Wait::Confirm(_), Action::Resolve(yes)) => {
                self.wait = None;
                if !yes {
                    self.steps.pop();
                }
            }
            _ => {}
        }
        // A called-off alpha-attack is not offered again in that action.
        if !matches!(self.wait, Some(Wait::Act(..) | Wait::Supporters(_))) {
            self.called_off = None;
        }
    }

    fn finish_alpha_block(&mut self, seat: Seat) {
        let Some(b) = &self.battle else { return };
        if b.sides[1].support.len() < usize::from(b.need) {
            return;
        }
        self.wait = None;
        let (Some(main), attacker) = (b.sides[1].main, b.sides[0].main) else {
            return;
        };
        if let Some(card) = self.number(main) {
            self.emit_with(|m| Event::AlphaBlock {
                seat,
                card,
                support: m.support_numbers(1),
            });
        }
        self.after_block(seat, main, attacker);
    }

    /// The card numbers of a battle side's supporters.
    fn support_numbers(&self, side: usize) -> Vec<CardNumber> {
        self.battle.as_ref().map_or_else(Vec::new, |b| {
            b.sides[side]
                .support
                .iter()
                .filter_map(|&c| self.number(c))
                .collect()
        })
    }

    fn after_block(&mut self, seat: Seat, blocker: CardId, attacker: Option<CardId>) {
        let mut steps = self.digimon_fires(seat, blocker, Moment::Blocking);
        if let Some(a) = attacker
            && let Some(s) = self.owner(a)
        {
            self.digimon_fires_into(s, a, Moment::Blocked, &mut steps);
        }
        steps.push(Step::BattleStart);
        self.then(steps);
    }
}

impl Side {
    pub(super) fn new(seat: Seat, main: Option<CardId>) -> Side {
        Side {
            seat,
            main,
            support: Vec::new(),
            commands: Vec::new(),
            power: 0,
            won: false,
            lost: false,
            deleted: false,
        }
    }

    /// A leaver's Command cards in a battle leave the game with it.
    fn seat_gone_cards(&mut self, gone: &mut Vec<CardId>) {
        gone.append(&mut self.commands);
    }
}
