// clviz: the real-time OpenCL visualizer. Everything lives in clviz_app so tests can drive it.
#include <string>
#include <vector>

#include "app/run_app.hpp"

int main(int argc, char** argv) {
    return clviz::runApp(std::vector<std::string>(argv + 1, argv + argc));
}
