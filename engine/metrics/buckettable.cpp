#include "buckettable.h"

#include <algorithm>

namespace kp {

QString lengthBucketTable(const StepMetrics& m)
{
    if (m.populatedLengthBuckets() == 0)
        return {};
    const double p = m.options.percentiles.empty()
        ? 99.0
        : *std::max_element(m.options.percentiles.begin(), m.options.percentiles.end());
    const QString pLabel = QStringLiteral("p%1 TTFT").arg(QString::number(p, 'g', 6));
    auto number
        = [](double v, int precision, int width) { return QString::number(v, 'f', precision).rightJustified(width); };
    QString out = QStringLiteral("By prompt length (tokens):\n");
    out += QStringLiteral("  %1%2%3%4%5%6%7%8\n")
               .arg(QStringLiteral("bucket").leftJustified(10), QStringLiteral("reqs").rightJustified(6),
                   QStringLiteral("fail").rightJustified(6), QStringLiteral("req/s").rightJustified(7),
                   QStringLiteral("mean TTFT").rightJustified(12), pLabel.rightJustified(11),
                   QStringLiteral("mean TPOT").rightJustified(11), QStringLiteral("mean E2EL").rightJustified(11));
    for (const LengthBucketMetrics& b : m.lengthBuckets) {
        if (b.requests() == 0)
            continue;
        out += QStringLiteral("  %1%2%3%4%5%6%7%8\n")
                   .arg(b.label().leftJustified(10), QString::number(b.requests()).rightJustified(6),
                       QString::number(b.failed).rightJustified(6), number(b.requestThroughput, 2, 7),
                       number(b.ttft.mean, 2, 12), number(b.ttft.percentile(p).value_or(0.0), 2, 11),
                       number(b.tpot.mean, 2, 11), number(b.e2el.mean, 2, 11));
    }
    return out;
}

} // namespace kp
