#pragma once
// The CPU reference of the lab's GEMM, C = op(A) op(B) (alpha 1, beta 0), accumulated in double,
// and how far a device result is from it. Pure, so the lab can run it on a worker thread and the
// tests can check it by hand.
#include <atomic>
#include <vector>

#include "compute/linalg/gemm.hpp"

namespace clviz {

// Row-major M x N. A and B are stored as GemmShape says (transA: K x M, transB: N x K).
// `cancel` (may be null) is polled once per row: when it turns true the result is empty.
std::vector<float> referenceGemm(const GemmShape& shape, const std::vector<float>& a,
                                 const std::vector<float>& b,
                                 const std::atomic<bool>* cancel = nullptr);

struct GemmError {
    double maxAbs = 0;        // max |C - ref|
    double maxRef = 0;        // max |ref|: the scale errors are read against
    double relFrobenius = 0;  // ||C - ref||_F / ||ref||_F (0 when ref is all zero and C equal)
    bool finite = true;       // every element of C is finite
};
GemmError compareGemm(const std::vector<float>& c, const std::vector<float>& ref);

}  // namespace clviz
