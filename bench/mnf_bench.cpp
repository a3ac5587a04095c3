// The spectral lab's MNF suite: each step of SpectralMnf (filter, C_N, C_D, eigen, transform)
// and the whole, on generated u8 cubes already on the device, at Indian Pines' size
// (145 x 145 x 200) and two AVIRIS flight-line sizes (614 x 512 x 224, 614 x 1087 x 224, the
// paper's cube). Device steps are CL profiling times; eigen is host wall time (double: every
// eigenvalue, the m eigenvectors the transform needs), with its parts; "whole" is the host wall
// time of steps 1-7 plus the transform's device time, every transfer and host step included, and
// "whole wall" the host wall time from run()'s start until the transform's kernels have finished
// (all the headless run writes: the components and every eigenvalue). Step 5 runs on the device in
// FP64 where it can, and then again by dsygst on the host, in the same run; u8 noise=diff's C_N by
// the cross product, and then again by the stacked windows. Each row is the median of --repeats
// runs.
// --variants picks the noise estimates (diff, mean3, median3; default diff); --sizes takes
// WxHxB cubes.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "bench/row_timing.hpp"
#include "bench/suites.hpp"
#include "common/error.hpp"
#include "common/parse.hpp"
#include "compute/core/profiling.hpp"
#include "compute/spectral/mnf.hpp"
#include "compute/spectral/scene.hpp"

// OpenBLAS's kernels (clviz-bench restarts with a better core where it fell back: blas_core.hpp).
extern "C" char* openblas_get_corename(void);

namespace clviz::bench {

namespace {

constexpr int kComponents = 20;  // m, as the target

BenchRow makeRow(const std::string& variant, const std::string& config, const CubeShape& shape,
                 const std::vector<double>& ms) {
    return timedRow("mnf", variant, config,
                    std::to_string(shape.samples) + "x" + std::to_string(shape.lines) + "x" +
                        std::to_string(shape.bands),
                    ms);
}

std::vector<CubeShape> shapesFor(const BenchOptions& options) {
    if (options.quick) return {{61, 53, 37}};
    return {{145, 145, 200}, {614, 512, 224}, {614, 1087, 224}};
}

void runMnfRoute(SpectralMnf& mnf, NoiseEstimate est, const CubeShape& shape, int warmup,
                 int repeats, const std::string& route, BenchReport& report) {
    std::vector<double> filter, cn, cd, eigen, transform, device, whole, wall;
    // The host's parts (wall time): covariances read and centred, then the eigen step's parts.
    std::vector<double> covWall, potrf, reduce, reduceDevice, tridiagonal, values, valuesDevice,
        vectors, groups, backTransform, means, transformWall, queue, noiseReady, noiseCombine,
        dataReady, dataCentre;
    int threads = 0;
    bool inverse = false;
    for (int r = 0; r < warmup + repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        mnf.run(est, {}, kComponents);
        mnf.transform(kComponents);  // returns when its kernels have finished
        const double wallMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        const MnfTimings& t = mnf.timings();
        if (r < warmup) continue;
        filter.push_back(t.filterMs);
        cn.push_back(t.noiseCovMs);
        cd.push_back(t.dataCovMs);
        eigen.push_back(t.eigenMs);
        transform.push_back(t.transformMs);
        device.push_back(t.filterMs + t.noiseCovMs + t.dataCovMs + t.transformMs);
        whole.push_back(t.wallMs + t.transformMs);
        wall.push_back(wallMs);
        covWall.push_back(t.covariancesWallMs);
        queue.push_back(t.queueMs);
        noiseReady.push_back(t.noiseReadyMs);
        noiseCombine.push_back(t.noiseCombineMs);
        dataReady.push_back(t.dataReadyMs);
        dataCentre.push_back(t.dataCentreMs);
        potrf.push_back(t.eigen.factorMs);
        reduce.push_back(t.eigen.reduceMs);
        reduceDevice.push_back(t.reduceDeviceMs);
        tridiagonal.push_back(t.eigen.tridiagonalMs);
        values.push_back(t.eigen.valuesMs);
        valuesDevice.push_back(t.valuesDeviceMs);
        vectors.push_back(t.eigen.vectorsMs);
        groups.push_back(t.eigen.groupsMs);
        backTransform.push_back(t.eigen.backTransformMs);
        means.push_back(t.meansUploadMs);
        transformWall.push_back(t.transformWallMs);
        threads = t.eigen.threads;
        inverse = t.eigen.inverseIteration;
    }
    const std::string config = std::string("noise=") + noiseEstimateName(est) +
                               " m=" + std::to_string(kComponents) + " u8" + route;
    const double n = double(shape.pixels()), B = shape.bands;
    // Covariance work: B(B+1)/2 multiply-adds per pixel (the symmetric half), 2 flops each.
    const double covFlop = B * (B + 1) * n;
    // The exact diff path forms the Gram matrix of 2B stacked rows (four times the work), or the
    // cross product of the cube with its shifted window over (lines - 1) x samples pixels: four
    // u8 multiply-adds per pair of the symmetric half.
    const bool cross = mnf.crossNoiseUsed();
    const double crossPixels = double(shape.lines - 1) * shape.samples;
    const double noiseFlop = cross                     ? 4 * B * (B + 1) * crossPixels
                             : mnf.result().noiseExact ? 2 * B * (2 * B + 1) * n
                                                       : covFlop;
    BenchRow rf = makeRow("1 filter", config, shape, filter);
    // The u8 cube read once, and the residuals written: floats, the two u8 windows, or (cross)
    // the one shifted window.
    const double filterBytes = n * B + (cross                     ? crossPixels * B
                                        : mnf.result().noiseExact ? 2 * n * B
                                                                  : 4 * n * B);
    rf.metrics = {{"GB/s", filterBytes / (rf.medianMs * 1e6)}};
    report.add(rf);
    BenchRow rn = makeRow("2 C_N",
                          config + (cross ? " (exact integer, X x shifted X, 4 u8 products)"
                                    : mnf.result().noiseExact ? " (exact integer, [Xa; Xb] Gram)"
                                                              : " (FP32)"),
                          shape, cn);
    rn.metrics = {{"GFLOP/s", noiseFlop / (rn.medianMs * 1e6)}};
    report.add(rn);
    BenchRow rd =
        makeRow("4 C_D", config + (mnf.exactIntegerPath() ? " (exact integer)" : ""), shape, cd);
    rd.metrics = {{"GFLOP/s", covFlop / (rd.medianMs * 1e6)}};
    report.add(rd);
    report.add(makeRow("  host: 1,2,4 wall",
                       config + " (from run() until both covariances are centred)", shape,
                       covWall));
    report.add(makeRow("   queued", config + " (host: kernels and reads enqueued)", shape, queue));
    report.add(makeRow("   C_N Gram on host",
                       config + " (wait, read of the B x B numerators into pinned memory)", shape,
                       noiseReady));
    report.add(makeRow("   C_N from Gram", config + " (128-bit numerators)", shape, noiseCombine));
    report.add(makeRow("   C_D Gram on host", config + " (wait after the factor, copy)", shape,
                       dataReady));
    report.add(makeRow("   C_D centring", config, shape, dataCentre));
    report.add(makeRow(
        "3,5-7 eigen",
        config + " (host wall: all eigenvalues, " + std::to_string(kComponents) + " eigenvectors)",
        shape, eigen));
    report.add(makeRow("  eigen dpotrf", config, shape, potrf));
    const bool deviceReduce = mnf.deviceReduceUsed(shape.bands);
    report.add(makeRow("  eigen C_adj",
                       config + (deviceReduce ? " (device FP64, round trip)" : " (dsygst)"), shape,
                       reduce));
    if (deviceReduce)
        report.add(makeRow("  C_adj device", config + " (the two kernels, device time)", shape,
                           reduceDevice));
    report.add(makeRow("  eigen dsytrd", config, shape, tridiagonal));
    const bool valuesOnDevice = mnf.timings().valuesDeviceMs > 0;
    report.add(makeRow("  eigen values",
                       config + (valuesOnDevice ? " (all eigenvalues: device FP64, round trip)"
                                                : " (all eigenvalues: host)"),
                       shape, values));
    if (valuesOnDevice)
        report.add(makeRow("  values device", config + " (the bisection kernel, device time)",
                           shape, valuesDevice));
    report.add(makeRow("  eigen vectors",
                       config + (inverse ? " (dstein after dsterf, dormtr, dtrtrs)"
                                         : " (dstemr in " + std::to_string(threads) +
                                               " groups beside dsterf, then dormtr, dtrtrs)"),
                       shape, vectors));
    if (!inverse) {
        report.add(
            makeRow("   MRRR groups", config + " (until the last group ended)", shape, groups));
        report.add(makeRow("   back-transform", config + " (dormtr, dtrtrs: all columns)", shape,
                           backTransform));
    }
    report.add(makeRow("  means upload", config + " (host wall)", shape, means));
    BenchRow rt = makeRow("8 transform", config, shape, transform);
    rt.metrics = {{"GFLOP/s", 2.0 * kComponents * B * n / (rt.medianMs * 1e6)}};
    report.add(rt);
    report.add(makeRow("  transform wall", config + " (weights uploaded, until the kernels end)",
                       shape, transformWall));
    report.add(makeRow("device steps", config + " (1+2+4+8)", shape, device));
    BenchRow rw = makeRow("whole", config + " (run() wall + transform device time)", shape, whole);
    rw.note = std::to_string(componentsWithSnr(mnf.result().basis, 10)) + " components SNR>10";
    report.add(rw);
    report.add(makeRow("whole wall", config + " (run() start to the components on the device)",
                       shape, wall));
}

}  // namespace

void runMnfBenchmark(ComputeContext& cc, const BenchOptions& options, BenchReport& report) {
    std::vector<NoiseEstimate> estimates;
    for (const std::string& v : options.variants) {
        const auto e = parseNoiseEstimate(v);
        if (!e)
            throw Error("--variants for the mnf suite: diff, mean3 or median3 (got '" + v + "')");
        estimates.push_back(*e);
    }
    if (estimates.empty()) estimates.push_back(NoiseEstimate::Diff);
    const std::vector<CubeShape> shapes =
        options.mnfShapes.empty() ? shapesFor(options) : options.mnfShapes;
    const char* core = openblas_get_corename();
    const char* forced = std::getenv("OPENBLAS_CORETYPE");
    std::fprintf(stderr, "mnf: OpenBLAS runs its %s kernels (OPENBLAS_CORETYPE %s)\n",
                 core ? core : "?", forced ? forced : "unset");
    const int warmup = options.quick ? 1 : options.warmup;
    const int repeats = options.quick ? 3 : options.repeats;
    int index = 0;
    const int total = int(shapes.size() * estimates.size());
    for (const CubeShape& shape : shapes) {
        SceneSpec spec;
        spec.shape = shape;
        spec.type = CubeType::U8;
        const auto tg = std::chrono::steady_clock::now();
        const Scene scene = makeScene(spec);
        std::fprintf(stderr, "mnf: generated a %s u8 cube in %.1f s\n",
                     describeShape(shape).c_str(),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - tg).count());
        SpectralMnf mnf(cc);
        mnf.upload(scene.cube);
        for (NoiseEstimate est : estimates) {
            progress(++index, total,
                     std::string("mnf ") + noiseEstimateName(est) + " " + describeShape(shape));
            // Step 5 on the device in FP64 (the default where the device has cl_khr_fp64), then
            // LAPACK's dsygst on the host, in the same run.
            // Then, with the default step 5, every eigenvalue by dqds instead of dsterf.
            const bool device = mnf.deviceReduceUsed(shape.bands);
            runMnfRoute(mnf, est, shape, warmup, repeats, "", report);
            // u8 with noise=diff: C_N by the stacked windows instead of the cross product.
            if (est == NoiseEstimate::Diff && mnf.crossNoiseUsed()) {
                mnf.setCrossNoise(false);
                runMnfRoute(mnf, est, shape, warmup, repeats, " (C_N by the stacked windows)",
                            report);
                mnf.setCrossNoise(true);
            }
            if (device) {
                mnf.setDeviceReduce(false);
                runMnfRoute(mnf, est, shape, warmup, repeats, " (step 5 by dsygst on the host)",
                            report);
                mnf.setDeviceReduce(true);
            }
            // Every eigenvalue on the host instead of the device: dsterf, then dqds.
            if (mnf.deviceValuesUsed(shape.bands)) {
                mnf.setValuesOn(MnfValuesOn::Host);
                runMnfRoute(mnf, est, shape, warmup, repeats, " (all eigenvalues by dsterf)",
                            report);
            }
            mnf.setValueRoute(MnfValueRoute::Dqds);
            runMnfRoute(mnf, est, shape, warmup, repeats, " (all eigenvalues by dqds)", report);
            mnf.setValueRoute(MnfValueRoute::Sterf);
            mnf.setValuesOn(MnfValuesOn::Auto);
            // The eigenvectors by MRRR groups on helper threads beside dsterf instead of inverse
            // iteration after it: as many groups as mnf_solve.cpp picks (4 for m = 20), then 2.
            mnf.setVectorRoute(MnfVectorRoute::Mrrr);
            for (int threads : {0, 2}) {
                mnf.setVectorThreads(threads);
                runMnfRoute(
                    mnf, est, shape, warmup, repeats,
                    std::string(" (eigenvectors by MRRR groups") +
                        (threads > 0 ? " on " + std::to_string(threads) + " threads)" : ")"),
                    report);
            }
            mnf.setVectorThreads(0);
            mnf.setVectorRoute(MnfVectorRoute::InverseIteration);
        }
    }
    progressDone();
}

}  // namespace clviz::bench
