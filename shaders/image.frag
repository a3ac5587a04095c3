#version 330 core
// Image pixels over a checkerboard (so transparent background colours stay visible), an optional
// texel grid when zoomed far in, or a flat colour for the divider and frames.
uniform sampler2D uImage;
uniform int uSolid;           // 1: fill with uColor
uniform vec4 uColor;
uniform vec2 uTexSize;        // texels of the picture
uniform vec2 uUvScale;        // picture size / texture size: the picture fills the top-left part
uniform float uGrid;          // 0..1 opacity of texel boundaries
uniform float uCheckerPixels; // checker cell size in framebuffer pixels

in vec2 vUv;
out vec4 fragColor;

void main() {
    if (uSolid == 1) {
        fragColor = uColor;
        return;
    }
    // Stay half a texel inside the picture so linear filtering never blends in unused texels.
    vec2 halfTexel = 0.5 / vec2(textureSize(uImage, 0));
    vec4 c = texture(uImage, clamp(vUv * uUvScale, halfTexel, uUvScale - halfTexel));
    vec2 cell = floor(gl_FragCoord.xy / uCheckerPixels);
    float checker = mod(cell.x + cell.y, 2.0) < 1.0 ? 0.40 : 0.60;
    vec3 rgb = mix(vec3(checker), c.rgb, c.a);
    if (uGrid > 0.0) {
        vec2 t = vUv * uTexSize;
        vec2 f = fract(t);
        vec2 w = fwidth(t);
        float line = (f.x < w.x || f.y < w.y) ? 1.0 : 0.0;
        rgb = mix(rgb, vec3(0.5), line * uGrid);
    }
    fragColor = vec4(rgb, 1.0);
}
