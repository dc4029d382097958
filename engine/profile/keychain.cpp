#include "profile/keychain.h"

#include <QCoreApplication>
#include <QDBusConnection>
#include <QEventLoop>
#include <QThread>
#include <QTimer>
#include <qt6keychain/keychain.h>

#include <functional>

using namespace Qt::StringLiterals;

namespace kp {

namespace {

const QString serviceName = u"Kneepoint"_s;

QString fallbackAdvice()
{
    return u"; use ${VAR} or file:PATH instead"_s;
}

QString noService(const QString& entry)
{
    return u"keychain entry %1: no keychain service is running (the Secret Service / KWallet over D-Bus)"_s.arg(entry)
        + fallbackAdvice();
}

QString describeError(const QString& entry, QKeychain::Error code, const QString& detail)
{
    // Without a D-Bus session bus QtKeychain reports only the connection failure.
    if (code != QKeychain::EntryNotFound && !QDBusConnection::sessionBus().isConnected())
        return noService(entry);
    const QString head = u"keychain entry %1: "_s.arg(entry);
    switch (code) {
    case QKeychain::EntryNotFound:
        return head + u"no such entry"_s;
    case QKeychain::NoBackendAvailable:
        return noService(entry);
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
        return head + u"the keychain refused access (%1)"_s.arg(detail) + fallbackAdvice();
    default:
        return head + u"the keychain failed (%1)"_s.arg(detail) + fallbackAdvice();
    }
}

// Runs the job in a local event loop until it finishes or the time is up. QtKeychain queues its
// jobs on an object living in the thread of the first job: jobs are run in the application's thread
// (a worker thread may end), while this thread waits in its own event loop.
KeychainResult runJob(QKeychain::Job* job, const QString& entry, int timeoutMs,
    const std::function<void(QKeychain::Job*)>& onSuccess = {})
{
    KeychainResult r;
    job->setAutoDelete(false);
    const QCoreApplication* app = QCoreApplication::instance();
    const bool hosted = app && QThread::currentThread() != app->thread();
    if (hosted)
        job->moveToThread(app->thread());
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    bool finished = false;
    QObject::connect(job, &QKeychain::Job::finished, &loop, [&] {
        finished = true;
        loop.quit();
    });
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    timer.start(timeoutMs);
    if (hosted)
        QMetaObject::invokeMethod(job, &QKeychain::Job::start, Qt::QueuedConnection);
    else
        job->start();
    if (!finished)
        loop.exec();
    if (!finished) {
        r.error = u"keychain entry %1: the keychain did not answer within %2 s (locked, waiting for its password?)"_s
                      .arg(entry)
                      .arg(timeoutMs / 1000.0)
            + fallbackAdvice();
        // The job may still finish later: nothing here listens any more, and it deletes itself then.
        QObject::disconnect(job, &QKeychain::Job::finished, &loop, nullptr);
        job->setAutoDelete(true);
        return r;
    }
    if (job->error() != QKeychain::NoError)
        r.error = describeError(entry, job->error(), job->errorString());
    else if (onSuccess)
        onSuccess(job);
    if (hosted)
        job->deleteLater();
    else
        delete job;
    return r;
}

} // namespace

bool isKeychainReference(const QString& apiKey)
{
    return apiKey.startsWith(keychainPrefix);
}

QString keychainEntryName(const QString& apiKey)
{
    return isKeychainReference(apiKey) ? apiKey.mid(keychainPrefix.size()).trimmed() : QString();
}

QString keychainReference(const QString& entry)
{
    return keychainPrefix.toString() + entry.trimmed();
}

KeychainResult readKeychainSecret(const QString& entry, int timeoutMs)
{
    auto* job = new QKeychain::ReadPasswordJob(serviceName);
    job->setKey(entry);
    QString secret;
    KeychainResult r = runJob(job, entry, timeoutMs,
        [&secret](QKeychain::Job* j) { secret = static_cast<QKeychain::ReadPasswordJob*>(j)->textData(); });
    r.secret = secret;
    return r;
}

KeychainResult writeKeychainSecret(const QString& entry, const QString& secret, int timeoutMs)
{
    auto* job = new QKeychain::WritePasswordJob(serviceName);
    job->setKey(entry);
    job->setTextData(secret);
    return runJob(job, entry, timeoutMs);
}

} // namespace kp
