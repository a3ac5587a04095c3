#include "render/gl/timer.hpp"

namespace clviz {

GlTimer::GlTimer() {
    // GL_TIME_ELAPSED is core in 3.3; a context without it reports no query bits.
    GLint bits = 0;
    glGetQueryiv(GL_TIME_ELAPSED, GL_QUERY_COUNTER_BITS, &bits);
    available_ = bits > 0 && glGetError() == GL_NO_ERROR;
    if (available_)
        for (auto& q : queries_)
            q = makeGlQuery();
}

void GlTimer::begin() {
    if (!available_ || open_) return;
    // Collect whatever finished, oldest first, without waiting.
    for (int k = 1; k <= kRing; ++k) {
        int i = (next_ + k) % kRing;
        if (!pending_[i]) continue;
        GLint ready = 0;
        glGetQueryObjectiv(queries_[i].id(), GL_QUERY_RESULT_AVAILABLE, &ready);
        if (!ready) continue;
        GLuint64 ns = 0;
        glGetQueryObjectui64v(queries_[i].id(), GL_QUERY_RESULT, &ns);
        lastMs_ = double(ns) * 1e-6;
        pending_[i] = false;
    }
    if (pending_[next_]) {
        // The ring is full of unfinished queries: wait for the oldest rather than lose it.
        GLuint64 ns = 0;
        glGetQueryObjectui64v(queries_[next_].id(), GL_QUERY_RESULT, &ns);
        lastMs_ = double(ns) * 1e-6;
        pending_[next_] = false;
    }
    glBeginQuery(GL_TIME_ELAPSED, queries_[next_].id());
    open_ = true;
}

void GlTimer::end() {
    if (!available_ || !open_) return;
    glEndQuery(GL_TIME_ELAPSED);
    pending_[next_] = true;
    next_ = (next_ + 1) % kRing;
    open_ = false;
}

}  // namespace clviz
