#pragma once
// The check every backend's numerics face: one run of a session against cpu-reference in double
// on the same problem (outputs, final states, every gradient and the parameters after one SGD
// step), each within a norm-wise relative tolerance.
#include "engine/backend.h"

namespace rnnprof::test {

// Runs `session` once and compares its outputs with reference::runIteration<double>(problem).
void expectRunMatchesReference(Session& session, const Problem& problem, double tolerance = 1e-4);

} // namespace rnnprof::test
