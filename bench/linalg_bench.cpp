// The linear-algebra lab's benchmarks. --suite gemm: every GEMM variant and CLBlast's SGEMM on
// square sizes (and odd ones), then the covariance of a 224 x 667,418 matrix (u8 and float) with
// CLBlast's SSYRK beside it. --suite reduce: every reduction variant on 1 KiB .. 1 GiB, beside a
// read-bandwidth probe timed in the same run. Every row is checked against a CPU reference in
// double (sampled entries for large products) and marked "checked", or WRONG.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <thread>

#include "bench/row_timing.hpp"
#include "bench/suites.hpp"
#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/inline_ptx.hpp"
#include "compute/core/profiling.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/linalg/clblast_row.hpp"
#include "compute/linalg/covariance.hpp"
#include "compute/linalg/gemm.hpp"
#include "compute/linalg/reduction.hpp"
#include "compute/roofline/ceiling_probes.hpp"

namespace clviz::bench {

namespace {

// The packing launches of a row's runs (gemm-tf32 with BULK=1): their device times and bytes.
struct PackLog {
    std::vector<double> ms;
    double bytes = 0;  // read + written by one packing
};

// A product's device time: from the first command enqueue() issued (the packing, where gemm-tf32
// packs its operands) to the end of its kernel. The packing's own time goes to `log` too.
double gemmMilliseconds(const Gemm& gemm, const cl::Event& done, PackLog* log = nullptr) {
    if (log && gemm.packEvent()()) {
        log->ms.push_back(eventMilliseconds(gemm.packEvent()));
        log->bytes = gemm.packBytes();
    }
    return spanMilliseconds(gemm.firstEvent(), done);
}

constexpr double kRowBudgetMs = 1500;  // timed device time per row, at most (roughly)
constexpr int kSampledEntries = 512;   // entries of C checked in double per product

// timeRepeats within this suite's budget per row.
std::vector<double> timeRuns(const std::function<double()>& run, const BenchOptions& o,
                             int maxRepeats = 0) {
    return timeRepeats(run, o, kRowBudgetMs, maxRepeats);
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// ---- GEMM ---------------------------------------------------------------------------------------

struct Operands {
    int n = 0;
    std::vector<float> a, b;
    cl::Buffer da, db, dc;
};

Operands makeOperands(ComputeContext& cc, int n) {
    Operands op;
    op.n = n;
    const std::size_t elems = std::size_t(n) * n;
    op.a.resize(elems);
    op.b.resize(elems);
    std::mt19937 rng(1234 + n);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    for (auto& x : op.a)
        x = d(rng);
    for (auto& x : op.b)
        x = d(rng);
    op.da =
        cl::Buffer(cc.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, elems * 4, op.a.data());
    op.db =
        cl::Buffer(cc.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, elems * 4, op.b.data());
    op.dc = cl::Buffer(cc.context(), CL_MEM_READ_WRITE, elems * 4);
    return op;
}

// Relative Frobenius error of C = A B over sampled entries (every entry for small n), against
// double sums; "" and the error when within `tolerance`, else a WRONG note.
std::string checkProduct(ComputeContext& cc, const Operands& op, double tolerance, double* relErr) {
    const int n = op.n;
    std::vector<float> c(std::size_t(n) * n);
    cc.queue().enqueueReadBuffer(op.dc, CL_TRUE, 0, c.size() * 4, c.data());
    std::mt19937 rng(99);
    const bool all = std::size_t(n) * n <= kSampledEntries;
    const int count = all ? n * n : kSampledEntries;
    double errSq = 0, refSq = 0;
    for (int s = 0; s < count; ++s) {
        const int i = all ? s / n : static_cast<int>(rng() % n);
        const int j = all ? s % n : static_cast<int>(rng() % n);
        double want = 0;
        for (int k = 0; k < n; ++k)
            want += double(op.a[std::size_t(i) * n + k]) * op.b[std::size_t(k) * n + j];
        const double got = c[std::size_t(i) * n + j];
        if (!std::isfinite(got))
            return "WRONG: non-finite C[" + std::to_string(i) + "][" + std::to_string(j) + "]";
        errSq += (got - want) * (got - want);
        refSq += want * want;
    }
    *relErr = refSq > 0 ? std::sqrt(errSq / refSq) : std::sqrt(errSq);
    const std::string sampled = all ? "" : " (" + std::to_string(count) + " sampled entries)";
    if (*relErr > tolerance)
        return "WRONG: rel. Frobenius error " + fmt("%.2e", *relErr) + " > " +
               fmt("%.0e", tolerance) + sampled;
    return "checked" + sampled + ", rel.err " + fmt("%.1e", *relErr);
}

// Tile configurations the tuned rows try (each must be valid for the variant).
std::vector<GemmTuning> tuningCandidates(GemmVariant v) {
    std::vector<GemmTuning> out;
    // TM x TN per work-item, or WM x WN per warp for the tensor-core variant.
    auto add = [&](int bm, int bn, int bk, int tm, int tn) {
        GemmTuning t;
        t.blockM = bm, t.blockN = bn, t.blockK = bk;
        if (v == GemmVariant::TensorTf32)
            t.warpM = tm, t.warpN = tn;
        else
            t.threadM = tm, t.threadN = tn;
        out.push_back(t);
    };
    switch (v) {
        case GemmVariant::LocalTile:
            for (int ts : {8, 16, 32}) {
                GemmTuning t;
                t.tile = ts;
                out.push_back(t);
            }
            break;
        case GemmVariant::RegisterBlocked:
        case GemmVariant::DoubleBuffered:
            add(128, 128, 8, 8, 8), add(128, 128, 16, 8, 8), add(64, 128, 16, 8, 8),
                add(128, 64, 16, 8, 8), add(64, 64, 16, 4, 4), add(128, 128, 8, 8, 4),
                add(128, 256, 8, 8, 16), add(256, 128, 8, 16, 8);
            // Fewer work-items with more registers each (16 x 8: 128 accumulators), smaller
            // groups (64 work-items: more of them resident), deeper k-steps.
            add(128, 64, 16, 16, 8), add(64, 128, 16, 8, 16), add(128, 128, 16, 16, 8),
                add(64, 64, 16, 8, 8), add(64, 64, 32, 8, 8), add(128, 64, 8, 8, 8),
                add(128, 32, 16, 8, 8);
            // 32-deep k-steps at 128 x 128 and 128 x 64 (CLBlast's tuned pick on the H100 is
            // 128 x 128 x 32 with 8 x 8 per work-item): one local buffer (ONE_LOCAL) for the
            // double-buffered variant.
            add(128, 128, 32, 8, 8), add(128, 64, 32, 8, 8), add(64, 128, 32, 8, 8);
            // Register caps (NVIDIA only, dropped elsewhere by candidatesFor): 128 lets four
            // 128-item groups (two 256-item ones) share an SM's 64 K registers where the
            // uncapped builds fit three (one); 168 trims the 128 x 128 x 32 form without spills.
            for (int cap : {128, 168}) {
                add(128, 128, 32, 8, 8), out.back().registerCap = cap;
                if (cap == 128) {
                    add(128, 64, 16, 8, 8), out.back().registerCap = cap;
                    add(128, 128, 16, 8, 8), out.back().registerCap = cap;
                }
            }
            break;
        case GemmVariant::Pipelined:
            // 0: two groups' worth of registers on NVIDIA (128 for 256 work-items, 255 for 128);
            // 255: uncapped. 16-deep tiles and 16 x 8 per work-item need more than 128. The
            // 8-deep 8 x 8 ones first: --quick builds only four, and PoCL's builds grow with the
            // unrolled FMAs.
            add(128, 128, 8, 8, 8), add(128, 64, 8, 8, 8), add(64, 128, 8, 8, 8),
                add(128, 128, 16, 8, 8), add(128, 64, 16, 8, 8), add(128, 128, 8, 16, 8),
                add(128, 128, 16, 16, 8);
            add(128, 128, 8, 8, 8), out.back().registerCap = 255;
            add(128, 128, 16, 8, 8), out.back().registerCap = 255;
            // The launch order (GB=1) and wider bands; cp.async stages (ST) at 128 x 256 with
            // 16 x 8 per work-item, where they beat the register prefetch (sgemm-29c).
            add(128, 128, 8, 8, 8), out.back().groupBand = 1;
            add(128, 128, 8, 8, 8), out.back().groupBand = 16;
            add(128, 256, 8, 16, 8), out.back().registerCap = 255, out.back().asyncStages = 3;
            break;
        case GemmVariant::TensorTf32:
            // Staged kernel: stages = 48 KiB / one stage's tiles (2 at 128 x 128 x 16, 4 at BK 8;
            // packed rows where two padded stages do not fit: 2 at 256 x 128 x 16 and at 32-deep
            // 128 x 64).
            add(128, 128, 16, 64, 64), add(128, 128, 8, 64, 64), add(128, 128, 16, 64, 32),
                add(128, 128, 8, 64, 32), add(128, 256, 8, 64, 64), add(256, 128, 8, 64, 64),
                add(64, 128, 16, 32, 64), add(128, 64, 16, 64, 32);
            // Eight 64 x 64 warps on 256 x 128 (a quarter less L2 traffic per flop than
            // 128 x 128), and 32-deep k-tiles (half the barriers).
            add(256, 128, 16, 64, 64), add(128, 256, 16, 64, 64), add(128, 64, 32, 64, 32),
                add(64, 128, 32, 32, 64), add(128, 64, 32, 64, 64);
            // Packed operands and bulk-copied stages (BULK=1): 2 stages at 128 x 128 x 16, 4 at 8.
            for (const auto& [bm, bn, bk] : {std::array{128, 128, 16}, std::array{128, 128, 8}}) {
                add(bm, bn, bk, 64, 64);
                out.back().bulkCopies = 1;
            }
            break;
        case GemmVariant::Naive:
            break;
    }
    return out;
}

// The candidates a run tries: register caps only where the compiler takes NVIDIA's options;
// --quick (the CPU smoke test) only the first four, since each candidate is a program build.
std::vector<GemmTuning> candidatesFor(GemmVariant v, const BenchOptions& o, const DeviceInfo& dev) {
    std::vector<GemmTuning> out = tuningCandidates(v);
    if (!takesNvidiaCompilerOptions(dev))
        out.erase(std::remove_if(out.begin(), out.end(),
                                 [](const GemmTuning& t) { return t.registerCap != 0; }),
                  out.end());
    if (o.quick && out.size() > 4) out.resize(4);
    return out;
}

struct GemmJob {
    std::string variant, config, note;
    std::function<double()> run;  // one repetition's device milliseconds
    double tolerance = 1e-5;
    double ceilingGflops = 0;  // the same-run probe this row is a share of (0: none)
    const char* ceilingName = "";
    PackLog* packs = nullptr;  // filled by `run` where the variant packs its operands
    double copyGBs = 0;        // the same run's copy probe, for the packing's share
};

void runGemmRow(ComputeContext& cc, const BenchOptions& o, BenchReport& report, Operands& op,
                const GemmJob& job, int& wrong) {
    const int n = op.n;
    const std::string size = std::to_string(n) + "^3";
    BenchRow row;
    if (job.packs) *job.packs = {};
    try {
        const auto ms = clBoundary("gemm " + job.variant, [&] { return timeRuns(job.run, o); });
        row = timedRow("gemm", job.variant, job.config, size, ms);
        const double gflops = 2.0 * n * n * double(n) / (row.medianMs * 1e6);
        row.metrics = {{"GFLOP/s", gflops}};
        appendNote(row.note, job.note);
        if (job.ceilingGflops > 0)
            appendNote(row.note,
                       fmt("%.0f%% of ", 100 * gflops / job.ceilingGflops) + job.ceilingName);
        if (job.packs && !job.packs->ms.empty()) {
            // The packing is inside the row's time; this says how much of it.
            const double packMs = median(job.packs->ms);
            const double gbs = job.packs->bytes / (packMs * 1e6);
            std::string note = "packing (one launch, in the time) " + fmt("%.3f", packMs) +
                               " ms, " + fmt("%.0f", gbs) + " GB/s read + written";
            if (job.copyGBs > 0) note += fmt(", %.0f%% of the copy probe", 100 * gbs / job.copyGBs);
            appendNote(row.note, note);
        }
        double relErr = 0;
        const std::string check = checkProduct(cc, op, job.tolerance, &relErr);
        row.metrics.push_back({"rel.err", relErr});
        appendNote(row.note, check);
        if (check.rfind("WRONG", 0) == 0) ++wrong;
    } catch (const Error& e) {
        row.suite = "gemm", row.variant = job.variant, row.config = job.config, row.size = size;
        row.note = std::string("failed: ") + e.what();
    }
    report.add(row);
}

// Fastest candidate tuning for `v` at this size (a few repeats each); nullopt when none runs.
std::optional<GemmTuning> tune(Gemm& gemm, GemmVariant v, Operands& op, const BenchOptions& o,
                               const DeviceInfo& dev) {
    std::optional<GemmTuning> best;
    double bestMs = 0;
    const GemmShape s{op.n, op.n, op.n};
    for (const GemmTuning& t : candidatesFor(v, o, dev)) {
        try {
            BenchOptions few = o;
            few.warmup = 1, few.repeats = 3;
            const auto ms = timeRuns(
                [&] {
                    return gemmMilliseconds(gemm, gemm.enqueue(v, s, 1, op.da, op.db, 0, op.dc, t));
                },
                few, 3);
            const double m = median(ms);
            if (!best || m < bestMs) best = t, bestMs = m;
        } catch (const Error&) {
            // a candidate this device cannot run (local memory, work-group size): skipped
        } catch (const cl::Error&) {
        }
    }
    return best;
}

void runCovarianceRows(ComputeContext& cc, const BenchOptions& o, BenchReport& report,
                       ClblastRow& blas, int& wrong) {
    const int bands = 224;
    const std::int64_t samples = o.quick ? 20011 : 667418;
    const std::int64_t pitch = (samples + 15) / 16 * 16;  // 16-byte rows for the u8 tensor path
    const std::string size = std::to_string(bands) + "x" + std::to_string(samples);
    std::vector<std::uint8_t> x8(std::size_t(bands) * pitch, 0);
    std::vector<float> xf(std::size_t(bands) * samples);
    std::mt19937 rng(7);
    for (int b = 0; b < bands; ++b)
        for (std::int64_t s = 0; s < samples; ++s) {
            const auto v = static_cast<std::uint8_t>(rng() >> 24);
            x8[std::size_t(b) * pitch + s] = v;
            xf[std::size_t(b) * samples + s] = v;
        }
    cl::Buffer d8(cc.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, x8.size(), x8.data());
    cl::Buffer df(cc.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, xf.size() * 4, xf.data());
    Covariance cov(cc);
    const double ops = double(bands) * (bands + 1) * double(samples);  // upper triangle, 2 ops

    // Exact references for a sample of entries (the full product is ~17 G multiply-adds).
    std::vector<std::int64_t> sums(bands, 0);
    for (int b = 0; b < bands; ++b)
        for (std::int64_t s = 0; s < samples; ++s)
            sums[b] += x8[std::size_t(b) * pitch + s];
    std::vector<std::pair<int, int>> entries;
    for (int e = 0; e < 48; ++e)
        entries.push_back({static_cast<int>(rng() % bands), static_cast<int>(rng() % bands)});
    entries.push_back({0, 0}), entries.push_back({bands - 1, bands - 1}),
        entries.push_back({0, bands - 1});
    auto exactEntry = [&](int i, int j) {
        std::int64_t g = 0;
        const std::uint8_t* xi = &x8[std::size_t(i) * pitch];
        const std::uint8_t* xj = &x8[std::size_t(j) * pitch];
        for (std::int64_t s = 0; s < samples; ++s)
            g += int(xi[s]) * int(xj[s]);
        const std::int64_t num = samples * g - sums[i] * sums[j];
        return static_cast<double>(num) / (double(samples) * double(samples - 1));
    };
    std::vector<double> want;
    for (auto [i, j] : entries)
        want.push_back(exactEntry(i, j));

    auto covRow = [&](const std::string& variant, CovarianceVariant v, SampleType type,
                      const std::string& options = "") {
        BenchRow row;
        try {
            CovarianceResult last;
            const auto ms = clBoundary("covariance " + variant, [&] {
                return timeRuns(
                    [&] {
                        last = type == SampleType::U8
                                   ? cov.compute(v, type, d8, bands, samples, 0, pitch)
                                   : cov.compute(v, type, df, bands, samples);
                        return last.ms;
                    },
                    o);
            });
            row = timedRow("covariance", variant,
                           std::string(type == SampleType::U8 ? "u8" : "f32") +
                               (last.tensorPath ? ", mma.sync" : "") + options,
                           size, ms);
            row.metrics = {{"Gop/s", ops / (row.medianMs * 1e6)}};
            appendNote(row.note,
                       "ops = B(B+1)S; device time of every pass incl. adding the chunks");
            if (type == SampleType::U8)
                appendNote(row.note, "Gram kernel alone " + fmt("%.4f", last.firstPassMs) +
                                         " ms, second pass alone " +
                                         fmt("%.4f", last.secondPassMs) + " ms (last run)");
            if (type == SampleType::U8 && v == CovarianceVariant::Tensor) {
                const std::string why = cov.stagedU8FusedReduceRefusal(bands, samples, pitch);
                appendNote(row.note, why.empty() ? "fused reduce: the chunks added inside the "
                                                   "Gram kernel after a device-wide barrier"
                                                 : "no fused reduce: " + why);
            }
            double worst = 0;
            bool exact = true;
            for (std::size_t e = 0; e < entries.size(); ++e) {
                const double got =
                    last.covariance[std::size_t(entries[e].first) * bands + entries[e].second];
                exact = exact && got == want[e];
                worst = std::max(worst, std::abs(got - want[e]) / std::max(1.0, std::abs(want[e])));
            }
            std::string check;
            if (type == SampleType::U8)
                check = exact ? "checked: bit-exact on " + std::to_string(entries.size()) +
                                    " sampled entries"
                              : "WRONG: not exact (worst rel. " + fmt("%.2e", worst) + ")";
            else
                check = worst <= 1e-4
                            ? "checked (" + std::to_string(entries.size()) +
                                  " sampled entries, worst rel. " + fmt("%.1e", worst) + ")"
                            : "WRONG: worst rel. error " + fmt("%.2e", worst);
            appendNote(row.note, check);
            if (check.rfind("WRONG", 0) == 0) ++wrong;
        } catch (const Error& e) {
            row.suite = "covariance", row.variant = variant, row.size = size;
            row.note = std::string("failed: ") + e.what();
        }
        report.add(row);
    };
    if (wanted(o, "cov-tiled")) covRow("cov-tiled", CovarianceVariant::Tiled, SampleType::U8);
    if (wanted(o, "cov-tensor")) covRow("cov-tensor", CovarianceVariant::Tensor, SampleType::U8);
    if (wanted(o, "cov-tensor") && o.tune && cov.u8StagedStages(bands, pitch) >= 2) {
        // The staged kernel's options, one row each (the first row ran the defaults).
        const StagedU8Options defaults = cov.stagedU8Options();
        // Earlier rounds' options (split groups, more chunks, adding in place, 32-sample stages,
        // interleaved stages, L2 prefetch instructions, unclamped whole-stage copies, the distance
        // schedule, matrix-order partials, 16-byte row loads, MMA row sums) all lost or tied
        // (docs/linalg.md); these are the second pass's work-items per entry, the copies' L2
        // prefetch size, how the B fragments of a block held as rows are formed, and two warps per
        // triangle, on the triangles with fragment-order partials, ldmatrix and dp4a row sums.
        struct Candidate {
            int reduceSlices;
            int l2PrefetchBytes;
            bool paired = false;
            bool columnsByLdmatrix = false;
            bool fusedReduce = true;
        };
        const Candidate candidates[] = {
            {16, 128, false, false, false}, {4, 128},       {8, 128}, {16, 256},
            {16, 128, false, true},         {16, 128, true}};
        for (const Candidate& c : candidates) {
            StagedU8Options s = defaults;
            s.triangles = true, s.fragmentStores = true, s.ldmatrix = true, s.rowSumsByDp4a = true;
            s.reduceSlices = c.reduceSlices, s.l2PrefetchBytes = c.l2PrefetchBytes;
            s.pairedWarps = c.paired, s.columnsByLdmatrix = c.columnsByLdmatrix;
            s.fusedReduce = c.fusedReduce;
            cov.setStagedU8Options(s);
            covRow("cov-tensor", CovarianceVariant::Tensor, SampleType::U8,
                   std::string(", staged, triangles, fragment-order partials, ldmatrix, row sums "
                               "dp4a") +
                       (c.paired ? ", paired warps (14)" : "") +
                       (c.columnsByLdmatrix ? ", every B by ldmatrix" : "") +
                       ", copies' L2 prefetch " + std::to_string(c.l2PrefetchBytes) +
                       " B, second pass " + std::to_string(c.reduceSlices) + " item(s)/entry" +
                       (c.fusedReduce ? " (where not fused)" : ", its own launch (not fused)"));
        }
        cov.setStagedU8Options(defaults);
    }
    if (wanted(o, "cov-tiled")) covRow("cov-tiled", CovarianceVariant::Tiled, SampleType::F32);
    if (wanted(o, "clblast")) {
        // SSYRK of the raw float X (C = X X^T, upper): the library's share of the same work,
        // without the means (which the covariance rows include).
        BenchRow row;
        try {
            cl::Buffer c(cc.context(), CL_MEM_READ_WRITE, std::size_t(bands) * bands * 4);
            const auto ms = clBoundary("clblast ssyrk", [&] {
                return timeRuns(
                    [&] {
                        return blas.ssyrk(bands, static_cast<int>(samples), 1.0f, df, 0.0f, c)
                            .milliseconds();
                    },
                    o);
            });
            row = timedRow("covariance", "clblast-ssyrk", "f32, " + blas.tuningNote(), size, ms);
            row.metrics = {{"Gop/s", ops / (row.medianMs * 1e6)}};
            std::vector<float> got(std::size_t(bands) * bands);
            cc.queue().enqueueReadBuffer(c, CL_TRUE, 0, got.size() * 4, got.data());
            double worst = 0;
            for (auto [i, j] : entries) {
                const int a = std::min(i, j), b = std::max(i, j);
                double g = 0;
                for (std::int64_t s = 0; s < samples; ++s)
                    g +=
                        double(xf[std::size_t(a) * samples + s]) * xf[std::size_t(b) * samples + s];
                worst = std::max(worst,
                                 std::abs(got[std::size_t(a) * bands + b] - g) / std::max(1.0, g));
            }
            // CLBlast adds all S products of an entry in FP32 (no chunks): the rounding bound of
            // such a sum of positive terms is S * 2^-24 relative (0.04 at S = 667,418; seen on
            // the H200: 4e-4). A wrong entry is off by far more.
            const double tol = double(samples) * 0x1p-24;
            row.note = "X X^T only (no centring); " +
                       (worst <= tol ? "checked (sampled entries, worst rel. " +
                                           fmt("%.1e", worst) + ", FP32 sums over S)"
                                     : "WRONG: worst rel. error " + fmt("%.2e", worst) + " > " +
                                           fmt("%.1e", tol));
            if (worst > tol) ++wrong;
        } catch (const Error& e) {
            row.suite = "covariance", row.variant = "clblast-ssyrk", row.size = size;
            row.note = std::string("failed: ") + e.what();
        }
        report.add(row);
    }
}

}  // namespace

void runGemmBenchmark(ComputeContext& cc, const BenchOptions& o, BenchReport& report) {
    if (!o.clblastTuning.empty()) {
        const std::string line = ClblastRow::importTunerJson(o.clblastTuning, cc.info());
        std::fprintf(stderr, "clviz-bench: imported CLBlast parameters: %s\n", line.c_str());
    }
    std::vector<long long> sizes = o.sizes;
    if (sizes.empty())
        sizes = o.quick ? std::vector<long long>{64, 129}
                        : std::vector<long long>{256, 512, 1000, 1024, 2048, 2047, 4096, 8192};
    Gemm gemm(cc);
    ClblastRow blas(cc);
    int wrong = 0;
    int step = 0;
    // The roofline's ceilings, measured in this run: every row is also a share of them.
    progress(++step, 0, "gemm ceilings");
    // The lab's probes (compute/roofline/): each checks its own result; --quick copies 16 MiB.
    CeilingProbeSizes probeSizes = probeSizesFor(cc.info());
    if (o.quick) probeSizes.copyBytes = std::min(probeSizes.copyBytes, std::size_t(16) << 20);
    InlinePtxBuilds probeBuilds(cc);
    const DeviceCeilings ceilings = measureDeviceCeilings(cc, probeSizes, probeBuilds);
    const double tf32Gflops = ceilings.tf32Gflops.value_or(0);
    {
        auto probeRow = [&](const char* variant, const char* config, const char* unit, double v,
                            const std::string& note) {
            BenchRow row;
            row.suite = "gemm", row.variant = variant, row.config = config, row.size = "-";
            if (v > 0) row.metrics = {{unit, v}};
            row.note = note;
            report.add(row);
        };
        probeRow("fma-probe", "8 float4 FMA chains per work-item, checked", "GFLOP/s",
                 ceilings.fp32Gflops, "FP32 ceiling for this run");
        probeRow("mma-tf32-probe", "4 mma.sync m16n8k8 per warp, register operands, checked",
                 "GFLOP/s", tf32Gflops,
                 tf32Gflops > 0 ? "TF32 ceiling for this run" : ceilings.tensorNote);
        const double ridge =
            ceilings.bandwidthGBs > 0 ? ceilings.fp32Gflops / ceilings.bandwidthGBs : 0;
        probeRow("copy-probe", "uint4 copy, read + write counted, checked", "GB/s",
                 ceilings.bandwidthGBs,
                 "memory ceiling; FP32 ridge at " + fmt("%.1f", ridge) + " flop/byte");
    }
    for (long long nLL : sizes) {
        const int n = static_cast<int>(nLL);
        if (double(n) * n * 4 * 3 > double(cc.info().globalMemBytes) * 0.8 ||
            double(n) * n * 4 > double(cc.info().maxAllocBytes)) {
            BenchRow row;
            row.suite = "gemm", row.variant = "all", row.size = std::to_string(n) + "^3";
            row.note = "skipped: three " + std::to_string(n) + "^2 matrices do not fit the device";
            report.add(row);
            continue;
        }
        Operands op = makeOperands(cc, n);
        const GemmShape s{n, n, n};
        PackLog packLog;  // the current row's packings
        for (int vi = 0; vi < kGemmVariantCount; ++vi) {
            const auto v = static_cast<GemmVariant>(vi);
            const LinalgVariantInfo& info = gemmVariantInfo(v);
            if (!wanted(o, info.id)) continue;
            progress(++step, 0, std::string("gemm ") + info.id + " " + std::to_string(n));
            if (v == GemmVariant::Naive && n > 4096) {
                BenchRow row;
                row.suite = "gemm", row.variant = info.id, row.size = std::to_string(n) + "^3";
                row.note = "skipped above 4096 (seconds per product)";
                report.add(row);
                continue;
            }
            const bool ptx = gemm.usesInlinePtx(v);
            const double tol = ptx ? 1e-3 : 1e-5;
            GemmJob job;
            job.variant = info.id;
            job.tolerance = tol;
            const GemmTuning def = gemm.resolvedFor(v, {}, s);
            job.config = def.key().empty() ? "default" : def.key() + " (default)";
            if (info.needsInlinePtx) job.note = gemm.ptxNote();
            if (ptx) {
                job.ceilingGflops = tf32Gflops, job.ceilingName = "mma probe";
            } else {
                job.ceilingGflops = ceilings.fp32Gflops, job.ceilingName = "FMA probe";
            }
            job.packs = &packLog, job.copyGBs = ceilings.bandwidthGBs;
            job.run = [&, v] {
                return gemmMilliseconds(gemm, gemm.enqueue(v, s, 1.0f, op.da, op.db, 0.0f, op.dc),
                                        &packLog);
            };
            runGemmRow(cc, o, report, op, job, wrong);
            if (o.tune && (n >= 512 || o.quick) && !candidatesFor(v, o, cc.info()).empty()) {
                if (const auto best = tune(gemm, v, op, o, cc.info())) {
                    GemmJob tuned = job;
                    const GemmTuning t = *best;
                    // Resolved: the register cap a variant adds by default shows in the row.
                    tuned.config = gemm.resolved(v, t).key() + " (tuned: best of " +
                                   std::to_string(candidatesFor(v, o, cc.info()).size()) + ")";
                    tuned.run = [&, v, t] {
                        return gemmMilliseconds(
                            gemm, gemm.enqueue(v, s, 1.0f, op.da, op.db, 0.0f, op.dc, t), &packLog);
                    };
                    runGemmRow(cc, o, report, op, tuned, wrong);
                }
            }
            // A key naming WM or WN is a tensor-core tiling, any other a register-blocked one.
            for (const std::string& key : o.gemmTunings) {
                const GemmTuning parsed = parseGemmTuning(key);
                const bool warpTiles = parsed.warpM || parsed.warpN;
                if (warpTiles
                        ? v == GemmVariant::TensorTf32
                        : v == GemmVariant::RegisterBlocked || v == GemmVariant::DoubleBuffered ||
                              v == GemmVariant::Pipelined) {
                    GemmJob given = job;
                    const GemmTuning t = gemm.resolved(v, parsed);
                    given.config = t.key() + " (--gemm-tuning)";
                    given.run = [&, v, t] {
                        return gemmMilliseconds(
                            gemm, gemm.enqueue(v, s, 1.0f, op.da, op.db, 0.0f, op.dc, t), &packLog);
                    };
                    runGemmRow(cc, o, report, op, given, wrong);
                }
            }
        }
        if (wanted(o, "clblast")) {
            progress(++step, 0, "gemm clblast " + std::to_string(n));
            GemmJob job;
            job.variant = "clblast-sgemm";
            job.config = blas.tuningNote();
            job.run = [&] { return blas.sgemm(s, 1.0f, op.da, op.db, 0.0f, op.dc).milliseconds(); };
            job.note = "span from a marker before the call to CLBlast's last event";
            job.ceilingGflops = ceilings.fp32Gflops, job.ceilingName = "FMA probe";
            runGemmRow(cc, o, report, op, job, wrong);
        }
    }
    if (wanted(o, "cov-tiled") || wanted(o, "cov-tensor") || wanted(o, "clblast")) {
        progress(++step, 0, "covariance 224 x 667418");
        runCovarianceRows(cc, o, report, blas, wrong);
    }
    progressDone();
    if (wrong > 0)
        std::fprintf(stderr, "clviz-bench: warning: %d linear-algebra result(s) are WRONG\n",
                     wrong);
}

void runReduceBenchmark(ComputeContext& cc, const BenchOptions& o, BenchReport& report) {
    // --sizes for this suite are KiB.
    std::vector<long long> kib = o.sizes;
    if (kib.empty())
        kib = o.quick ? std::vector<long long>{1, 1021}
                      : std::vector<long long>{1, 64, 1024, 16 * 1024, 256 * 1024, 1024 * 1024};
    Reduction red(cc);
    int wrong = 0, step = 0;
    for (long long k : kib) {
        const std::size_t bytes = std::size_t(k) * 1024;
        const std::size_t count = bytes / 4;
        const std::string size =
            k >= 1024 ? std::to_string(k / 1024) + " MiB" : std::to_string(k) + " KiB";
        if (bytes > cc.info().maxAllocBytes) {
            BenchRow row;
            row.suite = "reduce", row.variant = "all", row.size = size;
            row.note = "skipped: above the device's largest buffer";
            report.add(row);
            continue;
        }
        std::vector<float> f(count);
        std::vector<unsigned> u(count);
        std::mt19937 rng(static_cast<unsigned>(k));
        for (std::size_t i = 0; i < count; ++i) {
            const unsigned r = rng();
            u[i] = r;
            f[i] = static_cast<float>(r >> 8) * (1.0f / 16777216.0f);  // [0, 1)
        }
        cl::Buffer df(cc.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, f.data());
        cl::Buffer du(cc.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, u.data());

        // The probe: the same bytes read with float4 loads and nothing else.
        double probeGbs = 0;
        {
            progress(++step, 0, "reduce read-probe " + size);
            cl::Kernel probe = cc.programs().kernel("reduce.cl", "read_probe", "-DOP_SUM");
            cl::Buffer sink(cc.context(), CL_MEM_READ_WRITE, 4);
            const std::size_t wg = 256;
            const std::size_t groups = std::max<std::size_t>(
                1, std::min<std::size_t>((count / 4 + wg - 1) / wg,
                                         std::size_t(std::max(1u, cc.info().computeUnits)) * 8));
            probe.setArg(0, df);
            probe.setArg(1, cl_ulong(count / 4));
            probe.setArg(2, sink);
            const auto ms = timeRuns(
                [&] {
                    cl::Event e;
                    cc.queue().enqueueNDRangeKernel(probe, cl::NullRange, cl::NDRange(groups * wg),
                                                    cl::NDRange(wg), nullptr, &e);
                    return eventMilliseconds(e);
                },
                o);
            BenchRow row = timedRow("reduce", "read-probe", "float4 loads, no tree", size, ms);
            probeGbs = double(count / 4 * 16) / (row.medianMs * 1e6);
            row.metrics = {{"GB/s", probeGbs}};
            row.note = "the read-bandwidth ceiling for this run";
            report.add(row);
        }
        for (int vi = 0; vi < kReduceVariantCount; ++vi) {
            const auto v = static_cast<ReduceVariant>(vi);
            const LinalgVariantInfo& info = reduceVariantInfo(v);
            if (!wanted(o, info.id)) continue;
            struct Case {
                ReduceOp op;
                ReduceType type;
            };
            for (const Case c :
                 {Case{ReduceOp::Sum, ReduceType::Float}, Case{ReduceOp::Max, ReduceType::Float},
                  Case{ReduceOp::Sum, ReduceType::Uint}, Case{ReduceOp::Min, ReduceType::Uint}}) {
                const bool isFloat = c.type == ReduceType::Float;
                const std::string opConfig =
                    std::string(reduceOpName(c.op)) + (isFloat ? " float" : " uint");
                progress(++step, 0, "reduce " + std::string(info.id) + " " + opConfig + " " + size);
                auto runRow = [&](int wg, const std::string& config) {
                    BenchRow row;
                    try {
                        ReduceResult last;
                        const auto ms = clBoundary("reduce", [&] {
                            return timeRuns(
                                [&] {
                                    last =
                                        red.reduce(v, c.op, c.type, isFloat ? df : du, count, wg);
                                    return last.ms;
                                },
                                o);
                        });
                        row = timedRow("reduce", info.id, config, size, ms);
                        const double gbs = double(bytes) / (row.medianMs * 1e6);
                        row.metrics = {{"GB/s", gbs}};
                        if (probeGbs > 0)
                            appendNote(row.note, fmt("%.0f%% of read probe", 100 * gbs / probeGbs));
                        if (v == ReduceVariant::CourseUint4)
                            appendNote(row.note, "host pass not timed");
                        if (v == ReduceVariant::Subgroup)
                            appendNote(row.note, last.subgroups ? "sub-groups / shfl.sync"
                                                                : "local-tree fallback");
                        const double want = isFloat ? referenceReduce(c.op, f.data(), count)
                                                    : referenceReduce(c.op, u.data(), count);
                        const bool ok = isFloat && c.op == ReduceOp::Sum
                                            ? std::abs(last.value - want) <=
                                                  1e-5 * std::max(1.0, std::abs(want))
                                            : last.value == want;
                        appendNote(row.note, ok ? "checked"
                                                : "WRONG: " + fmt("%.9g", last.value) + " vs " +
                                                      fmt("%.9g", want));
                        if (!ok) ++wrong;
                    } catch (const Error& e) {
                        row.suite = "reduce", row.variant = info.id, row.config = config,
                        row.size = size;
                        row.note = std::string("failed: ") + e.what();
                    }
                    report.add(row);
                };
                runRow(0,
                       opConfig + ", wg=" +
                           std::to_string(std::min<std::size_t>(256, cc.info().maxWorkGroupSize)) +
                           " (default)");
                if (o.tune) {
                    // The work-group size is the reductions' tunable: the fastest of a sweep.
                    int best = 0, tried = 0;
                    double bestMs = 0;
                    for (int wg = 64; wg <= 1024; wg *= 2) {
                        if (static_cast<std::size_t>(wg) > cc.info().maxWorkGroupSize) break;
                        try {
                            BenchOptions few = o;
                            few.warmup = 1, few.repeats = 3;
                            const double m = median(timeRuns(
                                [&] {
                                    return red.reduce(v, c.op, c.type, isFloat ? df : du, count, wg)
                                        .ms;
                                },
                                few, 3));
                            ++tried;
                            if (!best || m < bestMs) best = wg, bestMs = m;
                        } catch (const Error&) {
                        } catch (const cl::Error&) {
                        }
                    }
                    if (best)
                        runRow(best, opConfig + ", wg=" + std::to_string(best) +
                                         " (tuned: best of " + std::to_string(tried) + ")");
                }
            }
        }
    }
    progressDone();
    if (wrong > 0)
        std::fprintf(stderr, "clviz-bench: warning: %d reduction result(s) are WRONG\n", wrong);
}

}  // namespace clviz::bench
