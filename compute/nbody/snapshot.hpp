#pragma once
// Saving and loading N-body states: clviz's own binary format (docs/snapshot-format.md: exact
// round trip, checked size and checksum) and the TIPSY format of the cuda-samples N-body demo.
// Every malformed input is a clviz::Error whose message names the file and what is wrong.
#include <string>
#include <vector>

#include "compute/nbody/body.hpp"

namespace clviz {

struct NbodySnapshot {
    std::vector<Body> bodies;
    double time = 0;      // simulated time
    float dt = 0;         // 0 = unknown (TIPSY files carry none)
    float softening = 0;  // 0 = unknown
    std::string format;   // "clviz" or "tipsy-le"/"tipsy-be" after loading
};

void saveSnapshot(const std::string& path, const NbodySnapshot& snapshot);
NbodySnapshot loadClvizSnapshot(const std::string& path);
// TIPSY (gas, dark and star particles; little- or big-endian, detected from ndim).
NbodySnapshot loadTipsy(const std::string& path);
// Either format, chosen from the file's first bytes.
NbodySnapshot loadSnapshot(const std::string& path);

// The same from memory (what the file functions use; handy for fuzzing). `name` goes into
// error messages.
NbodySnapshot parseClvizSnapshot(const std::vector<unsigned char>& bytes, const std::string& name);
NbodySnapshot parseTipsy(const std::vector<unsigned char>& bytes, const std::string& name);
std::vector<unsigned char> serializeClvizSnapshot(const NbodySnapshot& snapshot);

}  // namespace clviz
