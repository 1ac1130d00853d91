//! The arena without a window: `MinimalPlugins` and the game's plugins,
//! buttons faked as messages, time stepped by hand.

#![cfg(feature = "arena")]

use std::time::Duration;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy_hanabi::ParticleEffect;
use bterm::ai::Strength;
use bterm::arena::play::duel::{Duel, DuelKind, DuelStarted, Show, Staged};
use bterm::arena::play::staging::{Board, Debris, Projectile};
use bterm::arena::render::figures::{BenchFigure, Figure};
use bterm::arena::render::sparks::{Fading, Following};
use bterm::arena::screens::scan::Roster;
use bterm::arena::ui::input::{Button, Press, Release};
use bterm::arena::ui::sound::{Sfx, Sound};
use bterm::arena::{AppPlugin, Cards, Screen, Settings, Timeouts};
use bterm::cards::{CardNumber, CardSet};
use bterm::replay::Replay;
use bterm::rules::terminal::{ABILITY_SECONDS, Action, Ask, Event, Setup, Side};
use bterm::rules::{Outcome, Seat};
use bterm::session::Player;

/// The Card Game Alpha's match and setup (the table holds any card game).
type AlphaMatch = bterm::rules::alpha::Match;
type AlphaSetup = bterm::rules::alpha::Setup;

/// Where each card of a Card Game Alpha layout goes on the table, by id.
fn alpha_goals(
    layout: &bterm::rules::alpha::Layout,
    hands: bterm::arena::play::table::Hands,
) -> std::collections::HashMap<u32, (Transform, bool)> {
    bterm::arena::play::table::layout_goals::<AlphaMatch>(layout, layout.seats.len(), hands)
        .into_iter()
        .filter_map(|(p, t, up)| Some((p.id?, (t, up))))
        .collect()
}

/// Each update advances the clock this much.
const STEP: Duration = Duration::from_millis(100);

fn app(settings: Settings) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        AssetPlugin::default(),
        bevy::input::InputPlugin,
    ))
    .init_asset::<Mesh>()
    .init_asset::<StandardMaterial>()
    .init_asset::<Image>()
    .insert_resource(TimeUpdateStrategy::ManualDuration(STEP))
    .insert_resource(Cards(CardSet::embedded()))
    .insert_resource(settings)
    .add_plugins(AppPlugin { windowed: false });
    app.update();
    app
}

fn settings(dir: &tempfile::TempDir) -> Settings {
    Settings {
        seed: Some(11),
        replay_dir: Some(dir.path().to_path_buf()),
        ..Settings::default()
    }
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn press(app: &mut App, player: Side, button: Button) {
    app.world_mut().write_message(Press { player, button });
    app.update();
    app.update();
}

/// A button pressed and let go at once (C taps choose in menus).
fn tap(app: &mut App, player: Side, button: Button) {
    app.world_mut().write_message(Press { player, button });
    app.world_mut().write_message(Release { player, button });
    app.update();
    app.update();
}

/// C held until it goes back.
fn hold_c(app: &mut App) {
    app.world_mut().write_message(Press {
        player: Side::P1,
        button: Button::C,
    });
    for _ in 0..10 {
        app.update();
    }
    app.world_mut().write_message(Release {
        player: Side::P1,
        button: Button::C,
    });
    app.update();
    app.update();
}

/// A key pressed and let go, with the text it types.
fn key(app: &mut App, code: KeyCode, text: Option<&str>) {
    use bevy::input::ButtonState;
    use bevy::input::keyboard::{Key, KeyboardInput};
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(KeyboardInput {
            key_code: code,
            logical_key: text.map_or(Key::Enter, |t| Key::Character(t.into())),
            state,
            text: text
                .filter(|_| state == ButtonState::Pressed)
                .map(Into::into),
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
        app.update();
    }
}

/// Types a line on a screen with a text entry: Enter opens it, the
/// characters, Enter adds.
fn type_line(app: &mut App, line: &str) {
    key(app, KeyCode::Enter, None);
    for c in line.chars() {
        key(app, KeyCode::KeyA, Some(&c.to_string()));
    }
    key(app, KeyCode::Enter, None);
}

/// P1 taps C (takes the first answer) every frame until the game at the
/// table ends, at most `seconds` of game time; how many taps it took.
fn play_out<R: bterm::arena::play::table::Tabled>(app: &mut App, seconds: f32) -> usize {
    use bterm::arena::play::table::TableGame;
    let mut presses = 0;
    let over = run_until(app, seconds, |a| {
        if a.world().resource::<TableGame<R>>().ended() {
            return true;
        }
        a.world_mut().write_message(Press {
            player: Side::P1,
            button: Button::C,
        });
        a.world_mut().write_message(Release {
            player: Side::P1,
            button: Button::C,
        });
        presses += 1;
        false
    });
    assert!(over, "the game ends");
    app.update();
    app.update();
    presses
}

/// Updates until `done` holds, at most `seconds` of game time.
fn run_until(app: &mut App, seconds: f32, mut done: impl FnMut(&mut App) -> bool) -> bool {
    let steps = (seconds / STEP.as_secs_f32()) as usize;
    for _ in 0..steps {
        if done(app) {
            return true;
        }
        app.update();
    }
    done(app)
}

fn number(s: &str) -> CardNumber {
    CardSet::embedded().resolve(s).unwrap().number()
}

#[test]
fn attract_plays_a_demo_and_a_opens_the_scan() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(settings(&dir));
    assert_eq!(screen(&app), Screen::Attract);
    let duel = app.world().resource::<Duel>();
    assert_eq!(duel.kind, DuelKind::Demo);
    assert!(duel.host.table().players().iter().all(|p| !p.is_person()));
    // The demo battle goes on by itself.
    assert!(run_until(&mut app, 30.0, |a| a
        .world()
        .resource::<Board>()
        .clash
        .is_some()));
    assert!(app.world_mut().query::<&Figure>().iter(app.world()).count() >= 2);
    press(&mut app, Side::P2, Button::A);
    assert_eq!(screen(&app), Screen::Choose, "A opens the choice of game");
    // C (a tap) takes the first: the Terminal Battle.
    tap(&mut app, Side::P2, Button::C);
    assert_eq!(screen(&app), Screen::Scan);
    assert!(
        app.world().get_resource::<Duel>().is_none(),
        "the demo is gone"
    );
    assert_eq!(
        app.world_mut().query::<&Figure>().iter(app.world()).count(),
        0
    );
}

#[test]
fn scan_screen_builds_teams_refuses_at_once_and_starts_the_battle() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(settings(&dir));
    press(&mut app, Side::P1, Button::A);
    assert_eq!(screen(&app), Screen::Choose, "A opens the choice of game");
    // C (a tap) takes the first: the Terminal Battle.
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::Scan);
    let set = CardSet::embedded();
    // Greymon before Agumon: refused with the rules' words.
    let greymon = set.resolve("Dα-002").unwrap().clone();
    let agumon = set.resolve("Dα-001").unwrap().clone();
    let refused = bterm::rules::terminal::pick::check_card(&set, Side::P1, &[], &greymon, true);
    assert_eq!(
        refused.unwrap_err().to_string(),
        "P1: Greymon needs Agumon first"
    );
    assert_eq!(
        bterm::rules::terminal::pick::check_card(
            &set,
            Side::P1,
            &[(agumon.clone(), true)],
            &greymon,
            true
        ),
        Ok(None)
    );
    // P2's C changes who plays P2.
    assert_eq!(
        app.world().resource::<Roster>().p2,
        Player::Cpu(Strength::Normal)
    );
    press(&mut app, Side::P2, Button::C);
    assert_eq!(
        app.world().resource::<Roster>().p2,
        Player::Cpu(Strength::Hard)
    );
    press(&mut app, Side::P1, Button::C);
    assert_eq!(app.world().resource::<Roster>().p2, Player::Person);
    // Two humans: P1 ready alone does not start.
    press(&mut app, Side::P1, Button::A);
    assert_eq!(screen(&app), Screen::Scan);
    press(&mut app, Side::P2, Button::A);
    assert_eq!(screen(&app), Screen::Battle);
    let duel = app.world().resource::<Duel>();
    assert_eq!(duel.kind, DuelKind::Play);
    assert_eq!(
        duel.host.table().players(),
        [Player::Person, Player::Person]
    );
}

#[test]
fn an_idle_scan_screen_chooses_demo_teams_and_starts() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = settings(&dir);
    s.timeouts = Timeouts {
        scan_idle: 5.0,
        ..Timeouts::default()
    };
    let mut app = app(s);
    press(&mut app, Side::P1, Button::A);
    assert_eq!(screen(&app), Screen::Choose, "A opens the choice of game");
    // C (a tap) takes the first: the Terminal Battle.
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::Scan);
    assert!(
        !run_until(&mut app, 4.0, |a| screen(a) != Screen::Scan),
        "too early"
    );
    assert!(run_until(&mut app, 2.0, |a| screen(a) == Screen::Battle));
    let duel = app.world().resource::<Duel>();
    assert!(!duel.setup().teams[0].is_empty(), "P1 got a demo team");
    assert!(!duel.setup().teams[1].is_empty(), "the CPU got a team");
}

/// A battle with a human P1 who never presses: every stance times out, and
/// the whole flow reaches the result screen, saves a replay, and times out
/// back to attract.
#[test]
fn a_battle_times_out_stance_by_stance_and_the_result_returns_to_attract() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = settings(&dir);
    s.show_speed = 8.0;
    s.timeouts.result = 3.0;
    let mut app = app(s);
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    press(&mut app, Side::P1, Button::A);
    assert_eq!(screen(&app), Screen::Battle);
    // The stance timer runs: P1 is asked and the HUD's clock counts down.
    assert!(run_until(&mut app, 10.0, |a| a
        .world()
        .resource::<Duel>()
        .asking[0]
        .is_some()));
    let left = app.world().resource::<Duel>().asking[0].unwrap().left;
    app.update();
    assert!(app.world().resource::<Duel>().asking[0].unwrap().left < left);
    assert!(
        run_until(&mut app, 400.0, |a| screen(a) == Screen::Result),
        "no result"
    );
    let saved: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(saved.len(), 1, "one replay saved");
    assert!(run_until(&mut app, 5.0, |a| screen(a) == Screen::Attract));
}

/// The whole CPU-against-CPU battle in the app ends as the rules alone end it.
#[test]
fn cpu_battle_in_the_app_has_the_rules_outcome() {
    let set = CardSet::embedded();
    for seed in [3u64, 8, 21] {
        let setup = Setup::new(
            vec![number("Dα-001"), number("Dα-002")],
            vec![number("Dα-012"), number("Dα-013"), number("Dα-021")],
            seed,
        );
        let table =
            bterm::analysis::cpu_battle(setup.clone(), &set, [Strength::Normal, Strength::Hard])
                .unwrap();
        let (alone, actions) = (table.game(), Replay::of(&table).actions);
        let dir = tempfile::tempdir().unwrap();
        let mut app = app(settings(&dir));
        let duel = Duel::new(
            DuelKind::Demo,
            setup,
            &set,
            [Player::Cpu(Strength::Normal), Player::Cpu(Strength::Hard)],
        )
        .unwrap();
        app.world_mut().insert_resource(duel);
        app.world_mut().write_message(DuelStarted);
        assert!(run_until(&mut app, 600.0, |a| {
            let show = a.world().resource::<Show>();
            a.world().resource::<Duel>().finished(show)
        }));
        let duel = app.world().resource::<Duel>();
        assert_eq!(duel.m().outcome(), alone.outcome(), "seed {seed}");
        assert_eq!(duel.host.table().actions(), actions, "seed {seed}");
        assert_eq!(duel.m().state_hash(), alone.state_hash(), "seed {seed}");
        let board = app.world().resource::<Board>();
        assert_eq!(
            board.outcome,
            alone.outcome(),
            "the HUD shows the rules' result"
        );
        for side in Side::BOTH {
            assert_eq!(board.sides[side.index()].points, alone.view(side).points);
        }
    }
}

/// A person is offered an `[Action:]` ability before the stance: A readies
/// it; no answer is no, and it is offered again the next round.
#[test]
fn a_person_is_offered_action_abilities_once_a_round() {
    let set = CardSet::embedded();
    // OP-010 Virus Infection: [Action:] [Battle], once per turn.
    let setup = Setup::new(
        vec![number("Dα-001"), number("OP-010")],
        vec![number("Dα-021"), number("Dα-012")],
        4,
    );
    let dir = tempfile::tempdir().unwrap();
    let mut s = settings(&dir);
    s.show_speed = 8.0;
    let mut app = app(s);
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Battle);
    app.update();
    let duel = Duel::new(
        DuelKind::Play,
        setup,
        &set,
        [Player::Person, Player::Cpu(Strength::Easy)],
    )
    .unwrap();
    app.world_mut().insert_resource(duel);
    app.world_mut().write_message(DuelStarted);
    let asked = |a: &App| a.world().resource::<Duel>().asking[0].map(|x| x.ask);
    let used = |a: &App| {
        let duel = a.world().resource::<Duel>();
        duel.host
            .table()
            .actions()
            .iter()
            .filter(|(seat, a)| *seat == Seat::P1 && matches!(a, Action::UseAbility(_)))
            .count()
    };
    let offered = |a: &mut App| matches!(asked(a), Some(Ask::Ability { .. }));
    let stance = |a: &mut App| matches!(asked(a), Some(Ask::Stance { .. }));

    // Round 1: offered first; A readies it, then the stance is asked.
    assert!(run_until(&mut app, 20.0, offered), "no ability offered");
    assert_eq!(app.world().resource::<Duel>().m().round(), 1);
    press(&mut app, Side::P1, Button::A);
    assert_eq!(used(&app), 1);
    assert!(
        run_until(&mut app, 1.0, stance),
        "no stance after the ability"
    );
    press(&mut app, Side::P1, Button::B);

    // Round 2: offered again; no answer is no, and the stance follows.
    assert!(run_until(&mut app, 30.0, |a| {
        a.world().resource::<Duel>().m().round() == 2 && offered(a)
    }));
    assert!(
        !run_until(&mut app, ABILITY_SECONDS - 0.5, stance),
        "the question waits its time"
    );
    assert!(run_until(&mut app, 1.0, stance), "no stance after the time");
    assert_eq!(used(&app), 1, "no answer readies nothing");
}

/// A quiet stage: a duel of these teams nobody plays (both "human", never
/// pressing), staged until its opening show is over.
fn quiet_stage(dir: &tempfile::TempDir, p1: &[&str], p2: &[&str]) -> App {
    let mut app = app(settings(dir));
    let set = CardSet::embedded();
    let team = |t: &[&str]| t.iter().map(|n| number(n)).collect::<Vec<_>>();
    let setup = Setup::new(team(p1), team(p2), 5);
    let duel = Duel::new(
        DuelKind::Replay,
        setup,
        &set,
        [Player::Person, Player::Person],
    )
    .unwrap();
    app.world_mut().insert_resource(duel);
    app.world_mut().write_message(DuelStarted);
    run_until(&mut app, 10.0, |a| a.world().resource::<Show>().idle());
    app
}

/// A bench line that digivolves (engine 4) turns its own small figure
/// into the new Digimon where it waits; the front figure and the board's
/// front stay.
#[test]
fn a_bench_line_digivolves_where_it_waits() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = quiet_stage(&dir, &["Dα-001", "Dα-012", "Dα-013"], &["Dα-001"]);
    let figures = |w: &mut World, bench: bool| {
        let mut q = w.query::<(&Figure, Has<BenchFigure>)>();
        q.iter(w)
            .filter(|(f, b)| f.side == Side::P1 && *b == bench)
            .map(|(f, _)| f.card)
            .collect::<Vec<_>>()
    };
    assert_eq!(figures(app.world_mut(), true), vec![number("Dα-012")]);
    app.world_mut().write_message(Staged(Event::Digivolved {
        side: Side::P1,
        from: number("Dα-012"),
        to: number("Dα-013"),
        bench: Some(1),
    }));
    app.update();
    app.update();
    assert_eq!(
        figures(app.world_mut(), true),
        vec![number("Dα-013")],
        "the bench figure turns into Garurumon"
    );
    assert_eq!(figures(app.world_mut(), false), vec![number("Dα-001")]);
    assert_eq!(app.world().resource::<Board>().sides[0].name, "Agumon");
}

/// Every kind of rules event gets its staging.
#[test]
fn each_event_is_staged() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = quiet_stage(&dir, &["Dα-001", "Dα-002"], &["Dα-012"]);
    let count = |app: &mut App, f: fn(&mut World) -> usize| f(app.world_mut());
    let projectiles = |w: &mut World| w.query::<&Projectile>().iter(w).count();
    let debris = |w: &mut World| w.query::<&Debris>().iter(w).count();
    let front = |w: &mut World, side: Side| {
        w.query::<&Figure>()
            .iter(w)
            .filter(|f| f.side == side && f.home.z == 0.0)
            .map(|f| f.card)
            .collect::<Vec<_>>()
    };
    let stage = |app: &mut App, e: Event| {
        app.world_mut().write_message(Staged(e));
        app.update();
    };
    let sounds = |app: &mut App| {
        app.world()
            .resource::<Messages<Sfx>>()
            .iter_current_update_messages()
            .map(|s| s.0)
            .collect::<Vec<_>>()
    };

    assert_eq!(front(app.world_mut(), Side::P1), vec![number("Dα-001")]);
    stage(&mut app, Event::RoundStarted { round: 4 });
    assert_eq!(app.world().resource::<Board>().round, 4);
    assert!(sounds(&mut app).contains(&Sound::Round));

    stage(&mut app, Event::StanceLocked { side: Side::P2 });
    assert!(app.world().resource::<Board>().sides[1].locked);

    stage(
        &mut app,
        Event::StancesRevealed {
            stances: [bterm::cards::BattleType::B, bterm::cards::BattleType::C],
            timed_out: [false, true],
        },
    );
    assert_eq!(
        app.world().resource::<Board>().sides[0].stance,
        Some(bterm::cards::BattleType::B)
    );

    let before = count(&mut app, projectiles);
    stage(
        &mut app,
        Event::TechniqueChosen {
            side: Side::P1,
            card: number("Dα-001"),
            slot: bterm::cards::BattleType::C,
            base: 150,
        },
    );
    assert_eq!(
        count(&mut app, projectiles),
        before + 1,
        "a technique flies"
    );
    let trails = |w: &mut World| w.query::<&Following>().iter(w).count();
    let fading = |w: &mut World| w.query::<(&ParticleEffect, &Fading)>().iter(w).count();
    assert_eq!(count(&mut app, trails), 1, "it sheds a trail of particles");
    assert!(
        run_until(&mut app, 3.0, |a| count(a, projectiles) == 0),
        "it lands"
    );
    app.update();
    assert_eq!(count(&mut app, trails), 0, "the trail stops following");
    assert_eq!(
        count(&mut app, fading),
        2,
        "a burst where it lands, and the trail lingering"
    );
    assert!(
        run_until(&mut app, 3.0, |a| count(a, fading) == 0),
        "the effects leave once their particles are gone"
    );
    assert_eq!(
        app.world().resource::<Board>().sides[0].technique,
        Some(("Sharp Claw".to_string(), 150))
    );

    stage(
        &mut app,
        Event::Clash {
            powers: [150, 400],
            hp: [400, 500],
            winner: Some(Side::P2),
        },
    );
    assert_eq!(app.world().resource::<Board>().clash, Some(Some(Side::P2)));
    assert!(sounds(&mut app).contains(&Sound::Clash));
    let recoiling = app
        .world_mut()
        .query::<&Figure>()
        .iter(app.world())
        .any(|f| f.side == Side::P1 && f.recoil > 0.0);
    assert!(recoiling, "the loser recoils");

    stage(
        &mut app,
        Event::PointsChanged {
            side: Side::P1,
            delta: -10,
            points: 90,
            reason: bterm::rules::terminal::PointsReason::LostClash,
        },
    );
    assert_eq!(app.world().resource::<Board>().sides[0].points, 90);

    stage(
        &mut app,
        Event::GaugeChanged {
            side: Side::P1,
            line: 0,
            gauge: 85,
        },
    );
    assert_eq!(app.world().resource::<Board>().sides[0].gauge, 85);

    stage(
        &mut app,
        Event::Digivolved {
            side: Side::P1,
            from: number("Dα-001"),
            to: number("Dα-002"),
            bench: None,
        },
    );
    app.update();
    assert_eq!(
        front(app.world_mut(), Side::P1),
        vec![number("Dα-002")],
        "the figure transforms"
    );
    assert_eq!(app.world().resource::<Board>().sides[0].name, "Greymon");

    let before = count(&mut app, debris);
    stage(
        &mut app,
        Event::Deleted {
            side: Side::P2,
            card: number("Dα-012"),
        },
    );
    // It slumps first, then breaks up.
    assert!(
        front(app.world_mut(), Side::P2).len() == 1,
        "the deleted figure slumps before it breaks"
    );
    assert!(
        run_until(&mut app, 2.0, |a| count(a, debris) > before + 3),
        "the figure breaks into debris"
    );
    assert!(front(app.world_mut(), Side::P2).is_empty());

    stage(
        &mut app,
        Event::SteppedIn {
            side: Side::P2,
            card: number("Dα-021"),
        },
    );
    app.update();
    assert_eq!(front(app.world_mut(), Side::P2), vec![number("Dα-021")]);

    stage(
        &mut app,
        Event::BattleEnded {
            outcome: Outcome::Win(Seat::P1),
        },
    );
    assert_eq!(
        app.world().resource::<Board>().outcome,
        Some(Outcome::Win(Seat::P1))
    );
    assert!(sounds(&mut app).contains(&Sound::Fanfare));
    assert!(
        !app.world().resource::<Board>().log.is_empty(),
        "events are captioned"
    );
}

#[test]
fn a_battle_card_scanned_plays_its_battle_in_the_viewer() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/replay-before-session.ron");
    let replay = Replay::<bterm::rules::terminal::Match>::load(&fixture).unwrap();
    let qr = bterm::replay::code::encode(&replay).unwrap();
    let card = bterm::barcode::print::render_battle_card(
        &bterm::barcode::print::BattleCardText::default(),
        &qr,
    )
    .unwrap();
    let png = dir.path().join("battle-card.png");
    card.save(&png).unwrap();
    let replays = dir.path().join("replays");
    let mut s = settings(&dir);
    s.replay_dir = Some(replays.clone());
    s.scans = [vec![png], Vec::new()];
    let mut app = app(s);
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    // The picture is read on a thread, in real time.
    let start = std::time::Instant::now();
    while screen(&app) != Screen::Replay && start.elapsed() < Duration::from_secs(60) {
        app.update();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        screen(&app),
        Screen::Replay,
        "the battle card was not played"
    );
    let viewing = app
        .world()
        .resource::<bterm::arena::screens::viewer::Viewing>();
    assert_eq!(viewing.name, "the battle card");
    assert_eq!(viewing.replay, replay);
    assert!(viewing.error.is_none(), "{:?}", viewing.error);
    let saved = std::fs::read_dir(&replays).unwrap().count();
    assert_eq!(saved, 1, "the battle card's replay is kept with the others");
}

/// Waits (in real time: the gallery reads on a thread) until the gallery
/// has read its replays.
fn gallery_read(app: &mut App) -> usize {
    let start = std::time::Instant::now();
    loop {
        app.update();
        let g = app
            .world()
            .resource::<bterm::arena::screens::gallery::Gallery>();
        if let Some(e) = &g.entries {
            return e.len();
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the gallery never read its replays"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_gallery_lists_marks_deletes_after_asking_and_plays_replays() {
    use bterm::arena::screens::gallery::{Gallery, Mode};
    let dir = tempfile::tempdir().unwrap();
    let replays = dir.path().join("replays");
    std::fs::create_dir_all(&replays).unwrap();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/replay-before-session.ron");
    std::fs::copy(&fixture, replays.join("good.ron")).unwrap();
    std::fs::write(replays.join("broken.ron"), "(rules: 12,").unwrap();
    // The broken one is older, so the good one is listed first.
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(replays.join("broken.ron"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    let mut s = settings(&dir);
    s.replay_dir = Some(replays.clone());
    let mut app = app(s);
    press(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::Gallery);
    assert_eq!(gallery_read(&mut app), 2);
    {
        let g = app.world().resource::<Gallery>();
        let e = g.entries.as_ref().unwrap();
        assert!(e[0].path.ends_with("good.ron") && e[0].verified());
        assert!(e[1].path.ends_with("broken.ron") && !e[1].verified());
    }
    // C, B to FAVOURITE, C: marked, and kept in the folder.
    press(&mut app, Side::P1, Button::C);
    assert_eq!(app.world().resource::<Gallery>().mode, Mode::Actions(0));
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::C);
    assert!(
        app.world()
            .resource::<Gallery>()
            .favourites
            .contains("good.ron")
    );
    assert!(bterm::replay::gallery::favourites(&replays).contains("good.ron"));
    // The broken one: DELETE asks first; KEEP IT keeps it.
    press(&mut app, Side::P1, Button::B);
    assert_eq!(app.world().resource::<Gallery>().chosen, 1);
    for b in [Button::C, Button::B, Button::B, Button::C] {
        press(&mut app, Side::P1, b);
    }
    assert_eq!(app.world().resource::<Gallery>().mode, Mode::Confirm(0));
    press(&mut app, Side::P1, Button::C);
    assert!(replays.join("broken.ron").exists(), "KEEP IT keeps it");
    for b in [
        Button::C,
        Button::B,
        Button::B,
        Button::C,
        Button::B,
        Button::C,
    ] {
        press(&mut app, Side::P1, b);
    }
    assert!(!replays.join("broken.ron").exists(), "DELETE deletes it");
    assert_eq!(gallery_read(&mut app), 1);
    assert!(replays.join("good.ron").exists());
    // PLAY: the viewer stages it.
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    press(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::Replay);
    let viewing = app
        .world()
        .resource::<bterm::arena::screens::viewer::Viewing>();
    assert_eq!(viewing.name, "good.ron");
    assert_eq!(
        viewing.replay,
        Replay::<bterm::rules::terminal::Match>::load(&fixture).unwrap()
    );
}

#[test]
fn an_empty_gallery_says_so_and_any_button_goes_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = settings(&dir);
    s.replay_dir = Some(dir.path().join("none-yet"));
    let mut app = app(s);
    press(&mut app, Side::P2, Button::C);
    assert_eq!(screen(&app), Screen::Gallery);
    assert_eq!(gallery_read(&mut app), 0);
    press(&mut app, Side::P2, Button::B);
    assert_eq!(screen(&app), Screen::Attract);
}

#[test]
fn a_card_game_alpha_replay_is_staged_on_the_table_card_for_card() {
    use bterm::arena::play::table::{
        Hands, PendingTable, Shot, TableCard, TableFigure, TableGame, cpu_game,
    };
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(settings(&dir));
    let cards = CardSet::embedded();
    let replay = cpu_game(2, 3, &cards).expect("a CPU game");
    let actions = replay.actions.len();
    app.world_mut()
        .insert_resource(PendingTable(replay, "test".into()));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Table);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Table);
    let on_table = |app: &mut App| {
        app.world_mut()
            .query::<&TableCard>()
            .iter(app.world())
            .copied()
            .collect::<Vec<_>>()
    };
    assert_eq!(on_table(&mut app).len(), 64, "both decks are dealt");
    // Step by step (B), every card lies where the rules put it.
    let mut flips = 0;
    let mut shots = 0;
    let mut was_up = std::collections::HashMap::new();
    for step in 0..=actions {
        press(&mut app, Side::P1, Button::B);
        app.update();
        app.update();
        let game = app.world().resource::<TableGame<AlphaMatch>>();
        assert!(game.paused, "a step pauses the game");
        let layout = game.m().unwrap().layout();
        let want = alpha_goals(&layout, Hands::All);
        let shown = on_table(&mut app);
        assert_eq!(shown.len(), want.len(), "step {step}: cards on the table");
        for c in shown {
            let (goal, up) = want[&c.id];
            assert_eq!(c.goal, goal, "step {step}: {:?} out of place", c.number);
            assert_eq!(c.face_up, up);
            if was_up.insert(c.id, up).is_some_and(|before| before != up) {
                flips += 1;
            }
        }
        // A figure stands on every face-up Digimon in a Box.
        let open_box: usize = layout
            .seats
            .iter()
            .map(|s| s.digimon.iter().filter(|d| d.card.open).count())
            .sum();
        let standing = app
            .world_mut()
            .query::<(&TableFigure, &Figure)>()
            .iter(app.world())
            .count();
        assert_eq!(standing, open_box, "step {step}: figures on the Box cards");
        shots += app.world_mut().query::<&Shot>().iter(app.world()).count();
    }
    assert!(flips > 0, "cards turn over as the game goes");
    assert!(shots > 0, "techniques fly across the table");
    let game = app.world().resource::<TableGame<AlphaMatch>>();
    assert_eq!(game.next, actions);
    assert_eq!(game.verdict, Some(Ok(())), "the replay verifies");
    // Opened from the game, an ended table goes back to attract.
    assert!(run_until(&mut app, 40.0, |a| screen(a) == Screen::Attract));
    assert!(on_table(&mut app).is_empty(), "the table is cleared");
}

#[test]
fn a_person_plays_card_game_alpha_against_the_cpu_with_three_buttons() {
    use bterm::arena::play::table::{TableCard, TableGame};
    use bterm::arena::screens::lobby::Lobby;
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(settings(&dir));
    press(&mut app, Side::P1, Button::A);
    assert_eq!(screen(&app), Screen::Choose);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::TableSetup);
    let lobby = app.world().resource::<Lobby>().clone();
    assert_eq!(lobby.seats, 2);
    assert_eq!(
        lobby.players[..2],
        [Player::Person, Player::Cpu(Strength::Normal)]
    );
    // A from the first line wraps round to START; C starts.
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::Table);
    assert!(
        app.world()
            .resource::<TableGame<AlphaMatch>>()
            .live
            .is_some()
    );
    // Only the person's hand is shown.
    let cards_of = |app: &mut App| {
        app.world_mut()
            .query::<&TableCard>()
            .iter(app.world())
            .map(|c| (c.id, c.face_up))
            .collect::<std::collections::HashMap<_, _>>()
    };
    app.update();
    let layout = app
        .world()
        .resource::<TableGame<AlphaMatch>>()
        .m()
        .unwrap()
        .layout();
    let shown = cards_of(&mut app);
    assert!(
        layout.seats[0]
            .hand
            .iter()
            .all(|c| shown[&u32::from(c.id.0)]),
        "P1 sees its hand"
    );
    assert!(
        layout.seats[1]
            .hand
            .iter()
            .all(|c| !shown[&u32::from(c.id.0)]),
        "not the CPU's"
    );
    // The person takes the first answer each time, until the game ends.
    let presses = play_out::<AlphaMatch>(&mut app, 3000.0);
    assert!(presses > 10);
    let game = app.world().resource::<TableGame<AlphaMatch>>();
    let m = game.m().unwrap();
    assert!(m.outcome().is_some());
    let saved = match game.host.as_ref().unwrap().saved() {
        Some(Ok(p)) => p.clone(),
        other => panic!("not saved: {other:?}"),
    };
    let replay = Replay::<bterm::rules::alpha::Match>::load(&saved).unwrap();
    assert_eq!(replay.final_hash, m.state_hash());
    assert_eq!(
        replay.actions.len(),
        game.host.as_ref().unwrap().table().actions().len()
    );
    // The saved game plays back to the same end.
    let mut again =
        bterm::rules::alpha::Match::from_setup(&replay.setup, &CardSet::embedded()).unwrap();
    for (seat, a) in &replay.actions {
        again.apply(*seat, *a).unwrap();
    }
    assert_eq!(again.state_hash(), replay.final_hash);
    // Then back to the start.
    assert!(run_until(&mut app, 40.0, |a| screen(a) == Screen::Attract));
}

#[test]
fn a_cpu_only_alpha_game_in_the_app_ends_as_the_rules_alone_end_it() {
    use bterm::arena::play::table::{TableGame, TargetMarker, live_game};
    use bterm::arena::render::place::seat_frame;
    use bterm::rules::alpha::Match;
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(settings(&dir));
    let cards = CardSet::embedded();
    let pilots = [
        Player::Cpu(Strength::Normal),
        Player::Cpu(Strength::Easy),
        Player::Cpu(Strength::Normal),
    ];
    let decks = ["courage", "nightmare", "sky-and-sea"]
        .map(|d| {
            bterm::rules::alpha::deck::embedded(d, &cards)
                .unwrap()
                .unwrap()
        })
        .to_vec();
    let game = live_game::<AlphaMatch>(&pilots, AlphaSetup::new(decks, 21), &cards).unwrap();
    let setup = game.replay.setup.clone();
    app.world_mut().insert_resource(game);
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Table);
    app.update();
    app.update();
    // Three seats: an arrow at each seat's edge points at its Target Opponent.
    let m = app
        .world()
        .resource::<TableGame<AlphaMatch>>()
        .m()
        .cloned()
        .unwrap();
    // The HUD names the first to attack.
    app.update();
    let first = m.order()[0];
    let said = app.world_mut().query::<&Text>().iter(app.world()).any(|t| {
        t.0.lines()
            .any(|l| l.contains(&format!("{first} ")) && l.contains("attacks 1st"))
    });
    assert!(said, "the HUD says {first} attacks first");
    let markers: Vec<(usize, Transform)> = app
        .world_mut()
        .query::<(&TargetMarker, &Transform)>()
        .iter(app.world())
        .map(|(t, tf)| (t.seat, *tf))
        .collect();
    assert_eq!(markers.len(), 3);
    for (seat, tf) in markers {
        let target = m.target(bterm::rules::Seat::new(seat).unwrap()).index();
        let (from, _, _) = seat_frame(seat, 3);
        let (to, _, _) = seat_frame(target, 3);
        let pointing = tf.rotation * Vec3::Y;
        assert!(
            pointing.dot((to - from).normalize()) > 0.99,
            "P{}'s arrow points at P{}",
            seat + 1,
            target + 1
        );
    }
    assert!(
        run_until(&mut app, 5000.0, |a| a
            .world()
            .resource::<TableGame<AlphaMatch>>()
            .ended()),
        "the game ends"
    );
    let in_app = app
        .world()
        .resource::<TableGame<AlphaMatch>>()
        .m()
        .cloned()
        .unwrap();
    // The same CPUs on the rules alone.
    let mut alone = Match::from_setup(&setup, &cards).unwrap();
    while alone.outcome().is_none() {
        let seat = alone.waiting_for().unwrap();
        let Player::Cpu(strength) = pilots[seat.index()] else {
            unreachable!()
        };
        let action = bterm::ai::alpha::choose(&alone.view(seat), strength);
        alone.apply(seat, action).unwrap();
    }
    assert_eq!(in_app.outcome(), alone.outcome());
    assert_eq!(in_app.state_hash(), alone.state_hash());
}

#[test]
fn a_deck_is_scanned_card_by_card_with_refusals_at_once_and_played() {
    use bterm::arena::play::table::{ChoiceLine, TableGame};
    use bterm::arena::screens::lobby::{DeckChoice, Lobby};
    use bterm::arena::screens::scan::deck::DeckScan;
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(settings(&dir));
    press(&mut app, Side::P1, Button::A);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::TableSetup);
    // C held goes back a screen; a tap goes on again.
    hold_c(&mut app);
    assert_eq!(screen(&app), Screen::Choose);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::TableSetup);
    // P1's deck line: C goes through the shipped decks to "scan a deck".
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    for _ in 0..bterm::rules::alpha::deck::EMBEDDED.len() {
        tap(&mut app, Side::P1, Button::C);
    }
    assert_eq!(app.world().resource::<Lobby>().decks[0], DeckChoice::Scan);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::DeckScreen);
    let count = |app: &App| app.world().resource::<DeckScan>().cards.len();
    let said = |app: &App| app.world().resource::<DeckScan>().message.clone();
    type_line(&mut app, "3 Agumon");
    assert_eq!(count(&app), 3);
    // A fourth of a name is refused at once, naming the rule.
    type_line(&mut app, "Agumon");
    assert_eq!(count(&app), 3);
    let (text, refused) = said(&app).unwrap();
    assert!(refused && text.contains("at most 3"), "{text}");
    // A number that names no card is refused too.
    type_line(&mut app, "Dα-999");
    assert_eq!(count(&app), 3);
    assert!(said(&app).unwrap().1);
    for name in [
        "Gabumon",
        "Garurumon",
        "Were Garurumon",
        "Patamon",
        "Angemon",
        "Magna Angemon",
        "Biyomon",
        "Birdramon",
        "Garudamon",
    ] {
        type_line(&mut app, &format!("3 {name}"));
    }
    assert_eq!(count(&app), 30);
    type_line(&mut app, "3 Tentomon");
    assert_eq!(count(&app), 32, "two join, the third is refused");
    let (text, refused) = said(&app).unwrap();
    assert!(refused && text.contains("exactly 32"), "{text}");
    // B takes the last back; A with 31 says how many are missing.
    press(&mut app, Side::P1, Button::B);
    assert_eq!(count(&app), 31);
    press(&mut app, Side::P1, Button::A);
    assert_eq!(screen(&app), Screen::DeckScreen);
    assert!(said(&app).unwrap().0.contains("scan 1 more"));
    type_line(&mut app, "Tentomon");
    press(&mut app, Side::P1, Button::A);
    assert_eq!(screen(&app), Screen::TableSetup);
    let scanned = match &app.world().resource::<Lobby>().decks[0] {
        DeckChoice::Scanned(d) => d.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(scanned.len(), 32);
    assert_eq!(
        app.world().resource::<Lobby>().line,
        2,
        "back on the deck's line"
    );
    // The mouse: START clicked starts the game with the scanned deck.
    let start = app
        .world_mut()
        .query::<(Entity, &Text, &Interaction)>()
        .iter(app.world())
        .find(|(_, t, _)| t.0.contains("START THE GAME"))
        .map(|(e, _, _)| e)
        .expect("a START line");
    app.world_mut()
        .entity_mut(start)
        .insert(Interaction::Pressed);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Table);
    let mut dealt = app
        .world()
        .resource::<TableGame<AlphaMatch>>()
        .replay
        .setup
        .decks[0]
        .clone();
    let mut want = scanned;
    dealt.sort();
    want.sort();
    assert_eq!(dealt, want, "P1 plays the deck scanned");
    // C held at a person's question asks before leaving the table.
    assert!(run_until(&mut app, 30.0, |a| {
        a.world()
            .resource::<TableGame<AlphaMatch>>()
            .m()
            .and_then(|m| m.waiting_for())
            == Some(Seat::P1)
            && a.world().resource::<TableGame<AlphaMatch>>().wait <= 0.0
    }));
    hold_c(&mut app);
    assert_eq!(screen(&app), Screen::Table);
    let leaving = |a: &App| {
        a.world()
            .resource::<TableGame<AlphaMatch>>()
            .live
            .as_ref()
            .and_then(|l| l.leaving)
    };
    assert_eq!(leaving(&app), Some(0));
    // B moves to "leave"; a tap of C would take it. The mouse takes it too:
    // the line that shows "Leave the table", clicked.
    press(&mut app, Side::P1, Button::B);
    assert_eq!(leaving(&app), Some(1));
    press(&mut app, Side::P1, Button::A);
    assert_eq!(leaving(&app), Some(0));
    let leave = app
        .world_mut()
        .query::<(Entity, &ChoiceLine, &Text)>()
        .iter(app.world())
        .find(|(_, l, t)| l.answer == Some(1) && t.0.contains("Leave the table"))
        .map(|(e, _, _)| e)
        .expect("a line to leave by");
    app.world_mut()
        .entity_mut(leave)
        .insert(Interaction::Pressed);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Attract);
}

/// Each kind of Card Game Alpha event that the table stages, taken from
/// the rule scenarios (`tests/alpha/*.ron`) that first show it, played on
/// the table step by step: attacks, blocks and alpha supporters are ringed
/// before the clash, a battle's techniques fly, damage rises, deleted and
/// evolved Digimon leave their figures, the phases, Bursts, Lifespans and
/// the end are called in a banner, and every event is in the log.
#[test]
fn every_alpha_event_kind_is_staged_on_the_table() {
    use bterm::arena::play::table::{ClashRing, PendingTable, Role, Shot, TableFigure, TableGame};
    use bterm::arena::ui::numbers::DamageNumber;
    use bterm::rules::Ruleset;
    use bterm::rules::alpha::script::Script;
    use bterm::rules::alpha::{Event, Match};
    let cards = CardSet::embedded();
    let kind = |e: &Event| {
        let k = format!("{e:?}");
        k.split([' ', '(', '{']).next().unwrap().to_string()
    };
    const KINDS: [&str; 14] = [
        "Attack",
        "AlphaAttack",
        "Block",
        "AlphaBlock",
        "BattleResult",
        "Damage",
        "Deleted",
        "Evolved",
        "Burst",
        "Lifespan",
        "Revealed",
        "FirstToAttack",
        "BattlePhase",
        "Over",
    ];
    // For each kind, the first scenario (by name) whose events show it.
    let mut files: Vec<_> = std::fs::read_dir("tests/alpha")
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    let mut chosen: Vec<(String, Script)> = Vec::new();
    let mut found = std::collections::BTreeSet::new();
    for f in &files {
        let script: Script = bterm::cards::read_ron(&std::fs::read_to_string(f).unwrap()).unwrap();
        if !script.cards.is_empty() {
            continue;
        }
        let Ok(played) = script.run(&cards) else {
            continue;
        };
        if played.refused.is_some() {
            continue;
        }
        let new: Vec<String> = played
            .events
            .iter()
            .map(|(_, e)| kind(e))
            .filter(|k| KINDS.contains(&k.as_str()) && !found.contains(k))
            .collect();
        if !new.is_empty() {
            found.extend(new);
            chosen.push((f.display().to_string(), script));
        }
    }
    assert_eq!(
        found.len(),
        KINDS.len(),
        "the scenarios show every kind: {found:?}"
    );
    let mut staged = std::collections::BTreeSet::new();
    for (name, script) in chosen {
        let setup = script.setup(&cards).unwrap();
        let mut m = Match::from_setup(&setup, &cards).unwrap();
        let mut actions = Vec::new();
        let mut steps = Vec::new();
        for (seat, text) in &script.steps {
            let a = m.parse_action(*seat, text).unwrap();
            steps.push(m.apply(*seat, a).unwrap());
            actions.push((*seat, a));
        }
        let replay: Replay<AlphaMatch> = Replay {
            rules: Match::version(&setup),
            setup: setup.clone(),
            actions,
            final_hash: m.state_hash(),
        };
        let dir = tempfile::tempdir().unwrap();
        let mut app = app(settings(&dir));
        app.world_mut()
            .insert_resource(PendingTable(replay, name.clone()));
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Table);
        app.update();
        app.update();
        for (i, events) in steps.iter().enumerate() {
            press(&mut app, Side::P1, Button::B);
            app.update();
            let at = format!("{name} step {}", i + 1);
            let world = app.world_mut();
            let rings: Vec<ClashRing> = world.query::<&ClashRing>().iter(world).copied().collect();
            // Rings under a figure are shown, where the figure stands.
            let shown_rings: Vec<(ClashRing, Vec3)> = world
                .query::<(&ClashRing, &Visibility, &Transform)>()
                .iter(world)
                .filter(|(_, v, _)| **v != Visibility::Hidden)
                .map(|(r, _, t)| (*r, t.translation))
                .collect();
            let homes: Vec<(usize, CardNumber, Vec3)> = world
                .query::<(&TableFigure, &Figure)>()
                .iter(world)
                .map(|(t, f)| (t.seat, f.card, f.home))
                .collect();
            let ringed = |part: fn(Role) -> bool| rings.iter().filter(|r| part(r.role)).count();
            let shots = world.query::<&Shot>().iter(world).count();
            let risen = world.query::<&DamageNumber>().iter(world).count();
            let figures: Vec<CardNumber> = world
                .query::<(&TableFigure, &Figure)>()
                .iter(world)
                .map(|(_, f)| f.card)
                .collect();
            let game = app.world().resource::<TableGame<AlphaMatch>>();
            let banner = game.banners().collect::<Vec<_>>().join(" | ");
            // The battle's parts are ringed while the step is staged, until
            // the next action (or the battle after it in the step) starts.
            let starts = |e: &Event| matches!(e, Event::Attack { .. } | Event::AlphaAttack { .. });
            let last_start = events.iter().rposition(starts);
            for (j, e) in events.iter().enumerate() {
                let k = kind(e);
                // Blocks belong to the last attack of the step.
                let under_way = match e {
                    Event::Attack { .. } | Event::AlphaAttack { .. } => Some(j) == last_start,
                    _ => last_start.is_none_or(|s| j > s),
                };
                // (Whether it is staged, whether that was checked here.)
                let (ok, checked) = match e {
                    Event::Attack { card, .. } | Event::AlphaAttack { card, .. } if under_way => {
                        let attacker = rings.iter().any(|r| r.role == Role::Attacker(*card));
                        // Its ring lies under its figure (one copy in play).
                        let standing: Vec<_> = homes.iter().filter(|(_, c, _)| c == card).collect();
                        let placed = standing.len() != 1
                            || shown_rings.iter().any(|(r, at)| {
                                r.role == Role::Attacker(*card)
                                    && at.xz().distance(standing[0].2.xz()) < 0.05
                            });
                        let attacker = attacker && placed;
                        let support = match e {
                            Event::AlphaAttack { support, .. } => {
                                ringed(|r| matches!(r, Role::Supporter(_))) == support.len()
                            }
                            _ => true,
                        };
                        (attacker && support, true)
                    }
                    Event::Block { card, .. } | Event::AlphaBlock { card, .. } if under_way => {
                        let blocker = rings.iter().any(|r| r.role == Role::Blocker(*card));
                        let support = match e {
                            Event::AlphaBlock { support, .. } => {
                                ringed(|r| matches!(r, Role::BlockSupporter(_))) == support.len()
                            }
                            _ => true,
                        };
                        (blocker && support, true)
                    }
                    Event::BattleResult { .. } => (shots > 0, true),
                    Event::Damage { .. } => (risen > 0, true),
                    Event::Deleted { card, .. } => (!figures.contains(card), true),
                    // (Of a chain of evolutions in one step, the last stands.)
                    Event::Evolved { to, .. }
                        if !events[j + 1..]
                            .iter()
                            .any(|x| matches!(x, Event::Evolved { from, .. } if from == to)) =>
                    {
                        (figures.contains(to), true)
                    }
                    _ if ["Burst", "Lifespan", "FirstToAttack", "BattlePhase", "Over"]
                        .contains(&k.as_str()) =>
                    {
                        let word = match k.as_str() {
                            "Burst" => "BURST",
                            "Lifespan" => "LIFESPAN",
                            "FirstToAttack" => "ATTACKS FIRST",
                            "BattlePhase" => "BATTLE PHASE",
                            _ => "WINS",
                        };
                        (
                            banner.contains(word) || (k == "Over" && banner.contains("DRAW")),
                            true,
                        )
                    }
                    _ => (true, false),
                };
                assert!(
                    ok,
                    "{at}: {k} is not staged ({e:?}); banner {banner:?}, rings {rings:?}, figures {figures:?}, events {events:?}"
                );
                if checked {
                    staged.insert(k);
                }
            }
            // Every event of the step is in the log, in words.
            let log: Vec<String> = game.log.iter().cloned().collect();
            let own = script.card_set(&cards).unwrap();
            for e in events.iter().rev().take(log.len().min(3)) {
                let said = Match::describe(e, &own);
                assert!(log.contains(&said), "{at}: {said:?} is not in the log");
            }
        }
    }
    // Revealed, Evolved and the rest that need no check above still count
    // as seen; the ring and banner kinds must have been checked.
    for k in [
        "Attack",
        "AlphaAttack",
        "Block",
        "AlphaBlock",
        "BattleResult",
        "Damage",
        "Deleted",
        "Burst",
        "Lifespan",
    ] {
        assert!(staged.contains(k), "{k} was never checked on the table");
    }
}

#[test]
fn the_scan_screen_looks_for_a_webcam_and_says_plainly_when_there_is_none() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(Settings {
        find_camera: true,
        ..settings(&dir)
    });
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::Scan);
    let message = app.world().resource::<Roster>().teams[0].message.clone();
    if std::path::Path::new("/dev/video0").exists() {
        // A machine with a webcam opens it: nothing to say.
        eprintln!("a webcam is attached; the scan screen says {message:?}");
        return;
    }
    let (words, refusal) = message.expect("the screen says there is no webcam");
    assert!(words.starts_with("No webcam found"), "{words}");
    assert!(words.contains("type card numbers"), "{words}");
    assert!(!refusal, "not an error: a machine may have no webcam");
    // Typed numbers still work: the screen goes on.
    type_line(&mut app, "Dα-001");
    let team = &app.world().resource::<Roster>().teams[0];
    assert_eq!(team.cards.len(), 1, "a typed card joins the team");
}

#[test]
fn a_recorded_sequence_played_as_the_camera_puts_the_card_held_steady_on_screen() {
    use bterm::barcode::perturb::{KINDS, shoot};
    use bterm::barcode::print::render_card;
    let dir = tempfile::tempdir().unwrap();
    let frames = dir.path().join("frames");
    std::fs::create_dir(&frames).unwrap();
    let set = CardSet::embedded();
    let agumon = set.resolve("Dα-001").unwrap();
    let clean = image::DynamicImage::ImageRgb8(render_card(agumon, false).unwrap()).to_luma8();
    // An empty table, then the card held steady (small, turned 20°), each
    // frame its own shot.
    let empty = image::GrayImage::from_pixel(1280, 720, image::Luma([120]));
    for n in 0..3 {
        empty.save(frames.join(format!("{n:02}.png"))).unwrap();
    }
    for n in 3..10 {
        shoot(&clean, &KINDS[2].1, n)
            .save(frames.join(format!("{n:02}.png")))
            .unwrap();
    }
    let mut app = app(Settings {
        video: Some(frames),
        ..settings(&dir)
    });
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::Scan);
    // The camera's thread runs in real time: wait for it, at most 20 s.
    let start = std::time::Instant::now();
    let on_screen = loop {
        app.update();
        let team = &app.world().resource::<Roster>().teams[0];
        if let Some((card, _)) = team.cards.first() {
            break Some(card.number().to_string());
        }
        if start.elapsed() > Duration::from_secs(20) {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(
        on_screen.as_deref(),
        Some("Dα-001"),
        "the card held steady joins P1's team"
    );
    let team = &app.world().resource::<Roster>().teams[0];
    assert_eq!(team.cards.len(), 1, "once, not once a frame");
}

/// Runs frames (a little real time each, for the network) until `done`,
/// or fails after `seconds`.
fn run_real(app: &mut App, seconds: u64, what: &str, mut done: impl FnMut(&mut App) -> bool) {
    let end = std::time::Instant::now() + Duration::from_secs(seconds);
    while !done(app) {
        assert!(
            std::time::Instant::now() < end,
            "{what}: not within {seconds} s (on {:?})",
            screen(app)
        );
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// A table hosted on another machine (a thread here, on loopback): its
/// address, and the thread that ends with the finished table.
fn lan_host<R: bterm::net::Lan>(
    name: &str,
    code: &str,
    players: Vec<Player>,
    cards: Vec<Option<Vec<CardNumber>>>,
    seed: u64,
) -> (
    std::net::SocketAddr,
    std::thread::JoinHandle<bterm::session::Table<R>>,
) {
    use bterm::net::host::{Host, HostOptions};
    use bterm::net::link::HostLink;
    use bterm::session::Watch;
    let link = HostLink::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = link.addr();
    let options = HostOptions::new(name, code, players, cards, seed);
    let host = std::thread::spawn(move || {
        let set = CardSet::embedded();
        let mut h: Host<R> = Host::new(link, options, Box::new(|_| {}));
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let mut table = h
            .fill(&set, Some(deadline))
            .unwrap()
            .expect("the seats are taken");
        h.play(&mut table, &set, &mut Watch(|_: &R::Event| {}))
            .unwrap();
        table
    });
    (addr, host)
}

/// The join screen hears one table: `game` as the LAN announces it.
fn hear_table(app: &mut App, name: &str, addr: std::net::SocketAddr, game: &str) {
    use bterm::arena::screens::lan::LanForm;
    use bterm::net::discover::Found;
    assert_eq!(screen(app), Screen::LanJoin);
    app.world_mut().resource_mut::<LanForm>().found = vec![Found {
        name: name.into(),
        addr,
        game: game.into(),
        seats: "2".into(),
        version: bterm::net::protocol::PROTOCOL_VERSION.to_string(),
    }];
}

/// From attract, hosts a Terminal Battle table on the LAN (P2 from the
/// LAN) with the buttons; returns its port and join code once the host's
/// own seat is taken.
fn host_in_arena(app: &mut App) -> (u16, String) {
    use bterm::arena::screens::lan::LanTable;
    press(app, Side::P1, Button::A);
    press(app, Side::P1, Button::B);
    press(app, Side::P1, Button::B);
    press(app, Side::P1, Button::B);
    press(app, Side::P1, Button::B);
    tap(app, Side::P1, Button::C);
    assert_eq!(screen(app), Screen::LanHost, "the fifth line hosts");
    // A from the first line wraps round to OPEN THE TABLE.
    press(app, Side::P1, Button::A);
    tap(app, Side::P1, Button::C);
    assert_eq!(screen(app), Screen::LanLobby);
    let (port, code) = {
        let lan = app.world().resource::<LanTable>();
        assert!(lan.hosts());
        (
            lan.addr.port(),
            lan.code.clone().expect("a hosting table shows its code"),
        )
    };
    run_real(app, 10, "the host's own seat", |app| {
        app.world().resource::<LanTable>().seat == Some(Seat::P1)
    });
    (port, code)
}

/// A LAN battle played on: each question the host asks this machine is
/// answered with a tap of `button`, until the result screen. Returns how
/// many were answered.
fn answer_to_the_result(app: &mut App, button: Button) -> usize {
    let mut answered = 0;
    run_real(app, 120, "the result", |app| {
        let asked = app
            .world()
            .resource::<Duel>()
            .remote
            .as_ref()
            .is_some_and(|r| r.asked.is_some());
        if asked {
            tap(app, Side::P1, button);
            answered += 1;
        }
        screen(app) == Screen::Result
    });
    answered
}

/// Another machine: a CPU client joining a Terminal Battle table.
fn cpu_client(
    addr: std::net::SocketAddr,
    role: bterm::net::protocol::Role,
    code: &str,
) -> std::thread::JoinHandle<
    Result<bterm::net::client::Ended<bterm::rules::terminal::Match>, bterm::net::client::JoinError>,
> {
    use bterm::net::client::{CpuSeat, JoinOptions, join};
    let options = JoinOptions::new(
        addr,
        "Matt",
        role,
        code,
        vec![number("Dα-021"), number("Dα-012")],
    );
    std::thread::spawn(move || {
        join::<bterm::rules::terminal::Match, _>(
            &options,
            &CardSet::embedded(),
            &mut CpuSeat(Strength::Easy),
        )
    })
}

#[test]
fn a_person_hosts_a_terminal_battle_on_the_lan_and_plays_it_with_the_buttons() {
    use bterm::arena::screens::lan::LanTable;
    use bterm::net::protocol::Role;
    use bterm::rules::terminal;
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(Settings {
        lan_discovery: false,
        ..settings(&dir)
    });
    let (port, code) = host_in_arena(&mut app);
    assert_eq!(code.len(), 4);
    run_real(&mut app, 10, "the host's own seat", |app| {
        app.world().resource::<LanTable>().seat == Some(Seat::P1)
    });
    // Another machine joins with the code: a CPU client.
    let addr = format!("127.0.0.1:{port}").parse().unwrap();
    let other = cpu_client(addr, Role::Player, &code);
    run_real(&mut app, 20, "the battle", |app| {
        screen(app) == Screen::Battle
    });
    assert_eq!(app.world().resource::<Duel>().kind, DuelKind::Lan);
    // P1 answers every question with B (a tap: no Alpha Strike).
    assert!(
        answer_to_the_result(&mut app, Button::B) > 0,
        "P1 was asked"
    );
    let end = other
        .join()
        .unwrap()
        .expect("the other machine's game ends");
    // The replay saved here is the game the other machine kept.
    let saved: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron") && !p.ends_with("lan-table.ron"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let here = Replay::<terminal::Match>::load(&saved[0]).unwrap();
    assert_eq!(here.final_hash, end.replay.final_hash);
    assert_eq!(here.actions, end.replay.actions);
    assert!(
        here.actions
            .iter()
            .any(|(s, a)| *s == Seat::P1 && *a == Action::Stance(bterm::glossary::BattleType::B)),
        "P1's buttons reached the host"
    );
    assert!(
        !dir.path().join("lan-table.ron").exists(),
        "a finished game's autosave is removed"
    );
    // A goes back to the choice of game, and the table is left.
    press(&mut app, Side::P1, Button::A);
    assert_eq!(screen(&app), Screen::Choose);
    assert!(app.world().get_resource::<LanTable>().is_none());
}

#[test]
fn a_person_joins_a_card_game_alpha_table_with_the_code_and_plays_from_its_own_seat() {
    use bterm::arena::play::table::TableGame;
    use bterm::arena::screens::lan::{LanForm, LanTable};
    use bterm::rules::alpha;
    let set = CardSet::embedded();
    let deck = alpha::deck::embedded(alpha::deck::EMBEDDED[1].0, &set)
        .unwrap()
        .unwrap();
    let (addr, host) = lan_host::<alpha::Match>(
        "the other table",
        "4321",
        vec![Player::Cpu(Strength::Easy), Player::Remote],
        vec![Some(deck), None],
        5,
    );
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(Settings {
        lan_discovery: false,
        ..settings(&dir)
    });
    press(&mut app, Side::P1, Button::A);
    // A from the first line wraps round to the last: join.
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanJoin, "the last line joins");
    // The table as the LAN announces it.
    hear_table(&mut app, "the other table", addr, "Alpha");
    // A wrong code is refused, and the lobby says so.
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanLobby);
    run_real(&mut app, 15, "the refusal", |app| {
        app.world()
            .get_resource::<LanTable>()
            .is_some_and(|l| l.problem.is_some())
    });
    let why = app
        .world()
        .resource::<LanTable>()
        .problem
        .clone()
        .unwrap()
        .0;
    assert!(why.contains("wrong join code"), "{why}");
    hold_c(&mut app);
    assert_eq!(screen(&app), Screen::Choose);
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanJoin);
    // The code, a digit at a time: C starts it, A turns, C goes on.
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    for digit in [4, 3, 2, 1] {
        for _ in 0..digit {
            press(&mut app, Side::P1, Button::A);
        }
        tap(&mut app, Side::P1, Button::C);
    }
    assert_eq!(app.world().resource::<LanForm>().code_text(), "4321");
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanLobby);
    run_real(&mut app, 20, "the table", |app| {
        screen(app) == Screen::Table
    });
    // This machine plays P2, and the table shows P2's hand only: P1's
    // cards in hand are stand-ins, face down.
    assert_eq!(app.world().resource::<LanTable>().seat, Some(Seat::P2));
    {
        use bterm::arena::play::table::Hands;
        let game = app.world().resource::<TableGame<AlphaMatch>>();
        assert_eq!(game.hands(), Hands::Only(Some(1)));
        let layout = game.layout.as_ref().expect("the table is laid out");
        assert!(!layout.seats[0].hand.is_empty());
        assert!(layout.seats[0].hand.iter().all(|c| c.id.is_stand_in()));
        assert!(layout.seats[1].hand.iter().all(|c| !c.id.is_stand_in()));
    }
    // C takes the first answer of every question, until the game ends.
    let mut answered = 0;
    run_real(&mut app, 240, "the game's end", |app| {
        let game = app.world().resource::<TableGame<AlphaMatch>>();
        if game.ended() {
            return game.host.as_ref().is_some_and(|h| h.saved().is_some());
        }
        let asked = game.remote.as_ref().is_some_and(|r| r.asked.is_some());
        if asked && game.wait <= 0.0 {
            tap(app, Side::P1, Button::C);
            answered += 1;
        }
        false
    });
    assert!(answered > 0);
    let table = host.join().unwrap();
    let game = app.world().resource::<TableGame<AlphaMatch>>();
    assert_eq!(game.replay.final_hash, table.game().state_hash());
    assert_eq!(game.replay.actions, table.actions());
    let saved = game
        .host
        .as_ref()
        .unwrap()
        .saved()
        .cloned()
        .unwrap()
        .unwrap();
    let kept = Replay::<alpha::Match>::load(&saved).unwrap();
    assert_eq!(kept.final_hash, table.game().state_hash());
}

#[test]
fn a_host_that_leaves_its_lan_battle_closes_the_table_for_the_other_machine() {
    use bterm::arena::screens::lan::LanTable;
    use bterm::net::client::JoinError;
    use bterm::net::protocol::Role;
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(Settings {
        lan_discovery: false,
        ..settings(&dir)
    });
    let (port, code) = host_in_arena(&mut app);
    let other = cpu_client(
        format!("127.0.0.1:{port}").parse().unwrap(),
        Role::Player,
        &code,
    );
    run_real(&mut app, 20, "the battle", |app| {
        screen(app) == Screen::Battle
    });
    // Esc, nobody having pressed anything: the table goes with the screen.
    key(&mut app, KeyCode::Escape, None);
    app.update();
    assert_eq!(screen(&app), Screen::Attract);
    assert!(app.world().get_resource::<LanTable>().is_none());
    match other.join().unwrap() {
        Err(JoinError::Closed(why)) => assert!(why.contains("host left"), "{why}"),
        other => panic!("the other machine is told the table closed: {other:?}"),
    }
}

#[test]
fn a_spectator_watches_a_lan_battle_in_the_arena_and_keeps_its_replay() {
    use bterm::arena::screens::lan::{LanForm, LanTable};
    use bterm::net::protocol::Role;
    use bterm::rules::terminal;
    let (addr, host) = lan_host::<terminal::Match>(
        "a table to watch",
        "0042",
        vec![Player::Cpu(Strength::Easy), Player::Remote],
        vec![Some(vec![number("Dα-001"), number("OP-010")]), None],
        9,
    );
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(Settings {
        lan_discovery: false,
        ..settings(&dir)
    });
    press(&mut app, Side::P1, Button::A);
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanJoin);
    hear_table(&mut app, "a table to watch", addr, "Terminal");
    // Join as: a spectator (no code), then JOIN.
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert!(app.world().resource::<LanForm>().watch);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanLobby);
    run_real(&mut app, 10, "the welcome", |app| {
        app.world().resource::<LanTable>().welcomed
    });
    assert_eq!(app.world().resource::<LanTable>().seat, None);
    // The player's machine joins; the game starts, and is watched here.
    let player = cpu_client(addr, Role::Player, "0042");
    run_real(&mut app, 20, "the battle", |app| {
        screen(app) == Screen::Battle
    });
    {
        let d = app.world().resource::<Duel>();
        assert_eq!(d.kind, DuelKind::Lan);
        assert!(
            Side::BOTH.iter().all(|&s| d.player(s) == Player::Remote),
            "nobody plays here"
        );
    }
    run_real(&mut app, 120, "the result", |app| {
        // No button a spectator presses reaches the table.
        tap(app, Side::P1, Button::A);
        let d = app.world().resource::<Duel>();
        assert!(
            d.asking.iter().all(Option::is_none),
            "a spectator is asked nothing"
        );
        screen(app) == Screen::Result
    });
    let table = host.join().unwrap();
    let end = player.join().unwrap().unwrap();
    let duel = app.world().resource::<Duel>();
    assert_eq!(duel.m().state_hash(), table.game().state_hash());
    assert_eq!(end.replay.final_hash, table.game().state_hash());
    let saved = duel
        .host
        .saved()
        .cloned()
        .expect("saved")
        .expect("saved without error");
    let kept = Replay::<terminal::Match>::load(&saved).unwrap();
    assert_eq!(kept.actions, table.actions());
}

#[test]
fn a_spectator_at_a_lan_card_game_alpha_table_sees_no_hand_face_up() {
    use bterm::arena::play::table::{TableCard, TableGame};
    use bterm::arena::screens::lan::LanTable;
    use bterm::net::client::{CpuSeat, JoinOptions, join};
    use bterm::net::protocol::Role;
    use bterm::rules::alpha;
    let set = CardSet::embedded();
    let deck = |i: usize| {
        alpha::deck::embedded(alpha::deck::EMBEDDED[i].0, &set)
            .unwrap()
            .unwrap()
    };
    let (d0, d1) = (deck(0), deck(2));
    let (addr, host) = lan_host::<alpha::Match>(
        "watched",
        "1234",
        vec![Player::Cpu(Strength::Easy), Player::Remote],
        vec![Some(d0), None],
        8,
    );
    let dir = tempfile::tempdir().unwrap();
    // The table given by its address (`bterm play --table`): the join
    // screen asks it which game it plays.
    let mut app = app(Settings {
        lan_discovery: false,
        lan_tables: vec![addr],
        ..settings(&dir)
    });
    press(&mut app, Side::P1, Button::A);
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanJoin);
    run_real(&mut app, 15, "the table's game", |app| {
        app.world()
            .resource::<bterm::arena::screens::lan::LanForm>()
            .chosen_table()
            .is_some_and(|t| t.game == "Alpha")
    });
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    run_real(&mut app, 10, "the welcome", |app| {
        app.world().resource::<LanTable>().welcomed
    });
    // The player's machine: a CPU client with its deck.
    let options = JoinOptions::new(addr, "Izzy", Role::Player, "1234", d1);
    let player = std::thread::spawn(move || {
        join::<alpha::Match, _>(&options, &CardSet::embedded(), &mut CpuSeat(Strength::Easy))
    });
    run_real(&mut app, 20, "the table", |app| {
        screen(app) == Screen::Table
    });
    // Whenever the table has cards in hands, none is face up here.
    let mut looked = 0;
    run_real(&mut app, 240, "the game's end", |app| {
        let in_hand: Vec<_> = {
            let game = app.world().resource::<TableGame<AlphaMatch>>();
            game.layout.as_ref().map_or_else(Vec::new, |l| {
                l.seats
                    .iter()
                    .flat_map(|s| s.hand.iter().map(|c| u32::from(c.id.0)))
                    .collect()
            })
        };
        let cards: Vec<(u32, bool)> = app
            .world_mut()
            .query::<&TableCard>()
            .iter(app.world())
            .map(|c| (c.id, c.face_up))
            .collect();
        for (id, up) in cards {
            if in_hand.contains(&id) {
                looked += 1;
                assert!(!up, "a hand card face up at a spectator's table");
            }
        }
        app.world().resource::<TableGame<AlphaMatch>>().ended()
    });
    assert!(looked > 0, "hands were on the table");
    let table = host.join().unwrap();
    player.join().unwrap().unwrap();
    let game = app.world().resource::<TableGame<AlphaMatch>>();
    assert_eq!(game.replay.final_hash, table.game().state_hash());
}

#[test]
fn a_host_brings_a_team_scanned_at_the_cabinet_to_its_lan_table() {
    use bterm::arena::screens::lan::{Brings, LanForm};
    use bterm::net::protocol::Role;
    use bterm::rules::RulesetId;
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(Settings {
        lan_discovery: false,
        ..settings(&dir)
    });
    press(&mut app, Side::P1, Button::A);
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanHost);
    // The team line: C goes through the demo teams to "a team you scan",
    // and C there opens the scanner.
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    for _ in 0..8 {
        tap(&mut app, Side::P1, Button::C);
    }
    assert_eq!(app.world().resource::<LanForm>().brings, Brings::Scan);
    // Opening the table now says what to do first.
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanHost);
    let problem = app.world().resource::<LanForm>().problem.clone().unwrap();
    assert!(problem.contains("scan your team first"), "{problem}");
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::Scan);
    // The scan screen, for P1 only: a card, then A (ready).
    type_line(&mut app, "Agumon");
    press(&mut app, Side::P1, Button::A);
    assert_eq!(screen(&app), Screen::LanHost, "back to the table's form");
    {
        let form = app.world().resource::<LanForm>();
        assert_eq!(
            form.brings,
            Brings::Scanned(RulesetId::Terminal, vec![number("Dα-001")])
        );
        assert_eq!(form.line, 2, "on the team's line still");
    }
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanLobby);
    let (port, code) = {
        let lan = app
            .world()
            .resource::<bterm::arena::screens::lan::LanTable>();
        (lan.addr.port(), lan.code.clone().unwrap())
    };
    // The other machine joins once the host's own player has P1.
    run_real(&mut app, 10, "the host's own seat", |app| {
        app.world()
            .resource::<bterm::arena::screens::lan::LanTable>()
            .seat
            == Some(Seat::P1)
    });
    let other = cpu_client(
        format!("127.0.0.1:{port}").parse().unwrap(),
        Role::Player,
        &code,
    );
    run_real(&mut app, 20, "the battle", |app| {
        screen(app) == Screen::Battle
    });
    answer_to_the_result(&mut app, Button::A);
    let end = other.join().unwrap().unwrap();
    assert_eq!(end.replay.setup.teams[0], vec![number("Dα-001")]);
    let duel = app.world().resource::<Duel>();
    assert_eq!(duel.setup().teams[0], vec![number("Dα-001")]);
}

#[test]
fn a_deck_scanned_for_a_lan_table_is_brought_and_the_local_setup_keeps_its_decks() {
    use bterm::arena::screens::lan::{Brings, LanForm};
    use bterm::arena::screens::lobby::{DeckChoice, Lobby};
    use bterm::rules::RulesetId;
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(Settings {
        lan_discovery: false,
        ..settings(&dir)
    });
    press(&mut app, Side::P1, Button::A);
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanHost);
    // The Card Game Alpha; its deck line (game, seats, P2, deck, open).
    tap(&mut app, Side::P1, Button::C);
    for _ in 0..3 {
        press(&mut app, Side::P1, Button::B);
    }
    let decks = bterm::rules::alpha::deck::EMBEDDED.len();
    for _ in 0..decks {
        tap(&mut app, Side::P1, Button::C);
    }
    assert_eq!(app.world().resource::<LanForm>().brings, Brings::Scan);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::DeckScreen);
    // Left unfinished: the form says why, and brings nothing scanned.
    type_line(&mut app, "3 Agumon");
    hold_c(&mut app);
    assert_eq!(screen(&app), Screen::LanHost);
    {
        let form = app.world().resource::<LanForm>();
        assert_eq!(form.brings, Brings::Scan);
        let why = form.problem.clone().unwrap_or_default();
        assert!(why.contains("scan 29 more"), "{why}");
    }
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::DeckScreen);
    for name in [
        "Gabumon",
        "Garurumon",
        "Were Garurumon",
        "Patamon",
        "Angemon",
        "Magna Angemon",
        "Biyomon",
        "Birdramon",
        "Garudamon",
    ] {
        type_line(&mut app, &format!("3 {name}"));
    }
    type_line(&mut app, "2 Tentomon");
    press(&mut app, Side::P1, Button::A);
    assert_eq!(screen(&app), Screen::LanHost, "back to the table's form");
    match &app.world().resource::<LanForm>().brings {
        Brings::Scanned(RulesetId::Alpha, d) => assert_eq!(d.len(), 32),
        other => panic!("the deck is brought: {other:?}"),
    }
    // The local game's setup keeps P1's shipped deck.
    assert_eq!(
        app.world().resource::<Lobby>().decks[0],
        DeckChoice::Shipped(0)
    );
}

/// The game's own binary (built with the webcam) asked to scan from a
/// camera where there is none says so, with exit 1. (The core's binary,
/// without the webcam, is tested in `tests/scan.rs`.)
#[cfg(feature = "camera")]
#[test]
fn scan_from_a_camera_that_is_not_there_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bterm"))
        .args(["scan", "--camera"])
        .env("BTERM_DATA_DIR", dir.path())
        .output()
        .expect("bterm runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("camera"), "{err}");
}

/// A person who does not answer at the Card Game Alpha table gets the
/// rules' own default after the rules' own seconds (`Match::question`: Done
/// here, after 300 s), as at the terminal and on the LAN; nothing is taken
/// before. A table nobody presses anything at for `table_idle` is left.
#[test]
fn a_question_left_alone_at_the_alpha_table_takes_the_rules_default_in_the_rules_time() {
    use bterm::arena::play::table::TableGame;
    use bterm::rules::Ruleset;
    let dir = tempfile::tempdir().unwrap();
    let mut s = settings(&dir);
    s.timeouts.table_idle = 10_000.0;
    let mut app = app(s);
    press(&mut app, Side::P1, Button::A);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::TableSetup);
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::Table);
    // Until P1 (the person) is asked.
    let asked = |a: &mut App| {
        let g = a.world().resource::<TableGame<AlphaMatch>>();
        g.m().and_then(|m| m.waiting_for()) == Some(Seat::P1) && g.wait <= 0.0
    };
    assert!(run_until(&mut app, 120.0, asked), "the person is asked");
    let (question, actions) = {
        let g = app.world().resource::<TableGame<AlphaMatch>>();
        let m = g.m().unwrap();
        let q = Ruleset::question(m, Seat::P1, &[], &CardSet::embedded()).unwrap();
        (q, g.host.as_ref().unwrap().table().actions().len())
    };
    assert_eq!(question.seconds, 300.0);
    let default = question.on_timeout.expect("the rules give a default");
    // Nothing is taken before the rules' time (the old 60 s is long past).
    let taken = |a: &mut App| {
        a.world()
            .resource::<TableGame<AlphaMatch>>()
            .host
            .as_ref()
            .is_some_and(|h| h.table().actions().len() > actions)
    };
    assert!(
        !run_until(&mut app, question.seconds - 5.0, taken),
        "nothing before 300 s"
    );
    assert!(run_until(&mut app, 10.0, taken), "the default after 300 s");
    let g = app.world().resource::<TableGame<AlphaMatch>>();
    assert_eq!(
        g.host.as_ref().unwrap().table().actions()[actions],
        (Seat::P1, default)
    );

    // At a kiosk, a table nobody presses anything at is left.
    let mut s = settings(&dir);
    s.timeouts.table_idle = 30.0;
    let mut app = self::app(s);
    press(&mut app, Side::P1, Button::A);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::Table);
    assert!(
        run_until(&mut app, 120.0, |a| screen(a) == Screen::Attract),
        "back to attract"
    );
}

/// The Digimon Card Game's match.
type DcgMatch = bterm::rules::dcg::Match;

/// Every card on the table, by where it is going: seat, card, face up and
/// place (to the millimetre), sorted.
fn table_cards(app: &mut App) -> Vec<(usize, String, bool, [i32; 3])> {
    use bterm::arena::play::table::TableCard;
    let mut v: Vec<_> = app
        .world_mut()
        .query::<&TableCard>()
        .iter(app.world())
        .map(|c| {
            let t = c.goal.translation * 1000.0;
            (
                c.seat,
                c.number.to_string(),
                c.face_up,
                [t.x as i32, t.y as i32, t.z as i32],
            )
        })
        .collect();
    v.sort();
    v
}

/// Where a Digimon Card Game layout puts each card, as [`table_cards`].
fn dcg_places(
    layout: &bterm::rules::dcg::layout::Layout,
    hands: bterm::arena::play::table::Hands,
) -> Vec<(usize, String, bool, [i32; 3])> {
    let mut v: Vec<_> =
        bterm::arena::play::table::layout_goals::<DcgMatch>(layout, layout.seats.len(), hands)
            .into_iter()
            .map(|(p, goal, up)| {
                let t = goal.translation * 1000.0;
                (
                    p.seat,
                    p.number.to_string(),
                    up,
                    [t.x as i32, t.y as i32, t.z as i32],
                )
            })
            .collect();
    v.sort();
    v
}

#[test]
fn a_digimon_card_game_replay_is_staged_on_the_table_card_for_card() {
    use bterm::arena::play::table::{
        Hands, MemoryToken, PendingTable, Revealed, Shot, TableFigure, TableGame, dcg_cpu_game,
    };
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(settings(&dir));
    let cards = CardSet::embedded();
    let replay = dcg_cpu_game(2, 3, &cards).expect("a CPU game");
    let actions = replay.actions.len();
    app.world_mut()
        .insert_resource(PendingTable(replay, "test".into()));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Table);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Table);
    let decks: usize = app
        .world()
        .resource::<TableGame<DcgMatch>>()
        .replay
        .setup
        .decks
        .iter()
        .map(Vec::len)
        .sum();
    assert_eq!(table_cards(&mut app).len(), decks, "both decks are dealt");
    let (mut shots, mut revealed, mut digivolved) = (0, 0, 0);
    let mut up_before = 0;
    let mut flips = 0;
    for step in 0..=actions {
        press(&mut app, Side::P1, Button::B);
        app.update();
        let game = app.world().resource::<TableGame<DcgMatch>>();
        assert!(game.paused, "a step pauses the game");
        let layout = game.m().unwrap().layout();
        // Every card lies where the rules put it: the same cards in the
        // same places, face up where the layout says.
        assert_eq!(
            table_cards(&mut app),
            dcg_places(&layout, Hands::All),
            "step {step}: the table and the rules differ"
        );
        let up = table_cards(&mut app).iter().filter(|c| c.2).count();
        if up != up_before {
            flips += 1;
            up_before = up;
        }
        // A figure stands on every Digimon in the battle area.
        let in_play: usize = layout
            .seats
            .iter()
            .map(|s| s.field.iter().filter(|p| p.digimon).count())
            .sum();
        let standing = app
            .world_mut()
            .query::<(&TableFigure, &Figure)>()
            .iter(app.world())
            .count();
        assert_eq!(standing, in_play, "step {step}: figures on the Digimon");
        if layout
            .seats
            .iter()
            .any(|s| s.field.iter().any(|p| p.digimon && p.cards.len() > 1))
        {
            digivolved += 1;
        }
        assert_eq!(
            app.world_mut()
                .query::<&MemoryToken>()
                .iter(app.world())
                .count(),
            1,
            "the memory gauge's counter"
        );
        shots += app.world_mut().query::<&Shot>().iter(app.world()).count();
        revealed += app
            .world_mut()
            .query::<&Revealed>()
            .iter(app.world())
            .count();
    }
    assert!(flips > 0, "cards turn over as the game goes");
    assert!(shots > 0, "attacks fly across the table");
    assert!(revealed > 0, "security checks are shown");
    assert!(digivolved > 0, "stacks lie fanned under their Digimon");
    let game = app.world().resource::<TableGame<DcgMatch>>();
    assert_eq!(game.next, actions);
    assert_eq!(game.verdict, Some(Ok(())), "the replay verifies");
    // Opened from the game, an ended table goes back to attract.
    assert!(run_until(&mut app, 40.0, |a| screen(a) == Screen::Attract));
    assert!(table_cards(&mut app).is_empty(), "the table is cleared");
}

/// Alpha Clash's match.
type ClashMatch = bterm::rules::clash::Match;

#[test]
fn an_alpha_clash_replay_is_staged_on_the_table_card_for_card() {
    use bterm::arena::play::table::{
        Hands, PendingTable, Shot, TableFigure, TableGame, clash_cpu_game, layout_goals,
    };
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(settings(&dir));
    let cards = CardSet::embedded();
    let replay = clash_cpu_game(2, 2, &cards).expect("a CPU game");
    let actions = replay.actions.len();
    app.world_mut()
        .insert_resource(PendingTable(replay, "test".into()));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Table);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Table);
    let (mut shots, mut in_the_air, mut steps_named) = (0, 0, 0);
    for step in 0..=actions {
        press(&mut app, Side::P1, Button::B);
        app.update();
        let game = app.world().resource::<TableGame<ClashMatch>>();
        assert!(game.paused, "a step pauses the game");
        if game.phase.starts_with('C') && game.phase.contains("Step") {
            steps_named += 1;
        }
        let layout = game.m().unwrap().layout();
        // Every card lies where the rules put it.
        let mut want: Vec<_> = layout_goals::<ClashMatch>(&layout, layout.seats.len(), Hands::All)
            .into_iter()
            .map(|(p, goal, up)| {
                let t = goal.translation * 1000.0;
                (
                    p.seat,
                    p.number.to_string(),
                    up,
                    [t.x as i32, t.y as i32, t.z as i32],
                )
            })
            .collect();
        want.sort();
        let have = table_cards(&mut app);
        assert_eq!(have, want, "step {step}: the table and the rules differ");
        // What waits in Standby floats over the table.
        if !layout.standby.is_empty() {
            assert!(
                have.iter().any(|c| c.3[1] > 900),
                "step {step}: Standby in the air"
            );
            in_the_air += 1;
        }
        // A figure stands on every Contender and Clash card in play.
        let in_play: usize = layout.seats.iter().map(|s| 1 + s.clash.len()).sum();
        let standing = app
            .world_mut()
            .query::<(&TableFigure, &Figure)>()
            .iter(app.world())
            .count();
        assert_eq!(
            standing, in_play,
            "step {step}: figures on the cards in play"
        );
        shots += app.world_mut().query::<&Shot>().iter(app.world()).count();
    }
    assert!(in_the_air > 0, "cards wait in Standby");
    assert!(steps_named > 0, "the clash steps are named");
    assert!(shots > 0, "attacks fly across the table");
    let game = app.world().resource::<TableGame<ClashMatch>>();
    assert_eq!(game.next, actions);
    assert_eq!(game.verdict, Some(Ok(())), "the replay verifies");
}

#[test]
fn a_person_plays_the_digimon_card_game_against_the_cpu_with_three_buttons() {
    use bterm::arena::play::table::{Hands, TableGame};
    use bterm::arena::screens::lobby::Lobby;
    use bterm::rules::RulesetId;
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(settings(&dir));
    press(&mut app, Side::P1, Button::A);
    assert_eq!(screen(&app), Screen::Choose);
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::TableSetup);
    let lobby = app.world().resource::<Lobby>().clone();
    assert_eq!(
        lobby.game,
        RulesetId::Dcg,
        "the third line is the Digimon Card Game"
    );
    assert_eq!(
        lobby.players[..2],
        [Player::Person, Player::Cpu(Strength::Normal)]
    );
    // A from the first line wraps round to START; C starts.
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::Table);
    app.update();
    // Only the person's hand is face up.
    let layout = app
        .world()
        .resource::<TableGame<DcgMatch>>()
        .m()
        .unwrap()
        .layout();
    assert_eq!(
        table_cards(&mut app),
        dcg_places(&layout, Hands::Only(Some(0))),
        "P1's hand face up, the CPU's not"
    );
    // The person takes the first answer each time, until the game ends.
    let presses = play_out::<DcgMatch>(&mut app, 4000.0);
    assert!(presses > 10);
    let game = app.world().resource::<TableGame<DcgMatch>>();
    let m = game.m().unwrap();
    assert!(m.outcome().is_some());
    let saved = match game.host.as_ref().unwrap().saved() {
        Some(Ok(p)) => p.clone(),
        other => panic!("not saved: {other:?}"),
    };
    let replay = Replay::<DcgMatch>::load(&saved).unwrap();
    assert_eq!(replay.final_hash, m.state_hash());
    let mut again = DcgMatch::from_setup(&replay.setup, &CardSet::embedded()).unwrap();
    for (seat, a) in &replay.actions {
        again.apply(*seat, *a).unwrap();
    }
    assert_eq!(
        again.state_hash(),
        replay.final_hash,
        "the saved game plays back"
    );
    assert!(run_until(&mut app, 40.0, |a| screen(a) == Screen::Attract));
}

#[test]
fn four_cpus_play_the_players_format_set_up_with_the_buttons_banks_and_targets_shown() {
    use bterm::arena::play::table::{Coin, TableGame, TargetMarker};
    use bterm::arena::screens::lobby::{Line, Lobby};
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(settings(&dir));
    press(&mut app, Side::P1, Button::A);
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    // Seats: 2 → 3 → 4; Format: standard → players; P1: a person → the CPU.
    tap(&mut app, Side::P1, Button::C);
    tap(&mut app, Side::P1, Button::C);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    let lobby = app.world().resource::<Lobby>().clone();
    assert_eq!(lobby.seats, 4);
    assert_eq!(lobby.format_word(), "players");
    assert!(lobby.players[..4].iter().all(|p| !p.is_person()));
    assert!(
        lobby
            .text(Line::Deck(0), &CardSet::embedded())
            .contains("Players Format")
    );
    // Up to the first line, and round to START.
    for _ in 0..3 {
        press(&mut app, Side::P1, Button::A);
    }
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(app.world().resource::<Lobby>().problem, None);
    assert_eq!(screen(&app), Screen::Table);
    let seen = run_until(&mut app, 600.0, |a| {
        let banks = a.world_mut().query::<&Coin>().iter(a.world()).count();
        let arrows = a
            .world_mut()
            .query::<&TargetMarker>()
            .iter(a.world())
            .count();
        banks > 0 && arrows == 4
    });
    assert!(
        seen,
        "the banks lie as coins, an arrow at each Target Opponent"
    );
    let game = app.world().resource::<TableGame<DcgMatch>>();
    let setup = &game.replay.setup;
    assert_eq!(setup.format, bterm::rules::dcg::Format::Players);
    assert_eq!(setup.decks.len(), 4);
}

#[test]
fn a_person_joins_a_three_seat_digimon_card_game_table_and_plays_from_its_own_seat() {
    use bterm::arena::play::table::{Hands, TableGame};
    use bterm::arena::screens::lan::{LanForm, LanTable};
    use bterm::rules::dcg;
    let set = CardSet::embedded();
    let deck = |i: usize| {
        dcg::deck::embedded(dcg::deck::EMBEDDED[i].0, &set)
            .unwrap()
            .unwrap()
    };
    let (addr, host) = lan_host::<DcgMatch>(
        "the card table",
        "2468",
        vec![
            Player::Cpu(Strength::Easy),
            Player::Remote,
            Player::Cpu(Strength::Easy),
        ],
        vec![Some(deck(0)), None, Some(deck(2))],
        9,
    );
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(Settings {
        lan_discovery: false,
        ..settings(&dir)
    });
    press(&mut app, Side::P1, Button::A);
    press(&mut app, Side::P1, Button::A);
    tap(&mut app, Side::P1, Button::C);
    hear_table(&mut app, "the card table", addr, "Dcg");
    // The code, a digit at a time: C starts it, A turns, C goes on.
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    for digit in [2, 4, 6, 8] {
        for _ in 0..digit {
            press(&mut app, Side::P1, Button::A);
        }
        tap(&mut app, Side::P1, Button::C);
    }
    assert_eq!(app.world().resource::<LanForm>().code_text(), "2468");
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanLobby);
    run_real(&mut app, 30, "the table", |app| {
        screen(app) == Screen::Table
    });
    assert_eq!(app.world().resource::<LanTable>().seat, Some(Seat::P2));
    // The table holds only what the host shows: P2's hand, the others'
    // face down and nameless.
    {
        let game = app.world().resource::<TableGame<DcgMatch>>();
        assert!(game.m().is_none(), "the host's match stays with the host");
        assert_eq!(game.hands(), Hands::Only(Some(1)));
        let layout = game.layout.as_ref().expect("the table is laid out");
        assert_eq!(layout.seats.len(), 3);
        assert!(layout.seats[0].hand.iter().all(|c| c.hidden));
        assert!(layout.seats[1].hand.iter().all(|c| !c.hidden));
    }
    // C takes the first answer of every question (its words the host's),
    // until the game ends; no hand but this seat's is ever face up.
    let (mut answered, mut worded) = (0, 0);
    run_real(&mut app, 300, "the game's end", |app| {
        let hidden_up = table_cards(app).iter().filter(|c| c.0 != 1 && c.2).count();
        let game = app.world().resource::<TableGame<DcgMatch>>();
        let open_elsewhere: usize = game.layout.as_ref().map_or(0, |l| {
            l.seats
                .iter()
                .filter(|s| s.seat != Seat::P2)
                .map(|s| {
                    s.trash.len()
                        + s.offline.len()
                        + s.field
                            .iter()
                            .chain(&s.breeding)
                            .map(|p| p.cards.len())
                            .sum::<usize>()
                        + s.eggs.iter().filter(|c| c.open).count()
                })
                .sum()
        });
        assert!(
            hidden_up <= open_elsewhere,
            "another seat's hidden card face up"
        );
        if game.ended() {
            return game.host.as_ref().is_some_and(|h| h.saved().is_some());
        }
        let asked = game.remote.as_ref().is_some_and(|r| r.asked.is_some());
        if asked && game.wait <= 0.0 {
            // The answers read as the host words them.
            let lines: Vec<String> = app
                .world_mut()
                .query::<(&bterm::arena::play::table::ChoiceLine, &Text)>()
                .iter(app.world())
                .map(|(_, t)| t.0.clone())
                .filter(|t| !t.trim().is_empty())
                .collect();
            assert!(lines.iter().all(|l| !l.contains("answer ")), "{lines:?}");
            worded += usize::from(!lines.is_empty());
            tap(app, Side::P1, Button::C);
            answered += 1;
        }
        false
    });
    assert!(answered > 0);
    assert!(worded > 0, "the answers were shown");
    let table = host.join().unwrap();
    let game = app.world().resource::<TableGame<DcgMatch>>();
    assert_eq!(game.replay.final_hash, table.game().state_hash());
    assert_eq!(game.replay.actions, table.actions());
}

#[test]
fn a_digimon_card_game_deck_is_typed_card_by_card_with_the_rules_words_and_played() {
    use bterm::arena::play::table::TableGame;
    use bterm::arena::screens::lobby::{DeckChoice, Lobby};
    use bterm::arena::screens::scan::deck::DeckScan;
    use bterm::rules::dcg;
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(settings(&dir));
    press(&mut app, Side::P1, Button::A);
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::TableSetup);
    // P1's deck line (seats, format, P1 plays, P1 deck): C goes through
    // the starter decks to "scan a deck", and C opens the deck screen.
    for _ in 0..3 {
        press(&mut app, Side::P1, Button::B);
    }
    for _ in 0..dcg::deck::EMBEDDED.len() {
        tap(&mut app, Side::P1, Button::C);
    }
    assert_eq!(app.world().resource::<Lobby>().decks[0], DeckChoice::Scan);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::DeckScreen);
    let count = |app: &App| app.world().resource::<DeckScan>().cards.len();
    let said = |app: &App| app.world().resource::<DeckScan>().message.clone().unwrap();
    // A Card Game Alpha card is refused at once, in the rules' words.
    type_line(&mut app, "Dα-001");
    assert_eq!(count(&app), 0);
    let (text, refused) = said(&app);
    assert!(refused && text.contains("DCG-DECK-1"), "{text}");
    // The red starter deck, typed a number at a time (up to 4 a line).
    let set = CardSet::embedded();
    let red = dcg::deck::embedded("red", &set).unwrap().unwrap();
    let mut lines: Vec<(usize, CardNumber)> = Vec::new();
    for n in &red {
        match lines.last_mut() {
            Some((k, m)) if m == n => *k += 1,
            _ => lines.push((1, *n)),
        }
    }
    let mut typed = 0;
    for (k, n) in &lines {
        type_line(&mut app, &format!("{k} {n}"));
        typed += k;
        assert_eq!(count(&app), typed, "{k} {n}: {:?}", said(&app));
    }
    // A fifth copy of a number is refused (DCG-DECK-2).
    let (_, four) = lines
        .iter()
        .find(|(k, _)| *k == 4)
        .copied()
        .expect("a card the red deck holds 4 of");
    type_line(&mut app, &four.to_string());
    assert_eq!(count(&app), typed);
    assert!(said(&app).0.contains("DCG-DECK-2"), "{:?}", said(&app));
    // A: the deck goes to the setup; START plays it.
    press(&mut app, Side::P1, Button::A);
    assert_eq!(screen(&app), Screen::TableSetup);
    assert_eq!(
        app.world().resource::<Lobby>().decks[0],
        DeckChoice::Scanned(red.clone())
    );
    // Up to the first line and round to START.
    for _ in 0..4 {
        press(&mut app, Side::P1, Button::A);
    }
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::Table);
    let game = app.world().resource::<TableGame<DcgMatch>>();
    assert_eq!(game.replay.setup.decks[0], red);
}

#[test]
fn a_click_finds_the_card_the_eye_meets_first() {
    use bterm::arena::play::table::{TableCard, card_under};
    let card = |n: &str, y: f32| {
        (
            TableCard {
                id: 0,
                loose: true,
                seat: 0,
                stand_in: false,
                number: number(n),
                goal: Transform::default(),
                face_up: true,
            },
            GlobalTransform::from(Transform::from_xyz(0.0, y, 0.0)),
        )
    };
    let down = |x: f32, z: f32| Ray3d::new(Vec3::new(x, 5.0, z), Dir3::NEG_Y);
    let under = card("Dα-001", 0.0);
    let over = card("Dα-002", 0.01);
    let both = [under, over];
    let pick = |ray| card_under(ray, both.iter().map(|(c, t)| (c, t)));
    assert_eq!(
        pick(down(0.0, 0.0)),
        Some(number("Dα-002")),
        "the card on top"
    );
    assert_eq!(pick(down(0.3, 0.4)), Some(number("Dα-002")), "its corner");
    assert_eq!(
        pick(down(0.33, 0.0)),
        None,
        "beside it (a card is 0.63 wide)"
    );
    assert_eq!(pick(down(0.0, 0.45)), None, "beyond its end (0.88 long)");
    // Turned sideways, it is 0.88 across.
    let turned = (
        under.0,
        GlobalTransform::from(Transform::from_rotation(Quat::from_rotation_y(
            std::f32::consts::FRAC_PI_2,
        ))),
    );
    let one = [turned];
    assert_eq!(
        card_under(down(0.4, 0.0), one.iter().map(|(c, t)| (c, t))),
        Some(number("Dα-001"))
    );
    // Looking up, nothing.
    let up = Ray3d::new(Vec3::new(0.0, -5.0, 0.0), Dir3::NEG_Y);
    assert_eq!(card_under(up, both.iter().map(|(c, t)| (c, t))), None);
}

#[test]
fn a_players_format_table_is_hosted_in_the_arena_with_the_buttons() {
    use bterm::arena::play::table::TableGame;
    use bterm::arena::screens::lan::{HostLine, LanForm};
    let dir = tempfile::tempdir().unwrap();
    let mut app = app(Settings {
        lan_discovery: false,
        ..settings(&dir)
    });
    press(&mut app, Side::P1, Button::A);
    for _ in 0..4 {
        press(&mut app, Side::P1, Button::B);
    }
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanHost);
    // The game: the Terminal Battle → the Alpha → the Digimon Card Game.
    tap(&mut app, Side::P1, Button::C);
    tap(&mut app, Side::P1, Button::C);
    // Seats: 3; the format: players; P2 and P3: the CPU.
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    for _ in 0..2 {
        press(&mut app, Side::P1, Button::B);
        tap(&mut app, Side::P1, Button::C);
    }
    {
        let form = app.world().resource::<LanForm>();
        assert_eq!(form.seats, 3);
        assert_eq!(form.format_word(), "players");
        assert_eq!(form.host_lines()[2], HostLine::Format);
        assert!(form.others[..2].iter().all(|p| matches!(p, Player::Cpu(_))));
    }
    // Past the deck line to OPEN THE TABLE.
    press(&mut app, Side::P1, Button::B);
    press(&mut app, Side::P1, Button::B);
    tap(&mut app, Side::P1, Button::C);
    assert_eq!(screen(&app), Screen::LanLobby);
    run_real(&mut app, 60, "the table", |app| {
        screen(app) == Screen::Table
    });
    // The Players Format: each player's Player cards start in the Offline
    // Area, face up on the table.
    run_real(&mut app, 30, "the first view", |app| {
        app.world()
            .get_resource::<TableGame<DcgMatch>>()
            .and_then(|g| g.layout.as_ref())
            .is_some_and(|l| l.seats.len() == 3 && l.seats.iter().all(|s| !s.offline.is_empty()))
    });
}
