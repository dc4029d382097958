#include "sweep/kneenumerics.h"

#include <algorithm>

namespace kp::knee {

std::vector<double> isotonicFit(const std::vector<double>& values)
{
    struct Block
    {
        double mean;
        std::size_t count;
    };
    std::vector<Block> blocks;
    for (double value : values) {
        blocks.push_back({ value, 1 });
        while (blocks.size() > 1 && blocks[blocks.size() - 2].mean > blocks.back().mean) {
            const Block last = blocks.back();
            blocks.pop_back();
            Block& previous = blocks.back();
            const std::size_t count = previous.count + last.count;
            previous.mean = (previous.mean * double(previous.count) + last.mean * double(last.count)) / double(count);
            previous.count = count;
        }
    }
    std::vector<double> fit;
    fit.reserve(values.size());
    for (const Block& block : blocks)
        fit.insert(fit.end(), block.count, block.mean);
    return fit;
}

namespace {

std::vector<double> differenceCurve(const std::vector<double>& x, const std::vector<double>& y, bool convex)
{
    const std::size_t n = x.size();
    const auto [low, high] = std::minmax_element(y.begin(), y.end());
    std::vector<double> difference(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double xn = (x[i] - x.front()) / (x.back() - x.front());
        const double yn = (y[i] - *low) / (*high - *low);
        difference[i] = convex ? xn - yn : yn - xn;
    }
    return difference;
}

std::optional<std::size_t> furthestBend(const std::vector<double>& difference)
{
    std::size_t best = 0;
    for (std::size_t i = 1; i < difference.size(); ++i) {
        if (difference[i] > difference[best])
            best = i;
    }
    return difference[best] > 0.0 ? std::optional<std::size_t>(best) : std::nullopt;
}

bool kneedleInput(const std::vector<double>& x, const std::vector<double>& y)
{
    if (x.size() < 3 || y.size() != x.size() || !(x.back() > x.front()))
        return false;
    const auto [low, high] = std::minmax_element(y.begin(), y.end());
    return *high > *low;
}

} // namespace

std::optional<std::size_t> furthestFromChord(const std::vector<double>& x, const std::vector<double>& y, bool convex)
{
    if (!kneedleInput(x, y))
        return std::nullopt;
    return furthestBend(differenceCurve(x, y, convex));
}

std::optional<std::size_t> kneedle(
    const std::vector<double>& x, const std::vector<double>& y, bool convex, double sensitivity)
{
    if (!kneedleInput(x, y))
        return std::nullopt;
    const std::size_t n = x.size();
    // Normalise both axes to [0, 1]; the difference curve measures how far the curve bends away from the
    // straight line between its ends (below it for a convex curve, above it for a concave one).
    const std::vector<double> difference = differenceCurve(x, y, convex);
    // The knee of maximum curvature is the global maximum of the difference curve. Kneedle accepts it
    // when the difference falls below max − S × mean(Δx) after it; the mean step of a normalised x is
    // 1 / (n − 1).
    const std::optional<std::size_t> found = furthestBend(difference);
    if (!found)
        return std::nullopt;
    const std::size_t best = *found;
    const double threshold = difference[best] - sensitivity / double(n - 1);
    for (std::size_t j = best + 1; j < n; ++j) {
        if (difference[j] < threshold)
            return best;
    }
    return std::nullopt;
}

} // namespace kp::knee
