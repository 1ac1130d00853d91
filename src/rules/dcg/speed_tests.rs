//! The engine plays as it did before it was made faster: seeded random
//! games end where the engine of 2026-11-27 (before the speed work) ended
//! them, and the main phase's quick legality check agrees with the list
//! of legal actions.

use super::tests::set;
use super::*;
use crate::rules::Ruleset;

/// The game `g` of `examples/dcg_fingerprint.rs`: 2 seats, every fifth at
/// 3 or 4, half of those in the Players Format, the shipped decks in turn.
fn fingerprint_game(g: u64) -> Match {
    let seats = if g % 5 == 4 {
        3 + (g / 5 % 2) as usize
    } else {
        2
    };
    let format = if seats > 2 && (g / 10).is_multiple_of(2) {
        Format::Players
    } else {
        Format::Standard
    };
    let list = if format == Format::Players {
        deck::PLAYERS_EMBEDDED
    } else {
        deck::EMBEDDED
    };
    let pool: Vec<Vec<CardNumber>> = list
        .iter()
        .map(|(n, _)| deck::embedded(n, set()).unwrap().unwrap())
        .collect();
    let decks = (0..seats)
        .map(|s| pool[(g as usize + s * (1 + g as usize / pool.len())) % pool.len()].clone())
        .collect();
    // Engine 1: the recorded games were played before engine 2's rule
    // (DCG-EFF-23), which may end some of them elsewhere.
    let setup = Setup {
        format,
        engine: 1,
        ..<Match as Ruleset>::setup_for(decks, g)
    };
    Match::from_setup(&setup, set()).unwrap()
}

/// Games 0 to 99 of `examples/dcg_fingerprint.rs` as the engine played
/// them before the speed work: (actions, final state hash).
const RECORDED: [(u32, u64); 100] = [
    (110, 0x66ada675288fca75),
    (193, 0xd8f229c4184df18e),
    (123, 0xf66fae883d2ac139),
    (113, 0x9356c88d6cc0f320),
    (157, 0x0035c034872f180c),
    (128, 0x490c432b3ff1e697),
    (79, 0x46b4c6e750a999d1),
    (80, 0xc2a6e61836dbdfce),
    (41, 0x1632a236ddd5fb9d),
    (263, 0x532132f305d238c3),
    (85, 0xe1afe313c607b02e),
    (133, 0x56f1c04a8dd6ea3b),
    (47, 0x5181833ae4158ba8),
    (95, 0xac74d3dc0bc056c3),
    (305, 0xdec09e6a90ffb60f),
    (60, 0x8d170c6a39a0c98a),
    (129, 0xaa1afb9b2cedc5c9),
    (68, 0x8d2b7fba78906e2b),
    (62, 0xadd6ebdeb9b24054),
    (330, 0x8a12abc8c1cf8967),
    (96, 0xf8ba411e88eab790),
    (138, 0x268b024cd7af9b75),
    (86, 0x4089014aa851f3fc),
    (69, 0x839fe84da24fae7c),
    (203, 0x1ff4c72548d5db1f),
    (47, 0xc425e52d984e975c),
    (68, 0x2ddd6ca00dea09d3),
    (156, 0x4a2ee5619ce57f8d),
    (73, 0x4c221bfca624a318),
    (318, 0xbd865edefd107d74),
    (132, 0xd27085469f7a546e),
    (95, 0x2b48b3db9b6dc1ce),
    (52, 0x8aabc0119eeed864),
    (107, 0x559d0b222d4cabeb),
    (217, 0xb5879c71ad74fe14),
    (61, 0x95cc0cc63c2e1a6d),
    (71, 0xd247b5ccb5d81b28),
    (107, 0xd5434e45055efbca),
    (151, 0x92713b0b8d41567e),
    (374, 0x5fd2f574d89910af),
    (76, 0xe274e14a8241ee42),
    (116, 0x78178b895fb53a86),
    (87, 0xe463decedc22b611),
    (116, 0x2238c8818120b4dc),
    (151, 0x0a7742b3378ea221),
    (109, 0x44538449fd95e443),
    (67, 0x3b1f440ff35d4fbf),
    (88, 0xbeb169252d910e78),
    (63, 0xa366a697de08521a),
    (280, 0x5a4652425720bb93),
    (76, 0x757a3dfd4817ceaf),
    (84, 0x6ac5a8e84d02ab3a),
    (64, 0xc5f035e56027ecf0),
    (107, 0x4506530841acee42),
    (231, 0x35f204e75f66fc57),
    (111, 0x782d98239dd1a365),
    (69, 0x7e9ed67557156389),
    (96, 0xa337fc1ea0eff8a4),
    (141, 0xd9a3452dd8006b56),
    (341, 0xe18bc5520ff4648c),
    (56, 0xfd472a97216b3d13),
    (124, 0x3fdbe0adf1ced44e),
    (109, 0x9f641d010637f6a3),
    (46, 0x9d7f04677b686e24),
    (179, 0xbf5033cffac5099f),
    (166, 0xe9dab22fe839cecb),
    (115, 0xc6455a7736f4cca5),
    (100, 0x818853a366b408ad),
    (59, 0x403e23559d70295c),
    (249, 0x9343b07d661b5251),
    (85, 0xde568ab208349df5),
    (56, 0x262b244fad71e04a),
    (56, 0x06e33cf497f6597c),
    (83, 0xf41f47a24c7e1fcd),
    (389, 0x780fb3e2b000c95c),
    (185, 0x2d8041eb5f6e54a5),
    (52, 0x0a64b7c839f527b8),
    (134, 0xa4ef3145486457d3),
    (189, 0x901417294997444a),
    (403, 0x2f5c8ecf17ef3b44),
    (58, 0x67ff562ab3dc3f88),
    (73, 0x87517e7ecfdc0b48),
    (184, 0x23194135773d50dd),
    (69, 0x0874ddfe0b093367),
    (217, 0xebe062a38c644624),
    (117, 0x4166854ac4c7468b),
    (59, 0xd6a33604435c0ec1),
    (101, 0x5a7023c92d008250),
    (66, 0x4dd1be444dace95a),
    (223, 0x647351e320b3ef36),
    (146, 0x2bf82bbb296d7f7b),
    (98, 0xd39d91edca7480ea),
    (49, 0x4e15933b7289fcf4),
    (153, 0xdb51b2b26abe4d6b),
    (491, 0xf3607174c18815ca),
    (40, 0x561aa2d8c60e29fd),
    (89, 0x724611b4a9544b65),
    (164, 0x0cac507728ad78f5),
    (136, 0xec1248f4908a8179),
    (377, 0xe3186a0a5f6e0043),
];

#[test]
fn random_games_end_as_recorded() {
    // Keeping events or not (a quiet match keeps none and plays the same).
    for quiet in [false, true] {
        for (g, &(actions, hash)) in RECORDED.iter().enumerate() {
            let g = g as u64;
            let mut m = fingerprint_game(g);
            m.set_quiet(quiet);
            let mut rng = Rng64::new(g ^ 0x5eed);
            let mut n = 0;
            while let Some((seat, _)) = m.waiting() {
                let legal = m.legal_actions(seat);
                let events = m.apply(seat, legal[rng.below(legal.len())]).unwrap();
                assert!(!quiet || events.is_empty(), "a quiet match keeps no events");
                n += 1;
            }
            assert_eq!(
                (n, m.state_hash()),
                (actions, hash),
                "game {g}, quiet {quiet}"
            );
        }
    }
}

/// Every action a main-phase question might be asked about: those of the
/// hand's places (and one past), of every card in play (and an id none
/// has), of every seat.
fn probes(m: &Match) -> Vec<Action> {
    let mut ids: Vec<u16> = m
        .seats
        .iter()
        .flat_map(|z| z.breeding.iter().chain(&z.field).map(|p| p.id))
        .collect();
    ids.push(999);
    let most = m.seats.iter().map(|z| z.hand.len()).max().unwrap_or(0) + 1;
    let mut v = vec![
        Action::Pass,
        Action::Keep,
        Action::Hatch,
        Action::MoveOut,
        Action::StayBreeding,
        Action::NoBlock,
        Action::Yes,
        Action::No,
        Action::Done,
        Action::KeepTarget,
    ];
    for card in 0..most as u8 {
        v.push(Action::Play { card });
        v.push(Action::UseOption { card });
        v.extend(ids.iter().map(|&onto| Action::Digivolve { card, onto }));
    }
    for &id in &ids {
        v.push(Action::TrashDelay { id });
        v.push(Action::Choose { id });
        v.push(Action::Attack {
            attacker: id,
            target: None,
        });
        v.extend(ids.iter().map(|&t| Action::Attack {
            attacker: id,
            target: Some(t),
        }));
    }
    v.extend(Seat::all(4).map(|seat| Action::Target { seat }));
    v.extend((0..10).map(|card| Action::TakeOffline { card }));
    v
}

#[test]
fn main_phase_check_agrees_with_the_list() {
    let mut asked = 0;
    for g in 0..60 {
        let mut m = fingerprint_game(g);
        let mut rng = Rng64::new(g);
        while let Some((seat, ask)) = m.waiting() {
            if ask == Ask::Main {
                asked += 1;
                for s in Seat::all(m.z_count()) {
                    let legal = m.legal_actions(s);
                    for a in probes(&m) {
                        assert_eq!(m.is_legal(s, a), legal.contains(&a), "game {g}, {s}, {a:?}");
                    }
                }
            }
            let legal = m.legal_actions(seat);
            m.apply(seat, legal[rng.below(legal.len())]).unwrap();
        }
    }
    assert!(asked > 1000, "{asked} main phases");
}
