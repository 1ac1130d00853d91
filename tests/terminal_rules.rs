//! The Terminal Battle design page, sentence by sentence: each rule has a
//! test named after it.

use std::path::PathBuf;

use bterm::cards::{BattleType, CardNumber, CardSet};
use bterm::rules::terminal::Side;
use bterm::rules::terminal::log;
use bterm::rules::terminal::{Action, Event, Match, PointsReason, Setup, Tunables};
use bterm::rules::{Outcome, Seat};

use BattleType::{A, B, C};
use Side::{P1, P2};

/// A Digimon in RON, with sensible defaults for the fields a test does not care about.
#[derive(Clone)]
struct D {
    number: &'static str,
    name: &'static str,
    level: &'static str,
    requirements: &'static str,
    battle_type: &'static str,
    hp: u32,
    techniques: [u32; 3],
    speed: u8,
    cost: u8,
    field: &'static str,
    attribute: &'static str,
    extra: &'static str,
}

const BASE: D = D {
    number: "DM-900",
    name: "Testmon",
    level: "III",
    requirements: "",
    battle_type: "A",
    hp: 500,
    techniques: [300, 200, 100],
    speed: 5,
    cost: 1,
    field: "DragonsRoar",
    attribute: "Data",
    extra: "",
};

/// A plain sturdy opponent that is never deleted.
const TWOMON: D = D {
    number: "DM-901",
    name: "Twomon",
    hp: 5000,
    ..BASE
};

impl D {
    fn ron(&self) -> String {
        let req = if self.requirements.is_empty() {
            String::new()
        } else {
            format!("requirements: {},", self.requirements)
        };
        format!(
            "Digimon(number: \"{}\", name: \"{}\", cost: {}, speed: {}, {req} battle_type: {}, hp: {}, \
             techniques: (a: (name: \"{n} A\", power: {}), b: (name: \"{n} B\", power: {}), c: (name: \"{n} C\", power: {})), \
             field: {}, level: {}, type: \"Test\", attribute: {}, {}),\n",
            self.number,
            self.name,
            self.cost,
            self.speed,
            self.battle_type,
            self.hp,
            self.techniques[0],
            self.techniques[1],
            self.techniques[2],
            self.field,
            self.level,
            self.attribute,
            self.extra,
            n = self.name,
        )
    }
}

fn set(cards: &[D], options: &str) -> CardSet {
    let mut text = String::from("[\n");
    for c in cards {
        text.push_str(&c.ron());
    }
    text.push_str(options);
    text.push_str("]\n");
    CardSet::from_sources(&[(PathBuf::from("test.ron"), text)]).unwrap_or_else(|e| panic!("{e}"))
}

fn n(s: &str) -> CardNumber {
    s.parse().unwrap()
}

fn team(numbers: &[&str]) -> Vec<CardNumber> {
    numbers.iter().map(|s| n(s)).collect()
}

fn start(cards: &CardSet, p1: &[&str], p2: &[&str]) -> Match {
    Match::from_setup(&Setup::new(team(p1), team(p2), 1), cards).unwrap_or_else(|e| panic!("{e}"))
}

fn start_with(cards: &CardSet, p1: &[&str], p2: &[&str], t: Tunables) -> Match {
    let mut s = Setup::new(team(p1), team(p2), 1);
    s.tunables = t;
    Match::from_setup(&s, cards).unwrap_or_else(|e| panic!("{e}"))
}

fn refused(cards: &CardSet, p1: &[&str]) -> String {
    refused_with(cards, p1, Tunables::default())
}

fn refused_with(cards: &CardSet, p1: &[&str], tunables: Tunables) -> String {
    let s = Setup {
        tunables,
        teams: [team(p1), team(&["DM-900"])],
        seed: 1,
        extra: Vec::new(),
    };
    Match::from_setup(&s, cards).unwrap_err().to_string()
}

/// Both press; returns the round's events.
fn round(m: &mut Match, a: Action, b: Action) -> Vec<Event> {
    let mut ev = m.apply(P1, a).unwrap();
    ev.extend(m.apply(P2, b).unwrap());
    ev
}

fn stances(m: &mut Match, a: BattleType, b: BattleType) -> Vec<Event> {
    round(m, Action::Stance(a), Action::Stance(b))
}

fn clash(ev: &[Event]) -> ([u32; 2], Option<Side>) {
    ev.iter()
        .find_map(|e| match e {
            Event::Clash { powers, winner, .. } => Some((*powers, *winner)),
            _ => None,
        })
        .expect("a clash")
}

fn points(m: &Match) -> [i32; 2] {
    [m.view(P1).points, m.view(P2).points]
}

/// Two plain Level III Digimon that never delete each other.
fn sturdy() -> CardSet {
    set(
        &[
            D {
                number: "DM-900",
                name: "Onemon",
                hp: 5000,
                ..BASE
            },
            TWOMON,
        ],
        "",
    )
}

fn line_cards() -> CardSet {
    set(
        &[
            D {
                number: "DM-900",
                name: "Agumon",
                ..BASE
            },
            D {
                number: "DM-901",
                name: "Greymon",
                level: "IV",
                requirements: "AnyOf([\"Agumon\"])",
                techniques: [500, 400, 300],
                hp: 800,
                ..BASE
            },
            D {
                number: "DM-902",
                name: "Metal Greymon",
                level: "Perfect",
                requirements: "AnyOf([\"Greymon\"])",
                ..BASE
            },
            D {
                number: "DM-903",
                name: "Gabumon",
                ..BASE
            },
            D {
                number: "DM-904",
                name: "Garurumon",
                level: "IV",
                requirements: "AnyOf([\"Gabumon\"])",
                ..BASE
            },
            D {
                number: "DM-905",
                name: "Omnimon",
                level: "Ultimate",
                requirements: "Jogress(\"Greymon\", \"Garurumon\")",
                cost: 6,
                techniques: [2000, 2000, 2000],
                ..BASE
            },
            D {
                number: "DM-906",
                name: "Palmon",
                ..BASE
            },
            D {
                number: "DM-907",
                name: "Tentomon",
                ..BASE
            },
            D {
                number: "DM-908",
                name: "Greymon X-Antibody",
                level: "IV",
                requirements: "AnyOf([\"Agumon\"])",
                ..BASE
            },
            D {
                number: "DM-909",
                name: "War Greymon",
                level: "Ultimate",
                requirements: "AnyOf([\"Metal Greymon\"])",
                extra: "one_card_limit: true",
                ..BASE
            },
            D {
                number: "DM-910",
                name: "War Greymon X-Antibody",
                level: "Ultimate",
                requirements: "AnyOf([\"Metal Greymon\"])",
                ..BASE
            },
            D {
                number: "DM-911",
                name: "Expensivemon",
                cost: 7,
                ..BASE
            },
        ],
        "Option(number: \"OP-901\", name: \"Chip\", cost: 1),\nOption(number: \"OP-902\", name: \"Chip\", cost: 1),\n\
         Option(number: \"OP-903\", name: \"Chip\", cost: 1),\nOption(number: \"OP-904\", name: \"Disk\", cost: 1),\n\
         Command(number: \"Cα-901\", name: \"Order\"),\n",
    )
}

// §1 Scan

#[test]
fn a_player_scans_up_to_the_allowed_digimon_and_option_cards() {
    let cards = line_cards();
    let t = Tunables {
        max_digimon: 3,
        ..Tunables::default()
    };
    assert_eq!(
        refused_with(&cards, &["DM-900", "DM-903", "DM-906", "DM-907"], t),
        "P1: 4 Digimon scanned, 3 allowed"
    );
    assert_eq!(
        refused(&cards, &["DM-900", "OP-901", "OP-902", "OP-903", "OP-904"]),
        "P1: 4 Option cards scanned, 3 allowed"
    );
}

#[test]
fn digimon_form_evolution_lines_in_scan_order() {
    let m = start(&line_cards(), &["DM-900", "DM-903", "DM-901"], &["DM-900"]);
    let lines = m.lines(P1);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].stages, team(&["DM-900", "DM-901"]));
    assert_eq!(lines[1].stages, team(&["DM-903"]));
}

#[test]
fn x_antibody_counts_as_its_base_name() {
    let m = start(&line_cards(), &["DM-900", "DM-908", "DM-902"], &["DM-900"]);
    assert_eq!(m.lines(P1)[0].stages, team(&["DM-900", "DM-908", "DM-902"]));
}

#[test]
fn a_level_iv_card_that_fits_no_line_is_refused() {
    assert_eq!(
        refused(&line_cards(), &["DM-901"]),
        "P1: Greymon needs Agumon first"
    );
    assert_eq!(
        refused(&line_cards(), &["DM-900", "DM-901", "DM-908"]),
        "P1: Greymon X-Antibody cannot follow Agumon: that line already goes on to Greymon"
    );
}

#[test]
fn a_line_starts_at_its_lowest_card() {
    let m = start(&line_cards(), &["DM-900", "DM-901", "DM-902"], &["DM-900"]);
    assert_eq!(m.view(P1).front.name, "Agumon");
    assert_eq!(m.lines(P1)[0].at, 0);
}

#[test]
fn at_most_three_lines() {
    assert_eq!(
        refused(&line_cards(), &["DM-900", "DM-903", "DM-906", "DM-907"]),
        "P1: Tentomon would open evolution line 4, 3 allowed"
    );
}

#[test]
fn a_jogress_card_needs_both_lines_scanned() {
    assert_eq!(
        refused(&line_cards(), &["DM-900", "DM-901", "DM-905"]),
        "P1: Omnimon is a Jogress of Greymon ⇔ Garurumon: scan a Greymon line and a Garurumon line first"
    );
    let m = start(
        &line_cards(),
        &["DM-900", "DM-901", "DM-903", "DM-904", "DM-905"],
        &["DM-900"],
    );
    assert_eq!(m.lines(P1)[0].jogress, Some((2, 1)));
}

#[test]
fn the_one_card_limit_applies_to_the_team() {
    assert_eq!(
        refused(
            &line_cards(),
            &["DM-900", "DM-901", "DM-902", "DM-909", "DM-910"]
        ),
        "P1: ◎ one-card limit: two War Greymon"
    );
}

#[test]
fn the_three_copies_rule_applies_to_the_team() {
    let cards = line_cards();
    let t = Tunables {
        max_copies: 2,
        ..Tunables::default()
    };
    assert_eq!(
        refused_with(&cards, &["DM-900", "OP-901", "OP-902", "OP-903"], t),
        "P1: 3 cards named Chip, at most 2 allowed"
    );
}

#[test]
fn command_cards_are_refused() {
    assert_eq!(
        refused(&line_cards(), &["DM-900", "Cα-901"]),
        "P1: Order is a Command card; Command cards are not used in the Battle Terminal"
    );
}

#[test]
fn burst_costs_five_points_for_every_cost_point_above_ten() {
    // 7 + 1 + 1 + 1 + 1 + 1 = 12: two over.
    let m = start(
        &line_cards(),
        &["DM-911", "DM-900", "DM-903", "OP-901", "OP-902", "OP-904"],
        &["DM-900"],
    );
    assert_eq!(m.view(P1).points, 90);
    assert!(m.opening_events().contains(&Event::PointsChanged {
        side: P1,
        delta: -10,
        points: 90,
        reason: PointsReason::Burst
    }));
    assert_eq!(m.view(P2).points, 100);
}

/// "A player at 0 points loses": a team whose Burst would take every
/// starting point cannot play at all, so it is refused at the scan, with
/// the Cost it may have.
#[test]
fn a_team_whose_burst_takes_every_point_is_refused() {
    let team = ["DM-911", "DM-900", "DM-903", "OP-901", "OP-902", "OP-904"];
    // Cost 12, two over the cap: 10 points of Burst.
    let mut t = Tunables {
        start_points: 10,
        ..Tunables::default()
    };
    assert_eq!(
        refused_with(&line_cards(), &team, t.clone()),
        "P1: the team's Cost is 12, and Burst above 10 would take every starting point; leave out cards until the Cost is at most 11"
    );
    // One point more to start with, and it plays on one point.
    t.start_points = 11;
    let m = start_with(&line_cards(), &team, &["DM-900"], t);
    assert_eq!(m.view(P1).points, 1);
    assert_eq!(m.outcome(), None);
}

#[test]
fn a_player_who_scans_nothing_plays_a_default_partner() {
    let cards = line_cards();
    let a = start(&cards, &[], &["DM-900"]);
    let b = start(&cards, &[], &["DM-900"]);
    assert_eq!(a.lines(P1).len(), 1);
    assert_eq!(a.view(P1).front.level, bterm::cards::Level::III);
    assert_eq!(
        a.view(P1).front.number,
        b.view(P1).front.number,
        "the same seed picks the same partner"
    );
}

// §2 Battle

#[test]
fn each_player_has_100_points_which_is_the_cap() {
    let cards = with_ability("terminal: [(timing: Battle, effects: [Points(You, 50)])]");
    let mut m = start(&cards, &["DM-900"], &["DM-901"]);
    assert_eq!(points(&m), [100, 100]);
    stances(&mut m, A, A);
    assert_eq!(points(&m)[0], 100, "gains stop at the cap");
}

#[test]
fn front_digimon_clash_once_per_round_for_at_most_12_rounds() {
    let mut m = start(&sturdy(), &["DM-900"], &["DM-901"]);
    let mut clashes = 0;
    while m.outcome().is_none() {
        let ev = stances(&mut m, A, A);
        clashes += ev
            .iter()
            .filter(|e| matches!(e, Event::Clash { .. }))
            .count();
    }
    assert_eq!(clashes, 12);
    assert_eq!(m.round(), 12);
}

#[test]
fn a_full_gauge_may_digivolve_and_the_player_is_asked() {
    let cards = line_cards();
    let mut m = start(&cards, &["DM-900", "DM-901"], &["DM-903"]);
    // Equal stances and equal cards: ties, 35% a round; full after 3 rounds.
    for _ in 0..3 {
        assert!(m.awaits_stance(P1));
        stances(&mut m, A, A);
    }
    assert_eq!(
        m.legal_actions(P1),
        vec![Action::Digivolve(false), Action::Digivolve(true)]
    );
    assert!(
        m.legal_actions(P2).is_empty(),
        "P2's line has nothing to become"
    );
    // Staying keeps the gauge full: asked again next round.
    m.apply(P1, Action::Digivolve(false)).unwrap();
    stances(&mut m, A, A);
    let ev = m.apply(P1, Action::Digivolve(true)).unwrap();
    assert!(ev.contains(&Event::Digivolved {
        side: P1,
        from: n("DM-900"),
        to: n("DM-901"),
        bench: None,
    }));
    assert_eq!(m.view(P1).front.name, "Greymon");
    assert_eq!(m.view(P1).gauge, 0);
}

#[test]
fn jogress_when_both_component_lines_are_full() {
    let cards = line_cards();
    let defaults = Tunables::default();
    let t = Tunables {
        gauge_bench: defaults.gauge_front,
        ..defaults
    };
    let mut m = start_with(
        &cards,
        &["DM-900", "DM-901", "DM-903", "DM-904", "DM-905"],
        &["DM-906"],
        t,
    );
    let mut jogress = None;
    for _ in 0..12 {
        if m.outcome().is_some() {
            break;
        }
        // Every offer taken: the front (Agumon to Greymon) and, from
        // engine 4, the bench line too (Gabumon to Garurumon).
        while m.legal_actions(P1).contains(&Action::Digivolve(false)) {
            if m.legal_actions(P1).contains(&Action::Jogress) {
                jogress = Some(m.apply(P1, Action::Jogress).unwrap());
                break;
            }
            m.apply(P1, Action::Digivolve(true)).unwrap();
        }
        if jogress.is_some() {
            break;
        }
        // Force ties.
        stances(&mut m, A, A);
    }
    let ev = jogress.expect("Jogress offered once both lines were full");
    assert!(
        ev.contains(&Event::Jogressed {
            side: P1,
            from: [n("DM-901"), n("DM-904")],
            to: n("DM-905")
        }),
        "{ev:?}"
    );
    assert_eq!(m.view(P1).front.name, "Omnimon");
    assert!(
        !m.lines(P1)[1].in_play,
        "the partner line joined the Jogress"
    );
}

#[test]
fn no_press_within_the_timer_plays_the_printed_battle_type() {
    let cards = set(
        &[
            D {
                battle_type: "C",
                hp: 5000,
                ..BASE
            },
            TWOMON,
        ],
        "",
    );
    let mut m = start(&cards, &["DM-900"], &["DM-901"]);
    let ev = round(&mut m, Action::TimeUp, Action::Stance(B));
    assert!(ev.contains(&Event::StancesRevealed {
        stances: [C, B],
        timed_out: [true, false]
    }));
}

#[test]
fn each_digimon_uses_its_technique_for_the_opponents_battle_type() {
    let cards = set(
        &[
            D {
                hp: 5000,
                techniques: [111, 222, 333],
                ..BASE
            },
            D {
                number: "DM-901",
                name: "Twomon",
                hp: 5000,
                techniques: [444, 555, 666],
                ..BASE
            },
        ],
        "",
    );
    let mut m = start(&cards, &["DM-900"], &["DM-901"]);
    // P1 presses A, P2 presses C: P1 uses its C technique; P2 uses its A technique.
    let ev = stances(&mut m, A, C);
    assert!(ev.contains(&Event::TechniqueChosen {
        side: P1,
        card: n("DM-900"),
        slot: C,
        base: 333
    }));
    assert!(ev.contains(&Event::TechniqueChosen {
        side: P2,
        card: n("DM-901"),
        slot: A,
        base: 444
    }));
}

#[test]
fn the_stance_that_beats_the_other_gets_30_percent_more_attack_power() {
    let mut m = start(&sturdy(), &["DM-900"], &["DM-901"]);
    // A beats B. P1 uses its B technique (200) ×1.3; P2 uses its A technique (300).
    assert_eq!(clash(&stances(&mut m, A, B)), ([260, 300], Some(P2)));
    // C beats A: P2 pressed C, P1 pressed A; P2 uses A 300 ×1.3, P1 uses C 100.
    assert_eq!(clash(&stances(&mut m, A, C)), ([100, 390], Some(P2)));
    // B beats C.
    assert_eq!(clash(&stances(&mut m, B, C)), ([130, 200], Some(P2)));
}

#[test]
fn the_higher_attack_power_wins_and_the_loser_loses_10_points() {
    let mut m = start(&sturdy(), &["DM-900"], &["DM-901"]);
    let ev = stances(&mut m, B, A);
    assert_eq!(clash(&ev), ([300, 260], Some(P1)));
    assert_eq!(points(&m), [100, 90]);
}

#[test]
fn equal_powers_both_win_and_nothing_else_happens() {
    let mut m = start(&sturdy(), &["DM-900"], &["DM-901"]);
    let ev = stances(&mut m, A, A);
    assert_eq!(clash(&ev), ([300, 300], None));
    assert_eq!(points(&m), [100, 100]);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Deleted { .. } | Event::PointsChanged { .. }))
    );
}

#[test]
fn a_winner_above_the_losers_hp_deletes_it_for_10_more_points_and_the_next_line_steps_in() {
    let cards = set(
        &[
            D {
                name: "Onemon",
                hp: 250,
                ..BASE
            },
            D {
                number: "DM-901",
                name: "Twomon",
                ..BASE
            },
            D {
                number: "DM-902",
                name: "Threemon",
                ..BASE
            },
        ],
        "",
    );
    let mut m = start(&cards, &["DM-900", "DM-902"], &["DM-901"]);
    let ev = stances(&mut m, A, B); // P2: 300 > P1's HP 250; P1: 200×1.3 = 260.
    assert_eq!(clash(&ev).1, Some(P2));
    assert!(ev.contains(&Event::Deleted {
        side: P1,
        card: n("DM-900")
    }));
    assert_eq!(points(&m), [80, 100]);
    assert!(ev.contains(&Event::SteppedIn {
        side: P1,
        card: n("DM-902")
    }));
    assert_eq!(m.view(P1).front.name, "Threemon");
}

#[test]
fn gauges_gain_35_percent_and_the_loser_50() {
    let mut m = start(&sturdy(), &["DM-900"], &["DM-901"]);
    stances(&mut m, B, A);
    assert_eq!((m.view(P1).gauge, m.view(P2).gauge), (35, 50));
}

/// A sturdy P1 with one Battle Terminal ability (`extra` RON) against a
/// plain sturdy P2: nobody is deleted, so the ability's effect shows.
fn with_ability(extra: &'static str) -> CardSet {
    set(
        &[
            D {
                hp: 5000,
                extra,
                ..BASE
            },
            TWOMON,
        ],
        "",
    )
}

/// Two sturdy Digimon with these Speeds, each with a Battle ability that
/// reports itself, so the order of `AbilityTriggered` shows who resolved first.
fn speed_cards(p1_speed: u8, p2_speed: u8) -> CardSet {
    let ability = "terminal: [(timing: Battle, effects: [Power(This, Add(1))])]";
    set(
        &[
            D {
                hp: 5000,
                speed: p1_speed,
                extra: ability,
                ..BASE
            },
            D {
                number: "DM-901",
                name: "Twomon",
                hp: 5000,
                speed: p2_speed,
                extra: ability,
                ..BASE
            },
        ],
        "",
    )
}

/// The sides whose abilities triggered, in order.
fn trigger_order(ev: &[Event]) -> Vec<Side> {
    ev.iter()
        .filter_map(|e| match e {
            Event::AbilityTriggered { side, .. } => Some(*side),
            _ => None,
        })
        .collect()
}

#[test]
fn the_faster_digimons_effects_resolve_first() {
    let mut m = start(&speed_cards(3, 7), &["DM-900"], &["DM-901"]);
    assert_eq!(trigger_order(&stances(&mut m, A, A)), [P2, P1]);
}

#[test]
fn on_equal_speed_the_player_with_fewer_points_goes_first() {
    let mut m = start(&speed_cards(5, 5), &["DM-900"], &["DM-901"]);
    // A beats B: P1's 200 ×1.3 = 260 loses to P2's 300, so P1 falls behind.
    stances(&mut m, A, B);
    assert!(points(&m)[0] < points(&m)[1]);
    assert_eq!(trigger_order(&stances(&mut m, A, A))[0], P1);
}

#[test]
fn on_equal_speed_and_points_the_previous_first_goes_first_again() {
    let cards = speed_cards(5, 5);
    for seed in 0..8 {
        let mut m = Match::from_setup(
            &Setup::new(team(&["DM-900"]), team(&["DM-901"]), seed),
            &cards,
        )
        .unwrap();
        let opener = trigger_order(&stances(&mut m, A, A))[0];
        for _ in 0..4 {
            assert_eq!(
                trigger_order(&stances(&mut m, A, A))[0],
                opener,
                "seed {seed}"
            );
        }
    }
}

fn alpha_cards() -> CardSet {
    set(
        &[
            D {
                number: "DM-900",
                name: "Leadmon",
                hp: 5000,
                techniques: [100, 100, 100],
                ..BASE
            },
            D {
                number: "DM-901",
                name: "Helpmon",
                hp: 5000,
                techniques: [900, 900, 900],
                ..BASE
            },
            D {
                number: "DM-902",
                name: "Othermon",
                hp: 5000,
                field: "DeepSavers",
                ..BASE
            },
            D {
                number: "DM-903",
                name: "Foemon",
                hp: 5000,
                ..BASE
            },
            D {
                number: "DM-904",
                name: "Foehelpmon",
                hp: 5000,
                techniques: [950, 950, 950],
                ..BASE
            },
        ],
        "",
    )
}

#[test]
fn an_alpha_strike_needs_two_digimon_of_one_battle_type_and_field_once_per_battle() {
    let cards = alpha_cards();
    let m = start(&cards, &["DM-900", "DM-902"], &["DM-903"]);
    assert!(
        !m.legal_actions(P1)
            .iter()
            .any(|a| matches!(a, Action::AlphaAttack(_))),
        "different Fields"
    );
    let mut m = start(&cards, &["DM-900", "DM-901"], &["DM-903"]);
    assert!(m.legal_actions(P1).contains(&Action::AlphaAttack(A)));
    let ev = round(&mut m, Action::AlphaAttack(A), Action::Stance(A));
    assert!(ev.contains(&Event::AlphaAttack {
        side: P1,
        group: team(&["DM-900", "DM-901"])
    }));
    // P2 has no supporter: it cannot block, and loses points without a clash.
    assert!(!ev.iter().any(|e| matches!(e, Event::Clash { .. })));
    assert_eq!(points(&m), [100, 90]);
    assert!(
        !m.legal_actions(P1)
            .iter()
            .any(|a| matches!(a, Action::AlphaAttack(_))),
        "once per battle"
    );
}

#[test]
fn an_alpha_block_needs_as_many_supporters_and_both_sides_use_their_best_technique() {
    let cards = alpha_cards();
    let mut m = start(&cards, &["DM-900", "DM-901"], &["DM-903", "DM-904"]);
    round(&mut m, Action::AlphaAttack(A), Action::Stance(A));
    assert_eq!(
        m.legal_actions(P2),
        vec![Action::AlphaBlock(false), Action::AlphaBlock(true)]
    );
    let ev = m.apply(P2, Action::AlphaBlock(true)).unwrap();
    assert!(ev.contains(&Event::AlphaBlock {
        side: P2,
        group: team(&["DM-903", "DM-904"])
    }));
    assert_eq!(clash(&ev), ([900, 950], Some(P2)));
}

#[test]
fn a_player_at_0_points_loses() {
    let cards = set(
        &[
            D { hp: 5000, ..BASE },
            D {
                number: "DM-901",
                name: "Twomon",
                hp: 5000,
                techniques: [900, 900, 900],
                ..BASE
            },
        ],
        "",
    );
    let mut m = start(&cards, &["DM-900"], &["DM-901"]);
    while m.outcome().is_none() {
        stances(&mut m, A, A);
    }
    assert_eq!(m.outcome(), Some(Outcome::Win(Seat::P2)));
    assert_eq!(points(&m)[0], 0);
    assert_eq!(m.round(), 10);
}

#[test]
fn a_player_with_no_digimon_left_loses() {
    let cards = set(
        &[
            D { hp: 100, ..BASE },
            D {
                number: "DM-901",
                name: "Twomon",
                ..BASE
            },
        ],
        "",
    );
    let mut m = start(&cards, &["DM-900"], &["DM-901"]);
    let ev = stances(&mut m, A, A); // 300 vs 300: equal, nobody deleted.
    assert!(m.outcome().is_none(), "{ev:?}");
    let ev = stances(&mut m, A, B); // P2's 300 beats P1's 260 and exceeds its HP 100.
    assert!(
        ev.contains(&Event::BattleEnded {
            outcome: Outcome::Win(Seat::P2)
        }),
        "{ev:?}"
    );
    // The end says why.
    let name = cards.get(&team(&["DM-900"])[0]).unwrap().name().to_string();
    assert_eq!(
        log::verdict(&m, &cards).as_deref(),
        Some(format!("P2 WINS: P1's {name} was deleted").as_str())
    );
}

#[test]
fn after_the_last_round_more_points_wins() {
    let t = Tunables {
        max_rounds: 2,
        ..Tunables::default()
    };
    let mut m = start_with(&sturdy(), &["DM-900"], &["DM-901"], t);
    stances(&mut m, B, A);
    let ev = stances(&mut m, A, A);
    assert!(ev.contains(&Event::BattleEnded {
        outcome: Outcome::Win(Seat::P1)
    }));
    let points = m.view(Side::P1).points;
    let other = m.view(Side::P2).points;
    assert!(points > other);
    assert_eq!(
        log::verdict(&m, &sturdy()),
        Some(format!(
            "P1 WINS: {points}–{other} on points after 2 rounds"
        ))
    );
}

#[test]
fn after_the_last_round_equal_points_is_a_draw() {
    let mut m = start(&sturdy(), &["DM-900"], &["DM-901"]);
    while m.outcome().is_none() {
        stances(&mut m, A, A);
    }
    assert_eq!(m.outcome(), Some(Outcome::Draw));
    let verdict = log::verdict(&m, &sturdy()).unwrap();
    assert!(
        verdict.starts_with("DRAW: 100–100 on points after"),
        "{verdict}"
    );
}

// §3 Effects

#[test]
fn abilities_and_option_cards_apply_at_their_timings() {
    let cards = set(
        &[
            D {
                hp: 5000,
                extra: "terminal: [(timing: Battle, conditions: [OpponentAttribute(Virus)], effects: [Power(This, Add(50))])]",
                ..BASE
            },
            D {
                number: "DM-901",
                name: "Twomon",
                hp: 5000,
                attribute: "Virus",
                ..BASE
            },
        ],
        "Option(number: \"OP-901\", name: \"Booster\", cost: 1, terminal: [(timing: Preparation, limit: PerGame(1), effects: [Gauge(You, 40)])]),\n",
    );
    let mut m = start(&cards, &["DM-900", "OP-901"], &["DM-901"]);
    assert!(
        m.opening_events().contains(&Event::GaugeChanged {
            side: P1,
            line: 0,
            gauge: 40
        }),
        "Preparation: at the round's start"
    );
    let ev = stances(&mut m, A, A);
    assert_eq!(
        clash(&ev),
        ([350, 300], Some(P1)),
        "Battle: while powers are worked out"
    );
    assert_eq!(
        m.view(P1).gauge,
        75,
        "the Option resolved once per game only"
    );
}

#[test]
fn interruptive_effects_resolve_before_what_they_interrupt() {
    let cards = set(
        &[
            D { hp: 100, ..BASE },
            D {
                number: "DM-901",
                name: "Twomon",
                ..BASE
            },
        ],
        "Option(number: \"OP-901\", name: \"Shield\", cost: 1, terminal: [(timing: Battle, limit: PerGame(1), trigger: WhenWould(ThisDeleted), effects: [PreventDeletion(This)])]),\n",
    );
    let mut m = start(&cards, &["DM-900", "OP-901"], &["DM-901"]);
    let ev = stances(&mut m, A, B);
    let shield = ev
        .iter()
        .position(|e| matches!(e, Event::AbilityTriggered { card, .. } if *card == n("OP-901")))
        .expect("shield");
    let saved = ev
        .iter()
        .position(|e| matches!(e, Event::DeletionPrevented { .. }))
        .expect("prevented");
    assert!(shield < saved);
    assert!(!ev.iter().any(|e| matches!(e, Event::Deleted { .. })));
    assert_eq!(
        points(&m)[0],
        90,
        "the clash is still lost, the deletion is not"
    );
    // Once per game: the next deletion goes through.
    let ev = stances(&mut m, A, B);
    assert!(ev.iter().any(|e| matches!(e, Event::Deleted { .. })));
}

#[test]
fn action_abilities_resolve_only_when_used() {
    let cards = with_ability(
        "terminal: [(mark: Action, timing: Battle, limit: PerGame(1), effects: [Power(This, Add(500))])]",
    );
    let mut m = start(&cards, &["DM-900"], &["DM-901"]);
    assert_eq!(clash(&stances(&mut m, A, A)).0, [300, 300]);
    let slot = *m
        .legal_actions(P1)
        .iter()
        .find(|a| matches!(a, Action::UseAbility(_)))
        .expect("offered");
    m.apply(P1, slot).unwrap();
    assert_eq!(clash(&stances(&mut m, A, A)).0, [800, 300]);
    assert!(
        !m.legal_actions(P1)
            .iter()
            .any(|a| matches!(a, Action::UseAbility(_))),
        "once per game"
    );
}

/// Issue 39's case: with Virus Infection readied, a Digimon's own "+100 if
/// the opposing Digimon is Virus" reads the opponent as Virus. Within a
/// timing, attribute changes resolve first (engine 2); a replay of engine
/// 1 still plays by its order.
#[test]
fn an_attribute_change_resolves_before_the_conditions_that_read_it() {
    let cards = set(
        &[
            D {
                hp: 5000,
                extra: "terminal: [(timing: Battle, conditions: [OpponentAttribute(Virus)], effects: [Power(This, Add(100))])]",
                ..BASE
            },
            TWOMON,
        ],
        "Option(number: \"OP-901\", name: \"Infection\", cost: 1, terminal: [(mark: Action, timing: Battle, limit: PerTurn(1), optional: true, effects: [ChangeAttribute(Opponent, Virus)])]),\n",
    );
    let powers = |engine: u32| {
        let mut s = Setup::new(team(&["DM-900", "OP-901"]), team(&["DM-901"]), 1);
        s.tunables.engine = engine;
        let mut m = Match::from_setup(&s, &cards).unwrap_or_else(|e| panic!("{e}"));
        let ready = *m
            .legal_actions(P1)
            .iter()
            .find(|a| matches!(a, Action::UseAbility(_)))
            .expect("Infection is offered");
        m.apply(P1, ready).unwrap();
        clash(&stances(&mut m, A, A)).0
    };
    assert_eq!(
        powers(2),
        [400, 300],
        "the opponent is Virus when the condition is read"
    );
    assert_eq!(powers(1), [300, 300], "engine 1 read it before the Option");
    // An engine this build does not play is refused, not guessed.
    let mut s = Setup::new(team(&["DM-900"]), team(&["DM-901"]), 1);
    s.tunables.engine = 99;
    assert!(
        Match::from_setup(&s, &cards)
            .unwrap_err()
            .to_string()
            .contains("engine 99")
    );
}

/// Round steps 4 and 5: the read bonus, then abilities and Options. From
/// engine 3 the +30% multiplies the technique's power before an ability
/// adds to it (200 × 1.3 + 100 = 360); engines 1 and 2 added first
/// ((200 + 100) × 1.3 = 390), and their replays still play that way. (An
/// independent audit of the design page found it.)
#[test]
fn the_read_bonus_applies_before_abilities_and_options() {
    let cards = set(
        &[
            D {
                hp: 5000,
                extra: "terminal: [(timing: Battle, effects: [Power(This, Add(100))])]",
                ..BASE
            },
            TWOMON,
        ],
        "",
    );
    let powers = |engine: u32| {
        let mut s = Setup::new(team(&["DM-900"]), team(&["DM-901"]), 1);
        s.tunables.engine = engine;
        let mut m = Match::from_setup(&s, &cards).unwrap_or_else(|e| panic!("{e}"));
        clash(&stances(&mut m, A, B)).0
    };
    assert_eq!(powers(3)[0], 360, "the bonus first, then the ability");
    assert_eq!(powers(2)[0], 390, "engine 2 added the ability first");
    assert_eq!(powers(1)[0], 390);
}

#[test]
fn a_technique_reduced_to_0_stays_0() {
    let cards = with_ability(
        "terminal: [(timing: Battle, limit: PerGame(1), effects: [TechniqueToZero(Opponent, One(A))])]",
    );
    let mut m = start(&cards, &["DM-900"], &["DM-901"]);
    assert_eq!(clash(&stances(&mut m, A, A)).0, [300, 0]);
    assert_eq!(
        clash(&stances(&mut m, A, A)).0,
        [300, 0],
        "still 0 after the ability is spent"
    );
}

#[test]
fn variable_takes_the_opponents_attribute() {
    let cards = set(
        &[
            D {
                hp: 5000,
                extra: "terminal: [(timing: Battle, conditions: [OpponentAttribute(Virus)], effects: [Power(This, Add(50))])]",
                ..BASE
            },
            D {
                number: "DM-901",
                name: "Twomon",
                hp: 5000,
                attribute: "Variable",
                ..BASE
            },
        ],
        "",
    );
    let mut m = start(&cards, &["DM-900"], &["DM-901"]);
    assert_eq!(
        clash(&stances(&mut m, A, A)).0,
        [300, 300],
        "Variable facing Data is Data, not Virus"
    );
}

// §4 Determinism, and the rules' shape

#[test]
fn an_illegal_action_changes_nothing() {
    let mut m = start(&sturdy(), &["DM-900"], &["DM-901"]);
    let before = m.clone();
    let err = m.apply(P1, Action::Digivolve(true)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "P1 cannot do that now: Digivolve(true) is not one of the choices now"
    );
    assert_eq!(m, before);
    m.apply(P1, Action::Stance(A)).unwrap();
    let before = m.clone();
    assert!(
        m.apply(P1, Action::Stance(B)).is_err(),
        "a stance is pressed once"
    );
    assert_eq!(m, before);
}

#[test]
fn the_same_inputs_play_the_same_battle() {
    let cards = CardSet::embedded();
    let setup = Setup::new(
        team(&["Dα-001", "Dα-002", "Oα-002"]),
        team(&["Dα-021", "Dα-022", "OP-004"]),
        42,
    );
    let play = || {
        use bterm::session::{Player, Table, watch_cpus};
        let hard = Player::Cpu(bterm::ai::Strength::Hard);
        let mut table: Table<Match> = Table::new(setup.clone(), &cards, vec![hard; 2]).unwrap();
        let mut log = Vec::new();
        watch_cpus(&mut table, &cards, |e| log.push(e.clone()));
        (table.game().state_hash(), log)
    };
    assert_eq!(play(), play());
}

/// Round step 1: "a line whose evolution gauge is full may digivolve"
/// (engine 4): any line, not only the front. The front is asked first,
/// then each full bench line; a bench Digimon digivolves where it waits and
/// the front stays. Engines 1 to 3 asked only for the front, and their
/// replays still play that way.
#[test]
fn a_full_bench_line_may_digivolve_too() {
    let cards = line_cards();
    let play = |engine: u32| {
        let mut s = Setup::new(
            team(&["DM-900", "DM-901", "DM-903", "DM-904"]),
            team(&["DM-906"]),
            1,
        );
        s.tunables.engine = engine;
        let mut m = Match::from_setup(&s, &cards).unwrap_or_else(|e| panic!("{e}"));
        let mut events = m.opening_events().to_vec();
        let mut offers = Vec::new();
        for _ in 0..8 {
            while m.legal_actions(P1).contains(&Action::Digivolve(false)) {
                let asked = events.iter().rev().find_map(|e| match e {
                    Event::EvolutionOffered {
                        side: P1, bench, ..
                    } => Some(*bench),
                    _ => None,
                });
                offers.push((m.round(), asked.expect("an offer was made")));
                // What the arena's prompt names: the bench Digimon asked.
                let bench = (asked == Some(Some(1))).then(|| (n("DM-903"), n("DM-904")));
                assert_eq!(m.bench_evolving(P1), bench);
                // Stay with the front; take the bench's offer.
                let yes = asked == Some(Some(1));
                events = m.apply(P1, Action::Digivolve(yes)).unwrap();
                if yes {
                    return (m, offers, events);
                }
            }
            events = stances(&mut m, A, A);
        }
        (m, offers, events)
    };
    let (m, offers, events) = play(4);
    // The front is full after 3 rounds (35% a round), the bench after 5
    // (20%): in round 6 the front is asked, then the bench.
    assert_eq!(&offers[..3], &[(4, None), (5, None), (6, None)]);
    assert_eq!(offers[3], (6, Some(1)), "{offers:?}");
    assert!(events.contains(&Event::Digivolved {
        side: P1,
        from: n("DM-903"),
        to: n("DM-904"),
        bench: Some(1),
    }));
    assert_eq!(m.view(P1).front.name, "Agumon", "the front stays");
    let (_, offers, _) = play(3);
    assert!(
        offers.iter().all(|(_, bench)| bench.is_none()),
        "engine 3 asks only for the front: {offers:?}"
    );
}

/// Round step 8 and the Effects section: from engine 4 a Speed change (a
/// Speed Chip) resolves with the attribute changes, before the abilities
/// that compare Speeds, so "if this Digimon is faster" reads the Speed the
/// round gives it (6 + 3 = 9 against 8). Engines up to 3 read it before the
/// Option, and their replays still play that way.
#[test]
fn a_speed_change_resolves_before_the_abilities_that_compare_speeds() {
    let cards = set(
        &[
            D {
                hp: 5000,
                speed: 6,
                extra: "terminal: [(timing: Battle, conditions: [Faster], effects: [Power(This, Add(80))])]",
                ..BASE
            },
            D { speed: 8, ..TWOMON },
        ],
        "Option(number: \"OP-901\", name: \"Speed Chip\", cost: 1, terminal: [(timing: Battle, effects: [Speed(This, Add(3))])]),\n",
    );
    let powers = |engine: u32| {
        let mut s = Setup::new(team(&["DM-900", "OP-901"]), team(&["DM-901"]), 1);
        s.tunables.engine = engine;
        let mut m = Match::from_setup(&s, &cards).unwrap_or_else(|e| panic!("{e}"));
        clash(&stances(&mut m, A, A)).0
    };
    assert_eq!(powers(4), [380, 300], "faster once the Chip is counted");
    assert_eq!(powers(3), [300, 300], "engine 3 compared before the Chip");
}

/// Alpha Strike: "the opponent may alpha-block with as many matching
/// supporters": a block brings as many Digimon as the strike, the front
/// and the supporters with the best technique against the striker's
/// stance, so the block's technique is the best of its group.
#[test]
fn an_alpha_block_brings_as_many_digimon_as_the_strike() {
    let weak = set(
        &[D {
            number: "DM-905",
            name: "Foeweakmon",
            hp: 5000,
            techniques: [10, 10, 10],
            ..BASE
        }],
        "",
    );
    let cards = alpha_cards()
        .with_cards(weak.cards())
        .unwrap_or_else(|e| panic!("{e}"));
    // P2's front, a weak supporter first in line, and a strong one: a
    // strike of 2 is blocked by 2, the front and the strong one.
    let mut m = start(
        &cards,
        &["DM-900", "DM-901"],
        &["DM-903", "DM-905", "DM-904"],
    );
    round(&mut m, Action::AlphaAttack(A), Action::Stance(A));
    let ev = m.apply(P2, Action::AlphaBlock(true)).unwrap();
    assert!(
        ev.contains(&Event::AlphaBlock {
            side: P2,
            group: team(&["DM-903", "DM-904"])
        }),
        "{ev:?}"
    );
    assert_eq!(clash(&ev), ([900, 950], Some(P2)));
}

/// Round steps 6 and 7 in their order (engine 4): the next line steps in,
/// then each front Digimon's line gains gauge, so the line that stepped in
/// gains the front's 35% (it did not lose; the loser's 50% was the deleted
/// Digimon's). Engines 1 to 3 gave the gauges before the step-in (the bench
/// 20%).
#[test]
fn the_line_that_steps_in_gains_the_front_gauge() {
    let cards = set(
        &[
            D {
                name: "Fragilemon",
                hp: 100,
                ..BASE
            },
            D {
                number: "DM-903",
                name: "Nextmon",
                hp: 5000,
                ..BASE
            },
            D {
                techniques: [900, 900, 900],
                ..TWOMON
            },
        ],
        "",
    );
    let gauge = |engine: u32| {
        let mut s = Setup::new(team(&["DM-900", "DM-903"]), team(&["DM-901"]), 1);
        s.tunables.engine = engine;
        let mut m = Match::from_setup(&s, &cards).unwrap_or_else(|e| panic!("{e}"));
        let ev = stances(&mut m, A, A);
        assert!(ev.contains(&Event::SteppedIn {
            side: P1,
            card: n("DM-903")
        }));
        m.lines(P1)[1].gauge
    };
    assert_eq!(gauge(4), 35, "the front's share");
    assert_eq!(gauge(3), 20, "engine 3: the bench's, before stepping in");
}
