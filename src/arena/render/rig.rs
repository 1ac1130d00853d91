//! A figure's skeleton and parts, built from its card's figure data
//! ([`crate::cards::figure`]) or, for a card with none, from data derived
//! from its type, Field and attribute; and the moves the skeleton plays
//! (idle, attacks, hit, block, digivolve, deletion) as keyframes. Plain
//! geometry: the arena turns a [`Rig`] into entities and the moves into
//! Bevy animation clips, and the framing test reads the same data without
//! a window.

use std::f32::consts::{FRAC_PI_2, PI};

use bevy::math::{Quat, Vec3};

use crate::cards::figure::{
    Build, Colours, EarKind, Feature, FigureSpec, Hand, HornAt, Limbs, Plan, Plate, Rgb, SpikesAt,
    TailTip, Tint, WeaponKind, WingKind,
};
use crate::cards::{Attribute, Digimon, Field};
use crate::fingerprint::fnv1a;

/// A joint of the skeleton. Every plan uses some of them; a move's track
/// for a joint a plan lacks moves nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Joint {
    /// The whole figure's offset (hops, crouches, the digivolve spin).
    Mover,
    /// The pelvis: legs, spine and tail hang from it.
    Hips,
    /// The lower body.
    Spine,
    /// The upper body: arms, neck and wings hang from it.
    Chest,
    /// The neck.
    Neck,
    /// The head.
    Head,
    /// The left upper arm (front left leg of a four-legged figure).
    ArmL,
    /// The left forearm.
    ForearmL,
    /// The left hand.
    HandL,
    /// The right upper arm.
    ArmR,
    /// The right forearm.
    ForearmR,
    /// The right hand.
    HandR,
    /// The left thigh (hind left leg).
    ThighL,
    /// The left shin.
    ShinL,
    /// The right thigh.
    ThighR,
    /// The right shin.
    ShinR,
    /// An insect's middle left leg.
    MidL,
    /// An insect's middle right leg.
    MidR,
    /// The tail's first segment (a serpent's body behind its chest).
    Tail1,
    /// The tail's second segment.
    Tail2,
    /// The tail's tip segment.
    Tail3,
    /// The left wing.
    WingL,
    /// The right wing.
    WingR,
}

impl Joint {
    /// Every joint, parents before children.
    pub const ALL: [Joint; 23] = [
        Joint::Mover,
        Joint::Hips,
        Joint::Spine,
        Joint::Chest,
        Joint::Neck,
        Joint::Head,
        Joint::ArmL,
        Joint::ForearmL,
        Joint::HandL,
        Joint::ArmR,
        Joint::ForearmR,
        Joint::HandR,
        Joint::ThighL,
        Joint::ShinL,
        Joint::ThighR,
        Joint::ShinR,
        Joint::MidL,
        Joint::MidR,
        Joint::Tail1,
        Joint::Tail2,
        Joint::Tail3,
        Joint::WingL,
        Joint::WingR,
    ];

    /// Its name (the animation's target).
    pub fn name(self) -> &'static str {
        match self {
            Joint::Mover => "rig.mover",
            Joint::Hips => "rig.hips",
            Joint::Spine => "rig.spine",
            Joint::Chest => "rig.chest",
            Joint::Neck => "rig.neck",
            Joint::Head => "rig.head",
            Joint::ArmL => "rig.arm.l",
            Joint::ForearmL => "rig.forearm.l",
            Joint::HandL => "rig.hand.l",
            Joint::ArmR => "rig.arm.r",
            Joint::ForearmR => "rig.forearm.r",
            Joint::HandR => "rig.hand.r",
            Joint::ThighL => "rig.thigh.l",
            Joint::ShinL => "rig.shin.l",
            Joint::ThighR => "rig.thigh.r",
            Joint::ShinR => "rig.shin.r",
            Joint::MidL => "rig.mid.l",
            Joint::MidR => "rig.mid.r",
            Joint::Tail1 => "rig.tail.1",
            Joint::Tail2 => "rig.tail.2",
            Joint::Tail3 => "rig.tail.3",
            Joint::WingL => "rig.wing.l",
            Joint::WingR => "rig.wing.r",
        }
    }
}

/// A primitive shape, in metres, before the part's own scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// A sphere of this radius (an ellipsoid with a part's scale).
    Ball(f32),
    /// A box of this size.
    Block(Vec3),
    /// A capsule: radius, length of its straight part (along y).
    Capsule(f32, f32),
    /// A cone: base radius, height (along y, point up).
    Cone(f32, f32),
    /// A cylinder: radius, height (along y).
    Cylinder(f32, f32),
    /// A ring: the tube's radius, the ring's radius (in the xz plane).
    Torus(f32, f32),
}

impl Shape {
    /// A radius that roughly bounds it (for debris colliders).
    pub fn radius(self) -> f32 {
        match self {
            Shape::Ball(r) => r,
            Shape::Block(s) => s.max_element() / 2.0,
            Shape::Capsule(r, l) => r + l / 4.0,
            Shape::Cone(r, h) | Shape::Cylinder(r, h) => r.max(h / 3.0),
            Shape::Torus(t, r) => r + t,
        }
    }

    /// A radius that surely bounds it, from its centre.
    pub fn bound(self) -> f32 {
        match self {
            Shape::Ball(r) => r,
            Shape::Block(s) => s.length() / 2.0,
            Shape::Capsule(r, l) => r + l / 2.0,
            Shape::Cone(r, h) | Shape::Cylinder(r, h) => (r * r + h * h / 4.0).sqrt(),
            Shape::Torus(t, r) => r + t,
        }
    }
}

/// A part's colour, resolved from the figure's colours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    /// Body.
    pub body: Rgb,
    /// Accent.
    pub accent: Rgb,
    /// Belly.
    pub belly: Rgb,
    /// Detail: armour, weapons, horns, claws.
    pub detail: Rgb,
    /// Eyes.
    pub eyes: Rgb,
}

impl Palette {
    fn of(c: &Colours) -> Palette {
        Palette {
            body: c.body,
            accent: c.accent,
            belly: c.belly.unwrap_or(c.body),
            detail: c.detail.unwrap_or(Rgb([170, 176, 188])),
            eyes: c.eyes.unwrap_or(Rgb([255, 214, 64])),
        }
    }

    /// The colour of a tint.
    pub fn get(&self, t: Tint) -> Rgb {
        match t {
            Tint::Body => self.body,
            Tint::Accent => self.accent,
            Tint::Belly => self.belly,
            Tint::Detail => self.detail,
            Tint::Eye => self.eyes,
        }
    }
}

/// How a part is shaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Finish {
    /// Cel-shaded skin, scales or fur.
    Skin,
    /// Shiny metal: armour, weapons, machines.
    Metal,
    /// It glows (eyes, flames, halos).
    Glow,
}

/// One part of a figure, on a joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part {
    /// The joint it moves with.
    pub joint: Joint,
    /// Its shape.
    pub shape: Shape,
    /// Its centre, from the joint's pivot (in the figure's frame: facing
    /// +z, feet at y = 0, its left at +x).
    pub at: Vec3,
    /// Its rotation.
    pub rot: Quat,
    /// Its own scale (an ellipsoid from a ball).
    pub scale: Vec3,
    /// Its colour.
    pub tint: Tint,
    /// Its finish.
    pub finish: Finish,
}

impl Part {
    fn new(joint: Joint, shape: Shape, at: Vec3, tint: Tint) -> Part {
        Part {
            joint,
            shape,
            at,
            rot: Quat::IDENTITY,
            scale: Vec3::ONE,
            tint,
            finish: if tint == Tint::Eye {
                Finish::Glow
            } else if tint == Tint::Detail {
                Finish::Metal
            } else {
                Finish::Skin
            },
        }
    }

    fn rot(mut self, q: Quat) -> Part {
        self.rot = q;
        self
    }

    fn scaled(mut self, s: Vec3) -> Part {
        self.scale = s;
        self
    }

    fn finish(mut self, f: Finish) -> Part {
        self.finish = f;
        self
    }

    /// A radius that surely bounds it, from its centre.
    pub fn bound(&self) -> f32 {
        self.shape.bound() * self.scale.max_element()
    }
}

/// A joint of a figure's skeleton: its parent and its pivot, from the
/// parent's pivot, at rest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bone {
    /// Which joint.
    pub joint: Joint,
    /// Its parent (none for the mover).
    pub parent: Option<Joint>,
    /// Its pivot, from the parent's.
    pub at: Vec3,
}

/// A figure: its skeleton, parts and colours.
#[derive(Debug, Clone, PartialEq)]
pub struct Rig {
    /// Its body plan.
    pub plan: Plan,
    /// Its joints, parents first.
    pub bones: Vec<Bone>,
    /// Its parts.
    pub parts: Vec<Part>,
    /// Its colours.
    pub palette: Palette,
}

/// A joint's rotation keyframes in a move: (seconds, rotation).
pub type Keys = Vec<(f32, Quat)>;

/// A move's keyframes: each joint's rotations, and the mover's offsets.
pub type MoveKeys = (Vec<(Joint, Keys)>, Vec<(f32, Vec3)>);

/// Something a figure does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Breathing, looking about (loops).
    Idle,
    /// A physical blow: wind up, strike.
    Strike,
    /// A breath or a beam: rear back, thrust forward.
    Blast,
    /// A spell: arms up, then forward.
    Cast,
    /// Struck: thrown back.
    Hit,
    /// Arms crossed in front.
    Block,
    /// A spin and a rise, arms spread.
    Digivolve,
    /// Slumping as it is deleted.
    Delete,
    /// Arms up: it won.
    Cheer,
}

impl Move {
    /// Every move.
    pub const ALL: [Move; 9] = [
        Move::Idle,
        Move::Strike,
        Move::Blast,
        Move::Cast,
        Move::Hit,
        Move::Block,
        Move::Digivolve,
        Move::Delete,
        Move::Cheer,
    ];

    /// How long it lasts, seconds.
    pub fn seconds(self) -> f32 {
        match self {
            Move::Idle => 2.4,
            Move::Strike => 0.9,
            Move::Blast | Move::Cast => 1.0,
            Move::Hit => 0.6,
            Move::Block => 0.8,
            Move::Digivolve => 1.2,
            Move::Delete => 0.9,
            Move::Cheer => 1.2,
        }
    }

    /// Its rotation keyframes per joint (every joint it moves starts and
    /// ends at rest) and the mover's offset keyframes.
    pub fn keys(self) -> MoveKeys {
        let d = self.seconds();
        let rest = Quat::IDENTITY;
        // A track that goes through `mid` keys and back to rest.
        let track = |mid: &[(f32, Quat)]| {
            let mut k = vec![(0.0, rest)];
            k.extend_from_slice(mid);
            k.push((d, rest));
            k
        };
        let rx = |deg: f32| Quat::from_rotation_x(deg.to_radians());
        let ry = |deg: f32| Quat::from_rotation_y(deg.to_radians());
        let rz = |deg: f32| Quat::from_rotation_z(deg.to_radians());
        let v = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
        let mover = |mid: &[(f32, Vec3)]| {
            let mut k = vec![(0.0, Vec3::ZERO)];
            k.extend_from_slice(mid);
            k.push((d, Vec3::ZERO));
            k
        };
        use Joint::*;
        match self {
            Move::Idle => (
                vec![
                    (Chest, track(&[(1.2, rx(-4.0))])),
                    (Head, track(&[(0.6, ry(8.0)), (1.8, ry(-8.0) * rx(-4.0))])),
                    (ArmL, track(&[(1.2, rz(6.0))])),
                    (ArmR, track(&[(1.2, rz(-6.0))])),
                    (ForearmL, track(&[(1.2, rx(-10.0))])),
                    (ForearmR, track(&[(1.2, rx(-10.0))])),
                    (Tail1, track(&[(0.6, ry(12.0)), (1.8, ry(-12.0))])),
                    (Tail2, track(&[(0.8, ry(15.0)), (2.0, ry(-15.0))])),
                    (Tail3, track(&[(1.0, ry(18.0)), (2.2, ry(-18.0))])),
                    (WingL, track(&[(0.6, rz(18.0)), (1.8, rz(-10.0))])),
                    (WingR, track(&[(0.6, rz(-18.0)), (1.8, rz(10.0))])),
                ],
                mover(&[(0.6, v(0.0, 0.05, 0.0)), (1.8, v(0.0, -0.02, 0.0))]),
            ),
            Move::Strike => (
                vec![
                    (
                        Chest,
                        track(&[(0.3, ry(25.0)), (0.45, ry(-30.0) * rx(15.0))]),
                    ),
                    (Head, track(&[(0.3, rx(8.0)), (0.45, rx(-8.0))])),
                    (ArmR, track(&[(0.3, rx(50.0)), (0.45, rx(-100.0))])),
                    (ForearmR, track(&[(0.3, rx(-70.0)), (0.45, rx(-5.0))])),
                    (ArmL, track(&[(0.3, rx(-40.0)), (0.45, rx(30.0))])),
                    (ThighR, track(&[(0.45, rx(-25.0))])),
                    (Tail1, track(&[(0.3, ry(25.0)), (0.45, ry(-30.0))])),
                    (WingL, track(&[(0.3, rz(25.0)), (0.45, rz(-20.0))])),
                    (WingR, track(&[(0.3, rz(-25.0)), (0.45, rz(20.0))])),
                ],
                mover(&[(0.3, v(0.0, 0.0, -0.1)), (0.45, v(0.0, 0.05, 0.25))]),
            ),
            Move::Blast => (
                vec![
                    (
                        Chest,
                        track(&[(0.35, rx(-15.0)), (0.5, rx(15.0)), (0.8, rx(10.0))]),
                    ),
                    (Neck, track(&[(0.35, rx(-10.0)), (0.5, rx(12.0))])),
                    (
                        Head,
                        track(&[(0.35, rx(-20.0)), (0.5, rx(12.0)), (0.8, rx(10.0))]),
                    ),
                    (
                        ArmL,
                        track(&[(0.35, rx(30.0)), (0.5, rx(-80.0)), (0.8, rx(-75.0))]),
                    ),
                    (
                        ArmR,
                        track(&[(0.35, rx(30.0)), (0.5, rx(-80.0)), (0.8, rx(-75.0))]),
                    ),
                    (Tail1, track(&[(0.35, rx(-15.0)), (0.5, rx(10.0))])),
                    (WingL, track(&[(0.35, rz(30.0)), (0.5, rz(-15.0))])),
                    (WingR, track(&[(0.35, rz(-30.0)), (0.5, rz(15.0))])),
                ],
                mover(&[(0.35, v(0.0, 0.0, -0.12)), (0.5, v(0.0, 0.0, 0.1))]),
            ),
            Move::Cast => (
                vec![
                    (Chest, track(&[(0.4, rx(-10.0)), (0.6, rx(8.0))])),
                    (Head, track(&[(0.4, rx(-15.0)), (0.6, rx(5.0))])),
                    (
                        ArmL,
                        track(&[(0.4, rz(150.0)), (0.6, rx(-90.0)), (0.85, rx(-80.0))]),
                    ),
                    (
                        ArmR,
                        track(&[(0.4, rz(-150.0)), (0.6, rx(-90.0)), (0.85, rx(-80.0))]),
                    ),
                    (WingL, track(&[(0.4, rz(35.0)), (0.7, rz(30.0))])),
                    (WingR, track(&[(0.4, rz(-35.0)), (0.7, rz(-30.0))])),
                ],
                mover(&[(0.4, v(0.0, 0.15, 0.0)), (0.6, v(0.0, 0.1, 0.05))]),
            ),
            Move::Hit => (
                vec![
                    (Chest, track(&[(0.12, rx(-25.0))])),
                    (Head, track(&[(0.12, rx(-25.0) * ry(15.0))])),
                    (ArmL, track(&[(0.12, rz(40.0))])),
                    (ArmR, track(&[(0.12, rz(-40.0))])),
                    (Tail1, track(&[(0.12, rx(20.0))])),
                    (WingL, track(&[(0.12, rz(-25.0))])),
                    (WingR, track(&[(0.12, rz(25.0))])),
                ],
                mover(&[(0.12, v(0.0, 0.05, -0.12))]),
            ),
            Move::Block => (
                vec![
                    (Chest, track(&[(0.15, rx(10.0)), (0.55, rx(10.0))])),
                    (Head, track(&[(0.15, rx(12.0)), (0.55, rx(12.0))])),
                    (
                        ArmL,
                        track(&[(0.15, rx(-75.0) * rz(-25.0)), (0.55, rx(-75.0) * rz(-25.0))]),
                    ),
                    (
                        ArmR,
                        track(&[(0.15, rx(-75.0) * rz(25.0)), (0.55, rx(-75.0) * rz(25.0))]),
                    ),
                    (ForearmL, track(&[(0.15, rx(-50.0)), (0.55, rx(-50.0))])),
                    (ForearmR, track(&[(0.15, rx(-50.0)), (0.55, rx(-50.0))])),
                    (WingL, track(&[(0.15, rz(-30.0)), (0.55, rz(-30.0))])),
                    (WingR, track(&[(0.15, rz(30.0)), (0.55, rz(30.0))])),
                ],
                mover(&[(0.15, v(0.0, -0.08, -0.05)), (0.55, v(0.0, -0.08, -0.05))]),
            ),
            Move::Digivolve => (
                vec![
                    (
                        Mover,
                        track(&[(0.3, ry(120.0)), (0.6, ry(240.0)), (0.9, ry(359.0))]),
                    ),
                    (ArmL, track(&[(0.6, rz(100.0))])),
                    (ArmR, track(&[(0.6, rz(-100.0))])),
                    (Head, track(&[(0.6, rx(-20.0))])),
                    (WingL, track(&[(0.6, rz(40.0))])),
                    (WingR, track(&[(0.6, rz(-40.0))])),
                ],
                mover(&[(0.6, v(0.0, 0.4, 0.0))]),
            ),
            Move::Delete => (
                vec![
                    (Mover, track(&[(0.3, rz(18.0)), (0.85, rz(18.0))])),
                    (Chest, track(&[(0.3, rx(35.0)), (0.85, rx(35.0))])),
                    (Head, track(&[(0.3, rx(30.0)), (0.85, rx(30.0))])),
                    (ArmL, track(&[(0.3, rz(8.0)), (0.85, rz(8.0))])),
                    (ArmR, track(&[(0.3, rz(-8.0)), (0.85, rz(-8.0))])),
                    (WingL, track(&[(0.3, rz(-30.0)), (0.85, rz(-30.0))])),
                    (WingR, track(&[(0.3, rz(30.0)), (0.85, rz(30.0))])),
                ],
                mover(&[(0.3, v(0.0, -0.15, 0.0)), (0.85, v(0.0, -0.2, 0.0))]),
            ),
            Move::Cheer => (
                vec![
                    (ArmL, track(&[(0.3, rz(160.0)), (0.9, rz(150.0))])),
                    (ArmR, track(&[(0.3, rz(-160.0)), (0.9, rz(-150.0))])),
                    (Head, track(&[(0.3, rx(-20.0)), (0.9, rx(-15.0))])),
                    (Chest, track(&[(0.3, rx(-10.0))])),
                    (
                        WingL,
                        track(&[(0.3, rz(40.0)), (0.6, rz(-10.0)), (0.9, rz(40.0))]),
                    ),
                    (
                        WingR,
                        track(&[(0.3, rz(-40.0)), (0.6, rz(10.0)), (0.9, rz(-40.0))]),
                    ),
                    (
                        Tail1,
                        track(&[(0.3, ry(25.0)), (0.6, ry(-25.0)), (0.9, ry(25.0))]),
                    ),
                ],
                mover(&[
                    (0.3, v(0.0, 0.3, 0.0)),
                    (0.5, v(0.0, 0.0, 0.0)),
                    (0.75, v(0.0, 0.2, 0.0)),
                ]),
            ),
        }
    }
}

/// A rotation track's value at `t` (linear between keys).
pub fn sample_rot(keys: &[(f32, Quat)], t: f32) -> Quat {
    sample(keys, t, |a, b, s| a.slerp(b, s), Quat::IDENTITY)
}

/// An offset track's value at `t`.
pub fn sample_offset(keys: &[(f32, Vec3)], t: f32) -> Vec3 {
    sample(keys, t, |a, b, s| a.lerp(b, s), Vec3::ZERO)
}

fn sample<T: Copy>(keys: &[(f32, T)], t: f32, mix: impl Fn(T, T, f32) -> T, none: T) -> T {
    let Some(first) = keys.first() else {
        return none;
    };
    if t <= first.0 {
        return first.1;
    }
    for w in keys.windows(2) {
        let ((t0, a), (t1, b)) = (w[0], w[1]);
        if t <= t1 {
            let s = if t1 > t0 { (t - t0) / (t1 - t0) } else { 1.0 };
            return mix(a, b, s);
        }
    }
    keys.last().map_or(none, |k| k.1)
}

impl Rig {
    /// The pivot of every joint at rest, in the figure's frame.
    fn pivots(&self, rot: impl Fn(Joint) -> Quat, offset: Vec3) -> Vec<(Joint, Vec3, Quat)> {
        let mut out: Vec<(Joint, Vec3, Quat)> = Vec::with_capacity(self.bones.len());
        for b in &self.bones {
            let (p, q) = match b.parent.and_then(|p| out.iter().find(|o| o.0 == p)) {
                Some(&(_, pp, pq)) => (pp + pq * b.at, pq * rot(b.joint)),
                None => (b.at + offset, rot(b.joint)),
            };
            out.push((b.joint, p, q));
        }
        out
    }

    /// Where each part's centre is, and its bounding radius, with the
    /// joints turned by `rot` and the mover at `offset`.
    pub fn posed(&self, rot: impl Fn(Joint) -> Quat, offset: Vec3) -> Vec<(Vec3, f32)> {
        let pivots = self.pivots(rot, offset);
        self.parts
            .iter()
            .filter_map(|p| {
                let &(_, at, q) = pivots.iter().find(|o| o.0 == p.joint)?;
                Some((at + q * p.at, p.bound()))
            })
            .collect()
    }

    /// A sphere around the figure in every pose of every move (its centre
    /// from the feet, its radius), before the level's scale.
    pub fn bounds(&self) -> (Vec3, f32) {
        let mut points: Vec<(Vec3, f32)> = self.posed(|_| Quat::IDENTITY, Vec3::ZERO);
        for m in Move::ALL {
            let (tracks, offsets) = m.keys();
            let mut times: Vec<f32> = tracks
                .iter()
                .flat_map(|(_, k)| k.iter().map(|x| x.0))
                .chain(offsets.iter().map(|x| x.0))
                .collect();
            // Halfway between keys too: a slerp can swing a part wider
            // than either end.
            let mids: Vec<f32> = times.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
            times.extend(mids);
            for t in times {
                let rot = |j: Joint| {
                    tracks
                        .iter()
                        .find(|(tj, _)| *tj == j)
                        .map_or(Quat::IDENTITY, |(_, k)| sample_rot(k, t))
                };
                points.extend(self.posed(rot, sample_offset(&offsets, t)));
            }
        }
        if points.is_empty() {
            return (Vec3::Y * 0.5, 0.5);
        }
        let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
        for &(p, r) in &points {
            lo = lo.min(p - Vec3::splat(r));
            hi = hi.max(p + Vec3::splat(r));
        }
        let centre = (lo + hi) / 2.0;
        let radius = points
            .iter()
            .map(|&(p, r)| (p - centre).length() + r)
            .fold(0.0, f32::max);
        (centre, radius * 1.03)
    }
}

/// Deterministic jitter from a seed: values in `lo..hi`.
struct Jitter(u64);

impl Jitter {
    fn next(&mut self, lo: f32, hi: f32) -> f32 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        lo + (hi - lo) * ((z >> 40) as f32 / (1u64 << 24) as f32)
    }

    fn chance(&mut self, p: f32) -> bool {
        self.next(0.0, 1.0) < p
    }
}

/// The figure data for a card with none of its own: the plan from its
/// type, the Field's colour and the attribute's, parts its type suggests,
/// proportions jittered by its card number (so no two cards look alike).
pub fn derive(d: &Digimon) -> FigureSpec {
    let mut j = Jitter(fnv1a(d.number.to_string().as_bytes()));
    let kind = d.kind.to_lowercase();
    let has = |ws: &[&str]| ws.iter().any(|w| kind.contains(w));
    let plan = Plan::of(&d.kind);
    let [r, g, b] = crate::barcode::print::field_colour(d.field);
    let accent = match d.attribute {
        Attribute::Vaccine => Rgb([235, 230, 205]),
        Attribute::Data => Rgb([90, 215, 240]),
        Attribute::Virus => Rgb([115, 50, 128]),
        Attribute::Unknown | Attribute::Variable => Rgb([140, 140, 152]),
    };
    let mut parts = Vec::new();
    if has(&["angel", "bird", "fallen", "lord", "holy"])
        || plan == Plan::Flyer
        || has(&["dragon"]) && j.chance(0.5)
    {
        let kind = if has(&["fallen", "demon", "dragon"]) {
            WingKind::Bat
        } else if plan == Plan::Machine {
            WingKind::Mech
        } else {
            WingKind::Feather
        };
        parts.push(Feature::Wings {
            kind,
            span: j.next(0.6, 1.0),
            pairs: 1,
        });
    }
    if has(&["dragon", "demon", "dinosaur", "beast", "imp"]) {
        parts.push(Feature::Horns {
            count: if j.chance(0.5) { 1 } else { 2 },
            length: j.next(0.2, 0.4),
            at: HornAt::Head,
        });
    }
    if matches!(plan, Plan::Raptor | Plan::Quadruped) || has(&["dragon"]) {
        parts.push(Feature::Tail {
            length: j.next(0.6, 1.1),
            thickness: j.next(0.12, 0.22),
            tip: if d.field == Field::DragonsRoar {
                TailTip::Flame
            } else {
                TailTip::Plain
            },
        });
        parts.push(Feature::Claws {
            on: Limbs::All,
            length: 0.1,
        });
    }
    if has(&["knight", "machine", "cyborg"]) {
        parts.push(Feature::Armour {
            on: vec![Plate::Helmet, Plate::Chest, Plate::Shoulders],
            tint: Tint::Detail,
        });
    }
    if has(&["knight"]) {
        parts.push(Feature::Weapon {
            kind: WeaponKind::Sword,
            hand: Hand::Right,
            size: 1.0,
        });
    }
    if has(&["angel"]) {
        parts.push(Feature::Halo);
    }
    FigureSpec {
        plan,
        build: Build {
            height: j.next(0.9, 1.1),
            bulk: j.next(0.85, 1.2),
            head: j.next(0.9, 1.25),
            arms: j.next(0.85, 1.15),
            legs: j.next(0.85, 1.15),
        },
        colours: Colours {
            body: Rgb([r, g, b]),
            accent,
            belly: None,
            detail: None,
            eyes: None,
        },
        parts,
    }
}

/// Builds a figure from its data.
pub fn build(spec: &FigureSpec) -> Rig {
    let mut k = Kit {
        b: spec.build,
        bones: vec![Bone {
            joint: Joint::Mover,
            parent: None,
            at: Vec3::ZERO,
        }],
        parts: Vec::new(),
        head: (Vec3::new(0.0, 0.25, 0.0), 0.25),
        snout: None,
        wing_root: Vec3::new(0.0, 0.2, -0.2),
        tail_root: None,
        hands: [None, None],
        feet: Vec::new(),
        back: Vec::new(),
        shoulders: [None, None],
        forearms: [None, None],
        shins: Vec::new(),
        chest: (Vec3::new(0.0, 0.2, 0.0), 0.25),
        machine: spec.plan == Plan::Machine,
    };
    match spec.plan {
        Plan::Biped | Plan::Machine => biped(&mut k),
        Plan::Raptor => raptor(&mut k),
        Plan::Quadruped => quadruped(&mut k),
        Plan::Flyer => flyer(&mut k),
        Plan::Serpent => serpent(&mut k),
        Plan::Insect => insect(&mut k),
        Plan::Blob => blob(&mut k),
    }
    for f in &spec.parts {
        feature(&mut k, f, spec.plan);
    }
    Rig {
        plan: spec.plan,
        bones: k.bones,
        parts: k.parts,
        palette: Palette::of(&spec.colours),
    }
}

/// A figure under construction: its bones, parts, and where features go.
struct Kit {
    b: Build,
    bones: Vec<Bone>,
    parts: Vec<Part>,
    /// The head's centre from the head joint, and its radius.
    head: (Vec3, f32),
    /// The snout's tip from the head joint, if it has one.
    snout: Option<Vec3>,
    /// Where wings attach, from the chest joint.
    wing_root: Vec3,
    /// The tail's root joint's parent and place, if the plan has a tail slot.
    tail_root: Option<(Joint, Vec3)>,
    /// Each hand's joint and the hand's centre (left, right).
    hands: [Option<(Joint, Vec3)>; 2],
    /// Each foot: joint and centre.
    feet: Vec<(Joint, Vec3)>,
    /// Points along the back for spikes: joint, place, outward direction.
    back: Vec<(Joint, Vec3, Vec3)>,
    /// Each shoulder's joint and the shoulder's top (left, right).
    shoulders: [Option<(Joint, Vec3)>; 2],
    /// Each forearm's joint, its centre and length (left, right).
    forearms: [Option<(Joint, Vec3, f32)>; 2],
    /// Shins: joint, centre, length.
    shins: Vec<(Joint, Vec3, f32)>,
    /// The chest's centre from the chest joint, and its half-width.
    chest: (Vec3, f32),
    /// Blocks instead of round shapes.
    machine: bool,
}

impl Kit {
    fn bone(&mut self, joint: Joint, parent: Joint, at: Vec3) {
        self.bones.push(Bone {
            joint,
            parent: Some(parent),
            at,
        });
    }

    fn add(&mut self, p: Part) {
        self.parts.push(p);
    }

    /// A limb segment from the joint's pivot down `len` metres.
    fn limb(&mut self, joint: Joint, r: f32, len: f32, tint: Tint) {
        let shape = if self.machine {
            Shape::Block(Vec3::new(r * 2.1, len + r, r * 2.1))
        } else {
            Shape::Capsule(r, len.max(0.01))
        };
        self.add(Part::new(
            joint,
            shape,
            Vec3::new(0.0, -len / 2.0, 0.0),
            tint,
        ));
    }

    /// A limb segment along `dir` from the joint.
    fn limb_along(&mut self, joint: Joint, r: f32, len: f32, dir: Vec3, tint: Tint) {
        let dir = dir.normalize();
        let rot = Quat::from_rotation_arc(Vec3::Y, dir);
        let shape = if self.machine {
            Shape::Block(Vec3::new(r * 2.1, len + r, r * 2.1))
        } else {
            Shape::Capsule(r, len.max(0.01))
        };
        self.add(Part::new(joint, shape, dir * len / 2.0, tint).rot(rot));
    }

    /// A round (or, for machines, boxy) body part.
    fn blob(&mut self, joint: Joint, at: Vec3, size: Vec3, tint: Tint) {
        let shape = if self.machine {
            Shape::Block(Vec3::splat(1.7))
        } else {
            Shape::Ball(1.0)
        };
        self.add(Part::new(joint, shape, at, tint).scaled(size));
    }

    /// A pair of eyes on the head.
    fn eyes(&mut self, centre: Vec3, r: f32, wide: f32) {
        for s in [-1.0, 1.0] {
            self.add(
                Part::new(
                    Joint::Head,
                    Shape::Ball(r * 0.2),
                    centre + Vec3::new(s * r * wide, r * 0.2, r * 0.84),
                    Tint::Eye,
                )
                .scaled(Vec3::new(1.0, 1.25, 0.55)),
            );
        }
    }
}

/// Each arm's side (+1 left, −1 right) and joints: upper arm, forearm, hand.
const ARMS: [(f32, Joint, Joint, Joint); 2] = [
    (1.0, Joint::ArmL, Joint::ForearmL, Joint::HandL),
    (-1.0, Joint::ArmR, Joint::ForearmR, Joint::HandR),
];

/// Each leg's side and joints: thigh, shin.
const LEGS: [(f32, Joint, Joint); 2] = [
    (1.0, Joint::ThighL, Joint::ShinL),
    (-1.0, Joint::ThighR, Joint::ShinR),
];

fn biped(k: &mut Kit) {
    let b = k.b;
    let h = b.height;
    let leg = 0.55 * b.legs * h;
    let torso = 0.55 * h;
    let width = 0.25 * b.bulk;
    let head_r = 0.23 * b.head;
    let arm = 0.52 * b.arms * h;
    let limb_r = 0.075 * b.bulk;
    let hip_y = leg + 0.08;
    k.bone(Joint::Hips, Joint::Mover, Vec3::new(0.0, hip_y, 0.0));
    k.blob(
        Joint::Hips,
        Vec3::ZERO,
        Vec3::new(width * 0.95, 0.13, width * 0.75),
        Tint::Body,
    );
    for (s, thigh, shin) in LEGS {
        k.bone(thigh, Joint::Hips, Vec3::new(s * width * 0.55, -0.04, 0.0));
        k.limb(thigh, limb_r * 1.15, leg * 0.45, Tint::Body);
        k.bone(shin, thigh, Vec3::new(0.0, -leg * 0.5, 0.0));
        k.limb(shin, limb_r, leg * 0.42, Tint::Body);
        let foot = Vec3::new(0.0, -leg * 0.5 + 0.02, 0.06);
        k.blob(
            shin,
            foot,
            Vec3::new(0.1, 0.06, 0.17) * b.bulk.sqrt(),
            Tint::Accent,
        );
        k.feet.push((shin, foot));
        k.shins
            .push((shin, Vec3::new(0.0, -leg * 0.25, 0.0), leg * 0.45));
    }
    k.bone(Joint::Spine, Joint::Hips, Vec3::ZERO);
    k.blob(
        Joint::Spine,
        Vec3::new(0.0, torso * 0.28, 0.0),
        Vec3::new(width * 0.9, torso * 0.32, width * 0.72),
        Tint::Body,
    );
    k.add(
        Part::new(
            Joint::Spine,
            Shape::Ball(1.0),
            Vec3::new(0.0, torso * 0.3, width * 0.3),
            Tint::Belly,
        )
        .scaled(Vec3::new(width * 0.65, torso * 0.28, width * 0.5)),
    );
    k.bone(Joint::Chest, Joint::Spine, Vec3::new(0.0, torso * 0.5, 0.0));
    k.chest = (Vec3::new(0.0, torso * 0.18, 0.0), width * 1.1);
    k.blob(
        Joint::Chest,
        k.chest.0,
        Vec3::new(width * 1.1, torso * 0.3, width * 0.8),
        Tint::Body,
    );
    for (i, (s, a, f, hj)) in ARMS.into_iter().enumerate() {
        let shoulder = Vec3::new(s * (width * 1.15 + limb_r), torso * 0.3, 0.0);
        k.bone(a, Joint::Chest, shoulder);
        k.shoulders[i] = Some((a, Vec3::new(0.0, limb_r * 0.5, 0.0)));
        k.blob(a, Vec3::ZERO, Vec3::splat(limb_r * 1.35), Tint::Body);
        k.limb(a, limb_r, arm * 0.42, Tint::Body);
        k.bone(f, a, Vec3::new(0.0, -arm * 0.5, 0.0));
        k.limb(f, limb_r * 0.95, arm * 0.4, Tint::Body);
        k.forearms[i] = Some((f, Vec3::new(0.0, -arm * 0.22, 0.0), arm * 0.45));
        k.bone(hj, f, Vec3::new(0.0, -arm * 0.48, 0.0));
        k.blob(
            hj,
            Vec3::new(0.0, -0.03, 0.01),
            Vec3::splat(limb_r * 1.25),
            Tint::Accent,
        );
        k.hands[i] = Some((hj, Vec3::new(0.0, -0.05, 0.02)));
    }
    k.bone(Joint::Neck, Joint::Chest, Vec3::new(0.0, torso * 0.45, 0.0));
    k.limb_along(Joint::Neck, limb_r * 0.9, 0.05, Vec3::Y, Tint::Body);
    k.bone(Joint::Head, Joint::Neck, Vec3::new(0.0, 0.06, 0.0));
    let head = Vec3::new(0.0, head_r * 0.95, 0.02);
    k.head = (head, head_r);
    k.blob(Joint::Head, head, Vec3::splat(head_r), Tint::Body);
    k.eyes(head, head_r, 0.38);
    k.wing_root = Vec3::new(0.0, torso * 0.25, -width * 0.6);
    k.tail_root = Some((Joint::Hips, Vec3::new(0.0, -0.02, -width * 0.6)));
    k.back = (0..5)
        .map(|i| {
            let t = i as f32 / 4.0;
            (
                Joint::Chest,
                Vec3::new(0.0, torso * (0.35 - 0.35 * t), -width * 0.75),
                Vec3::new(0.0, 0.3, -1.0),
            )
        })
        .collect();
}

fn raptor(k: &mut Kit) {
    let b = k.b;
    let h = b.height;
    let leg = 0.48 * b.legs * h;
    let torso = 0.5 * h;
    let width = 0.28 * b.bulk;
    let head_r = 0.25 * b.head;
    let arm = 0.34 * b.arms * h;
    let limb_r = 0.08 * b.bulk;
    let hip_y = leg + 0.1;
    k.bone(Joint::Hips, Joint::Mover, Vec3::new(0.0, hip_y, -0.08));
    k.blob(
        Joint::Hips,
        Vec3::ZERO,
        Vec3::new(width * 0.95, 0.18, width * 0.95),
        Tint::Body,
    );
    for (s, thigh, shin) in LEGS {
        k.bone(thigh, Joint::Hips, Vec3::new(s * width * 0.7, 0.0, 0.0));
        // A heavy thigh, a shin slanting back, a long foot.
        k.blob(
            thigh,
            Vec3::new(0.0, -leg * 0.2, 0.03),
            Vec3::new(limb_r * 1.7, leg * 0.3, limb_r * 2.0),
            Tint::Body,
        );
        k.bone(shin, thigh, Vec3::new(0.0, -leg * 0.45, 0.06));
        k.limb_along(
            shin,
            limb_r * 0.95,
            leg * 0.42,
            Vec3::new(0.0, -1.0, -0.25),
            Tint::Body,
        );
        let foot = Vec3::new(0.0, -leg * 0.55 + 0.04, 0.0);
        k.blob(
            shin,
            foot,
            Vec3::new(0.11, 0.07, 0.2) * b.bulk.sqrt(),
            Tint::Body,
        );
        k.feet.push((shin, foot + Vec3::Z * 0.1));
        k.shins
            .push((shin, Vec3::new(0.0, -leg * 0.25, -0.05), leg * 0.42));
    }
    k.bone(Joint::Spine, Joint::Hips, Vec3::ZERO);
    // The body leans forward.
    let lean = Quat::from_rotation_x(0.35);
    k.add(
        Part::new(
            Joint::Spine,
            Shape::Ball(1.0),
            Vec3::new(0.0, torso * 0.3, 0.06),
            Tint::Body,
        )
        .rot(lean)
        .scaled(Vec3::new(width, torso * 0.42, width * 0.9)),
    );
    k.add(
        Part::new(
            Joint::Spine,
            Shape::Ball(1.0),
            Vec3::new(0.0, torso * 0.3, width * 0.45),
            Tint::Belly,
        )
        .rot(lean)
        .scaled(Vec3::new(width * 0.7, torso * 0.36, width * 0.5)),
    );
    k.bone(
        Joint::Chest,
        Joint::Spine,
        Vec3::new(0.0, torso * 0.55, 0.12),
    );
    k.chest = (Vec3::new(0.0, 0.0, 0.0), width);
    k.blob(
        Joint::Chest,
        Vec3::ZERO,
        Vec3::new(width * 0.9, torso * 0.26, width * 0.8),
        Tint::Body,
    );
    for (i, (s, a, f, hj)) in ARMS.into_iter().enumerate() {
        k.bone(
            a,
            Joint::Chest,
            Vec3::new(s * width * 0.85, 0.0, width * 0.35),
        );
        k.shoulders[i] = Some((a, Vec3::new(0.0, limb_r * 0.4, 0.0)));
        k.limb_along(
            a,
            limb_r * 0.75,
            arm * 0.4,
            Vec3::new(s * 0.2, -1.0, 0.5),
            Tint::Body,
        );
        k.bone(f, a, Vec3::new(s * 0.03, -arm * 0.38, arm * 0.2));
        k.limb_along(
            f,
            limb_r * 0.7,
            arm * 0.38,
            Vec3::new(0.0, -0.3, 1.0),
            Tint::Body,
        );
        k.forearms[i] = Some((f, Vec3::new(0.0, -arm * 0.05, arm * 0.18), arm * 0.38));
        k.bone(hj, f, Vec3::new(0.0, -arm * 0.12, arm * 0.4));
        k.blob(hj, Vec3::ZERO, Vec3::splat(limb_r * 0.9), Tint::Body);
        k.hands[i] = Some((hj, Vec3::new(0.0, -0.02, 0.04)));
    }
    k.bone(Joint::Neck, Joint::Chest, Vec3::new(0.0, torso * 0.2, 0.06));
    k.limb_along(
        Joint::Neck,
        limb_r * 1.2,
        0.12,
        Vec3::new(0.0, 1.0, 0.4),
        Tint::Body,
    );
    k.bone(Joint::Head, Joint::Neck, Vec3::new(0.0, 0.14, 0.06));
    let head = Vec3::new(0.0, head_r * 0.75, head_r * 0.25);
    k.head = (head, head_r);
    k.blob(
        Joint::Head,
        head,
        Vec3::new(head_r, head_r * 0.92, head_r),
        Tint::Body,
    );
    k.eyes(head + Vec3::new(0.0, head_r * 0.1, 0.0), head_r, 0.42);
    // A jaw: every raptor has a short muzzle; a Snout feature lengthens it.
    k.snout = Some(head + Vec3::new(0.0, -head_r * 0.25, head_r * 0.95));
    k.wing_root = Vec3::new(0.0, torso * 0.1, -width * 0.7);
    k.tail_root = Some((Joint::Hips, Vec3::new(0.0, 0.0, -width * 0.7)));
    k.back = (0..5)
        .map(|i| {
            let t = i as f32 / 4.0;
            (
                Joint::Spine,
                Vec3::new(0.0, torso * (0.75 - 0.5 * t), -width * 0.55 - 0.1 * t),
                Vec3::new(0.0, 0.6, -1.0),
            )
        })
        .collect();
}

fn quadruped(k: &mut Kit) {
    let b = k.b;
    let h = b.height;
    let leg = 0.42 * b.legs * h;
    let length = 0.95 * h;
    let girth = 0.27 * b.bulk;
    let head_r = 0.22 * b.head;
    let limb_r = 0.075 * b.bulk;
    let body_y = leg + girth * 0.55;
    k.bone(
        Joint::Hips,
        Joint::Mover,
        Vec3::new(0.0, body_y, -length * 0.3),
    );
    k.blob(
        Joint::Hips,
        Vec3::ZERO,
        Vec3::new(girth * 0.95, girth * 0.9, girth * 1.2),
        Tint::Body,
    );
    k.bone(Joint::Spine, Joint::Hips, Vec3::ZERO);
    k.add(
        Part::new(
            Joint::Spine,
            Shape::Ball(1.0),
            Vec3::new(0.0, -girth * 0.25, length * 0.3),
            Tint::Belly,
        )
        .scaled(Vec3::new(girth * 0.75, girth * 0.7, length * 0.45)),
    );
    k.bone(
        Joint::Chest,
        Joint::Spine,
        Vec3::new(0.0, 0.04, length * 0.6),
    );
    k.chest = (Vec3::ZERO, girth);
    k.blob(
        Joint::Chest,
        Vec3::ZERO,
        Vec3::new(girth * 1.05, girth * 1.05, girth * 1.3),
        Tint::Body,
    );
    // Front legs on the arm joints, hind legs on the thighs.
    let legs = [
        (1.0, Joint::ArmL, Joint::ForearmL, Joint::Chest, 0),
        (-1.0, Joint::ArmR, Joint::ForearmR, Joint::Chest, 1),
        (1.0, Joint::ThighL, Joint::ShinL, Joint::Hips, 2),
        (-1.0, Joint::ThighR, Joint::ShinR, Joint::Hips, 3),
    ];
    for (s, upper, lower, parent, i) in legs {
        k.bone(
            upper,
            parent,
            Vec3::new(s * girth * 0.65, -girth * 0.3, 0.0),
        );
        k.limb(upper, limb_r * 1.2, leg * 0.42, Tint::Body);
        k.bone(lower, upper, Vec3::new(0.0, -leg * 0.5, 0.0));
        k.limb(lower, limb_r, leg * 0.4, Tint::Accent);
        let paw = Vec3::new(0.0, -leg * 0.5 + 0.02, 0.04);
        k.blob(
            lower,
            paw,
            Vec3::new(0.09, 0.05, 0.12) * b.bulk.sqrt(),
            Tint::Accent,
        );
        if i < 2 {
            k.hands[i] = Some((lower, paw));
            k.shoulders[i] = Some((upper, Vec3::ZERO));
            k.forearms[i] = Some((lower, Vec3::new(0.0, -leg * 0.2, 0.0), leg * 0.4));
        } else {
            k.feet.push((lower, paw));
            k.shins
                .push((lower, Vec3::new(0.0, -leg * 0.2, 0.0), leg * 0.4));
        }
    }
    k.bone(
        Joint::Neck,
        Joint::Chest,
        Vec3::new(0.0, girth * 0.5, girth * 0.7),
    );
    k.limb_along(
        Joint::Neck,
        girth * 0.45,
        0.12,
        Vec3::new(0.0, 1.0, 0.6),
        Tint::Body,
    );
    k.bone(Joint::Head, Joint::Neck, Vec3::new(0.0, 0.14, 0.1));
    let head = Vec3::new(0.0, head_r * 0.6, head_r * 0.4);
    k.head = (head, head_r);
    k.blob(
        Joint::Head,
        head,
        Vec3::new(head_r, head_r * 0.9, head_r * 1.05),
        Tint::Body,
    );
    k.eyes(head + Vec3::new(0.0, head_r * 0.15, 0.0), head_r, 0.45);
    k.snout = Some(head + Vec3::new(0.0, -head_r * 0.25, head_r * 0.95));
    k.wing_root = Vec3::new(0.0, girth * 0.8, -girth * 0.2);
    k.tail_root = Some((Joint::Hips, Vec3::new(0.0, girth * 0.2, -girth * 1.0)));
    k.back = (0..5)
        .map(|i| {
            let t = i as f32 / 4.0;
            (
                Joint::Spine,
                Vec3::new(0.0, girth * 0.85, length * (0.75 - 0.7 * t)),
                Vec3::new(0.0, 1.0, -0.3),
            )
        })
        .collect();
}

fn flyer(k: &mut Kit) {
    let b = k.b;
    let h = b.height;
    let body_r = 0.3 * b.bulk;
    let head_r = 0.2 * b.head;
    let leg = 0.35 * b.legs * h;
    k.bone(
        Joint::Hips,
        Joint::Mover,
        Vec3::new(0.0, leg + body_r * 0.9, 0.0),
    );
    k.bone(Joint::Spine, Joint::Hips, Vec3::ZERO);
    k.blob(
        Joint::Spine,
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(body_r * 0.9, body_r, body_r * 1.2),
        Tint::Body,
    );
    k.add(
        Part::new(
            Joint::Spine,
            Shape::Ball(1.0),
            Vec3::new(0.0, -body_r * 0.1, body_r * 0.5),
            Tint::Belly,
        )
        .scaled(Vec3::new(body_r * 0.7, body_r * 0.8, body_r * 0.65)),
    );
    for (s, thigh, shin) in LEGS {
        k.bone(
            thigh,
            Joint::Hips,
            Vec3::new(s * body_r * 0.4, -body_r * 0.6, 0.0),
        );
        k.limb(thigh, 0.045 * b.bulk, leg * 0.45, Tint::Accent);
        k.bone(shin, thigh, Vec3::new(0.0, -leg * 0.5, 0.0));
        k.limb(shin, 0.035 * b.bulk, leg * 0.4, Tint::Accent);
        let foot = Vec3::new(0.0, -leg * 0.5 + 0.02, 0.05);
        k.blob(shin, foot, Vec3::new(0.08, 0.03, 0.12), Tint::Accent);
        k.feet.push((shin, foot));
        k.shins
            .push((shin, Vec3::new(0.0, -leg * 0.2, 0.0), leg * 0.4));
    }
    k.bone(
        Joint::Chest,
        Joint::Spine,
        Vec3::new(0.0, body_r * 0.5, body_r * 0.3),
    );
    k.chest = (Vec3::ZERO, body_r * 0.8);
    k.bone(
        Joint::Neck,
        Joint::Chest,
        Vec3::new(0.0, body_r * 0.3, body_r * 0.2),
    );
    k.bone(Joint::Head, Joint::Neck, Vec3::new(0.0, 0.05, 0.05));
    let head = Vec3::new(0.0, head_r * 0.8, head_r * 0.3);
    k.head = (head, head_r);
    k.blob(Joint::Head, head, Vec3::splat(head_r), Tint::Body);
    k.eyes(head, head_r, 0.45);
    k.snout = Some(head + Vec3::new(0.0, -head_r * 0.1, head_r * 0.9));
    // Small arms folded under the wings (Garudamon has real ones: Biped).
    for (i, (s, a, f, hj)) in ARMS.into_iter().enumerate() {
        k.bone(a, Joint::Chest, Vec3::new(s * body_r * 0.8, 0.0, 0.05));
        k.bone(f, a, Vec3::new(0.0, -0.12, 0.0));
        k.bone(hj, f, Vec3::new(0.0, -0.1, 0.0));
        k.hands[i] = Some((hj, Vec3::ZERO));
        k.shoulders[i] = Some((a, Vec3::ZERO));
        k.forearms[i] = Some((f, Vec3::new(0.0, -0.05, 0.0), 0.12));
    }
    k.wing_root = Vec3::new(0.0, 0.0, -body_r * 0.3);
    k.tail_root = Some((Joint::Hips, Vec3::new(0.0, 0.0, -body_r * 1.0)));
    // Tail feathers, even with no Tail feature.
    k.bone(
        Joint::Tail1,
        Joint::Hips,
        Vec3::new(0.0, 0.0, -body_r * 1.0),
    );
    for (i, a) in [-0.35f32, 0.0, 0.35].into_iter().enumerate() {
        k.add(
            Part::new(
                Joint::Tail1,
                Shape::Ball(1.0),
                Vec3::new(a * 0.3, -0.02 * i as f32, -0.18),
                Tint::Accent,
            )
            .rot(Quat::from_rotation_y(a) * Quat::from_rotation_x(-0.3))
            .scaled(Vec3::new(0.06, 0.025, 0.22)),
        );
    }
    k.back = (0..3)
        .map(|i| {
            (
                Joint::Spine,
                Vec3::new(0.0, body_r * 0.9, body_r * (0.4 - 0.4 * i as f32)),
                Vec3::new(0.0, 1.0, -0.5),
            )
        })
        .collect();
}

fn serpent(k: &mut Kit) {
    let b = k.b;
    let h = b.height;
    let r0 = 0.25 * b.bulk;
    let head_r = 0.24 * b.head;
    // The body coils back along the tail joints; the front rises.
    k.bone(Joint::Hips, Joint::Mover, Vec3::new(0.0, r0, 0.0));
    k.blob(
        Joint::Hips,
        Vec3::ZERO,
        Vec3::new(r0, r0 * 0.9, r0 * 1.3),
        Tint::Body,
    );
    let chain = [Joint::Tail1, Joint::Tail2, Joint::Tail3];
    let mut parent = Joint::Hips;
    for (i, j) in chain.into_iter().enumerate() {
        let r = r0 * (0.85 - 0.2 * i as f32);
        let x = if i % 2 == 0 { 0.18 } else { -0.18 };
        k.bone(j, parent, Vec3::new(x, -0.02 * i as f32, -r0 * 1.5));
        k.blob(
            j,
            Vec3::ZERO,
            Vec3::new(r, r * 0.85, r * 1.3),
            if i % 2 == 0 { Tint::Accent } else { Tint::Body },
        );
        parent = j;
    }
    k.add(
        Part::new(
            Joint::Tail3,
            Shape::Cone(r0 * 0.4, 0.4),
            Vec3::new(0.0, 0.0, -0.3),
            Tint::Accent,
        )
        .rot(Quat::from_rotation_x(-FRAC_PI_2)),
    );
    k.bone(Joint::Spine, Joint::Hips, Vec3::new(0.0, 0.0, r0 * 0.8));
    k.add(
        Part::new(
            Joint::Spine,
            Shape::Capsule(r0 * 0.9, 0.5 * h),
            Vec3::new(0.0, 0.25 * h, 0.1),
            Tint::Body,
        )
        .rot(Quat::from_rotation_x(0.3)),
    );
    k.add(
        Part::new(
            Joint::Spine,
            Shape::Ball(1.0),
            Vec3::new(0.0, 0.25 * h, r0 * 0.75),
            Tint::Belly,
        )
        .rot(Quat::from_rotation_x(0.3))
        .scaled(Vec3::new(r0 * 0.6, 0.4 * h, r0 * 0.3)),
    );
    k.bone(Joint::Chest, Joint::Spine, Vec3::new(0.0, 0.5 * h, 0.2));
    k.chest = (Vec3::ZERO, r0);
    k.bone(Joint::Neck, Joint::Chest, Vec3::new(0.0, 0.1, 0.05));
    k.limb_along(
        Joint::Neck,
        r0 * 0.8,
        0.2,
        Vec3::new(0.0, 1.0, 0.5),
        Tint::Body,
    );
    k.bone(Joint::Head, Joint::Neck, Vec3::new(0.0, 0.2, 0.12));
    let head = Vec3::new(0.0, head_r * 0.4, head_r * 0.5);
    k.head = (head, head_r);
    k.blob(
        Joint::Head,
        head,
        Vec3::new(head_r * 0.9, head_r * 0.8, head_r * 1.2),
        Tint::Body,
    );
    k.eyes(head + Vec3::new(0.0, head_r * 0.2, 0.0), head_r, 0.5);
    k.snout = Some(head + Vec3::new(0.0, -head_r * 0.1, head_r * 1.1));
    // Fins at the sides instead of arms.
    for (i, (s, a, f, hj)) in ARMS.into_iter().enumerate() {
        k.bone(a, Joint::Chest, Vec3::new(s * r0 * 0.9, -0.15, 0.0));
        k.add(
            Part::new(
                a,
                Shape::Ball(1.0),
                Vec3::new(s * 0.12, -0.05, -0.05),
                Tint::Accent,
            )
            .rot(Quat::from_rotation_z(s * 0.6))
            .scaled(Vec3::new(0.16, 0.03, 0.12)),
        );
        k.bone(f, a, Vec3::new(s * 0.2, -0.05, 0.0));
        k.bone(hj, f, Vec3::new(0.0, -0.05, 0.0));
        k.hands[i] = Some((hj, Vec3::ZERO));
        k.shoulders[i] = Some((a, Vec3::ZERO));
        k.forearms[i] = Some((f, Vec3::ZERO, 0.1));
    }
    k.wing_root = Vec3::new(0.0, 0.0, -r0 * 0.6);
    k.tail_root = None;
    k.back = (0..5)
        .map(|i| {
            let t = i as f32 / 4.0;
            (
                Joint::Spine,
                Vec3::new(0.0, 0.5 * h * (1.0 - t), -r0 * 0.7 + 0.1 * (1.0 - t)),
                Vec3::new(0.0, 0.3, -1.0),
            )
        })
        .collect();
}

fn insect(k: &mut Kit) {
    let b = k.b;
    let h = b.height;
    let r = 0.22 * b.bulk;
    let head_r = 0.17 * b.head;
    let leg = 0.4 * b.legs * h;
    // An upright insect (Kabuterimon stands): the thorax up, legs out.
    k.bone(Joint::Hips, Joint::Mover, Vec3::new(0.0, leg + 0.1, 0.0));
    k.add(
        Part::new(
            Joint::Hips,
            Shape::Ball(1.0),
            Vec3::new(0.0, 0.05, -r * 0.9),
            Tint::Accent,
        )
        .rot(Quat::from_rotation_x(-0.6))
        .scaled(Vec3::new(r * 1.0, r * 1.5, r * 1.0)),
    );
    k.bone(Joint::Spine, Joint::Hips, Vec3::ZERO);
    k.bone(Joint::Chest, Joint::Spine, Vec3::new(0.0, r * 1.2, 0.05));
    k.chest = (Vec3::ZERO, r);
    k.blob(
        Joint::Chest,
        Vec3::ZERO,
        Vec3::new(r * 1.05, r * 1.3, r * 0.9),
        Tint::Body,
    );
    k.add(
        Part::new(
            Joint::Chest,
            Shape::Ball(1.0),
            Vec3::new(0.0, -0.02, r * 0.45),
            Tint::Belly,
        )
        .scaled(Vec3::new(r * 0.7, r * 1.0, r * 0.5)),
    );
    let legs = [
        (
            1.0,
            Joint::ArmL,
            Joint::ForearmL,
            Joint::Chest,
            0.25,
            Some(0),
        ),
        (
            -1.0,
            Joint::ArmR,
            Joint::ForearmR,
            Joint::Chest,
            0.25,
            Some(1),
        ),
        (1.0, Joint::MidL, Joint::MidL, Joint::Chest, -0.15, None),
        (-1.0, Joint::MidR, Joint::MidR, Joint::Chest, -0.15, None),
        (1.0, Joint::ThighL, Joint::ShinL, Joint::Hips, 0.0, None),
        (-1.0, Joint::ThighR, Joint::ShinR, Joint::Hips, 0.0, None),
    ];
    for (s, upper, lower, parent, y, hand) in legs {
        let base = Vec3::new(s * r * 0.85, y * r, 0.0);
        k.bone(upper, parent, base);
        if upper == lower {
            // A middle leg: one bent segment.
            k.limb_along(
                upper,
                0.03 * b.bulk,
                leg * 0.6,
                Vec3::new(s * 1.0, -0.6, 0.1),
                Tint::Accent,
            );
            continue;
        }
        let out = if parent == Joint::Hips {
            Vec3::new(s * 0.4, -1.0, 0.0)
        } else {
            Vec3::new(s * 0.5, -1.0, 0.4)
        };
        k.limb_along(upper, 0.04 * b.bulk, leg * 0.45, out, Tint::Accent);
        let knee = out.normalize() * leg * 0.45;
        k.bone(lower, upper, knee);
        k.limb_along(
            lower,
            0.035 * b.bulk,
            leg * 0.5,
            Vec3::new(0.0, -1.0, 0.15),
            Tint::Accent,
        );
        let tip = Vec3::new(0.0, -leg * 0.5, 0.07);
        k.blob(lower, tip, Vec3::splat(0.05), Tint::Accent);
        match hand {
            Some(i) => {
                k.hands[i] = Some((lower, tip));
                k.shoulders[i] = Some((upper, Vec3::ZERO));
                k.forearms[i] = Some((lower, Vec3::new(0.0, -leg * 0.25, 0.0), leg * 0.5));
            }
            None => {
                k.feet.push((lower, tip));
                k.shins
                    .push((lower, Vec3::new(0.0, -leg * 0.25, 0.0), leg * 0.5));
            }
        }
    }
    k.bone(Joint::Neck, Joint::Chest, Vec3::new(0.0, r * 1.2, 0.05));
    k.bone(Joint::Head, Joint::Neck, Vec3::new(0.0, 0.02, 0.04));
    let head = Vec3::new(0.0, head_r * 0.7, head_r * 0.4);
    k.head = (head, head_r);
    k.blob(
        Joint::Head,
        head,
        Vec3::new(head_r * 1.1, head_r, head_r),
        Tint::Body,
    );
    // Big compound eyes.
    for s in [-1.0, 1.0] {
        k.add(
            Part::new(
                Joint::Head,
                Shape::Ball(head_r * 0.42),
                head + Vec3::new(s * head_r * 0.6, head_r * 0.2, head_r * 0.55),
                Tint::Eye,
            )
            .scaled(Vec3::new(0.8, 1.0, 0.8)),
        );
    }
    // Antennae.
    for s in [-1.0, 1.0] {
        k.add(
            Part::new(
                Joint::Head,
                Shape::Capsule(0.015, 0.3),
                head + Vec3::new(s * head_r * 0.4, head_r + 0.12, head_r * 0.3),
                Tint::Accent,
            )
            .rot(Quat::from_rotation_z(-s * 0.4) * Quat::from_rotation_x(0.4)),
        );
    }
    k.wing_root = Vec3::new(0.0, r * 0.3, -r * 0.7);
    k.tail_root = Some((Joint::Hips, Vec3::new(0.0, -0.1, -r * 1.8)));
    k.back = (0..3)
        .map(|i| {
            (
                Joint::Chest,
                Vec3::new(0.0, r * (0.9 - 0.6 * i as f32), -r * 0.8),
                Vec3::new(0.0, 0.4, -1.0),
            )
        })
        .collect();
}

fn blob(k: &mut Kit) {
    let b = k.b;
    let h = b.height;
    let r = 0.38 * b.bulk * h;
    k.bone(Joint::Hips, Joint::Mover, Vec3::new(0.0, r + 0.04, 0.0));
    k.bone(Joint::Spine, Joint::Hips, Vec3::ZERO);
    k.blob(
        Joint::Spine,
        Vec3::ZERO,
        Vec3::new(r, r * 0.95, r),
        Tint::Body,
    );
    k.add(
        Part::new(
            Joint::Spine,
            Shape::Ball(1.0),
            Vec3::new(0.0, -r * 0.2, r * 0.45),
            Tint::Belly,
        )
        .scaled(Vec3::new(r * 0.7, r * 0.6, r * 0.6)),
    );
    k.bone(Joint::Chest, Joint::Spine, Vec3::new(0.0, r * 0.2, 0.0));
    k.chest = (Vec3::ZERO, r);
    // The head is the top of the body: the eyes sit on it.
    k.bone(Joint::Neck, Joint::Chest, Vec3::new(0.0, r * 0.1, 0.0));
    k.bone(Joint::Head, Joint::Neck, Vec3::ZERO);
    let head = Vec3::new(0.0, 0.0, 0.0);
    k.head = (head, r * 0.85);
    k.eyes(head + Vec3::new(0.0, r * 0.05, r * 0.05), r, 0.35);
    let arm = 0.3 * b.arms;
    for (i, (s, a, f, hj)) in ARMS.into_iter().enumerate() {
        k.bone(a, Joint::Chest, Vec3::new(s * r * 0.9, -r * 0.2, 0.05));
        k.limb_along(
            a,
            0.06 * b.bulk,
            arm * 0.5,
            Vec3::new(s * 0.6, -1.0, 0.2),
            Tint::Body,
        );
        k.bone(f, a, Vec3::new(s * arm * 0.25, -arm * 0.45, 0.05));
        k.bone(hj, f, Vec3::ZERO);
        k.blob(hj, Vec3::ZERO, Vec3::splat(0.07 * b.bulk), Tint::Accent);
        k.hands[i] = Some((hj, Vec3::ZERO));
        k.shoulders[i] = Some((a, Vec3::ZERO));
        k.forearms[i] = Some((f, Vec3::ZERO, 0.1));
    }
    for (s, thigh) in [(1.0, Joint::ThighL), (-1.0, Joint::ThighR)] {
        k.bone(thigh, Joint::Hips, Vec3::new(s * r * 0.45, -r * 0.8, 0.05));
        let foot = Vec3::new(0.0, -0.02, 0.05);
        k.blob(
            thigh,
            foot,
            Vec3::new(0.1, 0.06, 0.14) * b.bulk,
            Tint::Accent,
        );
        k.feet.push((thigh, foot));
    }
    k.wing_root = Vec3::new(0.0, 0.0, -r * 0.8);
    k.tail_root = Some((Joint::Hips, Vec3::new(0.0, -r * 0.5, -r * 0.85)));
    k.back = (0..4)
        .map(|i| {
            let a = -0.6 + 0.4 * i as f32;
            (
                Joint::Spine,
                Vec3::new(0.0, r * a.cos() * 0.9, -r * 0.1)
                    + Vec3::new(0.0, 0.0, -r * a.sin().abs()),
                Vec3::new(0.0, a.cos(), -0.6),
            )
        })
        .collect();
}

/// Adds one signature part.
fn feature(k: &mut Kit, f: &Feature, plan: Plan) {
    let (head, head_r) = k.head;
    match f {
        Feature::Horns { count, length, at } => {
            let n = *count as usize;
            for i in 0..n {
                let s = if n == 1 {
                    0.0
                } else {
                    i as f32 / (n - 1) as f32 * 2.0 - 1.0
                };
                let (pos, dir) = match at {
                    HornAt::Head => (
                        head + Vec3::new(s * head_r * 0.45, head_r * 0.8, -head_r * 0.1),
                        Vec3::new(s * 0.35, 1.0, -0.25),
                    ),
                    HornAt::Nose => {
                        let tip = k.snout.unwrap_or(head + Vec3::Z * head_r);
                        (
                            tip + Vec3::new(
                                s * 0.06,
                                head_r * 0.25,
                                -head_r * 0.1 - 0.05 * i as f32,
                            ),
                            Vec3::new(0.0, 1.0, 0.6),
                        )
                    }
                    HornAt::Sides => (
                        head + Vec3::new(
                            if s == 0.0 { 0.0 } else { s.signum() } * head_r * 0.8,
                            head_r * 0.4,
                            -head_r * 0.2,
                        ),
                        Vec3::new(s.signum() * 0.8, 0.6, -0.6),
                    ),
                };
                let dir = dir.normalize();
                k.add(
                    Part::new(
                        Joint::Head,
                        Shape::Cone(head_r * 0.16 + length * 0.08, *length),
                        pos + dir * length * 0.45,
                        Tint::Detail,
                    )
                    .rot(Quat::from_rotation_arc(Vec3::Y, dir)),
                );
            }
        }
        Feature::Wings { kind, span, pairs } => {
            let root = k.wing_root;
            for pair in 0..*pairs {
                let lift = pair as f32 * 0.14;
                let tilt = 0.35 - pair as f32 * 0.35;
                for (s, joint) in [(1.0, Joint::WingL), (-1.0, Joint::WingR)] {
                    if pair == 0 {
                        k.bone(joint, Joint::Chest, root + Vec3::new(s * 0.1, 0.0, 0.0));
                    }
                    let base = Vec3::new(0.0, -lift, -0.03 * pair as f32);
                    let dir = Vec3::new(s, tilt + 0.25, -0.35).normalize();
                    let rot = Quat::from_rotation_arc(Vec3::X * s, dir);
                    match kind {
                        WingKind::Feather => {
                            for (i, len) in [1.0f32, 0.85, 0.65].into_iter().enumerate() {
                                let fan = Quat::from_rotation_z(-s * 0.3 * i as f32);
                                let d = fan * dir;
                                k.add(
                                    Part::new(
                                        joint,
                                        Shape::Ball(1.0),
                                        base + d * span * len * 0.5 - Vec3::Y * 0.04 * i as f32,
                                        if i == 0 { Tint::Accent } else { Tint::Body },
                                    )
                                    .rot(fan * rot)
                                    .scaled(Vec3::new(
                                        span * len * 0.5,
                                        0.1,
                                        0.025,
                                    )),
                                );
                            }
                        }
                        WingKind::Bat => {
                            k.add(
                                Part::new(
                                    joint,
                                    Shape::Capsule(0.03, span * 0.9),
                                    base + dir * span * 0.5,
                                    Tint::Body,
                                )
                                .rot(Quat::from_rotation_arc(Vec3::Y, dir)),
                            );
                            k.add(
                                Part::new(
                                    joint,
                                    Shape::Ball(1.0),
                                    base + dir * span * 0.45 - Vec3::Y * span * 0.22,
                                    Tint::Accent,
                                )
                                .rot(rot)
                                .scaled(Vec3::new(
                                    span * 0.5,
                                    span * 0.3,
                                    0.02,
                                )),
                            );
                            k.add(
                                Part::new(
                                    joint,
                                    Shape::Cone(0.04, 0.12),
                                    base + dir * span * 1.0,
                                    Tint::Detail,
                                )
                                .rot(Quat::from_rotation_arc(Vec3::Y, dir)),
                            );
                        }
                        WingKind::Insect => {
                            for (i, d) in [0.0f32, -0.45].into_iter().enumerate() {
                                let q = Quat::from_rotation_z(s * d) * rot;
                                k.add(
                                    Part::new(
                                        joint,
                                        Shape::Ball(1.0),
                                        base + (Quat::from_rotation_z(s * d) * dir) * span * 0.5,
                                        if i == 0 { Tint::Accent } else { Tint::Belly },
                                    )
                                    .rot(q)
                                    .scaled(Vec3::new(
                                        span * 0.5,
                                        0.12,
                                        0.01,
                                    )),
                                );
                            }
                        }
                        WingKind::Mech => {
                            k.add(
                                Part::new(
                                    joint,
                                    Shape::Block(Vec3::new(*span, 0.08, 0.3)),
                                    base + dir * span * 0.5,
                                    Tint::Detail,
                                )
                                .rot(rot),
                            );
                            k.add(
                                Part::new(
                                    joint,
                                    Shape::Cylinder(0.07, 0.25),
                                    base + dir * span * 0.2 - Vec3::Z * 0.15,
                                    Tint::Accent,
                                )
                                .rot(Quat::from_rotation_x(FRAC_PI_2)),
                            );
                        }
                    }
                }
            }
        }
        Feature::Tail {
            length,
            thickness,
            tip,
        } => {
            let Some((parent, at)) = k.tail_root else {
                return;
            };
            let seg = length / 3.0;
            let chain = [Joint::Tail1, Joint::Tail2, Joint::Tail3];
            let has = |k: &Kit, j: Joint| k.bones.iter().any(|b| b.joint == j);
            let mut prev = parent;
            let dir = Vec3::new(0.0, -0.35, -1.0).normalize();
            for (i, j) in chain.into_iter().enumerate() {
                let r = thickness * (1.0 - 0.28 * i as f32);
                if !has(k, j) {
                    let from = if i == 0 { at } else { dir * seg };
                    k.bone(j, prev, from);
                }
                let d = if i == 0 {
                    dir
                } else {
                    Vec3::new(0.0, -0.1, -1.0).normalize()
                };
                let shape = if k.machine {
                    Shape::Block(Vec3::new(r * 2.0, seg + r, r * 2.0))
                } else {
                    Shape::Capsule(r, seg.max(0.02))
                };
                k.add(
                    Part::new(j, shape, d * seg * 0.5, Tint::Body)
                        .rot(Quat::from_rotation_arc(Vec3::Y, d)),
                );
                prev = j;
            }
            let end = Vec3::new(0.0, -0.03, -seg);
            let back = Quat::from_rotation_x(-FRAC_PI_2);
            let tip_part = match tip {
                TailTip::Plain => None,
                TailTip::Spike => Some(
                    Part::new(
                        Joint::Tail3,
                        Shape::Cone(thickness * 0.6, 0.25),
                        end - Vec3::Z * 0.1,
                        Tint::Detail,
                    )
                    .rot(back),
                ),
                TailTip::Fin => Some(
                    Part::new(
                        Joint::Tail3,
                        Shape::Ball(1.0),
                        end - Vec3::Z * 0.1,
                        Tint::Accent,
                    )
                    .scaled(Vec3::new(0.03, thickness * 2.0, 0.2)),
                ),
                TailTip::Flame => Some(
                    Part::new(
                        Joint::Tail3,
                        Shape::Cone(thickness * 0.9, 0.3),
                        end + Vec3::Y * 0.1,
                        Tint::Detail,
                    )
                    .finish(Finish::Glow),
                ),
                TailTip::Club => Some(Part::new(
                    Joint::Tail3,
                    Shape::Ball(thickness * 1.3),
                    end,
                    Tint::Detail,
                )),
            };
            if let Some(p) = tip_part {
                k.add(p);
            }
        }
        Feature::Armour { on, tint } => {
            for plate in on {
                match plate {
                    Plate::Helmet => k.add(
                        Part::new(
                            Joint::Head,
                            Shape::Ball(1.0),
                            head + Vec3::new(0.0, head_r * 0.3, -head_r * 0.08),
                            *tint,
                        )
                        .scaled(Vec3::new(head_r * 1.08, head_r * 0.8, head_r * 1.08))
                        .finish(Finish::Metal),
                    ),
                    Plate::Chest => {
                        let (c, w) = k.chest;
                        k.add(
                            Part::new(
                                Joint::Chest,
                                Shape::Ball(1.0),
                                c + Vec3::new(0.0, 0.02, w * 0.45),
                                *tint,
                            )
                            .scaled(Vec3::new(w * 0.95, w * 0.75, w * 0.55))
                            .finish(Finish::Metal),
                        );
                    }
                    Plate::Shoulders => {
                        for (s, sh) in k.shoulders.into_iter().flatten().enumerate() {
                            let side = if s == 0 { 1.0 } else { -1.0 };
                            k.add(
                                Part::new(
                                    sh.0,
                                    Shape::Ball(1.0),
                                    sh.1 + Vec3::new(side * 0.03, 0.04, 0.0),
                                    *tint,
                                )
                                .scaled(Vec3::new(0.16, 0.1, 0.15) * k.b.bulk)
                                .finish(Finish::Metal),
                            );
                        }
                    }
                    Plate::Arms => {
                        for (j, at, len) in k.forearms.into_iter().flatten() {
                            k.add(
                                Part::new(
                                    j,
                                    Shape::Capsule(0.095 * k.b.bulk, len * 0.6),
                                    at,
                                    *tint,
                                )
                                .finish(Finish::Metal),
                            );
                        }
                    }
                    Plate::Legs => {
                        for (j, at, len) in k.shins.clone() {
                            k.add(
                                Part::new(j, Shape::Capsule(0.1 * k.b.bulk, len * 0.6), at, *tint)
                                    .finish(Finish::Metal),
                            );
                        }
                    }
                }
            }
        }
        Feature::Weapon { kind, hand, size } => {
            let i = if *hand == Hand::Left { 0 } else { 1 };
            let s = if i == 0 { 1.0 } else { -1.0 };
            let Some((joint, at)) = k.hands[i] else {
                return;
            };
            let z = *size;
            match kind {
                WeaponKind::Sword => {
                    k.add(
                        Part::new(
                            joint,
                            Shape::Block(Vec3::new(0.05, 0.8 * z, 0.12)),
                            at + Vec3::new(0.0, -0.05, 0.4 * z),
                            Tint::Detail,
                        )
                        .rot(Quat::from_rotation_x(FRAC_PI_2)),
                    );
                    k.add(Part::new(
                        joint,
                        Shape::Block(Vec3::new(0.22, 0.05, 0.05)),
                        at + Vec3::new(0.0, -0.05, 0.02),
                        Tint::Accent,
                    ));
                }
                WeaponKind::Lance => {
                    k.add(
                        Part::new(
                            joint,
                            Shape::Cone(0.1 * z, 1.1 * z),
                            at + Vec3::new(0.0, 0.0, 0.5 * z),
                            Tint::Detail,
                        )
                        .rot(Quat::from_rotation_x(FRAC_PI_2)),
                    );
                    k.add(
                        Part::new(joint, Shape::Cylinder(0.14 * z, 0.05), at, Tint::Accent)
                            .rot(Quat::from_rotation_x(FRAC_PI_2)),
                    );
                }
                WeaponKind::Hammer => {
                    k.add(
                        Part::new(
                            joint,
                            Shape::Cylinder(0.03, 0.6 * z),
                            at + Vec3::new(0.0, 0.0, 0.2 * z),
                            Tint::Accent,
                        )
                        .rot(Quat::from_rotation_x(FRAC_PI_2)),
                    );
                    k.add(Part::new(
                        joint,
                        Shape::Block(Vec3::new(0.35, 0.2, 0.2) * z),
                        at + Vec3::new(0.0, 0.0, 0.5 * z),
                        Tint::Detail,
                    ));
                }
                WeaponKind::Axe => {
                    k.add(
                        Part::new(
                            joint,
                            Shape::Cylinder(0.03, 0.6 * z),
                            at + Vec3::new(0.0, 0.0, 0.2 * z),
                            Tint::Accent,
                        )
                        .rot(Quat::from_rotation_x(FRAC_PI_2)),
                    );
                    k.add(
                        Part::new(
                            joint,
                            Shape::Ball(1.0),
                            at + Vec3::new(0.0, 0.12 * z, 0.45 * z),
                            Tint::Detail,
                        )
                        .scaled(Vec3::new(0.03, 0.18, 0.12) * z),
                    );
                }
                WeaponKind::Shield => {
                    let (fj, fat, _) = k.forearms[i].unwrap_or((joint, at, 0.1));
                    k.add(
                        Part::new(
                            fj,
                            Shape::Cylinder(0.28 * z, 0.05),
                            fat + Vec3::new(s * 0.09, 0.0, 0.04),
                            Tint::Detail,
                        )
                        .rot(Quat::from_rotation_z(FRAC_PI_2)),
                    );
                }
                WeaponKind::Cannon => {
                    let (fj, fat, len) = k.forearms[i].unwrap_or((joint, at, 0.2));
                    k.add(Part::new(
                        fj,
                        Shape::Cylinder(0.1 * z, len * 1.3),
                        fat + Vec3::new(0.0, -len * 0.3, 0.0),
                        Tint::Detail,
                    ));
                    k.add(Part::new(
                        fj,
                        Shape::Torus(0.02, 0.1 * z),
                        fat + Vec3::new(0.0, -len * 0.95, 0.0),
                        Tint::Accent,
                    ));
                }
                WeaponKind::Staff => {
                    k.add(Part::new(
                        joint,
                        Shape::Cylinder(0.025, 1.2 * z),
                        at + Vec3::new(0.0, 0.1 * z, 0.03),
                        Tint::Accent,
                    ));
                    k.add(
                        Part::new(
                            joint,
                            Shape::Ball(0.08 * z),
                            at + Vec3::new(0.0, 0.72 * z, 0.03),
                            Tint::Detail,
                        )
                        .finish(Finish::Glow),
                    );
                }
                WeaponKind::Claw => {
                    for c in [-1.0, 0.0, 1.0] {
                        k.add(
                            Part::new(
                                joint,
                                Shape::Cone(0.03 * z, 0.35 * z),
                                at + Vec3::new(c * 0.05, -0.15 * z, 0.04),
                                Tint::Detail,
                            )
                            .rot(Quat::from_rotation_x(PI)),
                        );
                    }
                }
            }
        }
        Feature::Claws { on, length } => {
            let mut places: Vec<(Joint, Vec3, Vec3)> = Vec::new();
            if matches!(on, Limbs::Hands | Limbs::All) {
                for (j, at) in k.hands.into_iter().flatten() {
                    places.push((j, at, Vec3::new(0.0, -0.4, 1.0)));
                }
            }
            if matches!(on, Limbs::Feet | Limbs::All) {
                for (j, at) in k.feet.clone() {
                    places.push((j, at + Vec3::new(0.0, 0.0, 0.08), Vec3::new(0.0, -0.2, 1.0)));
                }
            }
            for (j, at, dir) in places {
                let dir = dir.normalize();
                for c in [-1.0, 0.0, 1.0] {
                    k.add(
                        Part::new(
                            j,
                            Shape::Cone(0.025, *length),
                            at + Vec3::new(c * 0.04, 0.0, 0.0) + dir * length * 0.5,
                            Tint::Detail,
                        )
                        .rot(Quat::from_rotation_arc(Vec3::Y, dir)),
                    );
                }
            }
        }
        Feature::Spikes { at, count } => {
            let n = *count as usize;
            match at {
                SpikesAt::Back => {
                    let back = k.back.clone();
                    for i in 0..n {
                        let Some(&(j, pos, dir)) = back.get(i * back.len().max(1) / n.max(1))
                        else {
                            continue;
                        };
                        let dir = dir.normalize();
                        k.add(
                            Part::new(j, Shape::Cone(0.05, 0.2), pos + dir * 0.08, Tint::Detail)
                                .rot(Quat::from_rotation_arc(Vec3::Y, dir)),
                        );
                    }
                }
                SpikesAt::Shoulders => {
                    for (s, sh) in k.shoulders.into_iter().flatten().enumerate() {
                        let side = if s == 0 { 1.0 } else { -1.0 };
                        for i in 0..n.min(3) {
                            let dir = Vec3::new(side * 0.6, 1.0, -0.2 * i as f32).normalize();
                            k.add(
                                Part::new(
                                    sh.0,
                                    Shape::Cone(0.04, 0.18),
                                    sh.1 + dir * 0.1 + Vec3::Z * (0.05 - 0.06 * i as f32),
                                    Tint::Detail,
                                )
                                .rot(Quat::from_rotation_arc(Vec3::Y, dir)),
                            );
                        }
                    }
                }
                SpikesAt::Head => {
                    for i in 0..n {
                        let t = if n == 1 {
                            0.5
                        } else {
                            i as f32 / (n - 1) as f32
                        };
                        let a = -0.6 + 1.4 * t;
                        let dir = Vec3::new(0.0, a.cos(), -a.sin()).normalize();
                        k.add(
                            Part::new(
                                Joint::Head,
                                Shape::Cone(0.04, 0.16),
                                head + dir * head_r * 1.0,
                                Tint::Accent,
                            )
                            .rot(Quat::from_rotation_arc(Vec3::Y, dir)),
                        );
                    }
                }
            }
        }
        Feature::Ears { kind, size } => {
            for s in [-1.0, 1.0] {
                let base = head + Vec3::new(s * head_r * 0.55, head_r * 0.7, -head_r * 0.1);
                let z = *size;
                let p = match kind {
                    EarKind::Pointed => {
                        let dir = Vec3::new(s * 0.35, 1.0, -0.1).normalize();
                        Part::new(
                            Joint::Head,
                            Shape::Cone(head_r * 0.28 * z, head_r * 0.7 * z),
                            base + dir * head_r * 0.3 * z,
                            Tint::Body,
                        )
                        .rot(Quat::from_rotation_arc(Vec3::Y, dir))
                    }
                    EarKind::Long => {
                        let dir = Vec3::new(s * 0.9, 0.5, -0.3).normalize();
                        Part::new(
                            Joint::Head,
                            Shape::Ball(1.0),
                            base + dir * head_r * 0.7 * z,
                            Tint::Body,
                        )
                        .rot(Quat::from_rotation_arc(Vec3::X, dir))
                        .scaled(Vec3::new(
                            head_r * 0.8 * z,
                            head_r * 0.2 * z,
                            head_r * 0.3 * z,
                        ))
                    }
                    EarKind::Round => Part::new(Joint::Head, Shape::Ball(1.0), base, Tint::Accent)
                        .scaled(Vec3::new(0.5, 0.5, 0.2) * head_r * 0.6 * z),
                    EarKind::Fins => {
                        let side = head + Vec3::new(s * head_r * 0.95, head_r * 0.1, -head_r * 0.2);
                        Part::new(Joint::Head, Shape::Ball(1.0), side, Tint::Accent)
                            .rot(Quat::from_rotation_z(s * 0.5))
                            .scaled(Vec3::new(0.02, head_r * 0.5 * z, head_r * 0.45 * z))
                    }
                };
                k.add(p);
            }
        }
        Feature::Snout { length } => {
            let front = head + Vec3::new(0.0, -head_r * 0.3, head_r * 0.65);
            if plan == Plan::Flyer {
                k.add(
                    Part::new(
                        Joint::Head,
                        Shape::Cone(head_r * 0.35, *length),
                        front + Vec3::Z * length * 0.5,
                        Tint::Detail,
                    )
                    .rot(Quat::from_rotation_x(FRAC_PI_2)),
                );
                k.snout = Some(front + Vec3::Z * *length);
            } else {
                k.add(
                    Part::new(
                        Joint::Head,
                        Shape::Ball(1.0),
                        front + Vec3::Z * length * 0.45,
                        Tint::Belly,
                    )
                    .scaled(Vec3::new(
                        head_r * 0.62,
                        head_r * 0.45,
                        head_r * 0.35 + length * 0.5,
                    )),
                );
                k.snout = Some(front + Vec3::Z * (*length + head_r * 0.2));
            }
        }
        Feature::Halo => k.add(
            Part::new(
                Joint::Head,
                Shape::Torus(0.02, head_r * 0.75),
                head + Vec3::Y * head_r * 1.45,
                Tint::Eye,
            )
            .finish(Finish::Glow),
        ),
        Feature::Mane { tint } => {
            for i in 0..5 {
                let a = -1.0 + 0.5 * i as f32;
                let at = head
                    + Vec3::new(
                        a * head_r * 0.7,
                        head_r * 0.55,
                        -head_r * (0.55 + 0.1 * (1.0 - a.abs())),
                    );
                k.add(
                    Part::new(Joint::Head, Shape::Ball(1.0), at, *tint)
                        .rot(Quat::from_rotation_x(0.5))
                        .scaled(Vec3::new(head_r * 0.35, head_r * 0.6, head_r * 0.45)),
                );
            }
        }
        Feature::Pelt { tint, stripes } => {
            // The hood: a shell over the top and back of the head, a little
            // bigger than it, so the face stays bare in front.
            // It covers the crown and the forehead, and stops behind the
            // eyes.
            let hood = head + Vec3::new(0.0, head_r * 0.35, -head_r * 0.25);
            let hood_r = Vec3::new(head_r * 1.12, head_r * 0.9, head_r * 1.05);
            k.add(Part::new(Joint::Head, Shape::Ball(1.0), hood, *tint).scaled(hood_r));
            // Stripes on the hood, over the forehead, the crown's sides
            // and the back: flat patches lying on its surface.
            for out in [
                Vec3::new(0.0, 0.9, 0.45),
                Vec3::new(-0.75, 0.55, 0.2),
                Vec3::new(0.75, 0.55, 0.2),
                Vec3::new(-0.6, 0.3, -0.75),
                Vec3::new(0.6, 0.3, -0.75),
            ] {
                let out = out.normalize();
                k.add(
                    Part::new(
                        Joint::Head,
                        Shape::Ball(1.0),
                        hood + out * hood_r * 0.98,
                        *stripes,
                    )
                    .rot(Quat::from_rotation_arc(Vec3::Z, out))
                    .scaled(Vec3::new(
                        head_r * 0.12,
                        head_r * 0.55,
                        head_r * 0.05,
                    )),
                );
            }
            // Sleeves over the upper arms, a stripe round each.
            for (shoulder, forearm) in k.shoulders.into_iter().zip(k.forearms) {
                let (Some((arm, top)), Some((_, _, len))) = (shoulder, forearm) else {
                    continue;
                };
                // Over the shoulder's ball (its top is half a limb's radius
                // up, on a biped).
                let r = (top.y * 2.0 * 1.5).max(len * 0.38);
                k.add(
                    Part::new(
                        arm,
                        Shape::Ball(1.0),
                        Vec3::new(0.0, -len * 0.45, 0.0),
                        *tint,
                    )
                    .scaled(Vec3::new(r, len * 0.8, r)),
                );
                k.add(
                    Part::new(
                        arm,
                        Shape::Ball(1.0),
                        Vec3::new(0.0, -len * 0.7, 0.0),
                        *stripes,
                    )
                    .scaled(Vec3::new(r * 0.93, len * 0.1, r * 0.93)),
                );
            }
            // The hide down the back, from the shoulders past the hips, wide
            // enough to be seen at the sides, with two stripes across it.
            let (c, w) = k.chest;
            let hide = c + Vec3::new(0.0, -0.12 * k.b.height, -w * 0.5);
            let hide_r = Vec3::new(w * 1.3, 0.62 * k.b.height, w * 0.7);
            k.add(
                Part::new(Joint::Chest, Shape::Ball(1.0), hide, *tint)
                    .rot(Quat::from_rotation_x(-0.12))
                    .scaled(hide_r),
            );
            for y in [0.25f32, -0.2] {
                let at = hide + Vec3::new(0.0, y * hide_r.y, -hide_r.z * 0.92);
                k.add(
                    Part::new(Joint::Chest, Shape::Ball(1.0), at, *stripes)
                        .rot(Quat::from_rotation_x(-0.12))
                        .scaled(Vec3::new(hide_r.x * 0.7, hide_r.y * 0.1, hide_r.z * 0.2)),
                );
            }
        }
        Feature::Cape { tint } => {
            let (c, w) = k.chest;
            k.add(
                Part::new(
                    Joint::Chest,
                    Shape::Ball(1.0),
                    c + Vec3::new(0.0, -0.15, -w * 0.95),
                    *tint,
                )
                .rot(Quat::from_rotation_x(-0.15))
                .scaled(Vec3::new(w * 1.3, 0.55 * k.b.height, 0.04)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, CardSet, Figures};

    fn digimon() -> Vec<Digimon> {
        CardSet::embedded()
            .cards()
            .iter()
            .filter_map(Card::as_digimon)
            .cloned()
            .collect()
    }

    fn rig_of(d: &Digimon) -> Rig {
        build(
            &Figures::embedded()
                .get(&d.number)
                .cloned()
                .unwrap_or_else(|| derive(d)),
        )
    }

    #[test]
    fn every_card_gets_its_own_figure() {
        let all = digimon();
        let rigs: Vec<Rig> = all.iter().map(rig_of).collect();
        for (d, r) in all.iter().zip(&rigs) {
            assert!(
                r.parts.len() >= 8,
                "{} has only {} parts",
                d.name,
                r.parts.len()
            );
            assert!(
                r.parts.iter().any(|p| p.tint == Tint::Eye),
                "{} has no eyes",
                d.name
            );
            for p in &r.parts {
                assert!(
                    r.bones.iter().any(|b| b.joint == p.joint),
                    "{}: a part on {:?}, a joint it lacks",
                    d.name,
                    p.joint
                );
            }
            let (c, radius) = r.bounds();
            assert!(
                c.is_finite() && radius > 0.3 && radius < 3.5,
                "{}: {c} {radius}",
                d.name
            );
        }
        for i in 0..all.len() {
            for k in i + 1..all.len() {
                assert_ne!(
                    rigs[i], rigs[k],
                    "{} and {} look alike",
                    all[i].name, all[k].name
                );
            }
        }
        // Cards with no data of their own (a card file of one's own):
        // every shipped Digimon's derived figure differs from every other's.
        let derived: Vec<Rig> = all.iter().map(|d| build(&derive(d))).collect();
        for i in 0..all.len() {
            for k in i + 1..all.len() {
                let (a, b) = (&derived[i], &derived[k]);
                let differs = a.plan != b.plan
                    || a.palette != b.palette
                    || a.parts.len() != b.parts.len()
                    || a.parts
                        .iter()
                        .zip(&b.parts)
                        .any(|(p, q)| p.shape != q.shape || (p.at - q.at).length() > 0.01);
                assert!(differs, "{} and {} look alike", all[i].name, all[k].name);
            }
        }
    }

    #[test]
    fn parents_come_before_their_children() {
        for d in digimon() {
            let r = rig_of(&d);
            for (i, b) in r.bones.iter().enumerate() {
                if let Some(p) = b.parent {
                    assert!(
                        r.bones[..i].iter().any(|x| x.joint == p),
                        "{}: {:?} before its parent {p:?}",
                        d.name,
                        b.joint
                    );
                }
                assert_eq!(
                    r.bones.iter().filter(|x| x.joint == b.joint).count(),
                    1,
                    "{}: {:?} twice",
                    d.name,
                    b.joint
                );
            }
        }
    }

    #[test]
    fn the_bounds_hold_every_pose() {
        for d in digimon() {
            let r = rig_of(&d);
            let (c, radius) = r.bounds();
            for m in Move::ALL {
                let (tracks, offsets) = m.keys();
                for step in 0..=20 {
                    let t = m.seconds() * step as f32 / 20.0;
                    let rot = |j: Joint| {
                        tracks
                            .iter()
                            .find(|(tj, _)| *tj == j)
                            .map_or(Quat::IDENTITY, |(_, k)| sample_rot(k, t))
                    };
                    for (p, pr) in r.posed(rot, sample_offset(&offsets, t)) {
                        assert!(
                            (p - c).length() + pr <= radius + 1e-3,
                            "{} {m:?} at {t}: a part leaves the bounds",
                            d.name
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_card_without_data_gets_a_figure_from_its_type() {
        let mut d = digimon()[0].clone();
        d.kind = "Holy Knight".into();
        let spec = derive(&d);
        assert_eq!(spec.plan, Plan::Biped);
        assert!(
            spec.parts
                .iter()
                .any(|p| matches!(p, Feature::Weapon { .. }))
        );
        assert!(spec.check().is_ok());
        d.kind = "Giant Bird".into();
        let spec = derive(&d);
        assert_eq!(spec.plan, Plan::Flyer);
        assert!(
            spec.parts
                .iter()
                .any(|p| matches!(p, Feature::Wings { .. }))
        );
    }

    #[test]
    fn agumon_stands_on_two_legs_and_greymon_has_horns() {
        let cards = CardSet::embedded();
        let agumon = cards
            .resolve("Agumon")
            .unwrap()
            .as_digimon()
            .unwrap()
            .clone();
        let greymon = cards
            .resolve("Greymon")
            .unwrap()
            .as_digimon()
            .unwrap()
            .clone();
        let a = rig_of(&agumon);
        assert!(matches!(a.plan, Plan::Raptor | Plan::Biped), "{:?}", a.plan);
        assert!(a.bones.iter().any(|b| b.joint == Joint::ThighL));
        let g = Figures::embedded().get(&greymon.number).unwrap();
        assert!(g.parts.iter().any(|p| matches!(p, Feature::Horns { .. })));
    }
}
