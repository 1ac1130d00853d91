//! The scan screen: each player builds a team. Cards come from the webcam
//! (or a folder of frames used as one) with a live preview in a corner, from
//! image files given on the command line or dropped on the window, or from a
//! card number typed at the keyboard. A card shows up in 3D the moment it is
//! read; the rules' refusals and Burst warnings show at once. Without any
//! input for 30 s, demo teams are chosen and the battle starts.
//!
//! Buttons: A ready, B take back the last card, C change who plays P2
//! (player, CPU easy / normal / hard). Enter types a card number for the
//! player chosen with Tab.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bevy::asset::RenderAssetUsages;
use bevy::input::keyboard::KeyboardInput;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::FileDragAndDrop;
use image::GrayImage;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::attract::clock_seed;
use super::duel::{Duel, DuelKind, DuelStarted};
use super::figures;
use super::hud::{centred_column, label, screen_layer};
use super::input::{Button, Press, Typing};
use super::sound::{Sfx, Sound};
use super::stage::Shot;
use super::{AppSystems, Cards, Pilot, Screen, Settings};
use crate::barcode::frames::{self, FrameEvent, FrameSource, Pipeline, Stabilizer};
use crate::barcode::{Effort, Enrolments, Resolved, Scanner, decode, files};
use crate::cards::{Card, CardSet};
use crate::rules::Side;
use crate::rules::terminal::{Event, Match, PointsReason, Setup, analysis};

/// Draws before a demo team gives up (an empty team is the rules' default partner).
pub const DEMO_TRIES: usize = 50;
/// Preview size in the corner, pixels.
const PREVIEW: (u32, u32) = (320, 180);
/// A folder of frames plays at this many frames per second.
const VIDEO_FPS: u64 = 10;

/// One player's team as it is scanned.
#[derive(Debug, Clone, Default)]
pub struct Team {
    /// The cards, in scan order, and whether each is in the card set.
    pub cards: Vec<(Card, bool)>,
    /// The last thing said to this player, and whether it was a refusal.
    pub message: Option<(String, bool)>,
    /// Pressed ready.
    pub ready: bool,
}

/// Both teams, who plays them, and the screen's clocks.
#[derive(Resource, Debug, Clone)]
pub struct Roster {
    /// P1's and P2's teams.
    pub teams: [Team; 2],
    /// Who plays P2 (P1 is the person who pressed start).
    pub p2: Pilot,
    /// Whose team typed numbers, dropped files and the camera add to.
    pub active: Side,
    /// The number being typed, while the entry is open.
    pub entry: Option<String>,
    /// Seconds without any input.
    pub idle: f32,
}

impl Roster {
    fn new(p2: Pilot) -> Roster {
        Roster {
            teams: [Team::default(), Team::default()],
            p2,
            active: Side::P1,
            entry: None,
            idle: 0.0,
        }
    }

    fn pilots(&self) -> [Pilot; 2] {
        [Pilot::Human, self.p2]
    }
}

/// The setup for `teams` (extra cards travel with it).
fn setup_of(teams: [&[(Card, bool)]; 2], seed: u64) -> Setup {
    let mut setup = Setup::new(
        teams[0].iter().map(|(c, _)| c.number()).collect(),
        teams[1].iter().map(|(c, _)| c.number()).collect(),
        seed,
    );
    for (c, in_set) in teams.iter().flat_map(|t| t.iter()) {
        if !in_set && !setup.extra.iter().any(|e| e.number() == c.number()) {
            setup.extra.push(c.clone());
        }
    }
    setup
}

/// What the rules say to `team` plus `card`: `Err` a refusal, `Ok` with a
/// Burst warning or none.
pub fn check_card(
    cards: &CardSet,
    side: Side,
    team: &[(Card, bool)],
    card: &Card,
    in_set: bool,
) -> Result<Option<String>, String> {
    if card.as_digimon().is_none() && card.as_option().is_none() {
        return Err(format!(
            "{side}: {} is a Command card; the Terminal plays Digimon and Option cards",
            card.name()
        ));
    }
    let mut mine = team.to_vec();
    mine.push((card.clone(), in_set));
    let empty: Vec<(Card, bool)> = Vec::new();
    let teams = match side {
        Side::P1 => [&mine[..], &empty[..]],
        Side::P2 => [&empty[..], &mine[..]],
    };
    let setup = setup_of(teams, 1);
    let set = if setup.extra.is_empty() {
        cards.clone()
    } else {
        cards.with_cards(&setup.extra).map_err(|e| e.to_string())?
    };
    let m = Match::from_setup(&setup, &set).map_err(|e| e.to_string())?;
    let burst = m.opening_events().iter().find_map(|e| match e {
        Event::PointsChanged {
            side: s,
            delta,
            reason: PointsReason::Burst,
            ..
        } if *s == side => Some(*delta),
        _ => None,
    });
    Ok(burst.map(|d| {
        format!(
            "Burst! The team's Cost is over {}: {side} starts with {} fewer points",
            m.tunables().cost_cap,
            -d
        )
    }))
}

/// One read: whose team, from where, and the card or why not.
type Read = (Side, String, Result<Resolved, String>);

/// Card reads arriving from threads: files and the live source.
#[derive(Resource)]
struct Reads {
    files: Mutex<Receiver<Read>>,
    file_tx: std::sync::mpsc::Sender<Read>,
    live: Option<Mutex<Pipeline>>,
    preview: Arc<Mutex<Option<GrayImage>>>,
    preview_image: Option<Handle<Image>>,
    scanner: Scanner,
}

/// A frame source that keeps a copy of each frame for the preview, and
/// plays a recorded folder at video speed.
struct Tee {
    inner: Box<dyn FrameSource>,
    latest: Arc<Mutex<Option<GrayImage>>>,
}

impl FrameSource for Tee {
    fn next_frame(&mut self) -> Option<Result<GrayImage, String>> {
        let frame = self.inner.next_frame()?;
        if let Ok(img) = &frame
            && let Ok(mut slot) = self.latest.lock()
        {
            *slot = Some(img.clone());
        }
        if !self.inner.is_live() {
            std::thread::sleep(Duration::from_millis(1000 / VIDEO_FPS));
        }
        Some(frame)
    }

    fn is_live(&self) -> bool {
        true
    }
}

#[derive(Component)]
enum ScanText {
    Header(Side),
    List(Side),
    Message(Side),
    Status(Side),
    Entry,
    Countdown,
}

#[derive(Component)]
struct Preview;

pub(super) fn plugin(app: &mut App) {
    // Registered here too, so the screen runs without a window (tests).
    app.add_message::<FileDragAndDrop>()
        .add_message::<KeyboardInput>()
        .add_systems(OnEnter(Screen::Scan), enter)
        .add_systems(OnExit(Screen::Scan), leave)
        .add_systems(
            Update,
            (
                buttons,
                typing,
                dropped,
                receive,
                show_preview,
                draw,
                start_when_ready,
            )
                .chain()
                .run_if(in_state(Screen::Scan))
                .in_set(AppSystems::Update),
        );
}

fn enter(
    mut commands: Commands,
    settings: Res<Settings>,
    cards: Res<Cards>,
    mut shot: ResMut<Shot>,
    mut images: ResMut<Assets<Image>>,
) {
    *shot = Shot::Wide;
    commands.insert_resource(Roster::new(settings.p2));
    let enrolments = Enrolments::open_default().unwrap_or_else(|e| {
        warn!("enrolled barcodes not loaded: {e}");
        Enrolments::default()
    });
    let scanner = Scanner::new(cards.0.clone(), enrolments);
    let (file_tx, files_rx) = channel();
    let preview = Arc::new(Mutex::new(None));
    let mut live_error = None;
    let source: Option<Box<dyn FrameSource>> = if let Some(dir) = &settings.video {
        match frames::FolderFrames::open(dir) {
            Ok(f) => Some(Box::new(f)),
            Err(e) => {
                live_error = Some(e);
                None
            }
        }
    } else if let Some(index) = settings.camera {
        open_camera(index).map_err(|e| live_error = Some(e)).ok()
    } else {
        None
    };
    let live = source.map(|inner| {
        frames::start(
            Box::new(Tee {
                inner,
                latest: Arc::clone(&preview),
            }),
            scanner.clone(),
            Stabilizer::new(3, 8),
        )
    });
    let preview_image = live.as_ref().map(|_| {
        images.add(Image::new_fill(
            Extent3d {
                width: PREVIEW.0,
                height: PREVIEW.1,
                depth_or_array_layers: 1,
            },
            TextureDimension::D2,
            &[10, 20, 30, 255],
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::default(),
        ))
    });
    for (side, paths) in Side::BOTH.iter().zip(&settings.scans) {
        read_files(&scanner, &file_tx, *side, paths.clone());
    }
    spawn_ui(&mut commands, preview_image.clone());
    if let Some(e) = live_error {
        commands.queue(move |world: &mut World| {
            if let Some(mut r) = world.get_resource_mut::<Roster>() {
                r.teams[0].message = Some((e, true));
            }
        });
    }
    commands.insert_resource(Reads {
        files: Mutex::new(files_rx),
        file_tx,
        live: live.map(Mutex::new),
        preview,
        preview_image,
        scanner,
    });
}

#[cfg(feature = "camera")]
fn open_camera(index: u32) -> Result<Box<dyn FrameSource>, String> {
    crate::barcode::webcam::Webcam::open(index).map(|w| Box::new(w) as Box<dyn FrameSource>)
}

#[cfg(not(feature = "camera"))]
fn open_camera(_: u32) -> Result<Box<dyn FrameSource>, String> {
    Err("this bterm was built without webcam support (cargo feature `camera`)".to_string())
}

/// Reads image files (and folders) on a thread; each result arrives as a read.
fn read_files(
    scanner: &Scanner,
    tx: &std::sync::mpsc::Sender<Read>,
    side: Side,
    paths: Vec<PathBuf>,
) {
    if paths.is_empty() {
        return;
    }
    let scanner = scanner.clone();
    let tx = tx.clone();
    std::thread::spawn(move || {
        let (found, errors) = files::collect(&paths);
        for e in errors {
            let _ = tx.send((side, e.to_string(), Err(e.to_string())));
        }
        for path in found {
            let name = path.display().to_string();
            let read = files::load_gray(&path, files::MAX_PIXELS)
                .map_err(|e| e.to_string())
                .and_then(|img| {
                    scanner
                        .resolve(&decode(&img, Effort::File).symbols)
                        .map_err(|e| e.to_string())
                });
            if tx.send((side, name, read)).is_err() {
                return;
            }
        }
    });
}

fn leave(mut commands: Commands, reads: Option<ResMut<Reads>>, mut typing: ResMut<Typing>) {
    typing.0 = false;
    // Dropping the pipeline's receiver ends its threads at their next frame.
    if let Some(mut r) = reads {
        r.live = None;
    }
    commands.remove_resource::<Reads>();
}

/// Adds a card to a team if the rules allow it, and says so.
#[expect(
    clippy::too_many_arguments,
    reason = "called from three systems, each with its own world access"
)]
fn add_card(
    roster: &mut Roster,
    cards: &CardSet,
    side: Side,
    card: Card,
    in_set: bool,
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    sfx: &mut MessageWriter<Sfx>,
) {
    let team = &mut roster.teams[side.index()];
    if team.ready {
        team.message = Some(("Press B to change a team that is ready".into(), true));
        sfx.write(Sfx(Sound::Refuse));
        return;
    }
    match check_card(cards, side, &team.cards, &card, in_set) {
        Err(e) => {
            team.message = Some((e, true));
            sfx.write(Sfx(Sound::Refuse));
        }
        Ok(warning) => {
            let name = card.name().to_string();
            if let Some(d) = card.as_digimon() {
                let slot = team
                    .cards
                    .iter()
                    .filter(|(c, _)| c.as_digimon().is_some())
                    .count();
                let e = figures::spawn_bench(commands, meshes, materials, d, side, slot, 1.0);
                commands
                    .entity(e)
                    .insert((DespawnOnExit(Screen::Scan), ScannedFigure(side)));
            }
            team.cards.push((card, in_set));
            team.message = Some((
                warning.unwrap_or_else(|| format!("{name} joins the team")),
                false,
            ));
            sfx.write(Sfx(Sound::Scan));
        }
    }
}

/// A figure standing for a scanned card.
#[derive(Component)]
struct ScannedFigure(Side);

fn buttons(
    mut presses: MessageReader<Press>,
    mut roster: ResMut<Roster>,
    mut sfx: MessageWriter<Sfx>,
    mut commands: Commands,
    figures_q: Query<(Entity, &ScannedFigure)>,
    time: Res<Time>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
) {
    roster.idle += time.delta_secs();
    if keys.is_some_and(|k| k.get_just_pressed().len() > 0) {
        roster.idle = 0.0;
    }
    for p in presses.read() {
        roster.idle = 0.0;
        sfx.write(Sfx(Sound::Button));
        let side = p.player;
        if side == Side::P2 && roster.p2 != Pilot::Human && p.button != Button::C {
            continue;
        }
        roster.active = side;
        match p.button {
            Button::A => roster.teams[side.index()].ready = true,
            Button::B => {
                let team = &mut roster.teams[side.index()];
                if team.ready {
                    team.ready = false;
                } else if let Some((c, _)) = team.cards.pop() {
                    team.message = Some((format!("{} taken back", c.name()), false));
                    if c.as_digimon().is_some()
                        && let Some((e, _)) = figures_q.iter().filter(|(_, f)| f.0 == side).last()
                    {
                        commands.entity(e).despawn();
                    }
                }
            }
            Button::C => {
                roster.p2 = roster.p2.cycle();
                roster.teams[1].ready = false;
            }
        }
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "a system: each argument is a resource or query it needs"
)]
fn typing(
    mut keyboard: MessageReader<KeyboardInput>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    mut roster: ResMut<Roster>,
    mut typing: ResMut<Typing>,
    cards: Res<Cards>,
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut sfx: MessageWriter<Sfx>,
) {
    let Some(keys) = keys else { return };
    if roster.entry.is_none() {
        keyboard.clear();
        if keys.just_pressed(KeyCode::Tab) {
            roster.active = roster.active.other();
        }
        if keys.just_pressed(KeyCode::Enter) {
            roster.entry = Some(String::new());
            typing.0 = true;
        }
        return;
    }
    roster.idle = 0.0;
    let mut submit = false;
    for k in keyboard.read() {
        if !k.state.is_pressed() {
            continue;
        }
        match k.key_code {
            KeyCode::Enter | KeyCode::NumpadEnter => submit = true,
            KeyCode::Escape => {
                roster.entry = None;
                typing.0 = false;
                return;
            }
            KeyCode::Backspace => {
                if let Some(e) = &mut roster.entry {
                    e.pop();
                }
            }
            KeyCode::Tab => roster.active = roster.active.other(),
            _ => {
                if let Some(text) = &k.text
                    && let Some(e) = &mut roster.entry
                    && e.chars().count() < 24
                {
                    e.extend(text.chars().filter(|c| !c.is_control()));
                }
            }
        }
    }
    if submit {
        let text = roster.entry.take().unwrap_or_default();
        typing.0 = false;
        let side = roster.active;
        if text.trim().is_empty() {
            return;
        }
        match cards.0.resolve(text.trim()) {
            Ok(card) => add_card(
                &mut roster,
                &cards.0,
                side,
                card.clone(),
                true,
                &mut commands,
                &mut meshes,
                &mut materials,
                &mut sfx,
            ),
            Err(e) => {
                roster.teams[side.index()].message = Some((e.to_string(), true));
                sfx.write(Sfx(Sound::Refuse));
            }
        }
    }
}

fn dropped(
    mut drops: MessageReader<FileDragAndDrop>,
    mut roster: ResMut<Roster>,
    reads: Option<Res<Reads>>,
) {
    let Some(reads) = reads else { return };
    for d in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = d {
            roster.idle = 0.0;
            read_files(
                &reads.scanner,
                &reads.file_tx,
                roster.active,
                vec![path_buf.clone()],
            );
        }
    }
}

fn receive(
    reads: Option<Res<Reads>>,
    mut roster: ResMut<Roster>,
    cards: Res<Cards>,
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut sfx: MessageWriter<Sfx>,
) {
    let Some(reads) = reads else { return };
    let mut got: Vec<Read> = reads
        .files
        .lock()
        .map(|rx| rx.try_iter().collect())
        .unwrap_or_default();
    let live_events: Vec<FrameEvent> = reads
        .live
        .as_ref()
        .and_then(|l| l.lock().ok().map(|p| p.events.try_iter().collect()))
        .unwrap_or_default();
    {
        for e in live_events {
            let side = roster.active;
            match e {
                FrameEvent::Card { card, .. } => got.push((side, "camera".into(), Ok(*card))),
                FrameEvent::Refused { why, .. } => {
                    got.push((side, "camera".into(), Err(why.to_string())));
                }
                FrameEvent::FrameError { message, .. } => {
                    got.push((side, "camera".into(), Err(message)));
                }
                FrameEvent::Gone { .. } | FrameEvent::Ended { .. } => {}
            }
        }
    }
    for (side, from, read) in got {
        roster.idle = 0.0;
        match read {
            Ok(r) => add_card(
                &mut roster,
                &cards.0,
                side,
                r.card,
                r.in_set,
                &mut commands,
                &mut meshes,
                &mut materials,
                &mut sfx,
            ),
            Err(e) => {
                let name = std::path::Path::new(&from)
                    .file_name()
                    .map_or(from.clone(), |n| n.to_string_lossy().into_owned());
                roster.teams[side.index()].message = Some((format!("{name}: {e}"), true));
                sfx.write(Sfx(Sound::Refuse));
            }
        }
    }
}

fn show_preview(reads: Option<Res<Reads>>, mut images: ResMut<Assets<Image>>) {
    let Some(reads) = reads else { return };
    let Some(handle) = &reads.preview_image else {
        return;
    };
    let Some(frame) = reads.preview.lock().ok().and_then(|mut f| f.take()) else {
        return;
    };
    let Some(mut image) = images.get_mut(handle) else {
        return;
    };
    let (w, h) = PREVIEW;
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let sx = (x * frame.width() / w).min(frame.width().saturating_sub(1));
            let sy = (y * frame.height() / h).min(frame.height().saturating_sub(1));
            let v = frame.get_pixel(sx, sy).0[0];
            rgba.extend_from_slice(&[v, v, v, 255]);
        }
    }
    image.data = Some(rgba);
}

fn spawn_ui(commands: &mut Commands, preview: Option<Handle<Image>>) {
    let ink = Color::srgb(0.85, 0.92, 1.0);
    commands
        .spawn(screen_layer(
            "Scan screen",
            Screen::Scan,
            20.0,
            AlignItems::Default,
        ))
        .with_children(|root| {
            root.spawn(centred_column()).with_children(|t| {
                t.spawn(label("SCAN YOUR CARDS", 44.0, Color::srgb(1.0, 0.85, 0.2)));
                t.spawn((ScanText::Countdown, label("", 20.0, ink)));
            });
            root.spawn(Node {
                flex_direction: FlexDirection::Row,
                justify_content: JustifyContent::SpaceBetween,
                align_items: AlignItems::FlexStart,
                flex_grow: 1.0,
                margin: UiRect::vertical(px(12)),
                ..default()
            })
            .with_children(|row| {
                for side in Side::BOTH {
                    row.spawn((
                        Node {
                            width: px(420),
                            flex_direction: FlexDirection::Column,
                            padding: UiRect::all(px(12)),
                            row_gap: px(6),
                            ..default()
                        },
                        BackgroundColor(Color::srgba(0.02, 0.05, 0.12, 0.8)),
                    ))
                    .with_children(|p| {
                        p.spawn((ScanText::Header(side), label("", 26.0, Color::WHITE)));
                        p.spawn((ScanText::List(side), label("", 19.0, ink)));
                        p.spawn((ScanText::Message(side), label("", 18.0, ink)));
                        p.spawn((
                            ScanText::Status(side),
                            label("", 18.0, Color::srgb(1.0, 0.85, 0.2)),
                        ));
                    });
                }
            });
            root.spawn(Node {
                flex_direction: FlexDirection::Row,
                justify_content: JustifyContent::SpaceBetween,
                align_items: AlignItems::FlexEnd,
                ..default()
            })
            .with_children(|b| {
                b.spawn((
                    Node {
                        padding: UiRect::all(px(10)),
                        max_width: px(880),
                        ..default()
                    },
                    BackgroundColor(Color::srgba(0.02, 0.05, 0.12, 0.8)),
                ))
                .with_children(|e| {
                    e.spawn((ScanText::Entry, label("", 18.0, ink)));
                });
                if let Some(img) = preview {
                    b.spawn((
                        Preview,
                        ImageNode::new(img),
                        Node {
                            width: px(PREVIEW.0 as f32),
                            height: px(PREVIEW.1 as f32),
                            border: UiRect::all(px(2)),
                            ..default()
                        },
                        BorderColor::all(Color::srgb(0.2, 0.8, 1.0)),
                    ));
                }
            });
        });
}

fn draw(
    roster: Res<Roster>,
    settings: Res<Settings>,
    reads: Option<Res<Reads>>,
    mut q: Query<(&ScanText, &mut Text, &mut TextColor)>,
) {
    let live = reads.as_ref().is_some_and(|r| r.live.is_some());
    for (which, mut text, mut colour) in &mut q {
        let value = match *which {
            ScanText::Header(s) => {
                let who = if s == Side::P1 {
                    Pilot::Human.label()
                } else {
                    roster.p2.label()
                };
                let arrow = if roster.active == s { "▶ " } else { "" };
                format!("{arrow}{s} · {who}")
            }
            ScanText::List(s) => {
                let team = &roster.teams[s.index()];
                if s == Side::P2 && roster.p2 != Pilot::Human && team.cards.is_empty() {
                    "The CPU brings its own team".to_string()
                } else if team.cards.is_empty() {
                    "No cards yet (a partner is chosen for you)".to_string()
                } else {
                    let cost: u32 = team
                        .cards
                        .iter()
                        .filter_map(|(c, _)| {
                            c.as_digimon()
                                .map(|d| u32::from(d.cost))
                                .or_else(|| c.as_option().map(|o| u32::from(o.cost)))
                        })
                        .sum();
                    let mut lines: Vec<String> = team
                        .cards
                        .iter()
                        .map(|(c, _)| match c.as_digimon() {
                            Some(d) => {
                                format!("{} {}  {} · Cost {}", d.number, d.name, d.level, d.cost)
                            }
                            None => format!("{} {}  Option", c.number(), c.name()),
                        })
                        .collect();
                    lines.push(format!("Total Cost {cost}"));
                    lines.join("\n")
                }
            }
            ScanText::Message(s) => match &roster.teams[s.index()].message {
                Some((m, refused)) => {
                    colour.0 = if *refused {
                        Color::srgb(1.0, 0.4, 0.35)
                    } else {
                        Color::srgb(0.5, 1.0, 0.6)
                    };
                    m.clone()
                }
                None => String::new(),
            },
            ScanText::Status(s) => {
                if s == Side::P2 && roster.p2 != Pilot::Human {
                    "READY · C changes the CPU or lets a second player in".to_string()
                } else if roster.teams[s.index()].ready {
                    "READY · B to change".to_string()
                } else {
                    "A ready · B take back · C who plays P2".to_string()
                }
            }
            ScanText::Entry => match &roster.entry {
                Some(e) => format!(
                    "Card number for {}: {e}_   (Enter adds · Tab switches player · Esc cancels)",
                    roster.active
                ),
                None => {
                    let mut hint =
                        String::from("Enter: type a card number · drop card images on the window");
                    if live {
                        hint.push_str(" · show a card to the camera");
                    }
                    hint
                }
            },
            ScanText::Countdown => {
                let left = (settings.timeouts.scan_idle - roster.idle).max(0.0).ceil();
                format!("Demo teams in {left} s without input")
            }
        };
        if text.0 != value {
            text.0 = value;
        }
    }
}

fn start_when_ready(
    mut commands: Commands,
    mut roster: ResMut<Roster>,
    settings: Res<Settings>,
    cards: Res<Cards>,
    mut next: ResMut<NextState<Screen>>,
    mut started: MessageWriter<DuelStarted>,
    scanned: Query<Entity, With<ScannedFigure>>,
) {
    let timed_out = roster.idle >= settings.timeouts.scan_idle;
    let p2_ready = roster.p2 != Pilot::Human || roster.teams[1].ready;
    if !(timed_out || roster.teams[0].ready && p2_ready) {
        return;
    }
    let seed = settings.seed.unwrap_or_else(clock_seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut teams: [Vec<(Card, bool)>; 2] =
        [roster.teams[0].cards.clone(), roster.teams[1].cards.clone()];
    for (i, team) in teams.iter_mut().enumerate() {
        let cpu = i == 1 && roster.p2 != Pilot::Human;
        if team.is_empty() && (timed_out || cpu) {
            *team = analysis::accepted_team(&cards.0, &mut rng, DEMO_TRIES)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|n| cards.0.get(&n).cloned())
                .map(|c| (c, true))
                .collect();
        }
    }
    let setup = setup_of([&teams[0], &teams[1]], seed);
    match Duel::new(DuelKind::Play, setup, &cards.0, roster.pilots()) {
        Ok(duel) => {
            for e in &scanned {
                commands.entity(e).despawn();
            }
            commands.insert_resource(duel);
            started.write(DuelStarted);
            next.set(Screen::Battle);
        }
        Err(e) => {
            // Each card was checked as it came; a refusal here is between the
            // two teams (none today) — say it and let the players fix it.
            roster.teams[0].ready = false;
            roster.teams[1].ready = false;
            roster.idle = 0.0;
            roster.teams[0].message = Some((e, true));
        }
    }
}
