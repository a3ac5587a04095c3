#include "compute/spectral/scene.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

#include "common/error.hpp"

namespace clviz {

namespace {

// splitmix64: tiny, fast and the same everywhere.
struct Random {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    double gaussian() {  // Box-Muller, one of the pair
        const double u1 = 1.0 - uniform();
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }
};

double bump(double x, double centre, double width) {
    const double t = (x - centre) / width;
    return std::exp(-0.5 * t * t);
}

double sigmoid(double x, double centre, double width) {
    return 1.0 / (1.0 + std::exp(-(x - centre) / width));
}

// Reflectance (0..1) of endmember `e` at `nm`; the first five are modelled on real materials,
// the rest are smooth random spectra with three absorption features drawn from `shape`.
double reflectance(int e, double nm, const std::vector<double>& shape) {
    switch (e) {
        case 0:  // green vegetation: green peak, chlorophyll well, red edge, leaf-water bands
            return 0.04 + 0.06 * bump(nm, 550, 35) +
                   0.42 * sigmoid(nm, 715, 18) * (1 - 0.5 * sigmoid(nm, 1300, 60)) *
                       (1 - 0.35 * bump(nm, 1450, 60)) * (1 - 0.5 * bump(nm, 1930, 70)) *
                       (1 - 0.1 * bump(nm, 980, 30)) * (1 - 0.12 * bump(nm, 1200, 40)) -
                   0.03 * bump(nm, 680, 25);
        case 1:  // bare soil: slow rise, weak water bands, clay feature at 2200 nm
            return (0.08 + 0.28 * sigmoid(nm, 900, 350)) * (1 - 0.15 * bump(nm, 1420, 40)) *
                   (1 - 0.2 * bump(nm, 1920, 50)) * (1 - 0.18 * bump(nm, 2205, 30));
        case 2:  // water: a little blue-green, nothing past the near infrared
            return 0.07 * (1 - sigmoid(nm, 620, 60)) + 0.01;
        case 3:  // a bright carbonate mineral: broad iron band at 900 nm, carbonate at 2330 nm
            return (0.45 + 0.1 * sigmoid(nm, 600, 80)) * (1 - 0.25 * bump(nm, 900, 120)) *
                   (1 - 0.4 * bump(nm, 2330, 35)) * (1 - 0.1 * bump(nm, 1910, 50));
        case 4:  // asphalt and roofs: dark, nearly flat
            return 0.06 + 0.05 * (nm - 400) / 2100 + 0.01 * bump(nm, 1700, 300);
        default: {  // a level, a slope and three absorption features of random place and depth
            const double* p = shape.data() + 9 * (e - 5);
            return (p[0] + p[1] * sigmoid(nm, p[2], 150)) * (1 - p[6] * bump(nm, p[3], 25)) *
                   (1 - p[7] * bump(nm, p[4], 50)) * (1 - p[8] * bump(nm, p[5], 80));
        }
    }
}

// Sun times atmospheric transmission (relative, peak about 1): water vapour and oxygen bands,
// almost nothing left at 1400 and 1900 nm, as in real at-sensor radiance.
double illumination(double nm) {
    const double um = nm / 1000.0;
    const double planck = 1.0 / (std::pow(um, 5) * (std::exp(2.48 / um) - 1.0));  // 5800 K
    const double planckPeak = 1.0 / (std::pow(0.5, 5) * (std::exp(2.48 / 0.5) - 1.0));
    const double t = (1 - 0.5 * bump(nm, 760, 5)) * (1 - 0.3 * bump(nm, 940, 25)) *
                     (1 - 0.4 * bump(nm, 1135, 30)) * (1 - 0.97 * bump(nm, 1390, 45)) *
                     (1 - 0.97 * bump(nm, 1880, 60)) * (1 - 0.2 * bump(nm, 2500, 80));
    return planck / planckPeak * t;
}

// A smooth field over the scene: random Gaussian blobs and a few slow waves, about -1..1.
// Coordinates are in scene units of kSceneUnit pixels, so a small cube is as smooth per pixel as
// a large one (a crop of a larger scene, not a whole scene squeezed into few pixels); blobs are
// spread over the whole extent, their number growing with its area.
constexpr double kSceneUnit = 128;  // pixels

struct Field {
    struct Blob {
        double x, y, r, a;
    };
    struct Wave {
        double kx, ky, phase, a;
    };
    std::vector<Blob> blobs;
    std::vector<Wave> waves;
    Field(Random& rng, double width, double height, int blobsPerUnit) {
        const int count = std::max(blobsPerUnit, int(std::ceil(blobsPerUnit * width * height)));
        for (int i = 0; i < count; ++i)
            blobs.push_back({rng.uniform(0, width), rng.uniform(0, height), rng.uniform(0.05, 0.3),
                             rng.uniform(-1.5, 1.5)});
        for (int i = 0; i < 3; ++i)
            waves.push_back({rng.uniform(-8, 8), rng.uniform(-8, 8), rng.uniform(0, 6.28),
                             rng.uniform(0.1, 0.4)});
    }
    double at(double x, double y) const {
        double v = 0;
        for (const Blob& b : blobs) {
            const double dx = x - b.x, dy = y - b.y, d2 = dx * dx + dy * dy;
            if (d2 < 25 * b.r * b.r) v += b.a * std::exp(-d2 / (2 * b.r * b.r));
        }
        for (const Wave& w : waves)
            v += w.a * std::sin(w.kx * x + w.ky * y + w.phase);
        return v;
    }
};

// `field` sampled every kGridStep pixels (and one past the edge), read back bilinearly: the
// fields are smooth on that scale, and AVIRIS-sized scenes would otherwise spend seconds here.
constexpr int kGridStep = 4;

struct SampledField {
    int gw, gh;
    std::vector<double> grid;
    SampledField(const Field& f, int samples, int lines)
        : gw(samples / kGridStep + 2), gh(lines / kGridStep + 2), grid(std::size_t(gw) * gh) {
        for (int j = 0; j < gh; ++j)
            for (int i = 0; i < gw; ++i)
                grid[std::size_t(j) * gw + i] =
                    f.at((i * kGridStep + 0.5) / kSceneUnit, (j * kGridStep + 0.5) / kSceneUnit);
    }
    double at(int s, int l) const {
        const int i = s / kGridStep, j = l / kGridStep;
        const double fx = double(s % kGridStep) / kGridStep, fy = double(l % kGridStep) / kGridStep;
        const double* g = grid.data() + std::size_t(j) * gw + i;
        return (1 - fy) * ((1 - fx) * g[0] + fx * g[1]) + fy * ((1 - fx) * g[gw] + fx * g[gw + 1]);
    }
};

}  // namespace

Scene makeScene(const SceneSpec& spec) {
    const CubeShape& sh = spec.shape;
    if (sh.samples < 1 || sh.lines < 1 || sh.bands < 1 || spec.endmembers < 1 ||
        spec.endmembers > 64)
        throw Error("scene: needs at least 1 sample, line and band, and 1 to 64 endmembers");
    const int E = spec.endmembers;
    Random rng{spec.seed * 0x2545f4914f6cdd1dull + 17};

    Scene scene;
    scene.cube = makeCube(sh, spec.type);
    const int B = sh.bands;
    for (int b = 0; b < B; ++b) {
        const double step = B > 1 ? (spec.lastNm - spec.firstNm) / (B - 1) : 0;
        scene.wavelengthNm.push_back(spec.firstNm + step * b);
        scene.fwhmNm.push_back(B > 1 ? step * 1.1 : 10);
    }

    // Endmember radiance per band (E x B) and random spectra for endmembers past the fifth.
    std::vector<double> shapes;
    for (int e = 5; e < E; ++e)
        for (double v : {rng.uniform(0.05, 0.3), rng.uniform(0.05, 0.4), rng.uniform(500, 2000),
                         rng.uniform(450, 2450), rng.uniform(450, 2450), rng.uniform(450, 2450),
                         rng.uniform(0.2, 0.7), rng.uniform(0.2, 0.7), rng.uniform(0.2, 0.7)})
            shapes.push_back(v);
    std::vector<double> radiance(std::size_t(E) * B);
    for (int e = 0; e < E; ++e)
        for (int b = 0; b < B; ++b)
            radiance[std::size_t(e) * B + b] =
                std::max(0.0, reflectance(e, scene.wavelengthNm[b], shapes)) *
                illumination(scene.wavelengthNm[b]);

    // Abundances (E per pixel, summing to 1) and a shade factor per pixel.
    const double width = sh.samples / kSceneUnit, height = sh.lines / kSceneUnit;
    std::vector<SampledField> fields;
    for (int e = 0; e < E; ++e)
        fields.emplace_back(Field(rng, width, height, 6), sh.samples, sh.lines);
    const SampledField shadeField(Field(rng, width, height, 4), sh.samples, sh.lines);
    const std::size_t P = sh.pixels();
    std::vector<float> abundance(P * E);
    std::vector<float> shade(P);
    for (int l = 0; l < sh.lines; ++l)
        for (int s = 0; s < sh.samples; ++s) {
            const std::size_t p = std::size_t(l) * sh.samples + s;
            double w[64], sum = 0;
            for (int e = 0; e < E; ++e)
                sum += w[e] = std::exp(2.5 * fields[e].at(s, l));
            for (int e = 0; e < E; ++e)
                abundance[p * E + e] = float(w[e] / sum);
            shade[p] = float(0.8 + 0.2 * std::tanh(shadeField.at(s, l)));
        }

    // Stored value = offset + gain * radiance + noise, in the type's units.
    double offset = 0, gain = 1, lo = -1e300, hi = 1e300;
    switch (spec.type) {
        case CubeType::U8:
            offset = 8, gain = 440, lo = 0, hi = 255;
            break;
        case CubeType::I16:
            offset = 0, gain = 18000, lo = -32768, hi = 32767;
            break;
        case CubeType::U16:
            offset = 0, gain = 18000, lo = 0, hi = 65535;
            break;
        case CubeType::I32:
        case CubeType::U32:
            offset = 0, gain = 1e6, lo = 0, hi = 2e9;
            break;
        case CubeType::F32:
        case CubeType::F64:
            break;
    }
    const bool integer = isIntegerType(spec.type);
    for (int b = 0; b < B; ++b) {
        // Detector noise rises towards both ends of the range (blue and past 2300 nm).
        const double nm = scene.wavelengthNm[b];
        const double edge = bump(nm, 400, 120) + bump(nm, 2500, 200);
        scene.noiseSigma.push_back(spec.noise * gain * 0.001 * (1 + 3 * edge));
    }

    // Bands in parallel, each with its own random stream (the result does not depend on the
    // thread count).
    auto makeBand = [&](int b) {
        Random noise{spec.seed * 0x9e3779b97f4a7c15ull + 0x1234567ull * std::uint64_t(b + 1)};
        const double sigma = scene.noiseSigma[b];
        for (std::size_t p = 0; p < P; ++p) {
            double r = 0;
            for (int e = 0; e < E; ++e)
                r += abundance[p * E + e] * radiance[std::size_t(e) * B + b];
            double v = offset + gain * shade[p] * r + (sigma > 0 ? sigma * noise.gaussian() : 0);
            if (integer) v = std::clamp(std::round(v), lo, hi);
            scene.cube.setValue(std::size_t(b) * P + p, v);
        }
    };
    const int threads = int(std::clamp(std::thread::hardware_concurrency(), 1u, 16u));
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (int b = t; b < B; b += threads)
                makeBand(b);
        });
    for (std::thread& t : pool)
        t.join();
    return scene;
}

}  // namespace clviz
