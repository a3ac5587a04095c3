#pragma once
// A log-log chart on an ImGui draw list: the lab's roofline, its GFLOP/s-vs-size plot and the
// reduction's bandwidth-vs-size plot. Axes are whole decades (common/roofline.hpp's LogAxis),
// labelled with their quantity and unit; the chart reserves its area as one ImGui item.
#include <imgui.h>

#include <string>
#include <vector>

#include "common/roofline.hpp"

namespace clviz {

class LogChart {
  public:
    // Reserves width x height at the cursor (width 0: the available width) and draws the frame,
    // the decade grid and the axis titles.
    LogChart(LogAxis x, LogAxis y, const std::string& xTitle, const std::string& yTitle,
             float height, float width = 0);

    ImVec2 at(double x, double y) const;  // clamped to the plot area
    bool inside(double x, double y) const;

    void line(double x0, double y0, double x1, double y1, ImU32 colour, float thickness = 2.0f);
    void polyline(const std::vector<std::pair<double, double>>& points, ImU32 colour);
    void point(double x, double y, ImU32 colour, float radius = 4.5f, bool filled = true);
    // Text next to (x, y), kept inside the plot area.
    void label(double x, double y, const std::string& text, ImU32 colour, float dx = 6,
               float dy = -16);
    // Several labels (each placed as label() would) moved apart where they would overlap, so that
    // lines ending at the same point stay readable.
    struct Label {
        double x, y;
        std::string text;
        ImU32 colour;
        float dx = 6, dy = -16;
    };
    void labels(const std::vector<Label>& all);

    ImDrawList* drawList() const { return dl_; }

  private:
    LogAxis x_, y_;
    ImDrawList* dl_ = nullptr;
    ImVec2 p0_, p1_;  // plot area (inside the axis labels)
};

// "0.01", "1", "100", "10k", "1M": a decade's label.
std::string decadeLabel(double v);

// A label's box on screen: top-left corner and size, in pixels.
struct LabelBox {
    float x, y, w, h;
};
// The boxes' new tops: in order of their tops, each box that overlaps one placed before it moves
// down below it; then, from the bottom up, boxes that ran past `bottom` move up (with those they
// would overlap), none above `top`. Boxes that do not share columns never move for each other.
// Where the area is too small for all of them the last ones still overlap.
std::vector<float> spreadLabelRows(const std::vector<LabelBox>& boxes, float top, float bottom);

}  // namespace clviz
