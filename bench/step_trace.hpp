#pragma once
// `clviz-bench --devices SET --timeline FILE`: the last timed step of each split row (and of its
// one-device baseline) in the Trace Event Format, which chrome://tracing and ui.perfetto.dev open:
// one process per device of a row, one thread per lane (kernels, slice copies, split build copies);
// a copy whose size is known carries it and its rate in its arguments ("bytes", "GB/s").
#include <string>
#include <utility>
#include <vector>

#include "compute/nbody/multi/step_timeline.hpp"

namespace clviz::bench {

// rows: a label ("tree x4 N=16777216") and its step. Throws clviz::Error if `path` cannot be
// written.
void writeStepTraces(const std::string& path,
                     const std::vector<std::pair<std::string, NbodyStepTimeline>>& rows);

}  // namespace clviz::bench
