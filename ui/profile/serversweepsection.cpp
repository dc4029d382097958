#include "profile/serversweepsection.h"

#include "profile/profileform.h"

#include <QCoreApplication>
#include <QFontDatabase>
#include <QJsonArray>
#include <QPlainTextEdit>
#include <QRegularExpression>

namespace kp::ui {

namespace {

constexpr const char* kContext = "kp::ui::ProfileForm";

QString valueText(const QJsonValue& v)
{
    if (v.isString())
        return v.toString();
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return QString::number(v.toDouble(), 'g', 15);
}

} // namespace

SectionSpec serverSweepSection()
{
    return { .key = "server_sweep",
        .title = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", "Server sweep"),
        .rows = {
            { .label = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", "Server command"),
                .fields = { { .key = "server_sweep.command",
                    .placeholder = QT_TRANSLATE_NOOP("kp::ui::ProfileForm",
                        "vllm serve MODEL --port {port} --max-num-seqs {max_num_seqs}"),
                    .tooltip = QT_TRANSLATE_NOOP("kp::ui::ProfileForm",
                        "Run once per combination of the parameters below: {name} is a parameter's value, {port} "
                        "a free port that the base URL then uses. Each combination is one run; kneepoint-cli "
                        "sweep starts the server, waits until it answers, sweeps it and stops it.") } } },
            { .label = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", "Parameters"),
                .fields = { { .key = "server_sweep.parameters",
                    .placeholder = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", "max_num_seqs = 64, 128, 256"),
                    .tooltip = QT_TRANSLATE_NOOP("kp::ui::ProfileForm",
                        "One parameter per line: its name, =, and its values separated by commas."),
                    .build = &ProfileForm::addServerParameters } } },
            { .label = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", "Mode"),
                .fields = { { .key = "server_sweep.mode",
                    .accessor = ChoiceAccessor { .get =
                                                     [](const Profile& p) {
                                                         return p.serverSweep.mode.isEmpty()
                                                             ? QStringLiteral("process")
                                                             : p.serverSweep.mode;
                                                     },
                        .set =
                            [](Profile& p, const QString& v) {
                                p.serverSweep.mode = v == QLatin1String("process") ? QString() : v;
                            } },
                    .items = { { QT_TRANSLATE_NOOP("kp::ui::ProfileForm",
                                     "process — Kneepoint starts the server and stops its process group"),
                                   QStringLiteral("process") },
                        { QT_TRANSLATE_NOOP("kp::ui::ProfileForm",
                              "commands — a start and a stop command (docker, kubectl, systemd)"),
                            QStringLiteral("commands") } },
                    .tooltip = QT_TRANSLATE_NOOP("kp::ui::ProfileForm",
                        "process: the command is the server, stopped with SIGTERM and, after the grace period, "
                        "SIGKILL. commands: the command brings the server up and ends; the stop command takes it "
                        "down.") } } },
            { .label = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", "Stop command"),
                .fields = { { .key = "server_sweep.stop_command",
                    .placeholder = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", "docker stop vllm"),
                    .tooltip = QT_TRANSLATE_NOOP(
                        "kp::ui::ProfileForm", "The commands mode only: run after each combination's sweep.") } } },
            { .label = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", "Waits"),
                .shape = RowShape::Grid,
                .fields = {
                    { .key = "server_sweep.ready_timeout_s",
                        .step = 30,
                        .suffix = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", " s"),
                        .caption = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", "ready within"),
                        .tooltip = QT_TRANSLATE_NOOP("kp::ui::ProfileForm",
                            "How long the base URL may take to answer /health or /v1/models.") },
                    { .key = "server_sweep.grace_s",
                        .step = 5,
                        .suffix = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", " s"),
                        .caption = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", "grace"),
                        .tooltip = QT_TRANSLATE_NOOP(
                            "kp::ui::ProfileForm", "How long the server has to stop after SIGTERM, before SIGKILL.") },
                },
                .tipKey = "server_sweep",
                .tooltip = QT_TRANSLATE_NOOP("kp::ui::ProfileForm", "Large models take minutes to load.") },
        } };
}

QString serverParametersText(const QJsonObject& parameters)
{
    QStringList lines;
    for (auto it = parameters.begin(); it != parameters.end(); ++it) {
        QStringList values;
        for (const QJsonValue& v : it.value().toArray())
            values << valueText(v);
        lines << it.key() + QStringLiteral(" = ") + values.join(QStringLiteral(", "));
    }
    return lines.join(QLatin1Char('\n'));
}

QString parseServerParametersText(const QString& text, QJsonObject* parameters)
{
    static const QRegularExpression nameRe(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    QJsonObject out;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        const QString name = line.left(eq).trimmed();
        if (eq <= 0 || !nameRe.match(name).hasMatch() || name == QLatin1String("port"))
            return QCoreApplication::translate(
                kContext, "line %1: expected NAME = V1, V2 (NAME: letters, digits and _, not port)")
                .arg(i + 1);
        QJsonArray values;
        for (const QString& v : line.mid(eq + 1).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (!v.trimmed().isEmpty())
                values.append(v.trimmed());
        }
        if (values.isEmpty())
            return QCoreApplication::translate(kContext, "line %1: no values after =").arg(i + 1);
        out.insert(name, values);
    }
    *parameters = out;
    return QString();
}

// The parameters, one per line (ProfileForm's builder for server_sweep.parameters).
QWidget* ProfileForm::addServerParameters(const FieldSpec& spec)
{
    auto* edit = new QPlainTextEdit;
    edit->setTabChangesFocus(true);
    edit->setPlaceholderText(tr(spec.placeholder));
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setFixedHeight(edit->fontMetrics().lineSpacing() * 3 + 12);
    Field* f = addField(
        QLatin1String(spec.key), edit,
        [this, edit] {
            const QString text = serverParametersText(m_profile.serverSweep.parameters);
            if (edit->toPlainText() != text)
                edit->setPlainText(text);
        },
        [this, edit]() -> QString {
            return parseServerParametersText(edit->toPlainText(), &m_profile.serverSweep.parameters);
        });
    connect(edit, &QPlainTextEdit::textChanged, this, [this, f] { fieldChanged(f); });
    return edit;
}

} // namespace kp::ui
