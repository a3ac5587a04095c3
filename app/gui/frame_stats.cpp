#include "app/gui/frame_stats.hpp"

#include <algorithm>

namespace clviz {

void FrameStats::add(double seconds) {
    if (!(seconds > 0) || seconds > 3600) return;  // also rejects NaN
    history_[next_] = static_cast<float>(seconds * 1000.0);
    next_ = (next_ + 1) % kHistory;
    count_ = std::min(count_ + 1, kHistory);
}

double FrameStats::meanMs() const {
    if (count_ == 0) return 0;
    double sum = 0;
    for (std::size_t i = 0; i < count_; ++i)
        sum += history_[(next_ + kHistory - 1 - i) % kHistory];
    return sum / static_cast<double>(count_);
}

double FrameStats::minMs() const {
    if (count_ == 0) return 0;
    float m = history_[(next_ + kHistory - 1) % kHistory];
    for (std::size_t i = 0; i < count_; ++i)
        m = std::min(m, history_[(next_ + kHistory - 1 - i) % kHistory]);
    return m;
}

double FrameStats::maxMs() const {
    if (count_ == 0) return 0;
    float m = 0;
    for (std::size_t i = 0; i < count_; ++i)
        m = std::max(m, history_[(next_ + kHistory - 1 - i) % kHistory]);
    return m;
}

double FrameStats::fps() const {
    const double mean = meanMs();
    return mean > 0 ? 1000.0 / mean : 0;
}

}  // namespace clviz
