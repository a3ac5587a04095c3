// clviz-make-cube: writes a generated hyperspectral scene (compute/spectral/scene.hpp) as an ENVI
// cube, so the spectral lab and other tools have AVIRIS-sized data to open.
//   clviz-make-cube OUT.hdr --size WxHxB [--type u8|i16|u16|i32|u32|f32|f64]
//                   [--interleave bsq|bil|bip] [--byte-order 0|1] [--seed N] [--noise X]
//                   [--endmembers N]
#include <cstdio>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/parse.hpp"
#include "compute/spectral/io/envi_file.hpp"
#include "compute/spectral/scene.hpp"

using namespace clviz;

namespace {

const char* kUsage =
    "Usage: clviz-make-cube OUT.hdr --size WxHxB [options]\n"
    "Writes a synthetic hyperspectral scene as an ENVI cube (OUT.hdr and OUT.img): endmember\n"
    "spectra with absorption features, mixed by spatially smooth abundances, with band-dependent\n"
    "sensor noise. The same options give the same bytes.\n\n"
    "  --size WxHxB           samples x lines x bands (e.g. 614x1087x224)\n"
    "  --type T               u8, i16, u16, i32, u32, f32 or f64 (default u8)\n"
    "  --interleave I         bsq, bil or bip (default bsq)\n"
    "  --byte-order 0|1       0 little-endian, 1 big-endian (default 0)\n"
    "  --seed N               random seed (default 1)\n"
    "  --noise X              multiplies every band's noise level (default 1, 0: none)\n"
    "  --endmembers N         materials in the scene, 1..64 (default 8)\n";

CubeType parseType(const std::string& v) {
    for (CubeType t : {CubeType::U8, CubeType::I16, CubeType::U16, CubeType::I32, CubeType::U32,
                       CubeType::F32, CubeType::F64})
        if (v == cubeTypeName(t)) return t;
    throw Error("--type: u8, i16, u16, i32, u32, f32 or f64 (got '" + v + "')");
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::vector<std::string> args(argv + 1, argv + argc);
        std::string out;
        SceneSpec spec;
        EnviHeader header;
        bool haveSize = false;
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string& a = args[i];
            if (a == "-h" || a == "--help") {
                std::fputs(kUsage, stdout);
                return 0;
            }
            if (a.rfind("--", 0) != 0) {
                if (!out.empty())
                    throw Error("one output file only (got '" + out + "' and '" + a + "')");
                out = a;
                continue;
            }
            if (i + 1 >= args.size()) throw Error(a + " needs a value");
            const std::string v = args[++i];
            if (a == "--size") {
                const auto s = parseCubeShape(v);
                if (!s) throw Error("--size: WxHxB, each 1..65536 (got '" + v + "')");
                spec.shape = *s;
                haveSize = true;
            } else if (a == "--type") {
                spec.type = parseType(v);
            } else if (a == "--interleave") {
                if (v == "bsq")
                    header.interleave = Interleave::Bsq;
                else if (v == "bil")
                    header.interleave = Interleave::Bil;
                else if (v == "bip")
                    header.interleave = Interleave::Bip;
                else
                    throw Error("--interleave: bsq, bil or bip (got '" + v + "')");
            } else if (a == "--byte-order") {
                if (v != "0" && v != "1") throw Error("--byte-order: 0 or 1 (got '" + v + "')");
                header.byteOrder = v == "1" ? ByteOrder::Big : ByteOrder::Little;
            } else if (a == "--seed") {
                const auto n = parseInteger(v);
                if (!n || *n < 0) throw Error("--seed: a whole number from 0 (got '" + v + "')");
                spec.seed = std::uint64_t(*n);
            } else if (a == "--noise") {
                const auto n = parseNumber(v);
                if (!n || *n < 0 || *n > 1000) throw Error("--noise: 0 to 1000 (got '" + v + "')");
                spec.noise = *n;
            } else if (a == "--endmembers") {
                const auto n = parseInteger(v);
                if (!n || *n < 1 || *n > 64) throw Error("--endmembers: 1 to 64 (got '" + v + "')");
                spec.endmembers = int(*n);
            } else {
                throw Error("unknown option '" + a + "' (see --help)");
            }
        }
        if (out.empty() || !haveSize) throw Error("needs OUT.hdr and --size WxHxB (see --help)");
        const EnviLimits limits;
        if (spec.shape.values() * bytesPerValue(spec.type) > limits.maxDataBytes)
            throw Error("--size: " + describeShape(spec.shape) + " of " + cubeTypeName(spec.type) +
                        " is more than the " + std::to_string(limits.maxDataBytes >> 30) +
                        " GiB clviz reads back");
        const Scene scene = makeScene(spec);
        header.wavelength = scene.wavelengthNm;
        header.fwhm = scene.fwhmNm;
        header.wavelengthUnits = "Nanometers";
        header.description = "clviz-make-cube scene, seed " + std::to_string(spec.seed) + ", " +
                             std::to_string(spec.endmembers) + " endmembers, noise x" +
                             std::to_string(spec.noise);
        const std::string data = writeEnvi(out, scene.cube, header);
        std::printf("wrote %s and %s (%s, %s, %s)\n", out.c_str(), data.c_str(),
                    describeShape(spec.shape).c_str(), cubeTypeName(spec.type),
                    interleaveName(header.interleave));
        return 0;
    } catch (const Error& e) {
        std::fprintf(stderr, "clviz-make-cube: %s\n", e.what());
        return 2;
    }
}
