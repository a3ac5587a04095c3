#version 330 core
// Bodies as point sprites: size shrinks with distance like a real sphere of radius u_size would,
// colour comes from speed, mass or a fixed colour (see particles.frag for the falloff).
// u_pass 2 splats instead (render/nbody/particle_splat.*): each body is one pixel in the atlas
// tile of its sprite's size class, carrying its sprite's light; pass 1 then draws sprites only
// for the bodies too large to splat.
layout(location = 0) in vec4 a_position;  // xyz, mass in w
layout(location = 1) in vec4 a_velocity;  // xyz (constant 0 when speed is not shown)

uniform mat4 u_view;
uniform mat4 u_projection;
uniform float u_size;           // world-space sprite radius
uniform float u_pixelScale;     // pixels per world unit at eye distance 1
uniform float u_maxPointSize;   // the driver's limit
uniform int u_colourMode;       // 0 speed, 1 mass, 2 fixed
uniform int u_colourMap;        // 0 inferno-like, 1 viridis-like, 2 ice
uniform float u_colourScale;    // speed or mass mapped to the top of the colour map
uniform vec3 u_fixedColour;
uniform float u_intensity;
uniform int u_pass;               // 0 every body a sprite, 1 only those above u_splatMaxPixels,
                                  // 2 splat the rest
uniform float u_splatMaxPixels;   // splat_footprint.hpp largestSplatDiameter()
uniform vec4 u_atlasTile;         // tile width, height, gutter, columns (pixels)
uniform vec2 u_atlasSize;

out vec4 v_colour;

// Piecewise-linear colour maps through the published key colours of matplotlib's perceptually
// uniform maps (inferno at ninths, viridis at ninths).
const vec3 kInferno[10] = vec3[10](
    vec3(0.000, 0.000, 0.016), vec3(0.106, 0.047, 0.255), vec3(0.290, 0.047, 0.420),
    vec3(0.471, 0.110, 0.427), vec3(0.647, 0.173, 0.376), vec3(0.812, 0.267, 0.275),
    vec3(0.929, 0.412, 0.145), vec3(0.984, 0.608, 0.024), vec3(0.969, 0.820, 0.239),
    vec3(0.988, 1.000, 0.643));
const vec3 kViridis[10] = vec3[10](
    vec3(0.267, 0.004, 0.329), vec3(0.282, 0.157, 0.471), vec3(0.243, 0.286, 0.537),
    vec3(0.192, 0.408, 0.557), vec3(0.149, 0.510, 0.557), vec3(0.122, 0.620, 0.537),
    vec3(0.208, 0.718, 0.475), vec3(0.431, 0.808, 0.345), vec3(0.710, 0.871, 0.169),
    vec3(0.992, 0.906, 0.145));

vec3 lookup(float t) {
    t = clamp(t, 0.0, 1.0);
    if (u_colourMap == 2) return mix(vec3(0.10, 0.25, 0.80), vec3(0.85, 0.95, 1.00), t);
    float x = t * 9.0;
    int i = min(int(x), 8);
    float f = x - float(i);
    if (u_colourMap == 1) return mix(kViridis[i], kViridis[i + 1], f);
    return mix(kInferno[i], kInferno[i + 1], f);
}

const int kSplatClasses = 7;  // splat_footprint.hpp

// The splat of a body at clip position `clip` with a sprite `pixels` wide: its pixel in the tile
// of its class (classOf()), and the factor that gives it its own sprite's light, not the class's.
vec4 splatPosition(vec4 clip, float pixels, out float lightScale) {
    vec3 ndc = clip.xyz / clip.w;
    lightScale = 0.0;
    if (clip.w <= 0.0 || any(greaterThan(abs(ndc), vec3(1.0)))) return vec4(2.0, 2.0, 2.0, 1.0);
    float size = max(pixels, 1.0);
    int k = clamp(int(round(2.0 * log2(size))), 0, kSplatClasses - 1);
    float classSize = exp2(0.5 * float(k));
    lightScale = (size * size) / (classSize * classSize);
    vec2 tile = u_atlasTile.xy;
    vec2 pixel = min(floor((ndc.xy * 0.5 + 0.5) * tile), tile - 1.0) + 0.5;
    float columns = u_atlasTile.w;
    vec2 corner = vec2(mod(float(k), columns), floor(float(k) / columns)) *
                      (tile + 2.0 * u_atlasTile.z) + u_atlasTile.z;
    vec2 at = corner + pixel;
    return vec4(at / u_atlasSize * 2.0 - 1.0, 0.0, 1.0);
}

// A body too wide to splat adds to the atlas's corner texel (a gutter texel no blur reads) when
// its sprite can reach the view, so that pass 1 runs only when some body needs it
// (ParticleSplat's wide-body query).
vec4 wideFlagPosition(vec4 clip, float pixels) {
    vec2 reach = 1.0 + pixels / u_atlasTile.xy;  // the sprite's radius, in NDC
    if (clip.w <= 0.0 || any(greaterThan(abs(clip.xy / clip.w), reach)))
        return vec4(2.0, 2.0, 2.0, 1.0);
    return vec4(vec2(0.5) / u_atlasSize * 2.0 - 1.0, 0.0, 1.0);
}

void main() {
    vec4 eye = u_view * vec4(a_position.xyz, 1.0);
    gl_Position = u_projection * eye;
    float distance = max(-eye.z, 1e-6);
    float pixels = 2.0 * u_size * u_pixelScale / distance;
    // Sprites smaller than a pixel fade instead of flickering in and out.
    float coverage = clamp(pixels, 0.0, 1.0);
    gl_PointSize = clamp(pixels, 1.0, u_maxPointSize);
    bool splatted = pixels <= u_splatMaxPixels;
    if (u_pass == 1 && splatted) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // culled
    if (u_pass == 2) {
        if (splatted) {
            float lightScale;
            gl_Position = splatPosition(gl_Position, pixels, lightScale);
            coverage *= lightScale;
        } else {
            gl_Position = wideFlagPosition(gl_Position, pixels);
        }
        gl_PointSize = 1.0;
    }

    vec3 colour;
    if (u_colourMode == 0) {
        colour = lookup(0.1 + 0.9 * length(a_velocity.xyz) / u_colourScale);
    } else if (u_colourMode == 1) {
        colour = lookup(0.15 + 0.85 * sqrt(max(a_position.w, 0.0) / u_colourScale));
    } else {
        colour = u_fixedColour;
    }
    v_colour = vec4(colour * u_intensity, coverage);
}
