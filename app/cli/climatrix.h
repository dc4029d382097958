#pragma once

#include <QStringList>

namespace kp::cli {

// `sweep` with more than one --target or --model: a matrix of sweeps.
bool isMatrix(const QStringList& arguments);
// Runs each combination (targets × models) in turn into --out DIR/NN-TARGET-MODEL, writes
// DIR/matrix.json and prints the knees and SLO capacities side by side.
int runMatrix(const QStringList& arguments);

} // namespace kp::cli
