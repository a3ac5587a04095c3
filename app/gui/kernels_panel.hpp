#pragma once
// The Kernels panel: every OpenCL program with its build options, build time, origin (source or
// the binary cache) and status; the last failed build's log with error and warning lines
// highlighted and the offending source lines quoted; the reference-check button.
#include <string>
#include <vector>

#include "compute/core/program_cache.hpp"

namespace clviz {

class PanelStacks;

struct KernelsPanelModel {
    PanelStacks* stacks = nullptr;  // where it opens (no overlap with other panels)
    std::vector<ProgramRecord> programs;
    std::string kernelDir;    // "" = embedded sources
    std::string kernelWatch;  // "inotify", "polling ..." or "" when not watching
    bool building = false;
    std::string shaderDir;       // "" = embedded
    std::string binaryCacheDir;  // "" = disabled
    std::string failure;         // last failed reload (message with build log), or ""
    std::string failureFile;     // kernels/<file> of that failure
    std::string shaderFailure;
    std::string check;  // last reference check, or ""
    bool checkOk = false;
    bool demoHasCheck = false;
};

struct KernelsPanelActions {
    bool runCheck = false;
};

KernelsPanelActions drawKernelsPanel(bool* open, const KernelsPanelModel& model);

// "file:LINE:COL: error" lines in a compiler log: (file, line number, is error) for each, in order.
struct LogMark {
    int line = 0;      // 1-based line in the kernel source
    int column = 0;    // 1-based column where the compiler gives one (":LINE:COL:"), else 0
    std::string file;  // "common/real.clh" when the line names kernels/<file>, else ""
    bool error = true;
};
LogMark parseLogLine(const std::string& logLine);

}  // namespace clviz
