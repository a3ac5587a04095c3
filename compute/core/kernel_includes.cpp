#include "compute/core/kernel_includes.hpp"

#include <algorithm>
#include <regex>

#include "common/error.hpp"

namespace clviz {

namespace {

// Far above any real program (the largest kernel file is ~30 KB): a diamond of headers without
// guards cannot grow the text without bound.
constexpr std::size_t kMaxExpandedBytes = 16u << 20;

std::string located(const std::string& file, int line) {
    return "kernels/" + file + ":" + std::to_string(line) + ": ";
}

std::string resync(const std::string& file, int nextLine) {
    return "#line " + std::to_string(nextLine) + " \"kernels/" + file + "\"\n";
}

// #else, #elif, #endif: where a skipped group may end.
bool endsGroup(const std::string& line) {
    static const std::regex directive(R"re(^\s*#\s*(else|elif|endif)\b.*)re");
    return std::regex_match(line, directive);
}

bool leavesDirectory(const std::string& name) {
    if (name.empty() || name.front() == '/' || name.find('\\') != std::string::npos) return true;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = name.find('/', start);
        const std::string part = name.substr(start, end - start);
        if (part == ".." || part.empty()) return true;
        if (end == std::string::npos) return false;
        start = end + 1;
    }
}

class Expander {
  public:
    explicit Expander(const ReadKernelFile& read) : read_(read) {}

    ExpandedKernelSource run(const std::string& name) {
        const std::string text = read_(name);  // the root's own error says what is missing
        stack_.push_back(name);
        splice(name, text);
        return std::move(out_);
    }

  private:
    void splice(const std::string& name, const std::string& text) {
        int lineNo = 0;
        bool spliced = false;  // a header went in above: line numbers need #line from here on
        std::size_t pos = 0;
        while (pos < text.size()) {
            std::size_t end = text.find('\n', pos);
            const bool lastLine = end == std::string::npos;
            if (lastLine) end = text.size();
            const std::string line = text.substr(pos, end - pos);
            ++lineNo;
            const std::string header = includedName(line);
            if (header.empty()) {
                out_.text.append(text, pos, end - pos + (lastLine ? 0 : 1));
                // An include inside a group the preprocessor skips has its #line directives
                // skipped too: the group's end puts the count right again.
                if (spliced && endsGroup(line)) {
                    if (lastLine) out_.text += '\n';
                    out_.text += resync(name, lineNo + 1);
                }
            } else {
                include(name, lineNo, header);
                out_.text += resync(name, lineNo + 1);
                spliced = true;
            }
            pos = end + 1;
            if (out_.text.size() > kMaxExpandedBytes)
                throw Error(located(name, lineNo) + "the program grows past " +
                            std::to_string(kMaxExpandedBytes >> 20) +
                            " MiB through its includes (a header without an include guard?)");
        }
    }

    void include(const std::string& from, int lineNo, const std::string& header) {
        if (leavesDirectory(header))
            throw Error(located(from, lineNo) + "#include \"" + header +
                        "\": names are relative to the kernel directory and stay inside it");
        if (std::find(stack_.begin(), stack_.end(), header) != stack_.end()) {
            std::string cycle;
            for (const auto& s : stack_)
                cycle += s + " -> ";
            throw Error(located(from, lineNo) + "include cycle: " + cycle + header);
        }
        std::string text;
        try {
            text = read_(header);
        } catch (const Error& e) {
            throw Error(located(from, lineNo) + "cannot include \"" + header + "\": " + e.what());
        }
        if (std::find(out_.includes.begin(), out_.includes.end(), header) == out_.includes.end())
            out_.includes.push_back(header);
        out_.text += "#line 1 \"kernels/" + header + "\"\n";
        stack_.push_back(header);
        splice(header, text);
        stack_.pop_back();
        if (!text.empty() && text.back() != '\n') out_.text += '\n';
    }

    const ReadKernelFile& read_;
    std::vector<std::string> stack_;  // the files being spliced, outermost first
    ExpandedKernelSource out_;
};

}  // namespace

std::string originalPosition(const std::string& root, const std::string& expanded, int line) {
    static const std::regex directive(R"re(^\s*#\s*line\s+(\d+)\s+"([^"]*)"\s*$)re");
    std::string file = "kernels/" + root;
    int at = 1;  // the original line number of the current expanded line
    std::size_t pos = 0;
    for (int n = 1; n < line && pos < expanded.size(); ++n) {
        std::size_t end = expanded.find('\n', pos);
        if (end == std::string::npos) end = expanded.size();
        std::smatch m;
        const std::string text = expanded.substr(pos, end - pos);
        if (std::regex_match(text, m, directive)) {
            at = std::stoi(m[1].str());
            file = m[2].str();
        } else {
            ++at;
        }
        pos = end + 1;
    }
    return file + ":" + std::to_string(at);
}

std::string withOriginalPositions(const std::string& log, const std::string& root,
                                  const std::string& expanded) {
    static const std::regex placeholder(
        R"re((\S*tempfile_\w+\.cl|<kernel>|<source>|<stdin>):(\d+)(?=:))re");
    std::string out;
    auto last = log.cbegin();
    for (std::sregex_iterator it(log.begin(), log.end(), placeholder), end; it != end; ++it) {
        out.append(last, log.cbegin() + it->position());
        out += originalPosition(root, expanded, std::stoi((*it)[2].str()));
        last = log.cbegin() + it->position() + it->length();
    }
    out.append(last, log.cend());
    return out;
}

std::string includedName(const std::string& line) {
    static const std::regex directive(R"re(^\s*#\s*include\s*"([^"]+)"\s*(//.*)?\r?$)re");
    std::smatch m;
    return std::regex_match(line, m, directive) ? m[1].str() : std::string();
}

ExpandedKernelSource expandKernelIncludes(const std::string& name, const ReadKernelFile& read) {
    return Expander(read).run(name);
}

}  // namespace clviz
