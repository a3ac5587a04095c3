#include "compute/linalg/gemm.hpp"

#include <algorithm>
#include <iterator>
#include <sstream>
#include <utility>

#include "common/error.hpp"
#include "compute/core/compute_context.hpp"
#include "compute/core/program_cache.hpp"
#include "compute/core/set_args.hpp"
#include "compute/linalg/gemm_tf32_bulk_layout.hpp"

namespace clviz {

namespace {

constexpr LinalgVariantInfo kVariants[kGemmVariantCount] = {
    {"gemm-naive", "Naive",
     "One work-item per element of C, every operand read from global memory.", "gemm.cl:gemm_naive",
     "", "", false},
    {"gemm-tile", "Local-memory tile (course)",
     "The course's TS x TS work-group stages tiles of A and B in local memory.",
     "gemm.cl:gemm_tile", "-DTS", "TS", false},
    {"gemm-regblock", "Register-blocked 2-D tiles",
     "BM x BN block per work-group, a TM x TN block in each work-item's registers, float4 loads.",
     "gemm.cl:gemm_regblock", "-DBM -DBN -DBK -DTM -DTN -DVEC_A -DVEC_B -DVEC_C", "BM BN BK TM TN",
     false},
    {"gemm-double-buffer", "Double-buffered register blocks",
     "Register blocks with two local buffers: the next tile's global loads overlap this tile's "
     "products, one barrier per tile.",
     "gemm.cl:gemm_regblock", "-DDOUBLE_BUFFER -DBM -DBN -DBK -DTM -DTN", "BM BN BK TM TN", false},
    {"gemm-pipelined", "Pipelined 128 x 128 register blocks",
     "256 work-items of 8 x 8 per 128 x 128 block, each warp a 4 x 8 patch (conflict-free "
     "float4 reads), next tile prefetched into registers (or cp.async stages), two local "
     "buffers, one barrier per tile, two groups per SM on NVIDIA, groups walked in bands of 8 "
     "block rows.",
     "gemm_pipelined.cl:gemm_pipelined",
     "-DBM -DBN -DBK -DTM -DTN -DVEC_A -DVEC_B -DVEC_C -DGROUP_BAND -DASYNC_STAGES",
     "BM BN BK TM TN GB ST", false},
    {"gemm-tf32", "Tensor cores, TF32 (mma.sync)",
     "Warps issue mma.sync m16n8k8 TF32 with FP32 accumulate on double-buffered local tiles; "
     "elsewhere the same tiles run as FP32 FMAs.",
     "gemm.cl:gemm_tf32", "-DNV_INLINE_PTX -DBM -DBN -DBK -DWM -DWN", "BM BN BK WM WN", true},
};

std::string d(const char* name, int v) {
    return std::string(" -D") + name + "=" + std::to_string(v);
}

int ceilDiv(int n, int m) {
    return (n + m - 1) / m;
}

// Row strides of the staged kernel's padded local tiles (kernels/gemm_tf32_staged.cl, PAD4 /
// PAD8).
int padTo4Mod8(int x) {
    return x % 8 == 0 ? x + 4 : x;
}
int padTo8Mod16(int x) {
    return x % 16 == 0 ? x + 8 : x;
}

}  // namespace

bool tf32UsesStagedKernel(const GemmShape& s) {
    return (s.transA ? s.m : s.k) % 4 == 0 && (s.transB ? s.k : s.n) % 4 == 0;
}

std::size_t tf32StageBytes(const GemmShape& s, const GemmTuning& t, bool packed) {
    if (packed) return (std::size_t(t.blockM) + t.blockN) * t.blockK * sizeof(float);
    const std::size_t a = s.transA ? std::size_t(t.blockK) * padTo8Mod16(t.blockM)
                                   : std::size_t(t.blockM) * padTo4Mod8(t.blockK);
    const std::size_t b = s.transB ? std::size_t(t.blockN) * padTo4Mod8(t.blockK)
                                   : std::size_t(t.blockK) * padTo8Mod16(t.blockN);
    return (a + b) * sizeof(float);
}

std::size_t tf32BulkStageBytes(const GemmTuning& t) {
    return (std::size_t(t.blockM) + t.blockN) * t.blockK * sizeof(float);
}

bool tf32PacksRows(const GemmShape& s, const GemmTuning& t, std::size_t localBytes) {
    return 2 * tf32StageBytes(s, t, false) > std::min<std::size_t>(localBytes, kTf32LocalBytes);
}

const LinalgVariantInfo& gemmVariantInfo(GemmVariant variant) {
    return kVariants[static_cast<int>(variant)];
}

GemmVariant gemmVariantFromId(const std::string& id) {
    for (int v = 0; v < kGemmVariantCount; ++v)
        if (id == kVariants[v].id) return static_cast<GemmVariant>(v);
    std::string known;
    for (const auto& v : kVariants)
        known += std::string(known.empty() ? "" : ", ") + v.id;
    throw Error("unknown GEMM variant '" + id + "' (known: " + known + ")");
}

std::string GemmTuning::key() const {
    if (tile) return "TS=" + std::to_string(tile);
    std::string s;
    auto add = [&](const char* n, int v) {
        if (v) s += std::string(s.empty() ? "" : " ") + n + "=" + std::to_string(v);
    };
    add("BM", blockM), add("BN", blockN), add("BK", blockK), add("TM", threadM), add("TN", threadN);
    add("WM", warpM), add("WN", warpN), add("REGCAP", registerCap), add("GB", groupBand);
    add("ST", asyncStages), add("BULK", bulkCopies);
    return s;
}

GemmTuning parseGemmTuning(const std::string& key) {
    GemmTuning t;
    const std::pair<const char*, int GemmTuning::*> fields[] = {
        {"TS", &GemmTuning::tile},
        {"BM", &GemmTuning::blockM},
        {"BN", &GemmTuning::blockN},
        {"BK", &GemmTuning::blockK},
        {"TM", &GemmTuning::threadM},
        {"TN", &GemmTuning::threadN},
        {"WM", &GemmTuning::warpM},
        {"WN", &GemmTuning::warpN},
        {"REGCAP", &GemmTuning::registerCap},
        {"GB", &GemmTuning::groupBand},
        {"ST", &GemmTuning::asyncStages},
        {"BULK", &GemmTuning::bulkCopies}};
    std::istringstream words(key);
    std::string word;
    while (words >> word) {
        const auto eq = word.find('=');
        const std::string name = word.substr(0, eq);
        auto field = std::find_if(std::begin(fields), std::end(fields),
                                  [&](const auto& f) { return name == f.first; });
        const std::string value = eq == std::string::npos ? "" : word.substr(eq + 1);
        std::size_t used = 0;
        int v = -1;
        try {
            v = std::stoi(value, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (field == std::end(fields) || used == 0 || used != value.size() || v <= 0)
            throw Error(
                "GEMM tuning '" + key + "': '" + word +
                "' is not NAME=N with N > 0 and NAME one of TS BM BN BK TM TN WM WN REGCAP GB ST "
                "BULK");
        t.*(field->second) = v;
    }
    return t;
}

bool takesNvidiaCompilerOptions(const DeviceInfo& device) {
    return device.hasExtension("cl_nv_compiler_options");
}

std::string registerCapOption(bool nvidiaCompilerOptions, int cap) {
    if (cap == 0) return "";
    if (!nvidiaCompilerOptions)
        throw Error("REGCAP=" + std::to_string(cap) +
                    ": a register cap is an option of NVIDIA's OpenCL compiler "
                    "(cl_nv_compiler_options), which this device does not take");
    if (cap < 16 || cap > 255)
        throw Error("REGCAP=" + std::to_string(cap) + ": a register cap must be within 16..255");
    // REGISTER_CAP drops the kernel's required work-group size, which would override the cap.
    return " -DREGISTER_CAP -cl-nv-maxrregcount=" + std::to_string(cap);
}

Gemm::Gemm(ComputeContext& cc) : cc_(cc), ptx_(cc), kernels_(cc) {}

bool Gemm::usesInlinePtx(GemmVariant variant) const {
    return gemmVariantInfo(variant).needsInlinePtx && ptx_.active();
}

std::string Gemm::ptxNote() const {
    return ptx_.active() ? "inline PTX mma.sync"
                         : "portable FP32 twin (this compiler does not take inline PTX)";
}

int Gemm::tf32Stages(const GemmShape& shape, const GemmTuning& tuning) const {
    if (!tf32UsesStagedKernel(shape)) return 0;
    const GemmTuning t = resolved(GemmVariant::TensorTf32, tuning);
    const std::size_t bytes =
        tf32StageBytes(shape, t, tf32PacksRows(shape, t, cc_.info().localMemBytes));
    // At most 48 KiB (NVIDIA's OpenCL grants a work-group no more) on every device, so that the
    // CPU tests run the stage counts and layouts the GPU runs.
    const std::size_t local = std::min<std::size_t>(cc_.info().localMemBytes, kTf32LocalBytes);
    return int(std::min<std::size_t>(4, local / bytes));
}

int Gemm::tf32BulkStages(const GemmTuning& tuning) const {
    const GemmTuning t = resolved(GemmVariant::TensorTf32, tuning);
    // Each stage also takes its 8-byte barrier (16 bytes counted, and 128 kept spare).
    const std::size_t local =
        std::min<std::size_t>(cc_.info().localMemBytes, kTf32LocalBytes) - 128;
    return int(std::min<std::size_t>(4, local / (tf32BulkStageBytes(t) + 16)));
}

GemmTuning Gemm::resolved(GemmVariant variant, const GemmTuning& t) const {
    GemmTuning r = t;
    auto def = [](int& v, int d) {
        if (v <= 0) v = d;
    };
    switch (variant) {
        case GemmVariant::Naive:
            r = {};
            break;
        case GemmVariant::LocalTile:
            r = {};
            r.tile = t.tile > 0 ? t.tile : 16;
            break;
        case GemmVariant::RegisterBlocked:
        case GemmVariant::DoubleBuffered:
            r.tile = 0, r.warpM = 0, r.warpN = 0, r.groupBand = 0, r.asyncStages = 0;
            r.bulkCopies = 0;
            // 128 x 64: the tuned rows' pick at 4096^2 and 8192^2 on the H200 (docs/linalg.md).
            def(r.blockM, 128), def(r.blockN, 64), def(r.blockK, 16);
            def(r.threadM, 8), def(r.threadN, 8);
            break;
        case GemmVariant::Pipelined:
            r.tile = 0, r.warpM = 0, r.warpN = 0, r.bulkCopies = 0;
            def(r.blockM, 128), def(r.blockN, 128), def(r.blockK, 8);
            def(r.threadM, 8), def(r.threadN, 8);
            // Bands of 8 block rows: a little ahead of the launch order on the H100
            // (docs/linalg.md).
            def(r.groupBand, 8);
            // Two work-groups per SM (64 K registers) where NVIDIA's compiler takes a cap: ptxas
            // alone picks a few more than 128 for 256 work-items, which leaves one group per SM.
            if (r.registerCap == 0 && takesNvidiaCompilerOptions(cc_.info()) && r.threadM > 0 &&
                r.threadN > 0) {
                const int items = (r.blockM / r.threadM) * (r.blockN / r.threadN);
                if (items > 0) r.registerCap = std::min(255, 65536 / (2 * items) / 8 * 8);
            }
            break;
        case GemmVariant::TensorTf32:
            r.tile = 0, r.threadM = 0, r.threadN = 0, r.registerCap = 0, r.groupBand = 0;
            r.asyncStages = 0;
            r.bulkCopies = r.bulkCopies ? 1 : 0;
            // 64 x 64 warp tiles: the tuned pick at 4096^2 and 8192^2 on the H100 (docs/linalg.md).
            def(r.blockM, 128), def(r.blockN, 128), def(r.blockK, 16);
            def(r.warpM, 64), def(r.warpN, 64);
            break;
    }
    return r;
}

GemmTuning Gemm::resolvedFor(GemmVariant variant, const GemmTuning& t, const GemmShape& s) const {
    const bool tilesNamed = t.blockM || t.blockN || t.blockK || t.warpM || t.warpN;
    if (variant == GemmVariant::TensorTf32 && !tilesNamed && !t.bulkCopies &&
        std::min({s.m, s.n, s.k}) >= kTf32BulkMinSize) {
        GemmTuning bulk = t;
        bulk.blockM = 128, bulk.blockN = 128, bulk.blockK = 16, bulk.warpM = 64, bulk.warpN = 64;
        bulk.bulkCopies = 1;
        return resolved(variant, bulk);
    }
    return resolved(variant, t);
}

cl::Event Gemm::enqueue(GemmVariant variant, const GemmShape& s, float alpha, const cl::Buffer& a,
                        const cl::Buffer& b, float beta, const cl::Buffer& c,
                        const GemmTuning& tuning) {
    const LinalgVariantInfo& info = gemmVariantInfo(variant);
    if (s.m <= 0 || s.n <= 0 || s.k <= 0)
        throw Error(std::string(info.id) + ": M, N and K must be positive (got " +
                    std::to_string(s.m) + " x " + std::to_string(s.n) + " x " +
                    std::to_string(s.k) + ")");
    auto need = [&](const cl::Buffer& buf, double elems, const char* what) {
        if (buf.getInfo<CL_MEM_SIZE>() < elems * sizeof(float))
            throw Error(std::string(info.id) + ": buffer " + what + " is smaller than the matrix");
    };
    need(a, double(s.m) * s.k, "A"), need(b, double(s.k) * s.n, "B"),
        need(c, double(s.m) * s.n, "C");

    const GemmTuning t = resolvedFor(variant, tuning, s);
    std::string options;
    if (s.transA) options += " -DTRANS_A";
    if (s.transB) options += " -DTRANS_B";
    cl::NDRange global, local;
    const DeviceInfo& dev = cc_.info();
    auto refuse = [&](const std::string& why) {
        throw Error(std::string(info.id) + " " + t.key() + ": " + why);
    };
    auto blockedChecks = [&](int threads) {
        if (t.blockM % 4 || t.blockN % 4 || t.blockK % 4)
            refuse("BM, BN and BK must be multiples of 4");
        if (static_cast<std::size_t>(threads) > dev.maxWorkGroupSize)
            refuse(std::to_string(threads) + " work-items per group is above the device's " +
                   std::to_string(dev.maxWorkGroupSize));
        // float4 loads need the stored rows' length to be a multiple of 4.
        if ((s.transA ? s.m : s.k) % 4 == 0) options += " -DVEC_A";
        if ((s.transB ? s.k : s.n) % 4 == 0) options += " -DVEC_B";
        if (s.n % 4 == 0) options += " -DVEC_C";
        options +=
            d("BM", t.blockM) + d("BN", t.blockN) + d("BK", t.blockK) + d("WG_SIZE", threads);
    };
    // Local memory the kernel's tiles take: refused above what the device has.
    auto fitsLocal = [&](std::size_t localBytes) {
        if (localBytes > dev.localMemBytes)
            refuse("needs " + formatBytes(localBytes) + " of local memory, the device has " +
                   formatBytes(dev.localMemBytes));
    };
    // Whole tiles everywhere (the rows are then multiples of 4 too): no edge checks.
    auto fullTiles = [&] {
        if (s.m % t.blockM == 0 && s.n % t.blockN == 0 && s.k % t.blockK == 0)
            options += " -DFULL_TILES";
    };
    cl::Kernel kernel;  // a handle on the cached kernel
    switch (variant) {
        case GemmVariant::Naive:
            kernel = kernels_.get("gemm.cl", "gemm_naive", options);
            local = cl::NDRange(16, 16);
            global = cl::NDRange(ceilDiv(s.n, 16) * 16, ceilDiv(s.m, 16) * 16);
            break;
        case GemmVariant::LocalTile: {
            const int ts = t.tile;
            if (ts < 1 || static_cast<std::size_t>(ts * ts) > dev.maxWorkGroupSize)
                refuse("TS x TS must fit a work-group (at most " +
                       std::to_string(dev.maxWorkGroupSize) + " work-items)");
            kernel = kernels_.get("gemm.cl", "gemm_tile", options + d("TS", ts));
            local = cl::NDRange(ts, ts);
            global = cl::NDRange(ceilDiv(s.n, ts) * ts, ceilDiv(s.m, ts) * ts);
            break;
        }
        case GemmVariant::RegisterBlocked:
        case GemmVariant::DoubleBuffered: {
            if (t.threadM % 4 || t.threadN % 4 || t.blockM % t.threadM || t.blockN % t.threadN)
                refuse("TM and TN must be multiples of 4 that divide BM and BN");
            const int tx = t.blockN / t.threadN, ty = t.blockM / t.threadM;
            blockedChecks(tx * ty);
            const std::size_t bufferBytes =
                std::size_t(t.blockK) * (t.blockM + t.blockN + 8) * sizeof(float);
            // Two buffers above 48 KiB (the most NVIDIA's OpenCL grants a work-group; one rule
            // everywhere, so the CPU tests run the GPU's path): one buffer, refilled between two
            // barriers (ONE_LOCAL), the register prefetch kept.
            const bool oneLocal =
                variant == GemmVariant::DoubleBuffered &&
                2 * bufferBytes > std::min<std::size_t>(dev.localMemBytes, 48 * 1024);
            const int buffers = variant == GemmVariant::DoubleBuffered && !oneLocal ? 2 : 1;
            const std::size_t localBytes = buffers * bufferBytes;
            fitsLocal(localBytes);
            options += d("TM", t.threadM) + d("TN", t.threadN);
            fullTiles();
            if (variant == GemmVariant::DoubleBuffered) options += " -DDOUBLE_BUFFER";
            if (oneLocal) options += " -DONE_LOCAL";
            try {
                options += registerCapOption(takesNvidiaCompilerOptions(dev), t.registerCap);
            } catch (const Error& e) {
                throw Error(std::string(info.id) + ": " + e.what());  // e names the cap
            }
            kernel = kernels_.get("gemm.cl", "gemm_regblock", options);
            local = cl::NDRange(tx, ty);
            global = cl::NDRange(ceilDiv(s.n, t.blockN) * tx, ceilDiv(s.m, t.blockM) * ty);
            break;
        }
        case GemmVariant::Pipelined: {
            if (t.threadM % 4 || t.threadN % 4 || t.blockM % t.threadM || t.blockN % t.threadN)
                refuse("TM and TN must be multiples of 4 that divide BM and BN");
            const int tx = t.blockN / t.threadN, ty = t.blockM / t.threadM;
            // Each warp is a 4 x 8 patch of work-items (kernels/gemm_pipelined.cl).
            if (tx % 8 || ty % 4)
                refuse(
                    "BN / TN must be a multiple of 8 and BM / TM a multiple of 4 (warps of 4 x 8 "
                    "work-items)");
            blockedChecks(tx * ty);
            if (t.asyncStages != 0 && (t.asyncStages < 2 || t.asyncStages > 4))
                refuse("ST (asynchronous stages) must be 2, 3 or 4");
            const int buffers = t.asyncStages ? t.asyncStages : 2;
            const std::size_t localBytes =
                buffers * std::size_t(t.blockK) * (t.blockM + t.blockN + 8) * sizeof(float);
            fitsLocal(localBytes);
            options += d("TM", t.threadM) + d("TN", t.threadN);
            if (t.groupBand > 1) options += d("GROUP_BAND", t.groupBand);
            if (t.asyncStages) options += d("ASYNC_STAGES", t.asyncStages);
            fullTiles();
            try {
                // The kernel has no required work-group size, so ptxas honours the cap; the
                // option's -DREGISTER_CAP is unused there.
                options += registerCapOption(takesNvidiaCompilerOptions(dev), t.registerCap);
            } catch (const Error& e) {
                throw Error(std::string(info.id) + ": " + e.what());
            }
            // The asynchronous stages are cp.async where inline PTX builds.
            kernel = kernels_.get("gemm_pipelined.cl", "gemm_pipelined", options,
                                  t.asyncStages ? &ptx_ : nullptr);
            local = cl::NDRange(tx * ty, 1);
            global =
                cl::NDRange(std::size_t(ceilDiv(s.n, t.blockN)) * tx * ty, ceilDiv(s.m, t.blockM));
            break;
        }
        case GemmVariant::TensorTf32: {
            const int wm = t.warpM, wn = t.warpN;
            if (wm % 16 || wn % 8 || t.blockM % wm || t.blockN % wn || t.blockK % 8)
                refuse(
                    "the warp tile WM x WN must be made of 16 x 8 MMA tiles, divide BM x BN, "
                    "and BK must be a multiple of 8");
            const int threads = 32 * (t.blockM / wm) * (t.blockN / wn);
            blockedChecks(threads);
            options += d("WM", wm) + d("WN", wn);
            if (t.bulkCopies) {
                const int stages = tf32BulkStages(t);
                // B's fragments come two n-tiles per ldmatrix.
                if (wn % 16) refuse("BULK=1 needs WN to be a multiple of 16");
                if (stages < 2)
                    refuse("two stages of " + formatBytes(tf32BulkStageBytes(t)) +
                           " need more local memory than the " +
                           formatBytes(std::min<std::size_t>(dev.localMemBytes, kTf32LocalBytes)) +
                           " a work-group is given");
                const Tf32PackedLayout la{s.m, s.k, t.blockM, t.blockK};
                const Tf32PackedLayout lb{s.n, s.k, t.blockN, t.blockK};
                auto grown = [&](cl::Buffer& buf, std::size_t floats) {
                    if (!buf() || buf.getInfo<CL_MEM_SIZE>() < floats * sizeof(float))
                        buf = cl::Buffer(cc_.context(), CL_MEM_READ_WRITE, floats * sizeof(float));
                };
                grown(packedA_, la.floats()), grown(packedB_, lb.floats());
                options += d("STAGES", stages);
                // C's edges are the only ones left (the packed tiles are zero-padded).
                if (s.m % t.blockM == 0 && s.n % t.blockN == 0) options += " -DFULL_TILES";
                kernel = kernels_.get("gemm_tf32_bulk.cl", "gemm_tf32_bulk", options, &ptx_);
                // Both operands in one launch (kernels/gemm_tf32_pack.cl): op(A) is k-contiguous
                // where A is stored M x K, op(B)^T where B is stored N x K. Rounded to TF32 as
                // they are packed where the main kernel (built first) feeds the tensor cores; its
                // portable twin computes in FP32 on the operands as given.
                const Tf32PackPanels pa = tf32PackPanels(la, !s.transA);
                const Tf32PackPanels pb = tf32PackPanels(lb, s.transB);
                const std::string o =
                    d("BK", t.blockK) + d("PANEL_TILES", pa.panelTiles) +
                    d("WG_SIZE", kTf32PackGroupSize) +
                    d("LOCAL_FLOATS", int(std::max(pa.localFloats(), pb.localFloats()))) +
                    d("A_TILE_ROWS", la.tileRows) + d("A_PANEL_ROWS", pa.panelRows) +
                    d("A_K_CONTIGUOUS", !s.transA) + d("B_TILE_ROWS", lb.tileRows) +
                    d("B_PANEL_ROWS", pb.panelRows) + d("B_K_CONTIGUOUS", s.transB) +
                    d("ROUND_TF32", ptx_.active());
                cl::Kernel pack = kernels_.get("gemm_tf32_pack.cl", "gemm_tf32_pack", o);
                const std::size_t groupsA = pa.groups(), groupsB = pb.groups();
                setArgs(pack, s.m, s.n, s.k, la.kTiles(), int(groupsA), a, b, packedA_, packedB_);
                cc_.queue().enqueueNDRangeKernel(
                    pack, cl::NullRange, cl::NDRange((groupsA + groupsB) * kTf32PackGroupSize),
                    cl::NDRange(kTf32PackGroupSize), nullptr, &first_);
                pack_ = first_;
                packBytes_ = (double(s.m) * s.k + double(s.k) * s.n + double(la.floats()) +
                              double(lb.floats())) *
                             sizeof(float);
                global = cl::NDRange(std::size_t(ceilDiv(s.n, t.blockN)) * threads,
                                     ceilDiv(s.m, t.blockM));
                local = cl::NDRange(threads, 1);
                setArgs(kernel, s.m, s.n, s.k, alpha, packedA_, packedB_, beta, c);
                cl::Event event;
                cc_.queue().enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr,
                                                 &event);
                return event;
            }
            if (tf32UsesStagedKernel(s)) {
                const int stages = tf32Stages(s, t);
                const bool packed = tf32PacksRows(s, t, dev.localMemBytes);
                if (stages < 2)
                    refuse("two stages of " + formatBytes(tf32StageBytes(s, t, true)) +
                           " need more local memory than the " +
                           formatBytes(std::min<std::size_t>(dev.localMemBytes, kTf32LocalBytes)) +
                           " a work-group is given");
                options += d("STAGES", stages);
                if (packed) options += " -DPACKED";
                fullTiles();
                kernel = kernels_.get("gemm_tf32_staged.cl", "gemm_tf32_staged", options, &ptx_);
            } else {
                const std::size_t localBytes = 2 *
                                               (std::size_t(t.blockM) * (t.blockK + 4) +
                                                std::size_t(t.blockK) * (t.blockN + 8)) *
                                               sizeof(float);
                fitsLocal(localBytes);
                kernel = kernels_.get("gemm.cl", "gemm_tf32", options, &ptx_);
            }
            global =
                cl::NDRange(std::size_t(ceilDiv(s.n, t.blockN)) * threads, ceilDiv(s.m, t.blockM));
            local = cl::NDRange(threads, 1);
            break;
        }
    }
    setArgs(kernel, s.m, s.n, s.k, alpha, a, b, beta, c);
    cl::Event event;
    cc_.queue().enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &event);
    first_ = event;
    pack_ = cl::Event(), packBytes_ = 0;
    return event;
}

}  // namespace clviz
