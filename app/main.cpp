// Temporary entry point until the app shell lands: --list-devices only.
#include <cstdio>
#include <cstring>

#include "compute/device_info.hpp"

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--list-devices") == 0) {
        std::fputs(clviz::formatDeviceTable(clviz::queryPlatforms()).c_str(), stdout);
        return 0;
    }
    return 1;
}
