#include "sweep/builtinsimulator.h"

#include "metrics/phrase.h"
#include "sim/simconfig.h"

#include <QUrlQuery>

namespace kp {

bool BuiltinSimulator::start(Profile& profile, QString* error)
{
    const QUrl url(profile.target.baseUrl);
    const QString presetName = url.host().isEmpty() ? QStringLiteral("default") : url.host();
    const auto preset = sim::presetByName(presetName);
    if (!preset) {
        QStringList names;
        for (const sim::SimPreset& p : sim::presets())
            names << p.name;
        *error = QStringLiteral("target.base_url: no simulator preset \"%1\" in %2 (presets: %3)")
                     .arg(presetName, profile.target.baseUrl, names.join(QStringLiteral(", ")));
        return false;
    }
    sim::SimServerOptions options;
    options.params = preset->params;
    const QUrlQuery query(url);
    if (query.hasQueryItem(QStringLiteral("time_scale"))) {
        bool ok = false;
        options.timeScale = query.queryItemValue(QStringLiteral("time_scale")).toDouble(&ok);
        if (!ok || options.timeScale <= 0) {
            *error
                = QStringLiteral("target.base_url: time_scale must be a number > 0 in %1").arg(profile.target.baseUrl);
            return false;
        }
    }
    if (query.hasQueryItem(QStringLiteral("seed")))
        options.seed = query.queryItemValue(QStringLiteral("seed")).toULongLong();
    if (query.hasQueryItem(QStringLiteral("gpus"))) {
        bool ok = false;
        options.gpus = query.queryItemValue(QStringLiteral("gpus")).toInt(&ok);
        if (!ok || options.gpus < 0 || options.gpus > 64) {
            *error = QStringLiteral("target.base_url: gpus must be a whole number from 0 to 64 in %1")
                         .arg(profile.target.baseUrl);
            return false;
        }
    }
    if (query.hasQueryItem(QStringLiteral("reasoning_tokens"))) {
        const QString value = query.queryItemValue(QStringLiteral("reasoning_tokens"));
        if (const QString problem = sim::parseSimReasoning(value, options.reasoning); !problem.isEmpty()) {
            *error = QStringLiteral("target.base_url: reasoning_tokens %1 in %2").arg(problem, profile.target.baseUrl);
            return false;
        }
    }
    if (!m_host.start(options)) {
        *error = QStringLiteral("the built-in simulator did not start: %1").arg(m_host.errorString());
        return false;
    }
    profile.target.baseUrl = m_host.baseUrl().toString();
    if (profile.target.model.isEmpty())
        profile.target.model = options.params.modelId;
    if (profile.server.engine.isEmpty())
        profile.server.engine = QStringLiteral("kneepoint-sim");
    if (profile.server.engineVersion.isEmpty())
        profile.server.engineVersion = QStringLiteral(KNEEPOINT_VERSION);
    if (!profile.server.notes.contains(QLatin1String("preset")))
        profile.server.notes
            = QStringLiteral("built-in simulator, preset %1, time scale %2").arg(preset->name).arg(options.timeScale);
    m_description = phrase("BuiltinSimulator", "preset %1, time scale %2, %3")
                        .arg(preset->name)
                        .arg(options.timeScale)
                        .arg(m_host.baseUrl().toString());
    return true;
}

} // namespace kp
