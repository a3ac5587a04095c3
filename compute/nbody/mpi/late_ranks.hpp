#pragma once
// What the ranks that time out in the same collective conclude from each other's reports, so that
// the message names the rank that is missing ("rank 1 did not reach the position exchange of
// step 812 within 60 s") instead of "another rank". Pure: no MPI, unit-tested.
#include <string>
#include <vector>

namespace clviz {

struct LateRanksVerdict {
    std::vector<int> missing;  // ranks that did not report reaching the collective, in order
    int speaker = 0;           // the lowest rank that did: it ends the run with the message
};

// reached[r]: the sequence number of the collective rank r reported waiting in (-1: no report).
// `me` counts as present; a rank waiting in another collective counts as missing.
LateRanksVerdict judgeLateRanks(int me, long long sequence, const std::vector<long long>& reached);

// "rank 1 did not reach the position exchange of step 812 within 60 s (it exited, hung, or takes
// longer than that for a share of the work; --mpi-timeout raises the limit); ending the run", or,
// when every rank reached it, a sentence that says so.
std::string lateRanksMessage(const LateRanksVerdict& verdict, const std::string& what,
                             double timeoutSeconds);

}  // namespace clviz
