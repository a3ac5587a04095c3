#pragma once
// How a host thread waits for an exchange between devices or MPI ranks: by testing it, with a
// pause between tests or none.

namespace clviz {

// Microseconds between tests: 0 (back to back) where the devices are GPUs, whose host cores idle
// meanwhile, so that each hop of the exchange goes on as soon as the one before it is done; 20
// where a device computes on the CPU (PoCL), whose cores the polling would take.
inline int exchangePollMicroseconds(bool deviceIsCpu) {
    return deviceIsCpu ? 20 : 0;
}

}  // namespace clviz
