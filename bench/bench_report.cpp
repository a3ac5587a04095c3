#include "bench/bench_report.hpp"

#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/quoted_path.hpp"

namespace clviz::bench {

namespace {

std::string number(double v) {
    char buf[32];
    if (v != 0 && (v >= 1e6 || v < 1e-3))
        std::snprintf(buf, sizeof buf, "%.3e", v);
    else
        std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s)
        out += (c == '"') ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string isoNow() {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

}  // namespace

std::string BenchReport::table() const {
    std::vector<std::vector<std::string>> cells;
    cells.push_back(
        {"suite", "variant", "config", "size", "median ms", "min ms", "metrics", "note"});
    for (const auto& r : rows_) {
        std::string metrics;
        for (const auto& [name, value] : r.metrics)
            metrics += (metrics.empty() ? "" : "  ") + number(value) + " " + name;
        cells.push_back({r.suite, r.variant, r.config, r.size, number(r.medianMs), number(r.minMs),
                         metrics, r.note});
    }
    std::vector<std::size_t> width(cells[0].size(), 0);
    for (const auto& row : cells)
        for (std::size_t i = 0; i < row.size(); ++i)
            width[i] = std::max(width[i], row[i].size());
    std::ostringstream out;
    if (!device_.empty()) out << "Device: " << device_ << "\n";
    for (std::size_t r = 0; r < cells.size(); ++r) {
        for (std::size_t i = 0; i < cells[r].size(); ++i)
            out << std::left << std::setw(static_cast<int>(width[i]) + 2) << cells[r][i];
        out << "\n";
        if (r == 0) {
            std::size_t total = 0;
            for (auto w : width)
                total += w + 2;
            out << std::string(total, '-') << "\n";
        }
    }
    return out.str();
}

void BenchReport::writeJson(const std::string& path) const {
    std::ofstream out(path);
    if (!out) throw Error("cannot write " + quotedPath(path));
    // ordered_json keeps the keys in the order readers of older files saw them.
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    for (const auto& r : rows_) {
        nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
        for (const auto& [name, value] : r.metrics)
            metrics[name] = value;
        results.push_back({{"suite", r.suite},
                           {"variant", r.variant},
                           {"config", r.config},
                           {"size", r.size},
                           {"median_ms", r.medianMs},
                           {"min_ms", r.minMs},
                           {"max_ms", r.maxMs},
                           {"samples", r.samples},
                           {"metrics", metrics},
                           {"note", r.note}});
    }
    const nlohmann::ordered_json doc = {
        {"device", device_}, {"date", isoNow()}, {"results", results}};
    // A device name is the driver's bytes: invalid UTF-8 becomes U+FFFD rather than an exception.
    out << doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    if (!out) throw Error("error while writing " + quotedPath(path));
}

void BenchReport::writeCsv(const std::string& path) const {
    std::ofstream out(path);
    if (!out) throw Error("cannot write " + quotedPath(path));
    out << "suite,variant,config,size,median_ms,min_ms,max_ms,samples,metric,value,note\n";
    for (const auto& r : rows_) {
        auto prefix = csvField(r.suite) + "," + csvField(r.variant) + "," + csvField(r.config) +
                      "," + csvField(r.size) + ",";
        std::ostringstream nums;
        nums << std::setprecision(9) << r.medianMs << "," << r.minMs << "," << r.maxMs << ","
             << r.samples << ",";
        if (r.metrics.empty()) out << prefix << nums.str() << ",," << csvField(r.note) << "\n";
        for (const auto& [name, value] : r.metrics)
            out << prefix << nums.str() << csvField(name) << "," << std::setprecision(9) << value
                << "," << csvField(r.note) << "\n";
    }
    if (!out) throw Error("error while writing " + path);
}

void progress(int index, int total, const std::string& what) {
    const bool tty = isatty(STDERR_FILENO);
    std::fprintf(stderr, "%s[%*d/%d] %s%s", tty ? "\r\033[K" : "", total >= 100 ? 3 : 2, index,
                 total, what.c_str(), tty ? "" : "\n");
    std::fflush(stderr);
}

void progressDone() {
    if (isatty(STDERR_FILENO)) std::fprintf(stderr, "\r\033[K");
}

}  // namespace clviz::bench
