#include "charts/prefixcachechart.h"

#include "kit/chartstyle.h"
#include "sweep/serveranalysis.h"

namespace kp::ui {

namespace {

std::optional<double> percent(std::optional<double> rate)
{
    return rate ? std::optional<double>(*rate * 100.0) : std::nullopt;
}

} // namespace

PrefixCacheChart::PrefixCacheChart(const LiveRun* run, QWidget* parent)
    : StepFigureChart(run, spec(), parent)
{ }

StepFigureChart::Spec PrefixCacheChart::spec()
{
    Spec s;
    s.title = tr("Prefix-cache hit rate");
    s.first = { tr("server"), [](const StepReport& r) { return percent(serverHitRate(r.server.stats)); },
        ChartStyle::p50(), 2.5, Qt::SolidLine };
    s.second = { tr("client (cached tokens)"), [](const StepReport& r) { return percent(clientHitRate(r.metrics)); },
        ChartStyle::p99(), 2.0, Qt::DashLine };
    s.waitingText = tr("The prefix-cache hit rate against the offered load, as steps finish.");
    s.noFiguresText = tr("No prefix-cache figures: the server reported no cached tokens.");
    return s;
}

} // namespace kp::ui
