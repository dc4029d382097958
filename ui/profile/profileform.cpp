#include "profileform.h"

#include "profile/profileform_p.h"
#include "profile/profileschema.h"

#include "profile/keychain.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace kp::ui {

using form::ComboBox;
using form::IntSpinBox;
using form::listTokens;
using form::NumberSpinBox;
using form::translated;
using form::withUnit;

namespace {

QString tip(const QString& key, const QString& text)
{
    return QStringLiteral("<p><b>%1</b></p><p>%2</p>").arg(key.toHtmlEscaped(), text.toHtmlEscaped());
}

QColor errorColor(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128 ? QColor(0xef, 0x9a, 0x9a) : QColor(0xc6, 0x28, 0x28);
}

// Text inputs get a red frame. A style sheet border would replace the native drawing of spin box
// buttons and combo arrows, so those get a tinted background instead.
void markInvalid(QWidget* input, bool invalid, const QString& color)
{
    if (qobject_cast<QLineEdit*>(input) || qobject_cast<QPlainTextEdit*>(input)) {
        input->setStyleSheet(invalid ? QStringLiteral("%1 { border: 1px solid %2; border-radius: 3px; }")
                                           .arg(QString::fromLatin1(input->metaObject()->className()), color)
                                     : QString());
        return;
    }
    if (!qobject_cast<QAbstractSpinBox*>(input) && !qobject_cast<QComboBox*>(input))
        return; // check boxes and groups: the message under them is enough
    if (!invalid) {
        input->setPalette(QPalette());
        return;
    }
    QPalette pal = input->palette();
    const bool dark = pal.color(QPalette::Window).lightness() < 128;
    pal.setColor(QPalette::Base, dark ? QColor(0x5c, 0x1f, 0x1f) : QColor(0xfd, 0xe4, 0xe4));
    pal.setColor(QPalette::Button, dark ? QColor(0x5c, 0x1f, 0x1f) : QColor(0xfd, 0xe4, 0xe4));
    input->setPalette(pal);
}

} // namespace

namespace form {

QString translated(const char* source)
{
    return source ? ProfileForm::tr(source) : QString();
}

QStringList listTokens(const QString& text)
{
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    return text.split(separators, Qt::SkipEmptyParts);
}

QWidget* withUnit(QWidget* input, const QString& unit)
{
    auto* row = new QWidget;
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(input, 1);
    h->addWidget(new QLabel(unit));
    return row;
}

QWidget* withButton(QWidget* input, QWidget* button)
{
    auto* row = new QWidget;
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->setSpacing(4);
    h->addWidget(input, 1);
    h->addWidget(button);
    return row;
}

} // namespace form

ProfileForm::ProfileForm(QWidget* parent)
    : QWidget(parent)
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(4);

    auto* nav = new QHBoxLayout;
    nav->setContentsMargins(6, 4, 6, 0);
    nav->setSpacing(2);
    auto* jump = new QLabel(tr("Go to:"));
    jump->setForegroundRole(QPalette::PlaceholderText);
    nav->addWidget(jump);
    const QList<std::pair<QString, QString>> sections = { { QStringLiteral("target"), tr("Target") },
        { QStringLiteral("workload"), tr("Workload") }, { QStringLiteral("load"), tr("Load") },
        { QStringLiteral("slo"), tr("SLOs") }, { QStringLiteral("server"), tr("Server info") },
        { QStringLiteral("server_sweep"), tr("Server sweep") }, { QStringLiteral("output"), tr("Output") } };
    for (const auto& [key, title] : sections) {
        auto* b = new QToolButton;
        b->setText(title);
        b->setAutoRaise(true);
        b->setObjectName(QStringLiteral("goto.") + key);
        connect(b, &QToolButton::clicked, this, [this, k = key] { scrollToSection(k); });
        nav->addWidget(b);
    }
    nav->addStretch();
    outer->addLayout(nav);

    m_otherIssues = new QLabel;
    m_otherIssues->setObjectName(QStringLiteral("form.otherIssues"));
    m_otherIssues->setWordWrap(true);
    m_otherIssues->setContentsMargins(8, 0, 8, 0);
    m_otherIssues->setVisible(false);
    outer->addWidget(m_otherIssues);

    m_scroll = new QScrollArea;
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* content = new QWidget;
    m_sections = new QVBoxLayout(content);
    m_sections->setContentsMargins(6, 2, 10, 6);
    m_sections->setSpacing(10);
    m_scroll->setWidget(content);
    outer->addWidget(m_scroll, 1);

    for (const SectionSpec& section : formSections()) {
        QFormLayout* form = addSection(QLatin1String(section.key), translated(section.title));
        for (const RowSpec& row : section.rows)
            addRow(form, row);
    }
    m_endpoint = static_cast<QLineEdit*>(inputFor(QStringLiteral("target.endpoint")));
    m_loadUnitInputs = { inputFor(QStringLiteral("load.plan.start")), inputFor(QStringLiteral("load.plan.stop")) };
    m_sections->addStretch();
    // One label column width for every section, so that the inputs line up down the form.
    int labelWidth = 0;
    for (const QLabel* l : std::as_const(m_rowLabels))
        labelWidth = std::max(labelWidth, l->sizeHint().width());
    for (QLabel* l : std::as_const(m_rowLabels))
        l->setMinimumWidth(labelWidth);

    loadAll();
}

ProfileForm::~ProfileForm() = default;

void ProfileForm::setProfile(const Profile& profile)
{
    m_profile = profile;
    for (auto& f : m_fields)
        f->inputError.clear();
    loadAll();
    updateMessages();
}

void ProfileForm::loadAll()
{
    m_loading = true;
    for (auto& f : m_fields)
        f->load();
    m_loading = false;
    updateDependentState();
}

void ProfileForm::fieldChanged(Field* field)
{
    if (m_loading)
        return;
    field->inputError = field->store();
    updateDependentState();
    updateMessages();
    Q_EMIT edited();
}

QList<ProfileIssue> ProfileForm::inputErrors() const
{
    QList<ProfileIssue> out;
    for (const auto& f : m_fields) {
        if (!f->inputError.isEmpty())
            out.append({ f->path, f->inputError });
    }
    return out;
}

ProfileForm::Field* ProfileForm::fieldFor(const QString& path) const
{
    Field* best = nullptr;
    for (const auto& f : m_fields) {
        if (f->path == path)
            return f.get();
        if (path.startsWith(f->path) && path.size() > f->path.size()) {
            const QChar next = path.at(f->path.size());
            if ((next == QLatin1Char('[') || next == QLatin1Char('.')) && (!best || f->path.size() > best->path.size()))
                best = f.get();
        }
    }
    return best;
}

QWidget* ProfileForm::inputFor(const QString& path) const
{
    Field* f = fieldFor(path);
    return f ? f->input : nullptr;
}

QList<ProfileIssue> ProfileForm::showIssues(const QList<ProfileIssue>& issues)
{
    m_issues = issues;
    updateMessages();
    QList<ProfileIssue> other;
    for (const ProfileIssue& i : m_issues) {
        if (!fieldFor(i.path))
            other.append(i);
    }
    return other;
}

void ProfileForm::updateMessages()
{
    QHash<QLabel*, QStringList> lines;
    QHash<QLabel*, int> sharing;
    QHash<Field*, bool> flagged;
    for (const auto& f : m_fields) {
        if (f->message)
            ++sharing[f->message];
    }
    auto add = [&](Field* f, const QString& path, const QString& message) {
        QString text = message;
        if (path != f->path) // an element of a list or object: say which
            text = tr("%1: %2", "a field or list element, then what is wrong with it")
                       .arg(path.mid(f->path.lastIndexOf(QLatin1Char('.')) + 1), message);
        else if (sharing.value(f->message) > 1)
            text = tr("%1: %2", "a field or list element, then what is wrong with it").arg(f->caption, message);
        lines[f->message].append(text);
        flagged[f] = true;
    };
    QStringList other;
    for (const auto& f : m_fields) {
        if (!f->inputError.isEmpty())
            add(f.get(), f->path, f->inputError);
    }
    for (const ProfileIssue& issue : m_issues) {
        Field* f = fieldFor(issue.path);
        if (!f) {
            other << issue.toString();
            continue;
        }
        if (!f->inputError.isEmpty())
            continue; // the profile still holds the last readable value: its issues are stale
        add(f, issue.path, issue.message);
    }
    const QString color = errorColor(palette()).name();
    for (const auto& f : m_fields) {
        if (f->message) {
            const QStringList& l = lines.value(f->message);
            f->message->setText(l.join(QLatin1Char('\n')));
            f->message->setVisible(!l.isEmpty());
        }
        const bool bad = flagged.value(f.get());
        if (bad != f->framed) {
            f->framed = bad;
            f->input->setProperty("kpInvalid", bad);
            markInvalid(f->input, bad, color);
        }
    }
    m_otherIssues->setText(other.isEmpty() ? QString() : tr("Problems: %1").arg(other.join(QStringLiteral("; "))));
    m_otherIssues->setVisible(!other.isEmpty());
}

void ProfileForm::scrollToSection(const QString& section)
{
    for (const auto& [key, box] : m_sectionBoxes) {
        if (key == section)
            m_scroll->verticalScrollBar()->setValue(box->y() - m_sections->contentsMargins().top());
    }
}

ProfileForm::Field* ProfileForm::addField(
    const QString& path, QWidget* input, std::function<void()> load, std::function<QString()> store)
{
    auto field = std::make_unique<Field>();
    field->path = path;
    field->input = input;
    field->load = std::move(load);
    field->store = std::move(store);
    input->setObjectName(path);
    m_fields.push_back(std::move(field));
    return m_fields.back().get();
}

namespace {

// Where the field's value lives: the form's own accessor, else the schema's (profileschema.cpp).
FieldAccessor accessorOf(const FieldSpec& spec)
{
    if (!std::holds_alternative<std::monostate>(spec.accessor))
        return spec.accessor;
    const ProfileField* field = profileField(QString::fromLatin1(spec.key));
    if (!field)
        return {};
    return std::visit(
        [](auto ref) -> FieldAccessor {
            if constexpr (std::is_constructible_v<FieldAccessor,
                              decltype(ref)> && !std::is_same_v<decltype(ref), std::monostate>)
                return ref;
            else
                return {};
        },
        field->ref);
}

// The spin box's upper end: the form's own, else the schema's range.
double maximumOf(const FieldSpec& spec)
{
    if (spec.max != 0)
        return spec.max;
    const ProfileField* field = profileField(QString::fromLatin1(spec.key));
    return field && field->max ? field->max->value : 0;
}

} // namespace

ProfileForm::Field* ProfileForm::addField(const FieldSpec& spec)
{
    return std::visit([this, &spec](auto accessor) { return addInput(spec, accessor); }, accessorOf(spec));
}

ProfileForm::Field* ProfileForm::addInput(const FieldSpec& spec, std::monostate)
{
    qFatal("profile form: %s has neither a kind nor a builder", spec.key);
}

ProfileForm::Field* ProfileForm::addInput(const FieldSpec& spec, TextAccessor accessor)
{
    auto* edit = new QLineEdit;
    edit->setPlaceholderText(translated(spec.placeholder));
    edit->setClearButtonEnabled(false);
    Field* f = addField(
        QLatin1String(spec.key), edit,
        [this, edit, accessor] {
            edit->setText(accessor(m_profile));
            edit->setCursorPosition(0); // show the start of a long value
        },
        [this, edit, accessor] {
            accessor(m_profile) = edit->text();
            return QString();
        });
    connect(edit, &QLineEdit::textChanged, this, [this, f] { fieldChanged(f); });
    return f;
}

ProfileForm::Field* ProfileForm::addInput(const FieldSpec& spec, NumberAccessor accessor)
{
    auto* spin = new NumberSpinBox;
    spin->setRange(spec.min, maximumOf(spec));
    spin->setSingleStep(spec.step);
    spin->setSuffix(translated(spec.suffix));
    if (spec.prefix)
        spin->setPrefix(QLatin1String(spec.prefix));
    Field* f = addField(
        QLatin1String(spec.key), spin, [this, spin, accessor] { spin->setValue(accessor(m_profile)); },
        [this, spin, accessor] {
            accessor(m_profile) = spin->value();
            return QString();
        });
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, f] { fieldChanged(f); });
    return f;
}

ProfileForm::Field* ProfileForm::addInput(const FieldSpec& spec, OptionalNumberAccessor accessor)
{
    auto* spin = new NumberSpinBox;
    spin->setRange(spec.min, maximumOf(spec));
    spin->setSingleStep(spec.step);
    spin->setSuffix(translated(spec.suffix));
    spin->setSpecialValueText(tr("unset"));
    Field* f = addField(
        QLatin1String(spec.key), spin,
        [this, spin, accessor, unset = spec.min] { spin->setValue(accessor(m_profile).value_or(unset)); },
        [this, spin, accessor] {
            const double v = spin->value();
            accessor(m_profile) = v == spin->minimum() ? std::nullopt : std::optional<double>(v);
            return QString();
        });
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, f] { fieldChanged(f); });
    return f;
}

ProfileForm::Field* ProfileForm::addInput(const FieldSpec& spec, IntegerAccessor accessor)
{
    auto* spin = new IntSpinBox;
    spin->setRange(int(spec.min), int(maximumOf(spec)));
    spin->setSuffix(translated(spec.suffix));
    if (spec.special)
        spin->setSpecialValueText(translated(spec.special));
    Field* f = addField(
        QLatin1String(spec.key), spin, [this, spin, accessor] { spin->setValue(accessor(m_profile)); },
        [this, spin, accessor] {
            accessor(m_profile) = spin->value();
            return QString();
        });
    connect(spin, &QSpinBox::valueChanged, this, [this, f] { fieldChanged(f); });
    return f;
}

ProfileForm::Field* ProfileForm::addInput(const FieldSpec& spec, OptionalIntegerAccessor accessor)
{
    auto* spin = new IntSpinBox;
    spin->setRange(int(spec.min), int(maximumOf(spec)));
    spin->setSuffix(translated(spec.suffix));
    spin->setSpecialValueText(tr("unset"));
    Field* f = addField(
        QLatin1String(spec.key), spin,
        [this, spin, accessor, unset = int(spec.min)] { spin->setValue(accessor(m_profile).value_or(unset)); },
        [this, spin, accessor] {
            const int v = spin->value();
            accessor(m_profile) = v == spin->minimum() ? std::nullopt : std::optional<int>(v);
            return QString();
        });
    connect(spin, &QSpinBox::valueChanged, this, [this, f] { fieldChanged(f); });
    return f;
}

ProfileForm::Field* ProfileForm::addInput(const FieldSpec& spec, CheckAccessor accessor)
{
    auto* box = new QCheckBox(translated(spec.text));
    Field* f = addField(
        QLatin1String(spec.key), box, [this, box, accessor] { box->setChecked(accessor(m_profile)); },
        [this, box, accessor] {
            accessor(m_profile) = box->isChecked();
            return QString();
        });
    connect(box, &QCheckBox::toggled, this, [this, f] { fieldChanged(f); });
    return f;
}

ProfileForm::Field* ProfileForm::addInput(const FieldSpec& spec, IntegerListAccessor accessor)
{
    auto* edit = new QLineEdit;
    edit->setPlaceholderText(translated(spec.placeholder));
    Field* f = addField(
        QLatin1String(spec.key), edit,
        [this, edit, accessor] {
            QStringList parts;
            for (int v : accessor(m_profile))
                parts << QString::number(v);
            edit->setText(parts.join(QStringLiteral(", ")));
        },
        [this, edit, accessor, notAnInteger = translated(spec.invalid)]() -> QString {
            QList<int> out;
            for (const QString& token : listTokens(edit->text())) {
                bool ok = false;
                const int v = QLocale::c().toInt(token, &ok);
                if (!ok)
                    return notAnInteger.arg(token);
                out << v;
            }
            accessor(m_profile) = out;
            return QString();
        });
    connect(edit, &QLineEdit::textChanged, this, [this, f] { fieldChanged(f); });
    f->enableTarget = withUnit(edit, translated(spec.text));
    return f;
}

ProfileForm::Field* ProfileForm::addInput(const FieldSpec& spec, ChoiceAccessor accessor)
{
    auto* combo = new ComboBox;
    for (const ChoiceItem& item : spec.items)
        combo->addItem(translated(item.text), item.value);
    Field* f = addField(
        QLatin1String(spec.key), combo,
        [this, combo, accessor] { combo->setCurrentIndex(std::max(0, combo->findData(accessor.get(m_profile)))); },
        [this, combo, accessor] {
            accessor.set(m_profile, combo->currentData().toString());
            return QString();
        });
    connect(combo, &QComboBox::currentIndexChanged, this, [this, f] { fieldChanged(f); });
    return f;
}

QFormLayout* ProfileForm::addSection(const QString& key, const QString& title)
{
    auto* box = new QGroupBox(title);
    box->setObjectName(QStringLiteral("section.") + key);
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    form->setVerticalSpacing(6);
    m_sections->addWidget(box);
    m_sectionBoxes.append({ key, box });
    return form;
}

void ProfileForm::addRow(
    QFormLayout* form, const QString& label, QWidget* content, const QList<QWidget*>& inputs, const QString& tooltip)
{
    auto* cell = new QWidget;
    auto* v = new QVBoxLayout(cell);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addWidget(content);
    auto* message = new QLabel;
    message->setWordWrap(true);
    message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette pal = message->palette();
    pal.setColor(QPalette::WindowText, errorColor(pal));
    message->setPalette(pal);
    message->setVisible(false);
    v->addWidget(message);

    const QList<QWidget*> owned = inputs.isEmpty() ? QList<QWidget*> { content } : inputs;
    for (QWidget* input : owned) {
        for (auto& f : m_fields) {
            if (f->input == input) {
                f->message = message;
                message->setObjectName(f->path + QStringLiteral(".message"));
                if (inputs.isEmpty() && !tooltip.isEmpty())
                    input->setToolTip(tooltip);
            }
        }
    }
    auto* l = new QLabel(label);
    l->setToolTip(tooltip);
    l->setBuddy(owned.constFirst());
    // Aligns the label with the first line of the input rather than the middle of the cell.
    const QWidget* first = owned.constFirst();
    const int lineHeight = QLineEdit().sizeHint().height();
    l->setMinimumHeight(std::min(first->sizeHint().boundedTo(first->maximumSize()).height(), lineHeight));
    l->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    l->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_rowLabels << l;
    form->addRow(l, cell);
}

QWidget* ProfileForm::grid(const QList<std::pair<QString, QWidget*>>& cells, int columns)
{
    auto* w = new QWidget;
    auto* g = new QGridLayout(w);
    g->setContentsMargins(0, 0, 0, 0);
    g->setHorizontalSpacing(8);
    g->setVerticalSpacing(4);
    for (qsizetype i = 0; i < cells.size(); ++i) {
        const auto& [caption, input] = cells[i];
        const int row = int(i / columns);
        const int col = int(i % columns) * 2;
        auto* l = new QLabel(caption);
        l->setBuddy(input);
        l->setToolTip(input->toolTip());
        g->addWidget(l, row, col, Qt::AlignRight);
        g->addWidget(input, row, col + 1);
        g->setColumnStretch(col + 1, 1);
        for (auto& f : m_fields) {
            if (f->input == input)
                f->caption = caption;
        }
    }
    return w;
}

void ProfileForm::addRow(QFormLayout* form, const RowSpec& row)
{
    QList<Field*> fields;
    QWidget* content = nullptr; // a builder's, else made here by the row's shape
    for (const FieldSpec& spec : row.fields) {
        Field* f = nullptr;
        if (spec.build) {
            content = (this->*spec.build)(spec);
            f = m_fields.back().get();
        } else {
            f = addField(spec);
        }
        // Set before grid() is made: its captions show their input's tooltip.
        if (spec.tooltip)
            f->input->setToolTip(tip(f->path, translated(spec.tooltip)));
        fields << f;
    }
    const QString label = translated(row.label);
    const QString rowTip = row.tooltip ? tip(QLatin1String(row.tipKey), translated(row.tooltip)) : QString();
    if (row.shape == RowShape::Field) {
        Q_ASSERT(fields.size() == 1);
        Field* f = fields.constFirst();
        if (!content)
            content = f->enableTarget ? f->enableTarget : f->input;
        addRow(form, label, content, { f->input }, row.tooltip ? rowTip : f->input->toolTip());
        return;
    }

    QList<QWidget*> inputs; // in the order shown
    QList<std::pair<QString, QWidget*>> cells;
    QWidget* check = nullptr;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        QWidget* input = fields[i]->input;
        if (row.shape == RowShape::CheckOverGrid && std::holds_alternative<CheckAccessor>(accessorOf(row.fields[i]))) {
            check = input;
            inputs.prepend(input);
        } else {
            inputs << input;
            cells.append({ translated(row.fields[i].caption), input });
        }
    }
    if (row.shape == RowShape::Grid) {
        content = grid(cells, row.columns);
    } else if (row.shape == RowShape::CheckOverGrid) {
        content = new QWidget;
        auto* v = new QVBoxLayout(content);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(4);
        v->addWidget(check);
        v->addWidget(grid(cells, row.columns));
    } else {
        content = new QWidget;
        auto* h = new QHBoxLayout(content);
        h->setContentsMargins(0, 0, 0, 0);
        for (QWidget* input : std::as_const(inputs))
            h->addWidget(input);
        h->addStretch();
    }
    addRow(form, label, content, inputs, rowTip);
}

void ProfileForm::updateDependentState()
{
    const Profile& p = m_profile;
    // Synthetic datasets (random, shared-prefix) take lengths; the others read a file.
    const bool random
        = p.workload.dataset == QLatin1String("random") || p.workload.dataset == QLatin1String("shared-prefix");
    const bool sharedPrefix = p.workload.dataset == QLatin1String("shared-prefix");
    const bool sharegpt = p.workload.dataset == QLatin1String("sharegpt");
    const bool mooncake = p.workload.dataset == QLatin1String("mooncake");
    const bool lines = p.workload.dataset == QLatin1String("jsonl") || p.workload.dataset == QLatin1String("replay")
        || mooncake || (sharegpt && p.workload.multiTurn);
    const bool multiTurn = p.workload.multiTurn;
    const bool rate = p.load.mode == LoadMode::Rate;
    const PlanKind kind = p.load.plan.kind;
    const QHash<QString, bool> enabled = {
        { QStringLiteral("workload.dataset_path"), !random },
        { QStringLiteral("workload.fixed_output_len"), !random },
        { QStringLiteral("workload.input_len"), random },
        { QStringLiteral("workload.output_len"), random },
        { QStringLiteral("workload.range_ratio"), random },
        { QStringLiteral("workload.prefix_len"), random },
        { QStringLiteral("workload.num_prefixes"), sharedPrefix },
        { QStringLiteral("workload.suffixes_per_prefix"), sharedPrefix },
        { QStringLiteral("workload.filter_lengths"), sharegpt },
        { QStringLiteral("workload.min_len"), sharegpt && p.workload.filterLengths },
        { QStringLiteral("workload.max_prompt_len"), sharegpt && p.workload.filterLengths },
        { QStringLiteral("workload.max_total_len"), sharegpt && p.workload.filterLengths },
        { QStringLiteral("workload.bad_lines"), lines },
        { QStringLiteral("workload.replay_speed"), p.workload.dataset == QLatin1String("replay") || mooncake },
        // A log is replayed as recorded, every step: no pool to draw from.
        { QStringLiteral("workload.prompt_pool"), p.workload.dataset != QLatin1String("replay") && !mooncake },
        { QStringLiteral("workload.think_time_s"), multiTurn },
        { QStringLiteral("workload.multi_turn_history"), multiTurn },
        { QStringLiteral("workload.turns"), multiTurn && p.workload.dataset == QLatin1String("random") },
        { QStringLiteral("workload.system_prompt_len"), multiTurn && p.workload.dataset == QLatin1String("random") },
        { QStringLiteral("workload.max_model_len"), mooncake },
        { QStringLiteral("load.rates"), rate && kind == PlanKind::List },
        { QStringLiteral("load.concurrencies"), !rate && kind == PlanKind::List },
        { QStringLiteral("load.burstiness"), rate },
        { QStringLiteral("load.max_concurrency"), rate },
        { QStringLiteral("load.ramp_up_s"), rate },
        { QStringLiteral("load.plan.tolerance"), p.load.plan.refine },
        { QStringLiteral("load.plan.max_refine_steps"), p.load.plan.refine },
        { QStringLiteral("output.save_detailed"), p.output.saveResult },
    };
    // Where the profile schema says when a field applies, it decides; the rules above are the form's
    // own (the schema has none for them).
    for (const auto& f : m_fields) {
        const ProfileField* field = profileField(f->path);
        const auto it = enabled.constFind(f->path);
        const bool on = field && field->applies ? field->appliesTo(p) : it == enabled.constEnd() || it.value();
        (f->enableTarget ? f->enableTarget : f->input)->setEnabled(on);
    }
    for (QWidget* w : std::as_const(m_loadUnitInputs))
        static_cast<QDoubleSpinBox*>(w)->setSuffix(rate ? tr(" req/s") : tr(" users"));
    m_endpoint->setPlaceholderText(tr("default: %1").arg(defaultEndpoint(p.target.backend)));

    // A keychain entry is read when a run starts, not on every edit: the keychain may take seconds.
    const bool keychain = p.target.apiKeySource() == ApiKeyResolution::Source::Keychain;
    const ApiKeyResolution key = p.target.resolvedApiKey(false);
    QString source;
    if (keychain)
        source = keychainEntryName(p.target.apiKey).isEmpty()
            ? tr("\"keychain:\" needs an entry name.")
            : tr("Sent: keychain entry %1, read when a run starts.").arg(keychainEntryName(p.target.apiKey));
    else if (p.target.isBuiltinSimulator() && p.target.apiKey.isEmpty())
        source = tr("The built-in simulator needs no key.");
    else if (!key.ok())
        source = key.error;
    else if (key.source == ApiKeyResolution::Source::Literal)
        source = tr("Sent: %1. Prefer ${ENV_VAR}: profiles get shared.").arg(key.describe());
    else
        source = tr("Sent: %1.").arg(key.describe());
    m_apiKeySource->setText(source);
}

} // namespace kp::ui
