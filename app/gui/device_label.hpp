#pragma once
// Short names for the overlay. OpenCL device names can be long: PoCL puts the CPU's marketing
// name in its device name ("pthread-skylake-avx512-Intel(R) Xeon(R) Processor @ 2.80GHz"), so the
// overlay shows a compact form and keeps the full name for its tooltip and the OpenCL panel.
#include <string>

namespace clviz {

// The device name without trade-mark signs, "CPU"/"Processor" filler and the clock suffix,
// spaces collapsed: "pthread-skylake-avx512-Intel Xeon". Never empty for a non-empty input.
std::string compactDeviceName(const std::string& name);

// Well-known platform names shortened ("Portable Computing Language" -> "PoCL"); others trimmed
// of trade-mark signs.
std::string compactPlatformName(const std::string& name);

}  // namespace clviz
