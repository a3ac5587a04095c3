#include "app/linalg/settings.hpp"

#include "common/error.hpp"
#include "common/parse.hpp"
#include "common/text.hpp"

namespace clviz {

namespace {

using Table = SettingTable<LinalgLabControls>;
using Value = const std::string&;  // trimmed

bool onOff(Value value) {
    if (const auto b = parseOnOff(value)) return *b;
    throw Error("expected on or off");
}

int dimension(Value value) {
    const auto v = parseInteger(value);
    if (!v || *v < 1 || *v > kLinalgMaxDimension)
        throw Error("expected a size from 1 to " + std::to_string(kLinalgMaxDimension));
    return int(*v);
}

// A tile parameter: 0 (the variant's default) or a size up to 256; whether the variant accepts
// it is the GEMM's to say when it runs (its message names the rule).
int tileParameter(Value value) {
    const auto v = parseInteger(value);
    if (!v || *v < 0 || *v > 256) throw Error("expected 0 (the default) or a size from 1 to 256");
    return int(*v);
}

GemmVariant gemmVariantOf(Value value) {
    const std::string v = toLower(value);
    for (int i = 0; i < kGemmVariantCount; ++i) {
        const auto variant = GemmVariant(i);
        const std::string id = gemmVariantInfo(variant).id;
        if (v == id || "gemm-" + v == id) return variant;
    }
    throw Error("unknown GEMM variant '" + value + "' (" + gemmVariantChoices() + ")");
}

ReduceVariant reduceVariantOf(Value value) {
    const std::string v = toLower(value);
    for (int i = 0; i < kReduceVariantCount; ++i) {
        const auto variant = ReduceVariant(i);
        const std::string id = reduceVariantInfo(variant).id;
        if (v == id || "reduce-" + v == id) return variant;
    }
    throw Error("unknown reduction variant '" + value + "' (" + reduceVariantChoices() + ")");
}

Table::Row tileRow(std::string key, std::string help, int GemmTuning::*field) {
    return {{std::move(key), "0|1..256", std::move(help)},
            [field](LinalgLabControls& c, Value v) { c.tuning.*field = tileParameter(v); }};
}

}  // namespace

std::string gemmVariantChoices() {
    std::string out;
    for (int i = 0; i < kGemmVariantCount; ++i)
        out += std::string(i ? "|" : "") + gemmVariantInfo(GemmVariant(i)).id;
    return out;
}

std::string reduceVariantChoices() {
    std::string out;
    for (int i = 0; i < kReduceVariantCount; ++i)
        out += std::string(i ? "|" : "") + reduceVariantInfo(ReduceVariant(i)).id;
    return out;
}

const SettingTable<LinalgLabControls>& linalgSettings() {
    static const Table table = {
        {{"variant", gemmVariantChoices(), "GEMM kernel (the prefix gemm- may be left out)"},
         [](LinalgLabControls& c, Value v) { c.variant = gemmVariantOf(v); }},
        {{"size", "1..4096", "M, N and K at once (square matrices)"},
         [](LinalgLabControls& c, Value v) { c.shape.m = c.shape.n = c.shape.k = dimension(v); }},
        {{"m", "1..4096", "Rows of op(A) and C"},
         [](LinalgLabControls& c, Value v) { c.shape.m = dimension(v); }},
        {{"n", "1..4096", "Columns of op(B) and C"},
         [](LinalgLabControls& c, Value v) { c.shape.n = dimension(v); }},
        {{"k", "1..4096", "Columns of op(A), rows of op(B)"},
         [](LinalgLabControls& c, Value v) { c.shape.k = dimension(v); }},
        {{"trans-a", "on|off", "A is stored K x M and used transposed"},
         [](LinalgLabControls& c, Value v) { c.shape.transA = onOff(v); }},
        {{"trans-b", "on|off", "B is stored N x K and used transposed"},
         [](LinalgLabControls& c, Value v) { c.shape.transB = onOff(v); }},
        tileRow("tile", "Local-memory tile edge TS of the course's kernel (0: default)",
                &GemmTuning::tile),
        tileRow("block-m", "Rows of C per work-group, BM (0: default)", &GemmTuning::blockM),
        tileRow("block-n", "Columns of C per work-group, BN (0: default)", &GemmTuning::blockN),
        tileRow("block-k", "Depth of each K step, BK (0: default)", &GemmTuning::blockK),
        tileRow("thread-m",
                "Rows of C per work-item, TM; the TF32 variant: per warp, WM (0: default)",
                &GemmTuning::threadM),
        tileRow("thread-n",
                "Columns of C per work-item, TN; the TF32 variant: per warp, WN (0: default)",
                &GemmTuning::threadN),
        {{"reduce-variant", reduceVariantChoices(),
          "Reduction kernel of the bandwidth panel (the prefix reduce- may be left out)"},
         [](LinalgLabControls& c, Value v) { c.reduceVariant = reduceVariantOf(v); }},
        {{"error-overlay", "on|off", "Draw |C - CPU reference| over C"},
         [](LinalgLabControls& c, Value v) { c.errorOverlay = onOff(v); }},
        {{"continuous", "on|off", "Run the GEMM every frame (live timings) or only on change"},
         [](LinalgLabControls& c, Value v) { c.continuous = onOff(v); }},
        {{"all-variants", "on|off",
          "Time every GEMM variant at this shape (one a frame) for the roofline"},
         [](LinalgLabControls& c, Value v) { c.allVariants = onOff(v); }},
        {{"sweep", "on|off", "Time the variant at smaller square sizes for the size plot"},
         [](LinalgLabControls& c, Value v) { c.sweep = onOff(v); }},
    };
    return table;
}

std::vector<SettingDoc> linalgLabSettingDocs() {
    return linalgSettings().docs();
}

void applyLinalgSetting(LinalgLabControls& c, const std::string& key, const std::string& rawValue) {
    LinalgLabControls next = c;
    if (!linalgSettings().apply(next, key, trim(rawValue)))
        throw Error("unknown setting '" + key + "' (linear-algebra lab settings: " +
                    settingKeyList(linalgLabSettingDocs()) + ")");
    c = next;
}

}  // namespace clviz
