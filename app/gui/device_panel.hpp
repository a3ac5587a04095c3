#pragma once
// The OpenCL panel: every platform and device with its limits and a searchable extension list,
// the interop extensions marked, and the chosen device with the reason at the top.
#include <imgui.h>

#include <string>
#include <vector>

#include "compute/core/device_info.hpp"
#include "compute/core/device_select.hpp"

namespace clviz {

struct DevicePanelModel {
    const std::vector<PlatformInfo>* platforms = nullptr;
    DeviceChoice choice;
    std::string glDeviceDetail;  // what clGetGLContextInfoKHR said
    bool clContextSharesGl = false;
    std::string clContextSharesGlReason;
    std::string gl;  // the GL context description
};

// Extensions the panel highlights: what GL interop needs.
bool isInteropExtension(const std::string& name);

class DevicePanel {
  public:
    void draw(bool* open, const DevicePanelModel& model);

  private:
    ImGuiTextFilter filter_;
};

}  // namespace clviz
