#pragma once

#include "profile/profile.h"

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
    struct Field;
    using Accessor = std::function<QString&(Profile&)>;

    Field* addField(const QString& path, QWidget* input, std::function<void()> load, std::function<QString()> store);
    QLineEdit* addText(const QString& path, const Accessor& accessor, const QString& placeholder = QString());
    QWidget* addNumber(const QString& path, const std::function<double&(Profile&)>& accessor, double min, double max,
        double step, const QString& suffix);
    QWidget* addOptionalNumber(const QString& path, const std::function<std::optional<double>&(Profile&)>& accessor,
        double unset, double max, double step, const QString& suffix);
    QWidget* addInteger(
        const QString& path, const std::function<int&(Profile&)>& accessor, int min, int max, const QString& suffix);
    QWidget* addOptionalInteger(const QString& path, const std::function<std::optional<int>&(Profile&)>& accessor,
        int unset, int max, const QString& suffix);
    QWidget* addCheck(const QString& path, const std::function<bool&(Profile&)>& accessor, const QString& text);
    // A comma-separated list of whole numbers with its unit after it; returns the row (the field's enable
    // target), the line edit is the field's input. notAnInteger names a bad token as %1.
    QWidget* addIntegerList(const QString& path, const std::function<QList<int>&(Profile&)>& accessor,
        const QString& placeholder, const QString& unit, const QString& notAnInteger);

    QFormLayout* addSection(const QString& key, const QString& title);
    // A form row: the label, the input (or a row of inputs) and the message line under it, shared by
    // the fields given.
    void addRow(QFormLayout* form, const QString& label, QWidget* content, const QList<QWidget*>& inputs,
        const QString& tooltip);
    QWidget* grid(const QList<std::pair<QString, QWidget*>>& cells, int columns);

    void buildTarget();
    void buildWorkload();
    void buildLoad();
    void buildSlo();
    void buildServer();
    void buildOutput();

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
