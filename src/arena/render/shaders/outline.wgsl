// The ink outline: each part drawn again, pushed out along its normals and
// seen from inside (front faces culled), in one flat colour.
#import bevy_pbr::{
    forward_io::Vertex,
    mesh_functions,
    view_transformations::position_world_to_clip,
}

struct Outline {
    colour: vec4<f32>,
    // x: width, metres.
    params: vec4<f32>,
};

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> outline: Outline;

struct Out {
    @builtin(position) position: vec4<f32>,
};

@vertex
fn vertex(vertex: Vertex) -> Out {
    let world_from_local = mesh_functions::get_world_from_local(vertex.instance_index);
    let n = normalize(mesh_functions::mesh_normal_local_to_world(vertex.normal, vertex.instance_index));
    let p = mesh_functions::mesh_position_local_to_world(world_from_local, vec4<f32>(vertex.position, 1.0));
    var out: Out;
    out.position = position_world_to_clip(p.xyz + n * outline.params.x);
    return out;
}

@fragment
fn fragment() -> @location(0) vec4<f32> {
    return outline.colour;
}
