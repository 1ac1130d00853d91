//! The arena's shading: cel-shaded figures with a rim light and ink
//! outlines, and the platform's floor (grid, light pools, soft shadows
//! under the figures), each a small shader of our own. They replace
//! Bevy's physically based material where the cabinet look wants flat
//! bands of colour, and they cost far less per pixel on a software
//! renderer than the clustered lights they replace.

use bevy::asset::embedded_asset;
use bevy::mesh::MeshVertexBufferLayoutRef;
use bevy::pbr::{MaterialPipeline, MaterialPipelineKey};
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, Face, RenderPipelineDescriptor, ShaderType, SpecializedMeshPipelineError,
};
use bevy::shader::ShaderRef;

use crate::arena::render::place::PLATFORM_RADIUS;

const TOON_SHADER: &str = "embedded://bterm/arena/render/shaders/toon.wgsl";
const OUTLINE_SHADER: &str = "embedded://bterm/arena/render/shaders/outline.wgsl";
const CARD_SHADER: &str = "embedded://bterm/arena/render/shaders/card.wgsl";
const FLOOR_SHADER: &str = "embedded://bterm/arena/render/shaders/floor.wgsl";
const GLOW_SHADER: &str = "embedded://bterm/arena/render/shaders/glow.wgsl";

/// The ink outline's colour.
pub const INK: Color = Color::srgb(0.02, 0.02, 0.05);

/// A cel-shaded surface.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
pub struct Toon {
    /// What the shader reads.
    #[uniform(0)]
    pub u: ToonUniform,
}

/// [`Toon`]'s values as the shader reads them (linear colours).
#[derive(ShaderType, Debug, Clone, Copy)]
pub struct ToonUniform {
    /// The lit colour.
    pub base: Vec4,
    /// The shadow band's tint (multiplies the base).
    pub shade: Vec4,
    /// The rim light's colour.
    pub rim: Vec4,
    /// Light the surface gives off.
    pub emissive: Vec4,
    /// x: band edge, y: band softness, z: highlight, w: ambient.
    pub params: Vec4,
}

impl Toon {
    /// A surface of `colour`, with a cool rim light.
    pub fn new(colour: Color) -> Toon {
        Toon {
            u: ToonUniform {
                base: LinearRgba::from(colour).to_vec4(),
                shade: Vec4::new(0.42, 0.45, 0.62, 1.0),
                rim: Vec4::new(0.35, 0.55, 0.8, 1.0),
                emissive: Vec4::ZERO,
                params: Vec4::new(0.05, 0.04, 0.35, 0.22),
            },
        }
    }

    /// A surface that glows `strength` times its colour (eyes, flames).
    pub fn glowing(colour: Color, strength: f32) -> Toon {
        let mut t = Toon::new(colour);
        t.u.emissive = LinearRgba::from(colour).to_vec4() * strength;
        t.u.emissive.w = 0.0;
        t
    }

    /// A metallic surface: a stronger highlight and a brighter rim.
    pub fn metal(colour: Color) -> Toon {
        let mut t = Toon::new(colour);
        t.u.params.z = 0.8;
        t.u.rim = Vec4::new(0.6, 0.7, 0.9, 1.0);
        t
    }
}

impl Material for Toon {
    fn fragment_shader() -> ShaderRef {
        TOON_SHADER.into()
    }

    fn enable_prepass() -> bool {
        false
    }

    fn enable_shadows() -> bool {
        false
    }
}

/// The ink outline drawn around a figure's part.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
pub struct Outline {
    /// What the shader reads.
    #[uniform(0)]
    pub u: OutlineUniform,
}

/// [`Outline`]'s values as the shader reads them.
#[derive(ShaderType, Debug, Clone, Copy)]
pub struct OutlineUniform {
    /// Its colour.
    pub colour: Vec4,
    /// x: its width, metres.
    pub params: Vec4,
}

impl Outline {
    /// An outline `width` metres wide.
    pub fn new(width: f32) -> Outline {
        Outline {
            u: OutlineUniform {
                colour: LinearRgba::from(INK).to_vec4(),
                params: Vec4::new(width, 0.0, 0.0, 0.0),
            },
        }
    }
}

impl Material for Outline {
    fn vertex_shader() -> ShaderRef {
        OUTLINE_SHADER.into()
    }

    fn fragment_shader() -> ShaderRef {
        OUTLINE_SHADER.into()
    }

    fn enable_prepass() -> bool {
        false
    }

    fn enable_shadows() -> bool {
        false
    }

    fn specialize(
        _: &MaterialPipeline,
        descriptor: &mut RenderPipelineDescriptor,
        _: &MeshVertexBufferLayoutRef,
        _: MaterialPipelineKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        // Seen from inside: only the rim around the part shows.
        descriptor.primitive.cull_mode = Some(Face::Front);
        Ok(())
    }
}

/// Light itself: one colour, no shading (techniques, sparks, lamps,
/// beams). Far cheaper per pixel than an unlit standard material.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
pub struct Glow {
    /// What the shader reads.
    #[uniform(0)]
    pub u: GlowUniform,
    /// Opaque, added to what is behind, or blended.
    pub alpha_mode: AlphaMode,
}

/// [`Glow`]'s values as the shader reads them.
#[derive(ShaderType, Debug, Clone, Copy)]
pub struct GlowUniform {
    /// Its colour (linear; above 1 blooms).
    pub colour: Vec4,
    /// x: how fast it fades where the surface turns edge-on (0: not at
    /// all); y: 1 when it is added to what is behind it.
    pub params: Vec4,
}

impl Glow {
    /// A solid glow.
    pub fn solid(colour: LinearRgba) -> Glow {
        Glow {
            u: GlowUniform {
                colour: colour.to_vec4(),
                params: Vec4::ZERO,
            },
            alpha_mode: AlphaMode::Opaque,
        }
    }

    /// A glow added to what is behind it.
    pub fn additive(colour: LinearRgba) -> Glow {
        let mut g = Glow {
            alpha_mode: AlphaMode::Add,
            ..Glow::solid(colour)
        };
        g.u.params.y = 1.0;
        g
    }

    /// A translucent colour (smoke, dust).
    pub fn blended(colour: LinearRgba) -> Glow {
        Glow {
            alpha_mode: AlphaMode::Blend,
            ..Glow::solid(colour)
        }
    }

    /// Fading where the surface turns edge-on, by this power.
    pub fn soft(mut self, power: f32) -> Glow {
        self.u.params.x = power;
        self
    }
}

impl Material for Glow {
    fn fragment_shader() -> ShaderRef {
        GLOW_SHADER.into()
    }

    fn alpha_mode(&self) -> AlphaMode {
        self.alpha_mode
    }

    fn enable_prepass() -> bool {
        false
    }

    fn enable_shadows() -> bool {
        false
    }
}

/// A card's face (or back) on the table: its picture, unlit. Far cheaper
/// per pixel than an unlit standard material.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
pub struct CardFace {
    /// Multiplies the picture (a little below white, so it does not bloom).
    #[uniform(0)]
    pub tint: Vec4,
    /// The picture.
    #[texture(1)]
    #[sampler(2)]
    pub image: Handle<Image>,
}

impl Material for CardFace {
    fn fragment_shader() -> ShaderRef {
        CARD_SHADER.into()
    }

    fn enable_prepass() -> bool {
        false
    }

    fn enable_shadows() -> bool {
        false
    }
}

/// The platform's surface.
#[derive(Asset, TypePath, AsBindGroup, Debug, Clone)]
pub struct Floor {
    /// What the shader reads.
    #[uniform(0)]
    pub u: FloorUniform,
}

/// [`Floor`]'s values as the shader reads them.
#[derive(ShaderType, Debug, Clone, Copy)]
pub struct FloorUniform {
    /// Up to four figures' shadows: x, z, radius, darkness.
    pub shadows: [Vec4; 4],
    /// The light pool at P1's spot: colour and strength.
    pub spot_a: Vec4,
    /// The light pool at P2's spot.
    pub spot_b: Vec4,
    /// x: platform radius, y: the spots' distance from the centre, z:
    /// grid step, w: the sweep's strength.
    pub params: Vec4,
}

impl Floor {
    /// The platform with its spots `spot_x` metres either side of the centre.
    pub fn new(spot_x: f32) -> Floor {
        Floor {
            u: FloorUniform {
                shadows: [Vec4::ZERO; 4],
                spot_a: Vec4::new(0.25, 0.5, 1.0, 0.35),
                spot_b: Vec4::new(1.0, 0.35, 0.25, 0.35),
                params: Vec4::new(PLATFORM_RADIUS, spot_x, 1.0, 1.0),
            },
        }
    }
}

impl Material for Floor {
    fn fragment_shader() -> ShaderRef {
        FLOOR_SHADER.into()
    }

    fn enable_prepass() -> bool {
        false
    }

    fn enable_shadows() -> bool {
        false
    }
}

/// A smooth sphere of `radius` (an icosphere: even facets for glows).
pub fn ball(radius: f32) -> Mesh {
    Sphere::new(radius)
        .mesh()
        .ico(2)
        .unwrap_or_else(|_| Sphere::new(radius).mesh().build())
}

/// An sRGB texture from RGBA bytes, `width` × `height`.
pub fn texture(width: u32, height: u32, rgba: Vec<u8>) -> Image {
    Image::new(
        bevy::render::render_resource::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        bevy::render::render_resource::TextureDimension::D2,
        rgba,
        bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb,
        bevy::asset::RenderAssetUsages::default(),
    )
}

/// An sRGB texture from an RGB picture (a printed card).
pub fn rgb_texture(rgb: &image::RgbImage) -> Image {
    let (w, h) = rgb.dimensions();
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for p in rgb.pixels() {
        rgba.extend_from_slice(&[p.0[0], p.0[1], p.0[2], 255]);
    }
    texture(w, h, rgba)
}

/// A card's face (as `bterm print` draws it) as a texture of `width` ×
/// `height`; `None` for a card that has no face to draw.
pub fn card_face(card: &crate::cards::Card, width: u32, height: u32) -> Option<Image> {
    let rgb = crate::barcode::print::render_face(card).ok()?;
    let small = image::imageops::resize(&rgb, width, height, image::imageops::FilterType::Triangle);
    Some(rgb_texture(&small))
}

/// Adds the materials: with a renderer their shaders and pipelines,
/// without one (the headless tests) just their asset stores.
pub fn plugin(app: &mut App) {
    if app.is_plugin_added::<bevy::render::RenderPlugin>() {
        embedded_asset!(app, "shaders/toon.wgsl");
        embedded_asset!(app, "shaders/outline.wgsl");
        embedded_asset!(app, "shaders/floor.wgsl");
        embedded_asset!(app, "shaders/glow.wgsl");
        embedded_asset!(app, "shaders/card.wgsl");
        app.add_plugins((
            MaterialPlugin::<Toon>::default(),
            MaterialPlugin::<Outline>::default(),
            MaterialPlugin::<Floor>::default(),
            MaterialPlugin::<Glow>::default(),
            MaterialPlugin::<CardFace>::default(),
        ));
    } else {
        app.init_asset::<Toon>()
            .init_asset::<Outline>()
            .init_asset::<Floor>()
            .init_asset::<Glow>()
            .init_asset::<CardFace>();
    }
    if !app.is_plugin_added::<bevy::animation::AnimationPlugin>() {
        app.init_asset::<AnimationClip>()
            .init_asset::<AnimationGraph>();
    }
}
