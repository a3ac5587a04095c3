#include "common/output_target.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace clviz {

std::optional<std::string> unwritableFileReason(const std::string& path) {
    if (path.empty()) return std::string("the file name is empty");
    struct stat st {};
    const bool existed = ::stat(path.c_str(), &st) == 0;
    if (existed && S_ISDIR(st.st_mode)) return std::string("it is a directory");
    // O_NONBLOCK: a FIFO without a reader fails at once (ENXIO) instead of waiting.
    const int fd = ::open(path.c_str(),
                          O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0644);
    if (fd < 0) return std::string(std::strerror(errno));
    ::close(fd);
    if (!existed) ::unlink(path.c_str());
    return std::nullopt;
}

}  // namespace clviz
