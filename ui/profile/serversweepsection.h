#pragma once

#include "profile/profilefields.h"

#include <QJsonObject>
#include <QString>

namespace kp::ui {

// The profile form's "Server sweep" section (server_sweep: the command run per combination of the
// parameters' values, the mode, the stop command, the waits). Its texts are in ProfileForm's context.
SectionSpec serverSweepSection();

// The parameters as the form shows them, one per line: "max_num_seqs = 64, 128, 256".
QString serverParametersText(const QJsonObject& parameters);
// The lines back into the parameters; an error names the line and what is wrong, in the window's language.
QString parseServerParametersText(const QString& text, QJsonObject* parameters);

} // namespace kp::ui
