#pragma once
// `#include "…"` for OpenCL C sources, resolved by clviz rather than by the driver: the embedded
// kernels have no directory the compiler could search, and the program binary cache and the live
// reloader must know every file a program is made of. Include names are relative to the kernel
// directory ("common/real.clh"), whichever file includes them. The included text is spliced in
// place between `#line` directives, so compilers that honour them (PoCL) report errors at the
// header's own file and line ("kernels/common/real.clh:12"); for those that do not (NVIDIA's),
// withOriginalPositions maps the log's positions back. Headers guard themselves with #ifndef, as
// in C. Includes are resolved whatever the conditionals around them say.
#include <functional>
#include <string>
#include <vector>

namespace clviz {

struct ExpandedKernelSource {
    std::string text;                   // what the compiler gets
    std::vector<std::string> includes;  // every file spliced in, once each, in order of first use
};

// Reads one file of the kernel directory by name; throws clviz::Error when it cannot.
using ReadKernelFile = std::function<std::string(const std::string& name)>;

// `name` with every `#include "…"` line replaced by the file it names, recursively. Throws
// clviz::Error naming the including file and line ("kernels/nbody_force.cl:7: ...") for a file
// that cannot be read, a name that leaves the kernel directory, or an include cycle. A source
// without includes comes back unchanged.
ExpandedKernelSource expandKernelIncludes(const std::string& name, const ReadKernelFile& read);

// Where line `line` (1-based) of the expanded text of kernels/<root> came from: "kernels/F:L", as
// the #line directives in `expanded` say. Compilers that ignore #line (NVIDIA's) report positions
// in the expanded text; this names the file the line really is in.
std::string originalPosition(const std::string& root, const std::string& expanded, int line);

// `log` with each position a compiler gave in its own name for the source ("<kernel>:12:",
// PoCL's ".../tempfile_Ab.cl:12:") replaced by the file and line it came from
// ("kernels/common/gravity.clh:5:"). Positions already naming a file (#line honoured) stay.
std::string withOriginalPositions(const std::string& log, const std::string& root,
                                  const std::string& expanded);

// The file name of one `#include "…"` line, or "" when the line is not one.
std::string includedName(const std::string& line);

}  // namespace clviz
