//! The deck screen: one seat's card game deck (the Card Game Alpha's 32
//! cards, the Digimon Card Game's 50 and up to 5 Digi-Eggs) read from the
//! webcam, image files dropped on the window, or card numbers typed. Each
//! card is checked as it comes by the game's deck rules (the deck is not
//! full, the card is not at its limit, it is a card of the set and of the
//! game) and a refusal shows at once in the rules' words; the rules for
//! the whole deck are settled when it is done. The last card read shows
//! its printed face.
//!
//! Buttons: A done (with a full deck), B takes back the last card, C held
//! goes back to the setup (the cards scanned so far are kept for next
//! time). Enter types a card number, or a count and a card (`3 Agumon`).
//! The mouse clicks the same three. Nothing done for a minute goes back.

use bevy::input::keyboard::KeyboardInput;
use bevy::prelude::*;
use bevy::window::FileDragAndDrop;

use super::ScanReturn;
use super::reads::{Failed, PREVIEW, Reads, read_files, show_preview};
use super::ui::said;
use super::{Edit, edit_entry, record};
use crate::arena::render::look::rgb_texture;
use crate::arena::screens::collection::Collection;
use crate::arena::screens::lobby::{DeckChoice, DeckSeat, Lobby};
use crate::arena::ui::input::{Button, Moves, Press, Typing};
use crate::arena::ui::sound::{Sfx, Sound};
use crate::arena::ui::theme::{label, palette, size, space};
use crate::arena::ui::widgets::{centred_column, screen_layer};
use crate::arena::{AppSystems, Cards, Screen, Settings};
use crate::cards::{Card, CardNumber, CardSet};
use crate::rules::DeckRules;
use crate::rules::terminal::Side;

/// Seconds without any input before the screen goes back to the setup.
pub const DECK_IDLE: f32 = 60.0;
/// The most copies one typed line adds.
const MOST_TYPED: usize = 4;

/// The deck being scanned.
#[derive(Resource, Debug)]
pub struct DeckScan {
    /// Whose deck (0-based seat).
    pub seat: usize,
    /// The game's deck rules.
    pub rules: DeckRules,
    /// The cards so far, in the order read.
    pub cards: Vec<CardNumber>,
    /// The last thing said, and whether it was a refusal.
    pub message: Option<(String, bool)>,
    /// The number being typed, while the entry is open.
    pub entry: Option<String>,
    /// Seconds without input.
    pub idle: f32,
    /// The last card read, shown by its face.
    face: Handle<Image>,
    shown: Option<CardNumber>,
}

impl DeckScan {
    /// Adds a card if the deck rules allow it; says so either way. `true`
    /// if it joined.
    pub fn add(&mut self, card: &Card, in_set: bool, new: bool, cards: &CardSet) -> bool {
        let checked = if in_set {
            (self.rules.may_add)(&self.cards, card, cards)
        } else {
            Err(format!(
                "{} ({}) is not a card of the set (a custom card): a deck is built from the set's cards",
                card.name(),
                card.number()
            ))
        };
        match checked {
            Err(e) => {
                self.message = Some((e, true));
                false
            }
            Ok(()) => {
                self.cards.push(card.number());
                let said = format!(
                    "{} joins the deck ({})",
                    card.name(),
                    (self.rules.count)(&self.cards, cards)
                );
                self.message = Some((if new { format!("NEW! {said}") } else { said }, false));
                true
            }
        }
    }

    /// Whether the deck is done and passes every deck rule.
    pub fn finished(&self, cards: &CardSet) -> Result<(), String> {
        let count = (self.rules.count)(&self.cards, cards);
        match (self.rules.left)(&self.cards, cards) {
            0 => (self.rules.check)(&self.cards, cards).map_err(|e| format!("{count}: {e}")),
            left => Err(format!("{count}: scan {left} more")),
        }
    }
}

#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
enum DeckText {
    Count,
    List(usize),
    Message,
    Entry,
}

/// The three things the screen does, as the mouse clicks them.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
enum DeckButton {
    Done,
    TakeBack,
    Back,
}

#[derive(Component)]
struct Face;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::DeckScreen), enter)
        .add_systems(OnExit(Screen::DeckScreen), leave)
        .add_systems(
            Update,
            (buttons, typing, dropped, receive, show_preview, draw)
                .chain()
                .run_if(in_state(Screen::DeckScreen))
                .in_set(AppSystems::Update),
        );
}

fn enter(
    mut commands: Commands,
    settings: Res<Settings>,
    cards: Res<Cards>,
    lobby: Res<Lobby>,
    seat: Option<Res<DeckSeat>>,
    lan: Option<Res<ScanReturn>>,
    (mut images, mut next): (ResMut<Assets<Image>>, ResMut<NextState<Screen>>),
) {
    let seat = seat.map_or(0, |s| s.0).min(3);
    // A deck for the LAN form's game, or the setup's.
    let game = lan.map_or(lobby.game, |l| l.game);
    let Some(rules) = game.deck_rules() else {
        // Nothing to build: its seats bring no decks.
        next.set(Screen::TableSetup);
        return;
    };
    let (reads, live_error) = Reads::open(&settings, &cards.0, &mut images, false);
    let face = images.add(crate::arena::render::look::texture(1, 1, vec![0, 0, 0, 0]));
    spawn_ui(
        &mut commands,
        (seat, rules.size),
        face.clone(),
        reads.preview_image.clone(),
    );
    let cards_so_far = lobby.scanned[seat].clone();
    let message = live_error.or_else(|| {
        (!cards_so_far.is_empty()).then(|| {
            (
                format!("{} cards from last time", cards_so_far.len()),
                false,
            )
        })
    });
    commands.insert_resource(DeckScan {
        seat,
        rules,
        cards: cards_so_far,
        message,
        entry: None,
        idle: 0.0,
        face,
        shown: None,
    });
    commands.insert_resource(reads);
}

fn leave(
    mut commands: Commands,
    reads: Option<ResMut<Reads>>,
    mut typing: ResMut<Typing>,
    scan: Option<Res<DeckScan>>,
    mut lobby: ResMut<Lobby>,
) {
    typing.0 = false;
    if let Some(mut r) = reads {
        r.live = None;
    }
    // However the screen is left (Esc too), the cards read are kept.
    if let Some(scan) = scan {
        lobby.scanned[scan.seat].clone_from(&scan.cards);
    }
    commands.remove_resource::<Reads>();
    commands.remove_resource::<DeckScan>();
    commands.remove_resource::<DeckSeat>();
}

fn spawn_ui(
    commands: &mut Commands,
    (seat, size_text): (usize, &str),
    face: Handle<Image>,
    preview: Option<Handle<Image>>,
) {
    let ink = palette::INK;
    commands
        .spawn(screen_layer(
            "Deck screen",
            Screen::DeckScreen,
            20.0,
            AlignItems::Default,
        ))
        .with_children(|root| {
            root.spawn(centred_column()).with_children(|t| {
                t.spawn(label(
                    format!("P{}'S DECK: {}", seat + 1, size_text.to_uppercase()),
                    size::HEADING,
                    palette::GOLD,
                ));
                t.spawn((DeckText::Count, label("", size::VALUE, ink)));
            });
            root.spawn(Node {
                flex_direction: FlexDirection::Row,
                justify_content: JustifyContent::SpaceBetween,
                align_items: AlignItems::FlexStart,
                flex_grow: 1.0,
                margin: UiRect::vertical(px(12)),
                column_gap: px(space::WIDE),
                ..default()
            })
            .with_children(|row| {
                row.spawn((
                    Node {
                        flex_grow: 1.0,
                        flex_direction: FlexDirection::Row,
                        column_gap: px(24),
                        padding: UiRect::all(px(12)),
                        ..default()
                    },
                    BackgroundColor(palette::PANEL),
                ))
                .with_children(|p| {
                    for i in 0..2 {
                        p.spawn((DeckText::List(i), label("", size::BODY, ink)));
                    }
                });
                row.spawn(Node {
                    flex_direction: FlexDirection::Column,
                    row_gap: px(space::ITEM),
                    align_items: AlignItems::FlexEnd,
                    ..default()
                })
                .with_children(|c| {
                    c.spawn((
                        Face,
                        ImageNode::new(face),
                        Node {
                            width: px(186),
                            height: px(260),
                            ..default()
                        },
                    ));
                    if let Some(img) = preview {
                        c.spawn((
                            ImageNode::new(img),
                            Node {
                                width: px(PREVIEW.0 as f32),
                                height: px(PREVIEW.1 as f32),
                                border: UiRect::all(px(2)),
                                ..default()
                            },
                            BorderColor::all(palette::FRAME),
                        ));
                    }
                });
            });
            root.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    padding: UiRect::all(px(space::PAD_L)),
                    row_gap: px(space::LINE),
                    ..default()
                },
                BackgroundColor(palette::PANEL),
            ))
            .with_children(|b| {
                b.spawn((DeckText::Message, label("", size::BODY, ink)));
                b.spawn((DeckText::Entry, label("", size::SMALL, palette::DIM)));
                b.spawn(Node {
                    flex_direction: FlexDirection::Row,
                    column_gap: px(space::WIDE),
                    ..default()
                })
                .with_children(|r| {
                    for (which, text, button) in [
                        (DeckButton::Done, "A  DONE", Button::A),
                        (DeckButton::TakeBack, "B  TAKE BACK THE LAST", Button::B),
                        (DeckButton::Back, "HOLD C  BACK TO THE SETUP", Button::C),
                    ] {
                        r.spawn((
                            which,
                            Interaction::default(),
                            Node {
                                padding: UiRect::axes(px(12), px(6)),
                                border: UiRect::all(px(2)),
                                ..default()
                            },
                            BorderColor::all(button.colour()),
                        ))
                        .with_child(label(
                            text,
                            size::PROMPT,
                            palette::WHITE,
                        ));
                    }
                });
            });
        });
}

/// Back to the setup with the cards so far: a finished deck is the seat's
/// deck; an unfinished one is kept for next time and the seat keeps a
/// shipped deck meanwhile.
fn back_to_setup(scan: &DeckScan, lobby: &mut Lobby, cards: &CardSet) {
    lobby.scanned[scan.seat].clone_from(&scan.cards);
    if scan.finished(cards).is_ok() {
        lobby.decks[scan.seat] = DeckChoice::Scanned(scan.cards.clone());
    } else {
        lobby.decks[scan.seat] = DeckChoice::Shipped(0);
        lobby.problem = Some(format!(
            "P{}'s deck is not finished ({}): P{} plays {} until it is",
            scan.seat + 1,
            (scan.rules.count)(&scan.cards, cards),
            scan.seat + 1,
            lobby.game.house_deck_label(lobby.format_word(), 0, cards)
        ));
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "a system: each argument is a resource or query it needs"
)]
fn buttons(
    time: Res<Time>,
    mut presses: MessageReader<Press>,
    mut moves: Moves,
    clicks: Query<(&Interaction, &DeckButton), Changed<Interaction>>,
    mut scan: ResMut<DeckScan>,
    (mut lobby, mut lan): (ResMut<Lobby>, Option<ResMut<ScanReturn>>),
    cards: Res<Cards>,
    mut sfx: MessageWriter<Sfx>,
    mut next: ResMut<NextState<Screen>>,
) {
    // Back to the setup, or to the LAN form the deck is scanned for (which
    // takes a finished deck; the setup's decks are left as they were).
    let back = lan.as_ref().map_or(Screen::TableSetup, |l| l.back);
    let mut done = |scan: &DeckScan, lobby: &mut Lobby, cards: &CardSet| match lan.as_deref_mut() {
        Some(l) => {
            lobby.scanned[scan.seat].clone_from(&scan.cards);
            l.deck = scan.finished(cards).map(|()| scan.cards.clone());
        }
        None => back_to_setup(scan, lobby, cards),
    };
    scan.idle += time.delta_secs();
    let mut pressed: Vec<DeckButton> = presses
        .read()
        .filter_map(|p| match p.button {
            Button::A => Some(DeckButton::Done),
            Button::B => Some(DeckButton::TakeBack),
            Button::C => None,
        })
        .collect();
    if moves.read().back {
        pressed.push(DeckButton::Back);
    }
    pressed.extend(
        clicks
            .iter()
            .filter(|(i, _)| **i == Interaction::Pressed)
            .map(|(_, b)| *b),
    );
    for b in pressed {
        scan.idle = 0.0;
        sfx.write(Sfx(Sound::Button));
        match b {
            DeckButton::Done => match scan.finished(&cards.0) {
                Ok(()) => {
                    done(&scan, &mut lobby, &cards.0);
                    next.set(back);
                    return;
                }
                Err(e) => {
                    scan.message = Some((e, true));
                    sfx.write(Sfx(Sound::Refuse));
                }
            },
            DeckButton::TakeBack => {
                if let Some(n) = scan.cards.pop() {
                    let name = cards
                        .0
                        .get(&n)
                        .map_or(n.to_string(), |c| c.name().to_string());
                    let count = (scan.rules.count)(&scan.cards, &cards.0);
                    scan.message = Some((format!("{name} taken back ({count})"), false));
                }
            }
            DeckButton::Back => {
                done(&scan, &mut lobby, &cards.0);
                next.set(back);
                return;
            }
        }
    }
    if scan.idle > DECK_IDLE {
        done(&scan, &mut lobby, &cards.0);
        next.set(back);
    }
}

/// A typed line: a card (number or name), or a count and a card
/// (`3 Agumon`, `3x Dα-001`).
pub fn parse_typed(text: &str) -> (usize, &str) {
    let text = text.trim();
    if let Some((head, rest)) = text.split_once(char::is_whitespace) {
        let digits = head.trim_end_matches(['x', 'X', '×']);
        if let Ok(n) = digits.parse::<usize>()
            && (1..=MOST_TYPED).contains(&n)
            && !rest.trim().is_empty()
        {
            return (n, rest.trim());
        }
    }
    (1, text)
}

fn typing(
    mut keyboard: MessageReader<KeyboardInput>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    mut scan: ResMut<DeckScan>,
    mut typing: ResMut<Typing>,
    cards: Res<Cards>,
    mut sfx: MessageWriter<Sfx>,
) {
    let Some(keys) = keys else { return };
    if scan.entry.is_none() {
        keyboard.clear();
        if keys.just_pressed(KeyCode::Enter) {
            scan.entry = Some(String::new());
            typing.0 = true;
        }
        return;
    }
    // Typing is input; an entry left open is not.
    if keys.get_just_pressed().len() > 0 {
        scan.idle = 0.0;
    }
    let Some(entry) = scan.entry.as_mut() else {
        return;
    };
    let (edit, _) = edit_entry(&mut keyboard, entry, 32);
    if edit == Edit::Cancel {
        scan.entry = None;
        typing.0 = false;
        return;
    }
    let submit = edit == Edit::Submit;
    if !submit {
        return;
    }
    let text = scan.entry.take().unwrap_or_default();
    typing.0 = false;
    let (count, name) = parse_typed(&text);
    if name.is_empty() {
        return;
    }
    match cards.0.resolve(name) {
        Ok(card) => {
            let card = card.clone();
            let added = (0..count)
                .take_while(|_| scan.add(&card, true, false, &cards.0))
                .count();
            sfx.write(Sfx(if added == count {
                Sound::Scan
            } else {
                Sound::Refuse
            }));
        }
        Err(e) => {
            scan.message = Some((e.to_string(), true));
            sfx.write(Sfx(Sound::Refuse));
        }
    }
}

fn dropped(
    mut drops: MessageReader<FileDragAndDrop>,
    mut scan: ResMut<DeckScan>,
    reads: Option<Res<Reads>>,
) {
    let Some(reads) = reads else { return };
    for d in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = d {
            scan.idle = 0.0;
            read_files(
                &reads.scanner,
                &reads.file_tx,
                Side::P1,
                vec![path_buf.clone()],
            );
        }
    }
}

fn receive(
    reads: Option<Res<Reads>>,
    collection: Option<Res<Collection>>,
    mut scan: ResMut<DeckScan>,
    cards: Res<Cards>,
    mut sfx: MessageWriter<Sfx>,
) {
    let Some(reads) = reads else { return };
    for (_, from, read, content) in reads.drain(Side::P1) {
        scan.idle = 0.0;
        match read {
            Ok(r) => {
                let new = record(collection.as_deref(), &r, &from, content);
                let joined = scan.add(&r.card, r.in_set, new, &cards.0);
                sfx.write(Sfx(if joined { Sound::Scan } else { Sound::Refuse }));
            }
            Err(Failed::Battle(_)) => {
                scan.message = Some((
                    "a battle card, not a card for a deck: play it from the Terminal Battle's scan screen or with `bterm replay`".to_string(),
                    true,
                ));
                sfx.write(Sfx(Sound::Refuse));
            }
            Err(Failed::Why(e)) => {
                let name = std::path::Path::new(&from)
                    .file_name()
                    .map_or(from.clone(), |n| n.to_string_lossy().into_owned());
                scan.message = Some((format!("{name}: {e}"), true));
                sfx.write(Sfx(Sound::Refuse));
            }
        }
    }
}

/// The deck's cards grouped by card, in the order first read.
fn grouped(list: &[CardNumber], cards: &CardSet) -> Vec<String> {
    let mut groups: Vec<(CardNumber, usize)> = Vec::new();
    for n in list {
        match groups.iter_mut().find(|(g, _)| g == n) {
            Some((_, count)) => *count += 1,
            None => groups.push((*n, 1)),
        }
    }
    groups
        .into_iter()
        .map(|(n, count)| match cards.get(&n) {
            Some(c) => match c.as_digimon() {
                Some(d) => format!("{count}× {} · {} · {n}", d.name, d.level),
                None => format!("{count}× {} · {} · {n}", c.name(), c.kind()),
            },
            None => format!("{count}× {n}"),
        })
        .collect()
}

fn draw(
    mut scan: ResMut<DeckScan>,
    cards: Res<Cards>,
    reads: Option<Res<Reads>>,
    mut images: ResMut<Assets<Image>>,
    mut q: Query<(&DeckText, &mut Text, &mut TextColor)>,
) {
    // The last card read shows its face.
    let last = scan.cards.last().copied();
    if last != scan.shown {
        scan.shown = last;
        let face = last
            .and_then(|n| cards.0.get(&n))
            .and_then(|c| crate::barcode::print::render_face(c).ok())
            .map_or_else(
                || crate::arena::render::look::texture(1, 1, vec![0, 0, 0, 0]),
                |rgb| rgb_texture(&rgb),
            );
        if let Some(mut image) = images.get_mut(&scan.face) {
            *image = face;
        }
    }
    let live = reads.as_ref().is_some_and(|r| r.live.is_some());
    let lines = grouped(&scan.cards, &cards.0);
    let half = lines.len().div_ceil(2).max(12);
    for (which, mut text, mut colour) in &mut q {
        let value = match *which {
            DeckText::Count => {
                let count = (scan.rules.count)(&scan.cards, &cards.0);
                match (scan.rules.check)(&scan.cards, &cards.0) {
                    Ok(()) => format!("{count} · READY: press A"),
                    Err(e) if (scan.rules.full)(&scan.cards, &cards.0) => format!("{count} · {e}"),
                    Err(_) => count,
                }
            }
            DeckText::List(i) => {
                if lines.is_empty() {
                    if i == 0 {
                        "No cards yet".to_string()
                    } else {
                        String::new()
                    }
                } else {
                    lines
                        .iter()
                        .skip(i * half)
                        .take(half)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join("\n")
                }
            }
            DeckText::Message => said(scan.message.as_ref(), &mut colour),
            DeckText::Entry => match &scan.entry {
                Some(e) => format!(
                    "Card for the deck: {e}_   (a number or a name, `3 Agumon` for three · Enter adds · Esc cancels)"
                ),
                None => {
                    let mut hint = String::from(
                        "Enter: type a card number or name · drop card images on the window",
                    );
                    if live {
                        hint.push_str(" · show a card to the camera");
                    }
                    let left = (DECK_IDLE - scan.idle).max(0.0).ceil();
                    if left <= 20.0 {
                        hint.push_str(&format!(" · back to the setup in {left} s"));
                    }
                    hint
                }
            },
        };
        if text.0 != value {
            text.0 = value;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_typed;

    #[test]
    fn a_typed_line_may_start_with_a_count() {
        assert_eq!(parse_typed("3 Agumon"), (3, "Agumon"));
        assert_eq!(parse_typed("2x Dα-001"), (2, "Dα-001"));
        assert_eq!(parse_typed("Dα-001"), (1, "Dα-001"));
        // A name that starts with a number, or a count too big, is a name.
        assert_eq!(parse_typed("9 Agumon"), (1, "9 Agumon"));
        assert_eq!(parse_typed("  Were Garurumon "), (1, "Were Garurumon"));
    }
}
