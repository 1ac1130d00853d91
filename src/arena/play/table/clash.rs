//! Alpha Clash on the table: each seat's Contender at the centre of its
//! edge with a figure on it, the Clash Zone before it (a figure on every
//! Clash card, its Weapon under it), the Accessory Zone and the
//! Clashground at the left, the Resource Zone fanned face down at the
//! right beside the deck and Oblivion, the hand nearest the player; what
//! waits in Standby floats as cards in the air over the table's centre,
//! and the six clash steps are named in banners as they pass. Attacks fly
//! as techniques of the attacker's colour, the defender strikes back, the
//! defeated break into data.

use std::collections::HashMap;

use bevy::prelude::*;

use super::{
    CARD, Figs, Hands, LAN_DWELL, Noted, Placed, Role, TableGame, TableStage, Tabled, goals,
    launch, place_figures, seat_frame,
};
use crate::arena::render::figures::{self, FigureKit};
use crate::arena::render::vfx::{self, Element, VfxStore};
use crate::arena::{AppSystems, Cards, Screen};
use crate::cards::{Card, CardNumber, CardSet, ClashKind, Digimon, Level};
use crate::effects::clash::Hue;
use crate::glossary::Field;
use crate::replay::Replay;
use crate::rules::clash::layout::{Laid, Layout, UnitLaid};
use crate::rules::clash::{Action, ClashStep, Event, Match, View};
use crate::rules::{Outcome, Ruleset, Seat};

/// The Clash Zone's row (z, in the seat's frame).
const CLASH_Z: f32 = -1.3;
/// The Contender's row, with the Accessory Zone and the piles.
const BACK_Z: f32 = -0.1;
/// The hand.
const HAND_Z: f32 = 1.05;
/// The piles at the edges (x, either side).
const EDGE_X: f32 = 2.75;
/// How high Standby floats over the table.
const STANDBY_Y: f32 = 1.1;

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
        self.waiting().map(|(s, _)| s)
    }

    fn layout_waiting(layout: &Layout) -> Option<Seat> {
        layout.waiting
    }

    fn prompt_text(text: &str) -> &str {
        text.split(" (a number").next().unwrap_or(text)
    }

    fn answer_text(&self, seat: Seat, action: Action, _: &CardSet) -> String {
        crate::rules::clash::action_words(self, seat, action)
    }

    fn noted(marks: &mut Clash, e: &Event, _: usize, cards: &CardSet) -> Noted {
        marks.mark(e);
        noted(e, cards)
    }

    fn dwells(e: &Event) -> bool {
        matches!(
            e,
            Event::Attack { .. }
                | Event::Obstructed(_)
                | Event::Activated { .. }
                | Event::Defeated(_)
                | Event::Negated(_)
                | Event::Step(ClashStep::Damage)
                | Event::Lost { .. }
                | Event::Over(_)
        )
    }

    fn step_begins(marks: &mut Clash) {
        if marks.over {
            *marks = Clash::default();
        }
    }

    fn clash(marks: &Clash) -> Vec<(Seat, Role)> {
        let mut v = Vec::new();
        if let Some((seat, card)) = marks.attacker {
            v.push((seat, Role::Attacker(card)));
        }
        if marks.obstructors.is_empty()
            && let Some((seat, card)) = marks.target
        {
            v.push((seat, Role::Target(card)));
        }
        v.extend(
            marks
                .obstructors
                .iter()
                .map(|(s, c)| (*s, Role::Blocker(*c))),
        );
        v
    }

    fn seats_line(_: Option<&Match>, layout: &Layout) -> String {
        seats_line(layout)
    }

    fn add_systems(app: &mut App) {
        app.add_systems(
            Update,
            stage_figures
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

/// The Clash under way, as the events tell it.
#[derive(Debug, Default)]
pub struct Clash {
    /// The attacker: its seat and card.
    pub attacker: Option<(Seat, CardNumber)>,
    /// What it attacks.
    pub target: Option<(Seat, CardNumber)>,
    /// The obstructors.
    pub obstructors: Vec<(Seat, CardNumber)>,
    /// The Clash is over; the marks go with the next action.
    over: bool,
}

impl Clash {
    fn mark(&mut self, e: &Event) {
        match e {
            Event::Attack {
                seat,
                attacker,
                target,
                defender,
            } => {
                *self = Clash {
                    attacker: Some((*seat, attacker.number)),
                    target: Some((*defender, target.number)),
                    obstructors: Vec::new(),
                    over: false,
                };
            }
            Event::Obstructed(c) => {
                if let Some((s, _)) = self.target {
                    self.obstructors.push((s, c.number));
                }
            }
            Event::ClashOver | Event::TurnEnded(_) | Event::Over(_) => self.over = true,
            _ => {}
        }
    }
}

impl TableGame<Match> {
    /// A game at a LAN table, from the host's first view.
    pub fn lan(view: &View, name: String) -> TableGame<Match> {
        let setup = Match::setup_for(vec![Vec::new(); view.seats.len()], 0);
        let mut game = TableGame::at_lan(setup, view.me, name);
        game.layout = Some(view.layout());
        game
    }

    /// A LAN table's news: the host's view after `events`.
    pub fn follow(&mut self, view: &View, events: &[Event], cards: &CardSet) {
        self.layout = Some(view.layout());
        let dwell = self.take(events, cards);
        self.wait = (self.wait.max(0.0) + dwell).min(LAN_DWELL);
    }
}

/// A card's name, or its number when the set does not know it.
fn name(n: &CardNumber, cards: &CardSet) -> String {
    cards
        .get(n)
        .map_or_else(|| n.to_string(), |c| c.name().to_string())
}

/// What an event says over the table: the phase, a banner.
fn noted(e: &Event, cards: &CardSet) -> Noted {
    let up = |n: &crate::rules::clash::Named| name(&n.number, cards).to_uppercase();
    let mut said = Noted::default();
    said.banner = match e {
        Event::TurnBegan { seat, turn } => {
            said.phase = Some(format!("Turn {turn} · {seat}"));
            Some(format!("{seat}'S TURN"))
        }
        Event::First(s) => Some(format!("{s} GOES FIRST")),
        Event::Step(step) => {
            said.phase = Some(step.words().to_string());
            Some(step.words().to_uppercase())
        }
        Event::Attack {
            attacker, target, ..
        } => Some(format!("{} ATTACKS {}!", up(attacker), up(target))),
        Event::Obstructed(c) => Some(format!("OBSTRUCTED BY {}!", up(c))),
        Event::Activated { card, .. } => Some(format!("TRAP! {}", up(card))),
        Event::Played { card, .. } => Some(format!("{} INTO STANDBY", up(card))),
        Event::Negated(c) => Some(format!("{} DOES NOT RESOLVE", up(c))),
        Event::Defeated(c) => Some(format!("{} DEFEATED", up(c))),
        Event::PortalOpened(s) => Some(format!("{s} OPENS THE PORTAL")),
        Event::ClashOver => {
            said.phase = Some("Primary Phase".to_string());
            None
        }
        Event::Lost { seat, .. } => Some(format!("{seat} IS OUT")),
        Event::Over(o) => Some(match o {
            Outcome::Win(s) => format!("{s} WINS!"),
            Outcome::Draw => "DRAW".to_string(),
        }),
        _ => None,
    };
    said.last_word = matches!(e, Event::Over(_));
    said
}

/// Every seat in a line: whose choice it is, its Contender's health, its
/// hand and deck, its ready resources of all, an open Portal.
fn seats_line(layout: &Layout) -> String {
    let mut lines: Vec<String> = layout
        .seats
        .iter()
        .map(|s| {
            let ready = s.resources.iter().filter(|r| !r.engaged).count();
            // Two short lines a seat: the box beside the table is narrow.
            let mut line = format!(
                "{}{} · health {}/{} · ready {ready}/{}\n    hand {} · deck {}",
                if layout.waiting == Some(s.seat) {
                    "▶ "
                } else {
                    ""
                },
                s.seat,
                s.health.0,
                s.health.1,
                s.resources.len(),
                s.hand.len(),
                s.deck.len(),
            );
            if s.portal {
                line.push_str(" · Portal");
            }
            if s.lost {
                line.push_str(" · OUT");
            }
            line
        })
        .collect();
    if !layout.standby.is_empty() {
        lines.push(format!("Standby: {} waiting", layout.standby.len()));
    }
    lines.join("\n")
}

/// Every card of a layout in its seat's frame.
fn placed(layout: &Layout) -> Vec<Placed> {
    let n = layout.seats.len();
    let mut out = Vec::new();
    let row = |k: usize, gap: f32| move |i: usize| (i as f32 - (k as f32 - 1.0) / 2.0) * gap;
    let id = |c: &Laid| c.id.map(u32::from);
    for (si, s) in layout.seats.iter().enumerate() {
        let mut put = |c: &Laid, at: Vec3, figure: bool| {
            out.push(Placed {
                open: c.open,
                stand_in: c.hidden(),
                sideways: c.engaged,
                figure: if figure { id(c) } else { None },
                ..Placed::at(id(c), c.number, si, at)
            });
        };
        let unit = |u: &UnitLaid, at: Vec3, put: &mut dyn FnMut(&Laid, Vec3, bool)| {
            // The Weapon under its Clash card, peeking out towards the
            // player.
            if let Some(w) = &u.weapon {
                put(w, at + Vec3::new(0.0, -0.004, 0.28), false);
            }
            put(&u.card, at + Vec3::Y * 0.004, true);
        };
        unit(&s.contender, Vec3::new(0.0, 0.0, BACK_Z), &mut put);
        let k = s.clash.len();
        let gap = (4.6 / k.max(1) as f32).min(CARD.y + 0.1);
        for (i, u) in s.clash.iter().enumerate() {
            unit(u, Vec3::new(row(k, gap)(i), 0.0, CLASH_Z), &mut put);
        }
        // The Accessory Zone at the left of the Contender, the
        // Clashground at the edge.
        let k = s.accessories.len();
        let gap = (1.6 / k.max(1) as f32).min(CARD.x + 0.05);
        for (i, c) in s.accessories.iter().enumerate() {
            put(c, Vec3::new(-1.3 + row(k, gap)(i), 0.0, BACK_Z), false);
        }
        if let Some(g) = &s.clashground {
            put(g, Vec3::new(-EDGE_X, 0.0, CLASH_Z), false);
        }
        // The Resource Zone at the right of the Contender, fanned.
        let k = s.resources.len();
        let gap = (1.5 / k.max(1) as f32).min(0.3);
        for (i, c) in s.resources.iter().enumerate() {
            put(
                c,
                Vec3::new(1.4 + i as f32 * gap - 0.3, 0.004 * i as f32, BACK_Z),
                false,
            );
        }
        for (j, c) in s.deck.iter().enumerate() {
            put(c, Vec3::new(EDGE_X, 0.006 * j as f32, CLASH_Z), false);
        }
        for (j, c) in s.oblivion.iter().enumerate() {
            put(c, Vec3::new(EDGE_X, 0.006 * j as f32, BACK_Z + 0.3), false);
        }
        let k = s.hand.len();
        let gap = (3.4 / k.max(1) as f32).min(CARD.x + 0.05);
        for (i, c) in s.hand.iter().enumerate() {
            out.push(Placed {
                hand: true,
                stand_in: c.hidden(),
                ..Placed::at(
                    id(c),
                    c.number,
                    si,
                    Vec3::new(row(k, gap)(i), 0.004 * i as f32, HAND_Z),
                )
            });
        }
    }
    // Standby: in the air over the table's centre, the next to resolve on
    // top, each turned to its player; laid in that player's frame.
    for (k, (seat, c)) in layout.standby.iter().enumerate() {
        let si = seat.index().min(n.saturating_sub(1));
        let (origin, turn, scale) = seat_frame(si, n);
        let world = Vec3::new(0.25 * k as f32, STANDBY_Y + 0.12 * k as f32, 0.0);
        let local = turn.inverse() * (world - origin);
        out.push(Placed {
            open: true,
            size: 1.3,
            ..Placed::at(
                id(c),
                c.number,
                si,
                Vec3::new(local.x / scale, local.y, local.z / scale),
            )
        });
    }
    out
}

/// A whole game between Normal CPUs on the shipped decks, as a replay: the
/// tour's table.
pub fn cpu_game(seats: usize, seed: u64, cards: &CardSet) -> Option<Replay<Match>> {
    use crate::ai::{Cpu, Strength};
    let decks = (0..seats)
        .map(|i| Some(Match::house_cards(Seat::new(i)?, seed + i as u64, cards)))
        .collect::<Option<Vec<Vec<CardNumber>>>>()?;
    let setup = Match::setup_for(decks, seed);
    let mut m = Match::from_setup(&setup, cards).ok()?;
    let mut actions = Vec::new();
    while m.outcome().is_none() && actions.len() < 20_000 {
        let (seat, _) = m.waiting()?;
        let action = m.choose(seat, Strength::Normal)?;
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

/// An Alpha Clash Contender or Clash card as a figure: one made after the
/// card (a Digimon body of its cost's size, the field of its colour),
/// the same for the same card on every machine.
fn figure_of(n: &CardNumber, cards: &CardSet) -> Option<Digimon> {
    let c = cards.get(n)?.as_clash()?;
    if !matches!(c.kind, ClashKind::Clash | ClashKind::Contender) {
        return None;
    }
    // A body from the set's Digimon, picked by the card's name.
    let bodies: Vec<&Digimon> = cards.cards().iter().filter_map(Card::as_digimon).collect();
    let pick = crate::rules::fnv1a(c.name.as_bytes()) as usize % bodies.len().max(1);
    let mut d = (*bodies.get(pick)?).clone();
    d.number = c.number;
    d.name.clone_from(&c.name);
    d.level = match (c.kind, c.cost) {
        (ClashKind::Contender, _) => Level::Ultimate,
        (_, 0..=2) => Level::III,
        (_, 3) => Level::IV,
        (_, 4..=5) => Level::Perfect,
        _ => Level::Ultimate,
    };
    d.field = match c.colors.first() {
        Some(Hue::Red) => Field::DragonsRoar,
        Some(Hue::Blue) => Field::DeepSavers,
        Some(Hue::Green) => Field::NatureSpirits,
        Some(Hue::Black) => Field::NightmareSoldiers,
        _ => Field::WindGuardians,
    };
    Some(d)
}

/// A card's technique: the element of its first colour.
fn element_of(n: &CardNumber, cards: &CardSet) -> Element {
    match cards
        .get(n)
        .and_then(Card::as_clash)
        .and_then(|c| c.colors.first())
    {
        Some(Hue::Red) => Element::Fire,
        Some(Hue::Blue) => Element::Ice,
        Some(Hue::White) => Element::Holy,
        Some(Hue::Black) => Element::Dark,
        _ => Element::Physical,
    }
}

/// The figures follow the Contenders and the Clash Zone: each stands on its
/// card, facing the table's centre (turned aside when engaged); an attack
/// flies at what it attacks, obstructors block and strike back, clash
/// damage shows as numbers, the defeated break into data.
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
    let mut stand: HashMap<u32, (usize, CardNumber, Transform, bool)> = HashMap::new();
    for (p, goal, _) in goals(&placed(layout), n, Hands::All) {
        if let Some(id) = p.figure {
            stand.insert(id, (p.seat, p.number, goal, p.sideways));
        }
    }
    let by_id = |id: u16, figs: &Figs| {
        figs.iter()
            .find(|(_, t, _, _)| t.id == u32::from(id))
            .map(|(e, ..)| e)
    };
    let at_of = |e: Entity, figs: &Figs| figs.get(e).ok().map(|(_, _, f, _)| f.home + f.bounds.0);
    let mut attacker: Option<Entity> = None;
    let mut gone: Vec<Entity> = Vec::new();
    for e in &events {
        match e {
            Event::Attack {
                attacker: a,
                target,
                ..
            } => {
                let Some(f) = by_id(a.id, &figs) else {
                    continue;
                };
                attacker = Some(f);
                let element = element_of(&a.number, &cards.0);
                let hits = by_id(target.id, &figs);
                if let (Some(p), Some(q), Ok((_, _, mut fig, _))) = (
                    at_of(f, &figs),
                    hits.and_then(|t| at_of(t, &figs)),
                    figs.get_mut(f),
                ) {
                    fig.cue = Some(element.stance());
                    launch(
                        &mut commands,
                        vfx_store.as_deref(),
                        (p, q),
                        (element, 300),
                        hits,
                    );
                }
            }
            Event::Obstructed(c) => {
                if let Some(f) = by_id(c.id, &figs)
                    && let Ok((_, _, mut fig, _)) = figs.get_mut(f)
                {
                    fig.cue = Some(crate::arena::render::rig::Move::Block);
                }
            }
            Event::ClashDamage { to, amount } => {
                // The blow lands: the one hit strikes back if it is not the
                // attacker, and the damage shows over it.
                if let Some(f) = by_id(to.id, &figs)
                    && let Some(p) = at_of(f, &figs)
                {
                    crate::arena::ui::numbers::damage_number(
                        &mut commands,
                        p + Vec3::Y * 0.5,
                        format!("-{}", u32::try_from(*amount).unwrap_or(0)),
                        super::side_of(figs.get(f).map_or(0, |(_, t, _, _)| t.seat)),
                    );
                    if Some(f) != attacker
                        && let (Some(a), Some(q)) =
                            (attacker, attacker.and_then(|a| at_of(a, &figs)))
                    {
                        let element = element_of(&to.number, &cards.0);
                        if let Ok((_, _, mut fig, _)) = figs.get_mut(f) {
                            fig.cue = Some(element.stance());
                        }
                        launch(
                            &mut commands,
                            vfx_store.as_deref(),
                            (p, q),
                            (element, 200),
                            Some(a),
                        );
                    }
                }
            }
            Event::Defeated(c) | Event::ToOblivion(c) | Event::ToHand(c) => {
                if let Some(f) = by_id(c.id, &figs)
                    && !gone.contains(&f)
                    && let Ok((_, _, fig, _)) = figs.get(f)
                {
                    if matches!(e, Event::Defeated(_))
                        && let Some(store) = &vfx_store
                    {
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
            _ => {}
        }
    }
    let digimon_of = |n: &CardNumber| figure_of(n, &cards.0);
    place_figures(
        &mut commands,
        &mut kit,
        &mut figs,
        (stand, &gone),
        n,
        digimon_of,
    );
}
