//! The replay gallery: every saved replay (both rulesets), newest first,
//! with its players' cards, the winner, the date, the length, whether it
//! plays back the same (with the reason when not), and a picture of its
//! last moments when the arena saved one. Three buttons: A and B move, C
//! chooses; the chosen replay offers play, favourite, delete (asked
//! twice), back and exit. 45 s without a press goes back to attract.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

use crate::arena::play::duel::Duel;
use crate::arena::screens::result::PendingReplay;
use crate::arena::ui::input::{Button, Press};
use crate::arena::ui::sound::{Sfx, Sound};
use crate::arena::ui::theme::{label, palette, size, space};
use crate::arena::ui::widgets::Blink;
use crate::arena::ui::widgets::{centred_column, screen_layer};
use crate::arena::{AppSystems, Cards, Screen, Settings};
use crate::cards::CardSet;
use crate::replay::Replay;
use crate::replay::gallery::{self, Entry};
use crate::rules::terminal::Match;
use crate::rules::{Outcome, RulesetId};

/// Rows shown at once, around the chosen one.
const ROWS: usize = 5;
/// A thumbnail's size, pixels.
const THUMB: (u32, u32) = (160, 90);
/// The largest thumbnail file read.
const MAX_THUMB_BYTES: u64 = 8 << 20;

/// What the buttons do now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Moving through the replays.
    #[default]
    List,
    /// Choosing what to do with the chosen replay (index into [`ACTIONS`]).
    Actions(usize),
    /// Asked whether to delete it (0: keep, 1: delete).
    Confirm(usize),
}

/// What can be done with a replay.
pub const ACTIONS: [&str; 5] = ["PLAY", "FAVOURITE", "DELETE", "BACK", "EXIT"];

/// The gallery's state.
#[derive(Resource, Default)]
pub struct Gallery {
    /// The replay folder.
    pub dir: Option<PathBuf>,
    /// The replays, once read (`None` while they are being read).
    pub entries: Option<Vec<Entry>>,
    /// Favourite file names.
    pub favourites: std::collections::BTreeSet<String>,
    /// The chosen replay.
    pub chosen: usize,
    /// What the buttons do.
    pub mode: Mode,
    /// The last thing said (and whether it is a refusal).
    pub message: Option<(String, bool)>,
    loading: Option<Mutex<Receiver<Vec<Entry>>>>,
    /// The pictures of the rows on screen, by index (only those are held).
    thumbs: std::collections::HashMap<usize, Option<Handle<Image>>>,
    age: f32,
    fresh: bool,
    dirty: bool,
}

#[derive(Component)]
struct GalleryLayer;

/// The seconds left before attract, updated every frame (the rest of the
/// screen is drawn again only when something changes).
#[derive(Component)]
struct Countdown;

pub(in crate::arena) fn plugin(app: &mut App) {
    app.init_resource::<Gallery>()
        .add_systems(OnEnter(Screen::Gallery), enter)
        .add_systems(
            Update,
            (receive, buttons, draw, countdown)
                .chain()
                .run_if(in_state(Screen::Gallery))
                .in_set(AppSystems::Update),
        );
}

/// The thumbnail: a picture of a battle's last moments beside its replay,
/// taken when the arena saves it (windowed only).
pub(in crate::arena) fn thumbnail_plugin(app: &mut App) {
    app.add_systems(
        Update,
        take_thumbnail
            .run_if(in_state(Screen::Battle).or_else(in_state(Screen::Result)))
            .in_set(AppSystems::Update),
    );
}

/// Where a replay's thumbnail is kept.
pub fn thumbnail_path(replay: &Path) -> PathBuf {
    replay.with_extension("png")
}

fn take_thumbnail(
    mut commands: Commands,
    duel: Option<Res<Duel>>,
    mut taken: Local<Option<PathBuf>>,
) {
    let Some(Some(Ok(path))) = duel.as_ref().map(|d| d.host.saved()) else {
        return;
    };
    if taken.as_ref() == Some(path) {
        return;
    }
    *taken = Some(path.clone());
    let out = thumbnail_path(path);
    commands
        .spawn(Screenshot::primary_window())
        .observe(move |shot: On<ScreenshotCaptured>| {
            let Ok(img) = shot.image.clone().try_into_dynamic() else {
                return;
            };
            let small = img.thumbnail(THUMB.0 * 2, THUMB.1 * 2).to_rgb8();
            let mut bytes = Vec::new();
            if small
                .write_to(
                    &mut std::io::Cursor::new(&mut bytes),
                    image::ImageFormat::Png,
                )
                .is_ok()
                && let Err(e) = crate::save::write_new(&out, &bytes)
            {
                warn!("the replay's picture is not saved: {e}");
            }
        });
}

fn replay_dir(settings: &Settings) -> Option<PathBuf> {
    settings
        .replay_dir
        .clone()
        .or_else(|| crate::save::data_dir().map(|d| d.join("replays")))
}

/// Reads the folder's replays on a thread.
fn start_loading(g: &mut Gallery, cards: &CardSet) {
    g.entries = None;
    g.thumbs.clear();
    g.favourites = g
        .dir
        .as_deref()
        .map(gallery::favourites)
        .unwrap_or_default();
    let (tx, rx) = channel();
    let dir = g.dir.clone();
    let cards = cards.clone();
    std::thread::spawn(move || {
        let entries = match dir {
            Some(d) if d.is_dir() => gallery::list(&d, &cards).0,
            _ => Vec::new(),
        };
        let _ = tx.send(entries);
    });
    g.loading = Some(Mutex::new(rx));
    g.dirty = true;
}

fn enter(mut g: ResMut<Gallery>, settings: Res<Settings>, cards: Res<Cards>) {
    g.dir = replay_dir(&settings);
    g.mode = Mode::List;
    g.message = None;
    g.age = 0.0;
    g.fresh = true;
    start_loading(&mut g, &cards.0);
}

fn receive(mut g: ResMut<Gallery>) {
    let got = g
        .loading
        .as_ref()
        .and_then(|rx| rx.lock().ok().and_then(|rx| rx.try_recv().ok()));
    let Some(entries) = got else { return };
    g.loading = None;
    g.chosen = g.chosen.min(entries.len().saturating_sub(1));
    g.entries = Some(entries);
    g.dirty = true;
}

/// A thumbnail file as a texture, if there is a readable one.
fn load_thumbnail(path: &Path) -> Option<Image> {
    let bytes = crate::save::read_regular(path, MAX_THUMB_BYTES).ok()?;
    let img = image::load_from_memory(&bytes).ok()?;
    let rgba = img.thumbnail_exact(THUMB.0, THUMB.1).to_rgba8();
    Some(crate::arena::render::look::texture(
        THUMB.0,
        THUMB.1,
        rgba.into_raw(),
    ))
}

#[allow(clippy::too_many_arguments, reason = "a Bevy system")]
fn buttons(
    time: Res<Time>,
    mut presses: MessageReader<Press>,
    mut g: ResMut<Gallery>,
    cards: Res<Cards>,
    settings: Res<Settings>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut sfx: MessageWriter<Sfx>,
) {
    g.age += time.delta_secs();
    if std::mem::take(&mut g.fresh) {
        presses.clear();
        return;
    }
    let n = g.entries.as_ref().map_or(0, Vec::len);
    for p in presses.read() {
        g.age = 0.0;
        g.dirty = true;
        sfx.write(Sfx(Sound::Button));
        if n == 0 {
            // Nothing to browse: any button goes back.
            if g.entries.is_some() {
                next.set(Screen::Attract);
            }
            continue;
        }
        g.mode = match (g.mode, p.button) {
            (Mode::List, Button::A) => {
                g.chosen = (g.chosen + n - 1) % n;
                Mode::List
            }
            (Mode::List, Button::B) => {
                g.chosen = (g.chosen + 1) % n;
                Mode::List
            }
            (Mode::List, Button::C) => Mode::Actions(0),
            (Mode::Actions(i), Button::A) => Mode::Actions((i + ACTIONS.len() - 1) % ACTIONS.len()),
            (Mode::Actions(i), Button::B) => Mode::Actions((i + 1) % ACTIONS.len()),
            (Mode::Actions(i), Button::C) => act(i, &mut g, &mut commands, &mut next),
            (Mode::Confirm(i), Button::A | Button::B) => Mode::Confirm(1 - i),
            (Mode::Confirm(0), Button::C) => {
                g.message = Some(("kept".to_string(), false));
                Mode::List
            }
            (Mode::Confirm(_), Button::C) => {
                delete_chosen(&mut g, &cards.0);
                Mode::List
            }
        };
    }
    if g.age > settings.timeouts.gallery {
        next.set(Screen::Attract);
    }
}

/// Carries out action `i` on the chosen replay; returns the next mode.
fn act(i: usize, g: &mut Gallery, commands: &mut Commands, next: &mut NextState<Screen>) -> Mode {
    let Some(entry) = g.entries.as_ref().and_then(|e| e.get(g.chosen)).cloned() else {
        return Mode::List;
    };
    let name = file_name(&entry.path);
    match ACTIONS[i] {
        "PLAY" => {
            if let Some(problem) = &entry.problem {
                g.message = Some((format!("{name} does not play back: {problem}"), true));
                return Mode::List;
            }
            if let Some(r) = entry.ruleset {
                // A card game: on the table.
                if let Some(opened) =
                    crate::arena::play::table::open_replay(r, &entry.path, name.clone(), commands)
                {
                    match opened {
                        Ok(()) => next.set(Screen::Table),
                        Err(e) => g.message = Some((e.to_string(), true)),
                    }
                    return Mode::List;
                }
                if !crate::arena::screens::lan::STAGED.contains(&r) {
                    g.message = Some((
                        format!(
                            "{name}: {}; bterm replay print shows its events",
                            crate::arena::screens::lan::not_staged(r)
                        ),
                        true,
                    ));
                    return Mode::List;
                }
            }
            match Replay::<Match>::load(&entry.path) {
                Ok(replay) => {
                    commands.insert_resource(PendingReplay(replay, name));
                    next.set(Screen::Replay);
                }
                Err(e) => g.message = Some((e.to_string(), true)),
            }
            Mode::List
        }
        "FAVOURITE" => {
            let Some(dir) = g.dir.clone() else {
                return Mode::List;
            };
            let on = !g.favourites.contains(&name);
            match gallery::set_favourite(&dir, &entry.path, on) {
                Ok(()) => {
                    g.favourites = gallery::favourites(&dir);
                    let said = if on {
                        "marked as a favourite"
                    } else {
                        "no longer a favourite"
                    };
                    g.message = Some((format!("{name}: {said}"), false));
                }
                Err(e) => g.message = Some((format!("{name}: cannot mark it: {e}"), true)),
            }
            Mode::List
        }
        "DELETE" => Mode::Confirm(0),
        "EXIT" => {
            next.set(Screen::Attract);
            Mode::List
        }
        _ => Mode::List,
    }
}

fn delete_chosen(g: &mut Gallery, cards: &CardSet) {
    let (Some(dir), Some(entry)) = (
        g.dir.clone(),
        g.entries.as_ref().and_then(|e| e.get(g.chosen)).cloned(),
    ) else {
        return;
    };
    let name = file_name(&entry.path);
    match gallery::delete(&dir, &entry.path) {
        Ok(()) => {
            let thumb = thumbnail_path(&entry.path);
            if std::fs::symlink_metadata(&thumb).is_ok_and(|m| m.is_file()) {
                let _ = std::fs::remove_file(thumb);
            }
            g.message = Some((format!("{name} deleted"), false));
            start_loading(g, cards);
        }
        Err(e) => g.message = Some((format!("{name}: cannot delete it: {e}"), true)),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The words of one replay's row: heading, players, result.
fn row_text(e: &Entry, favourite: bool, cards: &CardSet) -> [String; 3] {
    let ruleset = e.ruleset.map_or("not a replay", RulesetId::name);
    let date = e.modified.map_or_else(
        || "unknown date".to_string(),
        crate::collection::time::format,
    );
    let star = if favourite { "★ " } else { "" };
    let head = format!("{star}{date} · {ruleset} · {}", file_name(&e.path));
    let players = e
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| format!("P{} {}", i + 1, gallery::seat_words(cards, s, 3)))
        .collect::<Vec<_>>()
        .join("  vs  ");
    let result = match (&e.problem, e.outcome) {
        (Some(p), _) => format!("does not play back: {p}"),
        (None, Some(Outcome::Win(s))) => format!("{s} won in {} actions · verified", e.actions),
        (None, Some(Outcome::Draw)) => format!("a draw in {} actions · verified", e.actions),
        (None, None) => format!("unfinished after {} actions · verified", e.actions),
    };
    [head, players, result]
}

fn countdown(
    g: Res<Gallery>,
    settings: Res<Settings>,
    mut texts: Query<&mut Text, With<Countdown>>,
) {
    let left = (settings.timeouts.gallery - g.age).max(0.0).ceil();
    for mut t in &mut texts {
        let words = format!("back to the start in {left} s");
        if t.0 != words {
            t.0 = words;
        }
    }
}

/// Loads the pictures of the rows from `first` (the others are let go, so
/// a folder of thousands of replays holds five pictures).
fn keep_thumbnails(g: &mut Gallery, first: usize, images: &mut Assets<Image>) {
    let Some(entries) = &g.entries else { return };
    let shown = first..(first + ROWS).min(entries.len());
    let paths: Vec<(usize, PathBuf)> = shown
        .clone()
        .filter(|i| !g.thumbs.contains_key(i))
        .map(|i| (i, thumbnail_path(&entries[i].path)))
        .collect();
    g.thumbs.retain(|i, _| shown.contains(i));
    for (i, path) in paths {
        let handle = load_thumbnail(&path).map(|img| images.add(img));
        g.thumbs.insert(i, handle);
    }
}

fn draw(
    mut commands: Commands,
    mut g: ResMut<Gallery>,
    cards: Res<Cards>,
    mut images: ResMut<Assets<Image>>,
    layers: Query<Entity, With<GalleryLayer>>,
) {
    if !std::mem::take(&mut g.dirty) {
        return;
    }
    let n = g.entries.as_ref().map_or(0, Vec::len);
    let first = g
        .chosen
        .saturating_sub(ROWS / 2)
        .min(n.saturating_sub(ROWS));
    keep_thumbnails(&mut g, first, &mut images);
    for e in &layers {
        commands.entity(e).despawn();
    }
    commands
        .spawn((
            GalleryLayer,
            screen_layer("Gallery", Screen::Gallery, space::WIDE, AlignItems::Center),
        ))
        .with_children(|root| {
            root.spawn(centred_column()).with_children(|top| {
                top.spawn(label("REPLAYS", size::HEADING, palette::GOLD));
                let count = match &g.entries {
                    None => "reading the replays…".to_string(),
                    Some(e) if e.is_empty() => String::new(),
                    Some(e) => format!("{} of {}", g.chosen + 1, e.len()),
                };
                top.spawn(label(count, size::BODY, palette::DIM));
            });
            root.spawn(Node {
                flex_direction: FlexDirection::Column,
                row_gap: px(space::LINE),
                width: percent(86),
                ..default()
            })
            .with_children(|list| {
                let Some(entries) = &g.entries else { return };
                if entries.is_empty() {
                    list.spawn(label(
                        "No replays yet: every battle played here is saved, and shown here",
                        size::NAME,
                        palette::SOFT,
                    ));
                    return;
                }
                for (i, e) in entries.iter().enumerate().skip(first).take(ROWS) {
                    let chosen = i == g.chosen;
                    let fav = g.favourites.contains(&file_name(&e.path));
                    let [head, players, result] = row_text(e, fav, &cards.0);
                    list.spawn((
                        Node {
                            flex_direction: FlexDirection::Row,
                            column_gap: px(space::WIDE),
                            padding: UiRect::all(px(space::PAD)),
                            border: UiRect::all(px(if chosen { 3.0 } else { 0.0 })),
                            align_items: AlignItems::Center,
                            ..default()
                        },
                        BorderColor::all(palette::GOLD),
                        BackgroundColor(if chosen {
                            palette::PANEL_REPLAY
                        } else {
                            palette::PANEL
                        }),
                    ))
                    .with_children(|row| {
                        let thumb = Node {
                            width: px(THUMB.0 as f32),
                            height: px(THUMB.1 as f32),
                            flex_shrink: 0.0,
                            align_items: AlignItems::Center,
                            justify_content: JustifyContent::Center,
                            ..default()
                        };
                        match g.thumbs.get(&i).cloned().flatten() {
                            Some(img) => {
                                row.spawn((ImageNode::new(img), thumb));
                            }
                            None => {
                                row.spawn((thumb, BackgroundColor(palette::FAINT)))
                                    .with_children(|t| {
                                        t.spawn(label(
                                            match e.ruleset {
                                                Some(r)
                                                    if crate::arena::play::table::TABLED
                                                        .contains(&r) =>
                                                {
                                                    r.key()
                                                }
                                                _ => "no picture",
                                            },
                                            size::SMALL,
                                            palette::DIM,
                                        ));
                                    });
                            }
                        }
                        row.spawn(Node {
                            flex_direction: FlexDirection::Column,
                            row_gap: px(space::TIGHT),
                            ..default()
                        })
                        .with_children(|words| {
                            let ink = if chosen {
                                palette::WHITE
                            } else {
                                palette::SOFT
                            };
                            words.spawn(label(
                                head,
                                size::BODY,
                                if fav { palette::GOLD } else { ink },
                            ));
                            words.spawn(label(players, size::SMALL, ink));
                            let colour = if e.verified() {
                                palette::GOOD
                            } else {
                                palette::BAD
                            };
                            words.spawn(label(result, size::SMALL, colour));
                        });
                    });
                }
            });
            root.spawn(centred_column()).with_children(|bottom| {
                if let Some((m, bad)) = &g.message {
                    bottom.spawn(label(
                        m.clone(),
                        size::BODY,
                        if *bad { palette::BAD } else { palette::GOOD },
                    ));
                }
                match g.mode {
                    Mode::List => {
                        let prompt = if g.entries.as_ref().is_some_and(Vec::is_empty) {
                            "any button: back"
                        } else {
                            "A up  ·  B down  ·  C choose"
                        };
                        bottom.spawn((Blink, label(prompt, size::PROMPT, palette::GOLD)));
                    }
                    Mode::Actions(k) => {
                        chip_row(bottom, &ACTIONS, k);
                        bottom.spawn(label("A / B move  ·  C chooses", size::SMALL, palette::DIM));
                    }
                    Mode::Confirm(k) => {
                        let name = g
                            .entries
                            .as_ref()
                            .and_then(|e| e.get(g.chosen))
                            .map(|e| file_name(&e.path))
                            .unwrap_or_default();
                        bottom.spawn(label(
                            format!("Delete {name} for good?"),
                            size::NAME,
                            palette::BAD,
                        ));
                        chip_row(bottom, &["KEEP IT", "DELETE"], k);
                    }
                }
                bottom.spawn((Countdown, label("", size::SMALL, palette::DIM)));
            });
        });
}

/// A row of choices, the `on`th lit.
fn chip_row(parent: &mut ChildSpawnerCommands, texts: &[&str], on: usize) {
    parent
        .spawn(Node {
            flex_direction: FlexDirection::Row,
            column_gap: px(space::WIDE),
            ..default()
        })
        .with_children(|chips| {
            for (j, t) in texts.iter().enumerate() {
                chip(chips, t, j == on);
            }
        });
}

fn chip(parent: &mut ChildSpawnerCommands, text: &str, on: bool) {
    parent
        .spawn((
            Node {
                padding: UiRect::axes(px(space::PAD_L), px(space::TIGHT)),
                border: UiRect::all(px(2.0)),
                ..default()
            },
            BorderColor::all(if on { palette::GOLD } else { palette::FAINT }),
            BackgroundColor(if on {
                palette::PANEL_REPLAY
            } else {
                palette::PANEL
            }),
        ))
        .with_children(|c| {
            c.spawn(label(
                text,
                size::PROMPT,
                if on { palette::GOLD } else { palette::DIM },
            ));
        });
}
