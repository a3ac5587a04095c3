#include "bench/bench_report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/quoted_path.hpp"

namespace clviz::bench {

namespace {

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

std::string BenchRow::failure() const {
    if (!failed()) return "";
    const std::size_t colon = note.find(':');
    std::string why = colon == std::string::npos ? note : note.substr(colon + 1);
    while (!why.empty() && why.front() == ' ')
        why.erase(why.begin());
    return why;
}

namespace {

// The compact table's columns: name and width. The note takes what is left of 100 columns.
struct Column {
    const char* name;
    std::size_t width;
};
// The suite is a heading line ("== nbody =="), not a column: the notes keep room.
constexpr Column kColumns[] = {
    {"variant", 18}, {"config", 20}, {"size", 10}, {"median ms", 9}, {"rate", 26}};
constexpr std::size_t kRateColumn = 4;

// Cut to `width` characters, marking the cut ("..").
std::string fit(const std::string& s, std::size_t width) {
    if (s.size() <= width) return s;
    if (width <= 2) return s.substr(0, width);
    return s.substr(0, width - 2) + "..";
}

std::string pad(const std::string& s, std::size_t width) {
    std::string out = fit(s, width);
    out.resize(width, ' ');
    return out;
}

std::string milliseconds(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ms >= 1000 ? "%.0f" : "%.4g", ms);
    return buf;
}

// "1.95 G interactions/s", "142 M list interactions/s", "3.5e+03 GB/s": names that carry no SI
// prefix get one.
std::string rate(const std::pair<std::string, double>& metric) {
    const auto& [name, value] = metric;
    const bool prefixed = !name.empty() && std::isupper(static_cast<unsigned char>(name[0]));
    char buf[64];
    if (prefixed || !(value >= 1e3) || !std::isfinite(value)) {
        std::snprintf(buf, sizeof buf, "%.3g %s", value, name.c_str());
        return buf;
    }
    const char* units[] = {"", "k", "M", "G", "T", "P", "E"};
    double v = value;
    int u = 0;
    while (v >= 1000 && u < 6)
        v /= 1000, ++u;
    std::snprintf(buf, sizeof buf, "%.3g %s %s", v, units[u], name.c_str());
    return buf;
}

// Lines of at most 100 columns, continued with an indent (long failure messages).
std::string wrap(const std::string& text) {
    std::string out, line;
    std::istringstream words(text);
    for (std::string word; words >> word;) {
        if (!line.empty() && line.size() + 1 + word.size() > BenchReport::kCompactColumns) {
            out += line + "\n";
            line = "    ";
        }
        line += (line.empty() || line == "    " ? "" : " ") + word;
    }
    return out + line + "\n";
}

std::size_t noteWidth() {
    std::size_t used = 0;
    for (const Column& c : kColumns)
        used += c.width + 1;
    return BenchReport::kCompactColumns - used;
}

}  // namespace

void BenchReport::add(BenchRow row) {
    rows_.push_back(std::move(row));
    if (!stream_) return;
    if (isatty(STDERR_FILENO)) std::fprintf(stderr, "\r\033[K");  // clear the progress line
    if (!headerShown_) *stream_ << header();
    headerShown_ = true;
    *stream_ << heading(rows_.size() - 1) << line(rows_.back()) << std::flush;
}

int BenchReport::failedRows() const {
    int n = 0;
    for (const auto& r : rows_)
        n += r.failed();
    return n;
}

int BenchReport::failureNumber(const BenchRow& row) const {
    std::vector<std::string> seen;
    for (const auto& r : rows_) {
        if (!r.failed()) continue;
        if (std::find(seen.begin(), seen.end(), r.failure()) == seen.end())
            seen.push_back(r.failure());
        if (r.failure() == row.failure()) break;
    }
    return static_cast<int>(seen.size());
}

std::string BenchReport::header() const {
    std::string out;
    if (!device_.empty()) out += fit("Device: " + device_, kCompactColumns) + "\n";
    std::string head;
    const std::size_t columns = style_ == TableStyle::Wide ? kRateColumn : kRateColumn + 1;
    for (std::size_t i = 0; i < columns; ++i)
        head += pad(kColumns[i].name, kColumns[i].width) + " ";
    head += style_ == TableStyle::Wide ? "min ms  metrics  note" : "note";
    out += head + "\n" + std::string(std::min(head.size(), kCompactColumns), '-') + "\n";
    return out;
}

// "== nbody ==" before a suite's first row. The CPU rows ("baseline") run inside a suite and
// start no heading of their own.
std::string BenchReport::heading(std::size_t index) const {
    const std::string& mine = rows_[index].suite;
    if (mine == "baseline") return "";
    for (std::size_t k = index; k-- > 0;)
        if (rows_[k].suite != "baseline")
            return rows_[k].suite == mine ? "" : "== " + mine + " ==\n";
    return "== " + mine + " ==\n";
}

std::string BenchReport::line(const BenchRow& r) const {
    std::string ms = r.failed() ? "FAIL" : milliseconds(r.medianMs) + (r.samples == 1 ? "*" : "");
    // The wide table cuts nothing: a longer cell pushes the rest of its line to the right.
    const auto cell = [this](const std::string& s, std::size_t width) {
        return style_ == TableStyle::Wide && s.size() > width ? s : pad(s, width);
    };
    std::string out = cell(r.variant, kColumns[0].width) + " " + cell(r.config, kColumns[1].width) +
                      " " + cell(r.size, kColumns[2].width) + " " + cell(ms, kColumns[3].width) +
                      " ";
    const std::string failRef = r.failed() ? "see [" + std::to_string(failureNumber(r)) + "]" : "";
    if (style_ == TableStyle::Wide) {
        // Every metric and the whole note: as wide as it takes.
        std::string all = r.failed() ? "" : milliseconds(r.minMs) + "  ";
        for (const auto& m : r.metrics)
            all += rate(m) + "  ";
        all += r.failed() ? failRef + " failed: " + r.failure() : r.note;
        while (!all.empty() && all.back() == ' ')
            all.pop_back();
        return out + all + "\n";
    }
    // A wrong result is never cut from the note: it starts the note.
    const std::string note = r.failed()  ? failRef
                             : r.wrong() ? r.note.substr(r.note.find("WRONG"))
                                         : r.note;
    out += pad(r.failed() || r.metrics.empty() ? "-" : rate(r.metrics.front()),
               kColumns[kRateColumn].width) +
           " " + fit(note, noteWidth());
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out + "\n";
}

std::string BenchReport::table() const {
    std::string out = header();
    for (std::size_t i = 0; i < rows_.size(); ++i)
        out += heading(i) + line(rows_[i]);
    return out + footer();
}

std::string BenchReport::footer() const {
    std::string out;
    for (const auto& r : rows_)
        if (r.samples == 1 && !r.failed()) {
            out +=
                "* one sample: a single time, not a median (--quick, or a row too slow to "
                "repeat)\n";
            break;
        }
    // One line per distinct failure, however many rows it took down.
    std::vector<std::pair<std::string, std::vector<std::string>>> failures;
    for (const auto& r : rows_) {
        if (!r.failed()) continue;
        auto it = std::find_if(failures.begin(), failures.end(),
                               [&](const auto& f) { return f.first == r.failure(); });
        if (it == failures.end()) it = failures.insert(failures.end(), {r.failure(), {}});
        it->second.push_back(r.variant + (r.config.empty() ? "" : " " + r.config) + " " + r.size);
    }
    for (const auto& r : rows_)  // each wrong result in full
        if (r.wrong() && !r.failed())
            out += wrap(r.variant + " " + r.config + " " + r.size + ": " +
                        r.note.substr(r.note.find("WRONG")));
    for (std::size_t i = 0; i < failures.size(); ++i) {
        const auto& [why, where] = failures[i];
        std::string rows = where.front();
        if (where.size() > 1) rows += " and " + std::to_string(where.size() - 1) + " more";
        out += wrap("[" + std::to_string(i + 1) + "] failed: " + why + " (" +
                    std::to_string(where.size()) + (where.size() == 1 ? " row: " : " rows: ") +
                    rows + ")");
    }
    return out;
}

int exitStatusFor(const BenchReport& report) {
    for (const auto& r : report.rows())
        if (r.failed() || r.wrong()) return 1;
    return 0;
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
                           {"failed", r.failed()},
                           {"median_ms", nullptr},
                           {"min_ms", nullptr},
                           {"max_ms", nullptr},
                           {"samples", r.samples},
                           {"metrics", metrics},
                           {"note", r.note}});
        if (!r.failed()) {  // a failed row measured nothing: null, not 0 ms
            auto& row = results.back();
            row["median_ms"] = r.medianMs;
            row["min_ms"] = r.minMs;
            row["max_ms"] = r.maxMs;
        }
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
        if (r.failed())  // empty fields, not "0,0,0,0": nothing was measured
            nums << ",,,0,";
        else
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
