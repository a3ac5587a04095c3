#include "common/bounded_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/error.hpp"
#include "common/quoted_path.hpp"

namespace clviz {

namespace {

std::string fileKind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

std::vector<std::uint8_t> readBounded(const std::string& path, std::uint64_t maxBytes,
                                      bool refuseLarger, const std::string& what) {
    const std::string prefix = what + " " + quotedPath(path) + ": ";
    // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer;
    // fstat on the open file then refuses it (no race between checking and opening).
    Fd file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
    if (file.fd < 0) {
        const int openError = errno;
        // A socket cannot be opened at all (ENXIO, "No such device or address"): say what it is.
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
            throw Error(prefix + "it is " + fileKind(st.st_mode));
        throw Error(prefix + std::strerror(openError));
    }
    struct stat st {};
    if (::fstat(file.fd, &st) != 0) throw Error(prefix + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) throw Error(prefix + "it is " + fileKind(st.st_mode));
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > maxBytes && refuseLarger)
        throw Error(prefix + "the file is " + std::to_string(size) + " bytes; the limit is " +
                    std::to_string(maxBytes) + " bytes");
    // Exactly `size` bytes: a file that grows while being read is cut at the size seen above.
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(std::min(size, maxBytes)));
    std::size_t got = 0;
    while (got < bytes.size()) {
        const ssize_t n = ::read(file.fd, bytes.data() + got, bytes.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw Error(prefix + "read error: " + std::strerror(errno));
        if (n == 0) break;  // shrank while being read
        got += static_cast<std::size_t>(n);
    }
    bytes.resize(got);
    return bytes;
}

}  // namespace

std::vector<std::uint8_t> readRegularFile(const std::string& path, std::uint64_t maxBytes,
                                          const std::string& what) {
    return readBounded(path, maxBytes, true, what);
}

std::vector<std::uint8_t> readRegularFileHead(const std::string& path, std::uint64_t count,
                                              const std::string& what) {
    return readBounded(path, count, false, what);
}

}  // namespace clviz
