//! §5 of the design page, measured: the sanity of the design holds over the
//! shipped card set (smaller samples than `bterm analyze`, same measures).

use bterm::ai::Strength;
use bterm::analysis::{analyze, level_duel};
use bterm::cards::CardSet;

#[test]
fn no_single_stance_policy_wins_against_every_other() {
    let r = analyze(
        &CardSet::embedded(),
        0,
        [Strength::Easy, Strength::Easy],
        2006,
    );
    assert!(r.dominant_rows.is_empty(), "{:?}", r.stance_matrix);
}

#[test]
fn equal_cost_teams_are_won_by_the_first_player_40_to_60_percent_in_4_to_10_rounds() {
    let r = analyze(
        &CardSet::embedded(),
        300,
        [Strength::Normal, Strength::Normal],
        2006,
    );
    let p1 = r.results[0] as f64 / r.battles as f64;
    assert!(r.battles >= 250, "{} battles", r.battles);
    assert!((0.40..=0.60).contains(&p1), "P1 won {:.1}%", 100.0 * p1);
    assert!(
        (4.0..=10.0).contains(&r.rounds.0),
        "mean rounds {}",
        r.rounds.0
    );
}

#[test]
fn normal_beats_easy() {
    let [normal, easy, _] = level_duel(
        &CardSet::embedded(),
        200,
        Strength::Normal,
        Strength::Easy,
        2006,
    );
    assert!(normal > easy, "normal {normal}, easy {easy}");
}

#[test]
fn hard_beats_easy() {
    let [hard, easy, _] = level_duel(
        &CardSet::embedded(),
        40,
        Strength::Hard,
        Strength::Easy,
        2006,
    );
    assert!(hard > easy, "hard {hard}, easy {easy}");
}
