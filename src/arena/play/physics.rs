//! `bevy_rapier3d`, the only file that names it: the physics that stages
//! techniques in flight and the debris of a deleted Digimon. Physics is for
//! the eye only; nothing here reads or changes the rules' state.

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;

use crate::arena::play::staging::{Debris, Projectile};
use crate::arena::render::place::{PLATFORM_HEIGHT, PLATFORM_RADIUS};
use crate::arena::render::stage::Platform;

pub(in crate::arena) fn plugin(app: &mut App) {
    app.add_plugins(RapierPhysicsPlugin::<NoUserData>::default())
        .add_observer(platform_body)
        .add_observer(projectile_body)
        .add_observer(debris_body);
}

fn platform_body(add: On<Add, Platform>, mut commands: Commands) {
    commands.entity(add.entity).insert((
        RigidBody::Fixed,
        Collider::cylinder(PLATFORM_HEIGHT / 2.0, PLATFORM_RADIUS),
        Friction::coefficient(0.8),
    ));
}

fn projectile_body(add: On<Add, Projectile>, q: Query<&Projectile>, mut commands: Commands) {
    let Ok(p) = q.get(add.entity) else { return };
    commands.entity(add.entity).insert((
        RigidBody::Dynamic,
        Collider::ball(p.radius),
        // Techniques fly in a flat arc; they pass through figures (hits are
        // staged by distance) but bounce off the platform if they fall short.
        GravityScale(0.35),
        Velocity {
            linear: p.velocity,
            angular: Vec3::new(0.0, 8.0, 0.0),
        },
        Restitution::coefficient(0.3),
        Ccd::enabled(),
    ));
}

fn debris_body(add: On<Add, Debris>, q: Query<&Debris>, mut commands: Commands) {
    let Ok(d) = q.get(add.entity) else { return };
    commands.entity(add.entity).insert((
        RigidBody::Dynamic,
        Collider::ball(d.radius),
        Restitution::coefficient(0.45),
        Friction::coefficient(0.6),
        ExternalImpulse {
            impulse: d.impulse,
            torque_impulse: d.spin,
        },
        ColliderMassProperties::Density(1.0),
    ));
}
