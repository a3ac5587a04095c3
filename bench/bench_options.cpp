#include "bench/bench_options.hpp"

#include <algorithm>

#include <cstdlib>
#include <sstream>

#include "common/error.hpp"
#include "common/parse.hpp"

namespace clviz::bench {

namespace {

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

long long parseCount(const std::string& flag, const std::string& text, long long min,
                     long long max) {
    std::string t = text;
    long long mult = 1;
    if (!t.empty() && (t.back() == 'k' || t.back() == 'K'))
        mult = 1024, t.pop_back();
    else if (!t.empty() && (t.back() == 'm' || t.back() == 'M'))
        mult = 1024 * 1024, t.pop_back();
    const auto parsed = parseInteger(t);
    if (!parsed) throw Error(flag + " expects a number, got '" + text + "'");
    if (*parsed < min / mult || *parsed > max / mult || *parsed * mult < min)  // no overflow
        throw Error(flag + " " + text + " is out of range [" + std::to_string(min) + ", " +
                    std::to_string(max) + "]");
    return *parsed * mult;
}

}  // namespace

std::string benchUsage(const std::string& program) {
    return "Usage: " + program +
           " [options]\n"
           "Headless OpenCL benchmark for clviz: never opens a window.\n\n"
           "  --suite nbody|image|gemm|reduce|mnf|all  which kernels to time (default all)\n"
           "  --variants a,b,...        only these kernel variants (default: all)\n"
           "  --sizes n,...             N bodies (nbody), image edge in pixels (image),\n"
           "                            matrix edge (gemm) or KiB of data (reduce);\n"
           "                            suffixes k and m multiply by 1024 and 1024^2;\n"
           "                            WxHxB cubes for mnf (default 145x145x200,\n"
           "                            614x512x224, 614x1087x224)\n"
           "  --wg n,...                work-group sizes to sweep (default: per suite)\n"
           "  --theta t,...             opening angles of the tree variant (default 0.5)\n"
           "  --warmup N                untimed runs before timing (default 3)\n"
           "  --repeats N               timed runs; the median is reported (default 15)\n"
           "  --quick                   small sizes and few repeats (smoke test)\n"
           "  --wide                    every metric and whole notes (default: 100 columns)\n"
           "  --no-cpu-baseline         skip the multi-threaded C++ baseline\n"
           "  --json FILE, --csv FILE   also write the results there\n"
           "  --tune                    gemm, reduce: add a row with the best of a few tile\n"
           "                            shapes (gemm) or work-group sizes (reduce)\n"
           "  --clblast-tuning FILE     gemm: import clblast_tuner_xgemm's JSON into the\n"
           "                            per-device cache (beside the program cache) first\n"
           "  -p, --platform P          platform index or name part\n"
           "  -d, --device D            device index or name part\n"
           "  --device-type cpu|gpu|all restrict the automatic choice\n"
           "  --devices SET             N-body split over several devices (all, gpu, cpu,\n"
           "                            0,1 or P.D,P.D as --list-devices numbers them),\n"
           "                            timed against the set's first device alone\n"
           "  --mpi                     under mpirun: each rank drives one device (local rank\n"
           "                            -> device), the N-body system split over the ranks\n"
           "  --mpi-timeout S           end the run when an MPI exchange takes longer (60)\n"
           "  -h, --help                this text\n";
}

bool parseBenchOptions(const std::vector<std::string>& args, BenchOptions& o) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size()) throw Error(a + " needs a value");
            return args[++i];
        };
        if (a == "-h" || a == "--help") return false;
        if (a == "--suite") {
            o.suite = value();
            if (o.suite != "nbody" && o.suite != "image" && o.suite != "gemm" &&
                o.suite != "reduce" && o.suite != "mnf" && o.suite != "all")
                throw Error("--suite must be nbody, image, gemm, reduce, mnf or all (got '" +
                            o.suite + "')");
        } else if (a == "--variants") {
            o.variants = splitList(value());
        } else if (a == "--sizes") {
            o.sizes.clear();
            o.mnfShapes.clear();
            for (const auto& s : splitList(value())) {
                if (std::count(s.begin(), s.end(), 'x') == 2) {  // a cube, WxHxB (mnf suite)
                    const auto shape = parseCubeShape(s);
                    if (!shape) throw Error("--sizes: '" + s + "' is not a WxHxB cube size");
                    o.mnfShapes.push_back(*shape);
                    continue;
                }
                o.sizes.push_back(parseCount("--sizes", s, 1, 1LL << 26));
            }
        } else if (a == "--wg") {
            o.workGroups.clear();
            for (const auto& s : splitList(value()))
                o.workGroups.push_back(static_cast<int>(parseCount("--wg", s, 1, 4096)));
        } else if (a == "--theta") {
            o.thetas.clear();
            for (const auto& s : splitList(value())) {
                char* end = nullptr;
                const double t = std::strtod(s.c_str(), &end);
                if (s.empty() || *end || !(t >= 0 && t <= 2))
                    throw Error("--theta takes numbers in [0, 2] (got '" + s + "')");
                o.thetas.push_back(t);
            }
        } else if (a == "--warmup") {
            o.warmup = static_cast<int>(parseCount(a, value(), 0, 1000));
        } else if (a == "--repeats") {
            o.repeats = static_cast<int>(parseCount(a, value(), 1, 100000));
        } else if (a == "--quick") {
            o.quick = true;
        } else if (a == "--wide") {
            o.wide = true;
        } else if (a == "--no-cpu-baseline") {
            o.cpuBaseline = false;
        } else if (a == "--json") {
            o.jsonPath = value();
        } else if (a == "--csv") {
            o.csvPath = value();
        } else if (a == "--tune") {
            o.tune = true;
        } else if (a == "--clblast-tuning") {
            o.clblastTuning = value();
        } else if (a == "-p" || a == "--platform") {
            o.device.platform = value();
        } else if (a == "-d" || a == "--device") {
            o.device.device = value();
        } else if (a == "--device-type") {
            o.device.type = parseDeviceTypeFilter(value());
        } else if (a == "--devices") {
            o.devices = value();
        } else if (a == "--mpi") {
            o.mpi = true;
        } else if (a == "--mpi-timeout") {
            const auto t = parseNumber(value());
            if (!t || !(*t > 0) || *t > 86400)
                throw Error("--mpi-timeout takes seconds in (0, 86400] (got '" + args[i] + "')");
            o.mpiTimeoutSeconds = *t;
        } else {
            throw Error("unknown benchmark option '" + a + "' (see --help)");
        }
    }
    return true;
}

}  // namespace clviz::bench
