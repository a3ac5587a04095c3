#pragma once
// ENVI cubes on disk: a header (.hdr) beside a raw data file. The reader finds the data file the
// way ENVI and GDAL do (the header's stem, then stem + .img/.dat/.raw/.bsq/.bil/.bip, in either
// case), checks its size against the header before reading a byte of data, and reads only the
// bytes the header describes.
#include <string>

#include "compute/spectral/cube.hpp"
#include "compute/spectral/io/envi_header.hpp"

namespace clviz {

struct EnviCube {
    EnviHeader header;  // as read; the cube itself is BSQ in host order
    Cube cube;
    std::string dataPath;
};

// The data file for a header path; throws clviz::Error listing the names tried.
std::string findEnviDataFile(const std::string& headerPath);

// Reads the cube. Throws clviz::Error ("ENVI header 'x.hdr': ..." or "ENVI data 'x.img': ...")
// on anything the header or data file get wrong.
EnviCube readEnvi(const std::string& headerPath, const EnviLimits& limits = {});

// Writes `cube` with `header`'s metadata, interleave, byte order and offset (its shape and type
// are taken from the cube) to `headerPath` and its data file (the header's stem + `dataExtension`;
// a header path not ending in .hdr gets .hdr appended). Returns the data file's path.
std::string writeEnvi(const std::string& headerPath, const Cube& cube, EnviHeader header,
                      const std::string& dataExtension = ".img");

}  // namespace clviz
