// The soak command's own parts: its duration options and the line per window. The run itself is the
// sweep pipeline's (cli.cpp, runSweep): one step with StepConfig::windowS.
#include "clisoak.h"

#include "profile/profileschema.h"

#include <QRegularExpression>

#include <cmath>

namespace kp::cli {

std::optional<double> parseDurationS(const QString& text)
{
    static const QRegularExpression form(
        QStringLiteral("^\\s*([0-9]*\\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\\s*(ms|s|m|h|d)?\\s*$"));
    const QRegularExpressionMatch match = form.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    const double value = match.captured(1).toDouble(&ok);
    const QString unit = match.captured(2);
    double factor = 1.0;
    if (unit == QLatin1String("ms"))
        factor = 0.001;
    else if (unit == QLatin1String("m"))
        factor = 60.0;
    else if (unit == QLatin1String("h"))
        factor = 3600.0;
    else if (unit == QLatin1String("d"))
        factor = 86400.0;
    const double seconds = value * factor;
    if (!ok || !std::isfinite(seconds) || seconds <= 0)
        return std::nullopt;
    return seconds;
}

QStringList applySoakOptions(const QString& duration, const QString& window, Profile& profile)
{
    QStringList errors;
    Load& load = profile.load;
    load.soak = true;
    load.plan.kind = PlanKind::List;
    load.plan.refine = false;
    load.plan.repeats = 0;
    const auto set = [&](const QString& flag, const QString& text, const char* key) {
        if (text.isNull())
            return;
        const std::optional<double> seconds = parseDurationS(text);
        if (!seconds) {
            errors << QStringLiteral("--%1: \"%2\" is not a duration > 0 (e.g. 1h, 90m, 60s, 500ms)").arg(flag, text);
            return;
        }
        const ProfileField* field = profileField(QString::fromLatin1(key));
        if (const QString issue = fieldRangeIssue(*field, *seconds); !issue.isEmpty())
            errors << QStringLiteral("--%1: %2").arg(flag, issue);
        else if (const QString e = setFieldValue(profile, *field, *seconds); !e.isEmpty())
            errors << QStringLiteral("--%1: %2").arg(flag, e);
    };
    set(QStringLiteral("duration"), duration, "load.soak_duration_s");
    set(QStringLiteral("window"), window, "load.soak_window_s");
    return errors;
}

namespace {

QString ms(const LatencyStats& s, std::optional<double> value)
{
    return s.count > 0 && value && std::isfinite(*value) ? QString::number(*value, 'f', 1) : QStringLiteral("—");
}

} // namespace

QString soakWindowLine(const SoakWindow& w)
{
    const StepMetrics& m = w.metrics;
    QStringList failures;
    for (const auto& [failure, count] : m.failuresByClass)
        failures << QStringLiteral("%1 %2").arg(failureClassKey(failure)).arg(count);
    return QStringLiteral(
        "window %1 [%2–%3 s]%4: %5 req/s, %6 sent, %7 completed, %8 failed%9; TTFT P50 %10 P99 %11 ms; "
        "ITL P50 %12 P99 %13 ms")
        .arg(w.index + 1)
        .arg(w.startS, 0, 'f', 1)
        .arg(w.endS, 0, 'f', 1)
        .arg(w.partial ? QStringLiteral(" (partial)") : QString())
        .arg(m.requestThroughput, 0, 'f', 2)
        .arg(w.sent)
        .arg(m.completed)
        .arg(m.failed)
        .arg(failures.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(failures.join(QStringLiteral(", "))))
        .arg(ms(m.ttft, m.ttft.median), ms(m.ttft, m.ttft.percentile(99)), ms(m.itl, m.itl.median),
            ms(m.itl, m.itl.percentile(99)));
}

} // namespace kp::cli
