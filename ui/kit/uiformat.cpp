#include "kit/uiformat.h"

#include "load/steprunner.h"
#include "metrics/latencystats.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace kp::ui {

QString UiFormat::metricWord(LatencyMetric metric)
{
    switch (metric) {
    case LatencyMetric::Ttft:
        return QStringLiteral("TTFT");
    case LatencyMetric::Tpot:
        return QStringLiteral("TPOT");
    case LatencyMetric::Itl:
        return QStringLiteral("ITL");
    case LatencyMetric::E2el:
        return QStringLiteral("E2EL");
    }
    return {};
}

QString UiFormat::percentileWord(double percentile)
{
    return QStringLiteral("P") + LatencyStats::percentileWord(percentile);
}

QString UiFormat::ms(double value)
{
    if (!std::isfinite(value))
        return unknown();
    const double a = std::abs(value);
    const int decimals = a < 10 ? 2 : a < 100 ? 1 : 0;
    return QLocale().toString(value, 'f', decimals);
}

QString UiFormat::throughput(double value)
{
    if (!std::isfinite(value))
        return unknown();
    const double a = std::abs(value);
    const int decimals = a < 100 ? 2 : a < 1000 ? 1 : 0;
    return QLocale().toString(value, 'f', decimals);
}

QString UiFormat::tokens(double value)
{
    if (!std::isfinite(value))
        return unknown();
    return QLocale().toString(value, 'f', std::abs(value) < 10 ? 1 : 0);
}

QString UiFormat::load(double value)
{
    if (std::isnan(value))
        return unknown();
    if (std::isinf(value))
        return QStringLiteral("∞");
    const double a = std::abs(value);
    QString s = QLocale().toString(value, 'f', a < 10 ? 2 : a < 1000 ? 1 : 0);
    const QChar point = QLocale().decimalPoint().front();
    if (s.contains(point)) {
        while (s.endsWith(u'0'))
            s.chop(1);
        if (s.endsWith(point))
            s.chop(1);
    }
    return s;
}

QString UiFormat::loadUnit(LoadMode mode)
{
    return mode == LoadMode::Rate ? QCoreApplication::translate("kp::ui::UiFormat", "req/s")
                                  : QCoreApplication::translate("kp::ui::UiFormat", "users");
}

QString UiFormat::loadText(LoadMode mode, double load)
{
    if (mode == LoadMode::Concurrency) {
        return load == 1.0 ? QCoreApplication::translate("kp::ui::UiFormat", "1 user")
                           : QCoreApplication::translate("kp::ui::UiFormat", "%1 users").arg(UiFormat::load(load));
    }
    return QCoreApplication::translate("kp::ui::UiFormat", "%1 req/s").arg(UiFormat::load(load));
}

QString UiFormat::loadText(const StepConfig& step)
{
    return loadText(step.mode, step.mode == LoadMode::Concurrency ? double(step.concurrency) : step.rate);
}

QString UiFormat::joined(const QStringList& items)
{
    return items.join(QCoreApplication::translate("kp::ui::UiFormat", ", ", "between the items of a list"));
}

QString UiFormat::regionWord(RegionKind kind)
{
    switch (kind) {
    case RegionKind::Linear:
        return QCoreApplication::translate("kp::ui::UiFormat", "linear", "region of the load-latency curve");
    case RegionKind::Knee:
        return QCoreApplication::translate("kp::ui::UiFormat", "knee", "region of the load-latency curve");
    case RegionKind::Overload:
        return QCoreApplication::translate("kp::ui::UiFormat", "overload", "region of the load-latency curve");
    }
    return {};
}

QString UiFormat::purposeWord(const QString& purpose)
{
    auto is = [&purpose](const char* key) { return purpose == QLatin1String(key); };
    if (is("coarse"))
        return QCoreApplication::translate("kp::ui::UiFormat", "coarse", "why a sweep step ran");
    if (is("floor"))
        return QCoreApplication::translate("kp::ui::UiFormat", "floor", "why a sweep step ran");
    if (is("ceiling"))
        return QCoreApplication::translate("kp::ui::UiFormat", "ceiling", "why a sweep step ran");
    if (is("refine"))
        return QCoreApplication::translate("kp::ui::UiFormat", "refine", "why a sweep step ran");
    if (is("repeat"))
        return QCoreApplication::translate("kp::ui::UiFormat", "repeat", "why a sweep step ran");
    if (is("manual"))
        return QCoreApplication::translate("kp::ui::UiFormat", "manual", "why a sweep step ran");
    return purpose;
}

QString UiFormat::statusWord(const QString& status)
{
    auto is = [&status](const char* key) { return status == QLatin1String(key); };
    if (is("finished"))
        return QCoreApplication::translate("kp::ui::UiFormat", "finished", "status of a run");
    if (is("stopped"))
        return QCoreApplication::translate("kp::ui::UiFormat", "stopped", "status of a run");
    if (is("failed"))
        return QCoreApplication::translate("kp::ui::UiFormat", "failed", "status of a run");
    if (is("running"))
        return QCoreApplication::translate("kp::ui::UiFormat", "running", "status of a run");
    if (is("interrupted"))
        return QCoreApplication::translate("kp::ui::UiFormat", "interrupted", "status of a run");
    return status;
}

QString UiFormat::clock(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        seconds = 0;
    const qint64 total = qint64(std::llround(seconds));
    const qint64 h = total / 3600;
    const qint64 m = (total / 60) % 60;
    const qint64 s = total % 60;
    if (h > 0)
        return QStringLiteral("%1:%2:%3").arg(h).arg(m, 2, 10, QLatin1Char('0')).arg(s, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(m, 2, 10, QLatin1Char('0')).arg(s, 2, 10, QLatin1Char('0'));
}

QString UiFormat::percent(double fraction)
{
    const double p = fraction * 100;
    const int decimals = p == 0 ? 0 : p < 1 ? 2 : p < 10 ? 1 : 0;
    return QLocale().toString(p, 'f', decimals) + QStringLiteral("%");
}

QString UiFormat::unknown()
{
    return QStringLiteral("—");
}

QString UiFormat::count(qint64 value)
{
    return isKnown(value) ? QLocale().toString(value) : unknown();
}

QString UiFormat::failed(const StepMetrics& m)
{
    if (!isKnown(m.failed))
        return unknown();
    if (m.failed == 0)
        return QStringLiteral("0");
    if (!isKnown(m.completed))
        return count(m.failed);
    return QStringLiteral("%1 (%2)").arg(count(m.failed), percent(double(m.failed) / double(m.completed + m.failed)));
}

QString UiFormat::derivedMark()
{
    return QStringLiteral("†");
}

QString UiFormat::derivedNote()
{
    return QCoreApplication::translate("kp::ui::UiFormat", "† derived from the file's other fields");
}

QString UiFormat::marked(const QString& text, const StepMetrics& metrics, const char* key)
{
    return metrics.isDerived(QLatin1String(key)) && text != unknown() ? text + derivedMark() : text;
}

} // namespace kp::ui
