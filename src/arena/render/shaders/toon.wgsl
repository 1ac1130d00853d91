// bterm's figure shading: two-band cel light from the stage's key light, a
// soft fill from the other side, a coloured rim from behind, a hard
// highlight, and emission for glowing parts and hit flashes.
#import bevy_pbr::{forward_io::VertexOutput, mesh_view_bindings::view}

struct Toon {
    base: vec4<f32>,
    shade: vec4<f32>,
    rim: vec4<f32>,
    emissive: vec4<f32>,
    // x: band edge, y: band softness, z: highlight strength, w: ambient.
    params: vec4<f32>,
};

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> toon: Toon;

// The stage's key light (from above, in front, to the right) and fill.
const KEY: vec3<f32> = vec3<f32>(0.35, 0.85, 0.45);
const FILL: vec3<f32> = vec3<f32>(-0.55, 0.25, -0.35);

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    let n = normalize(in.world_normal);
    let v = normalize(view.world_position - in.world_position.xyz);
    let key = normalize(KEY);
    let ndl = dot(n, key);
    let lit = smoothstep(toon.params.x - toon.params.y, toon.params.x + toon.params.y, ndl);
    let fill = max(dot(n, normalize(FILL)), 0.0) * 0.35;
    var c = mix(toon.base.rgb * toon.shade.rgb, toon.base.rgb, lit);
    c += toon.base.rgb * (fill + toon.params.w);
    // Rim: a thin bright edge where the surface turns away from the eye.
    let facing = 1.0 - max(dot(n, v), 0.0);
    c += toon.rim.rgb * smoothstep(0.62, 0.72, facing) * (0.4 + 0.6 * max(n.y, 0.0));
    // A hard highlight.
    let h = normalize(key + v);
    c += vec3<f32>(toon.params.z) * smoothstep(0.955, 0.965, dot(n, h)) * lit;
    c += toon.emissive.rgb;
    return vec4<f32>(c, toon.base.a);
}
