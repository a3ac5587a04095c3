#include "render/nbody/camera.hpp"

#include <algorithm>
#include <cmath>

namespace clviz {

Vec3 operator+(Vec3 a, Vec3 b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
Vec3 operator-(Vec3 a, Vec3 b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
Vec3 operator*(Vec3 a, float s) {
    return {a.x * s, a.y * s, a.z * s};
}
float dot(Vec3 a, Vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
float length(Vec3 a) {
    return std::sqrt(dot(a, a));
}
Vec3 normalize(Vec3 a) {
    float l = length(a);
    return l > 0 ? a * (1.0f / l) : Vec3{};
}

Mat4 Mat4::identity() {
    Mat4 r;
    r.m[0] = r.m[5] = r.m[10] = r.m[15] = 1;
    return r;
}

Mat4 operator*(const Mat4& a, const Mat4& b) {
    Mat4 r;
    for (int c = 0; c < 4; ++c)
        for (int row = 0; row < 4; ++row) {
            float s = 0;
            for (int k = 0; k < 4; ++k)
                s += a.at(row, k) * b.at(k, c);
            r.m[c * 4 + row] = s;
        }
    return r;
}

Vec4 operator*(const Mat4& a, Vec4 v) {
    const float in[4] = {v.x, v.y, v.z, v.w};
    float out[4];
    for (int row = 0; row < 4; ++row) {
        float s = 0;
        for (int k = 0; k < 4; ++k)
            s += a.at(row, k) * in[k];
        out[row] = s;
    }
    return {out[0], out[1], out[2], out[3]};
}

Mat4 perspective(float fovYRadians, float aspect, float zNear, float zFar) {
    const float f = 1.0f / std::tan(fovYRadians / 2);
    Mat4 r;
    r.m[0] = f / aspect;
    r.m[5] = f;
    r.m[10] = (zFar + zNear) / (zNear - zFar);
    r.m[11] = -1;
    r.m[14] = 2 * zFar * zNear / (zNear - zFar);
    return r;
}

Mat4 lookAt(Vec3 eye, Vec3 target, Vec3 up) {
    const Vec3 f = normalize(target - eye);
    const Vec3 s = normalize(cross(f, up));
    const Vec3 u = cross(s, f);
    Mat4 r = Mat4::identity();
    r.m[0] = s.x, r.m[4] = s.y, r.m[8] = s.z;
    r.m[1] = u.x, r.m[5] = u.y, r.m[9] = u.z;
    r.m[2] = -f.x, r.m[6] = -f.y, r.m[10] = -f.z;
    r.m[12] = -dot(s, eye);
    r.m[13] = -dot(u, eye);
    r.m[14] = dot(f, eye);
    return r;
}

namespace {
constexpr float kMaxPitch = 1.55f;  // just short of the poles, where lookAt's up degenerates
constexpr float kHomeYaw = 0.9f;
constexpr float kHomePitch = 0.6f;  // disks in the xy plane (the presets) seen at ~60 degrees
}  // namespace

OrbitCamera::OrbitCamera() {
    frame(1.0f);
}

void OrbitCamera::frame(float radius) {
    radius_ = radius > 0 && std::isfinite(radius) ? radius : 1.0f;
    // Fits a sphere of `radius` in the vertical field of view with a 10% margin.
    homeDistance_ = 1.1f * radius_ / std::sin(fovY_ / 2);
    reset();
}

void OrbitCamera::reset() {
    target_ = {};
    distance_ = homeDistance_;
    yaw_ = kHomeYaw;
    pitch_ = kHomePitch;
}

void OrbitCamera::rotate(float dxPixels, float dyPixels) {
    yaw_ = std::remainder(yaw_ - dxPixels * kRotateSpeed, 6.2831853f);
    pitch_ = std::clamp(pitch_ + dyPixels * kRotateSpeed, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(float dxPixels, float dyPixels, int viewportHeight) {
    if (viewportHeight <= 0) return;
    // World units per pixel in the plane through the target.
    const float unitsPerPixel = 2 * distance_ * std::tan(fovY_ / 2) / float(viewportHeight);
    const Vec3 forward = normalize(target_ - eye());
    const Vec3 right = normalize(cross(forward, {0, 1, 0}));
    const Vec3 up = cross(right, forward);
    target_ = target_ - right * (dxPixels * unitsPerPixel) + up * (dyPixels * unitsPerPixel);
}

void OrbitCamera::zoom(float steps) {
    distance_ = std::clamp(distance_ * std::pow(0.9f, steps), radius_ / 1000, radius_ * 1000);
}

Vec3 OrbitCamera::eye() const {
    const float c = std::cos(pitch_);
    return target_ + Vec3{distance_ * c * std::sin(yaw_), distance_ * std::sin(pitch_),
                          distance_ * c * std::cos(yaw_)};
}

Mat4 OrbitCamera::view() const {
    return lookAt(eye(), target_, {0, 1, 0});
}

Mat4 OrbitCamera::projection(float aspect) const {
    const float zNear = std::max(distance_ * 0.01f, 1e-5f);
    const float zFar = distance_ + radius_ * 20;
    return perspective(fovY_, aspect > 0 ? aspect : 1.0f, zNear, zFar);
}

float OrbitCamera::pixelsPerUnitAtDistance1(int viewportHeight) const {
    return float(viewportHeight) / (2 * std::tan(fovY_ / 2));
}

}  // namespace clviz
