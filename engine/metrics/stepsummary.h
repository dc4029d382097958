#pragma once

#include "stepmetrics.h"
#include "stepsetup.h"

#include <QByteArray>

namespace kp {

// The block users paste into reports, byte for byte the reference's layout (METRICS.md, "Printed
// summary"): rows are a label left-aligned in 40 columns, a space and the value left-aligned in 10.
class StepSummary
{
public:
    static QByteArray text(const StepSetup& setup, const StepMetrics& metrics);

    // Python's "{:<width}" and "{s:{fill}^{width}}" (the extra fill of an odd split goes to the right).
    static QByteArray row(QByteArrayView label, QByteArrayView value);
    static QByteArray centred(QByteArrayView title, char fill, int width = 50);
};

} // namespace kp
