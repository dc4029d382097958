// kneepoint-cli targets add|list|remove|show: the saved endpoints profiles refer to by name.
#include "cli.h"
#include "cliverbs.h"

#include "profile/keychain.h"
#include "profile/profilestore.h"
#include "profile/targetstore.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace kp::cli {

namespace {

const char* const kTargetsUsage = R"(Usage: kneepoint-cli targets <add|list|show|remove> [NAME] [options]

  add NAME --base-url URL [--model M] [--backend B] [--endpoint PATH] [--served-model-name N]
           [--api-key-env VAR | --api-key-keychain ENTRY] [--header "Name: value"]... [--replace]
                 save an endpoint under NAME (--replace overwrites an existing one)
  list [--json]  the saved targets: name, base URL, backend, model, key reference
  show NAME      one target as JSON (a literal API key is shown redacted)
  remove NAME    forget a target (profiles that refer to it then fail with a clear message)

Targets are kept in $XDG_CONFIG_HOME/Kneepoint/Kneepoint/targets.json (or --targets-file FILE).
A profile refers to one with "target": "NAME"; `sweep --target NAME` picks one for a run.)";

QString keyDescription(const Target& t)
{
    if (t.apiKey.isEmpty())
        return QStringLiteral("-");
    if (t.apiKey.startsWith(QLatin1String("${")) || t.apiKey.startsWith(QLatin1String("file:"))
        || isKeychainReference(t.apiKey))
        return t.apiKey;
    return QStringLiteral("(literal)");
}

} // namespace

int runTargets(const QStringList& arguments)
{
    QCommandLineParser p;
    const QCommandLineOption file(
        QStringLiteral("targets-file"), QStringLiteral("The targets file to use."), QStringLiteral("FILE"));
    const QCommandLineOption baseUrl(
        QStringLiteral("base-url"), QStringLiteral("Server base URL (add)."), QStringLiteral("URL"));
    const QCommandLineOption model(QStringLiteral("model"), QStringLiteral("Model id (add)."), QStringLiteral("M"));
    const QCommandLineOption backend(
        QStringLiteral("backend"), QStringLiteral("openai | openai-chat | vllm (add)."), QStringLiteral("NAME"));
    const QCommandLineOption endpoint(
        QStringLiteral("endpoint"), QStringLiteral("API path, e.g. /v1/completions (add)."), QStringLiteral("PATH"));
    const QCommandLineOption served(QStringLiteral("served-model-name"),
        QStringLiteral("The model name sent in requests (add)."), QStringLiteral("N"));
    const QCommandLineOption keyEnv(QStringLiteral("api-key-env"),
        QStringLiteral("Environment variable holding the API key (add); stored as ${VAR}."), QStringLiteral("VAR"));
    const QCommandLineOption keyKeychain(QStringLiteral("api-key-keychain"),
        QStringLiteral("Desktop keychain entry holding the API key (service \"Kneepoint\") (add); stored as "
                       "keychain:ENTRY."),
        QStringLiteral("ENTRY"));
    const QCommandLineOption header(QStringLiteral("header"),
        QStringLiteral("Extra request header \"Name: value\" (add; repeatable)."), QStringLiteral("H"));
    const QCommandLineOption replace(
        QStringLiteral("replace"), QStringLiteral("add: overwrite a target of that name."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("list: JSON instead of a table."));
    p.addOptions({ file, baseUrl, model, backend, endpoint, served, keyEnv, keyKeychain, header, replace, json });
    if (const std::optional<int> exit = parseVerbOptions(p, arguments, kTargetsUsage))
        return *exit;
    const QStringList pos = p.positionalArguments();
    const QString action = pos.value(0);
    TargetStore store(p.isSet(file) ? p.value(file) : defaultTargetsPath());
    QStringList errors;
    if (!store.load(&errors)) {
        for (const QString& e : errors)
            say(QStringLiteral("error: %1").arg(e));
        return ExitBadInput;
    }
    auto needName = [&]() -> std::optional<QString> {
        if (pos.size() != 2) {
            say(QStringLiteral("error: targets %1 needs exactly one NAME").arg(action));
            return std::nullopt;
        }
        return pos.at(1);
    };

    if (action == QLatin1String("list")) {
        if (pos.size() > 1) {
            say(QStringLiteral("error: unexpected argument \"%1\"").arg(pos.at(1)));
            return ExitBadInput;
        }
        if (p.isSet(json)) {
            QJsonArray array;
            for (const NamedTarget& t : store.targets()) {
                array.append(QJsonObject { { QStringLiteral("name"), t.name },
                    { QStringLiteral("base_url"), displayUrl(t.target.baseUrl) },
                    { QStringLiteral("backend"), backendName(t.target.backend) },
                    { QStringLiteral("model"), t.target.model },
                    { QStringLiteral("api_key"), keyDescription(t.target) } });
            }
            writeOut(QJsonDocument(array).toJson(QJsonDocument::Indented));
            return ExitOk;
        }
        if (store.targets().isEmpty()) {
            say(QStringLiteral("no saved targets in %1; add one with \"kneepoint-cli targets add NAME --base-url URL\"")
                    .arg(store.path()));
            return ExitOk;
        }
        int nameWidth = 4;
        int urlWidth = 8;
        for (const NamedTarget& t : store.targets()) {
            nameWidth = std::max(nameWidth, int(t.name.size()));
            urlWidth = std::max(urlWidth, int(displayUrl(t.target.baseUrl).size()));
        }
        QString out = QStringLiteral("%1  %2  %3  %4  %5\n")
                          .arg(QStringLiteral("name"), -nameWidth)
                          .arg(QStringLiteral("base_url"), -urlWidth)
                          .arg(QStringLiteral("backend"), -11)
                          .arg(QStringLiteral("model"), -24)
                          .arg(QStringLiteral("api_key"));
        for (const NamedTarget& t : store.targets()) {
            out += QStringLiteral("%1  %2  %3  %4  %5\n")
                       .arg(t.name, -nameWidth)
                       .arg(displayUrl(t.target.baseUrl), -urlWidth)
                       .arg(backendName(t.target.backend), -11)
                       .arg(t.target.model.isEmpty() ? QStringLiteral("(server's first)") : t.target.model, -24)
                       .arg(keyDescription(t.target));
        }
        writeOut(out.toUtf8());
        return ExitOk;
    }
    if (action == QLatin1String("show")) {
        const auto name = needName();
        if (!name)
            return ExitBadInput;
        const NamedTarget* t = store.find(*name);
        if (!t) {
            say(QStringLiteral("error: no saved target \"%1\" in %2").arg(*name, store.path()));
            return ExitBadInput;
        }
        Profile holder;
        holder.target = t->target;
        QJsonObject object
            = ProfileStore::toJsonObject(redactedProfile(holder)).value(QStringLiteral("target")).toObject();
        object.insert(QStringLiteral("name"), t->name);
        writeOut(QJsonDocument(object).toJson(QJsonDocument::Indented));
        return ExitOk;
    }
    if (action == QLatin1String("remove")) {
        const auto name = needName();
        if (!name)
            return ExitBadInput;
        if (!store.remove(*name)) {
            say(QStringLiteral("error: no saved target \"%1\" in %2").arg(*name, store.path()));
            return ExitBadInput;
        }
        QString error;
        if (!store.save(&error)) {
            say(QStringLiteral("error: %1").arg(error));
            return ExitFailure;
        }
        say(QStringLiteral("removed target \"%1\"").arg(*name));
        return ExitOk;
    }
    if (action == QLatin1String("add")) {
        const auto name = needName();
        if (!name)
            return ExitBadInput;
        if (const QString bad = TargetStore::checkName(*name); !bad.isEmpty()) {
            say(QStringLiteral("error: %1").arg(bad));
            return ExitBadInput;
        }
        if (!p.isSet(baseUrl)) {
            say(QStringLiteral("error: targets add needs --base-url URL"));
            return ExitBadInput;
        }
        if (store.find(*name) && !p.isSet(replace)) {
            say(QStringLiteral("error: a target \"%1\" already exists in %2; give --replace to overwrite it")
                    .arg(*name, store.path()));
            return ExitBadInput;
        }
        Profile holder;
        Target& t = holder.target;
        t.baseUrl = p.value(baseUrl);
        t.model = p.value(model);
        t.endpoint = p.value(endpoint);
        t.servedModelName = p.value(served);
        if (p.isSet(backend)) {
            const auto b = backendFromName(p.value(backend));
            if (!b) {
                say(QStringLiteral("error: --backend: unknown backend \"%1\" (openai, openai-chat, vllm)")
                        .arg(p.value(backend)));
                return ExitBadInput;
            }
            t.backend = *b;
        }
        if (p.isSet(keyEnv)) {
            static const QRegularExpression var(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
            if (!var.match(p.value(keyEnv)).hasMatch()) {
                say(QStringLiteral("error: --api-key-env: \"%1\" is not an environment variable name")
                        .arg(p.value(keyEnv)));
                return ExitBadInput;
            }
            t.apiKey = QStringLiteral("${%1}").arg(p.value(keyEnv));
        }
        if (p.isSet(keyKeychain)) {
            if (p.isSet(keyEnv)) {
                say(QStringLiteral("error: --api-key-env and --api-key-keychain: give one of them"));
                return ExitBadInput;
            }
            const QString entry = p.value(keyKeychain).trimmed();
            if (entry.isEmpty()) {
                say(QStringLiteral("error: --api-key-keychain: needs an entry name"));
                return ExitBadInput;
            }
            t.apiKey = keychainReference(entry);
        }
        for (const QString& h : p.values(header)) {
            const qsizetype colon = h.indexOf(u':');
            if (colon <= 0) {
                say(QStringLiteral("error: --header: expected \"Name: value\", got \"%1\"").arg(h));
                return ExitBadInput;
            }
            t.headers.append({ h.left(colon).trimmed(), h.mid(colon + 1).trimmed() });
        }
        bool bad = false;
        for (const ProfileIssue& issue : validateProfile(holder)) {
            if (issue.path.startsWith(QLatin1String("target"))) {
                say(QStringLiteral("error: %1").arg(issue.toString()));
                bad = true;
            }
        }
        if (bad)
            return ExitBadInput;
        store.put({ *name, t });
        QString error;
        if (!store.save(&error)) {
            say(QStringLiteral("error: %1").arg(error));
            return ExitFailure;
        }
        say(QStringLiteral("saved target \"%1\" (%2) in %3").arg(*name, displayUrl(t.baseUrl), store.path()));
        return ExitOk;
    }
    say(action.isEmpty() ? QStringLiteral("error: targets needs add, list, show or remove")
                         : QStringLiteral("error: unknown targets action \"%1\"").arg(action));
    writeOut(QByteArray(kTargetsUsage) + '\n');
    return ExitBadInput;
}

} // namespace kp::cli
