#pragma once

#include "metrics/phrase.h"
#include "metrics/stepmetrics.h"

#include <QString>

namespace kp {

enum class SloLimit;

// The vocabulary the analysis words its findings with. Numbers never look at the locale; the words
// around them are phrases (metrics/phrase.h), so a finding kept as a Sentence reads in any language.
namespace words {

// Three significant digits or so, without trailing zeros ("9.87", "46.3", "157"); "inf", "nan".
QString number(double value);
QString latency(double ms); // "812 ms", "1.2 s"
QString ratio(double ratio); // "2.5×", "12×"
QString percent(double fraction); // "4.2%"; "—" for a ratio that has no value (0 / 0)
QString wholePercent(double fraction); // "4%"; "—" likewise
QString throughput(double rps); // "46.3 req/s"
QString power(double watts); // "850 W", "1.3 kW", "2.4 MW"
QString metric(LatencyMetric metric, double percentile); // "P99 TTFT"
// "60 req/s", "46.3 req/s", "1 user", "32 users".
Sentence load(double load, bool concurrencyMode);
// "P99 TTFT", "the error rate": the quantity an SLO limit bounds.
Sentence sloName(SloLimit limit, double percentile);
QString sloValue(SloLimit limit, double value); // a latency, or a percentage for the error rate
// The end of a sentence assembled from several phrases.
Sentence fullStop();

} // namespace words

// "60 req/s", "46.3 req/s", "32 users": a load as the text writes it, in the current language.
QString loadWord(double load, bool concurrencyMode);

} // namespace kp
