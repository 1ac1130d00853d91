//! Scripted runs, so the game can be looked at under a virtual display:
//! `--screenshot FILE` saves one frame and quits; `--tour DIR` drives the
//! game through every screen with scripted button presses and saves a PNG
//! per screen (attract, collection, rankings, the choice of game, scan,
//! battle, result, replay, gallery and its choices; then the Card Game
//! Alpha's setup, and a game between CPUs on its table: 2 seats in Preparation and in a battle, 4 seats, the
//! result; then a LAN table hosted here, its lobby, and its battle against
//! a CPU client joined over loopback), then quits.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::ui::{CalculatedClip, UiGlobalTransform};

use crate::arena::play::duel::Duel;
use crate::arena::play::staging::Board;
use crate::arena::play::table::{PendingTable, TableGame, clash_cpu_game, cpu_game, dcg_cpu_game};
use crate::arena::screens::collection::AttractBoard;
use crate::arena::screens::gallery::{Gallery, Mode};
use crate::arena::screens::lan::{LanForm, LanTable};
use crate::arena::screens::lobby::{DeckSeat, Lobby};
use crate::arena::ui::input::{Button, Press, Release};
use crate::arena::{AppSystems, Cards, Screen};
use crate::rules::Seat;
use crate::rules::terminal::Side;
use crate::session::GameOptions;

/// Frames to wait before a screenshot, so the first frames (shader
/// compilation on a software renderer) are past.
const SCREENSHOT_AFTER_FRAMES: u32 = 60;
/// Frames to let the screenshot reach the disk before quitting.
const SAVE_FRAMES: u32 = 20;
/// A tour that has not finished in this many seconds has failed.
const TOUR_LIMIT: f32 = 480.0;

/// The screens a tour saves, in order.
pub const TOUR_SHOTS: [&str; 33] = [
    "attract",
    "collection",
    "rankings",
    "choose",
    "scan",
    "battle",
    "result",
    "replay",
    "gallery",
    "gallery-choose",
    "binder",
    "alpha-setup",
    "alpha-deck",
    "alpha-play",
    "alpha-table",
    "alpha-battle",
    "alpha-attack",
    "alpha-4-seat",
    "alpha-result",
    "lan-host",
    "lan-lobby",
    "lan-battle",
    "dcg-setup",
    "dcg-play",
    "dcg-table",
    "dcg-attack",
    "dcg-security-check",
    "dcg-result",
    "dcg-4-seat",
    "clash-setup",
    "clash-standby",
    "clash-attack",
    "clash-table",
];

/// What a scripted run does.
#[derive(Resource, Debug, Clone, Default)]
pub struct Script {
    screenshot: Option<PathBuf>,
    quit_after: Option<u32>,
    tour: Option<PathBuf>,
}

impl From<&GameOptions> for Script {
    fn from(args: &GameOptions) -> Self {
        let quit_after = args.frames.or(args
            .screenshot
            .as_ref()
            .map(|_| SCREENSHOT_AFTER_FRAMES + SAVE_FRAMES));
        Script {
            screenshot: args.screenshot.clone(),
            quit_after,
            tour: args.tour.clone(),
        }
    }
}

/// A card game's table, when it is on screen.
type TourTable<'w, R> = Option<ResMut<'w, TableGame<R>>>;
type AlphaMatch = crate::rules::alpha::Match;
type DcgMatch = crate::rules::dcg::Match;
type ClashMatch = crate::rules::clash::Match;

/// Where a tour is.
#[derive(Resource, Debug, Default)]
struct Tour {
    /// Shots taken so far.
    taken: usize,
    /// Seconds on the current screen.
    on_screen: f32,
    /// Seconds since the last shot.
    since_shot: f32,
    /// Seconds in all.
    total: f32,
    /// Seconds since P1's question appeared.
    asked_for: f32,
    /// The alpha-attack game's first alpha-attack, by action.
    alpha_at: Option<usize>,
    /// The LAN battle's other machine: a CPU client has joined.
    lan_joined: bool,
    /// The Digimon Card Game's tour game: its first attack and first
    /// security check, by action.
    dcg_at: Option<(usize, usize)>,
    /// The Alpha Clash tour game: its first card in Standby, its first
    /// attack after it, and the fullest table, by action.
    clash_at: Option<(usize, usize, usize)>,
}

/// The name the tour gives its alpha-attack game.
const ALPHA_ATTACK_GAME: &str = "an alpha-attack";
/// A CPU game (seats, seed) with an alpha-attack in it.
const ALPHA_ATTACK_SEED: (usize, u64) = (2, 1);

/// The first action of an Alpha Clash replay after which a card waits in
/// Standby (an opponent has priority), the first attack after it, and the
/// action after which the most Clash cards are in play.
fn first_clash_moments(
    replay: &crate::replay::Replay<ClashMatch>,
    cards: &crate::cards::CardSet,
) -> Option<(usize, usize, usize)> {
    use crate::rules::clash::Event;
    let mut m = ClashMatch::from_setup(&replay.setup, cards).ok()?;
    let (mut standby, mut attack) = (None, None);
    let mut fullest = (0usize, 0usize);
    for (i, (seat, a)) in replay.actions.iter().enumerate() {
        let evs = m.apply(*seat, *a).ok()?;
        if standby.is_none() && m.turn() > 2 && !m.standby().is_empty() {
            standby = Some(i);
        }
        if standby.is_some()
            && attack.is_none()
            && evs.iter().any(|e| matches!(e, Event::Attack { .. }))
        {
            attack = Some(i);
        }
        let units: usize = (0..m.seat_count())
            .filter_map(crate::rules::Seat::new)
            .map(|s| m.clash_zone(s).len())
            .sum();
        if units > fullest.1 && m.fight().is_none() && m.standby().is_empty() {
            fullest = (i, units);
        }
    }
    Some((standby?, attack?, fullest.0))
}

/// The first action of a Digimon Card Game replay whose events hold an
/// attack, and the first that holds a security check.
fn first_dcg_attack(
    replay: &crate::replay::Replay<crate::rules::dcg::Match>,
    cards: &crate::cards::CardSet,
) -> Option<(usize, usize)> {
    use crate::rules::dcg::{Event, Match};
    let mut m = Match::from_setup(&replay.setup, cards).ok()?;
    let (mut attack, mut check) = (None, None);
    for (i, (seat, a)) in replay.actions.iter().enumerate() {
        let evs = m.apply(*seat, *a).ok()?;
        if attack.is_none() && evs.iter().any(|e| matches!(e, Event::Attacked { .. })) {
            attack = Some(i);
        }
        if check.is_none() && evs.iter().any(|e| matches!(e, Event::Revealed { .. })) {
            check = Some(i);
        }
        if let (Some(a), Some(c)) = (attack, check) {
            return Some((a, c));
        }
    }
    None
}

/// The first action of a replay whose events hold an alpha-attack.
fn first_alpha_attack(
    replay: &crate::replay::Replay<crate::rules::alpha::Match>,
    cards: &crate::cards::CardSet,
) -> Option<usize> {
    use crate::rules::alpha::{Event, Match};
    let mut m = Match::from_setup(&replay.setup, cards).ok()?;
    replay.actions.iter().position(|(seat, a)| {
        m.apply(*seat, *a)
            .is_ok_and(|evs| evs.iter().any(|e| matches!(e, Event::AlphaAttack { .. })))
    })
}

pub(in crate::arena) fn plugin(app: &mut App) {
    app.init_resource::<Script>()
        .init_resource::<Tour>()
        .init_resource::<BoxesWanted>()
        .add_systems(Update, run_script)
        .add_systems(
            PostUpdate,
            write_boxes
                .after(crate::arena::ui::numbers::NumbersPlaced)
                .after(bevy::ui::UiSystems::PostLayout)
                .after(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
        )
        .add_systems(
            Update,
            tour.run_if(|s: Res<Script>| s.tour.is_some())
                .in_set(AppSystems::TickTimers),
        )
        .add_systems(
            StateTransition,
            (|mut t: ResMut<Tour>| t.on_screen = 0.0).run_if(state_changed::<Screen>),
        );
}

fn run_script(
    mut commands: Commands,
    script: Res<Script>,
    mut frame: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    *frame += 1;
    if *frame == SCREENSHOT_AFTER_FRAMES
        && let Some(path) = &script.screenshot
    {
        shoot(&mut commands, path.clone());
    }
    if script.quit_after.is_some_and(|n| *frame >= n) {
        exit.write(AppExit::Success);
    }
}

/// A CPU client joins the LAN table hosted here, as another machine would.
fn join_lan_cpu(lan: &LanTable, cards: &crate::cards::CardSet) {
    use crate::net::client::{CpuSeat, JoinOptions, join};
    use crate::net::protocol::Role;
    let options = JoinOptions::new(
        std::net::SocketAddr::from(([127, 0, 0, 1], lan.addr.port())),
        "tour CPU",
        Role::Player,
        lan.code.as_deref().unwrap_or_default(),
        crate::arena::screens::lan::house(lan.game, 3, cards),
    );
    let cards = cards.clone();
    std::thread::spawn(move || {
        let mut front = CpuSeat(crate::ai::Strength::Easy);
        let _ = join::<crate::rules::terminal::Match, _>(&options, &cards, &mut front);
    });
}

/// The text boxes of a tour shot are written beside its picture
/// (`NAME.boxes`: one line a visible text, its rectangle in the UI's
/// pixels and its words), for the tour's check that no two overlap.
#[derive(Resource, Default)]
struct BoxesWanted(Option<PathBuf>);

/// The UI texts on screen, where they are laid out.
type TextBoxes<'w, 's> = Query<
    'w,
    's,
    (
        &'static Text,
        &'static ComputedNode,
        &'static UiGlobalTransform,
        &'static InheritedVisibility,
        Option<&'static CalculatedClip>,
        Option<&'static TextColor>,
    ),
>;

fn write_boxes(mut wanted: ResMut<BoxesWanted>, texts: TextBoxes) {
    let Some(path) = wanted.0.take() else { return };
    let mut lines = String::new();
    for (text, node, at, shown, clip, colour) in &texts {
        let faded = colour.is_some_and(|c| c.0.alpha() < 0.1);
        if !shown.get() || faded || text.0.trim().is_empty() {
            continue;
        }
        let mut r = Rect::from_center_size(at.translation, node.size());
        if let Some(c) = clip {
            r = r.intersect(c.clip);
        }
        if r.width() < 1.0 || r.height() < 1.0 {
            continue;
        }
        let s = node.inverse_scale_factor();
        lines.push_str(&format!(
            "{:.0} {:.0} {:.0} {:.0} {}\n",
            r.min.x * s,
            r.min.y * s,
            r.max.x * s,
            r.max.y * s,
            text.0.replace('\n', " / ")
        ));
    }
    if let Err(e) = std::fs::write(&path, lines) {
        error!("cannot write {}: {e}", path.display());
    }
}

fn shoot(commands: &mut Commands, path: PathBuf) {
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path));
}

#[expect(
    clippy::too_many_arguments,
    reason = "a system: each argument is a resource or query it needs"
)]
fn tour(
    mut commands: Commands,
    time: Res<Time>,
    script: Res<Script>,
    mut t: ResMut<Tour>,
    screen: Res<State<Screen>>,
    duel: Option<Res<Duel>>,
    board: Res<Board>,
    turns: Res<AttractBoard>,
    (mut presses, mut releases): (MessageWriter<Press>, MessageWriter<Release>),
    mut exit: MessageWriter<AppExit>,
    mut next: ResMut<NextState<Screen>>,
    (gallery, mut lobby): (Res<Gallery>, ResMut<Lobby>),
    (cards, mut table, mut dcg, mut clash): (
        Res<Cards>,
        TourTable<AlphaMatch>,
        TourTable<DcgMatch>,
        TourTable<ClashMatch>,
    ),
    (form, lan, mut boxes): (Res<LanForm>, Option<Res<LanTable>>, ResMut<BoxesWanted>),
) {
    let Some(dir) = &script.tour else { return };
    let dt = time.delta_secs();
    t.on_screen += dt;
    t.since_shot += dt;
    t.total += dt;
    if t.total > TOUR_LIMIT {
        error!(
            "the tour did not finish in {TOUR_LIMIT} s (stuck on {:?})",
            screen.get()
        );
        exit.write(AppExit::error());
        return;
    }
    let press = |presses: &mut MessageWriter<Press>, button| {
        presses.write(Press {
            player: Side::P1,
            button,
        });
    };
    // C tapped: pressed and let go (menus choose on the letting go).
    let mut tap_c = |presses: &mut MessageWriter<Press>| {
        press(presses, Button::C);
        releases.write(Release {
            player: Side::P1,
            button: Button::C,
        });
    };
    let want = TOUR_SHOTS.get(t.taken).copied();
    let mut snap = |t: &mut Tour, name: &str| {
        if let Err(e) = std::fs::create_dir_all(dir) {
            error!("cannot create {}: {e}", dir.display());
        }
        shoot(&mut commands, dir.join(format!("{name}.png")));
        boxes.0 = Some(dir.join(format!("{name}.boxes")));
        t.taken += 1;
        t.since_shot = 0.0;
    };
    // Give each shot a second to reach the disk before moving on.
    let settled = t.since_shot > 1.0;
    // Each screen is shot once it has settled, then the button that leads
    // to the next shot's screen is pressed.
    match (screen.get(), want) {
        (Screen::Attract, Some("attract")) if t.on_screen > 4.0 && !turns.showing => {
            snap(&mut t, "attract");
        }
        (Screen::Attract, Some("collection")) if settled => press(&mut presses, Button::B),
        (Screen::Collection, Some("collection")) if t.on_screen > 3.0 => {
            snap(&mut t, "collection");
        }
        (Screen::Collection, Some("rankings")) if settled => press(&mut presses, Button::A),
        (Screen::Attract, Some("rankings")) if turns.showing && turns.age > 1.0 => {
            snap(&mut t, "rankings");
        }
        // A opens the choice of game; C takes the Terminal Battle.
        (Screen::Attract, Some("choose")) if settled => press(&mut presses, Button::A),
        (Screen::Choose, Some("choose")) if t.on_screen > 1.5 => snap(&mut t, "choose"),
        (Screen::Choose, Some("scan")) if settled => tap_c(&mut presses),
        (Screen::Scan, Some("scan")) if t.on_screen > 4.0 => snap(&mut t, "scan"),
        (Screen::Scan, Some("battle")) if settled => press(&mut presses, Button::A),
        (Screen::Battle, Some("battle")) if board.clash.is_some() && t.on_screen > 2.0 => {
            snap(&mut t, "battle");
        }
        (Screen::Result, Some("result")) if t.on_screen > 2.5 => snap(&mut t, "result"),
        (Screen::Result, Some("replay")) if settled => press(&mut presses, Button::B),
        (Screen::Replay, Some("replay")) if t.on_screen > 5.0 => snap(&mut t, "replay"),
        // Esc leaves the viewer; C on attract opens the gallery, where the
        // battle just played is the newest replay, with its picture.
        (Screen::Replay, Some("gallery")) if settled => next.set(Screen::Attract),
        (Screen::Attract, Some("gallery")) if settled => press(&mut presses, Button::C),
        (Screen::Gallery, Some("gallery")) if t.on_screen > 3.0 => snap(&mut t, "gallery"),
        // C on a replay offers what can be done with it.
        (Screen::Gallery, Some("gallery-choose")) if settled && gallery.mode == Mode::List => {
            press(&mut presses, Button::C);
        }
        (Screen::Gallery, Some("gallery-choose"))
            if matches!(gallery.mode, Mode::Actions(_)) && t.on_screen > 5.0 =>
        {
            snap(&mut t, "gallery-choose");
        }
        // The binder again, now holding the cards the scan screen read.
        (Screen::Gallery, Some("binder")) if settled => next.set(Screen::Collection),
        (Screen::Collection, Some("binder")) if t.on_screen > 3.0 => snap(&mut t, "binder"),
        // A Card Game Alpha game between CPUs, on its table.
        (Screen::Collection, Some("alpha-setup")) if settled => next.set(Screen::TableSetup),
        (Screen::TableSetup, Some("alpha-setup")) if t.on_screen > 1.5 => {
            snap(&mut t, "alpha-setup");
        }
        // P1's deck screen, half scanned.
        (Screen::TableSetup, Some("alpha-deck")) if settled => {
            if let Some(Ok(d)) = crate::rules::alpha::deck::embedded("courage", &cards.0) {
                lobby.scanned[0] = d.into_iter().take(14).collect();
            }
            commands.insert_resource(DeckSeat(0));
            next.set(Screen::DeckScreen);
        }
        (Screen::DeckScreen, Some("alpha-deck")) if t.on_screen > 2.5 => snap(&mut t, "alpha-deck"),
        (Screen::DeckScreen, Some("alpha-play")) if settled => next.set(Screen::TableSetup),
        // A on the first line wraps round to START, and C starts: P1 (a
        // person) against the CPU.
        (Screen::TableSetup, Some("alpha-play")) if settled => {
            if lobby.line + 1 == lobby.lines().len() {
                tap_c(&mut presses);
            } else {
                press(&mut presses, Button::A);
            }
        }
        (Screen::Table, Some("alpha-play"))
            if t.on_screen > 4.0
                && table.as_ref().is_some_and(|g| {
                    g.live.is_some() && g.m().and_then(|m| m.waiting_for()) == Some(Seat::P1)
                }) =>
        {
            snap(&mut t, "alpha-play");
        }
        // Then a game between CPUs, from its replay.
        (Screen::Table, Some("alpha-table"))
            if settled && table.as_ref().is_some_and(|g| g.live.is_some()) =>
        {
            if let Some(replay) = cpu_game(2, 3, &cards.0) {
                commands.insert_resource(PendingTable(replay, "a CPU game".into()));
            }
            next.set(Screen::Attract);
        }
        (Screen::Attract, Some(w)) if w.starts_with("alpha-") => next.set(Screen::Table),
        // In a Preparation Phase, once the cards are dealt.
        (Screen::Table, Some("alpha-table"))
            if t.on_screen > 3.0
                && table
                    .as_ref()
                    .is_some_and(|g| g.live.is_none() && g.phase.starts_with("Preparation")) =>
        {
            snap(&mut t, "alpha-table");
        }
        // The first attack, as its banner goes up.
        (Screen::Table, Some("alpha-battle")) if settled => {
            if let Some(game) = table.as_mut()
                && game.live.is_none()
                && game
                    .banner
                    .as_ref()
                    .is_some_and(|(b, left)| b.contains("ATTACKS") && *left < 1.2)
            {
                snap(&mut t, "alpha-battle");
            }
        }
        // An alpha-attack: its supporters ringed as its banner goes up.
        (Screen::Table, Some("alpha-attack")) if settled => {
            if let Some(game) = table.as_mut() {
                if game.name != ALPHA_ATTACK_GAME {
                    let (seats, seed) = ALPHA_ATTACK_SEED;
                    if let Some(replay) = cpu_game(seats, seed, &cards.0) {
                        t.alpha_at = first_alpha_attack(&replay, &cards.0);
                        commands.insert_resource(PendingTable(replay, ALPHA_ATTACK_GAME.into()));
                    }
                    next.set(Screen::Attract);
                } else if let Some(at) = t.alpha_at {
                    if game.next < at {
                        game.skip_to(at, &cards.0);
                        game.paused = false;
                        t.on_screen = 0.0;
                    } else if game.next == at + 1
                        && game
                            .banner
                            .as_ref()
                            .is_some_and(|(b, left)| b.starts_with("ALPHA-ATTACK") && *left < 1.2)
                    {
                        snap(&mut t, "alpha-attack");
                    }
                }
            }
        }
        (Screen::Table, Some("alpha-4-seat")) if settled => {
            let seats = table.as_ref().map_or(0, |g| g.replay.setup.decks.len());
            if seats == 2 {
                if let Some(replay) = cpu_game(4, 5, &cards.0) {
                    commands.insert_resource(PendingTable(replay, "a CPU game".into()));
                }
                next.set(Screen::Attract);
            } else if t.on_screen > 8.0 {
                snap(&mut t, "alpha-4-seat");
            }
        }
        (Screen::Table, Some("alpha-result")) if settled => {
            if let Some(game) = table.as_mut() {
                let last = game.replay.actions.len();
                if game.next + 1 < last {
                    game.skip_to(last - 1, &cards.0);
                    game.paused = false;
                    t.on_screen = 0.0;
                } else if game.ended() && t.on_screen > 2.0 {
                    snap(&mut t, "alpha-result");
                }
            }
        }
        // A LAN table hosted here (the tour stays off the LAN's
        // announcements): the host screen, then OPEN (A wraps round to it).
        (Screen::Table, Some("lan-host")) if settled => next.set(Screen::LanHost),
        (Screen::LanHost, Some("lan-host")) if t.on_screen > 1.5 => snap(&mut t, "lan-host"),
        (Screen::LanHost, Some("lan-lobby")) if settled => {
            if form.line + 1 == form.host_lines().len() {
                tap_c(&mut presses);
            } else {
                press(&mut presses, Button::A);
            }
        }
        (Screen::LanLobby, Some("lan-lobby"))
            if t.on_screen > 2.0 && lan.as_ref().is_some_and(|l| l.seat.is_some()) =>
        {
            snap(&mut t, "lan-lobby");
        }
        // Another machine joins with the code: a CPU client, over loopback.
        (Screen::LanLobby, Some("lan-battle")) if settled && !t.lan_joined => {
            if let Some(lan) = &lan {
                t.lan_joined = true;
                join_lan_cpu(lan, &cards.0);
            }
        }
        (Screen::Battle, Some("lan-battle")) if board.clash.is_some() && t.on_screen > 2.0 => {
            snap(&mut t, "lan-battle");
        }
        // The Digimon Card Game: its setup, then a game between CPUs.
        (Screen::Battle, Some("dcg-setup")) if settled => next.set(Screen::Attract),
        (Screen::Attract, Some("dcg-setup")) if settled => {
            lobby.set_game(<DcgMatch as crate::rules::Ruleset>::ID);
            next.set(Screen::TableSetup);
        }
        (Screen::TableSetup, Some("dcg-setup")) if t.on_screen > 1.5 => snap(&mut t, "dcg-setup"),
        // A wraps round to START, and C starts: P1 (a person) against the
        // CPU, shot when P1 is asked.
        (Screen::TableSetup, Some("dcg-play")) if settled => {
            if lobby.line + 1 == lobby.lines().len() {
                tap_c(&mut presses);
            } else {
                press(&mut presses, Button::A);
            }
        }
        (Screen::Table, Some("dcg-play"))
            if t.on_screen > 4.0
                && dcg.as_ref().is_some_and(|g| {
                    g.live.is_some() && g.waiting() == Some(Seat::P1) && g.wait <= 0.0
                }) =>
        {
            snap(&mut t, "dcg-play");
        }
        (Screen::Table, Some("dcg-table"))
            if settled && dcg.as_ref().is_some_and(|g| g.live.is_some()) =>
        {
            if let Some(replay) = dcg_cpu_game(2, 3, &cards.0) {
                t.dcg_at = first_dcg_attack(&replay, &cards.0);
                commands.insert_resource(PendingTable(replay, "a CPU game".into()));
            }
            next.set(Screen::Attract);
        }
        (Screen::Attract, Some(w)) if w.starts_with("dcg-") => next.set(Screen::Table),
        // The playmats once the cards are out: a few turns in.
        (Screen::Table, Some("dcg-table")) if settled => {
            if let Some(game) = dcg.as_mut() {
                let at = t.dcg_at.map_or(12, |(a, _)| a.saturating_sub(1));
                if game.next < at {
                    game.skip_to(at, &cards.0);
                    // Still, as the cards settle.
                    game.paused = true;
                    t.on_screen = 0.0;
                } else if t.on_screen > 3.0 {
                    snap(&mut t, "dcg-table");
                }
            }
        }
        // The first attack, as its banner goes up.
        (Screen::Table, Some("dcg-attack")) if settled => {
            if let Some(game) = dcg.as_mut() {
                game.paused = false;
                if game
                    .banner
                    .as_ref()
                    .is_some_and(|(b, left)| b.contains("ATTACKS") && *left < 1.2)
                {
                    snap(&mut t, "dcg-attack");
                }
            }
        }
        // The first security check: the card out of the stack, face up.
        (Screen::Table, Some("dcg-security-check")) if settled => {
            if let Some(game) = dcg.as_mut() {
                let at = t.dcg_at.map_or(0, |(_, c)| c);
                if game.next < at {
                    game.skip_to(at, &cards.0);
                    t.on_screen = 0.0;
                } else if game
                    .banner
                    .as_ref()
                    .is_some_and(|(b, left)| b.contains("SECURITY CHECK") && *left < 1.0)
                {
                    snap(&mut t, "dcg-security-check");
                }
            }
        }
        (Screen::Table, Some("dcg-result")) if settled => {
            if let Some(game) = dcg.as_mut() {
                let last = game.replay.actions.len();
                if game.next + 1 < last {
                    game.skip_to(last - 1, &cards.0);
                    game.paused = false;
                    t.on_screen = 0.0;
                } else if game.ended() && t.on_screen > 2.0 {
                    snap(&mut t, "dcg-result");
                }
            }
        }
        (Screen::Table, Some("dcg-4-seat")) if settled => {
            let seats = dcg.as_ref().map_or(0, |g| g.replay.setup.decks.len());
            if seats == 2 {
                if let Some(replay) = dcg_cpu_game(4, 5, &cards.0) {
                    commands.insert_resource(PendingTable(replay, "a CPU game".into()));
                }
                next.set(Screen::Attract);
            } else if let Some(game) = dcg.as_mut()
                && game.next < 40
            {
                game.skip_to(40, &cards.0);
                t.on_screen = 0.0;
            } else if t.on_screen > 6.0 {
                snap(&mut t, "dcg-4-seat");
            }
        }
        // Alpha Clash: a game between CPUs: its first card waiting in
        // Standby, its first attack after it, and the table later on.
        (Screen::Table, Some("clash-setup")) if settled => next.set(Screen::Attract),
        (Screen::Attract, Some("clash-setup")) if settled => {
            lobby.set_game(<ClashMatch as crate::rules::Ruleset>::ID);
            next.set(Screen::TableSetup);
        }
        (Screen::TableSetup, Some("clash-setup")) if t.on_screen > 1.5 => {
            snap(&mut t, "clash-setup");
        }
        (Screen::TableSetup, Some("clash-standby")) if settled => {
            if let Some(replay) = clash_cpu_game(2, 2, &cards.0) {
                t.clash_at = first_clash_moments(&replay, &cards.0);
                commands.insert_resource(PendingTable(replay, "a CPU game".into()));
            }
            next.set(Screen::Attract);
        }
        (Screen::Attract, Some(w)) if w.starts_with("clash-") => next.set(Screen::Table),
        // A card in the air over the table: played, its opponent asked.
        (Screen::Table, Some("clash-standby")) if settled => {
            if let Some(game) = clash.as_mut() {
                let at = t.clash_at.map_or(20, |(s, _, _)| s + 1);
                if game.next < at {
                    game.skip_to(at, &cards.0);
                    game.paused = true;
                    t.on_screen = 0.0;
                } else if t.on_screen > 3.0 {
                    snap(&mut t, "clash-standby");
                }
            }
        }
        (Screen::Table, Some("clash-attack")) if settled => {
            if let Some(game) = clash.as_mut() {
                let at = t.clash_at.map_or(30, |(_, a, _)| a);
                if game.next < at {
                    game.skip_to(at, &cards.0);
                    t.on_screen = 0.0;
                }
                game.paused = false;
                if game
                    .banner
                    .as_ref()
                    .is_some_and(|(b, left)| b.contains("ATTACKS") && *left < 1.2)
                {
                    snap(&mut t, "clash-attack");
                }
            }
        }
        // Later on, the zones at their fullest.
        (Screen::Table, Some("clash-table")) if settled => {
            if let Some(game) = clash.as_mut() {
                let at = t
                    .clash_at
                    .map_or(game.replay.actions.len() * 2 / 3, |(_, _, f)| f + 1);
                if game.next < at {
                    game.skip_to(at, &cards.0);
                    game.paused = true;
                    t.on_screen = 0.0;
                } else if t.on_screen > 3.0 {
                    snap(&mut t, "clash-table");
                }
            }
        }
        (_, None) if settled => {
            exit.write(AppExit::Success);
        }
        _ => {}
    }
    // P1 answers every question after a short think, cycling its stances.
    if *screen.get() == Screen::Battle
        && let Some(duel) = duel
    {
        if duel.asking[0].is_some() {
            t.asked_for += dt;
            if t.asked_for > 0.4 {
                t.asked_for = 0.0;
                let b = Button::ALL[(board.round as usize) % 3];
                press(&mut presses, b);
            }
        } else {
            t.asked_for = 0.0;
        }
    }
}
