// The linear-algebra lab's pictures of its matrices (compute/matrix_view/): one RGBA8 pixel per
// element, row-major, for the texture that shows it.

// Diverging colours: negative blue, zero near white, positive red; |v| >= scale saturates.
__kernel void matrix_to_rgba(__global const float* m, int count, float scale,
                             __global uchar4* out) {
    const int i = get_global_id(0);
    if (i >= count) return;
    const float t = clamp(m[i] / scale, -1.0f, 1.0f);
    const float a = fabs(t);
    const float3 white = (float3)(0.96f, 0.96f, 0.96f);
    const float3 end = t < 0 ? (float3)(0.17f, 0.35f, 0.80f) : (float3)(0.80f, 0.20f, 0.15f);
    const float3 c = mix(white, end, a);
    out[i] = (uchar4)(convert_uchar_sat(c.x * 255.0f), convert_uchar_sat(c.y * 255.0f),
                      convert_uchar_sat(c.z * 255.0f), (uchar)255);
}

// The error against the CPU reference as an overlay: |c - ref| relative to `scale` (the largest
// |ref|), on a log scale from 1e-8 (transparent) to 1e-2 and above (opaque yellow). A NaN or
// infinite element is opaque magenta.
__kernel void error_to_rgba(__global const float* c, __global const float* ref, int count,
                            float scale, __global uchar4* out) {
    const int i = get_global_id(0);
    if (i >= count) return;
    const float e = fabs(c[i] - ref[i]) / scale;
    if (!isfinite(e)) {
        out[i] = (uchar4)(255, 0, 255, 255);
        return;
    }
    const float level = clamp((log10(fmax(e, 1e-12f)) + 8.0f) / 6.0f, 0.0f, 1.0f);
    out[i] = (uchar4)(255, convert_uchar_sat(255.0f * (1.0f - 0.6f * level)), 0,
                      convert_uchar_sat(level * 230.0f));
}
