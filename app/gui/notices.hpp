#pragma once
// The notice area: messages from the app and the demos (AppServices::notify), bottom-right.
// Notices fade after a few seconds; errors stay until dismissed. Everything also goes to stderr.
#include <deque>
#include <string>

namespace clviz {

class Notices {
  public:
    void add(bool isError, const std::string& message, double now);
    // Draws the area; `now` is glfwGetTime().
    void draw(double now);
    int errorCount() const;
    // Drops the errors that name `fragment` (a kernel file whose build failed, now fixed): they
    // no longer describe what runs.
    void resolveErrorsMentioning(const std::string& fragment);

  private:
    struct Entry {
        bool error = false;
        std::string text;
        double time = 0;
        int repeats = 1;
    };
    std::deque<Entry> entries_;
};

}  // namespace clviz
