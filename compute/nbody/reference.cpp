#include "compute/nbody/reference.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace clviz {

NbodyReferenceState NbodyReferenceState::from(const std::vector<Body>& bodies) {
    NbodyReferenceState s;
    s.pos.reserve(bodies.size());
    s.vel.reserve(bodies.size());
    for (const Body& b : bodies) {
        s.pos.push_back({b.pos.x, b.pos.y, b.pos.z, b.pos.w});
        s.vel.push_back({b.vel.x, b.vel.y, b.vel.z, b.vel.w});
    }
    return s;
}

NbodyReferenceForces referenceForces(const std::vector<Vec4d>& pos, double softening) {
    const double eps2 = softening * softening;
    const std::size_t n = pos.size();
    NbodyReferenceForces f;
    f.acc.assign(n, {0, 0, 0});
    f.termSum.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        double ax = 0, ay = 0, az = 0, sum = 0;
        for (std::size_t j = 0; j < n; ++j) {
            const double dx = pos[j][0] - pos[i][0];
            const double dy = pos[j][1] - pos[i][1];
            const double dz = pos[j][2] - pos[i][2];
            const double r2 = dx * dx + dy * dy + dz * dz + eps2;
            if (r2 == 0) continue;
            const double s = pos[j][3] / (r2 * std::sqrt(r2));
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
            sum += std::abs(s) * std::sqrt(dx * dx + dy * dy + dz * dz);
        }
        f.acc[i] = {ax, ay, az};
        f.termSum[i] = sum;
    }
    return f;
}

void referenceStep(NbodyReferenceState& st, NbodyIntegrator integrator, const NbodyParams& params,
                   int steps) {
    const double dt = params.dt, damping = params.damping;
    const std::size_t n = st.pos.size();
    for (int s = 0; s < steps; ++s) {
        auto a = referenceForces(st.pos, params.softening).acc;
        if (integrator == NbodyIntegrator::Leapfrog) {
            for (std::size_t i = 0; i < n; ++i)
                for (int c = 0; c < 3; ++c) {
                    st.vel[i][c] = damping * st.vel[i][c] + a[i][c] * dt / 2;
                    st.pos[i][c] += st.vel[i][c] * dt;
                }
            a = referenceForces(st.pos, params.softening).acc;
            for (std::size_t i = 0; i < n; ++i)
                for (int c = 0; c < 3; ++c)
                    st.vel[i][c] += a[i][c] * dt / 2;
        } else {
            for (std::size_t i = 0; i < n; ++i)
                for (int c = 0; c < 3; ++c) {
                    st.pos[i][c] += st.vel[i][c] * dt + a[i][c] * (0.5 * dt * dt);
                    st.vel[i][c] = (st.vel[i][c] + a[i][c] * dt) * damping;
                }
        }
    }
}

NbodyReferenceEnergy referenceEnergy(const NbodyReferenceState& st, double softening) {
    const double eps2 = softening * softening;
    NbodyReferenceEnergy e;
    const std::size_t n = st.pos.size();
    for (std::size_t i = 0; i < n; ++i) {
        const auto& p = st.pos[i];
        const auto& v = st.vel[i];
        e.kinetic += 0.5 * p[3] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        for (int c = 0; c < 3; ++c)
            e.momentum[c] += p[3] * v[c];
        for (std::size_t j = i + 1; j < n; ++j) {
            const double dx = st.pos[j][0] - p[0], dy = st.pos[j][1] - p[1],
                         dz = st.pos[j][2] - p[2];
            const double r2 = dx * dx + dy * dy + dz * dz + eps2;
            if (r2 > 0) e.potential -= p[3] * st.pos[j][3] / std::sqrt(r2);
        }
    }
    return e;
}

std::vector<double> referencePotentials(const std::vector<Vec4d>& pos, double softening) {
    const double eps2 = softening * softening;
    std::vector<double> phi(pos.size(), 0.0);
    for (std::size_t i = 0; i < pos.size(); ++i)
        for (std::size_t j = 0; j < pos.size(); ++j) {
            const double dx = pos[j][0] - pos[i][0], dy = pos[j][1] - pos[i][1],
                         dz = pos[j][2] - pos[i][2];
            const double r2 = dx * dx + dy * dy + dz * dz + eps2;
            if (j != i && r2 > 0) phi[i] -= pos[j][3] / std::sqrt(r2);
        }
    return phi;
}

double worstStateError(const std::vector<Body>& start, const std::vector<Body>& got,
                       const NbodyReferenceState& ref, double rel) {
    double worst = 0;
    auto check = [&](const Float4& s, const Float4& g, const Vec4d& r) {
        const double moved = std::hypot(r[0] - s.x, r[1] - s.y, r[2] - s.z);
        const double size = std::hypot(r[0], r[1], r[2]);
        const double err = std::hypot(g.x - r[0], g.y - r[1], g.z - r[2]);
        const double tol = rel * moved + 4 * FLT_EPSILON * size + 1e-30;
        return std::isfinite(err) ? err / tol : INFINITY;
    };
    for (std::size_t i = 0; i < got.size(); ++i) {
        worst = std::max(worst, check(start[i].pos, got[i].pos, ref.pos[i]));
        worst = std::max(worst, check(start[i].vel, got[i].vel, ref.vel[i]));
    }
    return worst;
}

double worstSplitDifference(const std::vector<Body>& a, const std::vector<Body>& b) {
    double worst = 0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        const float x[6] = {a[i].pos.x, a[i].pos.y, a[i].pos.z, a[i].vel.x, a[i].vel.y, a[i].vel.z};
        const float y[6] = {b[i].pos.x, b[i].pos.y, b[i].pos.z, b[i].vel.x, b[i].vel.y, b[i].vel.z};
        for (int c = 0; c < 6; ++c) {
            const double r = std::abs(double(x[c]) - y[c]) / (std::abs(double(y[c])) + 1e-3);
            if (!std::isfinite(r)) return INFINITY;
            worst = std::max(worst, r);
        }
    }
    return worst;
}

}  // namespace clviz
