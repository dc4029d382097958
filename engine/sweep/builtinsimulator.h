#pragma once

#include "profile/profile.h"
#include "sim/simhost.h"

#include <QString>

namespace kp {

// The simulator a profile targets with base_url "sim://PRESET[?time_scale=F&seed=N]", run in this
// process on a free loopback port for as long as this object lives.
class BuiltinSimulator
{
public:
    // Starts the simulator and points the profile's target at it (base_url, model). On failure error
    // names the URL part that is wrong.
    bool start(Profile& profile, QString* error);
    void stop() { m_host.stop(); }
    bool isRunning() const { return m_host.isRunning(); }
    QString description() const { return m_description; } // "preset default, time scale 1, http://127.0.0.1:PORT"
    sim::SimHost& host() { return m_host; }

private:
    sim::SimHost m_host;
    QString m_description;
};

} // namespace kp
