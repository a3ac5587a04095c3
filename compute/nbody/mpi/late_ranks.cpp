#include "compute/nbody/mpi/late_ranks.hpp"

#include <cstdio>

namespace clviz {

LateRanksVerdict judgeLateRanks(int me, long long sequence, const std::vector<long long>& reached) {
    LateRanksVerdict v;
    v.speaker = me;
    for (int r = 0; r < static_cast<int>(reached.size()); ++r) {
        const bool present = r == me || reached[static_cast<std::size_t>(r)] == sequence;
        if (!present)
            v.missing.push_back(r);
        else if (r < v.speaker)
            v.speaker = r;
    }
    return v;
}

namespace {

// "1", "1 and 3", "1, 2 and 5"
std::string listRanks(const std::vector<int>& ranks) {
    std::string out;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (i > 0) out += i + 1 == ranks.size() ? " and " : ", ";
        out += std::to_string(ranks[i]);
    }
    return out;
}

}  // namespace

std::string lateRanksMessage(const LateRanksVerdict& verdict, const std::string& what,
                             double timeoutSeconds) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeoutSeconds);
    if (verdict.missing.empty())
        return "the " + what + " did not complete within " + seconds +
               " s although every rank reached it (a stalled network or an overloaded host; "
               "--mpi-timeout raises the limit); ending the run";
    const bool one = verdict.missing.size() == 1;
    return (one ? "rank " : "ranks ") + listRanks(verdict.missing) + " did not reach the " + what +
           " within " + seconds + " s (" +
           (one ? "it exited, hung, or takes" : "they exited, hung, or take") +
           " longer than that for a share of the work; --mpi-timeout raises the limit); "
           "ending the run";
}

}  // namespace clviz
