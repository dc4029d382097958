#pragma once

#include "client/networkclient.h"
#include "client/responseaccumulator.h"
#include "client/transport.h"

#include <QObject>
#include <QTimer>

#include <memory>
#include <unordered_map>
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;

namespace kp {

// Runs requests in its own thread. Everything here is used only from that thread.
class HttpWorker : public QObject
{
    Q_OBJECT
public:
    explicit HttpWorker(const TransportOptions& options, std::shared_ptr<LoopLagMeter> loopLag = {});
    ~HttpWorker() override;

    void start(const HttpRequest& request);
    void cancelAll(const QString& why);

Q_SIGNALS:
    void finished(const kp::RequestRecord& record);

private:
    struct Manager
    {
        QNetworkAccessManager* nam = nullptr;
        int active = 0;
    };
    struct Active
    {
        std::unique_ptr<ResponseAccumulator> accumulator;
        Manager* manager = nullptr;
        qint64 sentNs = 0;
        qint64 connectStartNs = -1; // socket started connecting; -1 once connected or reused
        qint64 lastReadNs = -1;
        qint64 bodyBytes = 0; // the request body's size, for a broken connection's message
        FailureClass abortReason = FailureClass::None;
        QString abortMessage;
        QString tlsErrors; // why the server's certificate was refused (tlsErrorWords)
    };

    Manager* pickManager();
    void onReadyRead(QNetworkReply* reply);
    void onFinished(QNetworkReply* reply);
    void checkDeadlines();
    void abortWith(QNetworkReply* reply, Active& active, FailureClass reason, const QString& message);

    NetworkClient m_client; // the options; makes its managers and requests
    std::shared_ptr<LoopLagMeter> m_loopLag;
    qint64 m_lastTickNs = 0;
    std::vector<std::unique_ptr<Manager>> m_managers;
    std::unordered_map<QNetworkReply*, Active> m_active;
    QTimer m_deadlineTimer;
};

} // namespace kp
