//! Framing: where the camera stands so that every figure a shot is about
//! fits in the part of the screen the HUD leaves to the stage. Plain
//! geometry (no ECS), so a test can check every shot without a window.

use bevy::math::{Mat4, Vec3};

use crate::rules::terminal::Side;

/// The camera's vertical field of view (Bevy's default perspective).
pub const FOV_Y: f32 = std::f32::consts::FRAC_PI_4;
/// The window's shape (1280×720, 1920×1080).
pub const ASPECT: f32 = 16.0 / 9.0;
/// The stage's share of the screen in normalised device coordinates (−1 to
/// 1, up positive): the side panels and the round cover the top, the
/// stance captions, the log and the button row the bottom.
pub const SAFE_LEFT: f32 = -0.94;
/// See [`SAFE_LEFT`].
pub const SAFE_RIGHT: f32 = 0.94;
/// See [`SAFE_LEFT`] (y = 209 of 720).
pub const SAFE_TOP: f32 = 0.42;
/// See [`SAFE_LEFT`] (y = 522 of 720).
pub const SAFE_BOTTOM: f32 = -0.45;
/// How far a figure lunges towards its opponent, and recoils away, metres
/// (the figure animation's amplitudes).
pub const LUNGE: f32 = 0.8;
/// See [`LUNGE`].
pub const RECOIL: f32 = 0.7;

/// The widest angle from the view's axis an edge is measured at (just
/// under a right angle, where the tangent would wrap round).
const EDGE_LIMIT: f32 = std::f32::consts::FRAC_PI_2 - 1e-3;

/// Something a shot must show: a sphere around it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Subject {
    /// Its centre, in the world.
    pub centre: Vec3,
    /// Its radius, metres.
    pub radius: f32,
}

/// A camera placement: the eye and the point it looks at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// Where the camera stands.
    pub eye: Vec3,
    /// What it looks at.
    pub look: Vec3,
}

/// A subject's extent on screen: (left, right, bottom, top) in normalised
/// device coordinates, or `None` if any of it is behind the camera.
pub fn extent(frame: Frame, s: Subject) -> Option<(f32, f32, f32, f32)> {
    let view = Mat4::look_at_rh(frame.eye, frame.look, Vec3::Y);
    let p = view.transform_point3(s.centre);
    let depth = -p.z;
    if depth <= s.radius + 0.05 {
        return None;
    }
    let t = (FOV_Y / 2.0).tan();
    // The sphere's silhouette seen from `depth`: its angular radius.
    let r = s.radius / (depth * depth - s.radius * s.radius).max(1e-6).sqrt();
    let (x, y) = (p.x / depth, p.y / depth);
    // Each screen-space edge of the cone around the sphere. An edge that
    // turns past the side of the view (a big sphere near the eye) lies off
    // the screen on that side: its tangent must not wrap round to the other
    // side, or a frame is slid the wrong way (a clip once lost the stage
    // for two seconds, the camera sent 300 m below the floor).
    let edge = |a: f32| a.clamp(-EDGE_LIMIT, EDGE_LIMIT).tan();
    let left = edge(x.atan() - r.atan()) / (t * ASPECT);
    let right = edge(x.atan() + r.atan()) / (t * ASPECT);
    let bottom = edge(y.atan() - r.atan()) / t;
    let top = edge(y.atan() + r.atan()) / t;
    Some((left, right, bottom, top))
}

/// Whether a subject lies wholly inside the stage's share of the screen.
pub fn inside(frame: Frame, s: Subject) -> bool {
    extent(frame, s).is_some_and(|(l, r, b, t)| {
        l >= SAFE_LEFT && r <= SAFE_RIGHT && b >= SAFE_BOTTOM && t <= SAFE_TOP
    })
}

/// The nearest frame looking along `-towards_eye` (from the subjects
/// towards the camera: `towards_eye`) that holds every subject, centred in
/// the stage's share of the screen. Never nearer than `nearest` metres.
pub fn fit(towards_eye: Vec3, subjects: &[Subject], nearest: f32) -> Frame {
    let dir = towards_eye.normalize_or(Vec3::Z);
    let centre = if subjects.is_empty() {
        Vec3::new(0.0, 1.0, 0.0)
    } else {
        subjects.iter().map(|s| s.centre).sum::<Vec3>() / subjects.len() as f32
    };
    let right = Vec3::Y.cross(dir).normalize_or(Vec3::X);
    let up = dir.cross(right);
    let t = (FOV_Y / 2.0).tan();
    let mut d = nearest.max(1.0);
    let mut best = Frame {
        eye: centre + dir * d,
        look: centre,
    };
    if subjects.is_empty() {
        return best;
    }
    while d < 80.0 {
        let mut frame = Frame {
            eye: centre + dir * d,
            look: centre,
        };
        // Up to three passes: slide the camera (not turn it) so the
        // subjects sit in the middle of the stage's share.
        let mut fits = false;
        for _ in 0..3 {
            let Some((l, r, b, tp)) = bounds(frame, subjects) else {
                break;
            };
            let dx = (l + r) / 2.0 - (SAFE_LEFT + SAFE_RIGHT) / 2.0;
            let dy = (b + tp) / 2.0 - (SAFE_BOTTOM + SAFE_TOP) / 2.0;
            let shift = right * dx * d * t * ASPECT + up * dy * d * t;
            frame.eye += shift;
            frame.look += shift;
            fits = subjects.iter().all(|&s| inside(frame, s));
            if fits {
                break;
            }
        }
        best = frame;
        if fits {
            break;
        }
        d *= 1.04;
    }
    best
}

/// The union of the subjects' extents.
fn bounds(frame: Frame, subjects: &[Subject]) -> Option<(f32, f32, f32, f32)> {
    let mut out: Option<(f32, f32, f32, f32)> = None;
    for &s in subjects {
        let e = extent(frame, s)?;
        out = Some(match out {
            None => e,
            Some(o) => (o.0.min(e.0), o.1.max(e.1), o.2.min(e.2), o.3.max(e.3)),
        });
    }
    out
}

/// What a shot must hold of one figure: the sphere around it at both ends
/// of its movement (a lunge forward, a recoil back).
pub fn figure_subjects(centre: Vec3, radius: f32, side: Side) -> [Subject; 2] {
    let toward = if side == Side::P1 { Vec3::X } else { -Vec3::X };
    [
        Subject {
            centre: centre + toward * LUNGE,
            radius,
        },
        Subject {
            centre: centre - toward * RECOIL,
            radius,
        },
    ]
}

/// The direction a side is seen from in a close shot on it: behind and
/// above its opponent's shoulder.
pub fn over_shoulder(side: Side) -> Vec3 {
    let sign = if side == Side::P1 { 1.0 } else { -1.0 };
    Vec3::new(sign * 0.5, 0.35, 1.0).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f32, r: f32) -> Subject {
        Subject {
            centre: Vec3::new(x, 1.0, 0.0),
            radius: r,
        }
    }

    #[test]
    fn a_fitted_frame_holds_every_subject() {
        let subjects = [at(-2.6, 1.4), at(2.6, 2.0)];
        for dir in [
            Vec3::new(0.0, 0.3, 1.0),
            over_shoulder(Side::P1),
            over_shoulder(Side::P2),
        ] {
            let f = fit(dir, &subjects, 3.0);
            for s in subjects {
                assert!(inside(f, s), "{dir} {f:?} {:?}", extent(f, s));
            }
        }
    }

    /// The frame a replay's clip lost the stage in: a Focus shot on P1
    /// over Garurumon's shoulder with Greymon (radius 2.1) beside it. The
    /// near sphere's far edge turned past the side of the view, its tangent
    /// wrapped round, and the slides sent the eye 300 m below the floor.
    #[test]
    fn a_big_figure_near_the_eye_does_not_send_the_frame_away() {
        let subjects: Vec<Subject> = [
            (Vec3::new(-2.683, 1.098, -0.003), 2.108, Side::P1),
            (Vec3::new(2.677, 0.860, 0.003), 1.767, Side::P2),
        ]
        .into_iter()
        .flat_map(|(c, r, side)| figure_subjects(c, r, side))
        .collect();
        for side in [Side::P1, Side::P2] {
            let f = fit(over_shoulder(side), &subjects, 4.0);
            assert!(f.eye.y > 0.0 && f.eye.length() < 40.0, "{side:?}: {f:?}");
            for s in &subjects {
                assert!(inside(f, *s), "{side:?}: {f:?} {:?}", extent(f, *s));
            }
        }
    }

    /// Every shot's direction, over figures from the smallest to the
    /// biggest at every spot on the stage: the frame holds them all and
    /// stays above the floor, within the arena.
    #[test]
    fn every_shot_holds_figures_of_every_size() {
        let dirs = [
            Vec3::new(0.0, 0.28, 1.0),
            Vec3::new(0.0, 0.15, 1.0),
            over_shoulder(Side::P1),
            over_shoulder(Side::P2),
        ];
        let radii = [0.5, 0.9, 1.3, 1.7, 2.1, 2.5, 3.0];
        for dir in dirs {
            for &r1 in &radii {
                for &r2 in &radii {
                    let subjects: Vec<Subject> = [
                        (Vec3::new(-2.7, r1 * 0.5, 0.0), r1, Side::P1),
                        (Vec3::new(2.7, r2 * 0.5, 0.0), r2, Side::P2),
                    ]
                    .into_iter()
                    .flat_map(|(c, r, side)| figure_subjects(c, r, side))
                    .collect();
                    let f = fit(dir, &subjects, 4.0);
                    assert!(
                        f.eye.y > 0.0 && f.eye.length() < 40.0,
                        "{dir} {r1} {r2}: {f:?}"
                    );
                    for s in &subjects {
                        assert!(inside(f, *s), "{dir} {r1} {r2}: {f:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn an_edge_past_the_side_of_the_view_stays_on_its_side() {
        let f = Frame {
            eye: Vec3::new(0.0, 1.0, 3.0),
            look: Vec3::new(0.0, 1.0, 0.0),
        };
        // A big sphere just right of the axis, near the eye: its right edge
        // is beyond the right of the screen, never on the left.
        let s = Subject {
            centre: Vec3::new(1.5, 1.0, 0.5),
            radius: 2.2,
        };
        let (l, r, b, t) = extent(f, s).expect("in front");
        assert!(r > 1.0 && r > l && t > b, "{l} {r} {b} {t}");
    }

    #[test]
    fn with_nothing_to_hold_the_frame_stands_at_the_nearest() {
        let f = fit(Vec3::new(0.0, 0.3, 1.0), &[], 9.0);
        assert!(((f.eye - f.look).length() - 9.0).abs() < 1e-3);
    }

    #[test]
    fn a_subject_off_screen_or_behind_is_outside() {
        let f = Frame {
            eye: Vec3::new(0.0, 1.0, 10.0),
            look: Vec3::new(0.0, 1.0, 0.0),
        };
        assert!(inside(f, at(0.0, 0.5)));
        assert!(!inside(f, at(12.0, 0.5)), "far to the right");
        assert!(!inside(f, at(0.0, 6.0)), "too big to fit");
        let behind = Subject {
            centre: Vec3::new(0.0, 1.0, 12.0),
            radius: 0.5,
        };
        assert!(!inside(f, behind));
    }

    #[test]
    fn fitting_stands_no_nearer_than_asked_and_no_farther_than_needed() {
        let subjects = [at(0.0, 0.5)];
        let f = fit(Vec3::Z, &subjects, 6.0);
        assert!((f.eye - f.look).length() >= 6.0 - 1e-3);
        let big = [at(-3.0, 1.0), at(3.0, 1.0)];
        let g = fit(Vec3::Z, &big, 1.0);
        // 4% steps: one step nearer would not hold them.
        let d = (g.eye - g.look).length();
        let nearer = Frame {
            eye: g.look + Vec3::Z * (d / 1.05),
            look: g.look,
        };
        assert!(!big.iter().all(|&s| inside(nearer, s)));
    }
}
