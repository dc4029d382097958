#pragma once

#include "load/soakwindow.h"

#include <QMetaType>
#include <QString>

#include <map>
#include <vector>

namespace kp::ui {

// One closed window of a soak as the window shows it: the figures of its steps/NNN.windows.jsonl line
// that the Soak tab draws and lists, a few hundred bytes however many requests it measured. Latencies
// in ms; NaN (shown "—") where no request of the window gave one, as the line's null.
struct SoakWindowFigures
{
    int index = 0; // 0-based, in time order
    double startS = 0.0; // on the step's clock
    double endS = 0.0;
    bool partial = false; // the step ended inside it
    qint64 sent = 0;
    qint64 completed = 0;
    qint64 failed = 0;
    std::map<FailureClass, qint64> failures;
    double requestThroughput = kUnknown; // completed req/s over the window
    double outputThroughput = kUnknown; // output tok/s
    double ttftP50 = kUnknown, ttftP99 = kUnknown;
    double itlP50 = kUnknown, itlP99 = kUnknown;
    double tpotP50 = kUnknown, tpotP99 = kUnknown;
    double e2elP50 = kUnknown, e2elP99 = kUnknown;

    double durationS() const { return endS - startS; }
    double midS() const { return (startS + endS) / 2.0; }
    static SoakWindowFigures from(const SoakWindow& window);
    bool operator==(const SoakWindowFigures& other) const; // NaN equals NaN: both unknown
};

// steps/NNN.json (or NNN.requests.jsonl, NNN.metrics.jsonl) → steps/NNN.windows.jsonl, where
// RunSession::appendWindow writes a soak's windows.
QString soakWindowsPath(const QString& stepFilePath);
// Reads a windows.jsonl file (SoakWindow::fromJson per line). False with an error naming the file and
// line when it cannot be read or a line is not a JSON object; a last line cut short by a kill is left out
// with a warning.
bool readSoakWindows(
    const QString& path, std::vector<SoakWindowFigures>* windows, QString* error, QStringList* warnings = nullptr);

} // namespace kp::ui

Q_DECLARE_METATYPE(kp::ui::SoakWindowFigures)
