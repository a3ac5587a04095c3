#pragma once
// Orbit camera and the little 3D math it needs (column-major 4x4 matrices, as GL takes them).
// Pure math: no GL, unit-tested.
#include <array>

namespace clviz {

struct Vec3 {
    float x = 0, y = 0, z = 0;
};
Vec3 operator+(Vec3 a, Vec3 b);
Vec3 operator-(Vec3 a, Vec3 b);
Vec3 operator*(Vec3 a, float s);
float dot(Vec3 a, Vec3 b);
Vec3 cross(Vec3 a, Vec3 b);
float length(Vec3 a);
Vec3 normalize(Vec3 a);

struct Vec4 {
    float x = 0, y = 0, z = 0, w = 0;
};

// Column-major: element (row r, column c) is m[c * 4 + r].
struct Mat4 {
    std::array<float, 16> m{};
    static Mat4 identity();
    float at(int row, int col) const { return m[col * 4 + row]; }
    const float* data() const { return m.data(); }
};
Mat4 operator*(const Mat4& a, const Mat4& b);
Vec4 operator*(const Mat4& a, Vec4 v);

// OpenGL conventions: right-handed eye space looking down -z, clip z in [-w, w].
Mat4 perspective(float fovYRadians, float aspect, float zNear, float zFar);
Mat4 lookAt(Vec3 eye, Vec3 target, Vec3 up);

// Looks at `target` from `distance` away, at angles yaw (about +y) and pitch (above the xz plane).
// Left drag rotates, scroll zooms (multiplicatively, so it feels the same at every scale), right
// or shift drag pans in the view plane so the point under the cursor follows it.
class OrbitCamera {
  public:
    OrbitCamera();

    // Frames a scene of `radius` around the origin and makes that the view reset() returns to.
    void frame(float radius);
    void reset();

    void rotate(float dxPixels, float dyPixels);
    // Moves the target so the scene follows the cursor; `viewportHeight` in pixels.
    void pan(float dxPixels, float dyPixels, int viewportHeight);
    // Positive steps move closer. Distance stays within [radius / 1000, radius * 1000].
    void zoom(float steps);

    Vec3 eye() const;
    Vec3 target() const { return target_; }
    float distance() const { return distance_; }
    float yaw() const { return yaw_; }
    float pitch() const { return pitch_; }
    float fovY() const { return fovY_; }

    Mat4 view() const;
    // Near and far planes follow the distance, so depth precision suits any zoom.
    Mat4 projection(float aspect) const;
    // Pixels per world unit at eye distance 1: gl_PointSize = scale * size / distance.
    float pixelsPerUnitAtDistance1(int viewportHeight) const;

    // Radians per pixel of drag.
    static constexpr float kRotateSpeed = 0.005f;

  private:
    Vec3 target_;
    float distance_ = 5;
    float yaw_ = 0;
    float pitch_ = 0;
    float fovY_ = 0.7853982f;  // 45 degrees
    float homeDistance_ = 5;
    float radius_ = 1;
};

}  // namespace clviz
