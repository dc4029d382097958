#include "connectiontest.h"

#include "client/requestbuilder.h"
#include "client/transport.h"
#include "kit/jobtracker.h"
#include "sweep/builtinsimulator.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QTime>
#include <QVBoxLayout>

namespace kp::ui {

namespace {

enum class Mark { Ok, Failed, Skipped };

// Drawn rather than taken from the icon theme, so that they read the same on every desktop.
QPixmap markPixmap(Mark mark, int size, qreal dpr)
{
    QPixmap pm(QSize(size, size) * dpr);
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor fill = mark == Mark::Ok ? QColor(0x2e, 0x7d, 0x32)
        : mark == Mark::Failed           ? QColor(0xc6, 0x28, 0x28)
                                         : QColor(0x9e, 0x9e, 0x9e);
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    const QRectF r(0.5, 0.5, size - 1.0, size - 1.0);
    p.drawEllipse(r);
    QPen pen(Qt::white, size / 8.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    const double s = size;
    if (mark == Mark::Ok) {
        QPainterPath path;
        path.moveTo(s * 0.28, s * 0.52);
        path.lineTo(s * 0.44, s * 0.68);
        path.lineTo(s * 0.73, s * 0.34);
        p.drawPath(path);
    } else if (mark == Mark::Failed) {
        p.drawLine(QPointF(s * 0.33, s * 0.33), QPointF(s * 0.67, s * 0.67));
        p.drawLine(QPointF(s * 0.67, s * 0.33), QPointF(s * 0.33, s * 0.67));
    } else {
        p.drawLine(QPointF(s * 0.3, s * 0.5), QPointF(s * 0.7, s * 0.5));
    }
    return pm;
}

QString checkTitle(const QString& name)
{
    if (name == QLatin1String("health"))
        return ConnectionTest::tr("Health");
    if (name == QLatin1String("models"))
        return ConnectionTest::tr("Models");
    if (name == QLatin1String("completion"))
        return ConnectionTest::tr("Completion");
    return name;
}

QString latencyText(double ms)
{
    const QLocale locale;
    if (ms < 10)
        return ConnectionTest::tr("%1 ms").arg(locale.toString(ms, 'f', 1));
    if (ms < 10000)
        return ConnectionTest::tr("%1 ms").arg(locale.toString(ms, 'f', 0));
    return ConnectionTest::tr("%1 s").arg(locale.toString(ms / 1000, 'f', 1));
}

} // namespace

ConnectionTest::ConnectionTest(QWidget* parent)
    : QWidget(parent)
    , m_keys(new JobTracker(this))
{
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(6);

    auto* top = new QHBoxLayout;
    m_button = new QPushButton(tr("Test connection"));
    m_button->setObjectName(QStringLiteral("connection.test"));
    m_button->setToolTip(tr("Checks /health, /v1/models and one tiny completion against the target"));
    connect(m_button, &QPushButton::clicked, this, [this] { isRunning() ? cancel() : start(); });
    top->addWidget(m_button);
    top->addStretch();
    v->addLayout(top);

    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("connection.status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setText(tr("Not tested yet."));
    m_status->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(m_status);

    m_checks = new QWidget;
    m_checks->setObjectName(QStringLiteral("connection.checks"));
    m_checkGrid = new QGridLayout(m_checks);
    m_checkGrid->setContentsMargins(0, 0, 0, 0);
    m_checkGrid->setHorizontalSpacing(8);
    m_checkGrid->setVerticalSpacing(2);
    m_checkGrid->setColumnStretch(1, 1);
    v->addWidget(m_checks);

    m_notes = new QLabel;
    m_notes->setObjectName(QStringLiteral("connection.notes"));
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->setForegroundRole(QPalette::PlaceholderText);
    m_notes->setVisible(false);
    v->addWidget(m_notes);
    v->addStretch();
    updateButton();
}

ConnectionTest::~ConnectionTest()
{
    cancel();
}

void ConnectionTest::setProfile(const Profile& profile, bool testable)
{
    m_profile = profile;
    m_testable = testable;
    updateButton();
}

void ConnectionTest::updateButton()
{
    m_button->setText(isRunning() ? tr("Cancel test") : tr("Test connection"));
    m_button->setEnabled(isRunning() || m_testable);
}

void ConnectionTest::clear()
{
    cancel();
    while (QLayoutItem* item = m_checkGrid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_status->setText(tr("Not tested yet."));
    m_status->setForegroundRole(QPalette::PlaceholderText);
    m_notes->clear();
    m_notes->setVisible(false);
}

void ConnectionTest::cancel()
{
    if (m_resolving) {
        m_resolving = false;
        m_keys->cancel();
        m_simulator.reset();
        m_status->setText(tr("Test cancelled."));
        updateButton();
    }
    if (m_probe) {
        // Dropping the probe aborts its requests; its answer, if any, is no longer wanted.
        disconnect(m_probe, nullptr, this, nullptr);
        m_probe->deleteLater();
        m_probe = nullptr;
        m_status->setText(tr("Test cancelled."));
    }
    m_simulator.reset();
    updateButton();
}

void ConnectionTest::showFailure(const QString& message)
{
    m_status->setText(message);
    m_status->setForegroundRole(QPalette::WindowText);
    QPalette pal = m_status->palette();
    pal.setColor(QPalette::WindowText,
        pal.color(QPalette::Window).lightness() < 128 ? QColor(0xef, 0x9a, 0x9a) : QColor(0xc6, 0x28, 0x28));
    m_status->setPalette(pal);
}

void ConnectionTest::start()
{
    if (isRunning() || !m_testable)
        return;
    clear();
    Profile profile = m_profile;
    QString simulatorNote;
    if (profile.target.isBuiltinSimulator()) {
        m_simulator = std::make_unique<BuiltinSimulator>();
        QString error;
        if (!m_simulator->start(profile, &error)) {
            m_simulator.reset();
            showFailure(error);
            return;
        }
        simulatorNote = tr("The built-in simulator was started for the test (%1).").arg(m_simulator->description());
    }
    // The headers carry the key, which a keychain entry may take seconds to give (it may ask for its
    // password): read in the background, the test shows as running and can be cancelled meanwhile.
    struct Resolved
    {
        HeaderList headers;
        QString error;
    };
    m_resolving = true;
    updateButton();
    m_keys->start(
        tr("Reading the API key"),
        [target = profile.target](const JobTracker::CancelFlag&) {
            Resolved r;
            r.headers = requestHeaders(target, &r.error);
            return r;
        },
        [this, target = profile.target, simulatorNote](Resolved resolved) {
            m_resolving = false;
            updateButton();
            if (!resolved.error.isEmpty()) {
                m_simulator.reset();
                showFailure(resolved.error);
                return;
            }
            ProbeTarget probeTarget;
            probeTarget.target = target;
            probeTarget.headers = std::move(resolved.headers);
            probeTarget.transport = transportOptions(target);
            startProbe(probeTarget, simulatorNote);
        });
}

void ConnectionTest::startProbe(const ProbeTarget& target, const QString& simulatorNote)
{
    m_probe = new Probe(this);
    connect(m_probe, &Probe::finished, this, [this, simulatorNote](const ProbeReport& report) {
        ProbeReport r = report;
        if (!simulatorNote.isEmpty())
            r.notes.prepend(simulatorNote);
        onFinished(r);
    });
    m_status->setForegroundRole(QPalette::PlaceholderText);
    m_status->setText(tr("Testing %1 …").arg(target.target.requestUrl().toString(QUrl::RemoveUserInfo)));
    m_probe->start(target);
    updateButton();
}

void ConnectionTest::onFinished(const ProbeReport& report)
{
    if (m_probe) {
        m_probe->deleteLater();
        m_probe = nullptr;
    }
    m_simulator.reset();

    const int size = fontMetrics().height();
    const qreal dpr = devicePixelRatioF();
    int row = 0;
    for (const ProbeCheck& c : report.checks) {
        const Mark mark = c.skipped ? Mark::Skipped : c.ok ? Mark::Ok : Mark::Failed;
        auto* icon = new QLabel;
        icon->setPixmap(markPixmap(mark, size, dpr));
        icon->setObjectName(QStringLiteral("check.%1").arg(c.name));
        icon->setProperty("kpOk", c.ok);
        icon->setProperty("kpSkipped", c.skipped);
        icon->setToolTip(c.skipped ? tr("skipped") : c.ok ? tr("passed") : tr("failed"));
        auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(checkTitle(c.name).toHtmlEscaped()));
        title->setToolTip(c.url);
        auto* latency = new QLabel(c.skipped ? tr("—") : latencyText(c.latencyMs));
        latency->setObjectName(QStringLiteral("check.%1.latency").arg(c.name));
        latency->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_checkGrid->addWidget(icon, row, 0, Qt::AlignTop);
        m_checkGrid->addWidget(title, row, 1);
        m_checkGrid->addWidget(latency, row, 2);
        ++row;
        auto* detail = new QLabel(c.detail);
        detail->setObjectName(QStringLiteral("check.%1.detail").arg(c.name));
        detail->setWordWrap(true);
        detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
        detail->setForegroundRole(QPalette::PlaceholderText);
        m_checkGrid->addWidget(detail, row++, 1, 1, 2);
        if (!c.hint.isEmpty()) {
            auto* hint = new QLabel(tr("Hint: %1").arg(c.hint));
            hint->setObjectName(QStringLiteral("check.%1.hint").arg(c.name));
            hint->setWordWrap(true);
            hint->setTextInteractionFlags(Qt::TextSelectableByMouse);
            m_checkGrid->addWidget(hint, row++, 1, 1, 2);
        }
    }

    const QString when = QLocale().toString(QTime::currentTime(), QLocale::ShortFormat);
    if (report.ok()) {
        m_status->setForegroundRole(QPalette::WindowText);
        m_status->setPalette(QPalette());
        m_status->setText(tr("All checks passed (%1).").arg(when));
    } else if (report.reachable()) {
        showFailure(tr("The server answered, but a check failed (%1).").arg(when));
    } else {
        showFailure(tr("The server could not be reached (%1).").arg(when));
    }
    m_notes->setText(report.notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!report.notes.isEmpty());
    updateButton();
    Q_EMIT finished(report);
}

} // namespace kp::ui
