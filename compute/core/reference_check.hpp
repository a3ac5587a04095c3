#pragma once
// The correctness guard of live reload: after editing a kernel, check a small sample of what the
// demo is running right now against the CPU reference, so a broken kernel shows at once. Each
// feature has its own check beside its code (compute/nbody/reference_check.hpp,
// compute/image/reference_check.hpp), so a demo links only its own feature.
#include <string>

namespace clviz {

struct ReferenceCheck {
    bool ok = false;
    std::string message;  // one line: what was compared and the worst error
};

}  // namespace clviz
