#version 330 core
// The splat's blur passes (particles_blur.frag) drawn as one quad per u_cell x u_cell cell of the
// viewport (6 vertices each, no vertex buffer), and a cell no splat reaches is dropped here: its
// pixels are never shaded. The occupancy map (pass 2, one triangle over it) holds one texel per
// cell and class, tile by tile like the atlas, with a zero border; a cell is drawn when it or
// one of its 8 neighbours holds a splat (a cell is wider than any blur reaches).
const int kClasses = 7;

uniform sampler2D u_occupied;
uniform int u_pass;       // 0: the tile of u_class, 1: every class into the screen, 2: the map,
                          // 3: the fine map, 4: the tile of u_class, zeroed, 5: the wide-body
                          // probe (one texel)
uniform int u_class;
uniform int u_cell;
uniform int u_columns;
uniform ivec2 u_tileSize;

flat out int v_classes;   // bit k: class k has splats near this cell

bool occupied(int k, ivec2 cell) {
    ivec2 cells = (u_tileSize + u_cell - 1) / u_cell;
    ivec2 at = ivec2(k % u_columns, k / u_columns) * (cells + 2) + 1 + cell;
    float any = 0.0;
    for (int y = -1; y <= 1; ++y)
        for (int x = -1; x <= 1; ++x)
            any += texelFetch(u_occupied, at + ivec2(x, y), 0).r;
    return any > 0.0;
}

void main() {
    if (u_pass == 2 || u_pass == 3 || u_pass == 5) {  // one triangle over the viewport
        vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
        gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
        v_classes = 0;
        return;
    }
    const ivec2 kCorners[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 0),
                                       ivec2(1, 1), ivec2(0, 1));
    ivec2 cells = (u_tileSize + u_cell - 1) / u_cell;
    int index = gl_VertexID / 6;
    ivec2 cell = ivec2(index % cells.x, index / cells.x);
    v_classes = 0;
    if (u_pass == 0 || u_pass == 4) {
        if (occupied(u_class, cell)) v_classes = 1 << u_class;
    } else {
        for (int k = 0; k < kClasses; ++k)
            if (occupied(k, cell)) v_classes |= 1 << k;
    }
    if (v_classes == 0) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the clip volume: dropped
        return;
    }
    vec2 pixel = vec2((cell + kCorners[gl_VertexID % 6]) * u_cell);
    gl_Position = vec4(min(pixel / vec2(u_tileSize), vec2(1.0)) * 2.0 - 1.0, 0.0, 1.0);
}
