#pragma once

#include "client/requestbuilder.h"
#include "dataset/dataset.h"

#include <QString>
#include <QUrl>

#include <vector>

namespace kp {

struct TokenizeOutcome
{
    bool available = false; // the server answered /tokenize: every prompt now carries its count
    int counted = 0; // distinct prompt texts counted
    qint64 datasetTokens = 0; // the prompts' counts before, summed over the list
    qint64 serverTokens = 0; // and after
    QString message; // what happened, for a note: why /tokenize was not used, or how far the counts moved
};

// The server's tokenizer endpoint for a request URL: vLLM serves POST /tokenize at its root, so a base
// path ending in /v1 (and the endpoint path) is dropped: http://h:8000/v1/chat/completions →
// http://h:8000/tokenize.
QUrl tokenizeUrl(const QUrl& requestUrl);

// Before a run: POSTs each distinct prompt text ({"model", "prompt"}, vLLM's shape: the prompt alone,
// without a chat template, as the reference counts input tokens) to the server's /tokenize, a few at a time, and
// replaces promptTokens with the returned "count". Any failure of the first answer (404, 405, connection refused, no
// "count") means the server has none: the prompts stay as they were and available is false. Blocks in a local event
// loop (call it from a thread with no other duty, as the CLI's main thread before the run).
TokenizeOutcome tokenizePrompts(const RequestTemplate& request, std::vector<Prompt>& prompts, int timeoutMs = 15000);

} // namespace kp
