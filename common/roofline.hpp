#pragma once
// The roofline model (Williams, Waterman, Patterson 2009) as plain arithmetic: a kernel run is
// placed by its arithmetic intensity (FLOP per byte moved to and from device memory) and its
// achieved GFLOP/s, under the device's ceilings: memory bandwidth (GB/s) times intensity, capped
// by the compute peak (GFLOP/s). Pure, so the linear-algebra lab's chart and its tests share it.
//
// Units: 1 GFLOP/s = 1e9 floating-point operations per second, 1 GB/s = 1e9 bytes per second
// (decimal, as bandwidths are quoted), intensity in FLOP/byte.
#include <optional>
#include <string>
#include <vector>

namespace clviz {

// One timed run of a kernel. `flops` counts the operations the kernel did (an FMA is 2);
// `bytes` the bytes it must move to and from device memory (reads + writes). Either may be 0 when
// it is not counted: a run without flops has a bandwidth but no place on the FLOP/s chart.
struct RooflinePoint {
    std::string name;
    double flops = 0;
    double bytes = 0;
    double seconds = 0;
    std::string note;  // how flops and bytes were counted ("20 flops per interaction")
    // The compute ceiling that bounds the run ("TF32 mma.sync" for tensor-core runs); empty: the
    // chart's FP32 one. A tensor run measured against the FP32 ceiling would read as over 100%.
    std::string ceiling{};
};

double gflopsPerSecond(const RooflinePoint& p);     // 0 when seconds or flops are not > 0
double gigabytesPerSecond(const RooflinePoint& p);  // 0 when seconds or bytes are not > 0
double intensity(const RooflinePoint& p);           // FLOP/byte; 0 when either is not > 0
// Flops, bytes and seconds all positive and finite: the run has a place on the chart.
bool placeable(const RooflinePoint& p);
// Bytes and seconds positive and finite: the run has a bandwidth.
bool hasBandwidth(const RooflinePoint& p);

// A compute ceiling: "FP32 FMA" at 56,000 GFLOP/s.
struct ComputeCeiling {
    std::string name;
    double gflops = 0;
};

struct RooflineCeilings {
    double bandwidthGBs = 0;              // device memory, read + write counted
    std::vector<ComputeCeiling> compute;  // highest first is not required
    // The highest compute ceiling (0 when none).
    double peakGflops() const;
    // The first ceiling called `name`, if any.
    std::optional<double> ceiling(const std::string& name) const;
};

// min(peak, bandwidth × intensity): what the model lets a kernel of this intensity reach under
// the compute ceiling `peakGflops`.
double attainableGflops(double bandwidthGBs, double peakGflops, double flopPerByte);
// The intensity where the memory slope meets that ceiling (FLOP/byte); 0 without bandwidth.
double ridgeIntensity(double bandwidthGBs, double peakGflops);

enum class RooflineBound { Memory, Compute };
const char* rooflineBoundName(RooflineBound b);  // "memory-bound", "compute-bound"

// Where one run sits: its intensity and rate, the bound the model gives under `ceilingGflops`,
// which side of the ridge it is on, and the fraction of the bound it reached.
struct RooflinePlacement {
    double intensity = 0;   // FLOP/byte
    double gflops = 0;      // achieved GFLOP/s
    double attainable = 0;  // GFLOP/s the model allows at this intensity
    double fraction = 0;    // gflops / attainable
    RooflineBound bound = RooflineBound::Memory;
};
// nullopt when the run is not placeable or the ceilings are not positive.
std::optional<RooflinePlacement> placeOnRoofline(const RooflinePoint& p, double bandwidthGBs,
                                                 double ceilingGflops);

// The share of its bound a run reached, as the roofline's table shows it: "87% FP32", "40% TF32",
// "84% mem" (the compute ceiling's first word names it); the run's own ceiling
// (RooflinePoint::ceiling), else `defaultCeiling`. A run bounded by a ceiling that was not
// measured gets only its memory share where it has a bandwidth; empty when nothing applies.
std::string shareOfBound(const RooflinePoint& run, const RooflineCeilings& c,
                         const std::string& defaultCeiling);

// A logarithmic axis from lo to hi (both > 0, lo < hi), whole decades, mapping values to [0, 1].
struct LogAxis {
    double lo = 1, hi = 10;
    double fraction(double v) const;  // log position in [0, 1] (clamped); 0 for v <= 0
    int decades() const;              // whole decades between lo and hi
};
// The decades that hold every positive value (at least one decade; `fallback` when none).
LogAxis logAxisCovering(const std::vector<double>& values, LogAxis fallback = {});

// "12.3 GFLOP/s", "1.23 TFLOP/s"; "4.09 TB/s"; the decimal prefixes the rates are quoted with.
std::string formatFlopRate(double gflops);
std::string formatByteRate(double gigabytesPerSecond);

}  // namespace clviz
