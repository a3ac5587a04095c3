#include "app/linalg/gemm_reference.hpp"

#include <algorithm>
#include <cmath>

namespace clviz {

std::vector<float> referenceGemm(const GemmShape& s, const std::vector<float>& a,
                                 const std::vector<float>& b, const std::atomic<bool>* cancel) {
    const std::size_t m = std::size_t(s.m), n = std::size_t(s.n), k = std::size_t(s.k);
    std::vector<float> c(m * n);
    std::vector<double> row(n);
    for (std::size_t i = 0; i < m; ++i) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return {};
        std::fill(row.begin(), row.end(), 0.0);
        for (std::size_t p = 0; p < k; ++p) {
            const double aip = s.transA ? a[p * m + i] : a[i * k + p];
            if (s.transB) {
                for (std::size_t j = 0; j < n; ++j)
                    row[j] += aip * double(b[j * k + p]);
            } else {
                const float* bp = &b[p * n];
                for (std::size_t j = 0; j < n; ++j)
                    row[j] += aip * double(bp[j]);
            }
        }
        for (std::size_t j = 0; j < n; ++j)
            c[i * n + j] = float(row[j]);
    }
    return c;
}

GemmError compareGemm(const std::vector<float>& c, const std::vector<float>& ref) {
    GemmError e;
    double diff2 = 0, ref2 = 0;
    const std::size_t count = std::min(c.size(), ref.size());
    for (std::size_t i = 0; i < count; ++i) {
        if (!std::isfinite(c[i])) e.finite = false;
        const double d = std::abs(double(c[i]) - double(ref[i]));
        e.maxAbs = std::max(e.maxAbs, d);
        e.maxRef = std::max(e.maxRef, std::abs(double(ref[i])));
        diff2 += d * d;
        ref2 += double(ref[i]) * double(ref[i]);
    }
    if (!e.finite)
        e.maxAbs = e.relFrobenius = INFINITY;
    else
        e.relFrobenius = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
    return e;
}

}  // namespace clviz
