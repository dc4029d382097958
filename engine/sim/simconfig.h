#pragma once

#include "sim/simserver.h"

#include <QByteArray>
#include <QString>

namespace kp::sim {

// The first SimParams field outside its range in the parameter table (simparameters.h), or a KV cache
// smaller than one block, as "key: what is wrong"; empty when all are fine.
QString validateSimParams(const SimParams& params);

// Applies a JSON configuration onto options. Keys are snake_case like vLLM's flags: "preset" (applied
// first), the model's parameters of simParameters() ("model", "max_num_seqs", "kv_capacity_tokens", ...: each
// typed and range-checked as the table says, a value outside its range refused stating the limit), and the
// server's "api_key", "time_scale", "seed", "faults" (an array of "KIND:RATE[:SECONDS]"), "gpus" (dcgm-exporter
// metrics for that many GPUs). A "twin" object (a fitted twin's provenance, engine/twin) is accepted and not read
// here. Returns an empty string on success, else one line naming the source, the line and the field.
QString applySimConfig(const QByteArray& text, const QString& sourceName, SimServerOptions& options);
QString applySimConfigFile(const QString& path, SimServerOptions& options);

// --reasoning-tokens and the sim:// query's reasoning_tokens: "N" (every chat answer reasons N tokens) or
// "N~M" (from N to M, drawn per request with the seed). Returns an empty string, else what is wrong.
QString parseSimReasoning(const QString& text, SimReasoning& reasoning);

// The presets, one paragraph each, and the fault kinds, for --help.
QString simPresetsHelp();
QString simFaultsHelp();

} // namespace kp::sim
