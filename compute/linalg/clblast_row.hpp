#pragma once
// CLBlast (Debian libclblast-dev) as the library row beside clviz's own kernels: its SGEMM and
// SSYRK on the same context and queue. CLBlast's database has no entry for every device (Hopper
// falls back to generic parameters), so tuned parameters from its own tuners
// (clblast_tuner_xgemm, in clblast-utils) can be imported once and are cached on disk beside the
// program cache, keyed by device; rows say whether they ran tuned.
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "compute/core/cl.hpp"
#include "compute/linalg/gemm.hpp"

namespace clviz {

class ComputeContext;
struct DeviceInfo;

// A CLBlast routine may enqueue several kernels (padding, transposing, the product) but hands back
// the last one's event only: `first` is a marker enqueued just before the call, so the span from
// its start to the end of `last` covers the whole routine.
struct ClblastWork {
    cl::Event first, last;
    double milliseconds() const;  // waits for `last`
};

// Parameters of one CLBlast kernel ("Xgemm"): NAME -> value.
using ClblastParameters = std::map<std::string, std::size_t>;

class ClblastRow {
  public:
    // Applies the cached tuned parameters for this device, when there are any.
    explicit ClblastRow(ComputeContext& cc);

    // C = alpha op(A) op(B) + beta C through clblast::Gemm<float>, row-major, packed.
    // Throws clviz::Error with CLBlast's status code on failure.
    ClblastWork sgemm(const GemmShape& shape, float alpha, const cl::Buffer& a, const cl::Buffer& b,
                      float beta, const cl::Buffer& c);
    // Upper triangle of C = alpha A A^T + beta C, A n x k row-major (clblast::Syrk<float>).
    ClblastWork ssyrk(int n, int k, float alpha, const cl::Buffer& a, float beta,
                      const cl::Buffer& c);

    // "tuned (<file>)" or "default database"; which kernels were overridden.
    bool tuned() const { return !applied_.empty(); }
    std::string tuningNote() const;

    // Where this device's tuned parameters live: <cache>/clblast/<device>.txt, beside the
    // program cache (nullopt when caching is off).
    static std::optional<std::filesystem::path> tuningFile(const DeviceInfo& device);
    // Reads a clblast_tuner_* JSON result, picks its fastest configuration and stores it in the
    // cache file (one line per kernel). Returns "Xgemm KWG=32 ...". Throws clviz::Error.
    static std::string importTunerJson(const std::filesystem::path& json, const DeviceInfo& device);
    // Parses the cache file's lines: kernel -> parameters.
    static std::map<std::string, ClblastParameters> readTuningFile(
        const std::filesystem::path& file);

  private:
    ComputeContext& cc_;
    std::map<std::string, ClblastParameters> applied_;
    std::string source_;
};

}  // namespace clviz
