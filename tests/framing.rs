//! Every battle shot keeps the figures it is about inside the part of the
//! screen the HUD leaves to the stage: each figure's bounds are projected
//! through the shot's camera for every staged event of seeded battles (no
//! window: the framing is plain geometry).

#![cfg(feature = "arena")]

use bterm::ai::Strength;
use bterm::arena::play::staging::camera_for;
use bterm::arena::render::framing::{self, Frame, Subject};
use bterm::arena::render::place::spot;
use bterm::arena::render::stage::{CameraShot, framing as shot_frame};
use bterm::cards::{CardNumber, CardSet};
use bterm::rules::terminal::{Event, Match, Setup, Side, pick};
use bterm::session::{Player, Table, watch_cpus};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The spheres a battle shot must hold for a side's front figure (as far
/// as it lunges and recoils).
fn subject(cards: &CardSet, card: CardNumber, side: Side) -> [Subject; 2] {
    let d = cards.get(&card).and_then(|c| c.as_digimon()).unwrap();
    let (offset, radius) = bterm::arena::render::figures::figure_bounds(d, side);
    framing::figure_subjects(spot(side) + offset, radius, side)
}

#[test]
fn every_battle_shot_keeps_its_figures_in_frame() {
    let cards = CardSet::embedded();
    let mut shots = 0usize;
    let mut failures = Vec::new();
    for seed in 0..50u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let [p1, p2] = pick::demo_teams(&cards, &mut rng);
        let setup = Setup::new(p1, p2, seed);
        let mut table: Table<Match> =
            Table::new(setup, &cards, vec![Player::Cpu(Strength::Normal); 2]).unwrap();
        // The fronts as the stage shows them, event by event.
        let mut fronts: [Option<CardNumber>; 2] =
            Side::BOTH.map(|s| Some(table.game().view(s).front.number));
        watch_cpus(&mut table, &cards, |e: &Event| {
            match e {
                Event::Digivolved { bench: Some(_), .. } => {}
                Event::Digivolved { side, to, .. } | Event::Jogressed { side, to, .. } => {
                    fronts[side.index()] = Some(*to);
                }
                Event::SteppedIn { side, card } => fronts[side.index()] = Some(*card),
                _ => {}
            }
            let Some(shot) = camera_for(e) else { return };
            let subjects: Vec<Subject> = Side::BOTH
                .into_iter()
                .filter_map(|s| fronts[s.index()].map(|c| subject(&cards, c, s)))
                .flatten()
                .collect();
            let (eye, look) = shot_frame(shot, 0.0, &subjects);
            let frame = Frame { eye, look };
            shots += 1;
            for s in &subjects {
                if !framing::inside(frame, *s) {
                    failures.push(format!(
                        "seed {seed}, {shot:?} on {e:?}: a figure at {} reaches {:?}",
                        s.centre,
                        framing::extent(frame, *s)
                    ));
                }
            }
            if let Event::Deleted { side, .. } = e {
                fronts[side.index()] = None;
            }
        });
    }
    assert!(shots > 500, "only {shots} shots");
    assert!(
        failures.is_empty(),
        "{} of {shots} shots cut a figure:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

/// The shots differ: a close shot stands nearer than the wide one, and
/// the close shot on P1 is taken from P2's side and the other way round.
#[test]
fn the_shots_are_not_all_one() {
    let cards = CardSet::embedded();
    let team = [
        subject(&cards, "Dα-001".parse().unwrap(), Side::P1),
        subject(&cards, "Dα-012".parse().unwrap(), Side::P2),
    ]
    .concat();
    let dist = |shot| {
        let (eye, look) = shot_frame(shot, 0.0, &team);
        (eye - look).length()
    };
    assert!(dist(CameraShot::Centre) < dist(CameraShot::Wide));
    let (on_p1, _) = shot_frame(CameraShot::Focus(Side::P1), 0.0, &team);
    let (on_p2, _) = shot_frame(CameraShot::Focus(Side::P2), 0.0, &team);
    assert!(on_p1.x > 0.0 && on_p2.x < 0.0, "{on_p1} {on_p2}");
}
