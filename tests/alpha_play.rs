//! Whole Card Game Alpha games: random legal play over many seeds never
//! panics, always ends within a bound, keeps every card in exactly one
//! place, and an illegal action changes nothing.

use bterm::cards::CardSet;
use bterm::rules::Seat;
use bterm::rules::alpha::{Action, Match, Rng64, Setup, deck};

fn decks(cards: &CardSet, names: &[&str]) -> Vec<Vec<bterm::cards::CardNumber>> {
    names
        .iter()
        .map(|n| deck::embedded(n, cards).expect("shipped").expect("legal"))
        .collect()
}

/// Plays random legal actions; returns the actions taken.
fn random_game(cards: &CardSet, names: &[&str], seed: u64, check: bool) -> (Match, usize) {
    let setup = Setup::new(decks(cards, names), seed);
    let mut m = Match::from_setup(&setup, cards).expect("setup");
    let mut rng = Rng64::new(seed ^ 0xABCD);
    let total: usize = setup.decks.iter().map(Vec::len).sum();
    let mut n = 0;
    while m.outcome().is_none() {
        let seat = m
            .waiting_for()
            .expect("someone is asked while the game goes on");
        let legal = m.legal_actions(seat);
        assert!(!legal.is_empty());
        // Fewer target switches and "done"s in a hurry keep games real.
        let a = legal[rng.below(legal.len())];
        m.apply(seat, a).expect("a legal action applies");
        n += 1;
        assert!(n < 200_000, "seed {seed}: no end after {n} actions");
        if check {
            assert_eq!(
                count_cards(&m),
                total,
                "seed {seed}: cards appeared or vanished"
            );
        }
    }
    (m, n)
}

fn count_cards(m: &Match) -> usize {
    let s = serde_json::to_value(m).unwrap();
    let mut n = 0;
    for st in s["seats"].as_array().unwrap() {
        for z in ["ocean", "hand", "dark", "gone"] {
            n += st[z].as_array().unwrap().len();
        }
        for mon in st["digimon"].as_array().unwrap() {
            n += 1;
            for p in mon["stack"].as_array().unwrap() {
                n += 1 + usize::from(!p["partner"].is_null());
            }
        }
        n += st["options"].as_array().unwrap().len();
    }
    if let Some(b) = s["battle"].as_object() {
        for side in b["sides"].as_array().unwrap() {
            n += side["commands"].as_array().unwrap().len();
        }
    }
    n
}

#[test]
fn random_two_seat_games_end_and_keep_every_card() {
    let cards = CardSet::embedded();
    let pairs = [
        ["courage", "friendship"],
        ["nightmare", "jogress"],
        ["sky-and-sea", "courage"],
        ["jogress", "friendship"],
    ];
    for seed in 0..40u64 {
        let names = pairs[seed as usize % pairs.len()];
        let (m, _) = random_game(&cards, &names, seed, true);
        assert!(m.outcome().is_some());
    }
}

#[test]
fn random_three_and_four_seat_games_end() {
    let cards = CardSet::embedded();
    for seed in 0..12u64 {
        let names: &[&str] = if seed % 2 == 0 {
            &["courage", "friendship", "nightmare"]
        } else {
            &["courage", "friendship", "nightmare", "jogress"]
        };
        let (m, _) = random_game(&cards, names, seed, true);
        assert!(m.outcome().is_some());
    }
}

#[test]
fn an_illegal_action_changes_nothing() {
    let cards = CardSet::embedded();
    let setup = Setup::new(decks(&cards, &["courage", "nightmare"]), 5);
    let mut m = Match::from_setup(&setup, &cards).unwrap();
    let mut rng = Rng64::new(1);
    for _ in 0..300 {
        if m.outcome().is_some() {
            break;
        }
        let seat = m.waiting_for().unwrap();
        let other = Seat::new(1 - seat.index()).unwrap();
        let before = m.state_hash();
        for bad in [
            Action::Done,
            Action::Pass,
            Action::NoBlock,
            Action::Attack(None),
        ] {
            if !m.legal_actions(other).contains(&bad) {
                assert!(m.apply(other, bad).is_err());
            }
            if !m.legal_actions(seat).contains(&bad) {
                assert!(m.apply(seat, bad).is_err());
            }
        }
        assert_eq!(m.state_hash(), before);
        let legal = m.legal_actions(seat);
        m.apply(seat, legal[rng.below(legal.len())]).unwrap();
    }
}

/// Any action from a few numbers: every kind, with card ids in and out of
/// range (the hidden id too).
fn any_action(kind: u8, a: u16, b: u16, c: u16, seat: u8) -> Action {
    let id = |x: u16| bterm::rules::alpha::CardId(if x > 300 { u16::MAX } else { x });
    match kind % 17 {
        0 => Action::Done,
        1 => Action::Discard(id(a)),
        2 => Action::Scrap(id(a)),
        3 => Action::Play(id(a)),
        4 => Action::Evolve(id(a), id(b)),
        5 => Action::Jogress(id(a), id(b), id(c)),
        6 => Action::Target(Seat::new(usize::from(seat % 4)).unwrap()),
        7 => Action::Lead(id(a)),
        8 => Action::Attack(a.is_multiple_of(2).then(|| id(b))),
        9 => Action::AlphaAttack,
        10 => Action::Support(id(a)),
        11 => Action::Block(id(a)),
        12 => Action::NoBlock,
        13 => Action::Pass,
        14 => Action::Command(id(a)),
        15 => Action::Pick(id(a)),
        _ => Action::Resolve(a.is_multiple_of(2)),
    }
}

const DECKS: [&str; 5] = [
    "courage",
    "friendship",
    "nightmare",
    "jogress",
    "sky-and-sea",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
        std::env::var("BTERM_ALPHA_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(8)
    ))]

    /// 2 to 4 seats, any decks, any seed: between random legal actions,
    /// random actions of any kind from any seat are refused without a
    /// change or applied as legal; the game ends within a bound and no card
    /// appears or vanishes.
    #[test]
    fn random_play_with_stray_actions_keeps_the_rules(
        picks in proptest::collection::vec(0usize..5, 2..=4),
        seed in proptest::prelude::any::<u64>(),
        strays in proptest::collection::vec(
            (proptest::prelude::any::<u8>(), 0u16..400, 0u16..400, 0u16..400, proptest::prelude::any::<u8>()),
            1..8,
        ),
    ) {
        let cards = CardSet::embedded();
        let names: Vec<&str> = picks.iter().map(|&i| DECKS[i]).collect();
        let setup = Setup::new(decks(&cards, &names), seed);
        let mut m = Match::from_setup(&setup, &cards).unwrap();
        let total: usize = setup.decks.iter().map(Vec::len).sum();
        let mut rng = Rng64::new(seed);
        let mut n = 0usize;
        while m.outcome().is_none() {
            let (kind, a, b, c, s) = strays[n % strays.len()];
            let who = Seat::new(usize::from(s) % names.len()).unwrap();
            let stray = any_action(kind.wrapping_add(n as u8), a, b, c, s);
            let before = m.clone();
            let legal = m.legal_actions(who).contains(&stray);
            match m.apply(who, stray) {
                Ok(_) => proptest::prop_assert!(legal, "{stray:?} applied but was not legal"),
                Err(_) => {
                    proptest::prop_assert!(!legal, "{stray:?} was legal but refused");
                    proptest::prop_assert_eq!(&m, &before);
                    proptest::prop_assert_eq!(m.state_hash(), before.state_hash());
                }
            }
            if m.outcome().is_some() {
                break;
            }
            let seat = m.waiting_for().unwrap();
            let legal = m.legal_actions(seat);
            proptest::prop_assert!(!legal.is_empty());
            m.apply(seat, legal[rng.below(legal.len())]).unwrap();
            n += 1;
            proptest::prop_assert!(n < 20_000, "no end after {} actions", n);
            proptest::prop_assert_eq!(count_cards(&m), total);
        }
    }
}
