#include "profile/targetstore.h"

#include "metrics/boundedread.h"
#include "metrics/filewrite.h"
#include "metrics/phrase.h"
#include "profile/profilestore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QUrl>

#include <algorithm>
#include <tuple>
#include <utility>

namespace kp {

namespace {

const QString kSchema = QStringLiteral("kneepoint.targets/1");

} // namespace

QString defaultTargetsPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
        + QStringLiteral("/Kneepoint/Kneepoint/targets.json");
}

TargetStore::TargetStore(QString path)
    : m_path(std::move(path))
{ }

QString TargetStore::checkName(const QString& name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]*$"));
    if (name.isEmpty())
        return phrase("TargetStore", "a target needs a name");
    if (!re.match(name).hasMatch())
        return phrase("TargetStore",
            "target name \"%1\": use letters, digits, '.', '_' and '-' (starting with a letter or digit)")
            .arg(name);
    return {};
}

bool TargetStore::load(QStringList* errors)
{
    m_targets.clear();
    QFile file(m_path);
    if (!file.exists())
        return true;
    auto fail = [&](const QString& message) {
        if (errors)
            errors->append(QStringLiteral("%1: %2").arg(m_path, message));
        return false;
    };
    QString readError;
    const std::optional<QByteArray> contents = readBoundedFile(m_path, kMaxSettingsFileBytes, &readError);
    if (!contents) {
        if (errors)
            errors->append(readError);
        return false;
    }
    const QByteArray& data = *contents;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const qsizetype offset = parseError.offset;
        const qsizetype line = data.left(offset).count('\n') + 1;
        return fail(QStringLiteral("line %1: %2").arg(line).arg(parseError.errorString()));
    }
    if (!doc.isObject())
        return fail(phrase("TargetStore", "expected an object with \"schema\" and \"targets\""));
    const QJsonObject root = doc.object();
    if (root.value(QStringLiteral("schema")).toString() != kSchema)
        return fail(QStringLiteral("schema: expected \"%1\"").arg(kSchema));
    const QJsonValue list = root.value(QStringLiteral("targets"));
    if (!list.isArray())
        return fail(phrase("TargetStore", "targets: expected an array"));
    bool ok = true;
    const QJsonArray array = list.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString where = QStringLiteral("targets[%1]").arg(i);
        if (!array.at(i).isObject()) {
            ok = fail(phrase("TargetStore", "%1: expected an object").arg(where));
            continue;
        }
        QJsonObject object = array.at(i).toObject();
        const QString name = object.take(QStringLiteral("name")).toString();
        if (const QString bad = checkName(name); !bad.isEmpty()) {
            ok = fail(QStringLiteral("%1.name: %2").arg(where, bad));
            continue;
        }
        if (find(name)) {
            ok = fail(QStringLiteral("%1.name: \"%2\" is used twice").arg(where, name));
            continue;
        }
        const QJsonObject wrapper { { QStringLiteral("schema"), profileSchemaId() },
            { QStringLiteral("target"), object } };
        const QString source = QStringLiteral("%1 (%2 \"%3\")").arg(m_path, where, name);
        const ProfileLoadResult read = ProfileStore::fromJsonObject(wrapper, source);
        if (!read.ok()) {
            // Line and column would count in the re-serialised object, not in the file: leave them out.
            static const QRegularExpression position(QStringLiteral("^:\\d+:\\d+:"));
            for (const QString& e : read.errors) {
                if (errors)
                    errors->append(e.startsWith(source)
                            ? source + QString(e.mid(source.size())).replace(position, QStringLiteral(":"))
                            : e);
            }
            ok = false;
            continue;
        }
        for (const ProfileIssue& issue : validateProfile(*read.profile)) {
            if (issue.path.startsWith(QLatin1String("target."))) {
                ok = fail(QStringLiteral("%1 (\"%2\"): %3").arg(where, name, issue.toString()));
            }
        }
        m_targets.append({ name, read.profile->target });
    }
    return ok;
}

QStringList TargetStore::names() const
{
    QStringList out;
    for (const NamedTarget& t : m_targets)
        out << t.name;
    return out;
}

const NamedTarget* TargetStore::find(const QString& name) const
{
    for (const NamedTarget& t : m_targets) {
        if (t.name == name)
            return &t;
    }
    return nullptr;
}

void TargetStore::put(const NamedTarget& target, const QString& renaming)
{
    if (!renaming.isEmpty() && renaming != target.name) {
        if (find(target.name)) {
            remove(renaming);
        } else {
            for (NamedTarget& t : m_targets) {
                if (t.name == renaming) {
                    t = target;
                    return;
                }
            }
        }
    }
    for (NamedTarget& t : m_targets) {
        if (t.name == target.name) {
            t = target;
            return;
        }
    }
    m_targets.append(target);
}

bool TargetStore::remove(const QString& name)
{
    for (qsizetype i = 0; i < m_targets.size(); ++i) {
        if (m_targets.at(i).name == name) {
            m_targets.removeAt(i);
            return true;
        }
    }
    return false;
}

bool TargetStore::save(QString* error) const
{
    QJsonArray array;
    for (const NamedTarget& t : m_targets) {
        Profile holder;
        holder.target = t.target;
        QJsonObject object = ProfileStore::toJsonObject(holder).value(QStringLiteral("target")).toObject();
        object.insert(QStringLiteral("name"), t.name);
        array.append(object);
    }
    const QJsonObject root { { QStringLiteral("schema"), kSchema }, { QStringLiteral("targets"), array } };
    auto fail = [&](const QString& message) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(m_path, message);
        return false;
    };
    if (!QDir().mkpath(QFileInfo(m_path).absolutePath()))
        return fail(phrase("TargetStore", "cannot create the directory"));
    // Owner-only before any byte is written: the file may hold a literal API key.
    QString message;
    if (!writeFileAtomically(m_path, QJsonDocument(root).toJson(QJsonDocument::Indented), &message, true)) {
        if (error)
            *error = message;
        return false;
    }
    return true;
}

QString resolveTargetReference(Profile& profile, const TargetStore& store)
{
    if (profile.targetName.isEmpty())
        return {};
    const NamedTarget* found = store.find(profile.targetName);
    if (!found) {
        const QStringList names = store.names();
        return phrase("TargetStore", "target \"%1\" is not among the saved targets in %2 (%3)")
            .arg(profile.targetName, store.path(),
                names.isEmpty() ? phrase("TargetStore", "it holds none; add one with \"kneepoint-cli targets add\"")
                                : phrase("TargetStore", "it holds: %1").arg(names.join(QStringLiteral(", "))));
    }
    profile.target = withSavedTarget(found->target, profile.target);
    profile.targetName.clear();
    return {};
}

Target withSavedTarget(const Target& saved, const Target& own)
{
    const auto origin = [](const QString& url) {
        const QUrl u(url);
        return std::tuple(u.scheme().toLower(), u.host().toLower(), u.port(u.scheme() == u"https" ? 443 : 80));
    };
    const bool sameServer = own.baseUrl.isEmpty() || origin(own.baseUrl) == origin(saved.baseUrl);
    Target t = saved;
    const auto fill = [](QString& mine, const QString& theirs) {
        if (mine.isEmpty())
            mine = theirs;
    };
    fill(t.endpoint, own.endpoint);
    fill(t.model, own.model);
    fill(t.servedModelName, own.servedModelName);
    if (sameServer) {
        fill(t.apiKey, own.apiKey);
        if (t.metricsUrl.isEmpty() && t.metricsUrls.isEmpty()) { // one of the two forms, never both
            t.metricsUrl = own.metricsUrl;
            t.metricsUrls = own.metricsUrls;
        }
    }
    for (const HttpHeader& h : own.headers) {
        const bool named = std::any_of(t.headers.cbegin(), t.headers.cend(),
            [&](const HttpHeader& s) { return s.name.compare(h.name, Qt::CaseInsensitive) == 0; });
        if (!named && (sameServer || !isCredentialHeader(h.name)))
            t.headers.append(h);
    }
    return t;
}

} // namespace kp
