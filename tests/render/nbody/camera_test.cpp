// Orbit camera math: projections land where they should, drags and zoom behave, reset restores.
#include "render/nbody/camera.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace clviz {
namespace {

// Screen pixel (x right, y down) of world point p.
std::pair<float, float> toPixels(const OrbitCamera& cam, Vec3 p, int w, int h) {
    Vec4 clip = cam.projection(float(w) / float(h)) * (cam.view() * Vec4{p.x, p.y, p.z, 1});
    float nx = clip.x / clip.w, ny = clip.y / clip.w;
    return {(nx + 1) * 0.5f * w, (1 - ny) * 0.5f * h};
}

TEST(Camera, MatrixBasics) {
    Mat4 i = Mat4::identity();
    Mat4 p = perspective(1.0f, 1.5f, 0.1f, 100.0f);
    Mat4 ip = i * p;
    for (int k = 0; k < 16; ++k)
        EXPECT_FLOAT_EQ(ip.m[k], p.m[k]);
    // A point on the near plane maps to z = -1, on the far plane to z = +1.
    Vec4 n = p * Vec4{0, 0, -0.1f, 1};
    Vec4 f = p * Vec4{0, 0, -100.0f, 1};
    EXPECT_NEAR(n.z / n.w, -1.0f, 1e-5);
    EXPECT_NEAR(f.z / f.w, 1.0f, 1e-4);
    // lookAt: orthonormal rotation part, eye maps to the origin, target onto -z.
    Vec3 eye{3, 4, 5}, target{1, -2, 0.5f};
    Mat4 v = lookAt(eye, target, {0, 1, 0});
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            float d = 0;
            for (int k = 0; k < 3; ++k)
                d += v.at(a, k) * v.at(b, k);
            EXPECT_NEAR(d, a == b ? 1.0f : 0.0f, 1e-5);
        }
    Vec4 e = v * Vec4{eye.x, eye.y, eye.z, 1};
    EXPECT_NEAR(e.x, 0, 1e-5);
    EXPECT_NEAR(e.y, 0, 1e-5);
    EXPECT_NEAR(e.z, 0, 1e-5);
    Vec4 t = v * Vec4{target.x, target.y, target.z, 1};
    EXPECT_NEAR(t.x, 0, 1e-4);
    EXPECT_NEAR(t.y, 0, 1e-4);
    EXPECT_NEAR(t.z, -length(target - eye), 1e-4);
}

TEST(Camera, FrameFitsTheSceneAndTargetIsCentred) {
    OrbitCamera cam;
    cam.frame(3.0f);
    auto [cx, cy] = toPixels(cam, {0, 0, 0}, 800, 600);
    EXPECT_NEAR(cx, 400, 1e-2);
    EXPECT_NEAR(cy, 300, 1e-2);
    // Every point of the framed sphere is on screen (vertical fit; the window is wider than tall).
    for (int i = 0; i < 200; ++i) {
        float a = i * 0.7f, b = i * 1.3f;
        Vec3 p{3 * std::cos(a) * std::cos(b), 3 * std::sin(b), 3 * std::sin(a) * std::cos(b)};
        auto [x, y] = toPixels(cam, p, 800, 600);
        EXPECT_GE(x, 0);
        EXPECT_LE(x, 800);
        EXPECT_GE(y, 0);
        EXPECT_LE(y, 600);
    }
    EXPECT_NEAR(length(cam.eye() - cam.target()), cam.distance(), 1e-4);
}

TEST(Camera, RotateKeepsDistanceAndClampsPitch) {
    OrbitCamera cam;
    cam.frame(2.0f);
    const float d = cam.distance();
    cam.rotate(123, -45);
    EXPECT_NEAR(length(cam.eye() - cam.target()), d, 1e-4);
    EXPECT_NEAR(cam.yaw(), std::remainder(0.9f - 123 * OrbitCamera::kRotateSpeed, 6.2831853f),
                1e-5);
    cam.rotate(0, 1e6f);  // far past the pole
    EXPECT_LT(cam.pitch(), 1.5708f);
    cam.rotate(0, -1e6f);
    EXPECT_GT(cam.pitch(), -1.5708f);
    // The view matrix stays finite at the clamp.
    for (float x : cam.view().m)
        EXPECT_TRUE(std::isfinite(x));
}

TEST(Camera, ZoomIsMultiplicativeAndBounded) {
    OrbitCamera cam;
    cam.frame(1.0f);
    const float d = cam.distance();
    cam.zoom(3);
    EXPECT_LT(cam.distance(), d);
    cam.zoom(-3);
    EXPECT_NEAR(cam.distance(), d, d * 1e-5);
    cam.zoom(1e4f);
    EXPECT_NEAR(cam.distance(), 1.0f / 1000, 1e-6);
    cam.zoom(-1e5f);
    EXPECT_NEAR(cam.distance(), 1000.0f, 1e-2);
}

TEST(Camera, PanMakesTheTargetFollowTheCursor) {
    OrbitCamera cam;
    cam.frame(4.0f);
    cam.rotate(50, 30);
    const Vec3 old = cam.target();
    cam.pan(37, -21, 600);
    // The old target point moved on screen by exactly the drag.
    auto [x, y] = toPixels(cam, old, 800, 600);
    EXPECT_NEAR(x, 400 + 37, 0.05);
    EXPECT_NEAR(y, 300 - 21, 0.05);
    const Vec3 before = cam.target();
    cam.pan(5, 5, 0);  // a minimized window changes nothing
    EXPECT_EQ(length(cam.target() - before), 0.0f);
}

TEST(Camera, ResetRestoresTheFramedView) {
    OrbitCamera cam;
    cam.frame(2.5f);
    const Vec3 eye = cam.eye();
    cam.rotate(300, 100);
    cam.pan(40, 40, 500);
    cam.zoom(7);
    cam.reset();
    EXPECT_NEAR(length(cam.eye() - eye), 0, 1e-5);
    EXPECT_NEAR(length(cam.target()), 0, 1e-6);
    cam.frame(-1);  // nonsense radius falls back to 1
    EXPECT_TRUE(std::isfinite(cam.distance()));
    EXPECT_GT(cam.distance(), 0);
}

TEST(Camera, PointScaleMatchesProjection) {
    OrbitCamera cam;
    cam.frame(1.0f);
    // A segment of length 1 at eye distance D, perpendicular to the view, spans scale / D pixels.
    const int h = 720;
    const float scale = cam.pixelsPerUnitAtDistance1(h);
    Vec4 a = cam.projection(1.0f) * Vec4{0, 0, -10, 1};
    Vec4 b = cam.projection(1.0f) * Vec4{0, 1, -10, 1};
    float pixels = (b.y / b.w - a.y / a.w) * 0.5f * h;
    EXPECT_NEAR(pixels, scale / 10, 1e-3);
}

}  // namespace
}  // namespace clviz
