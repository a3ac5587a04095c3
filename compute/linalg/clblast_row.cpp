#include "compute/linalg/clblast_row.hpp"

#include <clblast.h>

#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_binary_cache.hpp"

namespace clviz {

namespace {

void check(clblast::StatusCode status, const char* what) {
    if (status != clblast::StatusCode::kSuccess)
        throw Error(std::string("CLBlast ") + what + " failed with status " +
                    std::to_string(static_cast<int>(status)));
}

std::string fileSafe(const std::string& name) {
    std::string s;
    for (char c : name)
        s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return s;
}

}  // namespace

std::optional<std::filesystem::path> ClblastRow::tuningFile(const DeviceInfo& device) {
    const auto programs = ProgramBinaryCache::defaultDirectory();
    if (!programs) return std::nullopt;
    return programs->parent_path() / "clblast" /
           (fileSafe(device.name) + "_" + fileSafe(device.driverVersion) + ".txt");
}

std::map<std::string, ClblastParameters> ClblastRow::readTuningFile(
    const std::filesystem::path& file) {
    std::map<std::string, ClblastParameters> out;
    std::ifstream in(file);
    if (!in) return out;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty() || line[0] == '#') continue;
        std::istringstream words(line);
        std::string kernel, kv;
        words >> kernel;
        ClblastParameters params;
        while (words >> kv) {
            const auto eq = kv.find('=');
            if (eq == std::string::npos || eq == 0)
                throw Error(file.string() + ":" + std::to_string(number) + ": '" + kv +
                            "' is not NAME=VALUE");
            try {
                params[kv.substr(0, eq)] = std::stoul(kv.substr(eq + 1));
            } catch (const std::exception&) {
                throw Error(file.string() + ":" + std::to_string(number) + ": bad value in '" + kv +
                            "'");
            }
        }
        if (!params.empty()) out[kernel] = params;
    }
    return out;
}

std::string ClblastRow::importTunerJson(const std::filesystem::path& json,
                                        const DeviceInfo& device) {
    std::ifstream in(json);
    if (!in) throw Error("cannot read CLBlast tuner output " + json.string());
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(in);
    } catch (const std::exception& e) {
        throw Error(json.string() + ": not JSON (" + e.what() + ")");
    }
    if (!doc.contains("results") || !doc["results"].is_array() || doc["results"].empty())
        throw Error(json.string() + ": no \"results\" (is it a clblast_tuner_* output?)");
    const nlohmann::json* best = nullptr;
    for (const auto& r : doc["results"])
        if (r.contains("time") && r.contains("parameters") && r.contains("kernel") &&
            (!best || r["time"].get<double>() < (*best)["time"].get<double>()))
            best = &r;
    if (!best) throw Error(json.string() + ": no result has kernel, time and parameters");
    std::string line = (*best)["kernel"].get<std::string>();
    for (const auto& [name, value] : (*best)["parameters"].items())
        if (name != "PRECISION")
            line += " " + name + "=" + std::to_string(value.get<std::size_t>());
    const auto file = tuningFile(device);
    if (!file) throw Error("the program cache is off (CLVIZ_PROGRAM_CACHE=off): nowhere to store");
    std::filesystem::create_directories(file->parent_path());
    auto kept = readTuningFile(*file);
    kept.erase((*best)["kernel"].get<std::string>());
    std::ofstream out(*file, std::ios::trunc);
    out << "# CLBlast parameters for " << device.name << " (driver " << device.driverVersion
        << "), imported from clblast tuner output\n";
    for (const auto& [kernel, params] : kept) {
        out << kernel;
        for (const auto& [n, v] : params)
            out << " " << n << "=" << v;
        out << "\n";
    }
    out << line << "\n";
    if (!out) throw Error("cannot write " + file->string());
    return line;
}

ClblastRow::ClblastRow(ComputeContext& cc) : cc_(cc) {
    const auto file = tuningFile(cc.info());
    if (!file) return;
    for (const auto& [kernel, params] : readTuningFile(*file)) {
        std::unordered_map<std::string, std::size_t> p(params.begin(), params.end());
        const auto status =
            clblast::OverrideParameters(cc.device()(), kernel, clblast::Precision::kSingle, p);
        if (status != clblast::StatusCode::kSuccess)
            throw Error("CLBlast refused the tuned parameters for " + kernel + " in " +
                        file->string() + " (status " + std::to_string(static_cast<int>(status)) +
                        ")");
        applied_[kernel] = params;
    }
    source_ = file->string();
}

std::string ClblastRow::tuningNote() const {
    if (applied_.empty()) return "default database";
    std::string kernels;
    for (const auto& [k, p] : applied_)
        kernels += (kernels.empty() ? "" : ", ") + k;
    return "tuned " + kernels + " (" + source_ + ")";
}

double ClblastWork::milliseconds() const {
    return spanMilliseconds(first, last);
}

ClblastWork ClblastRow::sgemm(const GemmShape& s, float alpha, const cl::Buffer& a,
                              const cl::Buffer& b, float beta, const cl::Buffer& c) {
    ClblastWork work;
    cc_.queue().enqueueMarkerWithWaitList(nullptr, &work.first);
    cl_command_queue q = cc_.queue()();
    cl_event ev = nullptr;
    check(clblast::Gemm<float>(clblast::Layout::kRowMajor,
                               s.transA ? clblast::Transpose::kYes : clblast::Transpose::kNo,
                               s.transB ? clblast::Transpose::kYes : clblast::Transpose::kNo, s.m,
                               s.n, s.k, alpha, a(), 0, s.transA ? s.m : s.k, b(), 0,
                               s.transB ? s.k : s.n, beta, c(), 0, s.n, &q, &ev),
          "SGEMM");
    work.last = cl::Event(ev);  // takes ownership
    return work;
}

ClblastWork ClblastRow::ssyrk(int n, int k, float alpha, const cl::Buffer& a, float beta,
                              const cl::Buffer& c) {
    ClblastWork work;
    cc_.queue().enqueueMarkerWithWaitList(nullptr, &work.first);
    cl_command_queue q = cc_.queue()();
    cl_event ev = nullptr;
    check(clblast::Syrk<float>(clblast::Layout::kRowMajor, clblast::Triangle::kUpper,
                               clblast::Transpose::kNo, n, k, alpha, a(), 0, k, beta, c(), 0, n, &q,
                               &ev),
          "SSYRK");
    work.last = cl::Event(ev);
    return work;
}

}  // namespace clviz
