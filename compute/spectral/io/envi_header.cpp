#include "compute/spectral/io/envi_header.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <map>

#include "common/error.hpp"
#include "common/parse.hpp"
#include "common/text.hpp"

namespace clviz {

namespace {

// `text` without white space (newlines included: braced values span lines) at either end.
std::string trimAll(std::string_view text) {
    const char* ws = " \t\r\n\v\f";
    const std::size_t first = text.find_first_not_of(ws);
    if (first == std::string_view::npos) return {};
    return std::string(text.substr(first, text.find_last_not_of(ws) - first + 1));
}

// Key with its whitespace collapsed and lower-cased ("Data  Type" -> "data type").
std::string normalKey(std::string_view raw) {
    std::string key;
    bool space = false;
    for (char c : trim(raw)) {
        if (c == ' ' || c == '\t') {
            space = true;
            continue;
        }
        if (space && !key.empty()) key += ' ';
        space = false;
        key += c;
    }
    return toLower(key);
}

struct RawEntry {
    std::string value;
    int line = 0;
};

// The key = value pairs of the header text (later duplicates win, as in ENVI and GDAL).
std::map<std::string, RawEntry> splitEntries(std::string_view text, const std::string& prefix) {
    std::map<std::string, RawEntry> entries;
    std::size_t pos = 0;
    int lineNo = 0;
    auto nextLine = [&](std::string_view& line) {
        if (pos >= text.size()) return false;
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        pos = end + 1;
        ++lineNo;
        return true;
    };
    std::string_view line;
    if (!nextLine(line) || trim(line).rfind("ENVI", 0) != 0)
        throw Error(prefix + "the first line is not 'ENVI' (not an ENVI header)");
    while (nextLine(line)) {
        const std::string stripped = trim(line);
        if (stripped.empty() || stripped[0] == ';') continue;
        const std::size_t eq = line.find('=');
        if (eq == std::string_view::npos)
            throw Error(prefix + "line " + std::to_string(lineNo) + " has no '=' ('" +
                        stripped.substr(0, 40) + "')");
        const std::string key = normalKey(line.substr(0, eq));
        if (key.empty()) throw Error(prefix + "line " + std::to_string(lineNo) + " has no key");
        const int keyLine = lineNo;
        std::string value = trim(line.substr(eq + 1));
        if (!value.empty() && value[0] == '{') {
            // A braced value runs to its '}', over as many lines as it takes.
            while (value.find('}') == std::string::npos) {
                std::string_view more;
                if (!nextLine(more))
                    throw Error(prefix + "the value of '" + key + "' (line " +
                                std::to_string(keyLine) + ") opens '{' and never closes it");
                value += '\n';
                value += more;
            }
            const std::size_t close = value.find('}');
            if (!trim(std::string_view(value).substr(close + 1)).empty())
                throw Error(prefix + "text after '}' in the value of '" + key + "'");
            value = value.substr(1, close - 1);
        }
        entries[key] = {value, keyLine};
    }
    return entries;
}

long long integerValue(const std::string& key, const RawEntry& e, long long lo, long long hi,
                       const std::string& prefix, const char* hint = "") {
    const auto v = parseInteger(trimAll(e.value));
    if (!v)
        throw Error(prefix + "'" + key + "' is '" + e.value.substr(0, 40) +
                    "', not a whole number");
    if (*v < lo || *v > hi)
        throw Error(prefix + "'" + key + "' is " + std::to_string(*v) + ", outside " +
                    std::to_string(lo) + " to " + std::to_string(hi) + hint);
    return *v;
}

// The items of a braced list, one per band: wavelength, fwhm, bbl, band names.
std::vector<std::string> bandList(const std::string& key, const RawEntry& e, int bands,
                                  const std::string& prefix) {
    std::vector<std::string> items = splitList(e.value, ',');
    for (std::string& item : items)
        item = trimAll(item);
    if (!items.empty() && items.back().empty()) items.pop_back();  // "{1, 2, 3,}"
    if (int(items.size()) != bands)
        throw Error(prefix + "'" + key + "' lists " + std::to_string(items.size()) +
                    " values for " + std::to_string(bands) + " bands");
    return items;
}

std::vector<double> numberList(const std::string& key, const RawEntry& e, int bands,
                               const std::string& prefix) {
    std::vector<double> out;
    out.reserve(std::size_t(bands));
    for (const std::string& item : bandList(key, e, bands, prefix)) {
        const auto v = parseNumber(item);
        if (!v)
            throw Error(prefix + "'" + key + "' holds '" + item.substr(0, 40) + "', not a number");
        out.push_back(*v);
    }
    return out;
}

std::string formatNumber(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back
    return std::string(buf, r.ptr);
}

}  // namespace

const char* interleaveName(Interleave interleave) {
    switch (interleave) {
        case Interleave::Bsq:
            return "bsq";
        case Interleave::Bil:
            return "bil";
        case Interleave::Bip:
            return "bip";
    }
    return "?";
}

EnviHeader parseEnviHeader(std::string_view text, const std::string& name, const EnviLimits& limits,
                           std::optional<Interleave> fallback) {
    const std::string prefix = name + ": ";
    if (text.size() > limits.maxHeaderBytes)
        throw Error(prefix + "header is " + std::to_string(text.size()) +
                    " bytes, more than the limit of " + std::to_string(limits.maxHeaderBytes));
    if (std::memchr(text.data(), '\0', text.size()))
        throw Error(prefix + "header holds a NUL byte (not a text file)");
    const auto entries = splitEntries(text, prefix);
    auto find = [&](const char* key) -> const RawEntry* {
        const auto it = entries.find(key);
        return it == entries.end() ? nullptr : &it->second;
    };
    auto required = [&](const char* key) -> const RawEntry& {
        const RawEntry* e = find(key);
        if (!e) throw Error(prefix + "the header has no '" + std::string(key) + "'");
        return *e;
    };

    EnviHeader h;
    h.shape.samples = int(integerValue("samples", required("samples"), 1, limits.maxEdge, prefix));
    h.shape.lines = int(integerValue("lines", required("lines"), 1, limits.maxEdge, prefix));
    h.shape.bands = int(integerValue("bands", required("bands"), 1, limits.maxBands, prefix));
    if (h.shape.values() > limits.maxValues)
        throw Error(prefix + "cube is " + describeShape(h.shape) + " = " +
                    std::to_string(h.shape.values()) + " values, more than the limit of " +
                    std::to_string(limits.maxValues));

    const long long code = integerValue("data type", required("data type"), 0, 1000, prefix);
    switch (code) {
        case 1:
        case 2:
        case 3:
        case 4:
        case 5:
        case 12:
        case 13:
            h.type = CubeType(code);
            break;
        case 6:
        case 9:
            throw Error(prefix + "data type " + std::to_string(code) +
                        " is complex: not supported (MNF needs real values)");
        case 14:
        case 15:
            throw Error(
                prefix + "data type " + std::to_string(code) +
                " is a 64-bit integer: not supported (its values do not fit a double exactly)");
        default:
            throw Error(prefix + "data type " + std::to_string(code) +
                        " is not an ENVI type (1, 2, 3, 4, 5, 12 and 13 are read)");
    }
    const std::uint64_t dataBytes = enviDataBytes(h);
    if (dataBytes > limits.maxDataBytes)
        throw Error(prefix + "cube is " + std::to_string(dataBytes) +
                    " bytes of data, more than the limit of " +
                    std::to_string(limits.maxDataBytes));

    if (const RawEntry* e = find("interleave")) {
        const std::string v = toLower(trimAll(e->value));
        if (v == "bsq")
            h.interleave = Interleave::Bsq;
        else if (v == "bil")
            h.interleave = Interleave::Bil;
        else if (v == "bip")
            h.interleave = Interleave::Bip;
        else
            throw Error(prefix + "interleave is '" + e->value.substr(0, 20) +
                        "', not bsq, bil or bip");
    } else {
        h.interleave = fallback.value_or(Interleave::Bsq);
        h.assumptions.push_back(std::string("interleave missing: assumed ") +
                                interleaveName(h.interleave) +
                                (fallback ? " (from the data file's extension)" : ""));
    }
    if (const RawEntry* e = find("byte order")) {
        h.byteOrder =
            integerValue("byte order", *e, 0, 1, prefix, " (0 little-endian, 1 big-endian)")
                ? ByteOrder::Big
                : ByteOrder::Little;
    } else {
        h.byteOrder = ByteOrder::Little;
        if (bytesPerValue(h.type) > 1)
            h.assumptions.push_back("byte order missing: assumed 0 (little-endian)");
    }
    if (const RawEntry* e = find("header offset"))
        h.headerOffset = std::uint64_t(
            integerValue("header offset", *e, 0, (long long)limits.maxHeaderOffset, prefix));
    for (const char* key : {"major frame offsets", "minor frame offsets"}) {
        if (const RawEntry* e = find(key)) {
            for (const std::string& item : splitList(e->value, ','))
                if (!trimAll(item).empty() && parseNumber(trimAll(item)).value_or(1) != 0)
                    throw Error(prefix + "'" + key +
                                "' is not zero: padded frames are not supported");
        }
    }
    const int bands = h.shape.bands;
    if (const RawEntry* e = find("wavelength"))
        h.wavelength = numberList("wavelength", *e, bands, prefix);
    if (const RawEntry* e = find("fwhm")) h.fwhm = numberList("fwhm", *e, bands, prefix);
    if (const RawEntry* e = find("bbl")) {
        for (double v : numberList("bbl", *e, bands, prefix)) {
            if (v != 0 && v != 1) throw Error(prefix + "'bbl' holds values other than 0 and 1");
            h.bbl.push_back(int(v));
        }
    }
    if (const RawEntry* e = find("band names"))
        h.bandNames = bandList("band names", *e, bands, prefix);
    if (const RawEntry* e = find("wavelength units")) h.wavelengthUnits = trimAll(e->value);
    if (const RawEntry* e = find("description")) h.description = trimAll(e->value);
    if (const RawEntry* e = find("data ignore value")) {
        const auto v = parseNumber(trimAll(e->value));
        if (!v) throw Error(prefix + "'data ignore value' is not a number");
        h.dataIgnoreValue = *v;
    }
    return h;
}

std::string formatEnviHeader(const EnviHeader& h) {
    std::string out = "ENVI\n";
    if (!h.description.empty()) out += "description = {" + h.description + "}\n";
    out += "samples = " + std::to_string(h.shape.samples) + "\n";
    out += "lines = " + std::to_string(h.shape.lines) + "\n";
    out += "bands = " + std::to_string(h.shape.bands) + "\n";
    out += "header offset = " + std::to_string(h.headerOffset) + "\n";
    out += "file type = ENVI Standard\n";
    out += "data type = " + std::to_string(int(h.type)) + "\n";
    out += std::string("interleave = ") + interleaveName(h.interleave) + "\n";
    out += std::string("byte order = ") + (h.byteOrder == ByteOrder::Big ? "1" : "0") + "\n";
    if (h.dataIgnoreValue) out += "data ignore value = " + formatNumber(*h.dataIgnoreValue) + "\n";
    if (!h.wavelengthUnits.empty()) out += "wavelength units = " + h.wavelengthUnits + "\n";
    auto list = [&](const char* key, std::size_t n, auto item) {
        if (n == 0) return;
        out += std::string(key) + " = {\n ";
        for (std::size_t i = 0; i < n; ++i) {
            out += item(i);
            out += i + 1 < n ? (i % 8 == 7 ? ",\n " : ", ") : "}\n";
        }
    };
    list("band names", h.bandNames.size(), [&](std::size_t i) { return h.bandNames[i]; });
    list("wavelength", h.wavelength.size(),
         [&](std::size_t i) { return formatNumber(h.wavelength[i]); });
    list("fwhm", h.fwhm.size(), [&](std::size_t i) { return formatNumber(h.fwhm[i]); });
    list("bbl", h.bbl.size(), [&](std::size_t i) { return std::to_string(h.bbl[i]); });
    return out;
}

std::uint64_t enviDataBytes(const EnviHeader& h) {
    return std::uint64_t(h.shape.values()) * bytesPerValue(h.type);
}

namespace {

// File element index of BSQ element (band, line, sample) for each interleave.
struct Layout {
    std::size_t S, L, B;
    std::size_t fileIndex(Interleave il, std::size_t b, std::size_t l, std::size_t s) const {
        switch (il) {
            case Interleave::Bsq:
                return (b * L + l) * S + s;
            case Interleave::Bil:
                return (l * B + b) * S + s;
            case Interleave::Bip:
                return (l * S + s) * B + b;
        }
        return 0;
    }
};

// Copies `n`-byte values between the file's order and BSQ, swapping bytes when the file's
// byte order is not the host's: `from` is the file and `to` the BSQ cube when fromFile, else the
// other way round.
void reorder(const EnviHeader& h, const std::uint8_t* from, std::uint8_t* to, bool fromFile) {
    const std::size_t n = bytesPerValue(h.type);
    const bool swap =
        n > 1 && ((h.byteOrder == ByteOrder::Big) != (std::endian::native == std::endian::big));
    const Layout lay{std::size_t(h.shape.samples), std::size_t(h.shape.lines),
                     std::size_t(h.shape.bands)};
    // Byte offsets of value (b, l, s) in the source and the destination.
    auto fileAt = [&](std::size_t b, std::size_t l, std::size_t s) {
        return lay.fileIndex(h.interleave, b, l, s) * n;
    };
    auto bsqAt = [&](std::size_t b, std::size_t l, std::size_t s) {
        return ((b * lay.L + l) * lay.S + s) * n;
    };
    for (std::size_t b = 0; b < lay.B; ++b)
        for (std::size_t l = 0; l < lay.L; ++l) {
            const std::size_t src0 = fromFile ? fileAt(b, l, 0) : bsqAt(b, l, 0);
            const std::size_t dst0 = fromFile ? bsqAt(b, l, 0) : fileAt(b, l, 0);
            if (h.interleave != Interleave::Bip && !swap) {  // a BSQ row is contiguous in the file
                std::memcpy(to + dst0, from + src0, lay.S * n);
                continue;
            }
            for (std::size_t s = 0; s < lay.S; ++s) {
                const std::uint8_t* src = from + (fromFile ? fileAt(b, l, s) : bsqAt(b, l, s));
                std::uint8_t* dst = to + (fromFile ? bsqAt(b, l, s) : fileAt(b, l, s));
                if (swap)
                    for (std::size_t k = 0; k < n; ++k)
                        dst[k] = src[n - 1 - k];
                else
                    std::memcpy(dst, src, n);
            }
        }
}

}  // namespace

Cube decodeEnviData(const EnviHeader& h, std::span<const std::uint8_t> file,
                    const std::string& name) {
    const std::uint64_t need = h.headerOffset + enviDataBytes(h);
    if (file.size() < need) {
        // The first line (in the file's order) that is not complete, so the user sees where it
        // ends.
        const std::uint64_t have = file.size() > h.headerOffset ? file.size() - h.headerOffset : 0;
        const std::uint64_t valuesHave = have / bytesPerValue(h.type);
        const std::uint64_t perLine =
            std::uint64_t(h.shape.samples) * (h.interleave == Interleave::Bsq ? 1 : h.shape.bands);
        std::string where =
            h.interleave == Interleave::Bsq
                ? "band " + std::to_string(valuesHave / h.shape.pixels()) + ", line " +
                      std::to_string(valuesHave % h.shape.pixels() / h.shape.samples)
                : "line " + std::to_string(valuesHave / perLine);
        throw Error(name + ": data is truncated: " + std::to_string(file.size()) +
                    " bytes, the header needs " + std::to_string(need) + " (" +
                    std::to_string(h.headerOffset) + " offset + " + describeShape(h.shape) + " x " +
                    std::to_string(bytesPerValue(h.type)) + " bytes); " +
                    std::to_string(need - file.size()) + " bytes missing, from " + where +
                    " on (0-based)");
    }
    Cube cube = makeCube(h.shape, h.type);
    reorder(h, file.data() + h.headerOffset, cube.data.data(), true);
    return cube;
}

std::vector<std::uint8_t> encodeEnviData(const EnviHeader& h, const Cube& cube) {
    if (!(cube.shape == h.shape) || cube.type != h.type)
        throw Error("ENVI writer: the header's shape or type is not the cube's");
    std::vector<std::uint8_t> out(h.headerOffset + enviDataBytes(h), 0);
    reorder(h, cube.data.data(), out.data() + h.headerOffset, false);
    return out;
}

}  // namespace clviz
