#include "common/roofline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace clviz {

namespace {

bool positive(double v) {
    return std::isfinite(v) && v > 0;
}

std::string withPrefix(double perSecondG, const char* unit) {
    // perSecondG is in units of 1e9 per second.
    const char* prefix = "G";
    double v = perSecondG;
    if (std::abs(v) >= 1e3) {
        v /= 1e3;
        prefix = "T";
    } else if (std::abs(v) < 1 && v != 0) {
        v *= 1e3;
        prefix = "M";
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g %s%s/s", v, prefix, unit);
    return buf;
}

}  // namespace

double gflopsPerSecond(const RooflinePoint& p) {
    return positive(p.flops) && positive(p.seconds) ? p.flops / p.seconds * 1e-9 : 0.0;
}

double gigabytesPerSecond(const RooflinePoint& p) {
    return positive(p.bytes) && positive(p.seconds) ? p.bytes / p.seconds * 1e-9 : 0.0;
}

double intensity(const RooflinePoint& p) {
    return positive(p.flops) && positive(p.bytes) ? p.flops / p.bytes : 0.0;
}

bool placeable(const RooflinePoint& p) {
    return positive(p.flops) && positive(p.bytes) && positive(p.seconds);
}

bool hasBandwidth(const RooflinePoint& p) {
    return positive(p.bytes) && positive(p.seconds);
}

double RooflineCeilings::peakGflops() const {
    double peak = 0;
    for (const auto& c : compute)
        if (positive(c.gflops)) peak = std::max(peak, c.gflops);
    return peak;
}

std::optional<double> RooflineCeilings::ceiling(const std::string& name) const {
    for (const auto& c : compute)
        if (c.name == name) return c.gflops;
    return std::nullopt;
}

double attainableGflops(double bandwidthGBs, double peakGflops, double flopPerByte) {
    if (!positive(bandwidthGBs) || !positive(peakGflops) || !positive(flopPerByte)) return 0.0;
    // GB/s × FLOP/byte = GFLOP/s.
    return std::min(peakGflops, bandwidthGBs * flopPerByte);
}

double ridgeIntensity(double bandwidthGBs, double peakGflops) {
    if (!positive(bandwidthGBs) || !positive(peakGflops)) return 0.0;
    return peakGflops / bandwidthGBs;
}

const char* rooflineBoundName(RooflineBound b) {
    return b == RooflineBound::Memory ? "memory-bound" : "compute-bound";
}

std::optional<RooflinePlacement> placeOnRoofline(const RooflinePoint& p, double bandwidthGBs,
                                                 double ceilingGflops) {
    if (!placeable(p) || !positive(bandwidthGBs) || !positive(ceilingGflops)) return std::nullopt;
    RooflinePlacement out;
    out.intensity = intensity(p);
    out.gflops = gflopsPerSecond(p);
    out.attainable = attainableGflops(bandwidthGBs, ceilingGflops, out.intensity);
    out.fraction = out.gflops / out.attainable;
    out.bound = out.intensity < ridgeIntensity(bandwidthGBs, ceilingGflops)
                    ? RooflineBound::Memory
                    : RooflineBound::Compute;
    return out;
}

std::string shareOfBound(const RooflinePoint& run, const RooflineCeilings& c,
                         const std::string& defaultCeiling) {
    const std::string& name = run.ceiling.empty() ? defaultCeiling : run.ceiling;
    char text[64];
    if (const std::optional<double> ceiling = c.ceiling(name)) {
        if (auto place = placeOnRoofline(run, c.bandwidthGBs, *ceiling)) {
            const std::string label =
                place->bound == RooflineBound::Memory ? "mem" : name.substr(0, name.find(' '));
            std::snprintf(text, sizeof text, "%.0f%% %s", place->fraction * 100, label.c_str());
            return text;
        }
    }
    if (!hasBandwidth(run) || !positive(c.bandwidthGBs)) return "";
    std::snprintf(text, sizeof text, "%.0f%% mem", gigabytesPerSecond(run) / c.bandwidthGBs * 100);
    return text;
}

double LogAxis::fraction(double v) const {
    if (!(v > 0) || !(lo > 0) || !(hi > lo)) return 0.0;
    const double f = (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    return std::clamp(f, 0.0, 1.0);
}

int LogAxis::decades() const {
    if (!(lo > 0) || !(hi > lo)) return 0;
    return static_cast<int>(std::lround(std::log10(hi) - std::log10(lo)));
}

LogAxis logAxisCovering(const std::vector<double>& values, LogAxis fallback) {
    double lo = 0, hi = 0;
    for (double v : values) {
        if (!positive(v)) continue;
        lo = lo == 0 ? v : std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (lo == 0) return fallback;
    LogAxis axis;
    axis.lo = std::pow(10.0, std::floor(std::log10(lo)));
    axis.hi = std::pow(10.0, std::ceil(std::log10(hi)));
    if (axis.hi <= axis.lo) axis.hi = axis.lo * 10;  // one value on a decade mark
    return axis;
}

std::string formatFlopRate(double gflops) {
    return withPrefix(gflops, "FLOP");
}

std::string formatByteRate(double gigabytesPerSecond) {
    return withPrefix(gigabytesPerSecond, "B");
}

}  // namespace clviz
