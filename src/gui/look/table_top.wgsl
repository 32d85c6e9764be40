// The table top in the software profile: its wood texture, unlit, tonemapped and dithered as
// Bevy's unlit StandardMaterial is, without the lighting code that a software renderer runs for
// every pixel even where the material is unlit.
#import bevy_pbr::{forward_io::VertexOutput, mesh_view_bindings::view}
#ifdef TONEMAP_IN_SHADER
#import bevy_core_pipeline::tonemapping::{tone_mapping, screen_space_dither}
#import bevy_render::maths::powsafe
#endif

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var wood: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var wood_sampler: sampler;

@fragment
fn fragment(in: VertexOutput) -> @location(0) vec4<f32> {
    var colour = textureSampleBias(wood, wood_sampler, in.uv, view.mip_bias);
#ifdef TONEMAP_IN_SHADER
    colour = tone_mapping(colour, view.color_grading);
#ifdef DEBAND_DITHER
    var rgb = powsafe(colour.rgb, 1.0 / 2.2);
    rgb += screen_space_dither(in.position.xy);
    colour = vec4(powsafe(rgb, 2.2), colour.a);
#endif
#endif
    return colour;
}
