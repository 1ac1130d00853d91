//! Particles: the sparks, embers, shards, puffs and data motes of the
//! arena's effects, simulated and drawn on the GPU by `bevy_hanabi` (it runs
//! on the software renderer the screenshots and clips use).
//!
//! Every look is one [`EffectAsset`], built once at start-up from a small
//! table ([`Look`]); an effect on stage is an entity carrying one of them
//! that clears itself when its last particle is gone. Shapes that are not
//! particles (rings, flashes, slashes, the evolution column) stay meshes in
//! [`crate::arena::render::vfx`].

use std::collections::HashMap;

use bevy::prelude::*;
use bevy_hanabi::prelude::*;

/// The particle effect asset (the rest of the arena names it from here).
pub use bevy_hanabi::EffectAsset;

use crate::arena::AppSystems;
use crate::arena::render::element::Element;
use crate::arena::render::stage::DuelProp;

/// The particle effects there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Spark {
    /// What a technique sheds as it flies.
    Trail(Element),
    /// A technique's burst where it lands.
    Impact(Element),
    /// A deleted Digimon breaking up into data.
    Data,
    /// The motes rising round a digivolving Digimon.
    Evolve,
}

impl Spark {
    /// Every effect.
    pub fn all() -> Vec<Spark> {
        let mut v: Vec<Spark> = Element::ALL.iter().map(|&e| Spark::Trail(e)).collect();
        v.extend(Element::ALL.iter().map(|&e| Spark::Impact(e)));
        v.extend([Spark::Data, Spark::Evolve]);
        v
    }
}

/// How many particles a look makes.
#[derive(Debug, Clone, Copy)]
enum Count {
    /// All at once.
    Once(f32),
    /// So many a second, while its emitter lives.
    Rate(f32),
}

/// How particles are drawn over what is behind them.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Blend {
    /// Added, like light (glows and blooms).
    Light,
    /// Laid over, like smoke.
    Smoke,
}

/// One particle look, as data.
#[derive(Debug, Clone)]
struct Look {
    count: Count,
    /// Seconds a particle lives, at least and at most.
    life: (f32, f32),
    /// Radius of the sphere particles are born on, metres.
    radius: f32,
    /// Born on a ring round the emitter (flat, on the floor) instead.
    ring: bool,
    /// Speed outwards from the centre at birth, at least and at most, m/s.
    speed: (f32, f32),
    /// Added to every particle's velocity at birth, m/s.
    lift: Vec3,
    /// Acceleration, m/s² (gravity is negative y).
    accel: Vec3,
    /// The share of its speed a particle loses each second.
    drag: f32,
    /// Size at birth and at death, metres.
    size: (f32, f32),
    /// Length over width: above 1 a particle is a streak along its motion.
    stretch: f32,
    /// Colour (linear, alpha last) at birth, half-way and at death.
    colour: [Vec4; 3],
    blend: Blend,
    /// 1 for a round particle, 0 for a square one.
    round: f32,
}

/// A colour with alpha, as hanabi's gradients take it.
fn rgba(c: LinearRgba, a: f32) -> Vec4 {
    Vec4::new(c.red, c.green, c.blue, a)
}

impl Look {
    fn of(spark: Spark) -> Look {
        let base = Look {
            count: Count::Once(40.0),
            life: (0.4, 0.6),
            radius: 0.05,
            ring: false,
            speed: (1.0, 3.0),
            lift: Vec3::ZERO,
            accel: Vec3::ZERO,
            drag: 0.0,
            size: (0.1, 0.0),
            stretch: 1.0,
            colour: [Vec4::ONE; 3],
            blend: Blend::Light,
            round: 1.0,
        };
        let lit = |e: Element, k: f32| {
            let (core, glow) = e.colours();
            [
                rgba(core + glow * k, 1.0),
                rgba(glow * k, 0.9),
                rgba(glow * (k * 0.4), 0.0),
            ]
        };
        let fire = [
            Vec4::new(7.0, 3.8, 1.0, 1.0),
            Vec4::new(5.0, 1.6, 0.2, 0.9),
            Vec4::new(1.2, 0.15, 0.02, 0.0),
        ];
        let smoke =
            |c: LinearRgba, a: f32| [rgba(c, a), rgba(c * 0.8, a * 0.8), rgba(c * 0.6, 0.0)];
        match spark {
            Spark::Trail(e) => {
                let trail = Look {
                    count: Count::Rate(50.0),
                    life: (0.3, 0.45),
                    radius: 0.08,
                    speed: (0.1, 0.4),
                    colour: lit(e, 0.5),
                    ..base
                };
                match e {
                    Element::Fire => Look {
                        count: Count::Rate(70.0),
                        accel: Vec3::Y * 1.5,
                        size: (0.24, 0.05),
                        colour: fire,
                        ..trail
                    },
                    Element::Ice => Look {
                        life: (0.4, 0.6),
                        accel: Vec3::Y * -2.0,
                        size: (0.08, 0.0),
                        round: 0.0,
                        ..trail
                    },
                    Element::Lightning => Look {
                        count: Count::Rate(90.0),
                        life: (0.08, 0.16),
                        radius: 0.14,
                        speed: (2.0, 4.0),
                        size: (0.035, 0.025),
                        stretch: 7.0,
                        colour: lit(e, 0.8),
                        ..trail
                    },
                    Element::Dark => Look {
                        life: (0.4, 0.6),
                        speed: (0.3, 0.8),
                        drag: 1.5,
                        size: (0.12, 0.34),
                        colour: smoke(LinearRgba::rgb(0.16, 0.02, 0.22), 0.7),
                        blend: Blend::Smoke,
                        ..trail
                    },
                    Element::Holy => Look {
                        radius: 0.14,
                        size: (0.07, 0.0),
                        ..trail
                    },
                    Element::Physical => Look {
                        count: Count::Rate(40.0),
                        life: (0.12, 0.22),
                        speed: (0.5, 1.2),
                        size: (0.03, 0.02),
                        stretch: 5.0,
                        ..trail
                    },
                }
            }
            Spark::Impact(e) => {
                let burst = Look {
                    colour: lit(e, 0.5),
                    ..base
                };
                match e {
                    Element::Fire => Look {
                        count: Count::Once(70.0),
                        life: (0.35, 0.7),
                        radius: 0.1,
                        speed: (2.5, 6.0),
                        drag: 2.5,
                        accel: Vec3::Y * 2.0,
                        size: (0.3, 0.05),
                        colour: fire,
                        ..burst
                    },
                    Element::Ice => Look {
                        life: (0.5, 0.8),
                        speed: (2.0, 5.0),
                        lift: Vec3::Y * 2.0,
                        accel: Vec3::Y * -9.0,
                        size: (0.08, 0.04),
                        stretch: 3.0,
                        ..burst
                    },
                    Element::Lightning => Look {
                        count: Count::Once(60.0),
                        life: (0.1, 0.3),
                        radius: 0.2,
                        speed: (3.0, 8.0),
                        drag: 4.0,
                        size: (0.05, 0.02),
                        stretch: 8.0,
                        colour: lit(e, 0.8),
                        ..burst
                    },
                    Element::Dark => Look {
                        life: (0.5, 0.9),
                        speed: (1.5, 4.5),
                        drag: 3.0,
                        size: (0.2, 0.7),
                        colour: smoke(LinearRgba::rgb(0.16, 0.02, 0.22), 0.75),
                        blend: Blend::Smoke,
                        ..burst
                    },
                    Element::Holy => Look {
                        count: Count::Once(60.0),
                        life: (0.4, 0.7),
                        speed: (2.5, 6.0),
                        drag: 2.0,
                        accel: Vec3::Y,
                        size: (0.09, 0.0),
                        ..burst
                    },
                    Element::Physical => Look {
                        life: (0.4, 0.7),
                        radius: 0.2,
                        speed: (1.0, 3.0),
                        drag: 3.0,
                        accel: Vec3::Y * -1.0,
                        size: (0.12, 0.4),
                        colour: smoke(LinearRgba::rgb(0.32, 0.31, 0.34), 0.45),
                        blend: Blend::Smoke,
                        ..burst
                    },
                }
            }
            Spark::Data => Look {
                count: Count::Once(120.0),
                life: (0.9, 1.4),
                radius: 0.7,
                speed: (0.2, 0.8),
                accel: Vec3::Y * 2.2,
                drag: 0.8,
                size: (0.08, 0.0),
                colour: [
                    Vec4::new(1.0, 4.5, 3.0, 1.0),
                    Vec4::new(0.4, 2.6, 1.6, 0.9),
                    Vec4::new(0.1, 0.8, 0.5, 0.0),
                ],
                round: 0.0,
                ..base
            },
            Spark::Evolve => Look {
                count: Count::Once(60.0),
                life: (0.8, 1.1),
                radius: 1.0,
                ring: true,
                speed: (0.0, 0.4),
                lift: Vec3::Y * 3.0,
                size: (0.09, 0.0),
                colour: [
                    Vec4::new(4.0, 3.6, 2.0, 1.0),
                    Vec4::new(2.5, 2.3, 1.4, 0.9),
                    Vec4::new(1.0, 0.8, 0.3, 0.0),
                ],
                round: 0.0,
                ..base
            },
        }
    }

    /// The longest a particle lives.
    fn longest(&self) -> f32 {
        self.life.1
    }

    /// The effect asset: particles born on a sphere, flung outwards, lifted,
    /// pulled, slowed, sized and coloured over their life. The `big`
    /// property scales the sphere, the speed and the size.
    fn asset(&self) -> EffectAsset {
        let w = ExprWriter::new();
        let big = w.add_property("big", 1.0.into());
        let big = w.prop(big);
        let (spawner, capacity) = match self.count {
            Count::Once(n) => (SpawnerSettings::once(n.into()), n),
            Count::Rate(r) => (SpawnerSettings::rate(r.into()), r * self.longest() + 8.0),
        };
        let radius = (w.lit(self.radius) * big.clone()).expr();
        let centre = w.lit(Vec3::ZERO).expr();
        let sphere = SetPositionSphereModifier {
            center: centre,
            radius,
            dimension: ShapeDimension::Surface,
        };
        let ring = SetPositionCircleModifier {
            center: centre,
            axis: w.lit(Vec3::Y).expr(),
            radius,
            dimension: ShapeDimension::Volume,
        };
        let outward = w.attr(Attribute::POSITION).normalized();
        let speed = w.lit(self.speed.0).uniform(w.lit(self.speed.1)) * big.clone();
        let velocity = SetAttributeModifier::new(
            Attribute::VELOCITY,
            (outward * speed + w.lit(self.lift)).expr(),
        );
        let age = SetAttributeModifier::new(Attribute::AGE, w.lit(0.0).expr());
        let life = SetAttributeModifier::new(
            Attribute::LIFETIME,
            w.lit(self.life.0).uniform(w.lit(self.life.1)).expr(),
        );
        let spin = SetAttributeModifier::new(
            Attribute::F32_0,
            (w.rand(ScalarType::Float) * w.lit(std::f32::consts::TAU)).expr(),
        );
        // Size: from birth to death, times `big`, streaked along the motion.
        let t = w.attr(Attribute::AGE) / w.attr(Attribute::LIFETIME);
        let s = w.lit(self.size.0).mix(w.lit(self.size.1), t) * big;
        let size = SetAttributeModifier::new(
            Attribute::SIZE3,
            (s.clone() * w.lit(self.stretch)).vec3(s.clone(), s).expr(),
        );
        let mut colour = bevy_hanabi::Gradient::new();
        for (k, c) in [0.0, 0.5, 1.0].into_iter().zip(self.colour) {
            colour.add_key(k, c);
        }
        let accel = AccelModifier::new(w.lit(self.accel).expr());
        let drag = LinearDragModifier::new(w.lit(self.drag).expr());
        let orient = if self.stretch > 1.0 {
            OrientModifier::new(OrientMode::AlongVelocity)
        } else {
            OrientModifier::new(OrientMode::ParallelCameraDepthPlane)
                .with_rotation(w.attr(Attribute::F32_0).expr())
        };
        let round = RoundModifier {
            roundness: w.lit(self.round).expr(),
        };
        let alpha = match self.blend {
            Blend::Light => bevy_hanabi::AlphaMode::Add,
            Blend::Smoke => bevy_hanabi::AlphaMode::Blend,
        };
        let asset =
            EffectAsset::new(capacity.ceil() as u32, spawner, w.finish()).with_alpha_mode(alpha);
        let mut asset = if self.ring {
            asset.init(ring)
        } else {
            asset.init(sphere)
        }
        .init(velocity)
        .init(age)
        .init(life)
        .init(spin)
        .init(size)
        .update(size)
        .render(ColorOverLifetimeModifier::new(colour))
        .render(orient)
        .render(round);
        if self.accel != Vec3::ZERO {
            asset = asset.update(accel);
        }
        if self.drag > 0.0 {
            asset = asset.update(drag);
        }
        asset
    }
}

/// The particle effects, built once (part of [`crate::arena::render::vfx::VfxStore`]).
pub struct Sparks {
    effects: HashMap<Spark, Handle<EffectAsset>>,
    /// How long each lives on stage once it stops emitting, seconds.
    longest: HashMap<Spark, f32>,
}

/// An effect on stage that clears itself.
#[derive(Component, Debug, Clone, Copy)]
pub struct Fading {
    /// Seconds until it goes.
    pub left: f32,
}

/// A trail that follows a technique in flight and lingers after it lands,
/// until its last particle has died.
#[derive(Component, Debug, Clone, Copy)]
pub struct Following {
    /// The technique.
    pub of: Entity,
    /// Seconds its particles live at most.
    pub linger: f32,
}

pub(in crate::arena) fn plugin(app: &mut App) {
    if app.is_plugin_added::<bevy::render::RenderPlugin>() {
        app.add_plugins(HanabiPlugin);
    } else {
        // Headless (tests): the assets exist, nothing simulates them.
        app.init_asset::<EffectAsset>();
    }
    app.add_systems(Update, (follow, fade).in_set(AppSystems::Update));
}

impl Sparks {
    /// Builds every effect into `assets`.
    pub fn build(assets: &mut Assets<EffectAsset>) -> Sparks {
        let mut effects = HashMap::new();
        let mut longest = HashMap::new();
        for spark in Spark::all() {
            let look = Look::of(spark);
            longest.insert(spark, look.longest());
            effects.insert(spark, assets.add(look.asset()));
        }
        Sparks { effects, longest }
    }

    fn effect(&self, spark: Spark, big: f32, seed: u32) -> impl Bundle + use<> {
        (
            DuelProp,
            ParticleEffect {
                handle: self.effects[&spark].clone(),
                prng_seed: Some(seed),
            },
            EffectProperties::default().with_properties([("big".to_string(), big.into())]),
        )
    }

    /// A burst of `spark` at `at`, `big` times its usual size, its
    /// randomness seeded by `seed` (the same seed, the same burst).
    pub fn burst(&self, commands: &mut Commands, spark: Spark, at: Vec3, big: f32, seed: u32) {
        commands.spawn((
            self.effect(spark, big, seed),
            Fading {
                left: self.longest[&spark] + 0.1,
            },
            Transform::from_translation(at),
        ));
    }

    /// A trail of `element` behind the technique `of`, `big` times its usual size.
    pub fn trail(&self, commands: &mut Commands, element: Element, of: Entity, at: Vec3, big: f32) {
        commands.spawn((
            self.effect(Spark::Trail(element), big, of.index_u32()),
            Following {
                of,
                linger: self.longest[&Spark::Trail(element)],
            },
            Transform::from_translation(at),
        ));
    }
}

/// Trails keep to their techniques; when one lands, its trail stops
/// shedding and clears once its last particle has died.
fn follow(
    mut commands: Commands,
    mut trails: Query<(
        Entity,
        &Following,
        &mut Transform,
        Option<&mut EffectSpawner>,
    )>,
    techniques: Query<&GlobalTransform, Without<Following>>,
) {
    for (e, f, mut tf, spawner) in &mut trails {
        if let Ok(at) = techniques.get(f.of) {
            tf.translation = at.translation();
            continue;
        }
        if let Some(mut spawner) = spawner {
            spawner.active = false;
        }
        // The trail may leave with its screen in this same frame: then there
        // is nothing to fade (insert would panic on a despawned entity).
        commands
            .entity(e)
            .try_remove::<Following>()
            .try_insert(Fading {
                left: f.linger + 0.1,
            });
    }
}

/// Effects whose particles are all gone leave the stage.
fn fade(time: Res<Time>, mut commands: Commands, mut q: Query<(Entity, &mut Fading)>) {
    for (e, mut f) in &mut q {
        f.left -= time.delta_secs();
        if f.left <= 0.0 {
            commands.entity(e).despawn();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_effect_builds_within_its_bounds() {
        for spark in Spark::all() {
            let look = Look::of(spark);
            assert!(look.life.0 > 0.0 && look.life.0 <= look.life.1, "{spark:?}");
            assert!(look.speed.0 <= look.speed.1, "{spark:?}");
            assert!(look.colour[2].w == 0.0, "{spark:?} must fade out");
            let asset = look.asset();
            assert!(asset.capacity() >= 8, "{spark:?}");
        }
    }

    #[test]
    fn elements_look_different() {
        for kind in [Spark::Trail, Spark::Impact] {
            for (i, &a) in Element::ALL.iter().enumerate() {
                for &b in &Element::ALL[i + 1..] {
                    let (x, y) = (Look::of(kind(a)), Look::of(kind(b)));
                    assert!(
                        x.colour != y.colour || x.stretch != y.stretch || x.size != y.size,
                        "{a:?} and {b:?} look alike"
                    );
                }
            }
        }
    }
}
