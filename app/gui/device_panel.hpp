#pragma once
// The OpenCL panel: every platform and device with its limits and a searchable extension list,
// the interop extensions marked, and the chosen device with the reason at the top.
#include <imgui.h>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "app/demo.hpp"
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
    // The active demo's device set (the N-body's split), nullopt when it has none.
    std::optional<DeviceSetSection> deviceSet;
};

// Extensions the panel highlights: what GL interop needs.
bool isInteropExtension(const std::string& name);

class DevicePanel {
  public:
    void draw(bool* open, const DevicePanelModel& model);
    // The device set the user asked the demo to run on ("0.0,0.1"), once.
    std::optional<std::string> takeDeviceSetRequest() {
        return std::exchange(request_, std::nullopt);
    }

  private:
    void deviceSetChooser(const DevicePanelModel& m);

    ImGuiTextFilter filter_;
    std::set<std::pair<int, int>> checked_;
    std::vector<std::pair<int, int>> shown_;  // the split `checked_` was last set from
    std::optional<std::string> request_;
};

}  // namespace clviz
