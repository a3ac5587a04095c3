#pragma once
// Seeded, reproducible initial conditions in G = 1 units, scaled for the viewer (the bulk of the
// bodies within a few units of the origin), each with a suggested time step and softening.
#include <cstdint>
#include <string>
#include <vector>

#include "compute/nbody/body.hpp"

namespace clviz {

enum class NbodyPreset {
    UniformCube,        // uniform random positions in a cube of side 2, at rest
    Shell,              // thin spherical shell of radius 1.5, at rest: collapses and rebounds
    Plummer,            // Plummer sphere in virial equilibrium, Henon units (M = 1, E = -1/4)
    DiskGalaxy,         // rotating exponential disk on circular orbits around a central mass
    CollidingGalaxies,  // two disk galaxies on a tilted collision course
};

struct NbodyPresetInfo {
    NbodyPreset preset;
    const char* name;         // "cube", "shell", "plummer", "disk", "collision"
    const char* description;  // one sentence for the GUI
    float dt;                 // suggested time step
    float softening;          // suggested softening length
    float viewRadius;         // radius that frames the initial bodies
    // Suggested far-field angle of the tree walk (NbodyParams::thetaFar): the widest that keeps
    // issue 13's error line on this scene with a margin (docs/benchmarks.md, issue 31 round 8).
    float thetaFar;
};

const std::vector<NbodyPresetInfo>& allNbodyPresets();
const NbodyPresetInfo& presetInfo(NbodyPreset p);
NbodyPreset parsePreset(const std::string& name);  // throws clviz::Error listing valid names

// n bodies (1 .. kMaxBodies, else clviz::Error) drawn from `seed`: the same (preset, n, seed)
// gives the same bytes on every run and machine with the same libm. Total mass is 1; centre of
// mass at rest at the origin.
std::vector<Body> makePreset(NbodyPreset preset, std::size_t n, std::uint64_t seed = 1);

}  // namespace clviz
