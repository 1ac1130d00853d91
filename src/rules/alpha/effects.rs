//! Card Game Alpha abilities (`alpha:` in the card files) through the one
//! effect grammar: when each fires (D23), what its conditions read, what
//! its effects do, and the numbers a battle is decided by (D39).

use super::moment::{Moment, combine};
use super::table::Kind;
use super::{Battle, CardId, Ctx, Event, Match, Mods, Mon, Step, Wait};
use crate::cards::{Attribute, BattleType, Card, base_name};
use crate::effects::{
    Ability, Condition, Count, Effect, Filter, Limit, Mark, Target, TechniqueSlot, Whose,
};
use crate::rules::{Outcome, Seat};

impl Match {
    fn abilities(&self, id: CardId) -> &[Ability] {
        self.card(id).map_or(&[], Card::alpha_abilities)
    }

    /// Turn and battle modifiers of a Digimon.
    fn mods_of(&self, id: CardId) -> impl Iterator<Item = &Mods> + Clone {
        let turn = self.mon_ref(id).map(|m| &m.mods);
        let battle = self
            .battle
            .as_ref()
            .and_then(|b| b.mods.iter().find(|(c, _)| *c == id).map(|(_, m)| m));
        turn.into_iter().chain(battle)
    }

    /// The current Speed (Always abilities' Speed changes on this Digimon
    /// without conditions count; then this turn's changes).
    pub(super) fn speed(&self, id: CardId) -> u32 {
        let Some(d) = self.def(id) else { return 0 };
        let pair = self.mods_of(id);
        if pair.clone().all(|m| m.speed.is_empty() && !m.negated) {
            // The card's own Speed with its Always changes, worked out once.
            return self.info(id).map_or(0, |i| i.speed);
        }
        let always = super::table::own_speed_changes(self.abilities(id));
        let negated = pair.clone().any(|m| m.negated);
        let mods = pair.flat_map(|m| m.speed.iter().copied());
        combine(
            u32::from(d.speed),
            always.filter(move |_| !negated).chain(mods),
        )
    }

    /// The Speed of a Digimon in a Box, as [`Match::speed`] but read from
    /// the Digimon in hand rather than looked up by its card.
    pub(super) fn mon_speed(&self, m: &Mon) -> u32 {
        let plain = |x: &Mods| x.speed.is_empty() && !x.negated;
        let battle = self
            .battle
            .as_ref()
            .and_then(|b| b.mods.iter().find(|(c, _)| *c == m.card));
        if plain(&m.mods) && battle.is_none_or(|(_, x)| plain(x)) {
            return self.info(m.card).map_or(0, |i| i.speed);
        }
        self.speed(m.card)
    }

    pub(super) fn battle_type(&self, id: CardId) -> BattleType {
        self.mods_of(id)
            .filter_map(|m| m.battle_type)
            .last()
            .or_else(|| {
                self.info(id)
                    .filter(|i| i.kind == Kind::Digimon)
                    .map(|i| i.battle_type)
            })
            .unwrap_or(BattleType::A)
    }

    fn raw_attribute(&self, id: CardId) -> Attribute {
        self.mods_of(id)
            .filter_map(|m| m.attribute)
            .last()
            .or_else(|| self.def(id).map(|d| d.attribute))
            .unwrap_or(Attribute::Unknown)
    }

    /// The attribute facing `vs`: a Variable takes the other's attribute
    /// unless that is Variable too.
    pub(super) fn attribute(&self, id: CardId, vs: Option<CardId>) -> Attribute {
        let a = self.raw_attribute(id);
        match (a, vs.map(|v| self.raw_attribute(v))) {
            (Attribute::Variable, Some(o)) if o != Attribute::Variable => o,
            _ => a,
        }
    }

    pub(super) fn hp(&self, id: CardId) -> u32 {
        let base = self.def(id).map_or(0, |d| d.hp);
        combine(base, self.mods_of(id).flat_map(|m| m.hp.iter().copied()))
    }

    fn negated(&self, id: CardId) -> bool {
        self.mods_of(id).any(|m| m.negated)
    }

    /// A side's attack power and technique letter: the best basic power of
    /// the letter among the side's Digimon (0 where set to 0), then the
    /// main Digimon's changes (D32, D39).
    pub(super) fn side_power(&self, b: &Battle, k: usize) -> (u32, BattleType) {
        let side = &b.sides[k];
        let letter = b.sides[1 - k]
            .main
            .map_or(BattleType::A, |o| self.battle_type(o));
        let Some(main) = side.main else {
            return (0, letter);
        };
        let base = std::iter::once(main)
            .chain(side.support.iter().copied())
            .map(|m| {
                let zero = self.mods_of(m).any(|x| x.zero[letter.index()]);
                match self.def(m) {
                    Some(d) if !zero => d.technique(letter).power,
                    _ => 0,
                }
            })
            .max()
            .unwrap_or(0);
        let p = combine(
            base,
            self.mods_of(main).flat_map(|m| m.power.iter().copied()),
        );
        (p, letter)
    }

    /// Uses up one deletion shield, if the Digimon has one.
    pub(super) fn take_shield(&mut self, id: CardId) -> bool {
        if let Some(b) = &mut self.battle
            && let Some((_, m)) = b.mods.iter_mut().find(|(c, m)| *c == id && m.shield > 0)
        {
            m.shield -= 1;
            return true;
        }
        if let Some(m) = self.mon_mut(id)
            && m.mods.shield > 0
        {
            m.mods.shield -= 1;
            return true;
        }
        false
    }

    // ------------------------------------------------------------ who fires

    /// Appends a card's abilities that fire at `moment`, in class order.
    fn fire_steps(
        &self,
        seat: Seat,
        card: CardId,
        this: Option<CardId>,
        moment: Moment,
        out: &mut Vec<Step>,
    ) {
        if self
            .info(card)
            .is_none_or(|i| i.moments & moment.bit() == 0)
        {
            return;
        }
        let at = out.len();
        let abilities = self.abilities(card);
        out.extend(
            abilities
                .iter()
                .enumerate()
                .filter(|(_, a)| moment.fires(a))
                .map(|(i, _)| Step::Fire {
                    ctx: Ctx {
                        seat,
                        card,
                        index: i as u8,
                        this,
                        battle: moment.in_battle() && self.battle.is_some(),
                    },
                    next: 0,
                    stage: 0,
                }),
        );
        self.by_class(&mut out[at..]);
    }

    /// Orders the abilities of one moment: interruptive effects first,
    /// then ◎, then [Action:] (D23); otherwise as listed.
    fn by_class(&self, steps: &mut [Step]) {
        steps.sort_by_key(|step| {
            let Step::Fire { ctx, .. } = step else {
                return 3;
            };
            match self.abilities(ctx.card).get(usize::from(ctx.index)) {
                Some(a) if a.is_interruptive() => 0,
                Some(a) if a.mark == Mark::Action => 2,
                _ => 1,
            }
        });
    }

    /// A Digimon's own abilities at a moment (none while negated).
    pub(super) fn digimon_fires(&self, seat: Seat, id: CardId, moment: Moment) -> Vec<Step> {
        let mut out = Vec::new();
        self.digimon_fires_into(seat, id, moment, &mut out);
        out
    }

    pub(super) fn digimon_fires_into(
        &self,
        seat: Seat,
        id: CardId,
        moment: Moment,
        out: &mut Vec<Step>,
    ) {
        if self.info(id).is_none_or(|i| i.moments & moment.bit() == 0) || self.negated(id) {
            return;
        }
        self.fire_steps(seat, id, Some(id), moment, out);
    }

    /// Every face-up card of a seat, Digimon first, at a moment with no
    /// battle (Preparation, end of turn).
    pub(super) fn seat_fires(&self, s: Seat, moment: Moment) -> Vec<Step> {
        let mut out = Vec::new();
        self.seat_fires_into(s, moment, &mut out);
        out
    }

    pub(super) fn seat_fires_into(&self, s: Seat, moment: Moment, out: &mut Vec<Step>) {
        let at = out.len();
        let st = &self.seats[s.index()];
        for m in st.digimon.iter().filter(|m| !m.down) {
            self.digimon_fires_into(s, m.card, moment, out);
        }
        for o in st.options.iter().filter(|o| !o.down) {
            self.fire_steps(s, o.card, None, moment, out);
        }
        self.by_class(&mut out[at..]);
    }

    /// A battle side at a moment: its main Digimon, then its player's
    /// face-up Options (and, for a deletion, the Commands it used).
    pub(super) fn side_fires_into(&self, k: usize, moment: Moment, out: &mut Vec<Step>) {
        let Some(b) = &self.battle else {
            return;
        };
        let side = &b.sides[k];
        let Some(main) = side.main else {
            return;
        };
        let at = out.len();
        self.digimon_fires_into(side.seat, main, moment, out);
        for o in self.seats[side.seat.index()]
            .options
            .iter()
            .filter(|o| !o.down)
        {
            self.fire_steps(side.seat, o.card, Some(main), moment, out);
        }
        if matches!(moment, Moment::WouldDelete | Moment::AfterBattle { .. }) {
            for &c in &side.commands {
                self.fire_steps(side.seat, c, Some(main), moment, out);
            }
        }
        self.by_class(&mut out[at..]);
    }

    /// A Command card just used: its abilities without a trigger resolve now.
    pub(super) fn command_fires(&self, k: usize, card: CardId) -> Vec<Step> {
        let Some(b) = &self.battle else {
            return Vec::new();
        };
        let side = &b.sides[k];
        self.abilities(card)
            .iter()
            .enumerate()
            .filter(|(_, a)| a.trigger.is_none())
            .map(|(i, _)| Step::Fire {
                ctx: Ctx {
                    seat: side.seat,
                    card,
                    index: i as u8,
                    this: side.main,
                    battle: true,
                },
                next: 0,
                stage: 0,
            })
            .collect()
    }

    pub(super) fn after_battle_fires(&self) -> Vec<Step> {
        let Some(b) = &self.battle else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for k in 0..2 {
            let (me, other) = (&b.sides[k], &b.sides[1 - k]);
            let moment = Moment::AfterBattle {
                won: me.won,
                lost: me.lost,
                deleted: me.deleted,
                opponent_deleted: other.deleted,
            };
            if !self.alive(me.seat) {
                continue;
            }
            if me.deleted {
                // A deleted Digimon's "when this is deleted" still resolves.
                if let Some(main) = me.main {
                    self.fire_steps(me.seat, main, None, moment, &mut out);
                }
                for o in self.seats[me.seat.index()]
                    .options
                    .iter()
                    .filter(|o| !o.down)
                {
                    self.fire_steps(me.seat, o.card, None, moment, &mut out);
                }
                for &c in &me.commands {
                    self.fire_steps(me.seat, c, None, moment, &mut out);
                }
            } else {
                self.side_fires_into(k, moment, &mut out);
            }
        }
        out
    }

    pub(super) fn lose_points_fires(&self, s: Seat) -> Vec<Step> {
        if !self.alive(s) {
            return Vec::new();
        }
        self.seat_fires(s, Moment::LosePoints)
    }

    // ------------------------------------------------------------ resolving

    fn limit_left(&self, ctx: &Ctx, limit: Option<Limit>) -> bool {
        let used = self
            .uses
            .iter()
            .find(|u| u.0 == ctx.card && u.1 == ctx.index);
        match limit {
            None => true,
            Some(Limit::PerTurn(n)) => used.is_none_or(|u| u.2 < n),
            Some(Limit::PerGame(n)) => used.is_none_or(|u| u.3 < n),
        }
    }

    fn record_use(&mut self, ctx: &Ctx) {
        match self
            .uses
            .iter_mut()
            .find(|u| u.0 == ctx.card && u.1 == ctx.index)
        {
            Some(u) => {
                u.2 = u.2.saturating_add(1);
                u.3 = u.3.saturating_add(1);
            }
            None => self.uses.push((ctx.card, ctx.index, 1, 1)),
        }
    }

    /// Whether the card with an [Action:] ability is untapped (a Command in
    /// use has no position to tap).
    fn source_untapped(&self, card: CardId) -> bool {
        if let Some(m) = self.mon_ref(card) {
            return !m.tapped;
        }
        self.seats
            .iter()
            .flat_map(|s| s.options.iter())
            .find(|o| o.card == card)
            .is_none_or(|o| !o.tapped)
    }

    fn tap_source(&mut self, card: CardId) {
        if self.mon_ref(card).is_some() {
            self.tap(card);
            return;
        }
        for s in &mut self.seats {
            if let Some(o) = s.options.iter_mut().find(|o| o.card == card) {
                o.tapped = true;
            }
        }
    }

    /// The Digimon `ctx.this` battles, if it is in a battle.
    fn opposing(&self, ctx: &Ctx) -> Option<CardId> {
        let b = self.battle.as_ref()?;
        let this = ctx.this?;
        if b.sides[0].main == Some(this) {
            b.sides[1].main
        } else if b.sides[1].main == Some(this) {
            b.sides[0].main
        } else {
            None
        }
    }

    fn whose(&self, ctx: &Ctx, w: Whose) -> Seat {
        match w {
            Whose::You => ctx.seat,
            Whose::Opponent => self.opponent(ctx.seat),
        }
    }

    fn holds(&self, ctx: &Ctx, c: &Condition) -> bool {
        let this = ctx.this.filter(|&t| self.is_up(t));
        let opp = self.opposing(ctx).filter(|&o| self.is_up(o));
        let od = opp.and_then(|o| self.def(o));
        match c {
            Condition::OpponentAttribute(a) => opp.is_some_and(|o| self.attribute(o, this) == *a),
            Condition::OpponentField(f) => od.is_some_and(|d| d.field == *f),
            Condition::OpponentLevelAtLeast(s) => od.is_some_and(|d| d.level.stage() >= *s),
            Condition::OpponentLevelAtMost(s) => od.is_some_and(|d| d.level.stage() <= *s),
            Condition::OpponentBattleType(t) => opp.is_some_and(|o| self.battle_type(o) == *t),
            Condition::ThisBattleType(t) => this.is_some_and(|x| self.battle_type(x) == *t),
            Condition::UsesTechnique(t) => opp.is_some_and(|o| self.battle_type(o) == *t),
            Condition::OpponentUsesTechnique(t) => {
                this.is_some_and(|x| self.battle_type(x) == *t) && opp.is_some()
            }
            Condition::OpponentNamed(n) => od.is_some_and(|d| d.base_name() == base_name(n)),
            Condition::YouHave(n) => self.seats[ctx.seat.index()]
                .digimon
                .iter()
                .filter(|m| !m.down)
                .any(|m| {
                    self.card(m.card)
                        .is_some_and(|c| c.base_name() == base_name(n))
                }),
            Condition::PointsAtMost(n) => self.points(ctx.seat) <= *n,
            Condition::FewerPoints => self.points(ctx.seat) < self.points(self.opponent(ctx.seat)),
            Condition::Faster => match (this, opp) {
                (Some(t), Some(o)) => self.speed(t) > self.speed(o),
                _ => false,
            },
            Condition::OpponentHpAtLeast(n) => opp.is_some_and(|o| self.hp(o) >= *n),
        }
    }

    fn matches(&self, id: CardId, f: &Filter) -> bool {
        let Some(d) = self.def(id) else { return false };
        match f {
            Filter::Field(x) => d.field == *x,
            Filter::Attribute(a) => self.raw_attribute(id) == *a,
            Filter::Level(s) => d.level.stage() == *s,
            Filter::BattleType(t) => self.battle_type(id) == *t,
            Filter::NameContains(n) => d.name.contains(n.as_str()),
        }
    }

    /// An ability step: offer it, check it, then resolve its effects one by
    /// one (an effect that needs a choice waits for it).
    pub(super) fn fire(&mut self, ctx: Ctx, next: u8, stage: u8) {
        if !self.alive(ctx.seat) {
            return;
        }
        // The definitions are shared, so the ability is read in place
        // while the match changes.
        let cards = self.defs.shared();
        let Some(ability) = self
            .ids
            .get(usize::from(ctx.card.0))
            .and_then(|&(def, _)| cards.get(usize::from(def)))
            .and_then(|c| c.alpha_abilities().get(usize::from(ctx.index)))
        else {
            return;
        };
        if stage == 0 {
            if !self.limit_left(&ctx, ability.limit) {
                return;
            }
            if ability.mark == Mark::Action && !self.source_untapped(ctx.card) {
                return;
            }
            if ability.optional || ability.mark == Mark::Action {
                self.steps.push(Step::Fire {
                    ctx,
                    next: 0,
                    stage: 1,
                });
                self.wait = Some(Wait::Confirm(ctx.seat));
                return;
            }
        }
        if stage < 2 {
            let card = self.number(ctx.card);
            if !ability.conditions.iter().all(|c| self.holds(&ctx, c)) {
                if let Some(card) = card {
                    self.emit(Event::AbilityFizzled {
                        seat: ctx.seat,
                        card,
                    });
                }
                return;
            }
            self.record_use(&ctx);
            if let Some(card) = card {
                self.emit(Event::Ability {
                    seat: ctx.seat,
                    card,
                    index: ctx.index,
                });
            }
            if ability.mark == Mark::Action {
                self.tap_source(ctx.card);
            }
        }
        for i in usize::from(next)..ability.effects.len() {
            let effect = &ability.effects[i];
            match self.resolve_targets(&ctx, effect) {
                Targets::Now(ids) => {
                    if let Some(wait) = self.apply_effect(&ctx, effect, &ids) {
                        self.steps.push(Step::Fire {
                            ctx,
                            next: i as u8 + 1,
                            stage: 2,
                        });
                        self.wait = Some(wait);
                        return;
                    }
                }
                Targets::Ask {
                    candidates,
                    min,
                    max,
                } => {
                    self.steps.push(Step::Fire {
                        ctx,
                        next: i as u8,
                        stage: 2,
                    });
                    self.wait = Some(Wait::Pick {
                        seat: ctx.seat,
                        candidates,
                        chosen: Vec::new(),
                        min,
                        max,
                    });
                    return;
                }
            }
        }
    }

    /// A choice of Digimon is complete: its effect applies and the ability
    /// goes on.
    pub(super) fn finish_pick(&mut self) {
        let Some(Wait::Pick { chosen, .. }) = self.wait.take() else {
            return;
        };
        let Some(Step::Fire { ctx, next, .. }) = self.steps.pop() else {
            return;
        };
        let Some(effect) = self
            .abilities(ctx.card)
            .get(usize::from(ctx.index))
            .and_then(|a| a.effects.get(usize::from(next)))
            .cloned()
        else {
            return;
        };
        self.steps.push(Step::Fire {
            ctx,
            next: next + 1,
            stage: 2,
        });
        if let Some(wait) = self.apply_effect(&ctx, &effect, &chosen) {
            self.wait = Some(wait);
        }
    }

    fn target_of(e: &Effect) -> Option<&Target> {
        match e {
            Effect::Power(t, _)
            | Effect::Hp(t, _)
            | Effect::Speed(t, _)
            | Effect::TechniqueToZero(t, _)
            | Effect::Delete(t)
            | Effect::PreventDeletion(t)
            | Effect::ChangeAttribute(t, _)
            | Effect::ChangeBattleType(t, _)
            | Effect::NegateAbilities(t)
            | Effect::Tap(t)
            | Effect::Untap(t) => Some(t),
            _ => None,
        }
    }

    fn resolve_targets(&self, ctx: &Ctx, e: &Effect) -> Targets {
        let Some(t) = Match::target_of(e) else {
            return Targets::Now(Vec::new());
        };
        match t {
            Target::This => Targets::Now(ctx.this.filter(|&x| self.is_up(x)).into_iter().collect()),
            Target::Opponent => Targets::Now(
                self.opposing(ctx)
                    .filter(|&x| self.is_up(x))
                    .into_iter()
                    .collect(),
            ),
            Target::Choose {
                side,
                count,
                filters,
            } => {
                let seat = self.whose(ctx, *side);
                let cands: Vec<CardId> = self.seats[seat.index()]
                    .digimon
                    .iter()
                    .filter(|m| !m.down && filters.iter().all(|f| self.matches(m.card, f)))
                    .map(|m| m.card)
                    .collect();
                match *count {
                    Count::All => Targets::Now(cands),
                    Count::Exactly(n) if cands.len() <= usize::from(n) => Targets::Now(cands),
                    Count::Exactly(n) => Targets::Ask {
                        candidates: cands,
                        min: n,
                        max: n,
                    },
                    Count::UpTo(_) if cands.len() <= 1 => Targets::Now(cands),
                    Count::UpTo(n) => {
                        let max = n.min(cands.len() as u8);
                        Targets::Ask {
                            candidates: cands,
                            min: 1,
                            max,
                        }
                    }
                }
            }
        }
    }

    /// The modifiers an effect writes to: the battle's for a battle-long
    /// effect during a battle, else the Digimon's own for the turn.
    fn mods_mut(&mut self, ctx: &Ctx, id: CardId) -> Option<&mut Mods> {
        if ctx.battle && self.battle.is_some() {
            let b = self.battle.as_mut()?;
            let k = match b.mods.iter().position(|(c, _)| *c == id) {
                Some(k) => k,
                None => {
                    b.mods.push((id, Mods::default()));
                    b.mods.len() - 1
                }
            };
            return Some(&mut b.mods[k].1);
        }
        self.mon_mut(id).map(|m| &mut m.mods)
    }

    /// Applies one effect to its targets; returns a question when a player
    /// must choose cards (a discard).
    fn apply_effect(&mut self, ctx: &Ctx, e: &Effect, ids: &[CardId]) -> Option<Wait> {
        for &id in ids {
            match e {
                Effect::Power(_, c) => {
                    if let Some(m) = self.mods_mut(ctx, id) {
                        m.power.push(*c);
                    }
                }
                Effect::Hp(_, c) => {
                    if let Some(m) = self.mods_mut(ctx, id) {
                        m.hp.push(*c);
                    }
                }
                Effect::Speed(_, c) => {
                    if let Some(m) = self.mon_mut(id) {
                        m.mods.speed.push(*c);
                    }
                }
                Effect::TechniqueToZero(_, slot) => {
                    if let Some(m) = self.mods_mut(ctx, id) {
                        match slot {
                            TechniqueSlot::One(t) => m.zero[t.index()] = true,
                            TechniqueSlot::All => m.zero = [true; 3],
                        }
                    }
                }
                Effect::ChangeAttribute(_, a) => {
                    if let Some(m) = self.mods_mut(ctx, id) {
                        m.attribute = Some(*a);
                    }
                }
                Effect::ChangeBattleType(_, t) => {
                    if let Some(m) = self.mods_mut(ctx, id) {
                        m.battle_type = Some(*t);
                    }
                }
                Effect::NegateAbilities(_) => {
                    if let Some(m) = self.mods_mut(ctx, id) {
                        m.negated = true;
                    }
                }
                Effect::PreventDeletion(_) => {
                    if let Some(m) = self.mods_mut(ctx, id) {
                        m.shield = m.shield.saturating_add(1);
                    }
                }
                Effect::Delete(_) => {
                    self.delete(id);
                }
                Effect::Tap(_) => self.tap(id),
                Effect::Untap(_) => {
                    if let Some((s, k)) = self.mon(id) {
                        let m = &mut self.st(s).digimon[k];
                        if m.tapped {
                            m.tapped = false;
                            if let Some(card) = self.number(id) {
                                self.emit(Event::UntappedOne { seat: s, card });
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        match e {
            Effect::Points(w, n) => {
                let s = self.whose(ctx, *w);
                let st = self.st(s);
                let before = st.points;
                st.points = (i64::from(before) + i64::from(*n))
                    .clamp(0, i64::from(super::START_POINTS)) as u32;
                let (points, by) = (st.points, st.points as i32 - before as i32);
                if by != 0 {
                    self.emit(Event::Points {
                        seat: s,
                        by,
                        points,
                    });
                }
                if by < 0 {
                    let fires = self.lose_points_fires(s);
                    self.then(fires);
                }
            }
            Effect::Draw(w, n) => {
                let s = self.whose(ctx, *w);
                self.draw(s, usize::from(*n));
            }
            Effect::Discard(w, n) => {
                let s = self.whose(ctx, *w);
                let hand = self.seats[s.index()].hand.len();
                if hand == 0 {
                    return None;
                }
                if hand <= usize::from(*n) {
                    let st = self.st(s);
                    let all = std::mem::take(&mut st.hand);
                    st.dark.extend(all);
                    self.emit(Event::DiscardedFromHand {
                        seat: s,
                        count: hand as u8,
                    });
                } else {
                    return Some(Wait::DiscardFor { seat: s, left: *n });
                }
            }
            // A winning condition stated on a card: its controller wins.
            Effect::WinGame => {
                if let Some(card) = self.number(ctx.card) {
                    self.emit(Event::WonByCard {
                        seat: ctx.seat,
                        card,
                    });
                }
                self.finish(Outcome::Win(ctx.seat));
            }
            // The evolution gauge is the arcade's; the tabletop has none.
            _ => {}
        }
        None
    }
}

enum Targets {
    Now(Vec<CardId>),
    Ask {
        candidates: Vec<CardId>,
        min: u8,
        max: u8,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effects::Change;

    #[test]
    fn zeroed_basic_power_then_add() {
        // D39: a Set is the new basic power, then percentages, then additions.
        let ch = [Change::Add(100), Change::Set(0), Change::Percent(150)];
        assert_eq!(combine(800, ch.iter().copied()), 100);
        let ch = [Change::Percent(150), Change::Add(-2000)];
        assert_eq!(combine(800, ch.iter().copied()), 0);
        assert_eq!(combine(800, [].iter().copied()), 800);
    }
}

/// A battle's numbers before it is fought (abilities and Command cards
/// aside): what a CPU or a presenter weighs an attack by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clash {
    /// The attacker's power.
    pub power: u32,
    /// The defender's power.
    pub against: u32,
    /// The attacker's HP.
    pub hp: u32,
    /// The defender's HP.
    pub their_hp: u32,
}

impl Clash {
    /// The attacker wins (a tie is a win for both).
    pub fn wins(&self) -> bool {
        self.power >= self.against
    }
    /// The defender would be deleted.
    pub fn deletes(&self) -> bool {
        self.power > self.against && self.their_hp < self.power
    }
    /// The attacker would be deleted.
    pub fn dies(&self) -> bool {
        self.against > self.power && self.hp < self.against
    }
}

impl Match {
    /// The numbers of a battle between two face-up Digimon, as things stand.
    pub fn clash(&self, attacker: CardId, defender: CardId) -> Clash {
        let b = Battle {
            sides: [
                super::Side::new(self.owner(attacker).unwrap_or(Seat::P1), Some(attacker)),
                super::Side::new(self.owner(defender).unwrap_or(Seat::P1), Some(defender)),
            ],
            alpha: false,
            blocked: false,
            need: 0,
            mods: Vec::new(),
        };
        Clash {
            power: self.side_power(&b, 0).0,
            against: self.side_power(&b, 1).0,
            hp: self.hp(attacker),
            their_hp: self.hp(defender),
        }
    }

    /// How many cards a seat still has to draw from and play (hand and Net
    /// Ocean: counts every seat may know).
    pub fn cards_in_hand_and_ocean(&self, s: Seat) -> usize {
        self.seats
            .get(s.index())
            .map_or(0, |st| st.hand.len() + st.ocean.len())
    }

    /// A seat's face-up Digimon in its line-up order.
    pub fn digimon(&self, s: Seat) -> Vec<CardId> {
        self.seats.get(s.index()).map_or_else(Vec::new, |st| {
            st.digimon
                .iter()
                .filter(|m| !m.down)
                .map(|m| m.card)
                .collect()
        })
    }

    /// Whether a Digimon is tapped.
    pub fn is_tapped(&self, id: CardId) -> bool {
        self.mon_ref(id).is_some_and(|m| m.tapped)
    }

    /// The current Speed of a Digimon in play.
    pub fn speed_of(&self, id: CardId) -> u32 {
        self.speed(id)
    }

    /// The Digimon acting now, if a Digimon's action is asked.
    pub fn acting(&self) -> Option<CardId> {
        match self.wait {
            Some(Wait::Act(_, m)) => Some(m),
            _ => None,
        }
    }

    /// The attack under way: attacker and (if chosen) defender Digimon.
    pub fn attack(&self) -> Option<(Option<CardId>, Option<CardId>)> {
        self.battle
            .as_ref()
            .map(|b| (b.sides[0].main, b.sides[1].main))
    }

    /// Whether an evolution card would succeed on a Digimon (its
    /// requirements name it; a Jogress also needs the partner).
    pub fn would_evolve(&self, card: CardId, on: CardId, partner: Option<CardId>) -> bool {
        self.meets_public(card, on, partner)
    }

    /// The Cost played this turn by a seat.
    pub fn played_cost(&self, s: Seat) -> u32 {
        self.seats.get(s.index()).map_or(0, |st| st.played_cost)
    }
}
