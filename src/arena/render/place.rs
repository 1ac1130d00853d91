//! Where things stand on the stage: the platform's size, the Terminal
//! Battle's spots and benches, a card table's seats. Geometry only, so the
//! stage, the looks, the figures and the tables share it without importing
//! each other.

use std::f32::consts::TAU;

use bevy::prelude::*;

use crate::rules::terminal::Side;

/// Platform radius and thickness, metres.
pub const PLATFORM_RADIUS: f32 = 6.0;
/// The platform's thickness; its top is at y = 0.
pub const PLATFORM_HEIGHT: f32 = 0.5;
/// How far each Digimon stands from the centre, metres.
pub const SPOT_X: f32 = 2.6;
/// Where a side's front Digimon stands.
pub fn spot(side: Side) -> Vec3 {
    match side {
        Side::P1 => Vec3::new(-SPOT_X, 0.0, 0.0),
        Side::P2 => Vec3::new(SPOT_X, 0.0, 0.0),
    }
}

/// Where a side's bench (Digimon waiting to step in, cards just scanned) stands.
pub fn bench_spot(side: Side, i: usize) -> Vec3 {
    let sign = if side == Side::P1 { -1.0 } else { 1.0 };
    Vec3::new(sign * (SPOT_X + 1.4), 0.0, -2.2 + 1.6 * i as f32)
}

/// Where a seat sits: its edge's centre, turned to face the table's
/// centre, and how much its zones shrink to fit (three or four seats).
pub fn seat_frame(seat: usize, seats: usize) -> (Vec3, Quat, f32) {
    let n = seats.max(1);
    let angle = TAU * seat as f32 / n as f32;
    let (dist, scale) = if n <= 2 { (2.9, 1.0) } else { (3.7, 0.62) };
    let out = Vec3::new(angle.sin(), 0.0, angle.cos());
    (out * dist, Quat::from_rotation_y(angle), scale)
}
