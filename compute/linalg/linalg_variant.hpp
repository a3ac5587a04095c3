#pragma once
// One row of a linear-algebra variant table: what the GUI lists, the bench prints and the tests
// iterate over. Kept apart from the classes so the demo can show the table without a device.
namespace clviz {

struct LinalgVariantInfo {
    const char* id;           // stable, for CLI / bench rows: "gemm-regblock"
    const char* name;         // short label: "Register-blocked 2-D tiles"
    const char* description;  // one sentence for a tooltip
    const char* kernel;       // kernels/<file>:<kernel name>
    const char* defines;      // the -D switches that select or shape it
    const char* tunables;     // the -D tile parameters a tuner may change ("" when none)
    bool needsInlinePtx;      // the fast path is NVIDIA inline PTX (a portable twin runs elsewhere)
};

}  // namespace clviz
