#include "compute/nbody/mpi/leader.hpp"

#include <cstdio>
#include <memory>
#include <type_traits>

#include "common/error.hpp"

namespace clviz {

namespace {

enum class Command : int {
    Load,
    Step,
    Diagnostics,
    Timings,
    Gather,
    Params,
    Integrator,
    Precision,
    Config,
    Release,  // the leader went away: drop the state, wait for the next one
    Quit,
};

struct Message {
    Command command = Command::Quit;
    int count = 0;
    NbodyParams params;
    NbodyKernelConfig config;
    NbodyIntegrator integrator = NbodyIntegrator::Leapfrog;
    NbodyPrecision precision = NbodyPrecision::Float;
};
static_assert(std::is_trivially_copyable_v<Message>);

Message message(Command c) {
    Message m;
    m.command = c;
    return m;
}

void send(const NbodyMpiLink& link, Message m) {
    link.commands->broadcast(&m, sizeof m, MPI_BYTE, "command from rank 0");
}

Message receive(const NbodyMpiLink& link) {
    Message m;
    link.commands->broadcast(&m, sizeof m, MPI_BYTE, "command from rank 0");
    return m;
}

}  // namespace

NbodyMpiLeader::NbodyMpiLeader(ComputeContext& cc, const NbodyMpiLink& link, NbodyEnvironment env)
    : link_(link), sim_(cc, *link.session, *link.exchange, std::move(env)) {}

NbodyMpiLeader::~NbodyMpiLeader() {
    send(link_, message(Command::Release));
}

void NbodyMpiLeader::load(const std::vector<Body>& bodies) {
    send(link_, message(Command::Load));
    sim_.load(bodies);
}

void NbodyMpiLeader::step(int count) {
    Message m = message(Command::Step);
    m.count = count;
    send(link_, m);
    sim_.step(count);
}

NbodyDiagnostics NbodyMpiLeader::diagnostics() {
    send(link_, message(Command::Diagnostics));
    return sim_.diagnostics();
}

NbodyMultiTimings NbodyMpiLeader::lastTimings() {
    send(link_, message(Command::Timings));
    return sim_.lastTimings();
}

std::vector<Body> NbodyMpiLeader::readBodies() {
    send(link_, message(Command::Gather));
    return sim_.readBodies();
}

void NbodyMpiLeader::setParams(const NbodyParams& p) {
    sim_.setParams(p);  // validates first: a refused value is never sent
    Message m = message(Command::Params);
    m.params = p;
    send(link_, m);
}

void NbodyMpiLeader::setIntegrator(NbodyIntegrator i) {
    sim_.setIntegrator(i);
    Message m = message(Command::Integrator);
    m.integrator = i;
    send(link_, m);
}

void NbodyMpiLeader::setPrecision(NbodyPrecision p) {
    sim_.setPrecision(p);
    Message m = message(Command::Precision);
    m.precision = p;
    send(link_, m);
}

void NbodyMpiLeader::setKernelConfig(const NbodyKernelConfig& c) {
    sim_.setKernelConfig(c);
    Message m = message(Command::Config);
    m.config = c;
    send(link_, m);
}

void followNbodyLeader(ComputeContext& cc, const NbodyMpiLink& link, NbodyEnvironment env) {
    const MpiSession& session = *link.session;
    try {
        auto sim = std::make_unique<NbodyMpiSimulation>(cc, session, *link.exchange, env);
        for (;;) {
            const Message m = receive(link);
            switch (m.command) {
                case Command::Load:
                    sim->load({});
                    break;
                case Command::Step:
                    sim->step(m.count);
                    break;
                case Command::Diagnostics:
                    sim->diagnostics();
                    break;
                case Command::Timings:
                    sim->lastTimings();
                    break;
                case Command::Gather:
                    sim->readBodies();
                    break;
                case Command::Params:
                    sim->setParams(m.params);
                    break;
                case Command::Integrator:
                    sim->setIntegrator(m.integrator);
                    break;
                case Command::Precision:
                    sim->setPrecision(m.precision);
                    break;
                case Command::Config:
                    // A kernel setting this device cannot take keeps its own: slower, still right.
                    try {
                        sim->setKernelConfig(m.config);
                    } catch (const Error& e) {
                        std::fprintf(stderr, "clviz: rank %d keeps its kernel settings: %s\n",
                                     session.rank(), e.what());
                    }
                    break;
                case Command::Release:
                    sim = std::make_unique<NbodyMpiSimulation>(cc, session, *link.exchange, env);
                    break;
                case Command::Quit:
                    return;
            }
        }
    } catch (const std::exception& e) {
        session.abort(e.what(), 1);
    }
}

void releaseNbodyFollowers(const NbodyMpiLink& link) {
    send(link, message(Command::Quit));
}

}  // namespace clviz
