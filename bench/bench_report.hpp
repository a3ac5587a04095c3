#pragma once
// Collects benchmark rows and writes them as a console table (streamed as rows finish), JSON and
// CSV. The default table fits 100 columns: one main figure per row, notes cut short, failures as
// FAIL with one line per distinct failure below the table. --wide prints every metric.
#include <iosfwd>
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
    // Named figures of merit, e.g. {"interactions/s", 1.2e12}, {"GB/s", 3500}. The first is the
    // row's main figure (the compact table's "rate" column).
    std::vector<std::pair<std::string, double>> metrics;
    std::string note;  // e.g. "x12.3 vs CPU" or "failed: ..." (a failed row)

    bool failed() const { return note.rfind("failed", 0) == 0; }
    // Ran, but its result differs from the CPU reference ("WRONG: ..." in the note).
    bool wrong() const { return note.find("WRONG") != std::string::npos; }
    std::string failure() const;  // the note without "failed: ", for a failed row
};

enum class TableStyle { Compact, Wide };

class BenchReport {
  public:
    static constexpr std::size_t kCompactColumns = 100;

    void setDevice(std::string description) { device_ = std::move(description); }
    void setStyle(TableStyle style) { style_ = style; }
    // Each row is written to `out` as it is added (the header before the first one).
    void streamTo(std::ostream* out) { stream_ = out; }
    void add(BenchRow row);
    const std::vector<BenchRow>& rows() const { return rows_; }
    int failedRows() const;

    // Header and every row, then the footer: what the stream would have shown.
    std::string table() const;
    // After the last row: the one-sample mark's meaning and one line per distinct failure
    // ("failed: <why> (rows: ...)"); "" when there is nothing to say.
    std::string footer() const;
    void writeJson(const std::string& path) const;  // throws clviz::Error on I/O failure
    void writeCsv(const std::string& path) const;

  private:
    std::string header() const;
    std::string line(const BenchRow& row) const;
    std::string heading(std::size_t index) const;  // "== suite ==" where a suite starts
    int failureNumber(const BenchRow& row) const;  // 1-based index among distinct failures

    std::string device_;
    TableStyle style_ = TableStyle::Compact;
    std::ostream* stream_ = nullptr;
    bool headerShown_ = false;
    std::vector<BenchRow> rows_;
};

// The exit status of a run: 0 when every row succeeded, 1 when a row failed or was WRONG.
int exitStatusFor(const BenchReport& report);

// Progress line on stderr ("[ 3/24] nbody tiled N=65536 wg=256"), overwritten in a terminal.
void progress(int index, int total, const std::string& what);
void progressDone();

}  // namespace clviz::bench
