#pragma once
// What every suite's rows share: which variants --variants asks for, the repetitions that time a
// row (warm-up, then as many as the row's budget allows) and the row those timings make.
#include <functional>
#include <string>
#include <vector>

#include "bench/bench_options.hpp"
#include "bench/bench_report.hpp"

namespace clviz::bench {

// True when --variants is empty or names `variant`.
bool wanted(const BenchOptions& o, const std::string& variant);

// Adds `more` to a row's note after a "; " (nothing when `more` is empty).
void appendNote(std::string& note, const std::string& more);

// The milliseconds of `run` (one repetition each): o.warmup runs first (one with --quick; they
// stop after one that takes over a second), then o.repeats (at most 3 with --quick, at most
// `maxRepeats` when > 0), fewer where they would pass `budgetMs` but never fewer than 3.
std::vector<double> timeRepeats(const std::function<double()>& run, const BenchOptions& o,
                                double budgetMs, int maxRepeats = 0);

// A row with the median, fastest and slowest of `ms` and their count.
BenchRow timedRow(std::string suite, std::string variant, std::string config, std::string size,
                  const std::vector<double>& ms);

}  // namespace clviz::bench
