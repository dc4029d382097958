#pragma once

#include <QtGlobal>

namespace kp::sim {

// Raises the soft limit on open file descriptors to the hard limit, so that one process can hold
// thousands of sockets (a load generator, the simulator, or both in one test). Returns the soft limit
// now in force, or -1 where the platform has no such limit.
qint64 raiseFileLimit();

} // namespace kp::sim
