#pragma once

#include <QLoggingCategory>

namespace kp::sim {
Q_DECLARE_LOGGING_CATEGORY(lcSim)
} // namespace kp::sim
