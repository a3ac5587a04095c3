#version 330 core
// A screen rectangle drawn as a 4-vertex triangle strip with no vertex buffer: uRect holds its
// corners in normalized device coordinates (x0, yTop, x1, yBottom). Texture row 0 is the image's
// top row (as loaded), so v runs top to bottom.
uniform vec4 uRect;
out vec2 vUv;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vUv = corner;
    gl_Position = vec4(mix(uRect.x, uRect.z, corner.x), mix(uRect.y, uRect.w, corner.y), 0.0, 1.0);
}
