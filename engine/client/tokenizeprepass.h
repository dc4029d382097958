#pragma once

#include "client/networkclient.h"
#include "client/probe.h"
#include "client/requestbuilder.h"
#include "dataset/dataset.h"

#include <QObject>
#include <QString>
#include <QTimer>
#include <QUrl>

#include <map>
#include <optional>
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;

namespace kp {

struct TokenizeOutcome
{
    bool available = false; // the server answered /tokenize: every prompt now carries its count
    int counted = 0; // distinct prompt texts counted
    qint64 datasetTokens = 0; // the prompts' counts before, summed over the list
    qint64 serverTokens = 0; // and after
    int retries = 0; // requests sent again after a transient failure
    QString message; // what happened, for a note: why /tokenize was not used, or how far the counts moved
};

// What the pre-pass says when it is not run because the prompts are made as each request is sent
// (fresh synthetic prompts): /tokenize could only count texts that will not be sent.
TokenizeOutcome promptsMadePerRequestOutcome();

// The server's tokenizer endpoint for a request URL: vLLM serves POST /tokenize at its root, so a base
// path ending in /v1 (and the endpoint path) is dropped: http://h:8000/v1/chat/completions →
// http://h:8000/tokenize.
QUrl tokenizeUrl(const QUrl& requestUrl);

// Before a run: POSTs each distinct prompt text ({"model", "prompt"}, vLLM's shape: the prompt alone,
// without a chat template, as the reference counts input tokens) to the server's /tokenize, a few at a
// time, through the target's network client (proxy, TLS, headers), and replaces promptTokens with the
// returned "count". A transient failure (HTTP 500, 502, 503, 504, 429, a cut connection: the preflight's
// isTransientFailure) is tried again as the preflight does, up to retry.maxTries in all, after
// retryDelayS (the server's Retry-After when it sent one), while the pre-pass's time lasts. Any other
// failure (404, 405, connection refused, no "count"), or one that outlasts its tries, means the counts
// cannot be had: the prompts stay as they were and available is false. Lives in the thread that starts
// it; the prompts must outlive the pre-pass.
class TokenizePrepass : public QObject
{
    Q_OBJECT
public:
    explicit TokenizePrepass(QObject* parent = nullptr);
    ~TokenizePrepass() override;

    // Of retry, maxTries, firstBackoffS and maxRetryAfterS are used; timeoutMs bounds the whole pre-pass.
    void start(const RequestTemplate& request, const TransportOptions& transport, std::vector<Prompt>* prompts,
        int timeoutMs = 15000, const ProbeOptions& retry = ProbeOptions());
    // Aborts what is in flight; finished is not emitted and the prompts stay as they were.
    void cancel();
    bool isRunning() const { return m_prompts != nullptr; }

Q_SIGNALS:
    void finished(const kp::TokenizeOutcome& outcome);

private:
    void sendMore();
    void send(std::size_t index);
    void onReply(QNetworkReply* reply, std::size_t index);
    void finish();

    QNetworkAccessManager* m_nam = nullptr;
    RequestTemplate m_request;
    std::optional<NetworkClient> m_client;
    QUrl m_url;
    std::vector<Prompt>* m_prompts = nullptr;
    std::map<QString, int> m_counts; // distinct texts, each counted once
    std::vector<const QString*> m_pending;
    std::vector<int> m_tries; // per pending text: tries sent so far
    std::size_t m_next = 0;
    int m_inFlight = 0; // sent and not answered, or waiting to be sent again
    int m_retries = 0;
    QString m_lastRetryReason;
    ProbeOptions m_retry;
    quint64 m_generation = 0; // a retry timer of an earlier start or a cancelled one finds it changed
    bool m_answered = false; // one good answer: the endpoint exists
    QString m_failure;
    QString m_notCounted; // why these prompts are not counted beforehand
    int m_timeoutMs = 0;
    QTimer m_deadline;
};

// The pre-pass in a local event loop, for a caller that has nothing else to do meanwhile (the CLI's
// main thread before the run, tests).
TokenizeOutcome tokenizePrompts(const RequestTemplate& request, std::vector<Prompt>& prompts,
    const TransportOptions& transport = {}, int timeoutMs = 15000, const ProbeOptions& retry = ProbeOptions());

} // namespace kp
