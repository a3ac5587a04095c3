#include "app/linalg/log_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace clviz {

namespace {

constexpr ImU32 kFrame = IM_COL32(150, 150, 160, 255);
constexpr ImU32 kGrid = IM_COL32(90, 90, 100, 110);
constexpr ImU32 kText = IM_COL32(220, 220, 225, 255);
constexpr ImU32 kBackground = IM_COL32(20, 22, 28, 255);

}  // namespace

std::string decadeLabel(double v) {
    const char* suffix = "";
    double s = v;
    if (v >= 1e12)
        s = v / 1e12, suffix = "T";
    else if (v >= 1e9)
        s = v / 1e9, suffix = "G";
    else if (v >= 1e6)
        s = v / 1e6, suffix = "M";
    else if (v >= 1e3)
        s = v / 1e3, suffix = "k";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g%s", s, suffix);
    return buf;
}

LogChart::LogChart(LogAxis x, LogAxis y, const std::string& xTitle, const std::string& yTitle,
                   float height, float width)
    : x_(x), y_(y), dl_(ImGui::GetWindowDrawList()) {
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    if (width <= 0) width = std::max(120.0f, ImGui::GetContentRegionAvail().x);
    ImGui::Dummy(ImVec2(width, height));
    const float lineH = ImGui::GetTextLineHeight();
    const float left = ImGui::CalcTextSize("10000").x + lineH + 8;
    p0_ = ImVec2(origin.x + left, origin.y + 4);
    p1_ = ImVec2(origin.x + width - 8, origin.y + height - 2 * lineH - 6);
    dl_->AddRectFilled(p0_, p1_, kBackground);
    dl_->PushClipRect(ImVec2(origin.x, origin.y), ImVec2(origin.x + width, origin.y + height),
                      true);
    // Decade grid and labels.
    for (double v = x_.lo; v <= x_.hi * 1.0001; v *= 10) {
        const float sx = p0_.x + float(x_.fraction(v)) * (p1_.x - p0_.x);
        dl_->AddLine(ImVec2(sx, p0_.y), ImVec2(sx, p1_.y), kGrid);
        const std::string t = decadeLabel(v);
        const float tw = ImGui::CalcTextSize(t.c_str()).x;
        dl_->AddText(ImVec2(std::clamp(sx - tw / 2, p0_.x - tw / 2, p1_.x - tw), p1_.y + 2), kText,
                     t.c_str());
    }
    for (double v = y_.lo; v <= y_.hi * 1.0001; v *= 10) {
        const float sy = p1_.y - float(y_.fraction(v)) * (p1_.y - p0_.y);
        dl_->AddLine(ImVec2(p0_.x, sy), ImVec2(p1_.x, sy), kGrid);
        const std::string t = decadeLabel(v);
        const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
        dl_->AddText(ImVec2(p0_.x - ts.x - 4, std::clamp(sy - ts.y / 2, p0_.y, p1_.y - ts.y)),
                     kText, t.c_str());
    }
    dl_->AddRect(p0_, p1_, kFrame);
    // Axis titles: x centred below, y written across the top-left corner (ImGui draws no
    // rotated text).
    const ImVec2 xs = ImGui::CalcTextSize(xTitle.c_str());
    dl_->AddText(ImVec2((p0_.x + p1_.x - xs.x) / 2, p1_.y + lineH + 4), kText, xTitle.c_str());
    dl_->AddText(ImVec2(p0_.x + 4, p0_.y + 2), kText, yTitle.c_str());
    dl_->PopClipRect();
}

ImVec2 LogChart::at(double x, double y) const {
    return ImVec2(p0_.x + float(x_.fraction(x)) * (p1_.x - p0_.x),
                  p1_.y - float(y_.fraction(y)) * (p1_.y - p0_.y));
}

bool LogChart::inside(double x, double y) const {
    return x >= x_.lo && x <= x_.hi && y >= y_.lo && y <= y_.hi;
}

void LogChart::line(double x0, double y0, double x1, double y1, ImU32 colour, float thickness) {
    dl_->PushClipRect(p0_, p1_, true);
    dl_->AddLine(at(x0, y0), at(x1, y1), colour, thickness);
    dl_->PopClipRect();
}

void LogChart::polyline(const std::vector<std::pair<double, double>>& points, ImU32 colour) {
    for (std::size_t i = 1; i < points.size(); ++i)
        line(points[i - 1].first, points[i - 1].second, points[i].first, points[i].second, colour,
             1.5f);
    for (const auto& [x, y] : points)
        point(x, y, colour, 3.0f);
}

void LogChart::point(double x, double y, ImU32 colour, float radius, bool filled) {
    if (!inside(x, y)) return;
    if (filled)
        dl_->AddCircleFilled(at(x, y), radius, colour);
    else
        dl_->AddCircle(at(x, y), radius, colour, 0, 2.0f);
}

std::vector<float> spreadLabelRows(const std::vector<LabelBox>& boxes, float top, float bottom) {
    const std::size_t n = boxes.size();
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return boxes[a].y < boxes[b].y; });
    const auto shareColumns = [&](std::size_t a, std::size_t b) {
        return boxes[a].x < boxes[b].x + boxes[b].w && boxes[b].x < boxes[a].x + boxes[a].w;
    };
    std::vector<float> y(n);
    for (std::size_t k = 0; k < n; ++k) {  // down, below every box placed before that it meets
        const std::size_t i = order[k];
        y[i] = std::max(boxes[i].y, top);
        for (bool moved = true; moved;) {
            moved = false;
            for (std::size_t j = 0; j < k; ++j) {
                const std::size_t o = order[j];
                if (shareColumns(i, o) && y[i] < y[o] + boxes[o].h && y[o] < y[i] + boxes[i].h) {
                    y[i] = y[o] + boxes[o].h;
                    moved = true;
                }
            }
        }
    }
    for (std::size_t k = n; k-- > 0;) {  // up, above the bottom and the boxes below it
        const std::size_t i = order[k];
        float limit = bottom;
        for (std::size_t j = k + 1; j < n; ++j)
            if (shareColumns(i, order[j])) limit = std::min(limit, y[order[j]]);
        y[i] = std::max(top, std::min(y[i], limit - boxes[i].h));
    }
    return y;
}

void LogChart::labels(const std::vector<Label>& all) {
    std::vector<LabelBox> boxes;
    for (const Label& l : all) {
        const ImVec2 size = ImGui::CalcTextSize(l.text.c_str());
        const ImVec2 p = at(l.x, l.y);
        boxes.push_back(
            {std::clamp(p.x + l.dx, p0_.x + 2, p1_.x - size.x - 2), p.y + l.dy, size.x, size.y});
    }
    const std::vector<float> y = spreadLabelRows(boxes, p0_.y + 2, p1_.y - 2);
    for (std::size_t i = 0; i < all.size(); ++i)
        dl_->AddText(ImVec2(boxes[i].x, y[i]), all[i].colour, all[i].text.c_str());
}

void LogChart::label(double x, double y, const std::string& text, ImU32 colour, float dx,
                     float dy) {
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    ImVec2 p = at(x, y);
    p.x = std::clamp(p.x + dx, p0_.x + 2, p1_.x - size.x - 2);
    p.y = std::clamp(p.y + dy, p0_.y + 2, p1_.y - size.y - 2);
    dl_->AddText(p, colour, text.c_str());
}

}  // namespace clviz
