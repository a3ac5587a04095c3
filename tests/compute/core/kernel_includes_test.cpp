// `#include "…"` in kernel sources: nested headers are spliced in with #line directives that
// name each file, a missing header or an include cycle is refused naming the including file and
// line, names cannot leave the kernel directory, and a source without includes is unchanged.
#include <gtest/gtest.h>

#include <map>

#include "common/error.hpp"
#include "compute/core/kernel_includes.hpp"
#include "compute/core/kernel_source.hpp"
#include "tests/support/error_message.hpp"

using namespace clviz;
using clviz::test::errorOf;

namespace {

// An in-memory kernel directory.
struct Files {
    std::map<std::string, std::string> files;
    std::vector<std::string> reads;
    ReadKernelFile reader() {
        return [this](const std::string& name) {
            reads.push_back(name);
            auto it = files.find(name);
            if (it == files.end()) throw Error("cannot read kernel file /k/" + name);
            return it->second;
        };
    }
};

}  // namespace

TEST(KernelIncludes, RecognisesOnlyQuotedIncludeLines) {
    EXPECT_EQ(includedName("#include \"common/real.clh\""), "common/real.clh");
    EXPECT_EQ(includedName("  #  include   \"a.clh\"  // why"), "a.clh");
    EXPECT_EQ(includedName("#include \"a.clh\"\r"), "a.clh");
    EXPECT_EQ(includedName("#include <a.h>"), "");
    EXPECT_EQ(includedName("// #include \"a.clh\""), "");
    EXPECT_EQ(includedName("#define X 1"), "");
}

TEST(KernelIncludes, SourceWithoutIncludesIsUnchanged) {
    Files fs;
    fs.files["a.cl"] = "kernel void k() {}\n// \"quoted\"\nint x;";
    const auto e = expandKernelIncludes("a.cl", fs.reader());
    EXPECT_EQ(e.text, fs.files["a.cl"]);
    EXPECT_TRUE(e.includes.empty());
}

TEST(KernelIncludes, NestedHeadersAreSplicedWithLineDirectives) {
    Files fs;
    fs.files["a.cl"] = "// a1\n#include \"common/b.clh\"\nkernel void k() {}\n";
    fs.files["common/b.clh"] = "// b1\n#include \"common/c.clh\"\nint b;";  // no final newline
    fs.files["common/c.clh"] = "int c;\n";
    const auto e = expandKernelIncludes("a.cl", fs.reader());
    EXPECT_EQ(e.text,
              "// a1\n"
              "#line 1 \"kernels/common/b.clh\"\n"
              "// b1\n"
              "#line 1 \"kernels/common/c.clh\"\n"
              "int c;\n"
              "#line 3 \"kernels/common/b.clh\"\n"
              "int b;\n"
              "#line 3 \"kernels/a.cl\"\n"
              "kernel void k() {}\n");
    EXPECT_EQ(e.includes, (std::vector<std::string>{"common/b.clh", "common/c.clh"}));
}

TEST(KernelIncludes, LineCountsAreRightAfterAGroupThePreprocessorMaySkip) {
    // Under #if 0 the #line directives are skipped with the header: the #endif resyncs.
    Files fs;
    fs.files["a.cl"] = "#ifdef X\n#include \"h.clh\"\n#else\nint a;\n#endif\nint b;";
    fs.files["h.clh"] = "int h;\n";
    EXPECT_EQ(expandKernelIncludes("a.cl", fs.reader()).text,
              "#ifdef X\n"
              "#line 1 \"kernels/h.clh\"\n"
              "int h;\n"
              "#line 3 \"kernels/a.cl\"\n"
              "#else\n"
              "#line 4 \"kernels/a.cl\"\n"
              "int a;\n"
              "#endif\n"
              "#line 6 \"kernels/a.cl\"\n"
              "int b;");
}

TEST(KernelIncludes, AHeaderIncludedTwiceIsListedOnce) {
    Files fs;
    fs.files["a.cl"] = "#include \"h.clh\"\n#include \"g.clh\"\n";
    fs.files["g.clh"] = "#include \"h.clh\"\n";
    fs.files["h.clh"] = "#ifndef H\n#define H\n#endif\n";
    const auto e = expandKernelIncludes("a.cl", fs.reader());
    EXPECT_EQ(e.includes, (std::vector<std::string>{"h.clh", "g.clh"}));
}

TEST(KernelIncludes, MissingHeaderNamesTheIncludingFileAndLine) {
    Files fs;
    fs.files["a.cl"] = "\n#include \"common/b.clh\"\n";
    fs.files["common/b.clh"] = "int b;\n\n\n#include \"common/gone.clh\"\n";
    const std::string why = errorOf([&] { expandKernelIncludes("a.cl", fs.reader()); });
    EXPECT_NE(why.find("kernels/common/b.clh:4: "), std::string::npos) << why;
    EXPECT_NE(why.find("\"common/gone.clh\""), std::string::npos) << why;
    EXPECT_NE(why.find("cannot read kernel file /k/common/gone.clh"), std::string::npos) << why;
}

TEST(KernelIncludes, MissingRootKeepsItsOwnMessage) {
    Files fs;
    EXPECT_EQ(errorOf([&] { expandKernelIncludes("a.cl", fs.reader()); }),
              "cannot read kernel file /k/a.cl");
}

TEST(KernelIncludes, CyclesAreRefused) {
    Files fs;
    fs.files["a.cl"] = "#include \"x.clh\"\n";
    fs.files["x.clh"] = "\n#include \"y.clh\"\n";
    fs.files["y.clh"] = "#include \"x.clh\"\n";
    const std::string why = errorOf([&] { expandKernelIncludes("a.cl", fs.reader()); });
    EXPECT_NE(why.find("kernels/y.clh:1: include cycle: a.cl -> x.clh -> y.clh -> x.clh"),
              std::string::npos)
        << why;

    fs.files["self.cl"] = "#include \"self.cl\"\n";
    EXPECT_NE(errorOf([&] { expandKernelIncludes("self.cl", fs.reader()); }).find("cycle"),
              std::string::npos);
}

TEST(KernelIncludes, NamesStayInsideTheKernelDirectory) {
    Files fs;
    for (const std::string bad :
         {"../secret.clh", "/etc/passwd", "common/../../x.clh", "a//b.clh"}) {
        fs.files["a.cl"] = "int a;\n#include \"" + bad + "\"\n";
        const std::string why = errorOf([&] { expandKernelIncludes("a.cl", fs.reader()); });
        EXPECT_NE(why.find("kernels/a.cl:2: "), std::string::npos) << bad << ": " << why;
        EXPECT_NE(why.find("stay inside"), std::string::npos) << why;
    }
    EXPECT_EQ(fs.reads, (std::vector<std::string>(4, "a.cl")));  // nothing outside was read
}

TEST(KernelIncludes, RunawayExpansionIsRefused) {
    // Each level includes the next twice without a guard: 2^30 copies if nothing stopped it.
    Files fs;
    fs.files["a.cl"] = "#include \"h0.clh\"\n";
    for (int i = 0; i < 30; ++i)
        fs.files["h" + std::to_string(i) + ".clh"] =
            std::string(1000, '/') + "\n#include \"h" + std::to_string(i + 1) + ".clh\"\n" +
            "#include \"h" + std::to_string(i + 1) + ".clh\"\n";
    fs.files["h30.clh"] = "int x;\n";
    EXPECT_NE(errorOf([&] { expandKernelIncludes("a.cl", fs.reader()); }).find("MiB"),
              std::string::npos);
}

TEST(KernelIncludes, EveryEmbeddedProgramExpands) {
    setKernelDirectory("");
    int programs = 0;
    for (const auto& name : kernelFileNames()) {
        if (name.size() < 3 || name.substr(name.size() - 3) != ".cl") continue;
        ++programs;
        const ExpandedKernelSource e = kernelProgramSource(name);
        EXPECT_FALSE(e.text.empty()) << name;
        for (const auto& h : e.includes)
            EXPECT_NO_THROW(kernelFile(h)) << name << " includes " << h;
    }
    EXPECT_GT(programs, 5);
}

TEST(KernelIncludes, LogPositionsInTheExpandedTextNameTheirFile) {
    Files fs;
    fs.files["a.cl"] = "// a\n#include \"common/b.clh\"\nkernel void k() { x = ; }\n";
    fs.files["common/b.clh"] = "#define B 1\n\nint broken( { }\n";
    const std::string text = expandKernelIncludes("a.cl", fs.reader()).text;
    // Expanded: 1 "// a", 2 #line, 3 "#define B 1", 4 "", 5 "int broken", 6 #line, 7 "kernel".
    EXPECT_EQ(originalPosition("a.cl", text, 1), "kernels/a.cl:1");
    EXPECT_EQ(originalPosition("a.cl", text, 5), "kernels/common/b.clh:3");
    EXPECT_EQ(originalPosition("a.cl", text, 7), "kernels/a.cl:3");
    // NVIDIA's compiler ignores #line and says "<kernel>:LINE:COL" in the expanded text.
    EXPECT_EQ(withOriginalPositions("<kernel>:5:13: error: expected parameter declarator\n"
                                    "<kernel>:7:21: error: expected expression\n",
                                    "a.cl", text),
              "kernels/common/b.clh:3:13: error: expected parameter declarator\n"
              "kernels/a.cl:3:21: error: expected expression\n");
    // PoCL names its temporary file before the first #line, and the #line file after it.
    EXPECT_EQ(withOriginalPositions("error: /tmp/pocl/tempfile_Ab12.cl:1:2: x\n"
                                    "error: kernels/common/b.clh:3:13: y\n",
                                    "a.cl", text),
              "error: kernels/a.cl:1:2: x\nerror: kernels/common/b.clh:3:13: y\n");
    // A source without includes: the placeholder becomes the file, lines unchanged.
    EXPECT_EQ(withOriginalPositions("<kernel>:2:1: warning: w", "c.cl", "int a;\nint b;\n"),
              "kernels/c.cl:2:1: warning: w");
}
