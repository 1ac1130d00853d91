//! The session layer: who plays a seat, the question each seat is asked with
//! its default, the driver, and replays that name their ruleset.

use bterm::ai::Strength;
use bterm::cards::{CardNumber, CardSet};
use bterm::replay::{self, Replay};
use bterm::rules::terminal::{Action, Ask, Match, Setup, Side};
use bterm::rules::{Question, Reply, Ruleset, RulesetId, Seat};
use bterm::session::{People, Player, Table, TableError, drive, drive_cpus};

fn number(s: &str) -> CardNumber {
    s.parse().unwrap()
}

/// Agumon with Virus Infection (OP-010: `[Action:] [Battle]`, once per
/// turn) against two Digimon.
fn setup(seed: u64) -> Setup {
    Setup::new(
        vec![number("Dα-001"), number("OP-010")],
        vec![number("Dα-021"), number("Dα-012")],
        seed,
    )
}

/// A person who never answers: every question times out. Records what was
/// asked.
#[derive(Default)]
struct Silent {
    asked: Vec<(u32, Ask)>,
}

impl People<Match> for Silent {
    type Error = ();
    fn ask(
        &mut self,
        table: &Table<Match>,
        _: Seat,
        q: &Question<Ask, Action>,
    ) -> Result<Option<Reply<Action>>, ()> {
        self.asked.push((table.game().round(), q.ask));
        Ok(None)
    }
    fn show(&mut self, _: &[bterm::rules::terminal::Event]) {}
}

#[test]
fn a_person_who_never_answers_plays_the_defaults_to_the_end() {
    let set = CardSet::embedded();
    for seed in 0..20 {
        let mut table: Table<Match> = Table::new(
            setup(seed),
            &set,
            vec![Player::Person, Player::Cpu(Strength::Normal)],
        )
        .unwrap();
        let mut silent = Silent::default();
        drive(&mut table, &set, &mut silent).unwrap();
        assert!(table.is_over(), "seed {seed}: the battle ends");
        let mine: Vec<Action> = table
            .actions()
            .iter()
            .filter(|(s, _)| *s == Seat::P1)
            .map(|(_, a)| *a)
            .collect();
        // The defaults: the printed battle type, digivolve, don't block; an
        // ability offer passes.
        for a in &mine {
            assert!(
                matches!(
                    a,
                    Action::TimeUp
                        | Action::Digivolve(true)
                        | Action::Jogress
                        | Action::AlphaBlock(false)
                ),
                "seed {seed}: {a:?} is no default"
            );
        }
        let rounds = table.game().round();
        let stances = mine.iter().filter(|a| **a == Action::TimeUp).count();
        assert!(
            stances as u32 >= rounds - 1,
            "seed {seed}: a stance a round"
        );
        // The ability was offered once every round, before the stance.
        for r in 1..=rounds {
            let asked: Vec<Ask> = silent
                .asked
                .iter()
                .filter(|(round, _)| *round == r)
                .map(|(_, a)| *a)
                .filter(|a| !matches!(a, Ask::Evolve { .. } | Ask::Block))
                .collect();
            if asked.is_empty() {
                continue; // The battle ended before P1 was asked.
            }
            assert!(
                matches!(asked[0], Ask::Ability { .. }),
                "seed {seed}, round {r}: {asked:?}"
            );
            assert_eq!(
                asked
                    .iter()
                    .filter(|a| matches!(a, Ask::Ability { .. }))
                    .count(),
                1,
                "seed {seed}, round {r}: offered once: {asked:?}"
            );
            assert!(
                matches!(asked.last(), Some(Ask::Stance { .. })),
                "seed {seed}, round {r}: {asked:?}"
            );
        }
    }
}

#[test]
fn a_passed_offer_is_not_asked_again_until_the_stance() {
    let set = CardSet::embedded();
    let mut table: Table<Match> =
        Table::new(setup(4), &set, vec![Player::Person, Player::Person]).unwrap();
    let q = table.question(Seat::P1, &set).unwrap();
    let Ask::Ability { slot } = q.ask else {
        panic!("the ability comes first: {q:?}");
    };
    assert_eq!(q.on_timeout, None, "no answer is no");
    assert_eq!(q.answers, vec![Action::UseAbility(slot)]);
    // Passing changes nothing in the match and moves to the stance.
    let before = table.game().state_hash();
    assert_eq!(table.answer(Seat::P1, Reply::Pass, &set), Ok(Vec::new()));
    assert_eq!(table.game().state_hash(), before);
    let q = table.question(Seat::P1, &set).unwrap();
    assert_eq!(q.ask, Ask::Stance { alpha: false });
    assert_eq!(q.on_timeout, Some(Action::TimeUp));
    assert_eq!(q.seconds, 5.0, "the tunables' stance timer");
    // A stance cannot be passed.
    let err = table.answer(Seat::P1, Reply::Pass, &set).unwrap_err();
    assert_eq!(
        err.to_string(),
        "P1 cannot do that now: this question must be answered"
    );
    // The stance is the default when time runs out; the next round offers
    // the ability again.
    table.time_up(Seat::P1, &set).unwrap();
    table.time_up(Seat::P2, &set).unwrap();
    assert_eq!(table.game().round(), 2);
    assert!(matches!(
        table.question(Seat::P1, &set).map(|q| q.ask),
        Some(Ask::Ability { .. })
    ));
    assert_eq!(
        table.actions(),
        [(Seat::P1, Action::TimeUp), (Seat::P2, Action::TimeUp)]
    );
}

#[test]
fn the_prompt_keys_answer_the_question() {
    let set = CardSet::embedded();
    let table: Table<Match> =
        Table::new(setup(4), &set, vec![Player::Person, Player::Person]).unwrap();
    let q = table.question(Seat::P2, &set).unwrap();
    assert_eq!(q.ask, Ask::Stance { alpha: false });
    let p = &q.prompt;
    assert!(p.text.starts_with("P2: "), "{}", p.text);
    use bterm::cards::BattleType::{A, B, C};
    for (key, b) in [("a", A), ("1", A), ("B", B), ("2", B), ("c", C), ("3", C)] {
        assert_eq!(p.reply(key), Some(Reply::Act(Action::Stance(b))), "{key}");
    }
    assert_eq!(p.reply("xa"), None, "no Alpha Strike with one Digimon");
    for (_, reply) in &p.keys {
        if let Reply::Act(a) = reply {
            assert!(q.answers.contains(a), "every key is a legal answer");
        }
    }
}

#[test]
fn a_table_needs_a_player_for_every_seat() {
    let set = CardSet::embedded();
    let err = Table::<Match>::new(setup(1), &set, vec![Player::Person]).unwrap_err();
    assert!(matches!(
        err,
        TableError::Seats {
            seats: 2,
            players: 1
        }
    ));
    assert_eq!(
        err.to_string(),
        "this game has 2 seats but 1 players were given"
    );
    // A seat the Terminal Battle does not have is refused by the rules.
    let mut table: Table<Match> =
        Table::new(setup(1), &set, vec![Player::Person, Player::Person]).unwrap();
    let third = Seat::new(2).unwrap();
    assert!(table.question(third, &set).is_none());
    assert!(table.apply(third, Action::TimeUp).is_err());
    assert!(table.actions().is_empty());
}

#[test]
fn the_driver_plays_cpus_as_the_rules_alone_would() {
    let set = CardSet::embedded();
    for seed in 0..10 {
        let players = vec![Player::Cpu(Strength::Hard), Player::Cpu(Strength::Easy)];
        let mut table: Table<Match> = Table::new(setup(seed), &set, players).unwrap();
        drive_cpus(&mut table, &set);
        // The same choices made by hand, one seat after the other.
        let mut m = Match::from_setup(&setup(seed), &set).unwrap();
        let mut actions = Vec::new();
        while m.outcome().is_none() {
            let mut moved = false;
            for (side, s) in [(Side::P1, Strength::Hard), (Side::P2, Strength::Easy)] {
                if let Some(a) = bterm::ai::terminal::choose(&m, side, s) {
                    m.apply(side, a).unwrap();
                    actions.push((side.seat(), a));
                    moved = true;
                }
            }
            assert!(moved);
        }
        assert_eq!(table.actions(), actions, "seed {seed}");
        assert_eq!(table.game().state_hash(), m.state_hash(), "seed {seed}");
    }
}

/// A replay saved by the build before seats and the session layer (commit
/// 5558048) still verifies: the file format did not change.
#[test]
fn a_replay_from_an_earlier_build_still_verifies() {
    let path = std::env::current_dir()
        .unwrap()
        .join("tests/fixtures/replay-before-session.ron");
    let text = replay::read(&path).unwrap();
    assert_eq!(
        replay::ruleset_of(&text, "fixture").unwrap(),
        RulesetId::Terminal
    );
    let r = Replay::<Match>::parse(&text, "fixture").unwrap();
    assert!(r.actions.len() > 10, "a whole battle");
    let end = r.play(&CardSet::embedded(), |_| {}).unwrap();
    assert!(end.outcome().is_some());
    // Written again, it is the same file.
    assert_eq!(bterm::cards::write_ron(&r).unwrap().trim(), text.trim());
}

#[test]
fn a_replay_names_its_ruleset_and_round_trips() {
    let set = CardSet::embedded();
    let table = bterm::analysis::cpu_battle(setup(9), &set, [Strength::Normal; 2]).unwrap();
    let r = Replay::of(&table);
    assert_eq!(r.rules, Match::version(table.setup()));
    let text = bterm::cards::write_ron(&r).unwrap();
    assert!(text.contains("ruleset: Terminal"), "{text}");
    assert_eq!(replay::ruleset_of(&text, "x").unwrap(), RulesetId::Terminal);
    let back = Replay::<Match>::parse(&text, "x").unwrap();
    assert_eq!(back, r);
    back.play(&set, |_| {}).unwrap();
    let err = replay::ruleset_of("(rules: (ruleset: Chess, engine: 1, tunables: 1))", "c.ron")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("c.ron:1:"), "{err}");
}
