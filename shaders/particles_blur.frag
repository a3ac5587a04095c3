#version 330 core
// The splat's blur (render/nbody/particle_splat.*): the atlas holds one tile per sprite size
// class, each body one pixel of its class's tile. Pass 0 blurs a tile along x by its class's
// weights (atlas to atlas, one tile a draw); pass 1 blurs along y and sums the tiles into the
// screen, so each body ends up spread as its sprite would be. Weights are per offset 0..4,
// mirrored. Only cells near splats are drawn (particles_blur.vert), after pass 2 has marked the
// cells that hold any: one texel of the occupancy map per cell of each tile; pass 4 writes zero
// into the same cells of the splats' atlas once pass 0 has read them. Pass 3 before pass 2
// marks the blocks of u_cell / kFine pixels that hold any (the fine map, laid out as the
// atlas's tiles without gutters), so each texel of either pass reads a few texels: one pass of a
// cell's every pixel leaves too few texels, each reading hundreds, to keep the GPU busy.
const int kClasses = 7;
const int kTaps = 5;
const int kFine = 4;  // fine-map blocks per cell, each way

uniform sampler2D u_source;
uniform int u_pass;
uniform float u_weights[kClasses * kTaps];
uniform int u_taps[kClasses];
uniform ivec2 u_tileStride;  // tile plus its gutters
uniform int u_gutter;
uniform int u_columns;
uniform ivec2 u_origin;  // pass 1: the viewport's corner in the target
uniform int u_class;     // pass 0: the tile being blurred (its interior is the viewport)
uniform int u_cell;      // pass 2: cell size in pixels
uniform ivec2 u_tileSize;

flat in int v_classes;
out vec4 o_colour;

ivec2 tileCorner(int k) {
    return ivec2(k % u_columns, k / u_columns) * u_tileStride + ivec2(u_gutter);
}

void main() {
    if (u_pass == 4) {  // the splats' cells back to zero for the next frame
        o_colour = vec4(0.0);
        return;
    }
    if (u_pass == 5) {  // one fragment, kept when a body too wide to splat marked the corner
        if (texelFetch(u_source, ivec2(0), 0).a == 0.0) discard;
        o_colour = vec4(0.0);
        return;
    }
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    vec3 sum = vec3(0.0);
    ivec2 cells = (u_tileSize + u_cell - 1) / u_cell;
    if (u_pass == 3) {
        // The fine map from the atlas: which tile and block this texel stands for.
        int block = u_cell / kFine;
        ivec2 tile = pixel / (cells * kFine), at = pixel - tile * (cells * kFine);
        int k = tile.y * u_columns + tile.x;
        float any = 0.0;
        if (k < kClasses) {
            ivec2 from = tileCorner(k) + at * block;
            ivec2 to = min(from + block, tileCorner(k) + u_tileSize);
            for (int y = from.y; y < to.y; ++y)
                for (int x = from.x; x < to.x; ++x)
                    any += dot(texelFetch(u_source, ivec2(x, y), 0).rgb, vec3(1.0));
        }
        o_colour = vec4(any > 0.0 ? 1.0 : 0.0);
        return;
    }
    if (u_pass == 2) {
        // Which tile and cell this texel stands for; the border and the spare tiles stay 0.
        ivec2 tile = pixel / (cells + 2), cell = pixel - tile * (cells + 2) - 1;
        int k = tile.y * u_columns + tile.x;
        float any = 0.0;
        if (k < kClasses && all(greaterThanEqual(cell, ivec2(0))) && all(lessThan(cell, cells))) {
            ivec2 from = tile * (cells * kFine) + cell * kFine;  // its blocks in the fine map
            for (int y = 0; y < kFine; ++y)
                for (int x = 0; x < kFine; ++x)
                    any += texelFetch(u_source, from + ivec2(x, y), 0).r;
        }
        o_colour = vec4(any > 0.0 ? 1.0 : 0.0);
        return;
    }
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
