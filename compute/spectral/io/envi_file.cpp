#include "compute/spectral/io/envi_file.hpp"

#include <sys/stat.h>

#include <cstring>
#include <fstream>

#include "common/bounded_file.hpp"
#include "common/error.hpp"
#include "common/quoted_path.hpp"
#include "common/text.hpp"

namespace clviz {

namespace {

std::string stemOf(const std::string& headerPath) {
    const std::size_t slash = headerPath.find_last_of('/');
    const std::size_t dot = headerPath.find_last_of('.');
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash) &&
        toLower(headerPath.substr(dot)) == ".hdr")
        return headerPath.substr(0, dot);
    return headerPath;
}

std::optional<Interleave> interleaveFromExtension(const std::string& path) {
    const std::size_t dot = path.find_last_of('.');
    if (dot == std::string::npos) return std::nullopt;
    const std::string ext = toLower(path.substr(dot));
    if (ext == ".bsq") return Interleave::Bsq;
    if (ext == ".bil") return Interleave::Bil;
    if (ext == ".bip") return Interleave::Bip;
    return std::nullopt;
}

void writeFile(const std::string& path, const void* data, std::size_t size) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (out) out.write(static_cast<const char*>(data), std::streamsize(size));
    if (!out) throw Error("cannot write " + quotedPath(path) + ": " + std::strerror(errno));
}

}  // namespace

std::string findEnviDataFile(const std::string& headerPath) {
    const std::string stem = stemOf(headerPath);
    std::vector<std::string> tried;
    if (stem != headerPath) tried.push_back(stem);
    for (const char* ext : {".img", ".dat", ".raw", ".bsq", ".bil", ".bip"})
        tried.push_back(stem + ext);
    std::string list;
    for (const std::string& path : tried)
        list += (list.empty() ? "" : ", ") + path;
    const std::size_t lower = tried.size();
    for (std::size_t i = stem != headerPath ? 1 : 0; i < lower; ++i) {
        std::string upper = tried[i];
        for (std::size_t k = stem.size(); k < upper.size(); ++k)
            upper[k] = char(std::toupper(static_cast<unsigned char>(upper[k])));
        tried.push_back(upper);
    }
    for (const std::string& path : tried) {
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) return path;
    }
    throw Error("ENVI header " + quotedPath(headerPath) + ": no data file beside it (tried " +
                list + " and the same in upper case)");
}

EnviCube readEnvi(const std::string& headerPath, const EnviLimits& limits) {
    const std::vector<std::uint8_t> text =
        readRegularFile(headerPath, limits.maxHeaderBytes, "ENVI header");
    EnviCube out;
    out.dataPath = findEnviDataFile(headerPath);
    out.header = parseEnviHeader(
        std::string_view(reinterpret_cast<const char*>(text.data()), text.size()),
        "ENVI header " + quotedPath(headerPath), limits, interleaveFromExtension(out.dataPath));
    const std::uint64_t need = out.header.headerOffset + enviDataBytes(out.header);
    const std::vector<std::uint8_t> bytes = readRegularFileHead(out.dataPath, need, "ENVI data");
    out.cube = decodeEnviData(out.header, bytes, "ENVI data " + quotedPath(out.dataPath));
    return out;
}

std::string writeEnvi(const std::string& headerPath, const Cube& cube, EnviHeader header,
                      const std::string& dataExtension) {
    header.shape = cube.shape;
    header.type = cube.type;
    const std::string stem = stemOf(headerPath);
    const std::string hdr = stem == headerPath ? headerPath + ".hdr" : headerPath;
    const std::string dataPath = stem + dataExtension;
    const std::vector<std::uint8_t> data = encodeEnviData(header, cube);
    writeFile(dataPath, data.data(), data.size());
    const std::string text = formatEnviHeader(header);
    writeFile(hdr, text.data(), text.size());
    return dataPath;
}

}  // namespace clviz
