// The platform: dark metal with a glowing holographic grid, a pool of light
// at each fighter's spot, soft shadows under the figures and a scan ring
// that sweeps out from the centre; its side is banded metal.
#import bevy_pbr::{forward_io::VertexOutput, mesh_view_bindings::{view, globals}}

struct Floor {
    // Up to four shadow casters: xz, radius, darkness.
    shadows: array<vec4<f32>, 4>,
    // The two spots' light colours (rgb, strength).
    spot_a: vec4<f32>,
    spot_b: vec4<f32>,
    // x: platform radius, y: spots' distance from the centre, z: grid step, w: pulse.
    params: vec4<f32>,
};

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> stage: Floor;

fn line(coord: f32, width: f32) -> f32 {
    let d = abs(fract(coord + 0.5) - 0.5);
    let w = fwidth(coord) * 1.2;
    return 1.0 - smoothstep(width, width + w, d);
}

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    let p = in.world_position.xyz;
    let n = normalize(in.world_normal);
    let radius = stage.params.x;
    // Every line first (their derivatives need every pixel), then the
    // side or the top.
    let band = line(p.y * 4.0, 0.04);
    let cell = stage.params.z;
    let g = max(line(p.x / cell, 0.015), line(p.z / cell, 0.015));
    let r = length(p.xz);
    let ring = line(r / (radius / 3.0), 0.012);
    if (n.y < 0.5) {
        // The side: dark banded metal with a glowing seam.
        let c = vec3<f32>(0.05, 0.07, 0.13) + vec3<f32>(0.1, 0.6, 1.2) * band * 0.8;
        return vec4<f32>(c, 1.0);
    }
    var c = vec3<f32>(0.045, 0.06, 0.11) * (1.0 - 0.35 * r / radius);
    // The grid, fading towards the rim.
    c += vec3<f32>(0.03, 0.16, 0.34) * g * (0.25 + 0.75 * (1.0 - r / radius));
    // Concentric rings.
    c += vec3<f32>(0.05, 0.22, 0.45) * ring * 0.5;
    // Pools of light at the two spots.
    let sx = stage.params.y;
    let da = length(p.xz - vec2<f32>(-sx, 0.0));
    let db = length(p.xz - vec2<f32>(sx, 0.0));
    c += stage.spot_a.rgb * stage.spot_a.w * (1.0 - smoothstep(0.4, 1.9, da));
    c += stage.spot_b.rgb * stage.spot_b.w * (1.0 - smoothstep(0.4, 1.9, db));
    // A ring that sweeps out from the centre.
    let t = fract(globals.time * 0.25);
    let sweep = 1.0 - smoothstep(0.0, 0.25, abs(r - t * radius));
    c += vec3<f32>(0.05, 0.3, 0.6) * sweep * 0.3 * stage.params.w;
    // Soft shadows under the figures.
    var shade = 1.0;
    for (var i = 0; i < 4; i++) {
        let s = stage.shadows[i];
        if (s.w > 0.0) {
            let d = length(p.xz - s.xy) / s.z;
            shade *= 1.0 - s.w * (1.0 - smoothstep(0.3, 1.0, d));
        }
    }
    c *= shade;
    // The glowing rim.
    let edge = smoothstep(radius - 0.25, radius - 0.05, r);
    c = mix(c, vec3<f32>(0.3, 1.6, 2.6), edge);
    return vec4<f32>(c, 1.0);
}
