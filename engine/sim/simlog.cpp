#include "sim/simlog.h"

namespace kp::sim {
Q_LOGGING_CATEGORY(lcSim, "kneepoint.engine.sim", QtInfoMsg)
} // namespace kp::sim
