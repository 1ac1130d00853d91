//! Invariants of the Terminal Battle, over many random seeds and teams.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use bterm::ai::Strength;
use bterm::ai::terminal::choose;
use bterm::analysis::cpu_battle;
use bterm::cards::CardSet;
use bterm::replay::Replay;
use bterm::rules::terminal::pick::random_team;
use bterm::rules::terminal::{Match, Setup, Side};
use bterm::session::{Player, Table, drive_cpus};

fn cards() -> &'static CardSet {
    static CARDS: std::sync::OnceLock<CardSet> = std::sync::OnceLock::new();
    CARDS.get_or_init(CardSet::embedded)
}

/// A valid random setup for a seed (teams are retried until the rules accept them).
fn setup(seed: u64) -> Setup {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    loop {
        let s = Setup::new(
            random_team(cards(), &mut rng),
            random_team(cards(), &mut rng),
            seed,
        );
        if Match::from_setup(&s, cards()).is_ok() {
            return s;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_legal_play_never_panics_and_always_ends(seed: u64, picks: Vec<u16>) {
        let mut m = Match::from_setup(&setup(seed), cards()).unwrap();
        let mut i = 0usize;
        let mut steps = 0;
        while m.outcome().is_none() {
            for side in Side::BOTH {
                let legal = m.legal_actions(side);
                if legal.is_empty() { continue; }
                let pick = picks.get(i % picks.len().max(1)).copied().unwrap_or(0) as usize + i;
                i += 1;
                prop_assert!(m.apply(side, legal[pick % legal.len()]).is_ok());
            }
            steps += 1;
            prop_assert!(steps < 1000, "a battle must end");
        }
        prop_assert!(m.round() <= m.tunables().max_rounds);
        prop_assert!(m.legal_actions(Side::P1).is_empty() && m.legal_actions(Side::P2).is_empty());
    }

    #[test]
    fn every_illegal_action_leaves_the_match_unchanged(seed: u64, rounds in 0usize..6) {
        let mut m = Match::from_setup(&setup(seed), cards()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..rounds {
            for side in Side::BOTH {
                let legal = m.legal_actions(side);
                if !legal.is_empty() {
                    m.apply(side, legal[rng.random_range(0..legal.len())]).unwrap();
                }
            }
        }
        for side in Side::BOTH {
            for action in every_action() {
                if !m.legal_actions(side).contains(&action) {
                    let before = m.clone();
                    prop_assert!(m.apply(side, action).is_err());
                    prop_assert_eq!(&m, &before);
                }
            }
        }
    }

    #[test]
    fn a_match_in_progress_survives_serialization(seed: u64, rounds in 0usize..8) {
        let s = setup(seed);
        let mut m = Match::from_setup(&s, cards()).unwrap();
        for _ in 0..rounds {
            for side in Side::BOTH {
                if let Some(a) = choose(&m, side, Strength::Normal) {
                    m.apply(side, a).unwrap();
                }
            }
        }
        let json: Match = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        prop_assert_eq!(&json, &m);
        let ron: Match = bterm::cards::read_ron(&bterm::cards::write_ron(&m).unwrap()).unwrap();
        prop_assert_eq!(&ron, &m);
        prop_assert_eq!(ron.state_hash(), m.state_hash());
        // And it plays on the same: the copy and the original reach the same end.
        let players = vec![Player::Cpu(Strength::Easy), Player::Cpu(Strength::Hard)];
        let mut a = Table::resume(s.clone(), m.clone(), players.clone()).unwrap();
        let mut b = Table::resume(s.clone(), ron, players).unwrap();
        drive_cpus(&mut a, cards());
        drive_cpus(&mut b, cards());
        prop_assert_eq!(a.game().state_hash(), b.game().state_hash());
    }
}

fn every_action() -> Vec<bterm::rules::terminal::Action> {
    use bterm::cards::BattleType;
    use bterm::rules::terminal::{AbilitySlot, Action, Carrier};
    let mut v = vec![Action::TimeUp, Action::Jogress];
    for b in BattleType::ALL {
        v.push(Action::Stance(b));
        v.push(Action::AlphaAttack(b));
    }
    for yes in [false, true] {
        v.push(Action::Digivolve(yes));
        v.push(Action::AlphaBlock(yes));
    }
    for source in [
        Carrier::Front,
        Carrier::Option(0),
        Carrier::Option(1),
        Carrier::Option(5),
    ] {
        for index in 0..3 {
            v.push(Action::UseAbility(AbilitySlot { source, index }));
        }
    }
    v
}

#[test]
fn replays_reproduce_the_final_hash_for_10000_seeds() {
    for seed in 0..10_000u64 {
        let s = setup(seed);
        let levels = [
            Strength::Easy,
            if seed % 4 == 0 {
                Strength::Normal
            } else {
                Strength::Easy
            },
        ];
        let table = cpu_battle(s, cards(), levels).unwrap();
        let m = table.game();
        let replay = Replay::of(&table);
        // Through the file format, as a fan would share it.
        let text = bterm::cards::write_ron(&replay).unwrap();
        let back = Replay::<Match>::parse(&text, "memory").unwrap();
        let replayed = back
            .play(cards(), |_| {})
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(replayed.state_hash(), m.state_hash(), "seed {seed}");
    }
}

#[test]
fn a_tampered_replay_is_caught() {
    let s = setup(7);
    let table = cpu_battle(s, cards(), [Strength::Hard, Strength::Normal]).unwrap();
    let mut replay = Replay::of(&table);
    replay.final_hash ^= 1;
    let err = replay.play(cards(), |_| {}).unwrap_err().to_string();
    assert!(
        err.starts_with("the replay does not reproduce the recorded game: final state hash"),
        "{err}"
    );
    replay.final_hash ^= 1;
    // An engine newer than this build's.
    let engine = bterm::rules::terminal::ENGINE_VERSION;
    replay.rules.engine = engine + 1;
    let err = replay.play(cards(), |_| {}).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!(
            "this replay was played by Terminal rules, engine {} with tunables 1; this bterm plays Terminal rules, engine {engine}",
            engine + 1
        )),
        "{err}"
    );
}

#[test]
fn a_malformed_replay_names_its_line() {
    let err = Replay::<Match>::parse(
        "(\n  rules: (ruleset: Terminal, engine: 1, tunables: 1),\n  setup: oops\n)",
        "bad.ron",
    )
    .unwrap_err();
    assert!(err.to_string().starts_with("bad.ron:3:"), "{err}");
}

#[test]
fn the_state_hash_follows_the_state() {
    let s = setup(3);
    let mut m = Match::from_setup(&s, cards()).unwrap();
    let mut seen = std::collections::HashSet::new();
    assert!(seen.insert(m.state_hash()));
    while m.outcome().is_none() {
        for side in Side::BOTH {
            if let Some(a) = choose(&m, side, Strength::Normal) {
                m.apply(side, a).unwrap();
                assert!(
                    seen.insert(m.state_hash()),
                    "every action changes the state, so the hash"
                );
            }
        }
    }
    let other = Match::from_setup(&setup(4), cards()).unwrap();
    assert_ne!(
        other.state_hash(),
        Match::from_setup(&s, cards()).unwrap().state_hash()
    );
}
