#pragma once

#include "profile/profile.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace kp {

// A reusable endpoint, kept in the user's configuration and referred to by name from profiles.
struct NamedTarget
{
    QString name;
    Target target;
    bool operator==(const NamedTarget&) const = default;
};

// $XDG_CONFIG_HOME/Kneepoint/Kneepoint/targets.json (QStandardPaths::GenericConfigLocation), shared by
// the desktop application and the CLI.
QString defaultTargetsPath();

// The saved targets: {"schema": "kneepoint.targets/1", "targets": [{"name": ..., <a profile's target keys>}]}.
// API keys are best kept as ${VAR} references; the file is written owner-only because it may hold one.
class TargetStore
{
public:
    explicit TargetStore(QString path = defaultTargetsPath());

    const QString& path() const { return m_path; }
    // Reads the file; a missing file is an empty store. Errors name the file and the target.
    bool load(QStringList* errors);
    const QList<NamedTarget>& targets() const { return m_targets; }
    QStringList names() const;
    const NamedTarget* find(const QString& name) const;
    // Adds a target or replaces the one with the same name (keeping its place). With `renaming`: the target
    // of that name takes the new name and settings in its place, unless another target has the new name
    // already, which is then replaced and the renamed one goes.
    void put(const NamedTarget& target, const QString& renaming = {});
    bool remove(const QString& name);
    // Atomic: on failure the previous file is untouched. The error names the file.
    bool save(QString* error) const;

    // Names are what a profile writes as "target": letters, digits, '.', '_', '-'; an error or empty.
    static QString checkName(const QString& name);

private:
    QString m_path;
    QList<NamedTarget> m_targets;
};

// A saved target together with the target a profile brings along: the saved target's settings win, and
// what it leaves empty (endpoint, model, served model name, headers it does not name) comes from the
// profile. The profile's API key, credential headers and metrics URL come along only when the profile
// names no server of its own or the saved target's (same scheme, host and port): a key written for one
// host never goes to another.
Target withSavedTarget(const Target& saved, const Target& own);

// When profile.targetName is set, merges the named target into profile.target (withSavedTarget) and
// clears the name, so the run records the endpoint it used. The error names the target, the file and
// the names it holds.
QString resolveTargetReference(Profile& profile, const TargetStore& store);

} // namespace kp
