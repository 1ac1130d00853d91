//! The collector in the arena:
//! - the collection screen, reached from attract with B: each printed set
//!   is a page of cards standing in the arena like a binder page, owned
//!   cards showing their faces with their counts, missing ones as dark
//!   silhouettes, and the completion bars of the sets round the page.
//!   Buttons: A back, B the
//!   previous set, C the next; untouched, it goes back to attract.
//! - the rankings board that takes turns with the title on attract;
//! - what the arena writes: every card read on the scan screen (one batch
//!   per visit, so `bterm collection undo` takes a visit back) and every
//!   battle played.
//!
//! The collection is `Settings::collection`; without one (tests) or if it
//! cannot be opened, the arena plays on and keeps nothing.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Mutex;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};

use crate::arena::render::look::card_face;
use crate::arena::render::stage::{ArenaCamera, CameraShot};
use crate::arena::ui::input::{Button, Press};
use crate::arena::ui::sound::{Sfx, Sound};
use crate::arena::ui::theme::{centred_at, label, palette, size, space};
use crate::arena::ui::widgets::Blink;
use crate::arena::ui::widgets::{centred_column, screen_layer};
use crate::arena::{AppSystems, Cards, Screen, Settings};
use crate::cards::{Card, CardKind, CardNumber, CardSet};
use crate::collection::rankings::{BattleRecord, Rankings};
use crate::collection::sets::{PrintedSet, Sets};
use crate::collection::{Batch, NewScan, Recorded, Store};

/// The collection as the arena holds it.
#[derive(Resource)]
pub struct Collection {
    store: Option<Mutex<Store>>,
    batch: Mutex<Batch>,
    /// Why nothing is kept, when nothing is.
    pub closed: Option<String>,
}

impl Collection {
    /// Opens the collection at `path` (`None`: keep nothing).
    pub fn open(path: Option<&Path>) -> Collection {
        let (store, closed) = match path.map(Store::open) {
            Some(Ok(s)) => (Some(Mutex::new(s)), None),
            Some(Err(e)) => (None, Some(e.to_string())),
            None => (None, Some("no collection file was given".to_string())),
        };
        if let Some(why) = &closed {
            warn!("the arena keeps no collection: {why}");
        }
        Collection {
            store,
            batch: Mutex::new(Batch::new("arena scan screen")),
            closed,
        }
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T, crate::collection::StoreError>,
    ) -> Option<T> {
        let store = self.store.as_ref()?;
        let mut store = store.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut store).map_err(|e| warn!("collection: {e}")).ok()
    }

    /// Starts a new batch of scans (each visit to the scan screen).
    pub fn new_batch(&self) {
        *self.batch.lock().unwrap_or_else(|e| e.into_inner()) = Batch::new("arena scan screen");
    }

    /// Records a card read on the scan screen.
    pub fn record_scan(&self, scan: NewScan) -> Option<Recorded> {
        let mut batch = self.batch.lock().unwrap_or_else(|e| e.into_inner());
        self.with(|s| s.record(&mut batch, &[scan]))?
            .into_iter()
            .next()
    }

    /// Records a finished battle.
    pub fn record_battle(&self, record: &BattleRecord) {
        self.with(|s| s.record_battle(record));
    }

    /// Owned counts.
    pub fn owned(&self) -> BTreeMap<CardNumber, u32> {
        self.with(|s| s.owned()).unwrap_or_default()
    }

    /// The rankings (`None`: no collection).
    pub fn rankings(&self, top: usize) -> Option<Rankings> {
        self.with(|s| s.rankings(top))
    }
}

/// The pages of the binder: the printed sets, or (with card files that
/// are not the sample set's) one page of every card.
fn pages(cards: &CardSet) -> Vec<PrintedSet> {
    match Sets::embedded(cards) {
        Ok(sets) => sets.all().to_vec(),
        Err(_) => vec![PrintedSet {
            id: "all".into(),
            name: "Every card".into(),
            cards: cards.cards().iter().map(Card::number).collect(),
        }],
    }
}

/// The binder screen's state.
#[derive(Resource, Debug, Default)]
pub struct Binder {
    /// The page shown (an index into the sets).
    pub page: usize,
    /// Seconds since the last press.
    pub age: f32,
    /// The page the cards on stage show.
    shown: Option<usize>,
    /// Just opened: the press that opened it is not one for the page.
    fresh: bool,
    /// Visits so far (the counts are read again on each: cards scanned
    /// since the last one are owned now).
    visit: u32,
}

/// A card standing on the binder page.
#[derive(Component)]
struct BinderCard;

/// A count over an owned card, kept over it on screen.
#[derive(Component)]
struct Badge(Vec3);

/// The faces of owned cards, each drawn once (off the main thread: a face
/// takes tens of milliseconds) and kept while the game runs.
#[derive(Resource, Default)]
struct Faces {
    /// Each card's face, once drawn.
    drawn: HashMap<CardNumber, Handle<StandardMaterial>>,
    /// The quad every face is shown on (made once).
    quad: Option<Handle<Mesh>>,
}

impl Faces {
    /// `face` on the front of a binder card.
    fn on_card(
        &mut self,
        meshes: &mut Assets<Mesh>,
        face: Handle<StandardMaterial>,
    ) -> impl Bundle {
        let quad = self
            .quad
            .get_or_insert_with(|| meshes.add(Rectangle::new(CARD.x * 0.94, CARD.y * 0.94)));
        (
            Mesh3d(quad.clone()),
            MeshMaterial3d(face),
            Transform::from_xyz(0.0, 0.0, CARD.z / 2.0 + 0.002),
        )
    }
}

/// An owned card's face being drawn, for the binder card it goes on.
#[derive(Component)]
struct FaceTask(CardNumber, Task<Option<Image>>);

/// A face's texture size, pixels (the card's shape, sharp at 1080 lines).
const FACE_SIZE: (u32, u32) = (160, 224);

/// Which of the set chips show: a window of this many round the page (all
/// of them do not fit on one line).
const CHIPS_SHOWN: usize = 7;

/// A set's chip (its name, count and bar), shown when near the page.
#[derive(Component)]
struct ChipSlot(usize);

#[derive(Component)]
enum BinderText {
    Page,
    Bar,
    Countdown,
    Chip(usize),
    ChipBar(usize),
}

/// The attract screen's rankings board, and the title it takes turns with.
#[derive(Component)]
pub struct RankingsBoard;

/// The part of the attract screen the board takes turns with.
#[derive(Component)]
pub struct AttractTitle;

/// Whether the attract screen shows the rankings now.
#[derive(Resource, Debug, Default)]
pub struct AttractBoard {
    /// The board is up.
    pub showing: bool,
    /// Seconds in the current turn.
    pub age: f32,
}

/// A card on stage: metres.
const CARD: Vec3 = Vec3::new(0.59, 0.86, 0.03);
/// Distance between cards on the page, metres.
const PITCH: Vec2 = Vec2::new(0.74, 1.04);
/// The page's centre.
const PAGE_CENTRE: Vec3 = Vec3::new(0.0, 2.4, 0.0);
/// At most this many cards in a row.
const COLUMNS: usize = 11;

pub(in crate::arena) fn plugin(app: &mut App) {
    app.init_resource::<Binder>()
        .init_resource::<AttractBoard>()
        .init_resource::<Faces>()
        .add_systems(Startup, open)
        .add_systems(OnEnter(Screen::Collection), enter)
        .add_systems(OnExit(Screen::Collection), leave)
        .add_systems(OnEnter(Screen::Scan), |c: Option<Res<Collection>>| {
            if let Some(c) = c {
                c.new_batch();
            }
        })
        .add_systems(OnEnter(Screen::Result), record_result)
        .add_systems(OnEnter(Screen::Attract), spawn_board)
        .add_systems(
            Update,
            (
                buttons,
                // Before the page changes: a face drawn for a card of the
                // old page goes on it before it goes (no command for a card
                // already gone).
                put_faces,
                show_page,
                place_badges,
                draw,
                show_chips,
            )
                .chain()
                .run_if(in_state(Screen::Collection))
                .in_set(AppSystems::Update),
        )
        .add_systems(
            Update,
            take_turns
                .run_if(in_state(Screen::Attract))
                .in_set(AppSystems::Update),
        );
}

fn open(mut commands: Commands, settings: Res<Settings>) {
    commands.insert_resource(Collection::open(settings.collection.as_deref()));
}

fn record_result(
    duel: Option<Res<crate::arena::play::duel::Duel>>,
    collection: Option<Res<Collection>>,
) {
    if let (Some(duel), Some(c)) = (duel, collection) {
        c.record_battle(&BattleRecord::terminal(duel.host.table(), "arena"));
    }
}

fn enter(
    mut commands: Commands,
    mut binder: ResMut<Binder>,
    mut shot: ResMut<CameraShot>,
    cards: Res<Cards>,
    collection: Option<Res<Collection>>,
) {
    *shot = CameraShot::Binder;
    binder.age = 0.0;
    binder.shown = None;
    binder.fresh = true;
    binder.visit = binder.visit.wrapping_add(1);
    let pages = pages(&cards.0);
    binder.page = binder.page.min(pages.len().saturating_sub(1));
    let owned = collection.map(|c| c.owned()).unwrap_or_default();
    let has_cards = !owned.is_empty();
    commands
        .spawn(screen_layer(
            "Collection",
            Screen::Collection,
            space::WIDE,
            AlignItems::Center,
        ))
        .with_children(|root| {
            root.spawn(centred_column()).with_children(|top| {
                top.spawn(label("YOUR COLLECTION", size::HEADING, palette::GOLD));
                top.spawn((BinderText::Page, label("", size::NAME, palette::WHITE)));
                top.spawn(bar(BinderText::Bar, 360.0, 10.0));
            });
            root.spawn(Node {
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                row_gap: px(space::LINE),
                ..default()
            })
            .with_children(|bottom| {
                if !has_cards {
                    bottom.spawn(label(
                        "No cards yet: scan yours on the scan screen, or with `bterm scan`",
                        size::BODY,
                        palette::SOFT,
                    ));
                }
                bottom
                    .spawn((
                        Node {
                            flex_direction: FlexDirection::Row,
                            column_gap: px(space::WIDE),
                            padding: UiRect::all(px(space::PAD)),
                            ..default()
                        },
                        BackgroundColor(palette::PANEL),
                    ))
                    .with_children(|chips| {
                        for (i, set) in pages.iter().enumerate() {
                            chips
                                .spawn((
                                    ChipSlot(i),
                                    Node {
                                        flex_direction: FlexDirection::Column,
                                        align_items: AlignItems::Center,
                                        row_gap: px(space::TIGHT),
                                        ..default()
                                    },
                                ))
                                .with_children(|chip| {
                                    let have =
                                        set.cards.iter().filter(|n| owned.contains_key(n)).count();
                                    chip.spawn((
                                        BinderText::Chip(i),
                                        label(
                                            format!("{}  {have}/{}", set.id, set.cards.len()),
                                            size::SMALL,
                                            palette::DIM,
                                        ),
                                    ));
                                    chip.spawn(bar(BinderText::ChipBar(i), 110.0, 6.0));
                                });
                        }
                    });
                bottom.spawn((
                    Blink,
                    label(
                        "A back  ·  B previous set  ·  C next set",
                        size::PROMPT,
                        palette::GOLD,
                    ),
                ));
                bottom.spawn((BinderText::Countdown, label("", size::SMALL, palette::DIM)));
            });
        });
}

/// A completion bar: a track with a fill whose width is set by `draw`.
fn bar(which: BinderText, width: f32, height: f32) -> impl Bundle {
    (
        Node {
            width: px(width),
            height: px(height),
            ..default()
        },
        BackgroundColor(palette::TRACK),
        children![(
            which,
            Node {
                width: percent(0),
                height: percent(100),
                ..default()
            },
            BackgroundColor(palette::GOOD),
        )],
    )
}

fn leave(mut shot: ResMut<CameraShot>, mut binder: ResMut<Binder>) {
    *shot = CameraShot::Orbit;
    binder.shown = None;
}

fn buttons(
    time: Res<Time>,
    mut presses: MessageReader<Press>,
    mut binder: ResMut<Binder>,
    cards: Res<Cards>,
    settings: Res<Settings>,
    mut next: ResMut<NextState<Screen>>,
    mut sfx: MessageWriter<Sfx>,
) {
    binder.age += time.delta_secs();
    if std::mem::take(&mut binder.fresh) {
        presses.clear();
        return;
    }
    let n = pages(&cards.0).len().max(1);
    for p in presses.read() {
        binder.age = 0.0;
        sfx.write(Sfx(Sound::Button));
        match p.button {
            Button::A => next.set(Screen::Attract),
            Button::B => binder.page = (binder.page + n - 1) % n,
            Button::C => binder.page = (binder.page + 1) % n,
        }
    }
    if binder.age > settings.timeouts.collection {
        next.set(Screen::Attract);
    }
}

/// The colour of an owned card: its Field's, or its kind's.
fn card_colour(card: Option<&Card>) -> Color {
    match card {
        Some(Card::Digimon(d)) => {
            let [r, g, b] = crate::barcode::print::field_colour(d.field);
            Color::srgb_u8(r, g, b)
        }
        Some(c) if c.kind() == CardKind::Command => palette::COMMAND_CARD,
        _ => palette::OPTION_CARD,
    }
}

/// What stands on a binder page: the cards and their labels.
type OnPage = Or<(With<BinderCard>, With<Badge>)>;

/// Puts the current page's cards on stage when the page changes.
fn show_page(
    mut commands: Commands,
    mut binder: ResMut<Binder>,
    (cards, collection, mut faces): (Res<Cards>, Option<Res<Collection>>, ResMut<Faces>),
    old: Query<Entity, OnPage>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    if binder.shown == Some(binder.page) {
        return;
    }
    binder.shown = Some(binder.page);
    for e in &old {
        commands.entity(e).despawn();
    }
    let pages = pages(&cards.0);
    let Some(page) = pages.get(binder.page) else {
        return;
    };
    let owned = collection.map(|c| c.owned()).unwrap_or_default();
    let body = meshes.add(Cuboid::from_size(CARD));
    let silhouette = materials.add(StandardMaterial {
        base_color: palette::SILHOUETTE,
        perceptual_roughness: 0.9,
        ..default()
    });
    let columns = page.cards.len().clamp(1, COLUMNS);
    let rows = page.cards.len().div_ceil(columns);
    for (i, number) in page.cards.iter().enumerate() {
        let (col, row) = (i % columns, i / columns);
        let at = PAGE_CENTRE
            + Vec3::new(
                (col as f32 - (columns as f32 - 1.0) / 2.0) * PITCH.x,
                ((rows as f32 - 1.0) / 2.0 - row as f32) * PITCH.y,
                0.0,
            );
        let count = owned.get(number).copied().unwrap_or(0);
        // Its number over its top edge, between the rows: what a collector
        // looks for (an owned card's face is too small to read it on).
        commands.spawn((
            Badge(at + Vec3::new(0.0, CARD.y / 2.0 + (PITCH.y - CARD.y) / 2.0, CARD.z)),
            DespawnOnExit(Screen::Collection),
            Node {
                position_type: PositionType::Absolute,
                ..default()
            },
            label(
                number.to_string(),
                size::TINY,
                if count == 0 {
                    palette::DIM
                } else {
                    palette::WHITE
                },
            ),
        ));
        let mut card = commands.spawn((
            BinderCard,
            DespawnOnExit(Screen::Collection),
            Name::new(format!("Binder {number}")),
            Mesh3d(body.clone()),
            Transform::from_translation(at),
        ));
        if count == 0 {
            card.insert(MeshMaterial3d(silhouette.clone()));
            continue;
        }
        let data = cards.0.get(number);
        let colour = card_colour(data);
        card.insert(MeshMaterial3d(materials.add(StandardMaterial {
            base_color: colour,
            emissive: colour.to_linear() * 0.35,
            ..default()
        })));
        // Its face: at once if drawn before, else when drawn.
        match (faces.drawn.get(number).cloned(), data) {
            (Some(face), _) => {
                let face = faces.on_card(&mut meshes, face);
                card.with_children(|c| {
                    c.spawn(face);
                });
            }
            (None, Some(data)) => {
                let data = data.clone();
                let task = AsyncComputeTaskPool::get()
                    .spawn(async move { card_face(&data, FACE_SIZE.0, FACE_SIZE.1) });
                card.insert(FaceTask(*number, task));
            }
            (None, None) => {}
        }
        commands.spawn((
            Badge(at + Vec3::new(0.0, -CARD.y * 0.36, CARD.z)),
            DespawnOnExit(Screen::Collection),
            Node {
                position_type: PositionType::Absolute,
                ..default()
            },
            label(format!("×{count}"), size::BODY, palette::WHITE),
        ));
    }
}

/// Puts each face on its card as its drawing finishes.
fn put_faces(
    mut commands: Commands,
    mut faces: ResMut<Faces>,
    mut tasks: Query<(Entity, &mut FaceTask)>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    for (card, mut task) in &mut tasks {
        let Some(image) = check_ready(&mut task.1) else {
            continue;
        };
        commands.entity(card).remove::<FaceTask>();
        let Some(image) = image else { continue };
        let face = materials.add(StandardMaterial {
            // A little under white: the page does not bloom.
            base_color: Color::srgb(0.95, 0.95, 0.97),
            base_color_texture: Some(images.add(image)),
            unlit: true,
            ..default()
        });
        faces.drawn.insert(task.0, face.clone());
        let face = faces.on_card(&mut meshes, face);
        commands.entity(card).with_children(|c| {
            c.spawn(face);
        });
    }
}

/// Shows the chips of the sets near the page, hides the others.
fn show_chips(binder: Res<Binder>, mut chips: Query<(&ChipSlot, &mut Node)>) {
    let n = chips.iter().count();
    let first = chip_window(binder.page, n);
    for (slot, mut node) in &mut chips {
        let display = if (first..first + CHIPS_SHOWN).contains(&slot.0) {
            Display::Flex
        } else {
            Display::None
        };
        if node.display != display {
            node.display = display;
        }
    }
}

/// The first chip shown for `page` among `n` sets: the page in the middle
/// of the window, the window inside the row.
fn chip_window(page: usize, n: usize) -> usize {
    page.saturating_sub(CHIPS_SHOWN / 2)
        .min(n.saturating_sub(CHIPS_SHOWN))
}

/// Keeps each count over its card on screen.
fn place_badges(
    camera: Single<(&Camera, &GlobalTransform), With<ArenaCamera>>,
    scale: Res<UiScale>,
    mut badges: Query<(&Badge, &mut Node, &ComputedNode)>,
) {
    let (camera, at) = *camera;
    for (badge, mut node, computed) in &mut badges {
        if let Some((left, top)) = centred_at((camera, at), badge.0, scale.0, Some(computed)) {
            node.left = left;
            node.top = top;
        }
    }
}

#[expect(
    clippy::type_complexity,
    reason = "a system: the texts and bars it writes"
)]
fn draw(
    binder: Res<Binder>,
    cards: Res<Cards>,
    settings: Res<Settings>,
    collection: Option<Res<Collection>>,
    mut texts: Query<(
        &BinderText,
        Option<&mut Text>,
        Option<&mut Node>,
        Option<&mut TextColor>,
    )>,
    mut owned_cache: Local<Option<((usize, u32), BTreeMap<CardNumber, u32>)>>,
) {
    let pages = pages(&cards.0);
    // Read the counts once per page shown in a visit.
    let key = (binder.page, binder.visit);
    if owned_cache.as_ref().is_none_or(|(k, _)| *k != key) {
        let owned = collection.map(|c| c.owned()).unwrap_or_default();
        *owned_cache = Some((key, owned));
    }
    let Some((_, owned)) = owned_cache.as_ref() else {
        return;
    };
    let done = |set: &PrintedSet| {
        let have = set.cards.iter().filter(|n| owned.contains_key(n)).count();
        (have, set.cards.len().max(1))
    };
    for (which, text, node, colour) in &mut texts {
        match which {
            BinderText::Page => {
                if let (Some(mut t), Some(set)) = (text, pages.get(binder.page)) {
                    let (have, total) = done(set);
                    let value = format!(
                        "{}  ·  {have} of {total} cards  ·  {}%",
                        set.name,
                        have * 100 / total
                    );
                    if t.0 != value {
                        t.0 = value;
                    }
                }
            }
            BinderText::Bar => {
                if let (Some(mut n), Some(set)) = (node, pages.get(binder.page)) {
                    let (have, total) = done(set);
                    n.width = percent(have as f32 * 100.0 / total as f32);
                }
            }
            BinderText::ChipBar(i) => {
                if let (Some(mut n), Some(set)) = (node, pages.get(*i)) {
                    let (have, total) = done(set);
                    n.width = percent(have as f32 * 100.0 / total as f32);
                }
            }
            BinderText::Chip(i) => {
                if let Some(mut c) = colour {
                    c.0 = if *i == binder.page {
                        palette::GOLD
                    } else {
                        palette::DIM
                    };
                }
            }
            BinderText::Countdown => {
                if let Some(mut t) = text {
                    let value = format!(
                        "Back to the start in {} s",
                        (settings.timeouts.collection - binder.age).max(0.0).ceil()
                    );
                    if t.0 != value {
                        t.0 = value;
                    }
                }
            }
        }
    }
}

/// The rankings board on attract, hidden until its turn.
fn spawn_board(
    mut commands: Commands,
    cards: Res<Cards>,
    settings: Res<Settings>,
    collection: Option<Res<Collection>>,
    mut board: ResMut<AttractBoard>,
) {
    *board = AttractBoard::default();
    if settings.opens_on_replay() {
        return;
    }
    let rankings = collection.as_ref().and_then(|c| c.rankings(5));
    let owned = collection.map(|c| c.owned()).unwrap_or_default();
    let name = |n: &CardNumber| {
        cards
            .0
            .get(n)
            .map_or_else(|| n.to_string(), |c| c.name().to_string())
    };
    let mut lines: Vec<(String, f32, Color)> = Vec::new();
    match &rankings {
        Some(r) if r.battles > 0 => {
            lines.push((
                format!(
                    "Challenger streak {}  ·  best {}  ·  {} battles",
                    r.streak, r.best_streak, r.battles
                ),
                size::NAME,
                palette::WHITE,
            ));
            lines.push((
                "TOP DIGIMON  (wins – losses)".into(),
                size::VALUE,
                palette::SKY,
            ));
            for c in &r.cards {
                lines.push((
                    format!("{} – {}   {}", c.wins, c.losses, name(&c.card)),
                    size::BODY,
                    palette::INK,
                ));
            }
            if let Some(t) = r.teams.first() {
                lines.push(("BEST TEAM".into(), size::VALUE, palette::SKY));
                lines.push((
                    format!(
                        "{}   ({} wins of {})",
                        t.team.iter().map(name).collect::<Vec<_>>().join(" · "),
                        t.wins,
                        t.battles
                    ),
                    size::BODY,
                    palette::INK,
                ));
            }
        }
        _ => lines.push((
            "No battles yet: be the first challenger!".into(),
            size::NAME,
            palette::WHITE,
        )),
    }
    let copies: u32 = owned.values().sum();
    lines.push((
        format!(
            "Collection: {copies} cards, {} of {} different  ·  B to look",
            owned.len(),
            cards.0.len()
        ),
        size::BODY,
        palette::SOFT,
    ));
    commands
        .spawn((
            RankingsBoard,
            DespawnOnExit(Screen::Attract),
            Visibility::Hidden,
            Node {
                position_type: PositionType::Absolute,
                width: percent(100),
                height: percent(100),
                flex_direction: FlexDirection::Column,
                justify_content: JustifyContent::FlexStart,
                align_items: AlignItems::Center,
                padding: UiRect::top(px(space::WIDE * 2.0)),
                ..default()
            },
        ))
        .with_children(|root| {
            root.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Center,
                    row_gap: px(space::LINE),
                    padding: UiRect::axes(px(space::WIDE * 2.0), px(space::WIDE)),
                    ..default()
                },
                BackgroundColor(palette::PANEL),
            ))
            .with_children(|panel| {
                panel.spawn(label("RANKINGS", size::HEADLINE, palette::GOLD));
                for (text, s, c) in lines {
                    panel.spawn(label(text, s, c));
                }
            });
        });
}

/// The title and the rankings board take turns.
fn take_turns(
    time: Res<Time>,
    settings: Res<Settings>,
    mut board: ResMut<AttractBoard>,
    mut shown: Query<&mut Visibility, (With<RankingsBoard>, Without<AttractTitle>)>,
    mut title: Query<&mut Visibility, (With<AttractTitle>, Without<RankingsBoard>)>,
) {
    board.age += time.delta_secs();
    if board.age > settings.timeouts.attract_board {
        board.age = 0.0;
        board.showing = !board.showing;
    }
    let (on, off) = if board.showing {
        (Visibility::Inherited, Visibility::Hidden)
    } else {
        (Visibility::Hidden, Visibility::Inherited)
    };
    for mut v in &mut shown {
        v.set_if_neq(on);
    }
    for mut v in &mut title {
        v.set_if_neq(off);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chips_shown_hold_the_page_and_stay_inside_the_row() {
        for n in [1, 5, CHIPS_SHOWN, 13] {
            for page in 0..n {
                let first = chip_window(page, n);
                assert!(
                    (first..first + CHIPS_SHOWN).contains(&page),
                    "{page} of {n}"
                );
                assert!(first + CHIPS_SHOWN.min(n) <= n, "{page} of {n}");
            }
        }
        // In the middle of a long row, the page is the middle chip.
        assert_eq!(chip_window(6, 13), 3);
    }
}
