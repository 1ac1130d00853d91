//! Card Game Alpha rule sentences that a script cannot reach (deck checks,
//! the shuffles and coin of Game Setup), each test named after its id in
//! `docs/alpha-rules.md`. The rest are scenarios in `tests/alpha/`.

use bterm::cards::{Card, CardNumber, CardSet};
use bterm::rules::Seat;
use bterm::rules::alpha::deck::{DeckError, check, check_addition};
use bterm::rules::alpha::{Event, Match, Setup, SetupError, deck};

fn number(cards: &CardSet, name: &str) -> CardNumber {
    cards.resolve(name).unwrap().number()
}

/// A deck from (count, name) entries.
fn deck_of(cards: &CardSet, entries: &[(usize, &str)]) -> Vec<CardNumber> {
    entries
        .iter()
        .flat_map(|&(n, name)| std::iter::repeat_n(number(cards, name), n))
        .collect()
}

/// 30 legal cards (3 of each of ten names) to finish decks with.
const FILLER: [(usize, &str); 10] = [
    (3, "Gabumon"),
    (3, "Garurumon"),
    (3, "Were Garurumon"),
    (3, "Patamon"),
    (3, "Angemon"),
    (3, "Magna Angemon"),
    (3, "Biyomon"),
    (3, "Birdramon"),
    (3, "Garudamon"),
    (3, "Tentomon"),
];

fn filler_and(cards: &CardSet, extra: &[(usize, &str)]) -> Vec<CardNumber> {
    let mut d = deck_of(cards, &FILLER);
    d.extend(deck_of(cards, extra));
    d
}

#[test]
fn deck_has_32_cards() {
    let cards = CardSet::embedded();
    assert_eq!(check(&filler_and(&cards, &[(2, "Agumon")]), &cards), Ok(()));
    assert_eq!(
        check(&filler_and(&cards, &[(1, "Agumon")]), &cards),
        Err(DeckError::Size(31))
    );
    assert_eq!(
        check(&filler_and(&cards, &[(3, "Agumon")]), &cards),
        Err(DeckError::Size(33))
    );
    // A refused deck names the rule.
    let e = check(&filler_and(&cards, &[(1, "Agumon")]), &cards).unwrap_err();
    assert!(e.to_string().contains("exactly 32"), "{e}");
}

#[test]
fn deck_has_a_level_iii() {
    let cards = CardSet::embedded();
    let no_iii = deck_of(
        &cards,
        &[
            (3, "Greymon"),
            (3, "Metal Greymon"),
            (3, "Garurumon"),
            (3, "Were Garurumon"),
            (3, "Angemon"),
            (3, "Magna Angemon"),
            (3, "Birdramon"),
            (3, "Garudamon"),
            (3, "Kabuterimon"),
            (3, "Infermon"),
            (2, "Devimon"),
        ],
    );
    assert_eq!(no_iii.len(), 32);
    assert_eq!(check(&no_iii, &cards), Err(DeckError::NoLevelIii));
    // One Level III is enough.
    let mut one = no_iii.clone();
    one[31] = number(&cards, "Agumon");
    assert_eq!(check(&one, &cards), Ok(()));
}

#[test]
fn at_most_3_cards_of_one_name() {
    let cards = CardSet::embedded();
    // 4 Agumon: refused, naming the card and the rule.
    let mut d = deck_of(&cards, &FILLER[..9]);
    d.extend(deck_of(&cards, &[(4, "Agumon"), (1, "Tentomon")]));
    assert_eq!(d.len(), 32);
    match check(&d, &cards) {
        Err(DeckError::NameLimit {
            name, count, limit, ..
        }) => {
            assert_eq!((name.as_str(), count, limit), ("Agumon", 4, 3));
        }
        other => panic!("{other:?}"),
    }
    // Option cards too.
    let mut d = deck_of(&cards, &FILLER[..9]);
    d.extend(deck_of(&cards, &[(1, "Agumon"), (4, "Speed Chip")]));
    assert!(
        matches!(check(&d, &cards), Err(DeckError::NameLimit { name, .. }) if name == "Speed Chip")
    );
}

#[test]
fn x_antibody_counts_as_base_name() {
    let cards = CardSet::embedded();
    // 3 War Greymon and 1 War Greymon X-Antibody are 4 of one name.
    let mut d = deck_of(&cards, &FILLER[..9]);
    d.extend(deck_of(
        &cards,
        &[
            (1, "Agumon"),
            (3, "War Greymon"),
            (1, "War Greymon X-Antibody"),
        ],
    ));
    assert_eq!(d.len(), 32);
    match check(&d, &cards) {
        Err(DeckError::NameLimit { name, count, .. }) => {
            assert_eq!((name.as_str(), count), ("War Greymon", 4));
        }
        other => panic!("{other:?}"),
    }
    // 2 and 1 are fine.
    let mut d = deck_of(&cards, &FILLER[..9]);
    d.extend(deck_of(
        &cards,
        &[
            (2, "Agumon"),
            (2, "War Greymon"),
            (1, "War Greymon X-Antibody"),
        ],
    ));
    assert_eq!(check(&d, &cards), Ok(()));
}

/// A deck built card by card (the arena's deck scan) is refused at the
/// card that breaks a rule, with the same words as a whole deck.
#[test]
fn deck_built_card_by_card_refuses_at_once() {
    let cards = CardSet::embedded();
    let card = |name: &str| cards.resolve(name).unwrap().clone();
    let two = deck_of(&cards, &[(2, "Agumon")]);
    assert_eq!(check_addition(&two, &card("Agumon"), &cards), Ok(()));
    let three = deck_of(&cards, &[(3, "Agumon")]);
    match check_addition(&three, &card("Agumon"), &cards) {
        Err(
            e @ DeckError::NameLimit {
                count: 4, limit: 3, ..
            },
        ) => {
            assert!(e.to_string().contains("Agumon"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // An X-Antibody counts as its base name here too.
    let wars = deck_of(&cards, &[(3, "War Greymon")]);
    assert!(matches!(
        check_addition(&wars, &card("War Greymon X-Antibody"), &cards),
        Err(DeckError::NameLimit { .. })
    ));
    // A full deck takes no 33rd card.
    let full = filler_and(&cards, &[(2, "Agumon")]);
    assert_eq!(
        check_addition(&full, &card("Tentomon"), &cards),
        Err(DeckError::Size(33))
    );
    // A card from outside the set is refused, by name.
    let wild = plenty_chip(3);
    match check_addition(&two, &wild, &cards) {
        Err(e @ DeckError::UnknownCard { .. }) => {
            assert!(e.to_string().contains("Plenty Chip"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // A card whose text lifts the limit may go past 3.
    let with = cards.extended(&[plenty_chip(5)]).unwrap();
    let four = deck_of(&with, &[(4, "Plenty Chip")]);
    assert_eq!(check_addition(&four, &plenty_chip(5), &with), Ok(()));
}

/// A card whose text lifts the limit (`deck_limit` in the card file).
fn plenty_chip(limit: u8) -> Card {
    bterm::cards::read_ron(&format!(
        r#"Option(number: "OP-903", name: "Plenty Chip", cost: 1, deck_limit: {limit},
           alpha: [(timing: Preparation, effects: [Draw(You, 1)])])"#
    ))
    .unwrap()
}

#[test]
fn card_text_may_lift_name_limit() {
    let base = CardSet::embedded();
    let cards = base.extended(&[plenty_chip(5)]).unwrap();
    let mut d = deck_of(&cards, &FILLER[..9]);
    d.extend(deck_of(&cards, &[(5, "Plenty Chip")]));
    assert_eq!(d.len(), 32);
    assert_eq!(check(&d, &cards), Ok(()));
    // It states 5: a sixth is still refused, naming its limit.
    let mut six = deck_of(&cards, &FILLER[..8]);
    six.extend(deck_of(&cards, &[(2, "Agumon"), (6, "Plenty Chip")]));
    assert_eq!(six.len(), 32);
    match check(&six, &cards) {
        Err(e @ DeckError::NameLimit { limit: 5, .. }) => {
            assert!(e.to_string().contains("at most 5"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // A match takes the card with the setup.
    let mut setup = Setup::new(vec![d.clone(), d], 1);
    setup.extra = vec![plenty_chip(5)];
    assert!(Match::from_setup(&setup, &base).is_ok());
    setup.extra.clear();
    assert!(matches!(
        Match::from_setup(&setup, &base),
        Err(SetupError::Deck { .. })
    ));
}

fn two_decks(cards: &CardSet) -> Vec<Vec<CardNumber>> {
    vec![
        deck::embedded("courage", cards).unwrap().unwrap(),
        deck::embedded("nightmare", cards).unwrap().unwrap(),
    ]
}

#[test]
fn four_zones_per_player() {
    let cards = CardSet::embedded();
    let m = Match::from_setup(&Setup::new(two_decks(&cards), 3), &cards).unwrap();
    let zones = m.zones();
    assert_eq!(zones.len(), 2);
    for z in &zones {
        // Net Ocean, Dark Area, Digimon Box, Option Slot (and the hand):
        // all 32 cards are in one of them.
        assert_eq!(z.net_ocean.len() + z.hand.len(), 32, "{:?}", z.seat);
        assert!(z.dark_area.is_empty() && z.digimon.is_empty() && z.options.is_empty());
        assert!(z.removed.is_empty());
    }
}

#[test]
fn points_start_at_100() {
    let cards = CardSet::embedded();
    for n in 2..=4 {
        let decks: Vec<_> = (0..n)
            .map(|_| deck::embedded("courage", &cards).unwrap().unwrap())
            .collect();
        let m = Match::from_setup(&Setup::new(decks, 9), &cards).unwrap();
        for s in 0..n {
            assert_eq!(m.points(Seat::new(s).unwrap()), 100);
        }
    }
}

#[test]
fn opening_hand_is_6() {
    let cards = CardSet::embedded();
    for seed in 0..50 {
        let m = Match::from_setup(&Setup::new(two_decks(&cards), seed), &cards).unwrap();
        for z in m.zones() {
            assert_eq!(z.hand.len(), 6, "seed {seed}");
            assert_eq!(z.net_ocean.len(), 26, "seed {seed}");
        }
    }
}

#[test]
fn decks_shuffled_at_setup() {
    let cards = CardSet::embedded();
    let decks = two_decks(&cards);
    let written: Vec<String> = decks[0]
        .iter()
        .map(|n| cards.get(n).unwrap().name().to_string())
        .collect();
    let mut orders = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let m = Match::from_setup(&Setup::new(decks.clone(), seed), &cards).unwrap();
        let z = &m.zones()[0];
        let mut dealt: Vec<String> = z.hand.iter().chain(&z.net_ocean).cloned().collect();
        orders.insert(dealt.clone());
        // The same cards, in another order.
        dealt.sort();
        let mut sorted = written.clone();
        sorted.sort();
        assert_eq!(dealt, sorted, "seed {seed}");
    }
    assert!(orders.len() >= 19, "{} orders in 20 seeds", orders.len());
    // A setup that says not to shuffle deals the decks as written.
    let mut setup = Setup::new(decks, 0);
    setup.shuffle = false;
    setup.first = Some(Seat::P1);
    let m = Match::from_setup(&setup, &cards).unwrap();
    let z = &m.zones()[0];
    // (The written deck has a Level III in its first 6: no redraw.)
    assert!(
        written[..6]
            .iter()
            .any(|n| deck::is_level_iii(cards.resolve(n).unwrap()))
    );
    let dealt: Vec<String> = z.hand.iter().chain(&z.net_ocean).cloned().collect();
    assert_eq!(dealt, written);
}

#[test]
fn first_to_attack_decided_at_setup() {
    let cards = CardSet::embedded();
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let m = Match::from_setup(&Setup::new(two_decks(&cards), seed), &cards).unwrap();
        let first = m.order()[0];
        assert!(
            m.opening_events().contains(&Event::FirstToAttack(first)),
            "seed {seed}"
        );
        firsts.insert(first);
    }
    // The coin falls both ways.
    assert_eq!(firsts.len(), 2);
    // A setup may name the first seat.
    let mut setup = Setup::new(two_decks(&cards), 1);
    setup.first = Some(Seat::P2);
    let m = Match::from_setup(&setup, &cards).unwrap();
    assert_eq!(m.order(), &[Seat::P2, Seat::P1]);
}

/// Every rule sentence of `docs/alpha-rules.md` section 1 has a test named
/// after its id: a scenario `tests/alpha/<id>.ron` or a `fn <id>` in the
/// tests or the sources.
#[test]
fn every_rule_sentence_has_a_test_named_after_it() {
    let doc = std::fs::read_to_string("docs/alpha-rules.md").unwrap();
    let section = doc
        .split("## 1. Rule sentences")
        .nth(1)
        .and_then(|s| s.split("## 2.").next())
        .unwrap();
    let ids: Vec<&str> = section
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = l.split_once(". `")?.1;
            l.split_once('.')?.0.parse::<u32>().ok()?;
            rest.split_once('`').map(|(id, _)| id)
        })
        .collect();
    assert_eq!(ids.len(), 110, "the page lists 110 rule sentences");
    let mut sources = String::new();
    for dir in ["tests", "src/rules/alpha"] {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "rs") {
                sources.push_str(&std::fs::read_to_string(e.path()).unwrap());
            }
        }
    }
    let missing: Vec<&&str> = ids
        .iter()
        .filter(|id| {
            !std::path::Path::new(&format!("tests/alpha/{id}.ron")).is_file()
                && !sources.contains(&format!("fn {id}("))
        })
        .collect();
    assert!(missing.is_empty(), "no test named after {missing:?}");
}

/// Two Digimon of one name are two choices a person can tell apart: the
/// menu names each one's place in the line-up (scripts still take the
/// plain words, meaning the first).
#[test]
fn same_named_choices_are_told_apart() {
    let script: bterm::rules::alpha::script::Script = bterm::cards::read_ron(
        r#"(
    decks: [
        ["Patamon", "Patamon", "Agumon", "Greymon", "Gabumon", "Garurumon", "Patamon",
         "2x Agumon", "2x Greymon", "3x Metal Greymon", "2x Gabumon", "2x Garurumon",
         "3x Were Garurumon", "3x Angemon", "3x Magna Angemon", "3x Biyomon", "2x Birdramon"],
        ["Tentomon", "Kabuterimon", "Kuramon", "Keramon", "Betamon", "Gomamon",
         "3x Metal Greymon", "3x Were Garurumon", "3x Magna Angemon", "3x Garudamon",
         "3x Zudomon", "3x Andromon", "3x Taomon", "3x Infermon", "2x Myotismon"],
    ],
    first: P1,
    steps: [
        (P1, "play Patamon"), (P1, "play Patamon"), (P1, "done"),
        (P2, "play Tentomon"), (P2, "done"),
    ],
)"#,
    )
    .unwrap();
    let cards = CardSet::embedded();
    let played = script.run(&cards).unwrap();
    assert!(played.refused.is_none(), "{:?}", played.refused);
    let m = &played.game;
    let legal = m.legal_actions(Seat::P1);
    let plain: Vec<String> = legal.iter().map(|&a| m.action_text(a)).collect();
    assert_eq!(plain, ["lead Patamon", "lead Patamon"]);
    let told = m.choice_texts(&legal);
    assert_ne!(told[0], told[1], "{told:?}");
    assert!(
        told[0].contains("no. 1") && told[1].contains("no. 2"),
        "{told:?}"
    );
    // The question's menu shows them so, and still takes the plain words.
    let q = m.question(Seat::P1).unwrap();
    assert!(q.prompt.lines[1].contains("no. 2"), "{:?}", q.prompt.lines);
    assert_eq!(m.parse_action(Seat::P1, "lead Patamon"), Ok(legal[0]));
}

/// A scenario may exempt a seat's deck from the deck rules, with a written
/// reason (short Net Oceans for the Lifespan and running out); without the
/// reason, for a seat not at the table, over 64 cards, or in a setup made
/// the way a person's game is (`Setup::new`), the deck rules hold.
#[test]
fn only_a_deck_exempt_with_a_reason_skips_the_deck_rules() {
    let cards = CardSet::embedded();
    let short = deck_of(&cards, &[(3, "Agumon"), (2, "Gabumon")]);
    let full = filler_and(&cards, &[(2, "Agumon")]);
    let mut setup = Setup::new(vec![short.clone(), full.clone()], 5);
    // A normal game: the short deck is refused by the deck rules.
    assert!(matches!(
        Match::from_setup(&setup, &cards),
        Err(SetupError::Deck {
            seat: Seat::P1,
            error: DeckError::Size(5)
        })
    ));
    setup.exempt = vec![(Seat::P1, "  ".into())];
    let e = Match::from_setup(&setup, &cards).unwrap_err();
    assert!(matches!(e, SetupError::Exempt(Seat::P1, _)), "{e}");
    assert!(e.to_string().contains("reason"), "{e}");
    setup.exempt = vec![(Seat::new(2).unwrap(), "a short deck".into())];
    assert!(matches!(
        Match::from_setup(&setup, &cards),
        Err(SetupError::Exempt(..))
    ));
    // At most 64 cards (the match numbers its cards in 16 bits).
    let mut long = setup.clone();
    long.exempt = vec![(Seat::P1, "a long deck".into())];
    long.decks[0] = std::iter::repeat_n(long.decks[0][0], 65).collect();
    let e = Match::from_setup(&long, &cards).unwrap_err();
    assert!(e.to_string().contains("64"), "{e}");
    long.decks[0].truncate(64);
    assert!(Match::from_setup(&long, &cards).is_ok());
    // Exempt from the deck rules, not from the card set.
    setup.exempt = vec![(Seat::P1, "a short deck".into())];
    let mut unknown = setup.clone();
    unknown.decks[0].push("Dα-999".parse().unwrap());
    assert!(matches!(
        Match::from_setup(&unknown, &cards),
        Err(SetupError::Deck {
            error: DeckError::UnknownCard { line: 6, .. },
            ..
        })
    ));
    // With its reason the short deck plays, to an end, whatever is chosen.
    for seed in 0..20 {
        setup.seed = seed;
        let mut m = Match::from_setup(&setup, &cards).unwrap();
        let mut moves = 0;
        while m.outcome().is_none() {
            let seat = m.waiting_for().expect("someone is asked until the end");
            let legal = m.legal_actions(seat);
            let a = legal[(seed as usize + moves) % legal.len()];
            m.apply(seat, a).unwrap();
            moves += 1;
            assert!(moves < 5_000, "seed {seed}: the game ends");
        }
    }
    // The exemption travels with the setup (a replay of a scenario), and a
    // setup without one is written as before.
    let text = ron::to_string(&setup).unwrap();
    assert!(text.contains("exempt"), "{text}");
    assert!(
        !ron::to_string(&Setup::new(vec![full.clone(), full], 1))
            .unwrap()
            .contains("exempt")
    );
}
