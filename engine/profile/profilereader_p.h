#pragma once

// Internal to kneepoint_profile: turns a parsed document of any layout into a Profile.

#include "profile/profile.h"
#include "profile/profilestore.h"
#include "profile/sourcedocument_p.h"
#include "profile/targetstore.h"

namespace kp::detail {

struct ReadOutcome
{
    Profile profile;
    ProfileLayout layout = ProfileLayout::Unknown;
    QStringList errors;
    QStringList warnings;
};

// Detects the layout, reads every known key (type errors, unknown-key warnings), then validates;
// every message names fileName:line:col and the path as the file spells it. With targets, the saved
// target the profile refers to (or targetName, replacing its reference) is merged in before validation.
ReadOutcome readProfile(const SourceDocument& doc, const QString& fileName, const TargetStore* targets = nullptr,
    const QString& targetName = QString());

} // namespace kp::detail
