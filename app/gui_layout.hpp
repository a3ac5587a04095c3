#pragma once
// Where the GUI's windows are, as text: for tests that check a screenshot region by region. A
// test that assumed the overlay starts at x = 880 broke on a machine with a longer device name;
// reading the rectangles the app drew holds on any machine.
#include <string>

namespace clviz {

// One line per window drawn in the last ImGui frame (call after ImGui::Render()), in framebuffer
// pixels, fields separated by tabs: name, x, y, width, height, and "open" or "collapsed".
// Child windows and tooltips are left out.
std::string guiLayoutText();

// Writes guiLayoutText() to `path`; throws clviz::Error when it cannot.
void writeGuiLayout(const std::string& path);

}  // namespace clviz
