#include "serve/serversweep.h"

#include "metrics/phrase.h"
#include "profile/profileschema.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTcpServer>
#include <QUrl>

using namespace Qt::Literals::StringLiterals;

namespace kp {

namespace {

const QRegularExpression& placeholderRe()
{
    static const QRegularExpression re(u"\\{([A-Za-z_][A-Za-z0-9_]*)\\}"_s);
    return re;
}

QString valueText(const QJsonValue& v)
{
    if (v.isString())
        return v.toString();
    if (v.isBool())
        return v.toBool() ? u"true"_s : u"false"_s;
    const double d = v.toDouble();
    return QString::number(d, 'g', 15);
}

} // namespace

QString ServerCombination::label() const
{
    if (values.isEmpty())
        return phrase("ServerSweep", "(no parameters)");
    QStringList parts;
    for (const auto& [name, value] : values)
        parts << name + u'=' + value;
    return parts.join(u' ');
}

QString ServerCombination::folderName(int index) const
{
    static const QRegularExpression bad(u"[^A-Za-z0-9._-]+"_s);
    QString name = u"%1"_s.arg(index + 1, 2, 10, QLatin1Char('0'));
    for (const auto& [key, value] : values)
        name += u'-' + key + u'-' + QString(value).replace(bad, u"_"_s);
    return name.left(96);
}

bool hasServerSweep(const Profile& profile)
{
    return !profile.serverSweep.command.trimmed().isEmpty() || !profile.serverSweep.parameters.isEmpty();
}

std::optional<ServerSweepPlan> planServerSweep(const ServerSweep& sweep, QString* error)
{
    ServerSweepPlan plan;
    if (sweep.mode.isEmpty() || sweep.mode == u"process") {
        plan.mode = ServerMode::Process;
    } else if (sweep.mode == u"commands") {
        plan.mode = ServerMode::Commands;
    } else {
        *error = phrase("ServerSweep", "server_sweep.mode: expected \"process\" or \"commands\", got \"%1\"")
                     .arg(sweep.mode);
        return std::nullopt;
    }
    plan.command = sweep.command.trimmed();
    plan.stopCommand = sweep.stopCommand.trimmed();
    if (plan.command.isEmpty()) {
        *error = phrase("ServerSweep", "server_sweep.command: is required (kneepoint-cli sweep --serve CMD)");
        return std::nullopt;
    }
    if (plan.mode == ServerMode::Process && !plan.stopCommand.isEmpty()) {
        *error = phrase("ServerSweep",
            "server_sweep.stop_command: only in the commands mode (server_sweep.mode \"commands\", --serve-mode "
            "commands); in the process mode Kneepoint stops the server itself");
        return std::nullopt;
    }
    plan.readyTimeoutS = sweep.readyTimeoutS;
    plan.graceS = sweep.graceS;
    const QString both = plan.command + u'\n' + plan.stopCommand;
    QStringList used;
    for (auto it = placeholderRe().globalMatch(both); it.hasNext();)
        used << it.next().captured(1);
    plan.usesPort = used.contains(u"port"_s);

    std::vector<QStringList> lists;
    for (auto it = sweep.parameters.begin(); it != sweep.parameters.end(); ++it) {
        const QString path = u"server_sweep.parameters.%1"_s.arg(it.key());
        if (it.key() == u"port") {
            *error = phrase("ServerSweep", "%1: {port} is chosen by Kneepoint; name the parameter otherwise").arg(path);
            return std::nullopt;
        }
        const QJsonArray values = it.value().toArray();
        if (!it.value().isArray() || values.isEmpty()) {
            *error = phrase("ServerSweep", "%1: expected a list of one or more values").arg(path);
            return std::nullopt;
        }
        if (!used.contains(it.key())) {
            *error = phrase("ServerSweep", "%1: the command never uses {%2}, so its runs would not differ")
                         .arg(path, it.key());
            return std::nullopt;
        }
        QStringList texts;
        for (const QJsonValue& v : values)
            texts << valueText(v);
        plan.names << it.key();
        lists.push_back(texts);
    }
    // QJsonObject keeps its keys sorted: the combinations vary the last name fastest.
    plan.combinations.push_back({});
    for (std::size_t i = 0; i < lists.size(); ++i) {
        std::vector<ServerCombination> next;
        for (const ServerCombination& c : plan.combinations) {
            for (const QString& v : lists[i]) {
                ServerCombination d = c;
                d.values.append({ plan.names.at(qsizetype(i)), v });
                next.push_back(d);
            }
        }
        plan.combinations = std::move(next);
    }
    for (const QString& name : std::as_const(used)) {
        if (name != u"port" && !plan.names.contains(name)) {
            *error = phrase("ServerSweep",
                "server_sweep.command: {%1} is not a parameter (add it with --serve-param %1=V1,V2 or under "
                "server_sweep.parameters)")
                         .arg(name);
            return std::nullopt;
        }
    }
    return plan;
}

QString addServerParameter(const QString& spec, QJsonObject& parameters)
{
    const qsizetype eq = spec.indexOf(u'=');
    const QString name = spec.left(eq).trimmed();
    static const QRegularExpression nameRe(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    if (eq <= 0 || !nameRe.match(name).hasMatch())
        return phrase("ServerSweep", "--serve-param \"%1\": expected NAME=V1,V2,... (NAME: letters, digits and _)")
            .arg(spec);
    if (name == u"port")
        return phrase("ServerSweep", "--serve-param \"%1\": {port} is chosen by Kneepoint").arg(spec);
    QJsonArray values;
    for (const QString& v : spec.mid(eq + 1).split(u',', Qt::SkipEmptyParts)) {
        if (!v.trimmed().isEmpty())
            values.append(v.trimmed());
    }
    if (values.isEmpty())
        return phrase("ServerSweep", "--serve-param \"%1\": no values after =").arg(spec);
    parameters.insert(name, values);
    return {};
}

QString substituteCommand(const QString& command, const ServerCombination& combination, std::optional<int> port)
{
    QString out;
    qsizetype last = 0;
    for (auto it = placeholderRe().globalMatch(command); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString name = m.captured(1);
        std::optional<QString> value;
        if (name == u"port" && port)
            value = QString::number(*port);
        for (const auto& [key, v] : combination.values) {
            if (key == name)
                value = v;
        }
        if (!value)
            continue;
        out += command.mid(last, m.capturedStart() - last) + *value;
        last = m.capturedEnd();
    }
    return out + command.mid(last);
}

QString baseUrlWithPort(const QString& baseUrl, int port)
{
    QUrl url(baseUrl);
    url.setPort(port);
    return url.toString();
}

int freeTcpPort(QString* error)
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0)) {
        *error = phrase("ServerSweep", "no free TCP port on 127.0.0.1: %1").arg(server.errorString());
        return 0;
    }
    return server.serverPort();
}

Profile profileForCombination(
    const Profile& profile, const ServerCombination& combination, const QString& command, std::optional<int> port)
{
    Profile p = profile;
    if (port)
        p.target.baseUrl = baseUrlWithPort(p.target.baseUrl, *port);
    // Each combination's run is named after its configuration, so that lists of runs tell them apart.
    const QString base = profile.name.isEmpty() ? profile.target.model : profile.name;
    p.name = base.isEmpty() ? combination.label() : u"%1 · %2"_s.arg(base, combination.label());
    p.serverSweep.applied = combination.values;
    p.serverSweep.appliedCommand = command;
    for (const auto& [name, value] : combination.values) {
        const ProfileField* field = profileField(u"server."_s + name);
        if (!field || !field->hasValue())
            continue;
        bool isNumber = false;
        const double number = value.toDouble(&isNumber);
        // A value the field cannot hold is left to the command alone: server.* is informational.
        const QString problem
            = isNumber ? setFieldValue(p, *field, FieldValue(number)) : setFieldValue(p, *field, FieldValue(value));
        Q_UNUSED(problem);
    }
    return p;
}

} // namespace kp
