#include "compute/nbody/cpu_baseline.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>

namespace clviz {

namespace {

// The hot loop, vectorized across i with GCC/Clang vector extensions: a block of kBlock i-bodies
// shares each j (as a work-group shares a tile) and each lane keeps its own sums, so no float
// reassociation is needed. Compiled for x86-64-v3 (AVX2+FMA) and plain x86-64, picked at load time,
// so it is as fast as -O3 gets on the machine it runs on without a -march=native build. 1/sqrt is a
// bit-trick estimate refined by three Newton steps (full float accuracy), as hand-tuned CPU N-body
// codes do with rsqrt: std::sqrt would not vectorize (errno) and sqrt + divide is slower.
// r2 == 0 (eps == 0, a body with itself) is masked to contribute nothing, as in the kernels.
typedef float vfloat __attribute__((vector_size(32)));
typedef std::int32_t vint __attribute__((vector_size(32)));
constexpr std::size_t kLanes = sizeof(vfloat) / sizeof(float);
constexpr std::size_t kVectors = 2;  // two independent vectors per block for instruction overlap
constexpr std::size_t kBlock = kLanes * kVectors;

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void forcesBlock(const float* __restrict x, const float* __restrict y, const float* __restrict z,
                 const float* __restrict m, std::size_t n, float eps2, const vfloat* xi,
                 const vfloat* yi, const vfloat* zi, vfloat* ax, vfloat* ay, vfloat* az) {
    vfloat sx[kVectors] = {}, sy[kVectors] = {}, sz[kVectors] = {};
    for (std::size_t j = 0; j < n; ++j) {
        const float xj = x[j], yj = y[j], zj = z[j], mj = m[j];
        for (std::size_t k = 0; k < kVectors; ++k) {
            const vfloat dx = xj - xi[k], dy = yj - yi[k], dz = zj - zi[k];
            const vfloat r2 = dx * dx + dy * dy + dz * dz + eps2;
            vfloat inv = (vfloat)(0x5f375a86 - ((vint)r2 >> 1));
            const vfloat h = 0.5f * r2;
            inv = inv * (1.5f - h * inv * inv);
            inv = inv * (1.5f - h * inv * inv);
            inv = inv * (1.5f - h * inv * inv);
            inv = (vfloat)((vint)inv & (r2 > 0.0f));
            const vfloat s = mj * inv * inv * inv;
            sx[k] += dx * s;
            sy[k] += dy * s;
            sz[k] += dz * s;
        }
    }
    for (std::size_t k = 0; k < kVectors; ++k) {
        ax[k] = sx[k];
        ay[k] = sy[k];
        az[k] = sz[k];
    }
}

void forcesRange(const std::vector<float>& x, const std::vector<float>& y,
                 const std::vector<float>& z, const std::vector<float>& m, float eps2,
                 std::size_t begin, std::size_t end, float* ax, float* ay, float* az) {
    const std::size_t n = x.size();
    for (std::size_t i = begin; i < end; i += kBlock) {
        // The last block may be partial: pad its i-bodies by repeating the last one.
        vfloat xi[kVectors], yi[kVectors], zi[kVectors], bx[kVectors], by[kVectors], bz[kVectors];
        for (std::size_t k = 0; k < kBlock; ++k) {
            const std::size_t idx = std::min(i + k, end - 1);
            xi[k / kLanes][k % kLanes] = x[idx];
            yi[k / kLanes][k % kLanes] = y[idx];
            zi[k / kLanes][k % kLanes] = z[idx];
        }
        forcesBlock(x.data(), y.data(), z.data(), m.data(), n, eps2, xi, yi, zi, bx, by, bz);
        for (std::size_t k = 0; k < kBlock && i + k < end; ++k) {
            ax[i + k] = bx[k / kLanes][k % kLanes];
            ay[i + k] = by[k / kLanes][k % kLanes];
            az[i + k] = bz[k / kLanes][k % kLanes];
        }
    }
}

}  // namespace

NbodyCpuBaseline::NbodyCpuBaseline(const std::vector<Body>& bodies, float softening)
    : eps2_(softening * softening) {
    for (const Body& b : bodies) {
        x_.push_back(b.pos.x);
        y_.push_back(b.pos.y);
        z_.push_back(b.pos.z);
        m_.push_back(b.pos.w);
    }
    ax_.assign(x_.size(), 0);
    ay_.assign(x_.size(), 0);
    az_.assign(x_.size(), 0);
}

double NbodyCpuBaseline::forcePass(std::size_t iCount, unsigned threads) {
    iCount = std::min(iCount, x_.size());
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads =
        static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(iCount, 1)));
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    const std::size_t chunk = (iCount + threads - 1) / threads;
    for (unsigned t = 0; t < threads; ++t) {
        const std::size_t b = std::min(iCount, t * chunk), e = std::min(iCount, b + chunk);
        pool.emplace_back([=, this] {
            forcesRange(x_, y_, z_, m_, eps2_, b, e, ax_.data(), ay_.data(), az_.data());
        });
    }
    for (auto& th : pool)
        th.join();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

}  // namespace clviz
