#pragma once
// PoCL compiles a kernel at its first launch (seconds on a cold cache), so the first frame that
// turns a filter or a variant on would stall. The image lab's start job (off the frame) launches
// every filter, rotate variant, histogram variant and equalize mode once on a small picture, so
// that later choices find their kernels compiled. On GPUs it costs a few milliseconds.
#include <functional>
#include <string>
#include <vector>

namespace clviz {

class ImagePipeline;

// Runs `pipeline` over its own 256 x 192 source with every kind of step on, once per rotate
// variant the device can run (each with the next histogram variant and equalize mode), and
// reports each run as step(done, total). Returns the labels of every step that ran. Leaves the
// pipeline with that small source and the last chain: set the source and steps wanted next.
std::vector<std::string> launchEveryImageKernel(ImagePipeline& pipeline,
                                                const std::function<void(int, int)>& step = {});

}  // namespace clviz
