#pragma once

#include <QString>

namespace kp {

// $XDG_DATA_HOME/Kneepoint/Kneepoint/runs (QStandardPaths::GenericDataLocation +
// "/Kneepoint/Kneepoint/runs"), the same for the GUI and the CLI.
QString defaultRunsDirectory();

// A new, not yet existing directory under root for a run named `name`: "yyyyMMdd-HHmmss-<slug>",
// with "-2", "-3", ... appended when taken.
QString newRunDirectory(const QString& root, const QString& name);

// base when nothing is there, else base-2, base-3, ... the first that does not exist.
QString uniquePath(const QString& base);

} // namespace kp
