#version 330 core
// The splat's blur (render/nbody/particle_splat.*): the atlas holds one tile per sprite size
// class, each body one pixel of its class's tile. Pass 0 blurs a tile along x by its class's
// weights (atlas to atlas, one tile a draw); pass 1 blurs along y and sums the tiles into the
// screen, so each body ends up spread as its sprite would be. Weights are per offset 0..4,
// mirrored. Only cells near splats are drawn (particles_blur.vert).
const int kClasses = 7;
const int kTaps = 5;

uniform sampler2D u_source;
uniform int u_pass;
uniform float u_weights[kClasses * kTaps];
uniform int u_taps[kClasses];
uniform ivec2 u_tileStride;  // tile plus its gutters
uniform int u_gutter;
uniform int u_columns;
uniform ivec2 u_origin;  // pass 1: the viewport's corner in the target
uniform int u_class;     // pass 0: the tile being blurred (its interior is the viewport)

flat in int v_classes;
out vec4 o_colour;

ivec2 tileCorner(int k) {
    return ivec2(k % u_columns, k / u_columns) * u_tileStride + ivec2(u_gutter);
}

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    vec3 sum = vec3(0.0);
    if (u_pass == 0) {
        int k = u_class;
        int taps = u_taps[k];
        sum = u_weights[k * kTaps] * texelFetch(u_source, pixel, 0).rgb;
        for (int i = 1; i <= taps; ++i)
            sum += u_weights[k * kTaps + i] * (texelFetch(u_source, pixel - ivec2(i, 0), 0).rgb +
                                               texelFetch(u_source, pixel + ivec2(i, 0), 0).rgb);
    } else {
        ivec2 p = pixel - u_origin;
        for (int k = 0; k < kClasses; ++k) {
            if ((v_classes & (1 << k)) == 0) continue;
            ivec2 at = tileCorner(k) + p;
            int taps = u_taps[k];
            sum += u_weights[k * kTaps] * texelFetch(u_source, at, 0).rgb;
            for (int i = 1; i <= taps; ++i)
                sum += u_weights[k * kTaps + i] * (texelFetch(u_source, at - ivec2(0, i), 0).rgb +
                                                   texelFetch(u_source, at + ivec2(0, i), 0).rgb);
        }
    }
    o_colour = vec4(sum, 1.0);
}
