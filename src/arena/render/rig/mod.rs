//! A figure's skeleton and parts, built from its card's figure data
//! ([`crate::cards::figure`]) or, for a card with none, from data derived
//! from its type, Field and attribute; and the moves the skeleton plays
//! (idle, attacks, hit, block, digivolve, deletion) as keyframes. Plain
//! geometry: the arena turns a [`Rig`] into entities and the moves into
//! Bevy animation clips, and the framing test reads the same data without
//! a window.

use bevy::math::{Quat, Vec3};

use crate::cards::figure::{
    Build, Colours, Feature, FigureSpec, Hand, HornAt, Limbs, Plan, Plate, Rgb, TailTip, Tint,
    WeaponKind, WingKind,
};
use crate::cards::{Attribute, Digimon, Field};
use crate::fingerprint::fnv1a;

mod body;
mod expr;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize)]
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

/// Builds a figure from its data, laid out by the body files
/// (`assets/bodies/`, read by [`body`]).
pub fn build(spec: &FigureSpec) -> Rig {
    let bodies = body::Bodies::embedded();
    let mut k = Kit::new(bodies.blocks(spec.plan));
    if let Err(e) = bodies.lay_out(spec, &mut k) {
        // The shipped files are tried on every plan and part by a test;
        // a figure short of a part is better than a stopped game.
        static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if !WARNED.swap(true, std::sync::atomic::Ordering::Relaxed) {
            eprintln!("warning: {e}");
        }
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
    /// A figure with nothing laid out yet (of blocks, for a machine).
    fn new(blocks: bool) -> Kit {
        Kit {
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
            machine: blocks,
        }
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::figure::SpikesAt;
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

    /// Every figure the shipped cards get (their own and, as a card with no
    /// data would, derived), and every part on every plan: one line each
    /// with its joints, parts and two weighted sums of all their numbers.
    fn summaries() -> Vec<(String, usize, usize, f64, f64)> {
        let mut out = Vec::new();
        let mut put = |name: String, r: &Rig| {
            let (mut place, mut size) = (0.0f64, 0.0f64);
            for (k, b) in r.bones.iter().enumerate() {
                let w = (k + 1) as f64;
                place += w * f64::from(b.at.dot(Vec3::new(1.0, 2.0, 3.0)));
            }
            for (k, p) in r.parts.iter().enumerate() {
                let w = (k + 1) as f64;
                place += w * f64::from(p.at.dot(Vec3::new(1.0, 2.0, 3.0)));
                let shape = match p.shape {
                    Shape::Ball(r) => r,
                    Shape::Block(v) => v.dot(Vec3::new(1.0, 2.0, 3.0)),
                    Shape::Capsule(a, b) => a + 2.0 * b + 1.0,
                    Shape::Cone(a, b) => a + 2.0 * b + 2.0,
                    Shape::Cylinder(a, b) => a + 2.0 * b + 3.0,
                    Shape::Torus(a, b) => a + 2.0 * b + 4.0,
                };
                let rot = p.rot.dot(bevy::math::Quat::from_xyzw(1.0, 2.0, 3.0, 4.0));
                let look = p.tint as u8 as f32 + 5.0 * p.finish as u8 as f32;
                size += w * f64::from(
                    shape + p.scale.dot(Vec3::new(1.0, 2.0, 3.0)) + 0.5 * rot + 0.1 * look,
                );
            }
            out.push((name, r.bones.len(), r.parts.len(), place, size));
        };
        for d in digimon() {
            put(format!("card {}", d.number), &rig_of(&d));
            put(format!("derived {}", d.number), &build(&derive(&d)));
        }
        let mut features = body::every_feature();
        for count in [1, 3, 7] {
            features.push(Feature::Spikes {
                at: SpikesAt::Back,
                count,
            });
            features.push(Feature::Horns {
                count: count.min(3),
                length: 0.45,
                at: HornAt::Sides,
            });
        }
        let build_of = Build {
            height: 1.07,
            bulk: 0.93,
            head: 1.19,
            arms: 1.11,
            legs: 0.87,
        };
        let colours = Colours {
            body: Rgb([1, 2, 3]),
            accent: Rgb([4, 5, 6]),
            belly: None,
            detail: None,
            eyes: None,
        };
        for plan in Plan::ALL {
            for (i, f) in features.iter().enumerate() {
                let spec = FigureSpec {
                    plan,
                    build: build_of,
                    colours,
                    parts: vec![f.clone()],
                };
                put(format!("{plan:?} part {i}"), &build(&spec));
            }
            // Every part at once, the snout first (horns on the nose
            // follow it).
            let mut all = vec![Feature::Snout { length: 0.31 }];
            all.extend(features.iter().cloned());
            let spec = FigureSpec {
                plan,
                build: build_of,
                colours,
                parts: all,
            };
            put(format!("{plan:?} every part"), &build(&spec));
        }
        out
    }

    /// The figures are as they were when `rig/figures.golden` was written
    /// (by the body plans in code, before they moved to `assets/bodies/`,
    /// which built every bone and part bit for bit the same). A body file
    /// changed on purpose: write the file again with
    /// `BTERM_FIGURES_GOLDEN=src/arena/render/rig/figures.golden cargo test
    /// --lib the_figures_are_as_they_were`, and look at the figures.
    #[test]
    fn the_figures_are_as_they_were() {
        let now = summaries();
        let line = |(n, b, p, x, y): &(String, usize, usize, f64, f64)| {
            format!("{n}\t{b}\t{p}\t{x:.4}\t{y:.4}")
        };
        if let Ok(path) = std::env::var("BTERM_FIGURES_GOLDEN") {
            let text: Vec<String> = now.iter().map(line).collect();
            std::fs::write(path, text.join("\n") + "\n").unwrap();
            return;
        }
        let golden = include_str!("figures.golden");
        let was: Vec<&str> = golden.lines().collect();
        assert_eq!(was.len(), now.len(), "a different number of figures");
        for (old, new) in was.iter().zip(&now) {
            let f: Vec<&str> = old.split('\t').collect();
            let close = |a: &str, b: f64| {
                let a: f64 = a.parse().unwrap();
                (a - b).abs() <= 1e-3 * a.abs().max(1.0)
            };
            assert!(
                f.len() == 5
                    && f[0] == new.0
                    && f[1] == new.1.to_string()
                    && f[2] == new.2.to_string()
                    && close(f[3], new.3)
                    && close(f[4], new.4),
                "the figure changed:\n was {old}\n now {}",
                line(new)
            );
        }
    }
}
