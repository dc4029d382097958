#pragma once

#include "profile/profile.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <span>
#include <variant>

namespace kp {

// Every key of a profile, written once: where its value lives, its type, range, default, its
// spellings in the user layouts, and how it is written. The reader (every layout, JSON and TOML),
// the writer, the validator and the command-line overrides iterate this table; the form shows its
// fields with labels of its own. docs/PROFILES.md lists the keys and their limits.

// Where a field's value lives in the profile; the alternative held is the field's type.
using TextRef = QString& (*)(Profile&);
using NumberRef = double& (*)(Profile&);
using OptionalNumberRef = std::optional<double>& (*)(Profile&);
using IntegerRef = int& (*)(Profile&);
using OptionalIntegerRef = std::optional<int>& (*)(Profile&);
using Integer64Ref = qint64& (*)(Profile&);
using FlagRef = bool& (*)(Profile&);
// std::monostate: a field read and written by code of its own (a list, an enumeration, a section
// with rules across keys); the table still names it, in its place.
using FieldRef = std::variant<std::monostate, TextRef, NumberRef, OptionalNumberRef, IntegerRef, OptionalIntegerRef,
    Integer64Ref, FlagRef>;

// One end of a field's range. A domain bound is what the value means (a fraction is at most 1); a
// limit is a documented cap that keeps one option from exhausting memory or waiting without end, and
// its message says so: "workload.think_time_s: 1e9 is above the limit 3600 s".
struct FieldBound
{
    double value = 0;
    bool open = false; // the bound itself is outside the range
    bool limit = false;
};

// The user layouts (nested, flat, tables) spell the keys as the reference tool's flags do, in groups.
enum class LegacyGroup {
    None, // not read from the user layouts
    Root, // the top level of every user layout
    Service, // api, benchmark, [service], top level: the server
    Load, // benchmark, [load], top level: prompts and load
    Output, // benchmark, [load], [output], top level: result files
    Server, // vllm_server, [engine], top level: facts about the server
    Slo, // [slo]
};

enum class WritePolicy {
    Always,
    UnlessDefault, // only when it differs from a default profile's (empty strings and unset values are not written)
    WhenApplies, // only when the field applies (applies() below)
};

struct ProfileField
{
    const char* key = nullptr; // the path in Kneepoint's schema: "workload.think_time_s"
    FieldRef ref = {};
    std::optional<FieldBound> min = {};
    std::optional<FieldBound> max = {};
    const char* unit = nullptr; // after a limit in messages: "s", "tokens"
    // The message for a value under min, when it says more than "must be >= 0" (a source string of the
    // "Profile" context).
    const char* below = nullptr;
    WritePolicy write = WritePolicy::Always;
    LegacyGroup legacy = LegacyGroup::None;
    // The user layouts' keys, read in this order (the last one present wins); empty: the last part of key.
    QList<const char*> aliases = {};
    // When the field has an effect; nullptr: always. Ranges are checked only where a field applies.
    bool (*applies)(const Profile&) = nullptr;
    const char* appliesText = nullptr; // the same for people: "random dataset with multi_turn"
    // kneepoint-cli: the flag's names ("think-time"), its value's name in --help ("SECONDS"; none for
    // a switch, which sets the field to switchSets) and its help line.
    QList<const char*> flags = {};
    const char* flagValue = nullptr;
    bool switchSets = true;
    const char* help = nullptr;
    // A text flag's own parser: the value as the profile holds it, or an error about text (without the flag).
    QString (*parseFlag)(const QString& text, QString* value) = nullptr;

    QString path() const { return QString::fromLatin1(key); }
    QString section() const; // "workload.sampling" for "workload.sampling.top_p"; "" at the top
    QString name() const; // "top_p"
    bool hasValue() const { return !std::holds_alternative<std::monostate>(ref); }
    bool isDefault(const Profile& profile) const; // equal to Profile{}'s value
    bool appliesTo(const Profile& profile) const { return !applies || applies(profile); }
};

// Every field, in the order a saved profile writes them.
std::span<const ProfileField> profileFields();
const ProfileField* profileField(QStringView key);

// A value in a field's own type: what a command line or a form gives.
using FieldValue = std::variant<QString, double, qint64, bool>;

// The range problem of value in field, worded for people; empty when it is within range. nan is not
// a number; infinities are above (below) every bound.
QString fieldRangeIssue(const ProfileField& field, double value);
// The range in words, for help texts and docs: "0 to 3600 s", "at least 1".
QString fieldRangeText(const ProfileField& field);

// Sets field to value (converted to its type: a number given to an integer field is truncated toward
// zero only when it is whole; otherwise an error). Returns an error naming the field's key, or "".
// std::nullopt clears an optional field.
QString setFieldValue(Profile& profile, const ProfileField& field, const std::optional<FieldValue>& value);

// The field's value as a number (integers, numbers, flags as 0/1); nullopt for text, unset optionals
// and fields of their own.
std::optional<double> fieldNumber(const Profile& profile, const ProfileField& field);

} // namespace kp
