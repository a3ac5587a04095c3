#pragma once
// Collects benchmark rows and writes them as a console table, JSON and CSV.
#include <string>
#include <utility>
#include <vector>

namespace clviz::bench {

struct BenchRow {
    std::string suite;    // "nbody", "image", "baseline"
    std::string variant;  // kernel variant or "cpu-baseline"
    std::string config;   // e.g. "wg=256 unroll=4"
    std::string size;     // e.g. "N=65536" or "4096x4096"
    double medianMs = 0;
    double minMs = 0;
    double maxMs = 0;
    int samples = 0;
    // Named figures of merit, e.g. {"interactions/s", 1.2e12}, {"GB/s", 3500}.
    std::vector<std::pair<std::string, double>> metrics;
    std::string note;  // e.g. "x12.3 vs CPU baseline" or "failed: ..."
};

class BenchReport {
  public:
    void setDevice(std::string description) { device_ = std::move(description); }
    void add(BenchRow row) { rows_.push_back(std::move(row)); }
    const std::vector<BenchRow>& rows() const { return rows_; }

    std::string table() const;
    void writeJson(const std::string& path) const;  // throws clviz::Error on I/O failure
    void writeCsv(const std::string& path) const;

  private:
    std::string device_;
    std::vector<BenchRow> rows_;
};

// Progress line on stderr ("[ 3/24] nbody tiled N=65536 wg=256"), overwritten in a terminal.
void progress(int index, int total, const std::string& what);
void progressDone();

}  // namespace clviz::bench
