#pragma once
// An ImGui context for tests, without a window or a renderer: panels run and lay themselves out
// (NewFrame ... Render), nothing is drawn. Destroyed with the object.
#include <imgui.h>

namespace clviz::test {

class HeadlessImGui {
  public:
    explicit HeadlessImGui(ImVec2 displaySize) {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = displaySize;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the font atlas NewFrame needs
    }
    ~HeadlessImGui() { ImGui::DestroyContext(); }
    HeadlessImGui(const HeadlessImGui&) = delete;
    HeadlessImGui& operator=(const HeadlessImGui&) = delete;
};

}  // namespace clviz::test
