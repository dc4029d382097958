#pragma once

#include "client/networkclient.h"
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
    QString message; // what happened, for a note: why /tokenize was not used, or how far the counts moved
};

// The server's tokenizer endpoint for a request URL: vLLM serves POST /tokenize at its root, so a base
// path ending in /v1 (and the endpoint path) is dropped: http://h:8000/v1/chat/completions →
// http://h:8000/tokenize.
QUrl tokenizeUrl(const QUrl& requestUrl);

// Before a run: POSTs each distinct prompt text ({"model", "prompt"}, vLLM's shape: the prompt alone,
// without a chat template, as the reference counts input tokens) to the server's /tokenize, a few at a
// time, through the target's network client (proxy, TLS, headers), and replaces promptTokens with the
// returned "count". Any failure of the first answer (404, 405, connection refused, no "count") means the
// server has none: the prompts stay as they were and available is false. Lives in the thread that
// starts it; the prompts must outlive the pre-pass.
class TokenizePrepass : public QObject
{
    Q_OBJECT
public:
    explicit TokenizePrepass(QObject* parent = nullptr);
    ~TokenizePrepass() override;

    void start(const RequestTemplate& request, const TransportOptions& transport, std::vector<Prompt>* prompts,
        int timeoutMs = 15000);
    // Aborts what is in flight; finished is not emitted and the prompts stay as they were.
    void cancel();
    bool isRunning() const { return m_prompts != nullptr; }

Q_SIGNALS:
    void finished(const kp::TokenizeOutcome& outcome);

private:
    void sendMore();
    void onReply(QNetworkReply* reply, const QString* text);
    void finish();

    QNetworkAccessManager* m_nam = nullptr;
    RequestTemplate m_request;
    std::optional<NetworkClient> m_client;
    QUrl m_url;
    std::vector<Prompt>* m_prompts = nullptr;
    std::map<QString, int> m_counts; // distinct texts, each counted once
    std::vector<const QString*> m_pending;
    std::size_t m_next = 0;
    int m_inFlight = 0;
    bool m_answered = false; // one good answer: the endpoint exists
    QString m_failure;
    int m_timeoutMs = 0;
    QTimer m_deadline;
};

// The pre-pass in a local event loop, for a caller that has nothing else to do meanwhile (the CLI's
// main thread before the run, tests).
TokenizeOutcome tokenizePrompts(const RequestTemplate& request, std::vector<Prompt>& prompts,
    const TransportOptions& transport = {}, int timeoutMs = 15000);

} // namespace kp
