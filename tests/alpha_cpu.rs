//! Positions where a CPU must not blunder: a "hard" that loses to an
//! obvious line (attacking into a blocker it can see, bursting itself) is a
//! bug. Each position is a script (the format of `tests/alpha/`) played up
//! to the CPU's decision; the CPU then chooses from its view.

use bterm::ai::Strength;
use bterm::ai::alpha::choose;
use bterm::cards::CardSet;
use bterm::rules::Seat;
use bterm::rules::alpha::script::Script;
use bterm::rules::alpha::{Action, Match};

/// Plays a script's steps and returns the match, waiting for `seat`.
fn position(text: &str, seat: Seat) -> Match {
    let script: Script = bterm::cards::read_ron(text).unwrap();
    let base = CardSet::embedded();
    let played = script.run(&base).unwrap();
    assert!(played.refused.is_none(), "{:?}", played.refused);
    assert_eq!(played.game.waiting_for(), Some(seat));
    played.game
}

fn said(m: &Match, seat: Seat, a: Action) -> String {
    m.action_text(a)
        + &format!(
            " (legal: {:?})",
            m.legal_actions(seat)
                .iter()
                .map(|&x| m.action_text(x))
                .collect::<Vec<_>>()
        )
}

/// A wall: faster than anything, and it beats anything.
const WALL: &str = r#"
        Digimon(
            number: "Dα-901",
            name: "Wallmon",
            cost: 1,
            speed: 9,
            battle_type: A,
            hp: 2000,
            techniques: (
                a: (name: "Wall Slam", power: 1500),
                b: (name: "Wall Slam", power: 1500),
                c: (name: "Wall Slam", power: 1500),
            ),
            field: MetalEmpire,
            level: III,
            type: "Machine",
            attribute: Data,
        ),
"#;

/// P2's Wallmon (Speed 9, untapped: it did nothing) can block P1's Agumon
/// and would delete it. Attacking the player or the wall loses Agumon;
/// doing nothing keeps it.
fn into_a_blocker() -> String {
    format!(
        r#"(
    cards: [{WALL}],
    decks: [
        ["Agumon", "Greymon", "Gabumon", "Garurumon", "Patamon", "Angemon", "2x Agumon",
         "2x Greymon", "3x Metal Greymon", "2x Gabumon", "2x Garurumon", "3x Were Garurumon",
         "2x Patamon", "2x Angemon", "3x Magna Angemon", "3x Biyomon", "2x Birdramon"],
        ["Wallmon", "Kuramon", "Tentomon", "Kabuterimon", "Biyomon", "Gabumon",
         "2x Wallmon", "3x Metal Greymon", "3x Were Garurumon", "3x Magna Angemon",
         "3x Garudamon", "3x Zudomon", "3x Andromon", "3x Taomon", "3x Infermon"],
    ],
    first: P1,
    steps: [
        (P1, "play Agumon"), (P1, "done"),
        (P2, "play Wallmon"), (P2, "done"),
        (P2, "pass"),
    ],
)"#
    )
}

#[test]
fn no_cpu_above_easy_attacks_into_a_blocker_it_can_see() {
    let m = position(&into_a_blocker(), Seat::P1);
    let legal = m.legal_actions(Seat::P1);
    assert!(
        legal.contains(&Action::Attack(None)),
        "attacking is possible"
    );
    for strength in [Strength::Normal, Strength::Hard] {
        let a = choose(&m.view(Seat::P1), strength);
        assert_eq!(
            a,
            Action::Pass,
            "{strength:?} chose {}",
            said(&m, Seat::P1, a)
        );
    }
}

/// P1 has played 10 Cost this turn (Greymon, Metal Greymon and War Greymon
/// on Agumon) and holds three Options (Cost 1 to 3): any of them is a Burst
/// that throws Net Ocean cards away for an Option it can play next turn.
/// Ending the plays is right.
fn over_ten() -> String {
    r#"(
    decks: [
        ["Agumon", "Greymon", "Metal Greymon", "War Greymon", "Vaccine Killer", "Speed Chip",
         "Attack Cancel", "Gabumon", "Garurumon", "Biyomon", "Birdramon", "Garudamon",
         "2x Agumon", "2x Greymon", "2x Metal Greymon", "2x Gabumon", "2x Garurumon", "3x Were Garurumon",
         "2x Patamon", "2x Angemon", "2x Magna Angemon", "1x Biyomon"],
        ["Impmon", "Devimon", "Kuramon", "Keramon", "Tentomon", "Kabuterimon",
         "2x Impmon", "2x Devimon", "3x Myotismon", "2x Kuramon", "2x Keramon", "3x Infermon",
         "2x Tentomon", "2x Kabuterimon", "3x Hawkmon", "3x Aquilamon", "2x Betamon"],
    ],
    first: P1,
    steps: [
        (P1, "play Agumon"), (P1, "done"),
        (P2, "play Impmon"), (P2, "done"),
        (P2, "pass"), (P1, "pass"),
        (P1, "done"),
        (P1, "play Greymon on Agumon"),
        (P1, "play Metal Greymon on Agumon"),
        (P1, "play War Greymon on Agumon"),
    ],
)"#
    .to_string()
}

#[test]
fn no_cpu_above_easy_bursts_itself() {
    let m = position(&over_ten(), Seat::P1);
    let z = &m.zones()[0];
    assert_eq!(z.hand, ["Vaccine Killer", "Speed Chip", "Attack Cancel"]);
    assert_eq!(m.played_cost(Seat::P1), 10);
    for strength in [Strength::Normal, Strength::Hard] {
        let a = choose(&m.view(Seat::P1), strength);
        let cost = match a {
            Action::Play(c) | Action::Evolve(c, _) | Action::Jogress(c, _, _) => m
                .card(c)
                .and_then(bterm::cards::Card::cost)
                .map_or(0, u32::from),
            _ => 0,
        };
        assert!(
            m.played_cost(Seat::P1) + cost <= 10,
            "{strength:?} chose {} with {} played",
            said(&m, Seat::P1, a),
            m.played_cost(Seat::P1)
        );
    }
}
