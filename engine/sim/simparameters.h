#pragma once

#include "sim/simmodel.h"

#include <QString>
#include <QStringList>

#include <span>

namespace kp::sim {

// The simulator's model parameters (SimParams), one row each: the one place that names them, types them
// and bounds them. The JSON configuration reader and validator (simconfig), the twin file's reader and
// writer, the twin's fitted parameters and its adjustments (--set, the window's What-if fields) all go
// through this table, so a parameter has one key and one range everywhere.
enum class SimParameterType { Integer, Number, Boolean, Text };

struct SimParameter
{
    const char* key = nullptr; // the JSON configuration key (kneepoint-sim --config, twin.json) and --set NAME
    const char* flag = nullptr; // kneepoint-sim's command-line option, without the dashes; nullptr: none
    SimParameterType type = SimParameterType::Number;
    double min = 0; // Integer and Number: the range; the limits messages state
    double max = 0;
    bool minExclusive = false; // the value must be above min, not at it
    bool maxExclusive = false; // the value must be below max, not at it
    bool adjustable = false; // a twin may change it (--set, What-if); the others are fixed by the source's workload
    const char* help = nullptr; // one line
    // Integer, Number and Boolean (0 or 1): the value on the struct. The default is SimParams's initializer.
    double (*get)(const SimParams&) = nullptr;
    void (*set)(SimParams&, double) = nullptr; // an integer is set as given: round and range-check first
    // Text only.
    QString (*getText)(const SimParams&) = nullptr;
    void (*setText)(SimParams&, const QString&) = nullptr;

    bool isNumeric() const { return type == SimParameterType::Integer || type == SimParameterType::Number; }
};

// Every parameter, in the order twin --set lists them.
std::span<const SimParameter> simParameters();
// The row for a key; nullptr when the key names no parameter.
const SimParameter* findSimParameter(const QString& key);
// The keys a twin may adjust, in table order.
QStringList adjustableSimParameters();

// A number as messages write it: up to 12 significant digits, an exponent without '+' ("1e15").
QString simNumberText(double value);
// The range in words: "an integer from 1 to 100000", "a number above 0 to 1000000", "a number from 0 to below 1".
QString simParameterRange(const SimParameter& parameter);
// Empty when value is allowed; else what is wrong with it, stating the limit it passes: "1e15 is above the
// limit 1073741824", "0 is below the limit 1", "0 is not above the limit 0", "2.5 is not an
// integer", "nan is not a finite number".
QString simParameterValueError(const SimParameter& parameter, double value);
// The value clamped into the range (integers rounded; an exclusive limit is kept off by `margin`).
double clampToSimParameter(const SimParameter& parameter, double value, double margin);

} // namespace kp::sim
