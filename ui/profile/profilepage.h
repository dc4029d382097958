#pragma once

#include "profile/profile.h"

#include <QWidget>

#include <memory>
#include <optional>

namespace kp::ui {

// The Profiles page: the profile library (the user's config location), the form editor with its raw
// JSON tab, the connection test and the plan preview. The main window embeds it and runs what it
// asks to run.
class ProfilePage : public QWidget
{
    Q_OBJECT
public:
    explicit ProfilePage(QWidget* parent = nullptr);
    ~ProfilePage() override;

    // The profile being edited, if it validates; nullopt otherwise (the editor shows why at the field).
    std::optional<Profile> currentProfile() const;
    QString currentName() const;
    QString currentPath() const; // empty for an unsaved profile

    bool isModified() const;
    // Asks to save unsaved changes; false when the user cancels.
    bool maybeSave();
    bool save();
    void openFile(const QString& path);
    // Selects (creating it when the library is empty) the "Demo — built-in simulator" profile.
    void selectDemo();

Q_SIGNALS:
    void runRequested(const kp::Profile& profile);
    void currentChanged(const QString& name); // another profile was selected or renamed
    void modifiedChanged(bool modified);

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace kp::ui
