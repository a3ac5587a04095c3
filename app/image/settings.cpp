#include "app/image/settings.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "common/error.hpp"
#include "common/text.hpp"

namespace clviz {

namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    const auto e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

std::optional<double> parseNumber(const std::string& text) {
    const std::string t = trim(text);
    if (t.empty()) return std::nullopt;
    double v = 0;
    const char* end = t.data() + t.size();
    auto [ptr, ec] = std::from_chars(t.data(), end, v);
    if (ec != std::errc() || ptr != end || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<int> parseByte(const std::string& text) {
    const std::string t = trim(text);
    int v = 0;
    const char* end = t.data() + t.size();
    auto [ptr, ec] = std::from_chars(t.data(), end, v);
    if (t.empty() || ec != std::errc() || ptr != end || v < 0 || v > 255) return std::nullopt;
    return v;
}

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(text);
    while (std::getline(in, item, sep))
        out.push_back(trim(item));
    if (!text.empty() && text.back() == sep) out.push_back("");
    return out;
}

template <class Enum, int Count, class InfoFn>
std::optional<Enum> parseVariantId(const std::string& text, InfoFn info) {
    for (int i = 0; i < Count; ++i)
        if (text == info(static_cast<Enum>(i)).id) return static_cast<Enum>(i);
    return std::nullopt;
}

template <class Enum, int Count, class InfoFn>
std::string variantIds(InfoFn info) {
    std::string out;
    for (int i = 0; i < Count; ++i) {
        if (i) out += ", ";
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

std::optional<bool> parseBool(const std::string& text) {
    const std::string t = toLower(trim(text));
    if (t == "on" || t == "true" || t == "1" || t == "yes") return true;
    if (t == "off" || t == "false" || t == "0" || t == "no") return false;
    return std::nullopt;
}

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
    const auto parts = split(t, ',');
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

std::string applyFilterList(std::vector<FilterStep>& steps, const std::string& list) {
    const std::string t = toLower(trim(list));
    std::vector<FilterKind> order;
    if (!t.empty() && t != "none") {
        for (const std::string& name : split(t, ',')) {
            const auto kind = parseFilterKind(name);
            if (!kind) {
                std::string ids;
                for (int i = 0; i < kFilterKindCount; ++i)
                    ids +=
                        std::string(i ? ", " : "") + filterKindInfo(static_cast<FilterKind>(i)).id;
                return "unknown filter '" + name + "' (filters: " + ids + ", or none)";
            }
            if (std::find(order.begin(), order.end(), *kind) != order.end())
                return "filter '" + name + "' is listed twice (the chain holds one of each)";
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
    return "";
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

std::string imageSettingKeys() {
    return "image, save, angle, spin, rotate-variant, sampling, expand, background, filters, "
           "equalize-mode, histogram, histogram-variant, histogram-scale, view, split, zoom, "
           "magnification, interop, continuous";
}

std::string applyImageSetting(ImageLabControls& c, const std::string& key,
                              const std::string& rawValue) {
    const std::string value = trim(rawValue);
    const std::string v = toLower(value);
    ImageLabControls next = c;  // edits go here; committed only on success

    if (key == "angle") {
        const auto deg = parseNumber(value);
        if (!deg || std::abs(*deg) > 1e6) return "expected an angle in degrees, e.g. 30 or -12.5";
        FilterStep& r = rotateStep(next);
        r.rotate.degrees = std::fmod(*deg, 360.0);
        r.enabled = true;  // asking for an angle means wanting the rotation
    } else if (key == "spin") {
        double speed = 0;
        if (auto b = parseBool(value))
            speed = *b ? 30.0 : 0.0;
        else if (auto n = parseNumber(value); n && std::abs(*n) <= kMaxSpin)
            speed = *n;
        else
            return "expected on, off or a speed in degrees per second (at most 3600)";
        next.spinDegreesPerSecond = speed;
        if (speed != 0) rotateStep(next).enabled = true;
    } else if (key == "rotate-variant") {
        FilterStep& r = rotateStep(next);
        if (auto id = parseVariantId<RotateVariant, kRotateVariantCount>(v, rotateVariantInfo))
            r.rotate.variant = *id;
        else if (v == "buffer" || v == "image")
            r.rotate.variant =
                makeRotateVariant(v == "image" ? RotateAccess::Image : RotateAccess::Buffer,
                                  rotateAccess(r.rotate.variant) == RotateAccess::Forward ||
                                      rotateBilinear(r.rotate.variant));
        else
            return "unknown rotate variant '" + value + "' (" +
                   variantIds<RotateVariant, kRotateVariantCount>(rotateVariantInfo) +
                   ", or buffer / image keeping the sampling)";
    } else if (key == "sampling") {
        if (v != "nearest" && v != "bilinear") return "expected nearest or bilinear";
        FilterStep& r = rotateStep(next);
        if (rotateAccess(r.rotate.variant) == RotateAccess::Forward)
            return "the forward rotate variant has no sampling choice (set rotate-variant to "
                   "buffer or image first)";
        r.rotate.variant = makeRotateVariant(rotateAccess(r.rotate.variant), v == "bilinear");
    } else if (key == "expand" || key == "fit") {
        bool expand = false;
        if (key == "fit" && (v == "crop" || v == "expand"))
            expand = v == "expand";
        else if (auto b = parseBool(value); b && key == "expand")
            expand = *b;
        else
            return key == "fit" ? "expected crop or expand" : "expected on or off";
        rotateStep(next).rotate.fit = expand ? RotateFit::Expand : RotateFit::Crop;
    } else if (key == "background") {
        const auto colour = parseColour(value);
        if (!colour) return "expected a colour: #rrggbb, #rrggbbaa, r,g,b or r,g,b,a (0..255)";
        rotateStep(next).rotate.background = *colour;
    } else if (key == "filters") {
        if (std::string why = applyFilterList(next.steps, value); !why.empty()) return why;
    } else if (key == "equalize-mode") {
        if (v != "luma" && v != "per-channel") return "expected luma or per-channel";
        equalizeStep(next).equalize.mode =
            v == "luma" ? EqualizeMode::Luma : EqualizeMode::PerChannel;
    } else if (key == "histogram") {
        if (v == "source" || v == "result") {
            next.histogram.enabled = true;
            next.histogram.of = v == "source" ? HistogramOf::Source : HistogramOf::Result;
        } else if (v == "off") {
            next.histogram.enabled = false;
        } else {
            return "expected source, result or off";
        }
    } else if (key == "histogram-variant") {
        auto id = parseVariantId<HistogramVariant, kHistogramVariantCount>(v, histogramVariantInfo);
        if (!id)
            return "unknown histogram variant '" + value + "' (" +
                   variantIds<HistogramVariant, kHistogramVariantCount>(histogramVariantInfo) + ")";
        next.histogram.variant = *id;
        // Equalization builds its own histogram; the same variant keeps the comparison honest.
        if (FilterStep* e = findStep(next.steps, FilterKind::Equalize)) e->equalize.histogram = *id;
    } else if (key == "histogram-scale") {
        if (v != "linear" && v != "log") return "expected linear or log";
        next.histogramScale = v == "log" ? HistogramScale::Log : HistogramScale::Linear;
    } else if (key == "view") {
        if (v == "side-by-side")
            next.view.mode = ImageViewMode::SideBySide;
        else if (v == "split")
            next.view.mode = ImageViewMode::Split;
        else
            return "expected side-by-side or split";
    } else if (key == "split") {
        const auto at = parseNumber(value);
        if (!at || *at < 0 || *at > 1)
            return "expected the divider position as a fraction of the width, 0 to 1";
        next.view.split = static_cast<float>(*at);
        next.view.mode = ImageViewMode::Split;
    } else if (key == "zoom") {
        if (v == "fit") {
            next.view.zoom = 1.0f;
            next.view.panX = next.view.panY = 0.0f;
        } else if (auto z = parseNumber(value);
                   z && *z >= ImageViewState::kMinZoom && *z <= ImageViewState::kMaxZoom) {
            next.view.zoom = static_cast<float>(*z);
        } else {
            return "expected fit or a zoom factor relative to fit, 0.0625 to 256";
        }
    } else if (key == "magnification") {
        if (v != "nearest" && v != "linear") return "expected nearest or linear";
        next.view.magnification = v == "nearest" ? Magnification::Nearest : Magnification::Linear;
    } else if (key == "interop") {
        try {
            next.interop = parseInteropRequest(v);
        } catch (const Error& e) {
            return e.what();
        }
    } else if (key == "continuous") {
        const auto b = parseBool(value);
        if (!b) return "expected on or off";
        next.continuous = *b;
    } else {
        return "unknown setting '" + key + "' (image lab settings: " + imageSettingKeys() + ")";
    }
    c = std::move(next);
    return "";
}

}  // namespace clviz
