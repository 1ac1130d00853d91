//! The card loader, the sample set and the number resolver.

use std::path::PathBuf;

use bterm::cards::{
    Attribute, BattleType, Card, CardKind, CardSet, EMBEDDED_CARDS, Field, Level, LoadErrorKind,
    LoadErrors, Requirements, ResolveError, Stage, read_ron, write_ron,
};
use bterm::effects::text::{parse, render};

const GOOD: &str = r#"[
    Digimon(
        number: "Dα-001",
        name: "Agumon",
        cost: 1,
        speed: 5,
        battle_type: A,
        hp: 400,
        techniques: (
            a: (name: "Pepper Breath", power: 300),
            b: (name: "Claw Attack", power: 200),
            c: (name: "Sharp Claw", power: 150),
        ),
        field: DragonsRoar,
        level: III,
        type: "Reptile",
        attribute: Vaccine,
    ),
    Digimon(
        number: "Dα-002",
        name: "Greymon",
        cost: 2,
        speed: 4,
        requirements: AnyOf(["Agumon"]),
        battle_type: A,
        hp: 700,
        techniques: (
            a: (name: "Mega Flame", power: 550),
            b: (name: "Great Horn", power: 400),
            c: (name: "Tail Crash", power: 300),
        ),
        field: DragonsRoar,
        level: IV,
        type: "Dinosaur",
        attribute: Vaccine,
    ),
]
"#;

fn load(text: &str) -> Result<CardSet, LoadErrors> {
    CardSet::from_sources(&[(PathBuf::from("test.ron"), text.to_string())])
}

/// Loads `text` and returns its only error, as displayed.
fn only_error(text: &str) -> (LoadErrorKind, String) {
    let errors = load(text).expect_err("the file should be refused").0;
    assert_eq!(errors.len(), 1, "{errors:?}");
    (errors[0].kind.clone(), errors[0].to_string())
}

fn sample() -> CardSet {
    CardSet::embedded()
}

#[test]
fn a_good_file_loads() {
    let set = load(GOOD).unwrap();
    assert_eq!(set.len(), 2);
}

#[test]
fn syntax_errors_point_at_line_and_column() {
    let broken = GOOD.replace("hp: 700,", "hp: 700");
    let (kind, msg) = only_error(&broken);
    assert!(matches!(kind, LoadErrorKind::Syntax(_)), "{kind:?}");
    assert_eq!(msg, "test.ron:27:9: syntax: Expected comma");
}

#[test]
fn a_misspelled_field_is_a_syntax_error_with_its_place() {
    let broken = GOOD.replacen("speed: 4", "sped: 4", 1);
    let (_, msg) = only_error(&broken);
    assert!(msg.starts_with("test.ron:23:9: syntax:"), "{msg}");
    assert!(msg.contains("`sped`"), "{msg}");
}

#[test]
fn duplicate_numbers_name_both_places() {
    let dup = GOOD.replace("Dα-002", "Dα-001");
    let (kind, msg) = only_error(&dup);
    assert!(matches!(kind, LoadErrorKind::DuplicateNumber { .. }));
    assert_eq!(
        msg,
        "test.ron:20:17: Dα-001 Greymon: duplicate card number Dα-001: already used at test.ron:3:17"
    );
}

#[test]
fn unknown_requirements_suggest_the_nearest_name() {
    let typo = GOOD.replace(r#"AnyOf(["Agumon"])"#, r#"AnyOf(["Agumn"])"#);
    let (_, msg) = only_error(&typo);
    assert_eq!(
        msg,
        "test.ron:24:23: Dα-002 Greymon: evolution requirement \"Agumn\" names no known card (did you mean \"Agumon\"?)"
    );
}

#[test]
fn a_level_iii_cannot_have_requirements() {
    let bad = GOOD.replacen(
        "battle_type: A,",
        "requirements: AnyOf([\"Greymon\"]),\n        battle_type: A,",
        1,
    );
    let (kind, msg) = only_error(&bad);
    assert_eq!(kind, LoadErrorKind::LevelIIIWithRequirements);
    assert!(
        msg.starts_with("test.ron:7:23: Dα-001 Agumon: a Level III Digimon cannot have"),
        "{msg}"
    );
}

#[test]
fn a_level_iv_needs_requirements() {
    let bad = GOOD.replace("        requirements: AnyOf([\"Agumon\"]),\n", "");
    let (kind, msg) = only_error(&bad);
    assert_eq!(kind, LoadErrorKind::MissingRequirements(Level::IV));
    assert!(
        msg.contains("Dα-002 Greymon: a Level IV Digimon needs evolution requirements"),
        "{msg}"
    );
}

#[test]
fn values_out_of_range_say_the_range() {
    let bad = GOOD.replace("hp: 700,", "hp: 99999,");
    let (_, msg) = only_error(&bad);
    assert_eq!(
        msg,
        "test.ron:26:13: Dα-002 Greymon: hp is 99999, which is out of range (10..=5000)"
    );
    let bad = GOOD.replacen("cost: 1,", "cost: 11,", 1);
    let (_, msg) = only_error(&bad);
    assert_eq!(
        msg,
        "test.ron:5:15: Dα-001 Agumon: cost is 11, which is out of range (0..=10)"
    );
    let bad = GOOD.replacen("speed: 5,", "speed: 0,", 1);
    assert!(
        only_error(&bad)
            .1
            .contains("speed is 0, which is out of range (1..=10)")
    );
    let bad = GOOD.replacen("power: 300", "power: 5001", 1);
    assert!(
        only_error(&bad)
            .1
            .contains("power is 5001, which is out of range (0..=5000)")
    );
}

#[test]
fn a_prefix_must_fit_the_kind_of_card() {
    let bad = GOOD.replacen("Dα-001", "OP-001", 1);
    let (kind, msg) = only_error(&bad);
    assert!(matches!(kind, LoadErrorKind::WrongPrefix { .. }));
    assert!(msg.contains("OP-001 Agumon: the prefix OP- means \"Battle Terminal series Option card\", but this is a Digimon card"), "{msg}");
}

#[test]
fn a_digimon_cannot_evolve_from_itself() {
    let bad = GOOD.replace(
        r#"AnyOf(["Agumon"])"#,
        r#"AnyOf(["Agumon", "Greymon X-Antibody"])"#,
    );
    let (kind, _) = only_error(&bad);
    assert_eq!(kind, LoadErrorKind::EvolvesFromItself);
}

#[test]
fn names_must_not_be_empty() {
    let bad = GOOD
        .replacen("\"Agumon\",", "\"  \",", 1)
        .replace(r#"AnyOf(["Agumon"])"#, r#"AnyOf(["  "])"#);
    let errors = load(&bad).unwrap_err().0;
    assert!(
        errors.iter().any(|e| e.kind == LoadErrorKind::BadName),
        "{errors:?}"
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    let bad = GOOD
        .replace("hp: 700,", "hp: 0,")
        .replace(r#"AnyOf(["Agumon"])"#, r#"AnyOf(["Nobody"])"#);
    let errors = load(&bad).unwrap_err().0;
    assert_eq!(errors.len(), 2, "{errors:?}");
}

#[test]
fn a_missing_file_is_a_clear_error() {
    let err = CardSet::load(std::path::Path::new("/nonexistent/cards.ron")).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("/nonexistent/cards.ron: cannot read the file:"),
        "{msg}"
    );
}

#[test]
fn an_empty_folder_has_no_cards() {
    let dir = tempfile::tempdir().unwrap();
    let err = CardSet::load(dir.path()).unwrap_err();
    assert_eq!(err.0[0].kind, LoadErrorKind::NoFiles);
}

#[test]
fn the_sample_folder_loads_clean_from_disk() {
    let set = CardSet::load(std::path::Path::new("assets/cards")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(set.len(), sample().len());
}

#[test]
fn the_embedded_list_is_every_file_in_assets_cards() {
    let dir = "assets/cards";
    // The folder and its game folders (`dcg/`, `clash/`), as `CardSet::load` reads it.
    let mut on_disk: Vec<String> = Vec::new();
    for sub in ["", "dcg/", "clash/"] {
        on_disk.extend(
            std::fs::read_dir(format!("{dir}/{sub}"))
                .unwrap()
                .map(|e| format!("{dir}/{sub}{}", e.unwrap().file_name().to_string_lossy()))
                .filter(|n| n.ends_with(".ron")),
        );
    }
    on_disk.sort();
    let mut embedded: Vec<String> = EMBEDDED_CARDS.iter().map(|(p, _)| p.to_string()).collect();
    embedded.sort();
    assert_eq!(on_disk, embedded);
}

#[test]
fn the_sample_set_covers_what_the_rulebook_names() {
    let set = sample();
    let digimon: Vec<_> = set.cards().iter().filter_map(Card::as_digimon).collect();
    assert!(set.len() >= 60, "{} cards", set.len());
    for f in Field::ALL {
        assert!(digimon.iter().any(|d| d.field == f), "no Digimon in {f}");
    }
    for s in Stage::ALL {
        assert!(
            digimon.iter().any(|d| d.level == Level::Hybrid(s)
                || d.level.stage() == s && !matches!(d.level, Level::Hybrid(_))),
            "{s}"
        );
    }
    assert!(digimon.iter().any(|d| matches!(d.level, Level::Hybrid(_))));
    for a in Attribute::ALL {
        assert!(digimon.iter().any(|d| d.attribute == a), "no {a} Digimon");
    }
    let jogress = digimon
        .iter()
        .filter(|d| matches!(d.requirements, Requirements::Jogress(..)))
        .count();
    assert!(jogress >= 2, "{jogress} Jogress cards");
    let x = digimon
        .iter()
        .filter(|d| d.name.ends_with(" X-Antibody"))
        .count();
    assert!(x >= 2, "{x} X-Antibody cards");
    assert!(set.cards().iter().filter(|c| c.one_card_limit()).count() >= 2);
    assert!(
        set.cards()
            .iter()
            .filter(|c| c.kind() == CardKind::Option)
            .count()
            >= 10
    );
    assert!(
        set.cards()
            .iter()
            .filter(|c| c.kind() == CardKind::Command)
            .count()
            >= 4
    );
    for t in BattleType::ALL {
        assert!(digimon.iter().any(|d| d.battle_type == t));
    }
}

#[test]
fn at_least_three_full_lines_climb_from_iii_to_ultimate() {
    let set = sample();
    let digimon: Vec<_> = set.cards().iter().filter_map(Card::as_digimon).collect();
    let mut full = Vec::new();
    for top in digimon.iter().filter(|d| d.level == Level::Ultimate) {
        // Walk down: each stage must have a card one level lower that it evolves from.
        let mut current = vec![*top];
        for want in [Stage::Perfect, Stage::IV, Stage::III] {
            current = digimon
                .iter()
                .filter(|d| {
                    d.level.stage() == want && current.iter().any(|c| c.evolves_from(&d.name))
                })
                .copied()
                .collect();
        }
        if !current.is_empty() {
            full.push(top.name.clone());
        }
    }
    assert!(full.len() >= 3, "full lines end in {full:?}");
}

#[test]
fn x_antibody_counts_as_its_base_name() {
    let set = sample();
    let omnimon = set.resolve("Omnimon").unwrap().as_digimon().unwrap();
    assert!(omnimon.evolves_from("Metal Garurumon X-Antibody"));
    assert!(omnimon.evolves_from("War Greymon"));
    let names: Vec<&str> = set
        .by_base_name("War Greymon X-Antibody")
        .map(Card::name)
        .collect();
    assert_eq!(names, ["War Greymon", "War Greymon X-Antibody"]);
}

#[test]
fn typed_numbers_resolve_forgivingly() {
    let set = sample();
    for typed in [
        "Dα-001", "da-001", "DA001", "dα001", " DA-1 ", "agumon", "AGUMON",
    ] {
        assert_eq!(set.resolve(typed).map(Card::name), Ok("Agumon"), "{typed}");
    }
    assert_eq!(set.resolve("dm02-10").map(Card::name), Ok("Flamemon"));
    assert_eq!(set.resolve("oa001").map(Card::name), Ok("Vaccine Killer"));
}

#[test]
fn an_unknown_number_suggests_the_nearest() {
    let set = sample();
    let err = set.resolve("Dα-099").unwrap_err();
    assert!(matches!(err, ResolveError::Unknown { .. }));
    assert_eq!(
        err.to_string(),
        "no card Dα-099 in this set; did you mean Dα-059 Omnimon?"
    );
    let err = set.resolve("Greymn").unwrap_err();
    assert_eq!(
        err.to_string(),
        "\"Greymn\" is neither a card number nor a card name; did you mean Dα-002 Greymon?"
    );
    let err = set.resolve("zzzzzzzzzzzz").unwrap_err();
    assert_eq!(
        err.to_string(),
        "\"zzzzzzzzzzzz\" is neither a card number nor a card name"
    );
}

#[test]
fn every_ability_in_the_sample_set_round_trips_through_text() {
    let set = sample();
    let mut count = 0;
    for card in set.cards() {
        for ability in card
            .terminal_abilities()
            .iter()
            .chain(card.alpha_abilities())
        {
            let text = render(ability);
            assert_eq!(
                parse(&text).as_ref(),
                Ok(ability),
                "{}: {text}",
                card.number()
            );
            count += 1;
        }
    }
    assert!(count >= 80, "{count} abilities");
}

#[test]
fn every_card_has_an_ability() {
    for card in sample().cards() {
        let dcg = card
            .as_dcg()
            .is_some_and(|c| !c.effects.is_empty() || !c.inherited.is_empty())
            || card
                .as_clash()
                .is_some_and(|c| !c.effects.is_empty() || !c.keywords.is_empty());
        assert!(
            !card.terminal_abilities().is_empty() || !card.alpha_abilities().is_empty() || dcg,
            "{} {} has no ability",
            card.number(),
            card.name()
        );
    }
}

#[test]
fn the_sample_set_survives_ron_and_json() {
    let set = sample();
    let cards: Vec<Card> = set.cards().to_vec();
    let back: Vec<Card> = read_ron(&write_ron(&cards).unwrap()).unwrap();
    assert_eq!(back, cards);
    let back: Vec<Card> = serde_json::from_str(&serde_json::to_string(&cards).unwrap()).unwrap();
    assert_eq!(back, cards);
}

#[test]
fn interruptive_abilities_are_marked_by_their_trigger() {
    let set = sample();
    let shield = set.resolve("OP-005").unwrap();
    let a = &shield.terminal_abilities()[0];
    assert!(a.is_interruptive());
    assert_eq!(
        render(a),
        "◎ [Battle] (Once per game) When this Digimon would be deleted, prevent the deletion of this Digimon."
    );
}
