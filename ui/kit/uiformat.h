#pragma once

#include "metrics/stepmetrics.h"
#include "profile/profile.h"
#include "sweep/kneeanalysis.h"

#include <QString>

namespace kp {
struct StepConfig;
}

namespace kp::ui {

// Numbers as the window shows them: sensible precision, units where the column or axis does not
// carry them, the user's locale for grouping.
class UiFormat
{
public:
    static QString metricWord(LatencyMetric metric); // "TTFT", "TPOT", "ITL", "E2EL"
    static QString percentileWord(double percentile); // "P99", "P99.9", "P50"
    static QString ms(double value); // "0.82", "18.7", "211", "12,345"
    static QString throughput(double value); // req/s: "9.87", "146.2", "1,205"
    static QString tokens(double value); // tok/s: whole numbers
    static QString load(double value); // "40", "7.5", "∞"
    static QString loadUnit(LoadMode mode); // "req/s", "users"
    // A step's load in words, in the window's language: "40 req/s", "∞ req/s", "1 user", "32 users"
    // (files keep formatLoad's English).
    static QString loadText(LoadMode mode, double load);
    static QString loadText(const StepConfig& step);
    // Items of a list in running text: "a, b, c" ("a、b、c" in Chinese).
    static QString joined(const QStringList& items);
    static QString regionWord(RegionKind kind); // "linear", "knee", "overload", in the window's language
    // Why a step ran, from its run.json "purpose" ("coarse", "floor", "refine", ...), in the window's
    // language; a purpose Kneepoint does not know (an imported run's) comes back as it is.
    static QString purposeWord(const QString& purpose);
    // A run's status, run.json's keyword ("finished", "stopped", "failed", "running", "interrupted"),
    // in the window's language; an unknown one comes back as it is.
    static QString statusWord(const QString& status);
    static QString clock(double seconds); // "00:41", "1:02:10"
    static QString percent(double fraction); // "1.5%", "0.02%"

    // Unknown figures (a foreign file lacked them; see kp::isKnown) read "—" wherever the window shows
    // them: ms(), throughput() and tokens() give it for NaN, count() for kUnknownCount.
    static QString unknown(); // "—"
    static QString count(qint64 value); // "1,015", "—"
    // Failed requests as "12 (1.2%)", "0", or "—" when the file did not say.
    static QString failed(const StepMetrics& metrics);
    // A figure derived from the file's other fields (StepMetrics::derived, by reference key such as
    // "request_throughput") gets the mark; derivedNote() says what it means.
    static QString derivedMark(); // "†"
    static QString derivedNote(); // "† derived from the file's other fields"
    static QString marked(const QString& text, const StepMetrics& metrics, const char* key);
    // Whether any step of these metrics has a derived figure (the note then belongs under the table).
    static bool anyDerived(const StepMetrics& metrics) { return !metrics.derived.empty(); }
};

} // namespace kp::ui
