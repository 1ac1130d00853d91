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

pub mod deck;
mod reads;
mod ui;

use bevy::input::keyboard::KeyboardInput;
use bevy::prelude::*;
use bevy::window::FileDragAndDrop;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::arena::play::duel::{Duel, DuelKind, DuelStarted};
use crate::arena::render::figures::{self, FigureKit};
use crate::arena::render::stage::CameraShot;
use crate::arena::screens::collection::Collection;
use crate::arena::screens::result::PendingReplay;
use crate::arena::ui::input::{Button, Press, Typing};
use crate::arena::ui::sound::{Sfx, Sound};
use crate::arena::{AppSystems, Cards, Screen, Settings};
use crate::barcode::Resolved;
use crate::cards::{Card, CardNumber, CardSet};
use crate::collection::{CardRef, NewScan, Origin};
use crate::replay::Replay;
use crate::rules::RulesetId;
use crate::rules::terminal::Match;
use crate::rules::terminal::Side;
use crate::rules::terminal::pick::{self, DEMO_TRIES, check_card, setup_of};
use crate::session::{Player, clock_seed};
use reads::{Failed, Reads, read_files, show_preview};
use ui::{draw, spawn_ui};

/// The screen a LAN form's scanner goes back to (its presence tells the
/// scan and deck screens they scan for a LAN table), and the deck screen's
/// result: the finished deck, or why it is not.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct ScanReturn {
    /// The LAN form's screen.
    pub back: Screen,
    /// The game the form scans for.
    pub game: RulesetId,
    /// The deck scanned, when the deck screen scanned one.
    pub deck: Result<Vec<CardNumber>, String>,
}

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
    pub p2: Player,
    /// Whose team typed numbers, dropped files and the camera add to.
    pub active: Side,
    /// The number being typed, while the entry is open.
    pub entry: Option<String>,
    /// Seconds without any input.
    pub idle: f32,
    /// Scanning P1's team for a LAN table (P2 plays from its own machine).
    pub lan: bool,
}

impl Roster {
    fn new(p2: Player) -> Roster {
        Roster {
            teams: [Team::default(), Team::default()],
            p2,
            active: Side::P1,
            entry: None,
            idle: 0.0,
            lan: false,
        }
    }

    fn pilots(&self) -> [Player; 2] {
        [Player::Person, self.p2]
    }
}

pub(in crate::arena) fn plugin(app: &mut App) {
    deck::plugin(app);
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
    (settings, cards, lan): (Res<Settings>, Res<Cards>, Option<Res<ScanReturn>>),
    mut shot: ResMut<CameraShot>,
    mut images: ResMut<Assets<Image>>,
) {
    *shot = CameraShot::Wide;
    // Scanning a team for a LAN table: P1's only (P2 is not asked).
    let p2 = if lan.is_some() {
        Player::Cpu(crate::ai::Strength::Normal)
    } else {
        settings.p2
    };
    let mut roster = Roster::new(p2);
    roster.lan = lan.is_some();
    commands.insert_resource(roster);
    let (reads, live_error) = Reads::open(&settings, &cards.0, &mut images, true);
    spawn_ui(&mut commands, reads.preview_image.clone(), lan.is_some());
    if let Some(e) = live_error {
        commands.queue(move |world: &mut World| {
            if let Some(mut r) = world.get_resource_mut::<Roster>() {
                r.teams[0].message = Some(e);
            }
        });
    }
    commands.insert_resource(reads);
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
    new: bool,
    commands: &mut Commands,
    kit: &mut FigureKit,
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
            team.message = Some((e.to_string(), true));
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
                let e = figures::spawn_bench(commands, kit, d, side, slot, 1.0);
                commands
                    .entity(e)
                    .insert((DespawnOnExit(Screen::Scan), ScannedFigure(side)));
            }
            team.cards.push((card, in_set));
            let said = warning.unwrap_or_else(|| format!("{name} joins the team"));
            team.message = Some((if new { format!("NEW! {said}") } else { said }, false));
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
        // For a LAN table either set of buttons is P1's: the other player
        // is on another machine.
        let side = if roster.lan { Side::P1 } else { p.player };
        if side == Side::P2 && roster.p2 != Player::Person && p.button != Button::C {
            continue;
        }
        if roster.lan && p.button == Button::C {
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
    mut kit: FigureKit,
    mut sfx: MessageWriter<Sfx>,
) {
    let Some(keys) = keys else { return };
    if roster.entry.is_none() {
        keyboard.clear();
        if keys.just_pressed(KeyCode::Tab) && !roster.lan {
            roster.active = roster.active.other();
        }
        if keys.just_pressed(KeyCode::Enter) {
            roster.entry = Some(String::new());
            typing.0 = true;
        }
        return;
    }
    roster.idle = 0.0;
    let Some(entry) = roster.entry.as_mut() else {
        return;
    };
    let (edit, tab) = edit_entry(&mut keyboard, entry, 24);
    if tab && !roster.lan {
        roster.active = roster.active.other();
    }
    if edit == Edit::Cancel {
        roster.entry = None;
        typing.0 = false;
        return;
    }
    let submit = edit == Edit::Submit;
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
                false,
                &mut commands,
                &mut kit,
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

#[expect(
    clippy::too_many_arguments,
    reason = "a system: each argument is a resource or query it needs"
)]
fn receive(
    reads: Option<Res<Reads>>,
    collection: Option<Res<Collection>>,
    mut roster: ResMut<Roster>,
    cards: Res<Cards>,
    mut commands: Commands,
    mut kit: FigureKit,
    mut sfx: MessageWriter<Sfx>,
    settings: Res<Settings>,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(reads) = reads else { return };
    let got = reads.drain(roster.active);
    for (side, from, read, content) in got {
        roster.idle = 0.0;
        match read {
            Ok(r) => {
                let new = record(collection.as_deref(), &r, &from, content);
                add_card(
                    &mut roster,
                    &cards.0,
                    side,
                    r.card,
                    r.in_set,
                    new,
                    &mut commands,
                    &mut kit,
                    &mut sfx,
                );
            }
            // Scanning a team for a LAN table: a battle card is not a team.
            Err(Failed::Battle(_)) if roster.lan => {
                roster.teams[side.index()].message = Some((
                    "a battle card is not a card of a team: watch it from the replay gallery"
                        .into(),
                    true,
                ));
                sfx.write(Sfx(Sound::Refuse));
            }
            Err(Failed::Battle(text)) => match battle_card(&text, &cards.0, &settings) {
                Ok(replay) => {
                    // A battle card: its battle is played back.
                    sfx.write(Sfx(Sound::Button));
                    commands.insert_resource(PendingReplay(replay, "the battle card".to_string()));
                    next.set(Screen::Replay);
                    return;
                }
                Err(e) => {
                    roster.teams[side.index()].message = Some((e, true));
                    sfx.write(Sfx(Sound::Refuse));
                }
            },
            Err(Failed::Why(e)) => {
                let name = std::path::Path::new(&from)
                    .file_name()
                    .map_or(from.clone(), |n| n.to_string_lossy().into_owned());
                roster.teams[side.index()].message = Some((format!("{name}: {e}"), true));
                sfx.write(Sfx(Sound::Refuse));
            }
        }
    }
}

/// What the keys did to a text entry this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::arena) enum Edit {
    /// Still typing.
    Typing,
    /// Enter: take it.
    Submit,
    /// Esc: drop it.
    Cancel,
}

/// Edits a text entry with this frame's keys (letters, Backspace; at most
/// `max` characters); the second value says whether Tab was pressed.
pub(in crate::arena) fn edit_entry(
    keyboard: &mut MessageReader<KeyboardInput>,
    entry: &mut String,
    max: usize,
) -> (Edit, bool) {
    let mut tab = false;
    for k in keyboard.read() {
        if !k.state.is_pressed() {
            continue;
        }
        match k.key_code {
            KeyCode::Enter | KeyCode::NumpadEnter => return (Edit::Submit, tab),
            KeyCode::Escape => return (Edit::Cancel, tab),
            KeyCode::Backspace => {
                entry.pop();
            }
            KeyCode::Tab => tab = true,
            _ => {
                if let Some(text) = &k.text
                    && entry.chars().count() < max
                {
                    entry.extend(text.chars().filter(|c| !c.is_control()));
                }
            }
        }
    }
    (Edit::Typing, tab)
}

/// Keeps a card read in the collection (every read is kept); whether it
/// is NEW!, the first time this card was ever read.
fn record(collection: Option<&Collection>, r: &Resolved, from: &str, content: Option<u64>) -> bool {
    let camera = from == "camera";
    collection
        .and_then(|c| {
            c.record_scan(NewScan {
                card: CardRef {
                    number: r.card.number(),
                    name: r.card.name().to_string(),
                    data: (!r.in_set)
                        .then(|| crate::cards::write_ron(&r.card).ok())
                        .flatten(),
                },
                origin: if camera { Origin::Camera } else { Origin::File },
                place: Some(from.to_string()),
                code: None,
                digest: content.map(crate::collection::digest),
                count: 1,
                remove: false,
            })
        })
        .is_some_and(|rec| rec.first_ever)
}

/// A battle card's replay, checked to play back the same (and kept with
/// the other replays), or why it cannot be played here.
fn battle_card(
    text: &str,
    cards: &crate::cards::CardSet,
    settings: &Settings,
) -> Result<Replay<Match>, String> {
    use crate::replay::code;
    let decoded = code::decode(text).map_err(|e| e.to_string())?;
    if decoded.ruleset != <Match as crate::rules::Ruleset>::ID {
        return Err(format!(
            "a {} battle card: the scanner stages the {}; play it with `bterm replay PHOTO`",
            decoded.ruleset,
            <Match as crate::rules::Ruleset>::NAME
        ));
    }
    let replay = decoded.replay::<Match>().map_err(|e| e.to_string())?;
    replay
        .play(cards, |_| {})
        .map_err(|e| format!("this battle card does not play back: {e}"))?;
    let dir = settings
        .replay_dir
        .clone()
        .or_else(|| crate::save::data_dir().map(|d| d.join("replays")));
    if let Some(dir) = dir
        && let Err(e) = replay.save_in(&dir)
    {
        warn!("the battle card's replay is not saved: {e}");
    }
    Ok(replay)
}

fn start_when_ready(
    mut commands: Commands,
    mut roster: ResMut<Roster>,
    (settings, lan): (Res<Settings>, Option<Res<ScanReturn>>),
    cards: Res<Cards>,
    mut next: ResMut<NextState<Screen>>,
    mut started: MessageWriter<DuelStarted>,
    scanned: Query<Entity, With<ScannedFigure>>,
) {
    let timed_out = roster.idle >= settings.timeouts.scan_idle;
    let p2_ready = roster.p2 != Player::Person || roster.teams[1].ready;
    if !(timed_out || roster.teams[0].ready && p2_ready) {
        return;
    }
    // A team scanned for a LAN table goes back to its form, which takes it.
    if let Some(back) = lan {
        for e in &scanned {
            commands.entity(e).despawn();
        }
        next.set(back.back);
        return;
    }
    let seed = settings.seed.unwrap_or_else(clock_seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut teams: [Vec<(Card, bool)>; 2] =
        [roster.teams[0].cards.clone(), roster.teams[1].cards.clone()];
    for (i, team) in teams.iter_mut().enumerate() {
        let cpu = i == 1 && roster.p2 != Player::Person;
        if team.is_empty() && (timed_out || cpu) {
            *team = pick::accepted_team(&cards.0, &mut rng, DEMO_TRIES)
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
            roster.teams[0].message = Some((e.to_string(), true));
        }
    }
}
