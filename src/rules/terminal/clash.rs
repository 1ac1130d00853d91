//! One round's resolution: techniques, abilities in Speed order, the read
//! bonus, the clash, deletion (interruptive effects first), after-battle
//! triggers, gauges and the next line stepping in.

use super::Side;
use super::side_state::LineState;
use super::{AbilitySlot, Carrier, Cause, Event, Match, PointsReason, StancePress};
use crate::cards::{Attribute, BattleType, CardNumber, base_name};
use crate::effects::{
    Ability, Change, Condition, Effect, Happening, Mark, Target, TechniqueSlot, Timing, Trigger,
    Whose,
};

/// Whether stance `a` beats stance `b` in the cycle A > B > C > A.
pub fn beats(a: BattleType, b: BattleType) -> bool {
    matches!(
        (a, b),
        (BattleType::A, BattleType::B)
            | (BattleType::B, BattleType::C)
            | (BattleType::C, BattleType::A)
    )
}

/// The state of one battle (or, outside a clash, of the two front Digimon).
#[derive(Debug, Clone)]
struct Battle {
    in_clash: bool,
    /// This round's battle types.
    stance: [BattleType; 2],
    attribute: [Attribute; 2],
    /// The technique each side uses (the opponent's battle type) and whose card it is.
    slot: [BattleType; 2],
    tech_card: [CardNumber; 2],
    base: [u32; 2],
    /// Alpha Strike groups (line indices) fighting, if any.
    groups: [Option<Vec<usize>>; 2],
    power_mods: Vec<(Side, Cause, Change)>,
    hp_mods: Vec<(Side, Cause, Change)>,
    negated: [bool; 2],
    protected: [bool; 2],
    delete: [bool; 2],
}

impl Battle {
    fn new(
        m: &Match,
        stance: [BattleType; 2],
        groups: [Option<Vec<usize>>; 2],
        in_clash: bool,
    ) -> Battle {
        let card = |s: usize| m.players[s].front().card();
        let mut b = Battle {
            in_clash,
            stance,
            attribute: [card(0).attribute, card(1).attribute],
            slot: [stance[1], stance[0]],
            tech_card: [card(0).number, card(1).number],
            base: [0; 2],
            groups,
            power_mods: Vec::new(),
            hp_mods: Vec::new(),
            negated: [false; 2],
            protected: [false; 2],
            delete: [false; 2],
        };
        for s in Side::BOTH {
            b.choose_technique(m, s);
        }
        b
    }

    /// The technique side `s` uses: the one for the opponent's battle type;
    /// in an Alpha Strike, the highest of its group's.
    fn choose_technique(&mut self, m: &Match, s: Side) {
        let i = s.index();
        self.slot[i] = self.stance[s.other().index()];
        let p = &m.players[i];
        let front = [p.front];
        let candidates: &[usize] = self.groups[i].as_deref().unwrap_or(&front);
        let (card, base) = candidates
            .iter()
            .map(|&l| {
                let line = &p.lines[l];
                let t = line.card().technique(self.slot[i]);
                let power = if line.zeroed[self.slot[i].index()] {
                    0
                } else {
                    t.power
                };
                (line.card().number, power)
            })
            .max_by_key(|&(_, power)| power)
            .unwrap_or((p.front().card().number, 0));
        self.tech_card[i] = card;
        self.base[i] = base;
    }

    /// The event telling which technique `s` uses now.
    fn technique_event(&self, s: Side) -> Event {
        let i = s.index();
        Event::TechniqueChosen {
            side: s,
            card: self.tech_card[i],
            slot: self.slot[i],
            base: self.base[i],
        }
    }

    fn power(&self, s: Side) -> u32 {
        self.power_mods
            .iter()
            .filter(|(t, ..)| *t == s)
            .fold(self.base[s.index()], |p, (_, _, c)| c.apply(p))
    }

    fn hp(&self, m: &Match, s: Side) -> u32 {
        let hp = m.players[s.index()].front().card().hp;
        self.hp_mods
            .iter()
            .filter(|(t, ..)| *t == s)
            .fold(hp, |h, (_, _, c)| c.apply(h))
    }

    /// The attribute `s` has against its opponent (Variable takes the opponent's).
    fn attribute(&self, s: Side) -> Attribute {
        self.attribute[s.index()].facing(self.attribute[s.other().index()])
    }
}

/// The read bonus: the side whose stance beats the other's gets +30%
/// attack power (the tunables' percentage).
fn read_bonus(m: &Match, b: &mut Battle, order: [Side; 2], events: &mut Vec<Event>) {
    let bonus = m.tunables.read_bonus_percent;
    for s in order {
        if beats(b.stance[s.index()], b.stance[s.other().index()]) {
            let change = Change::Percent((100 + bonus).min(u32::from(u16::MAX)) as u16);
            b.power_mods.push((s, Cause::ReadBonus, change));
            events.push(Event::PowerModified {
                side: s,
                cause: Cause::ReadBonus,
                change,
                power: b.power(s),
            });
        }
    }
}

fn speed(m: &Match, s: Side) -> i32 {
    let p = &m.players[s.index()];
    i32::from(p.front().card().speed) + p.speed_bonus
}

/// Who resolves first: the faster front Digimon; on equal Speed the player
/// with fewer points; else whoever went first before.
fn order(m: &mut Match) -> [Side; 2] {
    let (a, b) = (speed(m, Side::P1), speed(m, Side::P2));
    let (pa, pb) = (m.players[0].points, m.players[1].points);
    let first = if a != b {
        if a > b { Side::P1 } else { Side::P2 }
    } else if pa != pb {
        if pa < pb { Side::P1 } else { Side::P2 }
    } else {
        m.first
    };
    m.first = first;
    [first, first.other()]
}

fn holds(m: &Match, b: &Battle, s: Side, c: &Condition) -> bool {
    let o = s.other();
    let me = &m.players[s.index()];
    let them = &m.players[o.index()];
    let opp = them.front().card();
    match c {
        Condition::OpponentAttribute(a) => b.attribute(o) == *a,
        Condition::OpponentField(f) => opp.field == *f,
        Condition::OpponentLevelAtLeast(st) => opp.level.stage() >= *st,
        Condition::OpponentLevelAtMost(st) => opp.level.stage() <= *st,
        Condition::OpponentBattleType(t) => b.stance[o.index()] == *t,
        Condition::ThisBattleType(t) => b.stance[s.index()] == *t,
        Condition::UsesTechnique(t) => b.in_clash && b.slot[s.index()] == *t,
        Condition::OpponentUsesTechnique(t) => b.in_clash && b.slot[o.index()] == *t,
        Condition::OpponentNamed(n) => base_name(&opp.name) == base_name(n),
        Condition::YouHave(n) => me
            .lines
            .iter()
            .any(|l| l.in_play() && base_name(&l.card().name) == base_name(n)),
        Condition::PointsAtMost(n) => i64::from(me.points) <= i64::from(*n),
        Condition::FewerPoints => me.points < them.points,
        Condition::Faster => speed(m, s) > speed(m, o),
        Condition::OpponentHpAtLeast(n) => b.hp(m, o) >= *n,
    }
}

fn targets(t: &Target, s: Side, m: &Match) -> Vec<Side> {
    match t {
        Target::This => vec![s],
        Target::Opponent => vec![s.other()],
        Target::Choose {
            side,
            count,
            filters,
        } => {
            // Only the front Digimon battle in the Terminal: a choice lands on it if it qualifies.
            let who = match side {
                Whose::You => s,
                Whose::Opponent => s.other(),
            };
            let d = m.players[who.index()].front().card();
            let ok = filters.iter().all(|f| match f {
                crate::effects::Filter::Field(x) => d.field == *x,
                crate::effects::Filter::Attribute(x) => d.attribute == *x,
                crate::effects::Filter::Level(x) => d.level.stage() == *x,
                crate::effects::Filter::BattleType(x) => d.battle_type == *x,
                crate::effects::Filter::NameContains(x) => d.name.contains(x.as_str()),
            });
            if ok && count.chosen(1, 1) > 0 {
                vec![who]
            } else {
                Vec::new()
            }
        }
    }
}

fn player_side(p: Whose, s: Side) -> Side {
    match p {
        Whose::You => s,
        Whose::Opponent => s.other(),
    }
}

/// Adds points (negative: takes them), within 0 and the cap.
pub(super) fn change_points(
    m: &mut Match,
    s: Side,
    delta: i32,
    reason: PointsReason,
    events: &mut Vec<Event>,
) {
    let max = m.tunables.max_points;
    let p = &mut m.players[s.index()];
    let before = p.points;
    p.points = (i64::from(p.points) + i64::from(delta)).clamp(0, i64::from(max)) as i32;
    let delta = p.points - before;
    if delta != 0 {
        events.push(Event::PointsChanged {
            side: s,
            delta,
            points: p.points,
            reason,
        });
    }
}

fn change_gauge(m: &mut Match, s: Side, line: usize, delta: i64, events: &mut Vec<Event>) {
    let full = m.tunables.gauge_full;
    let l = &mut m.players[s.index()].lines[line];
    let before = l.gauge;
    l.gauge = (i64::from(l.gauge) + delta).clamp(0, i64::from(full)) as u32;
    if l.gauge != before {
        events.push(Event::GaugeChanged {
            side: s,
            line: line as u8,
            gauge: l.gauge,
        });
    }
}

/// Resolves one ability's effects for side `s`.
fn run(
    m: &mut Match,
    b: &mut Battle,
    s: Side,
    card: CardNumber,
    index: u8,
    a: &Ability,
    events: &mut Vec<Event>,
) {
    m.players[s.index()].record_use(card, index);
    events.push(Event::AbilityTriggered {
        side: s,
        card,
        index,
    });
    let cause = Cause::Ability {
        side: s,
        card,
        index,
    };
    for e in &a.effects {
        match e {
            Effect::Power(t, ch) => {
                for ts in targets(t, s, m) {
                    if b.in_clash {
                        b.power_mods.push((ts, cause, *ch));
                        events.push(Event::PowerModified {
                            side: ts,
                            cause,
                            change: *ch,
                            power: b.power(ts),
                        });
                    }
                }
            }
            Effect::Hp(t, ch) => {
                for ts in targets(t, s, m) {
                    if b.in_clash {
                        b.hp_mods.push((ts, cause, *ch));
                        events.push(Event::HpModified {
                            side: ts,
                            cause,
                            change: *ch,
                            hp: b.hp(m, ts),
                        });
                    }
                }
            }
            Effect::Speed(t, ch) => {
                for ts in targets(t, s, m) {
                    let now = speed(m, ts).max(0) as u32;
                    let p = &mut m.players[ts.index()];
                    p.speed_bonus += ch.apply(now) as i32 - now as i32;
                }
            }
            Effect::TechniqueToZero(t, slot) => {
                for ts in targets(t, s, m) {
                    let line = m.players[ts.index()].front_mut();
                    match slot {
                        TechniqueSlot::One(x) => line.zeroed[x.index()] = true,
                        TechniqueSlot::All => line.zeroed = [true; 3],
                    }
                    if b.in_clash {
                        b.choose_technique(m, ts);
                        events.push(b.technique_event(ts));
                    }
                }
            }
            Effect::Delete(t) => {
                for ts in targets(t, s, m) {
                    if b.in_clash {
                        b.delete[ts.index()] = true;
                    } else {
                        delete(m, b, ts, events);
                    }
                }
            }
            Effect::PreventDeletion(t) => {
                for ts in targets(t, s, m) {
                    b.protected[ts.index()] = true;
                }
            }
            Effect::Points(p, n) => {
                change_points(m, player_side(*p, s), *n, PointsReason::Ability, events);
            }
            Effect::Gauge(p, n) => {
                let who = player_side(*p, s);
                let front = m.players[who.index()].front;
                change_gauge(m, who, front, i64::from(*n), events);
            }
            Effect::ChangeAttribute(t, x) => {
                for ts in targets(t, s, m) {
                    b.attribute[ts.index()] = *x;
                }
            }
            Effect::ChangeBattleType(t, x) => {
                for ts in targets(t, s, m) {
                    b.stance[ts.index()] = *x;
                    if b.in_clash {
                        b.choose_technique(m, ts.other());
                        events.push(b.technique_event(ts.other()));
                    }
                }
            }
            Effect::NegateAbilities(t) => {
                for ts in targets(t, s, m) {
                    b.negated[ts.index()] = true;
                    let front = m.players[ts.index()].front().card().number;
                    let from_front = |c: &Cause| matches!(c, Cause::Ability { side, card, .. } if *side == ts && *card == front);
                    b.power_mods.retain(|(_, c, _)| !from_front(c));
                    b.hp_mods.retain(|(_, c, _)| !from_front(c));
                }
            }
            // Refused at setup (tabletop only); nothing to do in the arcade.
            // Tabletop effects: a team holding them is refused (team.rs).
            Effect::Draw(..)
            | Effect::Discard(..)
            | Effect::Tap(_)
            | Effect::Untap(_)
            | Effect::WinGame => {}
        }
    }
}

/// Runs every ability of the sides in `order` that `pick` selects and whose
/// limit, readiness and conditions allow it.
/// Runs the abilities `pick` chooses, each side in `order`: its front
/// Digimon's, then its Options'. From engine 2, those that change a
/// Digimon's attribute go first, both sides, then the rest: a condition
/// ("if the opposing Digimon is Virus") reads the attribute as the round
/// has it, whichever card changed it. From engine 4 each side's Speed
/// changes go before its other abilities ("if this Digimon is faster").
fn fire(
    m: &mut Match,
    b: &mut Battle,
    order: [Side; 2],
    events: &mut Vec<Event>,
    pick: impl Fn(Side, Carrier, &Ability) -> bool,
) {
    if m.tunables.engine >= 4 {
        fire_pass(m, b, &order, events, |s, c, a| {
            pick(s, c, a) && changes_attribute(a)
        });
        // Then each side in Speed order (step 8): its Speed changes, then
        // the rest, so its "if faster" reads the Speed its own cards give
        // it, and the faster side still resolves first.
        for s in order {
            fire_pass(m, b, &[s], events, |w, c, a| {
                pick(w, c, a) && !changes_attribute(a) && changes_speed(a)
            });
            fire_pass(m, b, &[s], events, |w, c, a| {
                pick(w, c, a) && !changes_attribute(a) && !changes_speed(a)
            });
        }
    } else if m.tunables.engine >= 2 {
        fire_pass(m, b, &order, events, |s, c, a| {
            pick(s, c, a) && changes_attribute(a)
        });
        fire_pass(m, b, &order, events, |s, c, a| {
            pick(s, c, a) && !changes_attribute(a)
        });
    } else {
        fire_pass(m, b, &order, events, pick);
    }
}

/// Whether an ability changes what conditions read of a Digimon.
fn changes_attribute(a: &Ability) -> bool {
    a.effects
        .iter()
        .any(|e| matches!(e, Effect::ChangeAttribute(..)))
}

/// Whether an ability changes a Digimon's Speed.
fn changes_speed(a: &Ability) -> bool {
    a.effects.iter().any(|e| matches!(e, Effect::Speed(..)))
}

fn fire_pass(
    m: &mut Match,
    b: &mut Battle,
    order: &[Side],
    events: &mut Vec<Event>,
    pick: impl Fn(Side, Carrier, &Ability) -> bool,
) {
    for &s in order {
        let sources = 1 + m.players[s.index()].options.len();
        for k in 0..sources {
            let source = if k == 0 {
                Carrier::Front
            } else {
                Carrier::Option((k - 1) as u8)
            };
            // Hold the card itself (a cheap Arc) so its abilities outlive the borrow of the match.
            let holder = m.players[s.index()].holder(source);
            let (card, list) = holder.abilities();
            for (index, a) in list.iter().enumerate() {
                let index = index as u8;
                let p = &m.players[s.index()];
                let ready =
                    a.mark == Mark::Auto || p.readied.contains(&AbilitySlot { source, index });
                if !ready || !p.within_limit(card, index, a) || !pick(s, source, a) {
                    continue;
                }
                if source == Carrier::Front && b.negated[s.index()] {
                    continue;
                }
                if a.conditions.iter().all(|c| holds(m, b, s, c)) {
                    run(m, b, s, card, index, a, events);
                }
            }
        }
    }
}

fn printed(m: &Match) -> [BattleType; 2] {
    [
        m.players[0].front().card().battle_type,
        m.players[1].front().card().battle_type,
    ]
}

/// Round start: Preparation abilities.
pub(super) fn preparation(m: &mut Match, events: &mut Vec<Event>) {
    let mut b = Battle::new(m, printed(m), [None, None], false);
    let order = order(m);
    fire(m, &mut b, order, events, |_, _, a| {
        a.timing == Timing::Preparation && a.trigger.is_none()
    });
}

/// After `side` digivolved: its "when digivolving" abilities.
pub(super) fn digivolved(m: &mut Match, side: Side, events: &mut Vec<Event>) {
    let mut b = Battle::new(m, printed(m), [None, None], false);
    fire(m, &mut b, [side, side.other()], events, |s, src, a| {
        s == side
            && src == Carrier::Front
            && (a.trigger == Some(Trigger::When(Happening::ThisDigivolves))
                || (a.timing == Timing::Evolution && a.trigger.is_none()))
    });
}

/// Deletes `s`'s front Digimon unless an interruptive effect prevents it.
fn delete(m: &mut Match, b: &mut Battle, s: Side, events: &mut Vec<Event>) {
    let line = m.players[s.index()].front();
    if !line.in_play() {
        return;
    }
    let card = line.card().number;
    fire(m, b, [s, s.other()], events, |who, _, a| {
        who == s && a.trigger == Some(Trigger::WhenWould(Happening::ThisDeleted))
    });
    if b.protected[s.index()] {
        b.protected[s.index()] = false;
        events.push(Event::DeletionPrevented { side: s, card });
        return;
    }
    m.players[s.index()].front_mut().state = LineState::Deleted;
    events.push(Event::Deleted { side: s, card });
    let points = m.tunables.deletion_points;
    change_points(m, s, -points, PointsReason::Deletion, events);
}

/// The lines `side` alpha-blocks with: its front and the `count - 1`
/// supporters whose technique for `slot` is strongest (in line order).
fn blockers(m: &Match, side: Side, slot: BattleType, count: usize) -> Vec<usize> {
    let p = &m.players[side.index()];
    let group = m.alpha_group(side);
    let power = |i: usize| {
        let line = &p.lines[i];
        if line.zeroed[slot.index()] {
            0
        } else {
            line.card().technique(slot).power
        }
    };
    let mut best: Vec<usize> = group[1..].to_vec();
    best.sort_by_key(|&i| std::cmp::Reverse(power(i)));
    best.truncate(count.saturating_sub(1));
    group
        .iter()
        .copied()
        .enumerate()
        .filter(|&(k, i)| k == 0 || best.contains(&i))
        .map(|(_, i)| i)
        .collect()
}

/// Resolves the clash of one round.
pub(super) fn resolve(
    m: &mut Match,
    pressed: [StancePress; 2],
    alpha: Option<(Side, bool)>,
    events: &mut Vec<Event>,
) {
    let stances = [pressed[0].stance, pressed[1].stance];
    events.push(Event::StancesRevealed {
        stances,
        timed_out: [pressed[0].timed_out, pressed[1].timed_out],
    });
    let order = order(m);

    // An Alpha Strike nobody blocks hits the player: points, no clash.
    if let Some((attacker, false)) = alpha
        && !pressed[attacker.other().index()].alpha
    {
        let defender = attacker.other();
        events.push(Event::AlphaBlock {
            side: defender,
            group: Vec::new(),
        });
        let points = m.tunables.loss_points;
        change_points(m, defender, -points, PointsReason::AlphaStrike, events);
        gauges(m, None, events);
        return;
    }
    let mut groups: [Option<Vec<usize>>; 2] = [None, None];
    if let Some((attacker, true)) = alpha {
        for s in [attacker, attacker.other()] {
            if pressed[s.index()].alpha || s != attacker {
                groups[s.index()] = Some(m.alpha_group(s));
            }
        }
        let strike = m.alpha_group(attacker);
        let strikers = strike.len();
        groups[attacker.index()] = Some(strike);
        let defender = attacker.other();
        if !pressed[defender.index()].alpha {
            // An alpha-block brings as many Digimon as the Alpha Strike
            // (the Alpha rulebook's "as many supporters"): the front and
            // the supporters with the strongest technique against the
            // striker's stance, so the block's technique is the group's
            // best, as it was with every supporter.
            let block = blockers(m, defender, stances[attacker.index()], strikers);
            let group = block
                .iter()
                .map(|&i| m.players[defender.index()].lines[i].card().number)
                .collect();
            groups[defender.index()] = Some(block);
            events.push(Event::AlphaBlock {
                side: defender,
                group,
            });
        }
    }

    let mut b = Battle::new(m, stances, groups, true);
    for s in order {
        events.push(b.technique_event(s));
    }
    // The read bonus is step 4 of a round and abilities and Options step
    // 5 (the design page): from engine 3 the +30% multiplies the
    // technique's power before abilities and Options add to it. Engines 1
    // and 2 applied it last; their replays still play that way.
    let bonus_first = m.tunables.engine >= 3;
    if bonus_first {
        read_bonus(m, &mut b, order, events);
    }
    fire(m, &mut b, order, events, |_, _, a| {
        matches!(a.timing, Timing::Battle | Timing::Always) && a.trigger.is_none()
    });
    if !bonus_first {
        read_bonus(m, &mut b, order, events);
    }
    let powers = [b.power(Side::P1), b.power(Side::P2)];
    let hp = [b.hp(m, Side::P1), b.hp(m, Side::P2)];
    let winner = match powers[0].cmp(&powers[1]) {
        std::cmp::Ordering::Greater => Some(Side::P1),
        std::cmp::Ordering::Less => Some(Side::P2),
        std::cmp::Ordering::Equal => None,
    };
    events.push(Event::Clash { powers, hp, winner });

    let mut happened: Vec<(Side, Happening)> = Vec::new();
    if let Some(w) = winner {
        let l = w.other();
        happened.push((w, Happening::ThisWins));
        happened.push((l, Happening::ThisLoses));
        let points = m.tunables.loss_points;
        change_points(m, l, -points, PointsReason::LostClash, events);
        happened.push((l, Happening::YouLosePoints));
        if powers[w.index()] > hp[l.index()] {
            b.delete[l.index()] = true;
        }
    }
    for s in order {
        if b.delete[s.index()] {
            b.delete[s.index()] = false;
            delete(m, &mut b, s, events);
            if m.players[s.index()].front().state == LineState::Deleted {
                happened.push((s, Happening::ThisDeleted));
                happened.push((s.other(), Happening::OpponentDeleted));
                happened.push((s, Happening::YouLosePoints));
            }
        }
    }

    // After the battle: triggered abilities, then deletions they caused.
    b.in_clash = false;
    fire(m, &mut b, order, events, |s, _, a| match a.trigger {
        Some(Trigger::When(h)) => happened.contains(&(s, h)),
        None => a.timing == Timing::AfterBattle,
        Some(Trigger::WhenWould(_)) => false,
    });
    if m.tunables.engine >= 4 {
        // Round steps 6 and 7 in their order: the next line steps in, then
        // each front line gains gauge, so a line that stepped in gains the
        // front's (it lost nothing: the loser's share was the deleted
        // Digimon's). Engines 1 to 3 gave the gauges first.
        let fronts = m.players.each_ref().map(|p| p.front);
        for s in order {
            step_in(m, s, events);
        }
        let loser = winner
            .map(Side::other)
            .filter(|l| m.players[l.index()].front == fronts[l.index()]);
        gauges(m, loser, events);
    } else {
        gauges(m, winner.map(Side::other), events);
        for s in order {
            step_in(m, s, events);
        }
    }
    let mut b = Battle::new(m, printed(m), [None, None], false);
    let order = [m.first, m.first.other()];
    fire(m, &mut b, order, events, |_, _, a| {
        a.timing == Timing::EndOfTurn && a.trigger.is_none()
    });
}

/// Each front line gains gauge (more for the loser); the bench gains a little.
fn gauges(m: &mut Match, loser: Option<Side>, events: &mut Vec<Event>) {
    for s in Side::BOTH {
        let front = m.players[s.index()].front;
        for line in 0..m.players[s.index()].lines.len() {
            if !m.players[s.index()].lines[line].in_play() {
                continue;
            }
            let t = &m.tunables;
            let gain = if line != front {
                t.gauge_bench
            } else if loser == Some(s) {
                t.gauge_loser
            } else {
                t.gauge_front
            };
            change_gauge(m, s, line, i64::from(gain), events);
        }
    }
}

/// When the front Digimon is gone, the next line steps in.
fn step_in(m: &mut Match, s: Side, events: &mut Vec<Event>) {
    let p = &mut m.players[s.index()];
    if p.front().in_play() {
        return;
    }
    if let Some(next) = p.lines.iter().position(super::Line::in_play) {
        p.front = next;
        events.push(Event::SteppedIn {
            side: s,
            card: p.front().card().number,
        });
    }
}
