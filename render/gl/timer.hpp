#pragma once
// GPU time of a stretch of GL commands (GL_TIME_ELAPSED queries, core since 3.3). A ring of
// queries is read a few frames later, so measuring never stalls the pipeline.
#include <glad/gl.h>

#include "render/gl/resources.hpp"

namespace clviz {

class GlTimer {
  public:
    GlTimer();
    void begin();  // one begin/end pair per frame; nesting is not allowed by GL
    void end();
    // The newest finished measurement in ms, or a negative value before the first one.
    double lastMs() const { return lastMs_; }
    bool available() const { return available_; }

  private:
    static constexpr int kRing = 4;
    GlQuery queries_[kRing];
    bool pending_[kRing] = {};
    int next_ = 0;
    bool open_ = false;
    bool available_ = false;
    double lastMs_ = -1;
};

}  // namespace clviz
