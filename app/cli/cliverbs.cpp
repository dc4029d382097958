#include "cliverbs.h"

namespace kp::cli {

// Each command's entry point, defined in app/cli/cmd_<command>.cpp.
int runTargets(const QStringList& arguments);
int runMerge(const QStringList& arguments);
int runRuns(const QStringList& arguments);
int runImport(const QStringList& arguments);
int runCompare(const QStringList& arguments);
int runTwin(const QStringList& arguments);
#ifdef KNEEPOINT_CLI_EXPORT
int runExport(const QStringList& arguments);
#endif

const std::vector<Verb>& extraVerbs()
{
    // One line per command, in the order --help lists them.
    static const std::vector<Verb> verbs = {
        { "targets", "save, list and remove named endpoints that profiles and sweeps refer to", &runTargets },
        { "merge", "combine the run directories of shards (run|sweep --shard I/K) into one run", &runMerge },
        { "runs", "list the saved runs: date, name, target, model, knee, SLO capacity, tags", &runRuns },
        { "import", "turn vLLM, SGLang or GuideLLM result files into a saved run", &runImport },
        { "compare", "compare saved runs: curves, deltas against a baseline, knees, settings", &runCompare },
        { "twin", "fit the server model to a saved run (twin fit) and predict other loads and settings (twin predict)",
            &runTwin },
#ifdef KNEEPOINT_CLI_EXPORT
        { "export", "write a saved run's chart (png, svg, pdf) or report (html, md, pdf, csv, json)", &runExport },
#endif
    };
    return verbs;
}

} // namespace kp::cli
