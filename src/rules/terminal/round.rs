//! How a round runs: evolution, the stances, Alpha Strikes and blocks, the
//! clash, and the battle's end.

use super::side_state::{LineState, SideState};
use super::{Event, Match, Phase, Side, StancePress, clash};
use crate::cards::CardNumber;
use crate::rules::{Outcome, Seat};

impl Match {
    pub(super) fn start_round(&mut self, events: &mut Vec<Event>) {
        self.round += 1;
        for p in &mut self.players {
            p.readied.clear();
            p.speed_bonus = 0;
            for u in &mut p.used {
                u.turn = 0;
            }
        }
        events.push(Event::RoundStarted { round: self.round });
        clash::preparation(self, events);
        if self.finish_if_decided(events) {
            return;
        }
        let mut waiting = [false; 2];
        self.offered = [None; 2];
        for side in Side::BOTH {
            waiting[side.index()] = self.offer_from(side, None, events);
        }
        self.phase = if waiting.iter().any(|&w| w) {
            Phase::Evolution { waiting }
        } else {
            Phase::Stance { pressed: [None; 2] }
        };
    }

    /// Asks `side` about its next full line after `after` (`None`: from
    /// the start), the front first, then the bench in line order (engine
    /// 4; earlier engines ask only for the front). Says whether it asked.
    fn offer_from(&mut self, side: Side, after: Option<usize>, events: &mut Vec<Event>) -> bool {
        let p = &self.players[side.index()];
        // Earlier engines have no bench lines to ask.
        let lines = if self.tunables.engine >= 4 {
            p.lines.len()
        } else {
            0
        };
        let bench = (0..lines).filter(|&i| i != p.front);
        let mut order = std::iter::once(p.front).chain(bench);
        if let Some(a) = after {
            // On past the line just asked (none left if it is not one).
            order.by_ref().find(|&i| i == a);
        }
        let Some((line, offer)) = order.find_map(|i| self.line_offer(side, i).map(|o| (i, o)))
        else {
            self.offered[side.index()] = None;
            return false;
        };
        let p = &self.players[side.index()];
        let bench = (line != p.front).then_some(line as u8);
        self.offered[side.index()] = bench;
        let l = &p.lines[line];
        events.push(Event::EvolutionOffered {
            side,
            from: l.card().number,
            to: l.stages[l.at + 1].number,
            jogress: offer == EvolutionOffer::Jogress,
            bench,
        });
        true
    }

    pub(super) fn evolution_answered(&mut self, side: Side, events: &mut Vec<Event>) {
        let asked = self.offered_line(side);
        if let Phase::Evolution { .. } = self.phase
            && !self.offer_from(side, Some(asked), events)
            && let Phase::Evolution { waiting } = &mut self.phase
        {
            waiting[side.index()] = false;
            if !waiting.iter().any(|&w| w) {
                self.phase = Phase::Stance { pressed: [None; 2] };
            }
        }
    }

    /// The bench Digimon `side` is asked to digivolve now, and what it
    /// would become (engine 4), if a bench line is asked.
    pub fn bench_evolving(&self, side: Side) -> Option<(CardNumber, CardNumber)> {
        let Phase::Evolution { waiting } = self.phase else {
            return None;
        };
        let p = &self.players[side.index()];
        let line = p.lines.get(usize::from(self.offered[side.index()]?))?;
        let next = line.stages.get(line.at + 1)?;
        waiting[side.index()].then(|| (line.card().number, next.number))
    }

    /// The line `side` is asked (or would be asked) to digivolve: a bench
    /// line while one is offered, else the front.
    pub(super) fn offered_line(&self, side: Side) -> usize {
        self.offered[side.index()].map_or(self.players[side.index()].front, usize::from)
    }

    /// What `side` is offered for the line it is asked about now.
    pub(super) fn evolution_offer(&self, side: Side) -> Option<EvolutionOffer> {
        self.line_offer(side, self.offered_line(side))
    }

    /// What line `i` of `side` may do at the evolution check: digivolve
    /// when its gauge is full and a scanned stage is next; Jogress when
    /// that stage is a Jogress card and the partner line is full too (the
    /// front only: a Jogress takes the front and its partner).
    fn line_offer(&self, side: Side, i: usize) -> Option<EvolutionOffer> {
        let p = &self.players[side.index()];
        let line = p.lines.get(i)?;
        if !line.in_play()
            || line.gauge < self.tunables.gauge_full
            || line.at + 1 >= line.stages.len()
        {
            return None;
        }
        match line.jogress {
            Some((stage, partner)) if stage == line.at + 1 => {
                let partner = &p.lines[partner];
                (i == p.front && partner.in_play() && partner.gauge >= self.tunables.gauge_full)
                    .then_some(EvolutionOffer::Jogress)
            }
            _ => Some(EvolutionOffer::Normal),
        }
    }

    /// The line asked about digivolves. A bench Digimon is not in the
    /// battle, so its abilities (a [When Digivolving] one) do not fire.
    pub(super) fn digivolve(&mut self, side: Side, events: &mut Vec<Event>) {
        let at = self.offered_line(side);
        let p = &mut self.players[side.index()];
        let bench = (at != p.front).then_some(at as u8);
        let Some(line) = p.lines.get_mut(at) else {
            return;
        };
        let from = line.card().number;
        line.at += 1;
        line.gauge = 0;
        line.zeroed = [false; 3];
        let to = line.card().number;
        events.push(Event::Digivolved {
            side,
            from,
            to,
            bench,
        });
        if bench.is_none() {
            clash::digivolved(self, side, events);
        }
    }

    pub(super) fn jogress(&mut self, side: Side, events: &mut Vec<Event>) {
        let p = &mut self.players[side.index()];
        let Some((_, partner)) = p.front().jogress else {
            return;
        };
        let partner_card = p.lines[partner].card().number;
        p.lines[partner].state = LineState::Merged;
        let line = p.front_mut();
        let from = [line.card().number, partner_card];
        line.at += 1;
        line.gauge = 0;
        line.zeroed = [false; 3];
        let to = line.card().number;
        events.push(Event::Jogressed { side, from, to });
        clash::digivolved(self, side, events);
    }

    /// The front Digimon and the other Digimon in play of its battle type and Field.
    pub(super) fn alpha_group(&self, side: Side) -> Vec<usize> {
        let p = &self.players[side.index()];
        let front = p.front().card();
        let mut group = vec![p.front];
        group.extend(p.lines.iter().enumerate().filter_map(|(i, l)| {
            let c = l.card();
            (i != p.front
                && l.in_play()
                && c.battle_type == front.battle_type
                && c.field == front.field)
                .then_some(i)
        }));
        group
    }

    /// How many Digimon an Alpha Strike by `side` would bring, without building the group.
    pub(super) fn alpha_group_len(&self, side: Side) -> usize {
        let p = &self.players[side.index()];
        let front = p.front().card();
        p.lines
            .iter()
            .filter(|l| {
                l.in_play()
                    && l.card().battle_type == front.battle_type
                    && l.card().field == front.field
            })
            .count()
            .max(1)
    }

    pub(super) fn can_alpha_block(&self, side: Side) -> bool {
        self.alpha_group_len(side) >= self.alpha_group_len(side.other())
    }

    pub(super) fn both_pressed(&mut self, pressed: [StancePress; 2], events: &mut Vec<Event>) {
        let attackers: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|s| pressed[s.index()].alpha)
            .collect();
        for &a in &attackers {
            self.players[a.index()].alpha_used = true;
            let group = self
                .alpha_group(a)
                .iter()
                .map(|&i| self.players[a.index()].lines[i].card().number)
                .collect();
            events.push(Event::AlphaAttack { side: a, group });
        }
        match attackers.as_slice() {
            [attacker] => {
                let defender = attacker.other();
                if self.can_alpha_block(defender) {
                    self.phase = Phase::Block {
                        attacker: *attacker,
                        pressed,
                    };
                } else {
                    self.resolve_round(pressed, Some((*attacker, false)), events);
                }
            }
            // Both struck at once: each side fights with its group.
            [_, _] => self.resolve_round(pressed, Some((Side::P1, true)), events),
            _ => self.resolve_round(pressed, None, events),
        }
    }

    /// Resolves the clash (`alpha`: the attacker and whether it was blocked),
    /// then ends the round and starts the next one.
    pub(super) fn resolve_round(
        &mut self,
        pressed: [StancePress; 2],
        alpha: Option<(Side, bool)>,
        events: &mut Vec<Event>,
    ) {
        clash::resolve(self, pressed, alpha, events);
        events.push(Event::RoundEnded {
            round: self.round,
            points: [self.players[0].points, self.players[1].points],
        });
        if self.finish_if_decided(events) {
            return;
        }
        if self.round >= self.tunables.max_rounds {
            let [a, b] = [self.players[0].points, self.players[1].points];
            let outcome = match a.cmp(&b) {
                std::cmp::Ordering::Greater => Outcome::Win(Seat::P1),
                std::cmp::Ordering::Less => Outcome::Win(Seat::P2),
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            self.end(outcome, events);
            return;
        }
        self.start_round(events);
    }

    /// Ends the battle when a player is out of points or Digimon.
    pub(super) fn finish_if_decided(&mut self, events: &mut Vec<Event>) -> bool {
        let lost = |p: &SideState| p.points <= 0 || !p.has_digimon();
        let outcome = match (lost(&self.players[0]), lost(&self.players[1])) {
            (false, false) => return false,
            (true, true) => Outcome::Draw,
            (true, false) => Outcome::Win(Seat::P2),
            (false, true) => Outcome::Win(Seat::P1),
        };
        self.end(outcome, events);
        true
    }

    pub(super) fn end(&mut self, outcome: Outcome, events: &mut Vec<Event>) {
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        events.push(Event::BattleEnded { outcome });
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EvolutionOffer {
    Normal,
    Jogress,
}
