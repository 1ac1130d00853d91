//! LAN play in the arena: "Host a table" and "Join a table" from the choice
//! of game, a lobby with the seats, who is ready and the join code, then
//! the same battle (Terminal Battle) or table (Card Game Alpha) screens,
//! each machine showing its own seat's hand.
//!
//! The machine that hosts runs the table's [`Host`] on a thread and joins
//! it over loopback like every other machine, so every screen is driven
//! one way: by a client [`Session`]'s views, events and questions. The
//! session is polled once a frame ([`pump`]); a question for this machine's
//! seat waits in the duel's or the table's [`Remote`], and the answer the
//! buttons give goes back the same way.
//!
//! Three buttons do it all, as in the rest of the lobby: A and B move, C
//! changes the line it is on (on the join code: C starts the code, A / B
//! turn the digit, C goes to the next), C held goes back.

use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;

use crate::ai::Strength;
use crate::arena::play::duel::{Duel, DuelStarted};
pub use crate::arena::play::remote::{Remote, replayed};
use crate::arena::play::table::{TableGame, Tabled};
use crate::arena::screens::lobby::{IDLE_SECONDS, LineTexts, LobbyInput, show_lines, spawn_panel};
use crate::arena::screens::scan::ScanReturn;
use crate::arena::ui::theme::{label, palette, size};
use crate::arena::ui::widgets::centred_column;
use crate::arena::{AppSystems, Cards, Screen, Settings};
use crate::cards::{CardNumber, CardSet};
use crate::net::client::{Happened, JoinOptions, Session};
use crate::net::discover::{self, Announcement, Found};
use crate::net::host::{Host, HostOptions, REJOIN_WINDOW};
use crate::net::link::HostLink;
use crate::net::protocol::{Role, SeatLine};
use crate::net::{DEFAULT_PORT, Lan};
use crate::replay::Replay;
use crate::rules::{RulesetId, Seat, alpha, clash, dcg, terminal};
use crate::session::{Player, Watch};

pub use form::*;
pub use pump::*;
use setup::*;
pub use table::*;

/// How long the lobby waits with nothing changing (no press, no seat
/// taken) before it closes and goes back to attract.
const LOBBY_IDLE: f32 = 180.0;

/// How long a failed LAN game's message stays before attract.
const FAILED_SHOWN: f32 = 15.0;

/// How often the join screen listens for tables again, seconds.
const BROWSE_EVERY: f32 = 4.0;

/// The most things a session reports in one frame (the rest wait).
const POLLS_PER_FRAME: usize = 64;

/// The host's lines the lobby keeps.
const NOTES: usize = 4;

/// A client session of the table's game: a `Session<R>` of its ruleset
/// (the pump of that ruleset takes it; the others leave it).
type Link = Box<dyn std::any::Any + Send>;

/// A ruleset as the arena stages it at a LAN table: its presenter's game
/// on screen (which follows the host's views and sends this seat's
/// answers), and how this machine's player scans what it brings. Every
/// registered ruleset needs one (the pumps are made from the registry).
pub trait Staged: Lan {
    /// The presenter's game: the Terminal Battle's duel, the Alpha's table.
    type Game: Follows<Self> + Resource + Component<Mutability = bevy::ecs::component::Mutable>;
    /// The screen the game is on.
    const SCREEN: Screen;
    /// Whether the game's start is told with [`DuelStarted`].
    const ANNOUNCED: bool;
    /// Opens the scanner for what this machine's player brings.
    fn open_scanner(commands: &mut Commands, next: &mut NextState<Screen>);
    /// What came back from the scanner, as the cards brought, or why not.
    fn scanned(
        roster: Option<&crate::arena::screens::scan::Roster>,
        deck: &Result<Vec<CardNumber>, String>,
    ) -> Result<Vec<CardNumber>, String>;
    /// Readies `settings` to play back the saved game `text` (read from
    /// `file`, called `name` in messages), once it parses as this
    /// ruleset's replay (`bterm replay FILE`'s window).
    fn open_replay(
        file: &std::path::Path,
        text: &str,
        name: &str,
        settings: &mut Settings,
    ) -> Result<(), crate::replay::ReplayError>;
}

/// Readies `settings` to play back the saved game `text` of ruleset `id`
/// through its presenter; `None` when the arena does not stage `id`.
pub fn open_replay(
    id: RulesetId,
    file: &std::path::Path,
    text: &str,
    name: &str,
    settings: &mut Settings,
) -> Option<Result<(), crate::replay::ReplayError>> {
    struct Open<'a> {
        file: &'a std::path::Path,
        text: &'a str,
        name: &'a str,
        settings: &'a mut Settings,
    }
    impl StagedVisitor for Open<'_> {
        type Output = Result<(), crate::replay::ReplayError>;
        fn visit<R: Staged>(self) -> Self::Output {
            R::open_replay(self.file, self.text, self.name, self.settings)
        }
    }
    dispatch(
        id,
        Open {
            file,
            text,
            name,
            settings,
        },
    )
}

/// Something to do with a staged ruleset chosen at run time.
trait StagedVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work with ruleset `R`.
    fn visit<R: Staged>(self) -> Self::Output;
}

/// The rulesets the arena stages at a LAN table, each with its presenter
/// (a card game's is the table's, [`crate::arena::play::table::Tabled`]). Adding one
/// here needs its [`Staged`] impl.
macro_rules! staged {
    ($then:ident ! ($($pre:tt)*)) => {
        $then! {
            $($pre)*
            Terminal => crate::rules::terminal::Match,
            Alpha => crate::rules::alpha::Match,
            Dcg => crate::rules::dcg::Match,
            Clash => crate::rules::clash::Match,
        }
    };
}

/// Makes the staged rulesets' dispatch (`None`: a ruleset the arena does
/// not stage) and their list.
macro_rules! make_staged {
    ($($id:ident => $ty:ty),+ $(,)?) => {
        /// Calls the visitor with the type of the ruleset `id` names, when
        /// the arena stages it.
        #[allow(unreachable_patterns, reason = "the arena may stage every ruleset")]
        fn dispatch<V: StagedVisitor>(id: RulesetId, visitor: V) -> Option<V::Output> {
            match id {
                $(RulesetId::$id => Some(visitor.visit::<$ty>()),)+
                _ => None,
            }
        }

        /// The rulesets the arena stages, in the registry's order.
        pub const STAGED: &[RulesetId] = &[$(RulesetId::$id),+];
    };
}

staged!(make_staged!());

/// Why the arena cannot sit at a table of `game` (it does not stage it).
pub fn not_staged(game: RulesetId) -> String {
    format!(
        "the arena does not stage the {} yet: play it at a terminal (bterm {} …, bterm join)",
        game.name(),
        game.key()
    )
}

/// The next game the arena stages after `game` (a screen's "change the game").
pub fn next_staged(game: RulesetId) -> RulesetId {
    let at = STAGED.iter().position(|&g| g == game).unwrap_or(0);
    STAGED[(at + 1) % STAGED.len()]
}

/// One pump system per registered ruleset; only the one whose session
/// the table holds acts.
macro_rules! add_pumps {
    ($($(#[$doc:meta])* $id:ident => $ty:ty),+ $(,)?) => {
        fn add_pumps(app: &mut App) {
            $(
                app.add_systems(
                    Update,
                    pump::<$ty>
                        .after(take_notes)
                        .run_if(resource_exists::<LanTable>)
                        .in_set(AppSystems::RecordInput),
                );
            )+
        }
    };
}

staged!(add_pumps!());

/// The status line over a LAN battle or table (reconnecting, failed, watching).
#[derive(Component)]
struct LanStatus;

pub(in crate::arena) fn plugin(app: &mut App) {
    add_pumps(app);
    app.init_resource::<LanForm>()
        .add_systems(OnEnter(Screen::LanHost), enter_host)
        .add_systems(OnEnter(Screen::LanJoin), enter_join)
        .add_systems(OnEnter(Screen::LanLobby), enter_lobby)
        .add_systems(OnEnter(Screen::Attract), (leave_table, forget_player))
        .add_systems(OnEnter(Screen::Choose), leave_table)
        .add_systems(
            Update,
            (host_screen, draw_host)
                .chain()
                .run_if(in_state(Screen::LanHost))
                .in_set(AppSystems::Update),
        )
        .add_systems(
            Update,
            (join_screen, draw_join)
                .chain()
                .run_if(in_state(Screen::LanJoin))
                .in_set(AppSystems::Update),
        )
        .add_systems(
            Update,
            (lobby_screen, draw_lobby)
                .chain()
                .run_if(in_state(Screen::LanLobby))
                .in_set(AppSystems::Update),
        )
        .add_systems(
            Update,
            take_notes
                .run_if(resource_exists::<LanTable>)
                .in_set(AppSystems::RecordInput),
        )
        .add_systems(
            Update,
            (status_line, leave_failed)
                .run_if(resource_exists::<LanTable>)
                .in_set(AppSystems::Update),
        );
}

// The parts, declared after the macros above (a macro is seen by what
// follows it).
mod form;
mod pump;
mod setup;
mod table;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_from_another_machine_is_shown_without_controls_and_cut() {
        assert_eq!(shown("Tai\u{1b}[31m", 10), "Tai[31m");
        assert_eq!(shown("abcdef", 3), "abc…");
        assert_eq!(shown("abc", 3), "abc");
    }

    #[test]
    fn the_host_screen_offers_seats_only_for_the_card_game_alpha() {
        let mut form = LanForm::default();
        assert_eq!(
            form.host_lines(),
            [
                HostLine::Game,
                HostLine::Other(1),
                HostLine::Brings,
                HostLine::Open
            ]
        );
        assert_eq!(
            form.change_host(HostLine::Game, &CardSet::embedded()),
            Then::Stay
        );
        assert_eq!(form.game, RulesetId::Alpha);
        form.change_host(HostLine::Seats, &CardSet::embedded());
        form.change_host(HostLine::Seats, &CardSet::embedded());
        assert_eq!(form.seats, 4);
        assert_eq!(form.host_lines().len(), 7, "game, seats, P2–P4, deck, open");
        form.change_host(HostLine::Seats, &CardSet::embedded());
        assert_eq!(form.seats, 2, "4 wraps round to 2");
        // P2: a player on the LAN, then the CPU's strengths, round again.
        for want in OTHERS.iter().skip(1).chain(OTHERS.iter().take(1)) {
            form.change_host(HostLine::Other(1), &CardSet::embedded());
            assert_eq!(form.others[0], *want);
        }
        assert_eq!(
            form.change_host(HostLine::Open, &CardSet::embedded()),
            Then::Open
        );
        // The deck brought: each shipped one, then one to scan, which C
        // opens the scanner for.
        for _ in 1..alpha::deck::EMBEDDED.len() {
            assert_eq!(
                form.change_host(HostLine::Brings, &CardSet::embedded()),
                Then::Stay
            );
        }
        assert_eq!(
            form.change_host(HostLine::Brings, &CardSet::embedded()),
            Then::Stay
        );
        assert_eq!(form.brings, Brings::Scan);
        assert!(brought(form.game, None, &form.brings, &CardSet::embedded()).is_err());
        assert_eq!(
            form.change_host(HostLine::Brings, &CardSet::embedded()),
            Then::Scan(RulesetId::Alpha)
        );
    }

    #[test]
    fn the_host_screen_offers_the_digimon_card_games_format_at_three_seats_with_its_decks() {
        let cards = CardSet::embedded();
        let mut form = LanForm {
            game: RulesetId::Dcg,
            ..LanForm::default()
        };
        assert!(
            !form.host_lines().contains(&HostLine::Format),
            "2 seats: standard"
        );
        form.change_host(HostLine::Seats, &cards);
        assert_eq!(form.seats, 3);
        assert!(form.host_lines().contains(&HostLine::Format));
        assert_eq!(form.format_word(), "standard");
        form.change_host(HostLine::Format, &cards);
        assert_eq!(form.format_word(), "players");
        // The host's deck: the Players Format's, each once, then a scan.
        let text = |f: &LanForm| f.host_text(HostLine::Brings, &cards);
        assert!(text(&form).contains("Players Format"), "{}", text(&form));
        let first = brought(form.game, Some("players"), &form.brings, &cards).unwrap();
        assert_eq!(
            first,
            crate::rules::dcg::deck::embedded("players-red-blue", &cards)
                .unwrap()
                .unwrap()
        );
        assert_eq!(form.change_host(HostLine::Brings, &cards), Then::Stay);
        assert!(text(&form).contains("players-green"), "{}", text(&form));
        assert_eq!(form.change_host(HostLine::Brings, &cards), Then::Stay);
        assert_eq!(form.brings, Brings::Scan);
        // A joiner may bring any format's decks (the host's decides).
        let all = house_choices(RulesetId::Dcg, None, &cards);
        assert_eq!(all.len(), crate::rules::dcg::deck::EMBEDDED.len() + 2);
        // Back to 2 seats: the standard format again.
        form.change_host(HostLine::Seats, &cards);
        form.change_host(HostLine::Seats, &cards);
        assert_eq!(form.seats, 2);
        assert_eq!(form.format_word(), "standard");
    }

    #[test]
    fn a_table_given_by_address_that_did_not_answer_says_so_and_may_be_asked_again() {
        let cards = CardSet::embedded();
        let mut form = LanForm::default();
        let addr: SocketAddr = "127.0.0.1:9".parse().unwrap();
        form.given.push(Found {
            name: addr.to_string(),
            addr,
            game: "?".into(),
            seats: "?".into(),
            version: crate::net::protocol::PROTOCOL_VERSION.to_string(),
        });
        form.merge_given();
        assert!(
            form.join_text(JoinLine::Table, &cards)
                .contains("asking it which game")
        );
        assert!(
            join(&form, &cards)
                .err()
                .unwrap_or_default()
                .contains("still asking")
        );
        form.unreachable.push((addr, "no table answered".into()));
        assert!(
            form.join_text(JoinLine::Table, &cards)
                .contains("not answering (C asks again)")
        );
        let why = join(&form, &cards).err().unwrap_or_default();
        assert!(
            why.contains("no table answered") && why.contains("asks again"),
            "{why}"
        );
        // Scanned for the other game: C opens the scanner for this one.
        form.game = RulesetId::Alpha;
        form.brings = Brings::Scanned(RulesetId::Terminal, Vec::new());
        assert_eq!(
            form.change_host(HostLine::Brings, &CardSet::embedded()),
            Then::Scan(RulesetId::Alpha)
        );
    }

    #[test]
    fn a_spectator_needs_no_code_and_brings_nothing() {
        let mut form = LanForm::default();
        assert!(form.join_lines().contains(&JoinLine::Code));
        form.watch = true;
        assert_eq!(
            form.join_lines(),
            [JoinLine::Table, JoinLine::Watch, JoinLine::Join]
        );
    }
}
