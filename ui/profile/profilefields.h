#pragma once

#include "profile/profile.h"

#include <QList>
#include <QString>

#include <optional>
#include <variant>

namespace kp::ui {

// The profile form as data: its sections, their rows and the fields in them, in the order shown.
// ProfileForm builds the inputs from these by their kind, and calls a field's builder for the few
// that no kind describes. Texts are source strings in the context of ProfileForm (kp::ui::ProfileForm),
// translated where they are shown.

struct ChoiceAccessor
{
    QString (*get)(const Profile&) = nullptr;
    void (*set)(Profile&, const QString&) = nullptr; // leaves the profile alone for a value it cannot hold
};

// Where a field's value lives in the profile; the alternative held is the field's kind:
// std::monostate for an input its builder makes.
using TextAccessor = QString& (*)(Profile&);
using NumberAccessor = double& (*)(Profile&);
using OptionalNumberAccessor = std::optional<double>& (*)(Profile&);
using IntegerAccessor = int& (*)(Profile&);
using OptionalIntegerAccessor = std::optional<int>& (*)(Profile&);
using CheckAccessor = bool& (*)(Profile&);
using IntegerListAccessor = QList<int>& (*)(Profile&);
using FieldAccessor = std::variant<std::monostate, TextAccessor, NumberAccessor, OptionalNumberAccessor,
    IntegerAccessor, OptionalIntegerAccessor, CheckAccessor, IntegerListAccessor, ChoiceAccessor>;

class ProfileForm;
struct FieldSpec;
// Builds an input no kind describes (a list of widgets, a parser of its own, a button beside it),
// adds its field and returns what its row shows.
using InputBuilder = QWidget* (ProfileForm::*)(const FieldSpec&);

struct ChoiceItem
{
    const char* text = nullptr;
    QString value = {}; // as the profile holds it
};

struct FieldSpec
{
    const char* key = nullptr; // the profile's key ("load.rates"), and the input's object name
    // Where the value lives when the schema (profile/profileschema.h) does not say it: lists, choices.
    FieldAccessor accessor = {};
    // Spin boxes: the range and step; max 0: the schema's. An optional value's minimum is its "unset"
    // value, below the values it may hold.
    double min = 0;
    double max = 0;
    double step = 1;
    const char* suffix = nullptr;
    const char* prefix = nullptr; // not translated
    const char* special = nullptr; // the text shown at the minimum; optional values show "unset"
    const char* placeholder = nullptr;
    const char* text = nullptr; // a check box's text; the unit after an integer list
    const char* invalid = nullptr; // integer list: a token that is not a whole number, as %1
    QList<ChoiceItem> items = {};
    const char* caption = nullptr; // its label in a grid
    const char* tooltip = nullptr; // shown under the key
    InputBuilder build = nullptr; // makes the input instead of its kind; the field alone in its row
};

enum class RowShape {
    Field, // one input
    Grid, // inputs in a grid of `columns`, each with its caption
    CheckOverGrid, // the check box among the fields, the others in a grid under it
    Checks, // inputs side by side
};

struct RowSpec
{
    const char* label = nullptr;
    RowShape shape = RowShape::Field;
    QList<FieldSpec> fields = {}; // in the order their inputs are made
    int columns = 2;
    // A row of several fields has a tooltip of its own; a row of one shows the field's unless it
    // has one.
    const char* tipKey = nullptr;
    const char* tooltip = nullptr;
};

struct SectionSpec
{
    const char* key = nullptr; // "target": the group box is "section.target"
    const char* title = nullptr;
    QList<RowSpec> rows = {};
};

} // namespace kp::ui
