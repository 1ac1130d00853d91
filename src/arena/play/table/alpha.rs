//! The Card Game Alpha on the table: each seat's zones at its edge (the
//! Digimon Box and, before it, the Option Slot; the Net Ocean at the left,
//! the Dark Area and the removed cards at the right, the hand nearest the
//! player), cards dealt, drawn, played face down, flipped at the Evolution
//! Phase, tapped sideways, stacked for evolution, sent to the Dark Area;
//! figures on the Box, rings round the battle under way, and (3–4 seats)
//! arrows at each Target Opponent.

use std::collections::HashMap;

use bevy::prelude::*;

use super::{
    CARD, Figs, Hands, LAN_DWELL, Noted, Placed, Role, TableGame, TableStage, Tabled, TargetMarker,
    aim, goals_by_id, launch, place_figures, seat_frame, side_of,
};
use crate::arena::play::hosted::Hosted;
use crate::arena::render::figures::{self, FigureKit};
use crate::arena::render::look::Glow;
use crate::arena::render::rig::Move;
use crate::arena::render::vfx::{self, Element, VfxStore};
use crate::arena::{AppSystems, Cards, Screen};
use crate::cards::{Card, CardNumber, CardSet, Digimon};
use crate::replay::Replay;
use crate::rules::alpha::{Action, Event, Laid, Layout, Match, Setup, Struck, View, deck};
use crate::rules::{Outcome, Ruleset, Seat};

impl Tabled for Match {
    type Layout = Layout;
    type Marks = Clash;

    fn lay_out(&self) -> Layout {
        self.layout()
    }

    fn placed(layout: &Layout) -> Vec<Placed> {
        placed(layout)
    }

    fn waiting_for(&self) -> Option<Seat> {
        Match::waiting_for(self)
    }

    fn answer_text(&self, _: Seat, action: Action, _: &CardSet) -> String {
        self.action_text(action)
    }

    fn noted(marks: &mut Clash, e: &Event, seats: usize, cards: &CardSet) -> Noted {
        marks.mark(e);
        noted(e, seats, cards)
    }

    fn dwells(e: &Event) -> bool {
        dwells(e)
    }

    fn step_begins(marks: &mut Clash) {
        // A battle that ended with the last action keeps its rings while
        // it is staged, until this one.
        if marks.over {
            marks.clash.clear();
            marks.over = false;
        }
    }

    fn clash(marks: &Clash) -> Vec<(Seat, Role)> {
        marks.clash.clone()
    }

    fn seats_line(m: Option<&Match>, layout: &Layout) -> String {
        m.map_or_else(String::new, |m| seats_line(m, layout))
    }

    fn extra_cards(setup: &Setup) -> &[Card] {
        &setup.extra
    }

    fn add_systems(app: &mut App) {
        app.add_systems(
            Update,
            (stage_figures, point_targets)
                .chain()
                .run_if(in_state(Screen::Table).and_eager(resource_exists::<TableGame<Match>>))
                .in_set(AppSystems::Update)
                .in_set(TableStage),
        );
    }

    fn lan_game(view: &View, name: String) -> TableGame<Match> {
        TableGame::<Match>::lan(view, name)
    }

    fn lan_news(game: &mut TableGame<Match>, view: &View, events: &[Event], cards: &CardSet) {
        game.follow(view, events, cards);
    }
}

/// The battle under way, as the events tell it: who attacks (and
/// supports), at what, and who blocks (and supports).
#[derive(Debug, Default)]
pub struct Clash {
    /// Each part, by seat.
    pub clash: Vec<(Seat, Role)>,
    /// The battle is over; its rings go with the next action.
    over: bool,
}

impl TableGame<Match> {
    /// A game at a LAN table, from the host's first view; the person at
    /// this machine plays its seat (a spectator's view has none). The
    /// replay is the whole game's only when it comes at the end: until
    /// then its setup holds the seats, not the host's secret seed.
    pub fn lan(view: &View, name: String) -> TableGame<Match> {
        // The seats, and the cards this seat knows (its own deck, what is
        // shown): those get their faces now, the rest when first seen.
        let setup = Setup::new(view.state().deck_lists(), 0);
        let mine = (!view.is_spectator()).then(|| view.seat());
        TableGame::at_lan(setup, mine, name)
    }

    /// A LAN table's news: the host's view after `events`, which go to the
    /// log, the banners and the figures.
    pub fn follow(&mut self, view: &View, events: &[Event], cards: &CardSet) {
        match self.host.as_mut() {
            Some(host) => host.follow(view.state().clone()),
            None => {
                let pilots = self.live.as_ref().map(|l| l.pilots.clone());
                let pilots = pilots.unwrap_or_default();
                let setup = self.replay.setup.clone();
                self.host = Hosted::following(setup, view.state().clone(), pilots).ok();
            }
        }
        self.layout = Some(view.layout());
        let dwell = self.take(events, cards);
        // The host's clock runs for the next question: the table dwells
        // on what came, but not for long.
        self.wait = (self.wait.max(0.0) + dwell).min(LAN_DWELL);
    }
}

impl Clash {
    /// Keeps the battle under way up to date with an event.
    fn mark(&mut self, e: &Event) {
        match e {
            Event::Attack { seat, card, target } => {
                self.over = false;
                self.clash = vec![(*seat, Role::Attacker(*card))];
                self.clash.push(match target {
                    Struck::Player(s) => (*s, Role::Player),
                    Struck::Digimon(s, d) => (*s, Role::Target(*d)),
                });
            }
            Event::AlphaAttack {
                seat,
                card,
                support,
                target,
            } => {
                self.over = false;
                self.clash = vec![(*seat, Role::Attacker(*card)), (*target, Role::Player)];
                self.clash
                    .extend(support.iter().map(|c| (*seat, Role::Supporter(*c))));
            }
            Event::Block { seat, card } => {
                // The blocker takes the attack in the attacked one's place.
                self.clash
                    .retain(|(_, r)| !matches!(r, Role::Target(_) | Role::Player));
                self.clash.push((*seat, Role::Blocker(*card)));
            }
            Event::AlphaBlock {
                seat,
                card,
                support,
            } => {
                self.clash
                    .retain(|(_, r)| !matches!(r, Role::Target(_) | Role::Player));
                self.clash.push((*seat, Role::Blocker(*card)));
                self.clash
                    .extend(support.iter().map(|c| (*seat, Role::BlockSupporter(*c))));
            }
            Event::BattleResult { .. }
            | Event::Damage { .. }
            | Event::TurnEnds(_)
            | Event::Over(_) => self.over = true,
            _ => {}
        }
    }
}

/// What an event says over the table: the phase, a banner.
fn noted(e: &Event, seats: usize, cards: &CardSet) -> Noted {
    let mut said = Noted::default();
    let name = |n: &CardNumber| {
        cards
            .get(n)
            .map_or_else(|| n.to_string(), |c| c.name().to_string())
    };
    match e {
        Event::TurnStarts { turn, .. } => said.phase = Some(format!("Turn {turn}")),
        Event::Preparation(s) => said.phase = Some(format!("Preparation Phase · {s}")),
        Event::EvolutionPhase => said.phase = Some("Evolution Phase".into()),
        Event::BattlePhase => said.phase = Some("Battle Phase".into()),
        _ => {}
    }
    let banner = match e {
        Event::FirstToAttack(s) => Some(format!("{s} ATTACKS FIRST")),
        Event::EvolutionPhase => Some("EVOLUTION PHASE".into()),
        Event::BattlePhase => Some("BATTLE PHASE".into()),
        Event::Evolved { to, .. } => Some(format!("DIGIVOLVE! {}", name(to))),
        Event::Attack { card, target, .. } => Some(match target {
            Struck::Player(s) => format!("{} ATTACKS {s}!", name(card).to_uppercase()),
            Struck::Digimon(_, d) => format!(
                "{} ATTACKS {}!",
                name(card).to_uppercase(),
                name(d).to_uppercase()
            ),
        }),
        Event::Block { card, .. } => Some(format!("BLOCKED BY {}!", name(card).to_uppercase())),
        Event::AlphaBlock { card, support, .. } => Some(format!(
            "ALPHA-BLOCK! {} +{}",
            name(card).to_uppercase(),
            support.len()
        )),
        Event::BattleResult { winners } if winners.len() == 1 => {
            Some(format!("{} WINS THE BATTLE", winners[0]))
        }
        Event::AlphaAttack {
            card,
            support,
            target,
            ..
        } => Some(format!(
            "ALPHA-ATTACK! {} +{}{}",
            name(card).to_uppercase(),
            support.len(),
            if seats > 2 {
                format!(" → {target}")
            } else {
                String::new()
            }
        )),
        Event::Burst { seat, .. } => Some(format!("{seat}: BURST!")),
        Event::Lifespan { seat, .. } => Some(format!("{seat}: LIFESPAN")),
        Event::Deleted { card, .. } => Some(format!("{} DELETED", name(card))),
        Event::Left { seat, .. } => Some(format!("{seat} IS OUT")),
        Event::Over(Outcome::Win(s)) => Some(format!("{s} WINS!")),
        Event::Over(Outcome::Draw) => Some("DRAW".into()),
        _ => None,
    };
    said.banner = banner;
    said.last_word = matches!(e, Event::Over(_));
    said
}

/// A whole game between Normal CPUs on the shipped decks (`seats` of
/// them, dealt in turn from `seed`), as a replay: the tour's table.
pub fn cpu_game(seats: usize, seed: u64, cards: &CardSet) -> Option<Replay<Match>> {
    let names = deck::EMBEDDED;
    let decks = (0..seats)
        .map(|i| {
            let (stem, _) = names[(seed as usize + i) % names.len()];
            deck::embedded(stem, cards)?.ok()
        })
        .collect::<Option<Vec<_>>>()?;
    let setup = Setup::new(decks, seed);
    let mut m = Match::from_setup(&setup, cards).ok()?;
    let mut actions = Vec::new();
    while m.outcome().is_none() && actions.len() < 20_000 {
        let seat = m.waiting_for()?;
        let action = crate::ai::alpha::choose(&m.view(seat), crate::ai::Strength::Normal);
        m.apply(seat, action).ok()?;
        actions.push((seat, action));
    }
    Some(Replay {
        rules: Match::version(&setup),
        setup,
        actions,
        final_hash: m.state_hash(),
    })
}

/// Events worth a longer look.
fn dwells(e: &Event) -> bool {
    matches!(
        e,
        Event::Attack { .. }
            | Event::AlphaAttack { .. }
            | Event::BattleResult { .. }
            | Event::Deleted { .. }
            | Event::Evolved { .. }
            | Event::EvolutionFailed { .. }
            | Event::Revealed { .. }
            | Event::Burst { .. }
            | Event::Damage { .. }
            | Event::Over(_)
    )
}

/// Every card in its seat's frame; the Digimon whose turn it is rises off
/// the table.
fn placed(layout: &Layout) -> Vec<Placed> {
    let acting = layout.acting.map(|(_, id)| id);
    slots(layout)
        .into_iter()
        .map(|(seat, c, mut at, tapped, hand)| {
            if acting == Some(c.id) {
                at.y += 0.35;
            }
            Placed {
                sideways: tapped,
                open: c.open,
                hand,
                stand_in: c.id.is_stand_in(),
                ..Placed::at(Some(u32::from(c.id.0)), c.number, seat, at)
            }
        })
        .collect()
}

/// A card's place in its seat's frame: its seat, position (x across, z
/// towards the player), whether it lies tapped and whether in a hand.
fn slots(layout: &Layout) -> Vec<(usize, Laid, Vec3, bool, bool)> {
    let mut out = Vec::new();
    let row = |k: usize, gap: f32| move |i: usize| (i as f32 - (k as f32 - 1.0) / 2.0) * gap;
    for (si, s) in layout.seats.iter().enumerate() {
        let mut put =
            |c: Laid, at: Vec3, tapped: bool, hand: bool| out.push((si, c, at, tapped, hand));
        let k = s.digimon.len();
        for (i, d) in s.digimon.iter().enumerate() {
            let x = row(k, CARD.y + 0.08)(i);
            put(d.card, Vec3::new(x, 0.0, -1.25), d.tapped, false);
            for (j, c) in d.stack.iter().enumerate() {
                let j = j as f32 + 1.0;
                put(*c, Vec3::new(x, 0.012 * j, -1.25 + 0.2 * j), false, false);
            }
        }
        let k = s.options.len();
        for (i, o) in s.options.iter().enumerate() {
            let x = row(k, CARD.y + 0.06)(i);
            put(o.card, Vec3::new(x, 0.0, -0.1), o.tapped, false);
        }
        let k = s.commands.len();
        for (i, c) in s.commands.iter().enumerate() {
            let x = row(k, CARD.x + 0.06)(i);
            put(*c, Vec3::new(x, 0.3, -2.3), false, false);
        }
        let pile = |v: &[Laid], x: f32, z: f32, top_first: bool, out: &mut Vec<_>| {
            let n = v.len();
            for (j, c) in v.iter().enumerate() {
                let h = if top_first { n - 1 - j } else { j };
                out.push((si, *c, Vec3::new(x, 0.006 * h as f32, z), false, false));
            }
        };
        pile(&s.net_ocean, -2.7, -0.1, true, &mut out);
        pile(&s.dark_area, 2.7, -0.1, false, &mut out);
        pile(&s.removed, 2.7, -1.25, false, &mut out);
        let k = s.hand.len();
        let gap = (4.2 / k.max(1) as f32).min(CARD.x + 0.05);
        for (i, c) in s.hand.iter().enumerate() {
            let x = row(k, gap)(i);
            out.push((si, *c, Vec3::new(x, 0.004 * i as f32, 1.05), false, true));
        }
    }
    out
}
/// Every seat's points and zones, whose choice it is, and (three or four
/// seats) each Target Opponent.
fn seats_line(m: &Match, layout: &Layout) -> String {
    let waiting = m.waiting_for();
    layout
        .seats
        .iter()
        .map(|s| {
            let mut line = format!(
                "{}{} {} pts · hand {} · Net Ocean {} · Dark {}",
                if waiting == Some(s.seat) { "▶ " } else { "" },
                s.seat,
                s.points,
                s.hand.len(),
                s.net_ocean.len(),
                s.dark_area.len()
            );
            if !s.alive {
                line.push_str(" · OUT");
            } else {
                // This turn's attack order: first to attack first.
                if let Some(at) = m.order().iter().position(|o| *o == s.seat) {
                    let place = ["1st", "2nd", "3rd", "4th"]
                        .get(at)
                        .copied()
                        .unwrap_or("last");
                    line.push_str(&format!(" · attacks {place}"));
                }
                if layout.seats.len() > 2 {
                    line.push_str(&format!(" · targets {}", s.target));
                }
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn digimon<'a>(
    game: &'a TableGame<Match>,
    cards: &'a CardSet,
    n: &CardNumber,
) -> Option<&'a Digimon> {
    cards
        .get(n)
        .or_else(|| game.replay.setup.extra.iter().find(|c| c.number() == *n))
        .and_then(Card::as_digimon)
}

/// The figures follow the Box: each face-up Digimon stands on its card,
/// facing the table's centre (turned aside when tapped); the events stage
/// the battles (techniques in flight, hits, the winner's cheer), deletions
/// (breaking into data), evolutions (the old figure turns into light, the
/// new one grows in a column of light) and the damage a player takes.
#[expect(
    clippy::too_many_lines,
    reason = "one match over the events a figure shows, each arm short"
)]
fn stage_figures(
    mut commands: Commands,
    game: Option<ResMut<TableGame<Match>>>,
    cards: Res<Cards>,
    mut kit: FigureKit,
    vfx_store: Option<Res<VfxStore>>,
    mut figs: Figs,
) {
    let Some(mut game) = game else { return };
    if !game.is_changed() {
        return;
    }
    let events = std::mem::take(&mut game.bypass_change_detection().pending);
    let Some(layout) = game.layout.as_ref() else {
        return;
    };
    let n = layout.seats.len();
    let goals = goals_by_id(&placed(layout), n, Hands::All);
    // Where each standing Digimon is: its id, seat, card and transform.
    let mut stand: HashMap<u32, (usize, CardNumber, Transform, bool)> = HashMap::new();
    for (i, s) in layout.seats.iter().enumerate() {
        for d in s.digimon.iter().filter(|d| d.card.open) {
            let id = u32::from(d.card.id.0);
            if let Some((goal, _)) = goals.get(&id) {
                stand.insert(id, (i, d.card.number, *goal, d.tapped));
            }
        }
    }
    let at_of = |e: Entity, figs: &Figs| figs.get(e).ok().map(|(_, _, f, _)| f.home + f.bounds.0);
    let find = |seat: Seat, card: &CardNumber, figs: &Figs| {
        figs.iter()
            .find(|(_, t, f, _)| t.seat == seat.index() && f.card == *card)
            .map(|(e, ..)| e)
    };
    let mut fought: Vec<(Entity, Element, u32)> = Vec::new();
    let mut gone: Vec<Entity> = Vec::new();
    for e in &events {
        match e {
            Event::Power {
                seat,
                card,
                technique,
                power,
                ..
            } => {
                if let Some(f) = find(*seat, card, &figs) {
                    let name = digimon(&game, &cards.0, card).map(|d| {
                        let t = match technique {
                            'A' => &d.techniques.a,
                            'B' => &d.techniques.b,
                            _ => &d.techniques.c,
                        };
                        (t.name.clone(), d)
                    });
                    let element = name
                        .as_ref()
                        .map_or(Element::Physical, |(t, d)| Element::of(t, Some(d)));
                    fought.push((f, element, *power));
                }
            }
            Event::BattleResult { winners } => {
                // Each side's technique flies at the other; the winners cheer.
                if let [(a, ea, pa), (b, eb, pb)] = fought[..] {
                    for (from, to, element, power) in [(a, b, ea, pa), (b, a, eb, pb)] {
                        let (Some(p), Some(q)) = (at_of(from, &figs), at_of(to, &figs)) else {
                            continue;
                        };
                        if let Ok((_, _, mut f, _)) = figs.get_mut(from) {
                            f.cue = Some(element.stance());
                        }
                        launch(
                            &mut commands,
                            vfx_store.as_deref(),
                            (p, q),
                            (element, power),
                            Some(to),
                        );
                    }
                }
                for (f, ..) in &fought {
                    if let Ok((_, t, mut fig, _)) = figs.get_mut(*f)
                        && Seat::new(t.seat).is_some_and(|s| winners.contains(&s))
                        && winners.len() == 1
                    {
                        fig.cue = Some(Move::Cheer);
                    }
                }
                fought.clear();
            }
            Event::Deleted { seat, card } => {
                if let Some(f) = find(*seat, card, &figs)
                    && let Ok((_, _, fig, _)) = figs.get(f)
                {
                    if let Some(store) = &vfx_store {
                        vfx::data_burst(
                            &mut commands,
                            store,
                            fig.home + fig.bounds.0,
                            fig.bounds.1,
                        );
                    }
                    figures::leave(&mut commands, f, fig);
                    gone.push(f);
                }
            }
            Event::Evolved { seat, from, .. } => {
                if let Some(f) = find(*seat, from, &figs)
                    && let Ok((_, _, fig, _)) = figs.get(f)
                {
                    if let Some(store) = &vfx_store {
                        vfx::evolution_light(&mut commands, store, fig.home);
                    }
                    figures::leave(&mut commands, f, fig);
                    gone.push(f);
                }
            }
            Event::Damage { seat, amount, .. } => {
                // Over the player's Box row.
                let (origin, turn, scale) = seat_frame(seat.index(), n);
                let at = origin + turn * Vec3::new(0.0, 0.9, -1.25 * scale);
                crate::arena::ui::numbers::damage_number(
                    &mut commands,
                    at,
                    format!("-{amount}"),
                    side_of(seat.index()),
                );
            }
            // An attack on a player: the technique flies at their edge.
            Event::Attack {
                seat,
                card,
                target: Struck::Player(target),
            }
            | Event::AlphaAttack {
                seat, card, target, ..
            } => {
                let Some(f) = find(*seat, card, &figs) else {
                    continue;
                };
                let element = digimon(&game, &cards.0, card).map_or(Element::Physical, |d| {
                    Element::of(&d.techniques.a.name, Some(d))
                });
                let (origin, _, _) = seat_frame(target.index(), n);
                if let (Some(p), Ok((_, _, mut fig, _))) = (at_of(f, &figs), figs.get_mut(f)) {
                    fig.cue = Some(element.stance());
                    launch(
                        &mut commands,
                        vfx_store.as_deref(),
                        (p, origin + Vec3::Y * 0.4),
                        (element, 300),
                        None,
                    );
                }
            }
            _ => {}
        }
    }
    // Figures whose card left the Box go; the others stand on their cards.
    let digimon_of = |n: &CardNumber| digimon(&game, &cards.0, n).cloned();
    place_figures(
        &mut commands,
        &mut kit,
        &mut figs,
        (stand, &gone),
        n,
        digimon_of,
    );
}

/// Keeps one arrow per living seat (3–4 seats) pointing from its edge at
/// its Target Opponent's.
fn point_targets(
    commands: Commands,
    game: Option<Res<TableGame<Match>>>,
    meshes: ResMut<Assets<Mesh>>,
    glows: ResMut<Assets<Glow>>,
    markers: Query<(Entity, &TargetMarker, &mut Transform)>,
) {
    let Some(game) = game else { return };
    if !game.is_changed() {
        return;
    }
    let Some(layout) = &game.layout else { return };
    let want: Vec<(usize, usize)> = layout
        .seats
        .iter()
        .enumerate()
        .filter(|(_, s)| s.alive)
        .map(|(i, s)| (i, s.target.index()))
        .collect();
    aim(
        commands,
        layout.seats.len(),
        &want,
        (meshes, glows),
        markers,
    );
}
