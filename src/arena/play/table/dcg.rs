//! The Digimon Card Game on the table: each seat's playmat at its edge of
//! the table (the battle area with each Digimon's digivolution cards fanned
//! under it, the Tamers and delayed Options before it; the security stack
//! and the Digi-Egg deck at the left with the breeding area beside them;
//! the deck and the trash at the right; the hand nearest the player, and
//! the Players Format's Offline Area beside it), the memory gauge as a
//! track across the table's centre, and with 3–4 seats each player's memory
//! banks, Mega Damage and Corruption as counters at their edge and an arrow
//! at their Target Opponent. A figure stands on every Digimon in the battle
//! area; attacks fly as techniques of the attacker's colour, deleted
//! Digimon break into data, a digivolving one turns into light.

use std::collections::HashMap;
use std::f32::consts::{FRAC_PI_2, PI};

use bevy::prelude::*;

use super::{
    CARD, Figs, Hands, LAN_DWELL, Noted, Placed, Role, TableGame, TableStage, Tabled, aim, goals,
    launch, place_figures, seat_frame, side_of,
};
use crate::arena::render::figures::{self, FigureKit};
use crate::arena::render::look::Glow;
use crate::arena::render::rig::Move;
use crate::arena::render::vfx::{self, Element, VfxStore};
use crate::arena::{AppSystems, Cards, Screen};
use crate::cards::{Card, CardNumber, CardSet, Digimon, Level};
use crate::effects::dcg::Color as DcgColour;
use crate::glossary::{Attribute, Field};
use crate::replay::Replay;
use crate::rules::dcg::layout::{Laid, Layout, SeatLaid, StackLaid};
use crate::rules::dcg::{Action, Event, Match, View, action_words};
use crate::rules::{Outcome, Ruleset, Seat};

/// Where the battle area's Digimon lie (z, in the seat's frame).
const BATTLE_Z: f32 = -1.3;
/// The row of Tamers and delayed Options, and the piles beside it.
const BACK_Z: f32 = -0.15;
/// The hand.
const HAND_Z: f32 = 1.05;
/// The piles at the edges of the playmat (x, either side).
const EDGE_X: f32 = 2.75;
/// How far a digivolution card peeks out under the card above it.
const PEEK: f32 = 0.16;
/// The memory gauge's cells from the centre, each way.
const GAUGE_CELLS: i8 = 10;

impl Tabled for Match {
    type Layout = Layout;
    type Marks = Attack;

    fn lay_out(&self) -> Layout {
        self.layout()
    }

    fn placed(layout: &Layout) -> Vec<Placed> {
        placed(layout)
    }

    fn waiting_for(&self) -> Option<Seat> {
        self.waiting().map(|(s, _)| s)
    }

    fn answer_text(&self, seat: Seat, action: Action, cards: &CardSet) -> String {
        action_words(self, seat, action, cards)
    }

    fn noted(marks: &mut Attack, e: &Event, _: usize, cards: &CardSet) -> Noted {
        marks.mark(e);
        noted(e, cards)
    }

    fn dwells(e: &Event) -> bool {
        matches!(
            e,
            Event::Attacked { .. }
                | Event::Blocked { .. }
                | Event::Battle { .. }
                | Event::Revealed { .. }
                | Event::Deleted { .. }
                | Event::Digivolved { .. }
                | Event::Effect { .. }
                | Event::Defeated { .. }
                | Event::MegaDamage { .. }
                | Event::Over { .. }
        )
    }

    fn step_begins(marks: &mut Attack) {
        if marks.over {
            *marks = Attack::default();
        }
    }

    fn clash(marks: &Attack) -> Vec<(Seat, Role)> {
        let mut v = Vec::new();
        if let Some((seat, card)) = marks.attacker {
            v.push((seat, Role::Attacker(card)));
        }
        match marks.target {
            Some((seat, Some(card))) if marks.blocked => v.push((seat, Role::Blocker(card))),
            Some((seat, Some(card))) => v.push((seat, Role::Target(card))),
            Some((seat, None)) => v.push((seat, Role::Player)),
            None => {}
        }
        v
    }

    fn layout_waiting(layout: &Layout) -> Option<Seat> {
        layout.waiting
    }

    fn prompt_text(text: &str) -> &str {
        // The words a terminal may type are the panel's answers here.
        text.split(" (a number").next().unwrap_or(text)
    }

    fn seats_line(_: Option<&Match>, layout: &Layout) -> String {
        seats_line(layout)
    }

    fn add_systems(app: &mut App) {
        app.add_systems(
            Update,
            (stage_figures, show_revealed, gauge, counters, point_targets)
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

/// The attack under way, as the events tell it.
#[derive(Debug, Default)]
pub struct Attack {
    /// The attacker: its seat and card.
    pub attacker: Option<(Seat, CardNumber)>,
    /// What it attacks: a Digimon, or the player.
    pub target: Option<(Seat, Option<CardNumber>)>,
    /// A blocker took the attack.
    pub blocked: bool,
    /// The attack is over; the marks go with the next action.
    over: bool,
}

impl Attack {
    fn mark(&mut self, e: &Event) {
        match e {
            Event::Attacked {
                seat,
                attacker,
                target,
                player,
            } => {
                let at = attacked(*seat, *player);
                *self = Attack {
                    attacker: Some((*seat, *attacker)),
                    target: Some((at, *target)),
                    blocked: false,
                    over: false,
                };
            }
            Event::Blocked { seat, blocker } => {
                self.target = Some((*seat, Some(*blocker)));
                self.blocked = true;
            }
            // <Raid>: the attack turns on another Digimon.
            Event::Redirected { target } => {
                if let Some((_, t)) = &mut self.target {
                    *t = Some(*target);
                }
            }
            Event::TurnEnded(_) | Event::Over { .. } | Event::Passed(_) => self.over = true,
            _ => {}
        }
    }
}

impl TableGame<Match> {
    /// A game at a LAN table, from the host's first view: the seats it
    /// shows (the decks are the host's to know; each card gets its face
    /// when it is first seen).
    pub fn lan(view: &View, name: String) -> TableGame<Match> {
        let setup = Match::setup_for(vec![Vec::new(); view.seats.len()], 0);
        let mut game = TableGame::at_lan(setup, view.me, name);
        game.layout = Some(view.layout());
        game
    }

    /// A LAN table's news: the host's view after `events`, which go to the
    /// log, the banners and the figures (the table holds no match: what
    /// the view shows is all there is).
    pub fn follow(&mut self, view: &View, events: &[Event], cards: &CardSet) {
        self.layout = Some(view.layout());
        let dwell = self.take(events, cards);
        self.wait = (self.wait.max(0.0) + dwell).min(LAN_DWELL);
    }
}

/// The player an attack of `seat`'s is on: the event's own (3–4 seats),
/// else the other seat.
fn attacked(seat: Seat, player: Option<Seat>) -> Seat {
    player.unwrap_or_else(|| Seat::new(1 - seat.index().min(1)).unwrap_or(seat))
}

/// A card's name, or its number when the set does not know it.
fn name(n: &CardNumber, cards: &CardSet) -> String {
    cards
        .get(n)
        .map_or_else(|| n.to_string(), |c| c.name().to_string())
}

/// The longest banner an effect's text gets.
const EFFECT_BANNER: usize = 56;

/// What an event says over the table: the phase, a banner.
fn noted(e: &Event, cards: &CardSet) -> Noted {
    let up = |n: &CardNumber| name(n, cards).to_uppercase();
    let mut said = Noted::default();
    said.banner = match e {
        Event::TurnBegan { seat, turn, .. } => {
            said.phase = Some(format!("Turn {turn} · {seat}"));
            Some(format!("{seat}'S TURN"))
        }
        Event::First(s) => Some(format!("{s} GOES FIRST")),
        Event::Hatched { card, .. } => Some(format!("HATCH! {}", up(card))),
        Event::Digivolved { to, .. } => Some(format!("DIGIVOLVE! {}", up(to))),
        Event::Attacked {
            attacker,
            target,
            player,
            seat,
        } => Some(match (target, player) {
            (Some(t), _) => format!("{} ATTACKS {}!", up(attacker), up(t)),
            (None, _) => format!("{} ATTACKS {}!", up(attacker), attacked(*seat, *player)),
        }),
        Event::Blocked { blocker, .. } => Some(format!("BLOCKED BY {}!", up(blocker))),
        Event::Revealed { seat, card } => Some(format!("{seat} SECURITY CHECK: {}", up(card))),
        Event::Deleted { card, .. } => Some(format!("{} DELETED", up(card))),
        Event::Effect { card, text, .. } => {
            let mut t = format!("{}: {text}", up(card));
            if t.chars().count() > EFFECT_BANNER {
                t = t.chars().take(EFFECT_BANNER - 1).collect::<String>() + "…";
            }
            Some(t)
        }
        Event::MegaDamage { seat, total } => Some(format!("{seat}: MEGA DAMAGE {total}")),
        Event::Defeated { seat, .. } => Some(format!("{seat} IS DEFEATED")),
        Event::Corrupted { seat, total, .. } => Some(format!("{seat}: CORRUPTION {total}")),
        Event::Over { outcome, .. } => Some(match outcome {
            Outcome::Win(s) => format!("{s} WINS!"),
            Outcome::Draw => "DRAW".to_string(),
        }),
        _ => None,
    };
    said.last_word = matches!(e, Event::Over { .. });
    said
}

/// Every seat in a line: whose choice it is, its zones' counts, and at
/// 3–4 seats its banks, target and counters.
fn seats_line(layout: &Layout) -> String {
    let waiting = layout.waiting;
    let memory = if layout.memory >= 0 {
        format!("memory {} for {}", layout.memory, layout.turn_player)
    } else {
        format!("memory {} past {}", -layout.memory, layout.turn_player)
    };
    let mut lines = vec![memory];
    lines.extend(layout.seats.iter().map(|s| {
        let mut line = format!(
            "{}{} · hand {} · deck {} · security {} · trash {}",
            if waiting == Some(s.seat) { "▶ " } else { "" },
            s.seat,
            s.hand.len(),
            s.deck.len(),
            s.security.len(),
            s.trash.len()
        );
        if s.defeated {
            line.push_str(" · DEFEATED");
            return line;
        }
        if !s.banks.is_empty() {
            let banks: Vec<String> = s.banks.iter().map(u8::to_string).collect();
            line.push_str(&format!(" · banks {}", banks.join("·")));
        }
        if let Some(t) = s.target {
            line.push_str(&format!(" · targets {t}"));
        }
        if s.mega > 0 {
            line.push_str(&format!(" · Mega Damage {}", s.mega));
        }
        if s.corruption > 0 {
            line.push_str(&format!(" · Corruption {}", s.corruption));
        }
        line
    }));
    lines.join("\n")
}

/// Every card of a layout in its seat's frame.
fn placed(layout: &Layout) -> Vec<Placed> {
    let mut out = Vec::new();
    let row = |k: usize, gap: f32| move |i: usize| (i as f32 - (k as f32 - 1.0) / 2.0) * gap;
    for (si, s) in layout.seats.iter().enumerate() {
        let mut put = |c: Laid, at: Vec3, figure: Option<u32>, sideways: bool| {
            out.push(Placed {
                open: c.open,
                stand_in: c.hidden,
                figure,
                sideways,
                ..Placed::at(None, c.number, si, at)
            });
        };
        // Piles: each card a little above the one under it.
        let pile =
            |v: &[Laid], x: f32, z: f32, put: &mut dyn FnMut(Laid, Vec3, Option<u32>, bool)| {
                for (j, c) in v.iter().enumerate() {
                    put(*c, Vec3::new(x, 0.006 * j as f32, z), None, false);
                }
            };
        pile(&s.deck, EDGE_X, BATTLE_Z, &mut put);
        pile(&s.trash, EDGE_X, BACK_Z, &mut put);
        pile(&s.eggs, -EDGE_X, BACK_Z, &mut put);
        // The security stack: face down, fanned towards the centre so its
        // count shows.
        for (j, c) in s.security.iter().enumerate() {
            put(
                *c,
                Vec3::new(-EDGE_X, 0.006 * j as f32, BATTLE_Z - 0.08 * j as f32),
                None,
                false,
            );
        }
        // The card being checked: lifted off the stack, face up, turned to
        // the table.
        if let Some(c) = s.revealed {
            put(
                c,
                Vec3::new(-EDGE_X + 0.9, 0.6, BATTLE_Z - 0.2),
                None,
                false,
            );
        }
        if let Some(b) = &s.breeding {
            // No figure stands in the breeding area: nothing there battles.
            let at = Vec3::new(-EDGE_X + CARD.x + 0.12, 0.0, BACK_Z);
            stack(b, at, false, &mut put);
        }
        let (digimon, others): (Vec<&StackLaid>, Vec<&StackLaid>) =
            s.field.iter().partition(|p| p.digimon);
        let k = digimon.len();
        let gap = (3.8 / k.max(1) as f32).min(CARD.y + 0.08);
        for (i, p) in digimon.iter().enumerate() {
            stack(p, Vec3::new(row(k, gap)(i), 0.0, BATTLE_Z), true, &mut put);
        }
        let k = others.len();
        let gap = (2.6 / k.max(1) as f32).min(CARD.x + 0.06);
        for (i, p) in others.iter().enumerate() {
            stack(
                p,
                Vec3::new(0.35 + row(k, gap)(i), 0.0, BACK_Z),
                false,
                &mut put,
            );
        }
        let k = s.hand.len();
        let gap = (3.4 / k.max(1) as f32).min(CARD.x + 0.05);
        for (i, c) in s.hand.iter().enumerate() {
            out.push(Placed {
                hand: true,
                stand_in: c.hidden,
                ..Placed::at(
                    None,
                    c.number,
                    si,
                    Vec3::new(row(k, gap)(i), 0.004 * i as f32, HAND_Z),
                )
            });
        }
        // The Offline Area: smaller, beside the hand at the left.
        for (i, c) in s.offline.iter().enumerate() {
            out.push(Placed {
                open: c.open,
                size: 0.7,
                ..Placed::at(
                    None,
                    c.number,
                    si,
                    Vec3::new(-EDGE_X + 0.12 * i as f32, 0.004 * i as f32, HAND_Z),
                )
            });
        }
    }
    out
}

/// A card in play with its digivolution cards fanned under it: the top
/// card at `at`, each card under it peeking out a little nearer the player;
/// a figure `stands` on a Digimon's top card.
fn stack(
    p: &StackLaid,
    at: Vec3,
    stands: bool,
    put: &mut dyn FnMut(Laid, Vec3, Option<u32>, bool),
) {
    let n = p.cards.len();
    for (j, c) in p.cards.iter().enumerate() {
        let depth = (n - 1 - j) as f32;
        let figure = (stands && p.digimon && j + 1 == n).then_some(u32::from(p.id));
        // A suspended card lies sideways, and its stack peeks out to the
        // side.
        let peek = if p.suspended {
            Vec3::new(-PEEK * depth, 0.0, 0.0)
        } else {
            Vec3::new(0.0, 0.0, PEEK * depth)
        };
        put(
            *c,
            at + peek + Vec3::Y * 0.008 * j as f32,
            figure,
            p.suspended,
        );
    }
}

/// A whole game between Normal CPUs on the shipped decks (`seats` of them,
/// in turn from `seed`), as a replay: the tour's table.
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

/// A Digimon Card Game card as a figure: the Digimon of the same name
/// when the set has one (its own figure), or one made after the card (its
/// level, types, attribute and colour).
fn figure_of(n: &CardNumber, cards: &CardSet) -> Option<Digimon> {
    let c = cards.get(n)?.as_dcg()?;
    let same = cards
        .cards()
        .iter()
        .filter_map(Card::as_digimon)
        .find(|d| d.name.eq_ignore_ascii_case(&c.name));
    if let Some(d) = same {
        return Some(d.clone());
    }
    let mut d = cards.cards().iter().find_map(Card::as_digimon)?.clone();
    d.number = c.number;
    d.name.clone_from(&c.name);
    d.level = match c.level.unwrap_or(3) {
        0..=3 => Level::III,
        4 => Level::IV,
        5 => Level::Perfect,
        _ => Level::Ultimate,
    };
    d.kind = c.types.join(" ");
    d.attribute = match c.attribute.as_deref().unwrap_or("") {
        "Vaccine" => Attribute::Vaccine,
        "Data" => Attribute::Data,
        "Virus" => Attribute::Virus,
        _ => Attribute::Unknown,
    };
    d.field = match c.colors.first() {
        Some(DcgColour::Red) => Field::DragonsRoar,
        Some(DcgColour::Blue) => Field::DeepSavers,
        Some(DcgColour::Yellow) => Field::VirusBusters,
        Some(DcgColour::Green) => Field::NatureSpirits,
        Some(DcgColour::Black) => Field::MetalEmpire,
        Some(DcgColour::Purple) => Field::NightmareSoldiers,
        _ => Field::WindGuardians,
    };
    Some(d)
}

/// A card's technique: the element of its first colour.
fn element_of(n: &CardNumber, cards: &CardSet) -> Element {
    match cards
        .get(n)
        .and_then(Card::as_dcg)
        .and_then(|c| c.colors.first())
    {
        Some(DcgColour::Red) => Element::Fire,
        Some(DcgColour::Blue) => Element::Ice,
        Some(DcgColour::Yellow) => Element::Holy,
        Some(DcgColour::Purple) => Element::Dark,
        Some(DcgColour::Black) => Element::Lightning,
        _ => Element::Physical,
    }
}

/// The figures follow the battle area: each Digimon stands on its top
/// card, facing the table's centre (turned aside when suspended); attacks
/// fly at what they attack, a blocker or the defender strikes back, the
/// winner cheers, the deleted break into data, a digivolving Digimon turns
/// into light, and a security check's damage shows over the player's edge.
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
    // Where each standing Digimon is: its id in play, seat, card and
    // transform (turned aside when suspended).
    let mut stand: HashMap<u32, (usize, CardNumber, Transform, bool)> = HashMap::new();
    for (p, goal, _) in goals(&placed(layout), n, Hands::All) {
        if let Some(id) = p.figure {
            stand.insert(id, (p.seat, p.number, goal, p.sideways));
        }
    }
    let at_of = |e: Entity, figs: &Figs| figs.get(e).ok().map(|(_, _, f, _)| f.home + f.bounds.0);
    let find = |seat: Seat, card: &CardNumber, figs: &Figs| {
        figs.iter()
            .find(|(_, t, _, _)| t.seat == seat.index() && t.card == *card)
            .map(|(e, ..)| e)
    };
    let mut attack: Option<(Entity, Element)> = None;
    let mut gone: Vec<Entity> = Vec::new();
    for e in &events {
        match e {
            Event::Attacked {
                seat,
                attacker,
                target,
                player,
            } => {
                let Some(f) = find(*seat, attacker, &figs) else {
                    continue;
                };
                let element = element_of(attacker, &cards.0);
                attack = Some((f, element));
                let attacked = attacked(*seat, *player);
                let (to, hits) = match target.and_then(|t| find(attacked, &t, &figs)) {
                    Some(t) => (at_of(t, &figs), Some(t)),
                    None => {
                        let (origin, _, _) = seat_frame(attacked.index(), n);
                        (Some(origin + Vec3::Y * 0.4), None)
                    }
                };
                if let (Some(p), Some(q), Ok((_, _, mut fig, _))) =
                    (at_of(f, &figs), to, figs.get_mut(f))
                {
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
            Event::Blocked { seat, blocker } => {
                if let Some(f) = find(*seat, blocker, &figs)
                    && let Ok((_, _, mut fig, _)) = figs.get_mut(f)
                {
                    fig.cue = Some(Move::Block);
                }
            }
            Event::Battle { defender, .. } => {
                // The defender strikes back; the stronger cheers after.
                let Some((a, _)) = attack else { continue };
                let d = figs
                    .iter()
                    .find(|(e, t, _, _)| *e != a && t.card == defender.0)
                    .map(|(e, ..)| e);
                if let Some(d) = d
                    && let (Some(p), Some(q)) = (at_of(d, &figs), at_of(a, &figs))
                {
                    let element = element_of(&defender.0, &cards.0);
                    if let Ok((_, _, mut fig, _)) = figs.get_mut(d) {
                        fig.cue = Some(element.stance());
                    }
                    launch(
                        &mut commands,
                        vfx_store.as_deref(),
                        (p, q),
                        (element, 300),
                        Some(a),
                    );
                }
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
                    // The other side of the battle won it.
                    if let Some((a, _)) = attack
                        && a != f
                        && let Ok((_, _, mut winner, _)) = figs.get_mut(a)
                    {
                        winner.cue = Some(Move::Cheer);
                    }
                }
            }
            Event::Digivolved { seat, from, .. } => {
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
            Event::Revealed { seat, card } => {
                // A security card taken: over the player's security stack,
                // turned face up for the table to see.
                let (origin, turn, scale) = seat_frame(seat.index(), n);
                let at = origin + turn * Vec3::new(-EDGE_X * scale, 0.9, BATTLE_Z * scale);
                crate::arena::ui::numbers::damage_number(
                    &mut commands,
                    at,
                    "-1",
                    side_of(seat.index()),
                );
                commands.spawn((
                    Revealed {
                        card: *card,
                        left: REVEALED_SECONDS,
                        from: origin + turn * Vec3::new(-EDGE_X * scale, 0.05, BATTLE_Z * scale),
                        turn,
                    },
                    Transform::from_translation(at),
                    Visibility::default(),
                    DespawnOnExit(Screen::Table),
                ));
            }
            _ => {}
        }
    }
    // Figures whose card left the battle area go; the others stand on
    // their cards.
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

/// How long a checked security card shows over its stack, seconds.
const REVEALED_SECONDS: f32 = 3.0;

/// A security card being checked, shown large over its player's stack: it
/// rises from the stack turning face up, holds, and goes (the card itself
/// is in the trash, or in play, by then).
#[derive(Component, Debug, Clone, Copy)]
pub struct Revealed {
    /// The card.
    pub card: CardNumber,
    /// Seconds left.
    left: f32,
    /// Its stack.
    from: Vec3,
    /// Its seat's frame.
    turn: Quat,
}

/// Gives each checked card its face and moves it: up off the stack,
/// turning over, held, then gone.
fn show_revealed(
    mut commands: Commands,
    time: Res<Time>,
    faces: Option<Res<super::Faces>>,
    mut shown: Query<(Entity, &mut Revealed, &mut Transform, Option<&Children>)>,
) {
    let Some(faces) = faces else { return };
    for (e, mut r, mut tf, children) in &mut shown {
        if children.is_none() {
            let face = faces
                .faces
                .get(&r.card)
                .cloned()
                .unwrap_or_else(|| faces.back.clone());
            commands.entity(e).with_children(|c| {
                c.spawn((
                    Mesh3d(faces.quad.clone()),
                    MeshMaterial3d(face),
                    Transform::from_rotation(Quat::from_rotation_x(-FRAC_PI_2)),
                ));
            });
        }
        r.left -= time.delta_secs();
        if r.left <= 0.0 {
            commands.entity(e).despawn();
            continue;
        }
        let t = (1.0 - r.left / REVEALED_SECONDS).clamp(0.0, 1.0);
        // Up and over in its first 0.3 s, then held high and large, face up
        // for every seat to read.
        let k = (t * REVEALED_SECONDS / 0.3).min(1.0);
        tf.translation = r.from + Vec3::Y * (0.2 + 1.0 * k) + r.turn * Vec3::new(0.7 * k, 0.0, 0.0);
        let face_down = r.turn * Quat::from_rotation_z(PI);
        tf.rotation = face_down.slerp(r.turn, k);
        tf.scale = Vec3::splat(1.0 + 0.9 * k);
    }
}

/// A cell of the memory gauge (-10..=10 from the turn player's side).
#[derive(Component, Debug, Clone, Copy)]
pub struct GaugeCell(pub i8);

/// The memory counter on the gauge.
#[derive(Component, Debug, Clone, Copy)]
pub struct MemoryToken;

/// Where a cell of the memory gauge lies: a track through the table's
/// centre along the turn player's edge, their own memory at their left
/// (at two seats the same cell, seen from the other side, is the other
/// player's: memory passing over is the same track).
fn gauge_at(cell: i8, turn_player: usize, seats: usize) -> Vec3 {
    let (_, turn, _) = seat_frame(turn_player, seats);
    let step = if seats <= 2 { 0.24 } else { 0.2 };
    turn * Vec3::new(-f32::from(cell) * step, 0.02, 0.0)
}

/// Lays the memory gauge's cells (spawned once) along the turn player's
/// track and moves the counter to the memory now.
fn gauge(
    mut commands: Commands,
    time: Res<Time>,
    game: Option<Res<TableGame<Match>>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut glows: ResMut<Assets<Glow>>,
    mut cells: Query<(&GaugeCell, &mut Transform), Without<MemoryToken>>,
    mut token: Query<&mut Transform, With<MemoryToken>>,
) {
    let Some(game) = game else { return };
    let Some(layout) = &game.layout else { return };
    let n = layout.seats.len();
    let tp = layout.turn_player.index();
    if cells.is_empty() {
        let tile = meshes.add(Cuboid::new(0.2, 0.02, 0.3));
        for c in -GAUGE_CELLS..=GAUGE_CELLS {
            let colour = match c.signum() {
                0 => LinearRgba::rgb(1.6, 1.6, 1.6),
                1 => LinearRgba::rgb(1.4, 0.9, 0.2),
                _ => LinearRgba::rgb(0.25, 0.6, 1.4),
            };
            // Every fifth cell brighter, to count by.
            let k = if c % 5 == 0 { 1.0 } else { 0.45 };
            commands.spawn((
                GaugeCell(c),
                Mesh3d(tile.clone()),
                MeshMaterial3d(glows.add(Glow::solid(colour * k))),
                Transform::from_translation(gauge_at(c, tp, n)),
                DespawnOnExit(Screen::Table),
            ));
        }
        commands.spawn((
            MemoryToken,
            Mesh3d(meshes.add(Cylinder::new(0.1, 0.08))),
            MeshMaterial3d(glows.add(Glow::solid(LinearRgba::rgb(3.2, 0.6, 2.0)))),
            Transform::from_translation(gauge_at(layout.memory, tp, n) + Vec3::Y * 0.06),
            DespawnOnExit(Screen::Table),
        ));
        return;
    }
    let k = 1.0 - (-8.0 * time.delta_secs()).exp();
    for (cell, mut tf) in &mut cells {
        let (_, turn, _) = seat_frame(tp, n);
        tf.translation = tf.translation.lerp(gauge_at(cell.0, tp, n), k);
        tf.rotation = tf.rotation.slerp(turn, k);
    }
    let m = layout.memory.clamp(-GAUGE_CELLS, GAUGE_CELLS);
    for mut tf in &mut token {
        let goal = gauge_at(m, tp, n) + Vec3::Y * 0.06;
        tf.translation = tf.translation.lerp(goal, k);
        // A hop while it moves.
        tf.translation.y += (goal - tf.translation).length().min(0.3) * 0.5;
    }
}

/// A counter at a seat's edge: a memory bank's, Mega Damage's or
/// Corruption's coins.
#[derive(Component, Debug, Clone, Copy)]
pub struct Coin;

/// What a seat's counters hold, each as a stack of coins at its edge:
/// the banks (gold) at the right of the hand, Mega Damage (red) and
/// Corruption (purple) at the left.
fn coin_stacks(s: &SeatLaid) -> Vec<(Vec3, u8, LinearRgba)> {
    let mut out: Vec<(Vec3, u8, LinearRgba)> = s
        .banks
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            (
                Vec3::new(EDGE_X - 0.5 + 0.26 * i as f32, 0.0, HAND_Z + 0.1),
                v,
                LinearRgba::rgb(1.8, 1.4, 0.3),
            )
        })
        .collect();
    if s.mega > 0 {
        out.push((
            Vec3::new(-EDGE_X + 0.7, 0.0, 0.45),
            s.mega,
            LinearRgba::rgb(2.4, 0.3, 0.25),
        ));
    }
    if s.corruption > 0 {
        out.push((
            Vec3::new(-EDGE_X + 1.0, 0.0, 0.45),
            s.corruption,
            LinearRgba::rgb(1.2, 0.3, 1.8),
        ));
    }
    out
}

/// Keeps each seat's counters as stacks of coins (made again when the
/// layout changes; a few dozen at most).
fn counters(
    mut commands: Commands,
    game: Option<Res<TableGame<Match>>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut glows: ResMut<Assets<Glow>>,
    coins: Query<Entity, With<Coin>>,
    mut coin_mesh: Local<Option<Handle<Mesh>>>,
) {
    let Some(game) = game else { return };
    if !game.is_changed() {
        return;
    }
    let Some(layout) = &game.layout else { return };
    for e in &coins {
        commands.entity(e).despawn();
    }
    let mesh = coin_mesh
        .get_or_insert_with(|| meshes.add(Cylinder::new(0.09, 0.025)))
        .clone();
    let n = layout.seats.len();
    for (i, s) in layout.seats.iter().enumerate() {
        let (origin, turn, scale) = seat_frame(i, n);
        for (at, count, colour) in coin_stacks(s) {
            let material = glows.add(Glow::solid(colour));
            for k in 0..count.min(10) {
                let local = at + Vec3::Y * (0.012 + 0.03 * f32::from(k));
                commands.spawn((
                    Coin,
                    Mesh3d(mesh.clone()),
                    MeshMaterial3d(material.clone()),
                    Transform::from_translation(
                        origin + turn * (local * Vec3::new(scale, 1.0, scale)),
                    )
                    .with_scale(Vec3::splat(scale)),
                    DespawnOnExit(Screen::Table),
                ));
            }
        }
    }
}

/// With three or four seats, an arrow at each remaining seat's edge
/// pointing at its Target Opponent.
fn point_targets(
    commands: Commands,
    game: Option<Res<TableGame<Match>>>,
    meshes: ResMut<Assets<Mesh>>,
    glows: ResMut<Assets<Glow>>,
    markers: Query<(Entity, &super::TargetMarker, &mut Transform)>,
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
        .filter(|(_, s)| !s.defeated)
        .filter_map(|(i, s)| Some((i, s.target?.index())))
        .collect();
    aim(
        commands,
        layout.seats.len(),
        &want,
        (meshes, glows),
        markers,
    );
}
