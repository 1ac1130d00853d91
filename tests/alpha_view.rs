//! Hidden information in the Card Game Alpha: a view holds no card its
//! seat may not see, a CPU's choice depends only on the view, matches
//! survive serialisation mid-game, and replays reproduce their games.

use bterm::ai::Strength;
use bterm::ai::alpha::choose;
use bterm::cards::CardSet;
use bterm::replay::Replay;
use bterm::rules::Seat;
use bterm::rules::alpha::{CardId, Match, Rng64, Setup, deck};
use bterm::session::{Player, Table, drive_cpus};

fn setup(cards: &CardSet, names: &[&str], seed: u64) -> Setup {
    let decks = names
        .iter()
        .map(|n| deck::embedded(n, cards).unwrap().unwrap())
        .collect();
    Setup::new(decks, seed)
}

/// Runs random legal play, calling `f` before every action.
fn walk(cards: &CardSet, names: &[&str], seed: u64, mut f: impl FnMut(&Match)) {
    let mut m = Match::from_setup(&setup(cards, names, seed), cards).unwrap();
    let mut rng = Rng64::new(seed);
    while m.outcome().is_none() {
        f(&m);
        let seat = m.waiting_for().unwrap();
        let legal = m.legal_actions(seat);
        m.apply(seat, legal[rng.below(legal.len())]).unwrap();
    }
    f(&m);
}

const HIDDEN: u64 = CardId::HIDDEN.0 as u64;

fn ids(v: &serde_json::Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

#[test]
fn a_view_never_holds_a_card_its_seat_may_not_see() {
    let cards = CardSet::embedded();
    for seed in 0..6 {
        let names: &[&str] = if seed % 2 == 0 {
            &["courage", "jogress"]
        } else {
            &["friendship", "nightmare", "jogress"]
        };
        walk(&cards, names, seed, |m| {
            for me in Seat::all(m.seats()) {
                let v = serde_json::to_value(m.view(me).state()).unwrap();
                assert_eq!(v["history"].as_u64(), Some(0), "the path leaks hidden ids");
                for (j, st) in v["seats"].as_array().unwrap().iter().enumerate() {
                    assert!(
                        ids(&st["ocean"]).iter().all(|&x| x == HIDDEN),
                        "Net Ocean seen"
                    );
                    assert!(
                        ids(&st["dark"]).iter().all(|&x| x == HIDDEN),
                        "Dark Area seen"
                    );
                    if j == me.index() {
                        assert!(ids(&st["hand"]).iter().all(|&x| x != HIDDEN));
                        continue;
                    }
                    assert!(ids(&st["hand"]).iter().all(|&x| x == HIDDEN), "a hand seen");
                    for mon in st["digimon"].as_array().unwrap() {
                        if mon["down"].as_bool().unwrap() {
                            assert_eq!(mon["card"].as_u64().unwrap(), HIDDEN);
                        }
                        for p in mon["stack"].as_array().unwrap() {
                            assert_eq!(p["card"].as_u64().unwrap(), HIDDEN);
                        }
                    }
                    for o in st["options"].as_array().unwrap() {
                        if o["down"].as_bool().unwrap() {
                            assert_eq!(o["card"].as_u64().unwrap(), HIDDEN);
                        }
                    }
                }
            }
        });
    }
}

#[test]
fn matches_differing_only_in_hidden_cards_get_the_same_cpu_choice() {
    let cards = CardSet::embedded();
    let mut compared = 0;
    let mut differed = 0;
    walk(&cards, &["courage", "friendship"], 11, |m| {
        let Some(seat) = m.waiting_for() else { return };
        if m.turn() > 3 {
            return;
        }
        let view = m.view(seat);
        // Another true match the seat cannot tell from this one.
        let other = view.sample(&mut Rng64::new(compared));
        assert_eq!(other.view(seat), view, "the other match must look the same");
        if other.state_hash() != m.state_hash() {
            differed += 1;
        }
        for s in [Strength::Easy, Strength::Normal] {
            assert_eq!(choose(&other.view(seat), s), choose(&view, s));
        }
        compared += 1;
    });
    assert!(
        compared > 10 && differed > compared / 2,
        "{compared} {differed}"
    );
}

#[test]
fn the_hard_cpu_also_chooses_from_the_view_alone() {
    let cards = CardSet::embedded();
    let m = Match::from_setup(&setup(&cards, &["courage", "nightmare"], 4), &cards).unwrap();
    let seat = m.waiting_for().unwrap();
    let view = m.view(seat);
    let other = view.sample(&mut Rng64::new(99));
    assert_ne!(other.state_hash(), m.state_hash());
    let mut a = Rng64::new(1);
    let mut b = Rng64::new(1);
    let long = std::time::Duration::from_secs(600);
    let x = bterm::ai::alpha::search(&view, 60, long, &mut a);
    let y = bterm::ai::alpha::search(&other.view(seat), 60, long, &mut b);
    assert_eq!(x, y);
}

#[test]
fn a_match_in_progress_survives_serialisation() {
    let cards = CardSet::embedded();
    let mut m = Match::from_setup(&setup(&cards, &["jogress", "sky-and-sea"], 8), &cards).unwrap();
    let mut rng = Rng64::new(3);
    for step in 0..400 {
        if m.outcome().is_some() {
            break;
        }
        if step % 37 == 0 {
            let text = bterm::cards::write_ron(&m).unwrap();
            let back: Match = bterm::cards::read_ron(&text).unwrap();
            assert_eq!(back.state_hash(), m.state_hash());
            m = back;
        }
        let seat = m.waiting_for().unwrap();
        let legal = m.legal_actions(seat);
        m.apply(seat, legal[rng.below(legal.len())]).unwrap();
    }
}

/// Replays of CPU games reproduce their final hash (`BTERM_ALPHA_REPLAYS`
/// sets how many seeds; `make alpha-soak` runs 10,000).
#[test]
fn replays_reproduce_the_final_hash() {
    let cards = CardSet::embedded();
    let n: u64 = std::env::var("BTERM_ALPHA_REPLAYS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let names: Vec<&str> = deck::EMBEDDED.iter().map(|(n, _)| *n).collect();
    for seed in 0..n {
        let seats = 2 + (seed % 3) as usize;
        let picked: Vec<&str> = (0..seats)
            .map(|k| names[(seed as usize + k * 2) % names.len()])
            .collect();
        let players = (0..seats)
            .map(|k| {
                Player::Cpu(if k % 2 == 0 {
                    Strength::Easy
                } else {
                    Strength::Normal
                })
            })
            .collect();
        let mut t: Table<Match> =
            Table::new(setup(&cards, &picked, seed), &cards, players).unwrap();
        drive_cpus(&mut t, &cards);
        assert!(t.is_over(), "seed {seed} did not end");
        let replay = Replay::of(&t);
        let text = bterm::cards::write_ron(&replay).unwrap();
        let back = Replay::<Match>::parse(&text, "mem").unwrap();
        let m = back.play(&cards, |_| {}).unwrap();
        assert_eq!(m.state_hash(), t.game().state_hash());
    }
}

/// Replays saved by an earlier build (adf6f8f: a hard CPU against a normal
/// one, and four mixed CPUs) still play the same game to the same hash.
#[test]
fn replays_from_an_earlier_build_still_verify() {
    let cards = CardSet::embedded();
    for (name, seats, actions) in [
        ("alpha-replay-2-seats.ron", 2, 76),
        ("alpha-replay-4-seats.ron", 4, 191),
    ] {
        let path = std::path::Path::new("tests/fixtures").join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let r = Replay::<Match>::parse(&text, name).unwrap();
        assert_eq!(r.setup.decks.len(), seats, "{name}");
        assert_eq!(r.actions.len(), actions, "{name}");
        let end = r.play(&cards, |_| {}).unwrap();
        assert!(end.outcome().is_some(), "{name}: a whole game");
        assert_eq!(
            bterm::cards::write_ron(&r).unwrap().trim(),
            text.trim(),
            "{name}"
        );
    }
}
