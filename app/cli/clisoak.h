#pragma once

#include "load/soakwindow.h"
#include "profile/profile.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace kp::cli {

// "1h", "90m", "60s", "500ms", "2d", "1.5h" or plain seconds; nullopt when it is none of them or not > 0.
std::optional<double> parseDurationS(const QString& text);

// The soak command's own options on top of the profile: load.mode soak at the profile's (or
// --request-rate's) rate, --duration and --window when given. Returns the problems, each naming its flag
// or the profile's key.
QStringList applySoakOptions(const QString& duration, const QString& window, Profile& profile);

// The line a window gets: its span, RPS, completed, failures by class, P50/P99 TTFT and ITL.
QString soakWindowLine(const SoakWindow& window);

} // namespace kp::cli
