#include "telemetry/environment.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSysInfo>
#include <QThread>
#include <QtGlobal>

namespace kp {

namespace {

// The value of the first "key : value" line of a /proc file whose key is `key`.
QByteArray procValue(const char* path, QByteArrayView key)
{
    QFile file(QString::fromLatin1(path));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    // /proc files report size 0: readAll reads on to the end.
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (const QByteArray& line : lines) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).trimmed() == key)
            return line.mid(colon + 1).trimmed();
    }
    return {};
}

} // namespace

QJsonObject clientEnvironment()
{
    QJsonObject env;
    env.insert(QLatin1String("kneepoint_version"), QLatin1String(KNEEPOINT_VERSION));
    env.insert(QLatin1String("qt_version"), QLatin1String(qVersion()));
    env.insert(QLatin1String("qt_build_version"), QLatin1String(QT_VERSION_STR));
    env.insert(QLatin1String("os"), QSysInfo::prettyProductName());
    env.insert(QLatin1String("kernel"), QSysInfo::kernelVersion());
    env.insert(QLatin1String("cpu_arch"), QSysInfo::currentCpuArchitecture());
    env.insert(QLatin1String("cpu_cores"), QThread::idealThreadCount());
    const QByteArray cpu = procValue("/proc/cpuinfo", "model name");
    if (!cpu.isEmpty())
        env.insert(QLatin1String("cpu_model"), QString::fromUtf8(cpu).simplified());
    const QByteArray mem = procValue("/proc/meminfo", "MemTotal"); // "16318436 kB"
    bool ok = false;
    const qint64 kib = mem.split(' ').value(0).toLongLong(&ok);
    if (ok && kib > 0)
        env.insert(QLatin1String("memory_mib"), kib / 1024);
    return env;
}

bool ServerFacts::readVersion(const QByteArray& body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!doc.isObject())
        return false;
    const QJsonObject o = doc.object();
    version = o.value(QLatin1String("version")).toString();
    serverName = o.value(QLatin1String("server")).toString();
    const double scale = o.value(QLatin1String("time_scale")).toDouble(1.0);
    timeScale = scale > 0 ? scale : 1.0;
    return true;
}

bool ServerFacts::readModels(const QByteArray& body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!doc.isObject() || !doc.object().value(QLatin1String("data")).isArray())
        return false;
    models.clear();
    maxModelLen.reset();
    ownedBy.clear();
    const QJsonArray data = doc.object().value(QLatin1String("data")).toArray();
    for (const QJsonValue& v : data) {
        const QJsonObject m = v.toObject();
        const QString id = m.value(QLatin1String("id")).toString();
        if (id.isEmpty())
            continue;
        if (models.isEmpty()) {
            if (m.value(QLatin1String("max_model_len")).isDouble())
                maxModelLen = m.value(QLatin1String("max_model_len")).toInt();
            ownedBy = m.value(QLatin1String("owned_by")).toString();
        }
        models << id;
    }
    return true;
}

QJsonObject ServerFacts::toJson() const
{
    QJsonObject o;
    if (!version.isEmpty())
        o.insert(QLatin1String("version"), version);
    if (!serverName.isEmpty())
        o.insert(QLatin1String("server"), serverName);
    if (!models.isEmpty())
        o.insert(QLatin1String("models"), QJsonArray::fromStringList(models));
    if (maxModelLen)
        o.insert(QLatin1String("max_model_len"), *maxModelLen);
    if (!ownedBy.isEmpty())
        o.insert(QLatin1String("owned_by"), ownedBy);
    if (!metricsUrl.isEmpty())
        o.insert(QLatin1String("metrics_url"), metricsUrl);
    if (metricsUrls.size() > 1)
        o.insert(QLatin1String("metrics_urls"), QJsonArray::fromStringList(metricsUrls));
    if (!metricsEngine.isEmpty())
        o.insert(QLatin1String("metrics_engine"), metricsEngine);
    if (!metricsModel.isEmpty())
        o.insert(QLatin1String("metrics_model"), metricsModel);
    if (!metricsUnavailable.isEmpty())
        o.insert(QLatin1String("metrics_unavailable"), metricsUnavailable);
    if (timeScale != 1.0)
        o.insert(QLatin1String("time_scale"), timeScale);
    return o;
}

} // namespace kp
