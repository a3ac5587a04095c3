#version 330 core
// A soft Gaussian disc per body; with additive blending dense regions glow. A splat (u_pass 2)
// is one pixel holding the sprite's light; the blur (particles_blur.frag) gives it the disc.
in vec4 v_colour;
out vec4 o_colour;
uniform int u_pass;

void main() {
    if (u_pass == 2) {
        o_colour = vec4(v_colour.rgb * v_colour.a, 1.0);
        return;
    }
    vec2 p = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(p, p);
    if (r2 > 1.0) discard;
    float falloff = exp(-4.0 * r2);
    o_colour = vec4(v_colour.rgb * falloff * v_colour.a, 1.0);
}
