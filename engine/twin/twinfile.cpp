#include "twin/twin.h"

#include "metrics/boundedread.h"
#include "metrics/filewrite.h"
#include "metrics/jsonvalues.h"
#include "sim/simconfig.h"
#include "sim/simparameters.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace kp::twin {

using nlohmann::json;

namespace {

constexpr const char* kFormat = "kneepoint.twin/1";

// The shared helpers (metrics/jsonvalues.h): a figure that is not finite is null in the file.
constexpr json (*number)(double) = &jsonvalues::finiteOrNull<json>;
constexpr json (*optionalNumber)(const std::optional<double>&) = &jsonvalues::finiteOrNull<json>;

QString fromStd(const std::string& s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

std::string toStd(const QString& s)
{
    return s.toStdString();
}

double readNumber(const json& v)
{
    return v.is_number() ? v.get<double>() : kUnknown;
}

} // namespace

QByteArray twinToJson(const Twin& t)
{
    json doc = json::object();
    // The simulator's own keys: kneepoint-sim --config serves these.
    for (const sim::SimParameter& parameter : sim::simParameters()) {
        switch (parameter.type) {
        case sim::SimParameterType::Text:
            doc[parameter.key] = toStd(parameter.getText(t.params));
            break;
        case sim::SimParameterType::Boolean:
            doc[parameter.key] = parameter.get(t.params) != 0;
            break;
        case sim::SimParameterType::Integer:
            doc[parameter.key] = std::llround(parameter.get(t.params));
            break;
        case sim::SimParameterType::Number:
            doc[parameter.key] = parameter.get(t.params);
            break;
        }
    }

    json twin = json::object();
    twin["format"] = kFormat;
    twin["predicted"] = true;
    json runs = json::array();
    for (const QString& r : t.sourceRuns)
        runs.push_back(toStd(r));
    twin["source_runs"] = runs;
    json params = json::object();
    for (const ParameterFit& f : t.parameters) {
        params[toStd(f.key)] = json { { "value", number(f.value) }, { "lo", optionalNumber(f.lo) },
            { "hi", optionalNumber(f.hi) }, { "identified", f.identified }, { "note", toStd(f.note) } };
    }
    twin["parameters"] = params;
    twin["uncertainty_method"] = toStd(t.uncertaintyMethod);
    json unidentified = json::array();
    for (const QString& k : t.unidentified)
        unidentified.push_back(toStd(k));
    twin["unidentified"] = unidentified;
    json steps = json::array();
    for (const StepFitQuality& q : t.steps) {
        steps.push_back(json { { "load_mode", q.mode == LoadMode::Concurrency ? "concurrency" : "rate" },
            { "offered", number(q.offered) },
            { "measured",
                { { "request_throughput", number(q.measuredRps) }, { "p50_ttft_ms", number(q.measuredTtftP50) },
                    { "p99_ttft_ms", number(q.measuredTtftP99) }, { "p50_tpot_ms", number(q.measuredTpotP50) } } },
            { "predicted",
                { { "request_throughput", number(q.predictedRps) }, { "p50_ttft_ms", number(q.predictedTtftP50) },
                    { "p99_ttft_ms", number(q.predictedTtftP99) }, { "p50_tpot_ms", number(q.predictedTpotP50) } } } });
    }
    json disagreements = json::array();
    for (const Sentence& d : t.disagreements)
        disagreements.push_back(toStd(d.english()));
    twin["fit"] = json { { "error", number(t.fitError) }, { "evaluations", t.evaluations }, { "steps", steps },
        { "disagreements", disagreements } };
    json prompts = json::array(), outputs = json::array();
    for (const TwinRequest& r : t.workload) {
        prompts.push_back(r.promptTokens);
        outputs.push_back(r.outputTokens);
    }
    twin["workload"] = json { { "requests_per_step", t.requestsPerStep }, { "burstiness", number(t.burstiness) },
        { "prompt_tokens", prompts }, { "output_tokens", outputs } };
    doc["twin"] = twin;
    return QByteArray::fromStdString(doc.dump(2)) + '\n';
}

TwinRead readTwin(const QByteArray& text, const QString& sourceName)
{
    TwinRead out;
    sim::SimServerOptions options;
    if (const QString error = sim::applySimConfig(text, sourceName, options); !error.isEmpty()) {
        out.error = error;
        return out;
    }
    const json doc = json::parse(text.constBegin(), text.constEnd(), nullptr, false);
    const auto twinIt = doc.find("twin");
    if (twinIt == doc.end() || !twinIt->is_object()) {
        out.error = QStringLiteral("%1: not a twin file: it has no \"twin\" object (kneepoint-cli twin fit writes one)")
                        .arg(sourceName);
        return out;
    }
    const json& t = *twinIt;
    if (t.value("format", std::string()) != kFormat) {
        out.error = QStringLiteral("%1: field 'twin.format': expected \"%2\", got %3")
                        .arg(sourceName, QString::fromLatin1(kFormat),
                            fromStd(t.contains("format") ? t["format"].dump() : std::string("nothing")));
        return out;
    }
    Twin twin;
    twin.params = options.params;
    try {
        for (const json& r : t.value("source_runs", json::array()))
            twin.sourceRuns.append(fromStd(r.get<std::string>()));
        const json parameters = t.value("parameters", json::object());
        for (const auto& [key, f] : parameters.items()) {
            ParameterFit pf;
            pf.key = fromStd(key);
            pf.value = readNumber(f.value("value", json()));
            if (f.contains("lo") && f["lo"].is_number())
                pf.lo = f["lo"].get<double>();
            if (f.contains("hi") && f["hi"].is_number())
                pf.hi = f["hi"].get<double>();
            pf.identified = f.value("identified", true);
            pf.note = fromStd(f.value("note", std::string()));
            twin.parameters.push_back(pf);
        }
        twin.uncertaintyMethod = fromStd(t.value("uncertainty_method", std::string()));
        for (const json& k : t.value("unidentified", json::array()))
            twin.unidentified.append(fromStd(k.get<std::string>()));
        const json fit = t.value("fit", json::object());
        twin.fitError = readNumber(fit.value("error", json()));
        twin.evaluations = fit.value("evaluations", 0);
        for (const json& d : fit.value("disagreements", json::array())) {
            if (d.is_string())
                twin.disagreements.append(Sentence::plain(fromStd(d.get<std::string>())));
        }
        for (const json& s : fit.value("steps", json::array())) {
            StepFitQuality q;
            q.mode = s.value("load_mode", std::string()) == "concurrency" ? LoadMode::Concurrency : LoadMode::Rate;
            q.offered = readNumber(s.value("offered", json()));
            const json m = s.value("measured", json::object()), pr = s.value("predicted", json::object());
            q.measuredRps = readNumber(m.value("request_throughput", json()));
            q.measuredTtftP50 = readNumber(m.value("p50_ttft_ms", json()));
            q.measuredTtftP99 = readNumber(m.value("p99_ttft_ms", json()));
            q.measuredTpotP50 = readNumber(m.value("p50_tpot_ms", json()));
            q.predictedRps = readNumber(pr.value("request_throughput", json()));
            q.predictedTtftP50 = readNumber(pr.value("p50_ttft_ms", json()));
            q.predictedTtftP99 = readNumber(pr.value("p99_ttft_ms", json()));
            q.predictedTpotP50 = readNumber(pr.value("p50_tpot_ms", json()));
            twin.steps.push_back(q);
        }
        const json w = t.value("workload", json::object());
        twin.requestsPerStep = std::max(1, w.value("requests_per_step", 200));
        twin.burstiness = w.contains("burstiness") && w["burstiness"].is_number() ? w["burstiness"].get<double>() : 1.0;
        const json prompts = w.value("prompt_tokens", json::array()), outputs = w.value("output_tokens", json::array());
        if (prompts.size() != outputs.size()) {
            out.error = QStringLiteral("%1: field 'twin.workload': prompt_tokens has %2 entries, output_tokens %3")
                            .arg(sourceName)
                            .arg(prompts.size())
                            .arg(outputs.size());
            return out;
        }
        for (std::size_t i = 0; i < prompts.size(); ++i) {
            const int prompt = prompts[i].get<int>(), output = outputs[i].get<int>();
            if (prompt < 1 || output < 1) {
                out.error = QStringLiteral("%1: field 'twin.workload': entry %2 has a length below 1 token")
                                .arg(sourceName)
                                .arg(i);
                return out;
            }
            twin.workload.push_back(TwinRequest { prompt, output, -1 });
        }
    } catch (const json::exception& e) {
        out.error = QStringLiteral("%1: field 'twin': %2").arg(sourceName, fromStd(e.what()));
        return out;
    }
    out.twin = std::move(twin);
    return out;
}

TwinRead readTwinFile(const QString& path)
{
    TwinRead out;
    QString error;
    const std::optional<QByteArray> data = readBoundedFile(path, kMaxSettingsFileBytes, &error);
    if (!data) {
        out.error = error;
        return out;
    }
    return readTwin(*data, path);
}

bool writeTwinFile(const Twin& twin, const QString& path, QString* error)
{
    return writeFileAtomically(path, twinToJson(twin), error);
}

} // namespace kp::twin
