#pragma once
// Reading a whole input file with bounds checked before the first byte is read: only regular
// files (a FIFO would block in open, /dev/zero never ends), and only up to a stated size (a 3 GiB
// sparse file is refused from its size, not after reading 2 GiB of it). Used by every loader
// that takes a path from the user (images, N-body snapshots).
#include <cstdint>
#include <string>
#include <vector>

namespace clviz {

// The file's bytes. Throws clviz::Error "<what> '<path>': <reason>" when the path is missing,
// unreadable, a directory or another non-regular file, or larger than maxBytes (the message
// states the limit), or when reading fails.
std::vector<std::uint8_t> readRegularFile(const std::string& path, std::uint64_t maxBytes,
                                          const std::string& what);

// The first `count` bytes of a regular file (fewer when the file is shorter: the caller says
// what is missing), with the same refusals as readRegularFile but no size limit on the file
// itself: raw data files (ENVI cubes) may carry trailing bytes the header does not describe.
std::vector<std::uint8_t> readRegularFileHead(const std::string& path, std::uint64_t count,
                                              const std::string& what);

}  // namespace clviz
