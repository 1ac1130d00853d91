// A card on the Card Game Alpha table: its printed face (or the shared
// back), unlit, times a tint a little below white so it does not bloom.
#import bevy_pbr::forward_io::VertexOutput

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> tint: vec4<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var face: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var face_sampler: sampler;

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    let c = textureSample(face, face_sampler, in.uv);
    return vec4<f32>(c.rgb * tint.rgb, 1.0);
}
