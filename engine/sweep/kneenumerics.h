#pragma once

#include <cstddef>
#include <optional>
#include <vector>

// The numerical methods the knee analysis rests on, free of any notion of steps or words.
namespace kp::knee {

// Least-squares non-decreasing fit (pool adjacent violators).
std::vector<double> isotonicFit(const std::vector<double>& values);

// Kneedle (Satopää, Albrecht, Irwin, Raghavan: "Finding a 'Kneedle' in a Haystack", ICDCS workshops
// 2011) on an increasing curve, x ascending: the index of the knee, or none when no point stands out by
// the method's threshold. Convex curves (latency) bend upwards, concave ones (throughput) flatten.
std::optional<std::size_t> kneedle(
    const std::vector<double>& x, const std::vector<double>& y, bool convex, double sensitivity);

// The point of maximum curvature alone (the global maximum of Kneedle's difference curve), without
// Kneedle's test of whether it stands out; none when the curve never leaves its chord on that side.
std::optional<std::size_t> furthestFromChord(const std::vector<double>& x, const std::vector<double>& y, bool convex);

} // namespace kp::knee
