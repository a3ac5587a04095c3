#include "app/image/settings.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "common/error.hpp"
#include "common/parse.hpp"
#include "common/quoted_path.hpp"
#include "common/text.hpp"
#include "compute/image/io/image_io.hpp"

namespace clviz {

namespace {

std::optional<int> parseByte(const std::string& text) {
    const auto v = parseInteger(text);
    if (!v || *v < 0 || *v > 255) return std::nullopt;
    return static_cast<int>(*v);
}

template <class Enum, int Count, class InfoFn>
std::optional<Enum> parseVariantId(const std::string& text, InfoFn info) {
    for (int i = 0; i < Count; ++i)
        if (text == info(static_cast<Enum>(i)).id) return static_cast<Enum>(i);
    return std::nullopt;
}

template <class Enum, int Count, class InfoFn>
std::string variantIds(InfoFn info, const char* sep = ", ") {
    std::string out;
    for (int i = 0; i < Count; ++i) {
        if (i) out += sep;
        out += info(static_cast<Enum>(i)).id;
    }
    return out;
}

FilterStep& rotateStep(ImageLabControls& c) {
    if (FilterStep* s = findStep(c.steps, FilterKind::Rotate)) return *s;
    FilterStep s;
    s.kind = FilterKind::Rotate;
    s.enabled = false;
    c.steps.insert(c.steps.begin(), s);
    return c.steps.front();
}

FilterStep& equalizeStep(ImageLabControls& c) {
    if (FilterStep* s = findStep(c.steps, FilterKind::Equalize)) return *s;
    FilterStep s;
    s.kind = FilterKind::Equalize;
    s.enabled = false;
    c.steps.push_back(s);
    return c.steps.back();
}

constexpr double kMaxSpin = 3600.0;  // degrees per second: ten turns, already a blur

}  // namespace

std::optional<Rgba8> parseColour(const std::string& text) {
    const std::string t = trim(text);
    if (!t.empty() && t[0] == '#') {
        if (t.size() != 7 && t.size() != 9) return std::nullopt;
        std::uint8_t v[4] = {0, 0, 0, 255};
        for (std::size_t i = 0; i + 1 < t.size(); i += 2) {
            unsigned byte = 0;
            auto [ptr, ec] = std::from_chars(t.data() + 1 + i, t.data() + 3 + i, byte, 16);
            if (ec != std::errc() || ptr != t.data() + 3 + i) return std::nullopt;
            v[i / 2] = static_cast<std::uint8_t>(byte);
        }
        return Rgba8{v[0], v[1], v[2], v[3]};
    }
    const auto parts = splitList(t, ',');
    if (parts.size() != 3 && parts.size() != 4) return std::nullopt;
    std::uint8_t v[4] = {0, 0, 0, 255};
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto b = parseByte(parts[i]);
        if (!b) return std::nullopt;
        v[i] = static_cast<std::uint8_t>(*b);
    }
    return Rgba8{v[0], v[1], v[2], v[3]};
}

std::string formatColour(Rgba8 c) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x%02x", c.r, c.g, c.b, c.a);
    return buf;
}

FilterStep* findStep(std::vector<FilterStep>& steps, FilterKind kind) {
    for (auto& s : steps)
        if (s.kind == kind) return &s;
    return nullptr;
}

const FilterStep* findStep(const std::vector<FilterStep>& steps, FilterKind kind) {
    for (const auto& s : steps)
        if (s.kind == kind) return &s;
    return nullptr;
}

std::optional<FilterKind> parseFilterKind(const std::string& id) {
    for (int i = 0; i < kFilterKindCount; ++i)
        if (id == filterKindInfo(static_cast<FilterKind>(i)).id) return static_cast<FilterKind>(i);
    return std::nullopt;
}

void applyFilterList(std::vector<FilterStep>& steps, const std::string& list) {
    const std::string t = toLower(trim(list));
    std::vector<FilterKind> order;
    if (!t.empty() && t != "none") {
        for (const std::string& name : splitList(t, ',')) {
            const auto kind = parseFilterKind(name);
            if (!kind) {
                std::string ids;
                for (int i = 0; i < kFilterKindCount; ++i)
                    ids +=
                        std::string(i ? ", " : "") + filterKindInfo(static_cast<FilterKind>(i)).id;
                throw Error("unknown filter " + quotedPath(name) + " (filters: " + ids +
                            ", or none)");
            }
            if (std::find(order.begin(), order.end(), *kind) != order.end())
                throw Error("filter " + quotedPath(name) +
                            " is listed twice (the chain holds one of each)");
            order.push_back(*kind);
        }
    }
    std::vector<FilterStep> result;
    for (FilterKind kind : order) {
        FilterStep s;
        if (const FilterStep* existing = findStep(steps, kind)) s = *existing;
        s.kind = kind;
        s.enabled = true;
        result.push_back(s);
    }
    for (const FilterStep& s : steps)
        if (std::find(order.begin(), order.end(), s.kind) == order.end()) {
            result.push_back(s);
            result.back().enabled = false;
        }
    steps = std::move(result);
}

std::string filterList(const std::vector<FilterStep>& steps) {
    std::string out;
    for (const auto& s : steps) {
        if (!s.enabled) continue;
        if (!out.empty()) out += ",";
        out += filterKindInfo(s.kind).id;
    }
    return out.empty() ? "none" : out;
}

RotateAccess rotateAccess(RotateVariant v) {
    switch (v) {
        case RotateVariant::ImageNearest:
        case RotateVariant::ImageBilinear:
            return RotateAccess::Image;
        case RotateVariant::Forward:
            return RotateAccess::Forward;
        default:
            return RotateAccess::Buffer;
    }
}

bool rotateBilinear(RotateVariant v) {
    return v == RotateVariant::BufferBilinear || v == RotateVariant::ImageBilinear;
}

RotateVariant makeRotateVariant(RotateAccess access, bool bilinear) {
    switch (access) {
        case RotateAccess::Image:
            return bilinear ? RotateVariant::ImageBilinear : RotateVariant::ImageNearest;
        case RotateAccess::Forward:
            return RotateVariant::Forward;
        case RotateAccess::Buffer:
            break;
    }
    return bilinear ? RotateVariant::BufferBilinear : RotateVariant::BufferNearest;
}

namespace {

using Table = SettingTable<ImageLabControls>;
using Value = const std::string&;  // trimmed

std::string rotateVariantChoices() {
    return variantIds<RotateVariant, kRotateVariantCount>(rotateVariantInfo, "|") + "|buffer|image";
}
std::string histogramVariantChoices() {
    return variantIds<HistogramVariant, kHistogramVariantCount>(histogramVariantInfo, "|");
}

void setRotateVariant(ImageLabControls& c, Value value) {
    const std::string v = toLower(value);
    FilterStep& r = rotateStep(c);
    if (auto id = parseVariantId<RotateVariant, kRotateVariantCount>(v, rotateVariantInfo))
        r.rotate.variant = *id;
    else if (v == "buffer" || v == "image")
        r.rotate.variant =
            makeRotateVariant(v == "image" ? RotateAccess::Image : RotateAccess::Buffer,
                              rotateAccess(r.rotate.variant) == RotateAccess::Forward ||
                                  rotateBilinear(r.rotate.variant));
    else
        throw Error("unknown rotate variant " + quotedPath(value) + " (" +
                    variantIds<RotateVariant, kRotateVariantCount>(rotateVariantInfo) +
                    ", or buffer / image keeping the sampling)");
}

void setSampling(ImageLabControls& c, std::size_t bilinear) {
    FilterStep& r = rotateStep(c);
    if (rotateAccess(r.rotate.variant) == RotateAccess::Forward)
        throw Error(
            "the forward rotate variant has no sampling choice (set rotate-variant to buffer or "
            "image first)");
    r.rotate.variant = makeRotateVariant(rotateAccess(r.rotate.variant), bilinear == 1);
}

void setZoom(ImageLabControls& c, Value value) {
    if (toLower(value) == "fit") {
        c.view.zoom = 1.0f;
        c.view.panX = c.view.panY = 0.0f;
    } else if (auto z = parseNumber(value);
               z && *z >= ImageViewState::kMinZoom && *z <= ImageViewState::kMaxZoom) {
        c.view.zoom = static_cast<float>(*z);
    } else {
        throw Error("expected fit or a zoom factor relative to fit, 0.0625 to 256");
    }
}

void setHistogramVariant(ImageLabControls& c, Value value) {
    const auto id = parseVariantId<HistogramVariant, kHistogramVariantCount>(toLower(value),
                                                                             histogramVariantInfo);
    if (!id)
        throw Error("unknown histogram variant " + quotedPath(value) + " (" +
                    variantIds<HistogramVariant, kHistogramVariantCount>(histogramVariantInfo) +
                    ")");
    c.histogram.variant = *id;
    // Equalization builds its own histogram; the same variant keeps the comparison honest.
    if (FilterStep* e = findStep(c.steps, FilterKind::Equalize)) e->equalize.histogram = *id;
}

// A row whose value is one of `names` (any case): its accepted values and its refusal ("expected
// a or b") are written from the same list; `set` gets the index of the name given.
Table::Row choiceRow(std::string key, std::vector<std::string> names, std::string help,
                     void (*set)(ImageLabControls&, std::size_t)) {
    std::string values;
    for (const std::string& n : names)
        (values.empty() ? values : values += '|') += n;
    return {{std::move(key), std::move(values), std::move(help)},
            [names = std::move(names), set](ImageLabControls& c, Value v) {
                const auto i = parseChoice(toLower(v), names);
                if (!i) throw Error("expected " + choiceList(names));
                set(c, *i);
            }};
}

bool onOff(Value value) {
    if (const auto b = parseOnOff(value)) return *b;
    throw Error("expected on or off");
}

}  // namespace

const SettingTable<ImageLabControls>& imageSettings() {
    static const Table table = {
        {{"angle", "DEGREES", "Rotation angle (turns on the rotate filter)"},
         [](ImageLabControls& c, Value v) {
             const auto deg = parseNumber(v);
             if (!deg || std::abs(*deg) > 1e6)
                 throw Error("expected an angle in degrees, e.g. 30 or -12.5");
             FilterStep& r = rotateStep(c);
             r.rotate.degrees = std::fmod(*deg, 360.0);
             r.enabled = true;  // asking for an angle means wanting the rotation
         }},
        {{"spin", "on|off|DEG_PER_S", "Animated rotation (on: 30 degrees per second)"},
         [](ImageLabControls& c, Value v) {
             double speed = 0;
             if (auto b = parseOnOff(v))
                 speed = *b ? 30.0 : 0.0;
             else if (auto n = parseNumber(v); n && std::abs(*n) <= kMaxSpin)
                 speed = *n;
             else
                 throw Error("expected on, off or a speed in degrees per second (at most 3600)");
             c.spinDegreesPerSecond = speed;
             if (speed != 0) rotateStep(c).enabled = true;
         }},
        {{"rotate-variant", rotateVariantChoices(),
          "Rotate kernel; buffer / image keep the sampling"},
         setRotateVariant},
        choiceRow("sampling", {"nearest", "bilinear"}, "How the rotation samples the source",
                  setSampling),
        {{"expand", "on|off", "Grow the output to hold the whole rotated image (off: crop)"},
         [](ImageLabControls& c, Value v) {
             rotateStep(c).rotate.fit = onOff(v) ? RotateFit::Expand : RotateFit::Crop;
         }},
        choiceRow("fit", {"crop", "expand"}, "The same choice as expand, by name",
                  [](ImageLabControls& c, std::size_t i) {
                      rotateStep(c).rotate.fit = i == 1 ? RotateFit::Expand : RotateFit::Crop;
                  }),
        {{"background", "#rrggbb[aa]|r,g,b[,a]", "Colour of the corners a rotation uncovers"},
         [](ImageLabControls& c, Value v) {
             const auto colour = parseColour(v);
             if (!colour)
                 throw Error("expected a colour: #rrggbb, #rrggbbaa, r,g,b or r,g,b,a (0..255)");
             rotateStep(c).rotate.background = *colour;
         }},
        {{"filters", "LIST|none", "The filter chain in order, e.g. median3,rotate"},
         [](ImageLabControls& c, Value v) { applyFilterList(c.steps, v); }},
        choiceRow("equalize-mode", {"luma", "per-channel"}, "What histogram equalization equalizes",
                  [](ImageLabControls& c, std::size_t i) {
                      equalizeStep(c).equalize.mode =
                          i == 0 ? EqualizeMode::Luma : EqualizeMode::PerChannel;
                  }),
        choiceRow("histogram", {"source", "result", "off"},
                  "Which image the histogram counts (result: a rotate's fill outside the picture "
                  "is left out)",
                  [](ImageLabControls& c, std::size_t i) {
                      c.histogram.enabled = i != 2;
                      if (i != 2)
                          c.histogram.of = i == 0 ? HistogramOf::Source : HistogramOf::Result;
                  }),
        {{"histogram-variant", histogramVariantChoices(), "Histogram kernel"}, setHistogramVariant},
        choiceRow("histogram-scale", {"linear", "log"}, "Vertical scale of the histogram plot",
                  [](ImageLabControls& c, std::size_t i) {
                      c.histogramScale = i == 1 ? HistogramScale::Log : HistogramScale::Linear;
                  }),
        choiceRow("view", {"side-by-side", "split"},
                  "Source and result next to each other or split",
                  [](ImageLabControls& c, std::size_t i) {
                      c.view.mode = i == 0 ? ImageViewMode::SideBySide : ImageViewMode::Split;
                  }),
        {{"split", "0..1", "Divider of the split view, as a fraction of the width"},
         [](ImageLabControls& c, Value v) {
             const auto at = parseNumber(v);
             if (!at || *at < 0 || *at > 1)
                 throw Error("expected the divider position as a fraction of the width, 0 to 1");
             c.view.split = static_cast<float>(*at);
             c.view.mode = ImageViewMode::Split;
         }},
        {{"zoom", "fit|0.0625..256", "Zoom relative to fitting the window"}, setZoom},
        choiceRow("magnification", {"nearest", "linear"}, "How zoomed-in pixels are drawn",
                  [](ImageLabControls& c, std::size_t i) {
                      c.view.magnification =
                          i == 0 ? Magnification::Nearest : Magnification::Linear;
                  }),
        {{"interop", "auto|gl-sharing|host-copy|external-memory",
          "How results reach OpenGL textures"},
         [](ImageLabControls& c, Value v) { c.interop = parseInteropRequest(toLower(v)); }},
        {{"continuous", "on|off", "Run the chain every frame (live timings) or only on change"},
         [](ImageLabControls& c, Value v) { c.continuous = onOff(v); }},
    };
    return table;
}

std::vector<SettingDoc> imageLabSettingDocs() {
    std::vector<SettingDoc> docs = {
        {"image", "FILE", std::string("Loads an image: ") + supportedImageFormats(), {}},
        {"save", "FILE", "Saves the result (PNG or JPEG)", {}}};
    const auto& rows = imageSettings().docs();
    docs.insert(docs.end(), rows.begin(), rows.end());
    return docs;
}

std::string imageSettingKeys() {
    return settingKeyList(imageLabSettingDocs());
}

void applyImageSetting(ImageLabControls& c, const std::string& key, const std::string& rawValue) {
    ImageLabControls next = c;  // edits go here; committed only on success
    if (!imageSettings().apply(next, key, trim(rawValue)))
        throw Error("unknown setting " + quotedPath(key) +
                    " (image lab settings: " + imageSettingKeys() + ")");
    c = std::move(next);
}

}  // namespace clviz

namespace clviz {

std::vector<DemoFlag> imageLabFlags() {
    return {{"--image",
             "FILE",
             "image to load (PNG, JPEG, BMP, TGA, GIF, PSD, HDR, PIC, PNM P5/P6)",
             "image",
             {}}};
}

}  // namespace clviz
