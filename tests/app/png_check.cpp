// png_check: asserts facts about a screenshot, for the end-to-end tests.
//   png_check FILE [--width W] [--height H] [--background R,G,B] [--tolerance T]
//             [--region X,Y,W,H] [--min-nonbackground-fraction F] [--max-nonbackground-fraction F]
//             [--min-color-fraction R,G,B,F] [--min-text-contrast RATIO] ...
// Checks run in command-line order; each applies to the latest --region (default: the whole
// image). The background is the most frequent colour unless --background gives it. A pixel
// differs from a colour when any channel differs by more than the tolerance (default 24).
// --min-text-contrast reads the region as one line of text (see textContrast below): every glyph
// must reach RATIO, a WCAG contrast ratio (1 to 21), against the pixels right behind it.
// Exit status: 0 all checks pass, 1 a check failed, 2 bad usage or unreadable file.
#include <stb/stb_image.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Image {
    int width = 0, height = 0;
    std::vector<unsigned char> rgb;
    std::array<int, 3> at(int x, int y) const {
        const std::size_t i = (static_cast<std::size_t>(y) * width + x) * 3;
        return {rgb[i], rgb[i + 1], rgb[i + 2]};
    }
};

struct Region {
    int x = 0, y = 0, w = 0, h = 0;
};

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr, "png_check: %s\n", why.c_str());
    std::exit(2);
}

std::vector<double> numbers(const std::string& text, std::size_t count, const char* what) {
    std::vector<double> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        char* end = nullptr;
        const double v = std::strtod(item.c_str(), &end);
        if (item.empty() || *end != '\0') usage(std::string("bad number in ") + what);
        out.push_back(v);
    }
    if (out.size() != count)
        usage(std::string(what) + " needs " + std::to_string(count) + " values");
    return out;
}

bool differs(const std::array<int, 3>& a, const std::array<int, 3>& b, int tolerance) {
    for (int c = 0; c < 3; ++c)
        if (std::abs(a[c] - b[c]) > tolerance) return true;
    return false;
}

std::array<int, 3> mostFrequent(const Image& img) {
    std::map<int, long> counts;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            auto p = img.at(x, y);
            ++counts[(p[0] << 16) | (p[1] << 8) | p[2]];
        }
    int best = 0;
    long bestCount = -1;
    for (auto [key, n] : counts)
        if (n > bestCount) best = key, bestCount = n;
    return {(best >> 16) & 255, (best >> 8) & 255, best & 255};
}

// Fraction of pixels in `r` that differ from (or, with match, are within tolerance of) `colour`.
double fraction(const Image& img, const Region& r, const std::array<int, 3>& colour, int tolerance,
                bool match) {
    long hits = 0;
    for (int y = r.y; y < r.y + r.h; ++y)
        for (int x = r.x; x < r.x + r.w; ++x)
            if (differs(img.at(x, y), colour, tolerance) != match) ++hits;
    return static_cast<double>(hits) / (static_cast<double>(r.w) * r.h);
}

// WCAG 2 relative luminance of an sRGB colour, and the contrast ratio of two of them.
double luminance(const std::array<int, 3>& p) {
    double l[3];
    for (int c = 0; c < 3; ++c) {
        const double v = p[c] / 255.0;
        l[c] = v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    }
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}
double contrastRatio(const std::array<int, 3>& a, const std::array<int, 3>& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

struct TextContrast {
    int glyphs = 0;        // connected blobs of text pixels
    int weak = 0;          // glyphs below the wanted ratio
    double weakest = 0.0;  // the lowest glyph ratio
};

// The colour right behind pixel (x, y) of a line of text in `r`: the most frequent exact colour in
// a square around it as tall as the line (antialiased glyph pixels spread over many values, a
// plain background or a bar has one), so it follows what lies behind each glyph.
std::array<int, 3> colourBehind(const Image& img, const Region& r, int x, int y) {
    const int half = std::max(4, r.h / 2);
    std::map<int, int> counts;
    for (int v = std::max(r.y, y - half); v < std::min(r.y + r.h, y + half + 1); ++v)
        for (int u = std::max(r.x, x - half); u < std::min(r.x + r.w, x + half + 1); ++u) {
            const auto p = img.at(u, v);
            ++counts[(p[0] << 16) | (p[1] << 8) | p[2]];
        }
    const int key = std::max_element(counts.begin(), counts.end(), [](auto a, auto b) {
                        return a.second < b.second;
                    })->first;
    return {(key >> 16) & 255, (key >> 8) & 255, key & 255};
}

// The region as a line of text: a text pixel differs from the colour behind it by more than the
// tolerance, lighter or darker; neighbouring text pixels on the same side form a glyph (white
// strokes crossing a grey bar and the dark gaps beside it are two things), and a glyph is as
// strong as its strongest pixel: antialiased edges are meant to be faint, the stroke is not.
// No font, colour or shape is assumed.
TextContrast textContrast(const Image& img, const Region& r, int tolerance, double want) {
    struct Pixel {
        int side = 0;  // +1 lighter than behind, -1 darker, 0 not text
        double ratio = 0;
        bool seen = false;
    };
    std::vector<Pixel> px(static_cast<std::size_t>(r.w) * r.h);
    for (int y = 0; y < r.h; ++y)
        for (int x = 0; x < r.w; ++x) {
            const auto p = img.at(r.x + x, r.y + y),
                       behind = colourBehind(img, r, r.x + x, r.y + y);
            if (!differs(p, behind, tolerance)) continue;
            px[y * r.w + x] = {luminance(p) > luminance(behind) ? 1 : -1, contrastRatio(p, behind)};
        }
    TextContrast out;
    out.weakest = 21.0;
    std::vector<int> stack;
    for (int start = 0; start < r.w * r.h; ++start) {
        if (px[start].side == 0 || px[start].seen) continue;
        double strongest = 0.0;
        px[start].seen = true;
        stack.assign(1, start);
        while (!stack.empty()) {
            const int i = stack.back();
            stack.pop_back();
            strongest = std::max(strongest, px[i].ratio);
            const int x = i % r.w, y = i / r.w;
            for (int v = std::max(0, y - 1); v <= std::min(r.h - 1, y + 1); ++v)
                for (int u = std::max(0, x - 1); u <= std::min(r.w - 1, x + 1); ++u) {
                    Pixel& n = px[v * r.w + u];
                    if (n.side != px[start].side || n.seen) continue;
                    n.seen = true;
                    stack.push_back(v * r.w + u);
                }
        }
        ++out.glyphs;
        if (strongest < want) ++out.weak;
        out.weakest = std::min(out.weakest, strongest);
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) usage("usage: png_check FILE [checks...]");
    Image img;
    int channels = 0;
    unsigned char* data = stbi_load(argv[1], &img.width, &img.height, &channels, 3);
    if (!data) usage(std::string("cannot read ") + argv[1] + ": " + stbi_failure_reason());
    img.rgb.assign(data, data + static_cast<std::size_t>(img.width) * img.height * 3);
    stbi_image_free(data);
    std::printf("%s: %d x %d\n", argv[1], img.width, img.height);

    std::array<int, 3> background = mostFrequent(img);
    int tolerance = 24;
    Region region{0, 0, img.width, img.height};
    bool ok = true;
    auto report = [&](bool pass, const std::string& what) {
        std::printf("  %s %s\n", pass ? "ok  " : "FAIL", what.c_str());
        ok = ok && pass;
    };
    auto regionName = [&] {
        return "region " + std::to_string(region.x) + "," + std::to_string(region.y) + "," +
               std::to_string(region.w) + "," + std::to_string(region.h);
    };

    for (int i = 2; i < argc; ++i) {
        const std::string flag = argv[i];
        if (i + 1 >= argc) usage(flag + " needs a value");
        const std::string value = argv[++i];
        if (flag == "--width") {
            const int w = static_cast<int>(numbers(value, 1, "--width")[0]);
            report(img.width == w, "width " + std::to_string(img.width) + " == " + value);
        } else if (flag == "--height") {
            const int h = static_cast<int>(numbers(value, 1, "--height")[0]);
            report(img.height == h, "height " + std::to_string(img.height) + " == " + value);
        } else if (flag == "--background") {
            auto v = numbers(value, 3, "--background");
            background = {static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2])};
        } else if (flag == "--tolerance") {
            tolerance = static_cast<int>(numbers(value, 1, "--tolerance")[0]);
        } else if (flag == "--region") {
            auto v = numbers(value, 4, "--region");
            region = {static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2]),
                      static_cast<int>(v[3])};
            if (region.x < 0 || region.y < 0 || region.w <= 0 || region.h <= 0 ||
                region.x + region.w > img.width || region.y + region.h > img.height)
                usage("--region " + value + " is outside the image");
        } else if (flag == "--min-nonbackground-fraction" ||
                   flag == "--max-nonbackground-fraction") {
            const double want = numbers(value, 1, flag.c_str())[0];
            const double got = fraction(img, region, background, tolerance, false);
            const bool min = flag[2] == 'm' && flag[3] == 'i';
            char line[200];
            std::snprintf(line, sizeof line, "%s: non-background (%d,%d,%d) fraction %.4f %s %g",
                          regionName().c_str(), background[0], background[1], background[2], got,
                          min ? ">=" : "<=", want);
            report(min ? got >= want : got <= want, line);
        } else if (flag == "--min-color-fraction") {
            auto v = numbers(value, 4, "--min-color-fraction");
            const std::array<int, 3> colour = {static_cast<int>(v[0]), static_cast<int>(v[1]),
                                               static_cast<int>(v[2])};
            const double got = fraction(img, region, colour, tolerance, true);
            char line[200];
            std::snprintf(line, sizeof line, "%s: colour (%d,%d,%d) fraction %.4f >= %g",
                          regionName().c_str(), colour[0], colour[1], colour[2], got, v[3]);
            report(got >= v[3], line);
        } else if (flag == "--min-text-contrast") {
            const double want = numbers(value, 1, "--min-text-contrast")[0];
            if (want < 1.0 || want > 21.0) usage("--min-text-contrast is a ratio from 1 to 21");
            const TextContrast t = textContrast(img, region, tolerance, want);
            char line[200];
            std::snprintf(line, sizeof line,
                          "%s: %d glyphs, %d below contrast %g:1 (weakest %.2f:1)",
                          regionName().c_str(), t.glyphs, t.weak, want, t.weakest);
            report(t.glyphs > 0 && t.weak == 0,
                   t.glyphs > 0 ? line : regionName() + ": no text found");
        } else {
            usage("unknown option " + flag);
        }
    }
    return ok ? 0 : 1;
}
