#pragma once
// Live reload's check of the image filters: a crop of at most maxSide x maxSide pixels.
#include "compute/core/reference_check.hpp"

namespace clviz {

class ImagePipeline;
class ComputeContext;

// The enabled filters, one at a time, on a centred crop (at most maxSide x maxSide) of the
// current source, each against its CPU reference, with the tolerances the tests use.
ReferenceCheck checkImageAgainstReference(ComputeContext& cc, const ImagePipeline& live,
                                          int maxSide = 256);

}  // namespace clviz
