// The image-lab benchmark: every filter variant on square RGBA8 images (1K, 4K, 8K by default),
// each the median of repeated runs timed with CL profiling events, in GB/s of bytes read plus
// written. The device's buffer-copy bandwidth (clEnqueueCopyBuffer), measured in the same run,
// is the ceiling every row is compared with; a multi-threaded C++ baseline times rotate and
// histogram on the host. Results up to 8192 x 8192 are also checked against the CPU reference
// (forward rotation up to 2048 x 2048), so a number is never reported for a kernel that computes
// the wrong thing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <thread>

#include "bench/row_timing.hpp"
#include "bench/suites.hpp"
#include "common/error.hpp"
#include "compute/core/cl_boundary.hpp"
#include "compute/core/profiling.hpp"
#include "compute/image/equalize.hpp"
#include "compute/image/grayscale.hpp"
#include "compute/image/histogram.hpp"
#include "compute/image/noise_filters.hpp"
#include "compute/image/pattern.hpp"
#include "compute/image/reference.hpp"
#include "compute/image/rotate.hpp"
#include "compute/image/transpose.hpp"

namespace clviz::bench {

namespace {

constexpr double kAngle = 30;          // degrees: a real resampling, not a quarter turn
constexpr double kRowBudgetMs = 2000;  // timed device time per row, at most (roughly)
constexpr int kVerifyMaxEdge = 8192;   // larger images are not checked (CPU reference time)

std::string sizeLabel(int edge) {
    return std::to_string(edge) + "x" + std::to_string(edge);
}

std::string percentOf(double gbs, double ceiling) {
    if (ceiling <= 0) return "";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.0f%% of copy", 100.0 * gbs / ceiling);
    return buf;
}

std::string speedup(double baselineMs, double ms) {
    if (baselineMs <= 0 || ms <= 0) return "";
    char buf[48];
    std::snprintf(buf, sizeof buf, "x%.3g vs CPU baseline", baselineMs / ms);
    return buf;
}

// One row to time: `run` enqueues one repetition; `bytes` is what it reads plus writes.
struct Job {
    std::string variant;
    std::string config;
    double bytes = 0;
    std::function<EnqueuedWork()> run;
    // Returns an empty string when the output matches the CPU reference, else what differs
    // ("WRONG: ...") or why it was not checked.
    std::function<std::string()> verify;
    double* baselineMs = nullptr;  // rows compared with a CPU baseline
    std::string unavailable;       // non-empty: reported instead of timed
    std::string why;               // the course versions: why they are slow, for the note
};

Job makeJob(std::string variant, std::string config, double bytes,
            std::function<EnqueuedWork()> run, std::function<std::string()> verify = {}) {
    Job job;
    job.variant = std::move(variant);
    job.config = std::move(config);
    job.bytes = bytes;
    job.run = std::move(run);
    job.verify = std::move(verify);
    return job;
}

std::vector<double> timeJob(const Job& job, const BenchOptions& o, ComputeContext& cc) {
    std::vector<double> ms =
        timeRepeats([&job] { return job.run().milliseconds(); }, o, kRowBudgetMs);
    cc.queue().finish();
    return ms;
}

BenchRow makeRow(const std::string& suite, const std::string& variant, const std::string& config,
                 int edge, const std::vector<double>& ms, double bytes) {
    BenchRow row = timedRow(suite, variant, config, sizeLabel(edge), ms);
    if (bytes > 0 && row.medianMs > 0) row.metrics = {{"GB/s", bytes / (row.medianMs * 1e6)}};
    return row;
}

// Wall-clock milliseconds of `f` on the host: the median of a few runs after one warm-up.
std::vector<double> timeHost(const std::function<void()>& f, int repeats) {
    f();
    std::vector<double> ms;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
    }
    return ms;
}

std::string differs(const Rgba8Image& got, const Rgba8Image& want, int tolerance) {
    if (got.size() != want.size()) return "WRONG: output size differs from the CPU reference";
    int worst = 0;
    for (std::size_t i = 0; i < got.pixels.size(); ++i)
        worst = std::max(worst, std::abs(int(got.pixels[i]) - int(want.pixels[i])));
    if (worst <= tolerance) return "";
    return "WRONG: max difference " + std::to_string(worst) + " from the CPU reference (allowed " +
           std::to_string(tolerance) + ")";
}

Rgba8Image randomNoise(int w, int h) {
    Rgba8Image img(w, h);
    std::uint64_t x = 0x9e3779b97f4a7c15ull;
    for (std::size_t i = 0; i < img.pixels.size(); i += 8) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        for (std::size_t k = 0; k < 8 && i + k < img.pixels.size(); ++k)
            img.pixels[i + k] = static_cast<std::uint8_t>(x >> (8 * k));
    }
    return img;
}

// Runs a whole-image reference on `threads` bands of rows (with one row of halo each side), so
// the C++ baseline of a 3x3 or per-pixel filter uses every core, as the kernels do.
Rgba8Image banded(const Rgba8Image& src, unsigned threads,
                  Rgba8Image (*filter)(const Rgba8Image&)) {
    Rgba8Image out(src.width, src.height);
    const std::size_t rowBytes = std::size_t(src.width) * 4;
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
        const int y0 = int(std::int64_t(src.height) * t / threads);
        const int y1 = int(std::int64_t(src.height) * (t + 1) / threads);
        if (y0 == y1) continue;
        pool.emplace_back([&, y0, y1] {
            const int a = std::max(0, y0 - 1), b = std::min(src.height, y1 + 1);
            Rgba8Image band(src.width, b - a);
            std::copy_n(src.pixels.begin() + a * rowBytes, (b - a) * rowBytes, band.pixels.begin());
            const Rgba8Image r = filter(band);
            std::copy_n(r.pixels.begin() + (y0 - a) * rowBytes, (y1 - y0) * rowBytes,
                        out.pixels.begin() + y0 * rowBytes);
        });
    }
    for (auto& th : pool)
        th.join();
    return out;
}

// Luma equalization on every core: the threaded histogram, the tables, then the tables applied
// in bands of rows.
Rgba8Image equalizeThreaded(const Rgba8Image& src, unsigned threads) {
    const auto tables =
        reference::equalizeTables(reference::histogram(src, int(threads)), EqualizeMode::Luma);
    Rgba8Image out(src.width, src.height);
    const std::size_t n = src.pixels.size() / 4;
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (std::size_t i = n * t / threads; i < n * (t + 1) / threads; ++i)
                for (int c = 0; c < 4; ++c)
                    out.pixels[4 * i + c] =
                        c == 3 ? src.pixels[4 * i + 3] : tables[c][src.pixels[4 * i + c]];
        });
    for (auto& th : pool)
        th.join();
    return out;
}

// The filters under test, each built once for the whole run.
struct Filters {
    explicit Filters(ComputeContext& cc)
        : rotate(cc), histogram(cc), transpose(cc), noise(cc), gray(cc), equalize(cc) {}
    ImageRotate rotate;
    ImageHistogram histogram;
    ImageTranspose transpose;
    ImageNoiseFilter noise;
    ImageGrayscale gray;
    ImageEqualize equalize;
};

// One image size: its inputs and output on the device, and the CPU baselines' times the device
// rows compare with. The jobs refer to it, so it stays where it was made.
struct EdgeRun {
    EdgeRun(ComputeContext& c, int e) : cc(c), edge(e), size{e, e}, bytes(double(size.bytes())) {}
    EdgeRun(const EdgeRun&) = delete;
    ComputeContext& cc;
    int edge;
    ImageSize size;
    double bytes;
    Rgba8Image pattern, noiseImage;
    cl::Buffer src, noiseSrc, dst, bins;
    std::optional<cl::Image2D> srcImage;  // for the image-object rotate variants, if possible
    std::string imageWhy;                 // why not
    double cpuRotateMs = 0, cpuHistogramMs = 0;

    Rgba8Image readDst() {
        Rgba8Image img(size.width, size.height);
        cc.queue().enqueueReadBuffer(dst, CL_TRUE, 0, size.bytes(), img.pixels.data());
        return img;
    }
    Histogram readBins() {
        Histogram h;
        cc.queue().enqueueReadBuffer(bins, CL_TRUE, 0, ImageHistogram::binsBytes(), h.bins.data());
        return h;
    }
};

void prepareEdge(EdgeRun& r, ImageRotate& rotate) {
    r.pattern = makeTestPattern(r.edge, r.edge);
    r.noiseImage = randomNoise(r.edge, r.edge);
    clBoundary("cannot set up the " + sizeLabel(r.edge) + " image benchmark", [&] {
        auto& queue = r.cc.queue();
        const auto& ctx = r.cc.context();
        r.src = cl::Buffer(ctx, CL_MEM_READ_WRITE, r.size.bytes());
        r.noiseSrc = cl::Buffer(ctx, CL_MEM_READ_WRITE, r.size.bytes());
        r.dst = cl::Buffer(ctx, CL_MEM_READ_WRITE, r.size.bytes());
        r.bins = cl::Buffer(ctx, CL_MEM_READ_WRITE, ImageHistogram::binsBytes());
        queue.enqueueWriteBuffer(r.src, CL_TRUE, 0, r.size.bytes(), r.pattern.pixels.data());
        queue.enqueueWriteBuffer(r.noiseSrc, CL_TRUE, 0, r.size.bytes(),
                                 r.noiseImage.pixels.data());
        if (rotate.available(RotateVariant::ImageBilinear, r.size, &r.imageWhy)) {
            r.srcImage = rotate.createSourceImage(r.size);
            queue.enqueueCopyBufferToImage(r.src, *r.srcImage, 0, {0, 0, 0},
                                           {std::size_t(r.edge), std::size_t(r.edge), 1});
            queue.finish();
        }
    });
}

// Forward mapping's reference lists the source pixels each output pixel may come from.
std::string checkForwardRotate(EdgeRun& r, const RotateParams& p) {
    if (r.edge > 2048) return "not checked above 2048x2048";
    const Rgba8Image got = r.readDst();
    const auto sources = reference::rotateForwardSources(r.size, p);
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const std::uint8_t* g = got.pixels.data() + 4 * i;
        const Rgba8& bg = p.background;
        bool ok =
            sources[i].empty() && g[0] == bg.r && g[1] == bg.g && g[2] == bg.b && g[3] == bg.a;
        for (std::size_t s : sources[i])
            ok |= std::equal(g, g + 4, r.pattern.pixels.data() + 4 * s);
        if (!ok) return std::string("WRONG: pixel ") + std::to_string(i) + " differs";
    }
    return "";
}

void addRotateJobs(std::vector<Job>& jobs, EdgeRun& r, Filters& f, bool images) {
    for (int v = 0; v < kRotateVariantCount; ++v) {
        RotateParams p;
        p.degrees = kAngle;
        p.variant = static_cast<RotateVariant>(v);
        const bool usesImages = rotateVariantUsesImages(p.variant);
        const bool forward = p.variant == RotateVariant::Forward;
        Job job;
        job.variant = std::string("rotate-") + rotateVariantInfo(p.variant).id;
        job.config = "30 deg, crop";
        // Forward mapping also fills the output with the background first.
        job.bytes = (forward ? 3 : 2) * r.bytes;
        job.baselineMs = &r.cpuRotateMs;
        if (forward)
            job.why = "course version: a background fill pass, then scattered 4-byte writes";
        if (usesImages && !r.srcImage)
            job.unavailable = "unavailable: " + (images ? r.imageWhy : "no image support");
        job.run = [&r, &f, p, usesImages] {
            return usesImages ? f.rotate.enqueue(p, *r.srcImage, r.dst)
                              : f.rotate.enqueue(p, r.src, r.size, r.dst);
        };
        job.verify = [&r, p, forward] {
            if (forward) return checkForwardRotate(r, p);
            const bool nearest = p.variant == RotateVariant::BufferNearest ||
                                 p.variant == RotateVariant::ImageNearest;
            // Texture units may blend with fixed-point weights (see image_rotate_test).
            const int tolerance = nearest ? 0 : p.variant == RotateVariant::ImageBilinear ? 3 : 1;
            return differs(r.readDst(), reference::rotate(r.pattern, p, 0), tolerance);
        };
        jobs.push_back(job);
    }
}

Job histogramJob(EdgeRun& r, Filters& f, HistogramVariant hv, bool isNoise,
                 const HistogramTuning& t, const BenchOptions& o) {
    Job job;
    job.variant = std::string("histogram-") + histogramVariantInfo(hv).id;
    job.config = std::string(isNoise ? "noise" : "pattern") +
                 (t.workGroupSize ? ", wg=" + std::to_string(t.workGroupSize) : "") +
                 (t.replicas && hv == HistogramVariant::LocalAtomics
                      ? ", replicas=" + std::to_string(t.replicas)
                      : "");
    // The launch shape goes in the row (it depends on the device); a tuning the device cannot
    // run becomes a row that says why.
    if (wanted(o, job.variant)) {
        try {
            job.config += ", " + f.histogram.describeLaunch(hv, r.size, t);
        } catch (const Error& e) {
            job.unavailable = e.what();
        }
    }
    job.bytes = r.bytes;
    job.baselineMs = &r.cpuHistogramMs;
    if (hv == HistogramVariant::ByteSubHistograms)
        job.why =
            "course version: 32-work-item groups (1 KiB of byte counters each), 4-byte reads, a "
            "1024-bin merge per group";
    if (hv == HistogramVariant::GlobalAtomics)
        job.why = "every pixel's 4 atomics contend on 1024 words of global memory";
    const cl::Buffer* in = isNoise ? &r.noiseSrc : &r.src;
    job.run = [&r, &f, hv, t, in] { return f.histogram.enqueue(hv, *in, r.size, r.bins, t); };
    const Rgba8Image* content = isNoise ? &r.noiseImage : &r.pattern;
    job.verify = [&r, content] {
        return r.readBins() == reference::histogram(*content, 0)
                   ? std::string()
                   : std::string("WRONG: bins differ from the CPU reference");
    };
    return job;
}

void addHistogramJobs(std::vector<Job>& jobs, EdgeRun& r, Filters& f,
                      const std::vector<HistogramTuning>& tunings, const BenchOptions& o) {
    for (int v = 0; v < kHistogramVariantCount; ++v)
        for (bool isNoise : {false, true})
            for (const HistogramTuning& t : tunings) {
                const auto hv = static_cast<HistogramVariant>(v);
                if (t.replicas > 1 && hv != HistogramVariant::LocalAtomics) continue;
                if (isNoise && o.quick) continue;
                jobs.push_back(histogramJob(r, f, hv, isNoise, t, o));
            }
}

void addOtherFilterJobs(std::vector<Job>& jobs, EdgeRun& r, Filters& f) {
    const double bytes = r.bytes;
    jobs.push_back(makeJob(
        "transpose", "32x32 local tiles", 2 * bytes,
        [&r, &f] { return f.transpose.enqueue(r.src, r.size, r.dst); },
        [&r] { return differs(r.readDst(), reference::transpose(r.pattern), 0); }));
    jobs.push_back(makeJob(
        "mean3", "4x4 pixels per work-item", 2 * bytes,
        [&r, &f] { return f.noise.enqueue(NoiseFilter::Mean3, r.src, r.size, r.dst); },
        [&r] { return differs(r.readDst(), reference::mean3(r.pattern), 0); }));
    jobs.push_back(makeJob(
        "median3", "4x4 pixels per work-item", 2 * bytes,
        [&r, &f] { return f.noise.enqueue(NoiseFilter::Median3, r.src, r.size, r.dst); },
        [&r] { return differs(r.readDst(), reference::median3(r.pattern), 0); }));
    jobs.push_back(makeJob(
        "grayscale", "", 2 * bytes, [&r, &f] { return f.gray.enqueue(r.src, r.size, r.dst); },
        [&r] { return differs(r.readDst(), reference::grayscale(r.pattern), 0); }));
    jobs.push_back(makeJob(
        "equalize", "luma, local-atomics histogram (luma bins), tables in the apply kernel",
        3 * bytes,
        [&r, &f] {
            return f.equalize.enqueue({EqualizeMode::Luma, HistogramVariant::LocalAtomics}, r.src,
                                      r.size, r.dst);
        },
        [&r] {
            return differs(r.readDst(), reference::equalize(r.pattern, EqualizeMode::Luma), 0);
        }));
}

std::vector<Job> edgeJobs(EdgeRun& r, Filters& f, bool images,
                          const std::vector<HistogramTuning>& tunings, const BenchOptions& o) {
    std::vector<Job> jobs;
    jobs.push_back(makeJob("copy", "clEnqueueCopyBuffer (the ceiling)", 2 * r.bytes, [&r] {
        EnqueuedWork w;
        r.cc.queue().enqueueCopyBuffer(r.src, r.dst, 0, 0, r.size.bytes(), nullptr, &w.last);
        w.first = w.last;
        return w;
    }));
    addRotateJobs(jobs, r, f, images);
    addHistogramJobs(jobs, r, f, tunings, o);
    addOtherFilterJobs(jobs, r, f);
    return jobs;
}

// C++ baselines of the other filters on every core (rows: cpu-mean3, ...).
struct CpuFilter {
    std::string name;
    double bytes;
    std::function<void()> run;
    double ms = 0;
};

std::vector<CpuFilter> cpuFilters(const EdgeRun& r, unsigned threads) {
    return {
        {"mean3", 2 * r.bytes, [&r, threads] { banded(r.pattern, threads, reference::mean3); }},
        {"median3", 2 * r.bytes, [&r, threads] { banded(r.pattern, threads, reference::median3); }},
        {"grayscale", 2 * r.bytes,
         [&r, threads] { banded(r.pattern, threads, reference::grayscale); }},
        {"equalize", 3 * r.bytes, [&r, threads] { equalizeThreaded(r.pattern, threads); }}};
}

// Counts the rows of one size for the progress line.
struct Progress {
    int step = 0;
    int total = 0;
    void next(const std::string& what) { progress(++step, total, what); }
};

// CPU baselines first, so the device rows can say how much faster they are.
void runCpuBaselines(EdgeRun& r, std::vector<CpuFilter>& filters, bool cpuRotate, bool cpuHistogram,
                     unsigned threads, const BenchOptions& o, BenchReport& report,
                     Progress& progress) {
    const int hostRepeats = o.quick ? 1 : 3;
    const std::string cpuConfig = std::to_string(threads) + " threads, C++ -O3";
    const int edge = r.edge;
    if (cpuRotate) {
        progress.next("image cpu-rotate " + sizeLabel(edge));
        RotateParams params;
        params.degrees = kAngle;
        params.variant = RotateVariant::BufferBilinear;
        const auto ms = timeHost([&] { reference::rotate(r.pattern, params, 0); }, hostRepeats);
        BenchRow row = makeRow("baseline", "cpu-rotate", "bilinear, 30 deg, crop, " + cpuConfig,
                               edge, ms, 2 * r.bytes);
        r.cpuRotateMs = row.medianMs;
        report.add(row);
    }
    if (cpuHistogram) {
        progress.next("image cpu-histogram " + sizeLabel(edge));
        const auto ms = timeHost([&] { reference::histogram(r.pattern, 0); }, hostRepeats);
        BenchRow row =
            makeRow("baseline", "cpu-histogram", "pattern, " + cpuConfig, edge, ms, r.bytes);
        r.cpuHistogramMs = row.medianMs;
        report.add(row);
    }
    for (CpuFilter& f : filters) {
        progress.next("image cpu-" + f.name + " " + sizeLabel(edge));
        BenchRow row = makeRow("baseline", "cpu-" + f.name, cpuConfig, edge,
                               timeHost(f.run, hostRepeats), f.bytes);
        f.ms = row.medianMs;
        report.add(row);
    }
}

BenchRow noteRow(const std::string& variant, const std::string& config, int edge,
                 const std::string& note) {
    BenchRow row;
    row.suite = "image";
    row.variant = variant;
    row.config = config;
    row.size = sizeLabel(edge);
    row.note = note;
    return row;
}

// Times and (up to kVerifyMaxEdge) checks each job; returns how many results were wrong.
int runJobs(const std::vector<Job>& jobs, EdgeRun& r, const BenchOptions& o, BenchReport& report,
            Progress& progress) {
    const bool verify = r.edge <= kVerifyMaxEdge;
    int wrong = 0;
    double copyGbs = 0;
    for (const Job& job : jobs) {
        progress.next("image " + job.variant + " " + sizeLabel(r.edge));
        if (!job.unavailable.empty()) {
            report.add(noteRow(job.variant, job.config, r.edge, job.unavailable));
            continue;
        }
        BenchRow row;
        try {
            // The filters' enqueue functions report OpenCL failures as cl::Error: converted
            // here, where the benchmark calls them.
            const auto samples =
                clBoundary("image " + job.variant, [&] { return timeJob(job, o, r.cc); });
            row = makeRow("image", job.variant, job.config, r.edge, samples, job.bytes);
            if (job.variant == "copy") {
                copyGbs = row.metrics.empty() ? 0 : row.metrics[0].second;
            } else {
                if (!row.metrics.empty())
                    appendNote(row.note, percentOf(row.metrics[0].second, copyGbs));
                if (job.baselineMs) appendNote(row.note, speedup(*job.baselineMs, row.medianMs));
                appendNote(row.note, job.why);
            }
            if (verify && job.verify) {
                const std::string problem =
                    clBoundary("checking image " + job.variant, [&] { return job.verify(); });
                appendNote(row.note, problem.empty() ? "checked" : problem);
                if (problem.rfind("WRONG", 0) == 0) ++wrong;
            }
        } catch (const Error& e) {
            row.suite = "image";
            row.variant = job.variant;
            row.config = job.config;
            row.size = sizeLabel(r.edge);
            row.note = std::string("failed: ") + e.what();
        }
        report.add(row);
    }
    return wrong;
}

// Histogram launch shapes to time: the default, or each --wg (with 1, 2, 4 and 8 copies of the
// bins for local atomics, which do not apply to the other variants; 8 copies need 32 KiB of local
// memory, and a device with less gets a row saying so).
std::vector<HistogramTuning> histogramTunings(const BenchOptions& o) {
    if (o.workGroups.empty()) return {HistogramTuning{}};
    std::vector<HistogramTuning> tunings;
    for (int wg : o.workGroups)
        for (int replicas : {1, 2, 4, 8}) {
            HistogramTuning t;
            t.workGroupSize = wg;
            t.replicas = replicas;
            tunings.push_back(t);
        }
    return tunings;
}

}  // namespace

void runImageBenchmark(ComputeContext& cc, const BenchOptions& o, BenchReport& report) {
    std::vector<long long> edges = o.sizes;
    if (edges.empty())
        edges = o.quick ? std::vector<long long>{256} : std::vector<long long>{1024, 4096, 8192};
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    Filters filters(cc);
    const bool images = filters.rotate.available(RotateVariant::ImageBilinear, {1, 1});
    const std::vector<HistogramTuning> tunings = histogramTunings(o);

    int wrong = 0;
    for (long long edgeLL : edges) {
        const int edge = static_cast<int>(edgeLL);
        try {
            checkDeviceBufferFits(cc.info(), {edge, edge}, "the benchmark image");
        } catch (const Error& e) {
            report.add(noteRow("all", "", edge, std::string("skipped: ") + e.what()));
            continue;
        }
        EdgeRun run(cc, edge);
        prepareEdge(run, filters.rotate);
        std::vector<Job> jobs = edgeJobs(run, filters, images, tunings, o);
        std::vector<CpuFilter> cpu = cpuFilters(run, threads);
        for (Job& job : jobs)
            for (CpuFilter& f : cpu)
                if (job.variant == f.name) job.baselineMs = &f.ms;
        std::erase_if(jobs, [&](const Job& j) { return !wanted(o, j.variant); });
        std::erase_if(
            cpu, [&](const CpuFilter& f) { return !o.cpuBaseline || !wanted(o, "cpu-" + f.name); });
        const bool cpuRotate = o.cpuBaseline && wanted(o, "cpu-rotate");
        const bool cpuHistogram = o.cpuBaseline && wanted(o, "cpu-histogram");
        Progress progress;
        progress.total = static_cast<int>(jobs.size() + cpu.size()) + cpuRotate + cpuHistogram;
        runCpuBaselines(run, cpu, cpuRotate, cpuHistogram, threads, o, report, progress);
        wrong += runJobs(jobs, run, o, report, progress);
    }
    progressDone();
    if (wrong > 0)
        std::fprintf(stderr,
                     "clviz-bench: warning: %d image result(s) differ from the CPU reference; see "
                     "the WRONG notes\n",
                     wrong);
}

}  // namespace clviz::bench
