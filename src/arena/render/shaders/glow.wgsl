// Light itself: techniques, sparks, lamps, beams. One colour (above 1 in
// HDR, so it blooms), optionally fading where the surface turns edge-on
// (a soft beam or halo instead of a hard shape).
#import bevy_pbr::{forward_io::VertexOutput, mesh_view_bindings::view}

struct Glow {
    colour: vec4<f32>,
    // x: edge softness (0: none); y: 1 when added to what is behind
    // (Bevy blends that as premultiplied alpha: the shader gives alpha 0).
    params: vec4<f32>,
};

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> glow: Glow;

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    var facing = 1.0;
    if (glow.params.x > 0.0) {
        let n = normalize(in.world_normal);
        let v = normalize(view.world_position - in.world_position.xyz);
        facing = pow(abs(dot(n, v)), glow.params.x);
    }
    if (glow.params.y > 0.5) {
        return vec4<f32>(glow.colour.rgb * glow.colour.a * facing, 0.0);
    }
    return vec4<f32>(glow.colour.rgb, glow.colour.a * facing);
}
