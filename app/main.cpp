// clviz: the real-time OpenCL visualizer. Everything lives in clviz_app so tests can drive it.
#include <string>
#include <vector>

#include "app/run_app.hpp"
#include "compute/spectral/blas_core.hpp"

int main(int argc, char** argv) {
    clviz::restartWithBetterBlasCore(argv);  // before any BLAS call: the spectral lab's eigen step
    return clviz::runApp(std::vector<std::string>(argv + 1, argv + argc));
}
