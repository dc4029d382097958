#include "sim/filelimit.h"
#include "sim/simconfig.h"
#include "sim/simparameters.h"
#include "sim/simserver.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>

namespace {

int fail(const QString& message)
{
    std::fprintf(stderr, "kneepoint-sim: %s\n", qUtf8Printable(message));
    return 2;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("kneepoint-sim"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KNEEPOINT_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("A simulated OpenAI-compatible LLM server that behaves like vLLM under load.\n"
                       "All times it reports (ground truth, /metrics) are simulated.\n\nPresets:\n%1Faults:\n%2")
            .arg(kp::sim::simPresetsHelp(), kp::sim::simFaultsHelp()));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption host(QStringLiteral("host"), QStringLiteral("Address to listen on (default 127.0.0.1)."),
        QStringLiteral("ADDRESS"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption port(QStringLiteral("port"), QStringLiteral("Port; 0 picks a free one (default 8000)."),
        QStringLiteral("N"), QStringLiteral("8000"));
    const QCommandLineOption preset(QStringLiteral("preset"), QStringLiteral("Model preset (default 'default')."),
        QStringLiteral("NAME"), QStringLiteral("default"));
    const QCommandLineOption config(QStringLiteral("config"),
        QStringLiteral("JSON file of settings applied over the preset (see docs/SIMULATOR.md)."),
        QStringLiteral("FILE"));
    const QCommandLineOption model(QStringLiteral("model"), QStringLiteral("Served model id."), QStringLiteral("ID"));
    const QCommandLineOption loraModules(QStringLiteral("lora-modules"),
        QStringLiteral("LoRA adapter names served beside the model, comma-separated (requests may name them)."),
        QStringLiteral("NAME,..."));
    const QCommandLineOption apiKey(QStringLiteral("api-key"),
        QStringLiteral("Require 'Authorization: Bearer KEY' on /v1 paths."), QStringLiteral("KEY"));
    const QCommandLineOption timeScale(QStringLiteral("time-scale"),
        QStringLiteral("Run the simulated clock F times faster than the wall clock (default 1)."), QStringLiteral("F"));
    const QCommandLineOption seed(QStringLiteral("seed"),
        QStringLiteral("Seed of output lengths and fault draws (default 0)."), QStringLiteral("N"));
    const QCommandLineOption fault(QStringLiteral("fault"),
        QStringLiteral("Inject a fault into RATE (0..1) of generation requests; repeatable."),
        QStringLiteral("KIND:RATE[:SECONDS]"));
    const QCommandLineOption prefixCache(QStringLiteral("prefix-cache"),
        QStringLiteral("Automatic prefix caching, 'on' or 'off' (default on)."), QStringLiteral("on|off"));
    const QCommandLineOption gpus(QStringLiteral("gpus"),
        QStringLiteral("Also serve dcgm-exporter's GPU metrics for N simulated GPUs (default 0: none)."),
        QStringLiteral("N"));
    const QCommandLineOption reasoningTokens(QStringLiteral("reasoning-tokens"),
        QStringLiteral("Answer chat completions as a reasoning model: N reasoning tokens (delta.reasoning_content) "
                       "before each answer, or N~M drawn per request with the seed (default: none)."),
        QStringLiteral("N|N~M"));
    parser.addOptions({ host, port, preset, config, model, loraModules, apiKey, timeScale, seed, fault, prefixCache,
        gpus, reasoningTokens });
    // The model's numeric parameters that have a flag (simparameters.cpp): over the preset and --config,
    // so that a server sweep varies them as it would vLLM's (--max-num-seqs {max_num_seqs}).
    std::vector<std::pair<const kp::sim::SimParameter*, QCommandLineOption>> parameterOptions;
    for (const kp::sim::SimParameter& p : kp::sim::simParameters()) {
        if (!p.flag || !p.isNumeric())
            continue;
        parameterOptions.push_back({ &p,
            QCommandLineOption(QString::fromLatin1(p.flag),
                QStringLiteral("%1 (%2).").arg(QString::fromUtf8(p.help), kp::sim::simParameterRange(p)),
                QStringLiteral("N")) });
        parser.addOption(parameterOptions.back().second);
    }

    if (!parser.parse(QCoreApplication::arguments()))
        return fail(parser.errorText());
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();
    if (!parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().constFirst()));

    kp::sim::SimServerOptions options;
    const std::optional<kp::sim::SimPreset> chosen = kp::sim::presetByName(parser.value(preset));
    if (!chosen)
        return fail(QStringLiteral("--preset: unknown preset '%1' (see --help)").arg(parser.value(preset)));
    options.params = chosen->params;
    if (parser.isSet(config)) {
        if (const QString error = kp::sim::applySimConfigFile(parser.value(config), options); !error.isEmpty())
            return fail(error);
    }
    if (parser.isSet(model))
        options.params.modelId = parser.value(model);
    if (parser.isSet(loraModules)) {
        for (const QString& name : parser.value(loraModules).split(u',', Qt::SkipEmptyParts))
            options.params.loraModules << name.trimmed();
    }
    if (parser.isSet(apiKey))
        options.apiKey = parser.value(apiKey);
    bool ok = true;
    if (parser.isSet(timeScale)) {
        options.timeScale = parser.value(timeScale).toDouble(&ok);
        if (!ok || !(options.timeScale > 0 && options.timeScale <= 1e6))
            return fail(QStringLiteral("--time-scale: '%1' is not a number above 0").arg(parser.value(timeScale)));
    }
    if (parser.isSet(seed)) {
        options.seed = parser.value(seed).toULongLong(&ok);
        if (!ok)
            return fail(QStringLiteral("--seed: '%1' is not a non-negative integer").arg(parser.value(seed)));
    }
    if (parser.isSet(gpus)) {
        options.gpus = parser.value(gpus).toInt(&ok);
        if (!ok || options.gpus < 0 || options.gpus > 64)
            return fail(QStringLiteral("--gpus: '%1' is not a whole number from 0 to 64").arg(parser.value(gpus)));
    }
    if (parser.isSet(reasoningTokens)) {
        if (const QString error = kp::sim::parseSimReasoning(parser.value(reasoningTokens), options.reasoning);
            !error.isEmpty())
            return fail(QStringLiteral("--reasoning-tokens: %1").arg(error));
    }
    if (parser.isSet(prefixCache)) {
        const QString value = parser.value(prefixCache);
        if (value != QLatin1String("on") && value != QLatin1String("off"))
            return fail(QStringLiteral("--prefix-cache: '%1' is neither 'on' nor 'off'").arg(value));
        options.params.prefixCache = value == QLatin1String("on");
    }
    for (const QString& spec : parser.values(fault)) {
        if (const QString error = kp::sim::applyFaultSpec(spec, options.faults); !error.isEmpty())
            return fail(QStringLiteral("--fault: %1").arg(error));
    }
    for (const auto& [p, option] : parameterOptions) {
        if (!parser.isSet(option))
            continue;
        const double value = parser.value(option).toDouble(&ok);
        const QString problem = ok ? kp::sim::simParameterValueError(*p, value) : QStringLiteral("not a number");
        if (!problem.isEmpty())
            return fail(QStringLiteral("--%1: '%2': %3").arg(QLatin1String(p->flag), parser.value(option), problem));
        p->set(options.params, value);
    }
    if (const QString error = kp::sim::validateSimParams(options.params); !error.isEmpty())
        return fail(error);
    const QString hostText = parser.value(host);
    const QHostAddress address
        = hostText == QLatin1String("localhost") ? QHostAddress(QHostAddress::LocalHost) : QHostAddress(hostText);
    if (address.isNull())
        return fail(QStringLiteral("--host: '%1' is not an IP address").arg(hostText));
    const uint portNumber = parser.value(port).toUInt(&ok);
    if (!ok || portNumber > 65535)
        return fail(QStringLiteral("--port: '%1' is not a port number").arg(parser.value(port)));

    kp::sim::raiseFileLimit();
    kp::sim::SimServer server(options);
    if (!server.listen(address, quint16(portNumber))) {
        std::fprintf(stderr, "kneepoint-sim: %s\n", qUtf8Printable(server.errorString()));
        return 1;
    }
    std::printf("listening on %s\n", qUtf8Printable(server.baseUrl().toString()));
    const QString reasoningText = !options.reasoning.isEnabled() ? QStringLiteral("none")
        : options.reasoning.min == options.reasoning.max
        ? QString::number(options.reasoning.max)
        : QStringLiteral("%1~%2").arg(options.reasoning.min).arg(options.reasoning.max);
    std::printf("model %s, time scale %g, seed %llu, prefix cache %s, GPUs %d, reasoning tokens %s, faults %s\n",
        qUtf8Printable(options.params.modelId), options.timeScale, static_cast<unsigned long long>(options.seed),
        options.params.prefixCache ? "on" : "off", options.gpus, qUtf8Printable(reasoningText),
        options.faults.isEmpty() ? "none" : qUtf8Printable(options.faults.toSpecs().join(QLatin1Char(' '))));
    std::fflush(stdout);
    return QCoreApplication::exec();
}
