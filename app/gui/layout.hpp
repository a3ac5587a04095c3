#pragma once
// Where the GUI's windows are, as text: for tests that check a screenshot region by region. A
// test that assumed the overlay starts at x = 880 broke on a machine with a longer device name;
// reading the rectangles the app drew holds on any machine.
#include <string>
#include <vector>

namespace clviz {

struct GuiWindowRect {
    std::string name;                           // ImGui's, "##overlay" included
    float x = 0, y = 0, width = 0, height = 0;  // ImGui's coordinates (screen units)
    bool collapsed = false;
    bool popup = false;  // menus, combo lists, modal popups
};

// The top-level windows submitted so far in the current ImGui frame, in drawing order: child
// windows and tooltips are left out. After ImGui::Render(), every window of the frame.
std::vector<GuiWindowRect> drawnGuiWindows();

// Names the last item drawn (ImGui's item rectangle; a group for several) so that the layout
// lists it too: for screenshot checks of a detail inside a panel, e.g. "Histogram/Luma caption".
void noteGuiItem(const std::string& name);

// One line per window drawn in the last ImGui frame (call after ImGui::Render()), in framebuffer
// pixels, fields separated by tabs: name, x, y, width, height, and "open" or "collapsed".
// Child windows and tooltips are left out. Then one such line per item noted in that frame, with
// "item" as its last field.
std::string guiLayoutText();

// Writes guiLayoutText() to `path`; throws clviz::Error when it cannot.
void writeGuiLayout(const std::string& path);

}  // namespace clviz
