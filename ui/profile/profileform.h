#pragma once

#include "profile/profile.h"
#include "profile/profilefields.h"

#include <QList>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

class QFormLayout;
class QGridLayout;
class QLabel;
class QLineEdit;
class QScrollArea;
class QVBoxLayout;

namespace kp::ui {

// The profile as a form, grouped as the schema is. Each input is named after its key
// ("load.rates", "target.base_url") and shows the issues at that key under itself.
class ProfileForm : public QWidget
{
    Q_OBJECT
public:
    explicit ProfileForm(QWidget* parent = nullptr);
    ~ProfileForm() override;

    // Shows profile without emitting edited(); input errors are cleared.
    void setProfile(const Profile& profile);
    const Profile& profile() const { return m_profile; }

    // Text the profile cannot hold ("abc" among the rates, a header line without a colon), by key.
    // While there is one, profile() keeps the field's last readable value.
    QList<ProfileIssue> inputErrors() const;
    // Shows the issues, and the input errors, at their fields; returns the issues no field holds
    // (they are listed at the top of the form).
    QList<ProfileIssue> showIssues(const QList<ProfileIssue>& issues);

    // The input for a key, or the list input for an element of it ("load.rates[2]" → load.rates).
    QWidget* inputFor(const QString& path) const;
    void scrollToSection(const QString& section);

Q_SIGNALS:
    void edited();

private:
    // One profile key's input: how it loads from and stores into the profile, and where its messages go.
    struct Field
    {
        QString path;
        QString caption; // short label, used when several fields share one message line
        QWidget* input = nullptr;
        QLabel* message = nullptr;
        std::function<void()> load;
        std::function<QString()> store; // returns an input error
        std::function<bool()> enabled;
        QWidget* enableTarget = nullptr; // the input, or the row holding it and its buttons
        QString inputError;
        bool framed = false;
    };

    // The form as data, defined in profilefields.cpp.
    static const QList<SectionSpec>& formSections();

    Field* addField(const QString& path, QWidget* input, std::function<void()> load, std::function<QString()> store);
    // The described field's input, made by its kind.
    Field* addField(const FieldSpec& spec);
    Field* addInput(const FieldSpec& spec, std::monostate);
    Field* addInput(const FieldSpec& spec, TextAccessor accessor);
    Field* addInput(const FieldSpec& spec, NumberAccessor accessor);
    Field* addInput(const FieldSpec& spec, OptionalNumberAccessor accessor);
    Field* addInput(const FieldSpec& spec, IntegerAccessor accessor);
    Field* addInput(const FieldSpec& spec, OptionalIntegerAccessor accessor);
    Field* addInput(const FieldSpec& spec, CheckAccessor accessor);
    // A comma-separated list of whole numbers with its unit after it, in a row that is the field's
    // enable target.
    Field* addInput(const FieldSpec& spec, IntegerListAccessor accessor);
    Field* addInput(const FieldSpec& spec, ChoiceAccessor accessor);

    // The inputs no kind describes (FieldSpec::build); each returns what its row shows.
    QWidget* addSavedTarget(const FieldSpec& spec);
    QWidget* addApiKey(const FieldSpec& spec);
    QWidget* addMetricsUrls(const FieldSpec& spec);
    QWidget* addHeaders(const FieldSpec& spec);
    QWidget* addProxy(const FieldSpec& spec);
    QWidget* addDataset(const FieldSpec& spec);
    QWidget* addDatasetFile(const FieldSpec& spec);
    QWidget* addSeed(const FieldSpec& spec);
    QWidget* addExtraBody(const FieldSpec& spec);
    QWidget* addRates(const FieldSpec& spec);
    QWidget* addResultDirectory(const FieldSpec& spec);
    QWidget* addPercentileMetrics(const FieldSpec& spec);
    QWidget* addPercentiles(const FieldSpec& spec);

public:
    // server_sweep.parameters' input (serversweepsection.cpp); public so that the section's table names it.
    QWidget* addServerParameters(const FieldSpec& spec);

private:
    QFormLayout* addSection(const QString& key, const QString& title);
    // A described row: its fields' inputs, laid out by its shape.
    void addRow(QFormLayout* form, const RowSpec& row);
    // A form row: the label, the input (or a row of inputs) and the message line under it, shared by
    // the fields given.
    void addRow(QFormLayout* form, const QString& label, QWidget* content, const QList<QWidget*>& inputs,
        const QString& tooltip);
    QWidget* grid(const QList<std::pair<QString, QWidget*>>& cells, int columns);

    void fieldChanged(Field* field);
    void loadAll();
    void updateDependentState();
    void updateMessages();
    Field* fieldFor(const QString& path) const;

    Profile m_profile;
    std::vector<std::unique_ptr<Field>> m_fields;
    bool m_loading = false;
    QList<ProfileIssue> m_issues;

    QScrollArea* m_scroll = nullptr;
    QVBoxLayout* m_sections = nullptr;
    QList<std::pair<QString, QWidget*>> m_sectionBoxes;
    QLabel* m_otherIssues = nullptr;
    QLabel* m_apiKeySource = nullptr;
    QLineEdit* m_endpoint = nullptr;
    QList<QWidget*> m_loadUnitInputs; // plan start/stop: req/s or users
    QList<QLabel*> m_rowLabels;
};

} // namespace kp::ui
