#include "kit/soakwindowfigures.h"

#include "metrics/boundedread.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <cmath>

namespace kp::ui {

namespace {

// A latency's P50 or P99 in a window; unknown when no request of the window gave one.
double figure(const LatencyStats& s, double percentile)
{
    if (s.count <= 0)
        return kUnknown;
    if (percentile == 50.0)
        return s.median;
    return s.percentile(percentile).value_or(kUnknown);
}

bool same(double a, double b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

} // namespace

SoakWindowFigures SoakWindowFigures::from(const SoakWindow& window)
{
    const StepMetrics& m = window.metrics;
    SoakWindowFigures f;
    f.index = window.index;
    f.startS = window.startS;
    f.endS = window.endS;
    f.partial = window.partial;
    f.sent = window.sent;
    f.completed = m.completed;
    f.failed = m.failed;
    for (const auto& [failure, count] : m.failuresByClass) {
        if (count > 0)
            f.failures[failure] = count;
    }
    f.requestThroughput = m.requestThroughput;
    f.outputThroughput = m.outputThroughput;
    f.ttftP50 = figure(m.ttft, 50);
    f.ttftP99 = figure(m.ttft, 99);
    f.itlP50 = figure(m.itl, 50);
    f.itlP99 = figure(m.itl, 99);
    f.tpotP50 = figure(m.tpot, 50);
    f.tpotP99 = figure(m.tpot, 99);
    f.e2elP50 = figure(m.e2el, 50);
    f.e2elP99 = figure(m.e2el, 99);
    return f;
}

bool SoakWindowFigures::operator==(const SoakWindowFigures& o) const
{
    return index == o.index && same(startS, o.startS) && same(endS, o.endS) && partial == o.partial && sent == o.sent
        && completed == o.completed && failed == o.failed && failures == o.failures
        && same(requestThroughput, o.requestThroughput) && same(outputThroughput, o.outputThroughput)
        && same(ttftP50, o.ttftP50) && same(ttftP99, o.ttftP99) && same(itlP50, o.itlP50) && same(itlP99, o.itlP99)
        && same(tpotP50, o.tpotP50) && same(tpotP99, o.tpotP99) && same(e2elP50, o.e2elP50) && same(e2elP99, o.e2elP99);
}

QString soakWindowsPath(const QString& stepFilePath)
{
    QString path = stepFilePath;
    for (const QLatin1String suffix :
        { QLatin1String(".requests.jsonl"), QLatin1String(".metrics.jsonl"), QLatin1String(".json") }) {
        if (path.endsWith(suffix)) {
            path.chop(suffix.size());
            break;
        }
    }
    return path + QStringLiteral(".windows.jsonl");
}

bool readSoakWindows(
    const QString& path, std::vector<SoakWindowFigures>* windows, QString* error, QStringList* warnings)
{
    windows->clear();
    QString readError;
    const std::optional<QByteArray> bytes = readBoundedFile(path, kMaxResultFileBytes, &readError);
    if (!bytes) {
        *error = readError;
        return false;
    }
    qsizetype start = 0;
    int number = 0;
    while (start < bytes->size()) {
        qsizetype end = bytes->indexOf('\n', start);
        const bool last = end < 0;
        if (last)
            end = bytes->size();
        ++number;
        const QByteArray line = bytes->sliced(start, end - start).trimmed();
        start = end + 1;
        if (line.isEmpty())
            continue;
        QJsonParseError parse;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &parse);
        if (parse.error != QJsonParseError::NoError || !doc.isObject()) {
            const QString why = parse.error != QJsonParseError::NoError
                ? parse.errorString()
                : QCoreApplication::translate("kp::ui::SoakWindowFigures", "not an object");
            // A window is appended in one write: only a kill in the middle of one cuts the last line.
            if (last && warnings) {
                warnings->append(QCoreApplication::translate(
                    "kp::ui::SoakWindowFigures", "%1:%2: the last window is cut short (%3); left out")
                                     .arg(path)
                                     .arg(number)
                                     .arg(why));
                break;
            }
            *error = QCoreApplication::translate("kp::ui::SoakWindowFigures", "%1:%2: not a window: %3")
                         .arg(path)
                         .arg(number)
                         .arg(why);
            windows->clear();
            return false;
        }
        windows->push_back(SoakWindowFigures::from(SoakWindow::fromJson(doc.object())));
    }
    return true;
}

} // namespace kp::ui
