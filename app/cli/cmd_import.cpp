// kneepoint-cli import PATH...: other tools' result files as a saved run.
#include "cli.h"
#include "cliverbs.h"

#include "runs/importers.h"
#include "runs/runcatalog.h"

#include <QCommandLineParser>

namespace kp::cli {

namespace {

const char* const kImportUsage
    = R"(Usage: kneepoint-cli import PATH... [--format auto|vllm|sglang|guidellm|aiperf] [--name NAME]
                            [--data-dir DIR]

Turns result files of other tools into a saved run that Kneepoint opens, analyses and compares like
its own:
  vllm      vLLM's serving benchmark (benchmark_serving.py, "vllm bench serve"): one JSON file per
            rate or concurrency, any file names, older key spellings included; with
            --save-detailed, the per-request lists become per-request records
  sglang    SGLang's bench_serving JSON Lines (one object per line)
  guidellm  GuideLLM's benchmarks report (JSON with a "benchmarks" array)
  aiperf    AIPerf's profile_export_aiperf.json and GenAI-Perf's profile_export_genai_perf.json
            (one step each: figures as objects {"unit", "avg", "p50", ...}, the load from
            input_config); AIPerf's CSV export states no load and is refused on its own
A PATH is a file or a folder, read with its subfolders (*.json, *.jsonl and AIPerf's *.csv; a CSV
next to a JSON export of the same name is the same run and is skipped, other CSV files are left
out; other JSON is left out with a warning). A `vllm bench sweep` folder gives each setting's
run=N.json files as repeats of one load (its summary.json repeats them and is skipped; warm-ups
and *.failure.json are left out).
--format auto (the default) tells the tools apart by the keys each writes. Steps are ordered by
offered load. Steps that measured different things (tool, model, backend, endpoint type, or
--metadata keys and sweep parameters such as framework=sgl or max_num_seqs=64) become separate
runs, one per curve, named after what tells them apart. A figure a file lacks stays unknown (null
in the step file, "—" on screen); one the file's own fields give (request_throughput =
completed / duration, failed = num_prompts - completed, ...) is marked derived. The runs are
written under the runs directory (or --data-dir), all at once: a file named on the command line
that cannot be read leaves nothing behind, and the error names the file and the key or line; one
found in a folder is listed as refused, with the reason, and the folder's other files are imported.)";

} // namespace

int runImport(const QStringList& arguments)
{
    QCommandLineParser p;
    const QCommandLineOption format(QStringLiteral("format"),
        QStringLiteral("auto | vllm | sglang | guidellm | aiperf (default auto)."), QStringLiteral("FORMAT"));
    const QCommandLineOption name(QStringLiteral("name"),
        QStringLiteral("The run's name (default: the files' label, else the folder or file name)."),
        QStringLiteral("NAME"));
    const QCommandLineOption dataDir(
        QStringLiteral("data-dir"), QStringLiteral("Runs directory."), QStringLiteral("DIR"));
    p.addOptions({ format, name, dataDir });
    p.addPositionalArgument(
        QStringLiteral("PATH"), QStringLiteral("Result files or folders."), QStringLiteral("PATH..."));
    if (const std::optional<int> exit = parseVerbOptions(p, arguments, kImportUsage))
        return *exit;
    ImportOptions options;
    if (p.isSet(format)) {
        const auto f = importFormatFromName(p.value(format));
        if (!f) {
            say(QStringLiteral("error: --format: unknown format \"%1\" (auto, vllm, sglang, guidellm, aiperf)")
                    .arg(p.value(format)));
            return ExitBadInput;
        }
        options.format = *f;
    }
    options.name = p.value(name);
    if (p.positionalArguments().isEmpty()) {
        say(QStringLiteral("error: import needs result files or folders: kneepoint-cli import PATH... [--format "
                           "auto|vllm|sglang|guidellm|aiperf]"));
        return ExitBadInput;
    }
    const QString root = p.isSet(dataDir) ? p.value(dataDir) : defaultRunsDirectory();
    const ImportResult result = importRun(p.positionalArguments(), root, options);
    for (const QString& w : result.warnings)
        say(QStringLiteral("warning: %1").arg(w));
    if (!result.ok()) {
        say(QStringLiteral("error: %1").arg(result.error));
        return ExitBadInput;
    }
    for (const QString& r : result.refused)
        say(QStringLiteral("refused: %1").arg(r));
    const QString tools = result.sources.size() > 1
        ? QStringLiteral("steps of %1").arg(result.sources.join(QStringLiteral(", ")))
        : QStringLiteral("%1 steps").arg(result.source);
    say(QStringLiteral("imported %1 %2%3%4")
            .arg(result.stepCount)
            .arg(tools)
            .arg(result.requestCount > 0 ? QStringLiteral(" with %1 per-request records").arg(result.requestCount)
                                         : QString())
            .arg(result.dirs.size() > 1 ? QStringLiteral(" as %1 runs: the files measured different things (%2)")
                                              .arg(result.dirs.size())
                                              .arg(result.difference)
                                        : QString()));
    for (qsizetype i = 0; i < result.dirs.size(); ++i)
        writeOut(QStringLiteral("%1\t%2\n").arg(result.ids[i], result.dirs[i]).toUtf8());
    if (result.dirs.size() > 1)
        say(QStringLiteral("compare them: kneepoint-cli compare %1").arg(result.ids.join(QLatin1Char(' '))));
    return ExitOk;
}

} // namespace kp::cli
