#pragma once

// Internal to kneepoint_ui_profile: the small pieces ProfileForm's inputs are made of, shared by its field
// machinery (profileform.cpp, which defines the functions) and its composite inputs (profileforminputs.cpp).

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLocale>
#include <QSpinBox>
#include <QString>
#include <QStringList>
#include <QWheelEvent>

class QWidget;

namespace kp::ui::form {

// Spin boxes and combos in a scrolling form only take the wheel when they have focus, so that
// scrolling the form does not change values under the pointer.
template <typename Base> class FocusWheel : public Base
{
public:
    using Base::Base;

protected:
    void wheelEvent(QWheelEvent* event) override
    {
        if (!this->hasFocus()) {
            event->ignore();
            return;
        }
        Base::wheelEvent(event);
    }
};

// Shows the shortest text that reads back as the value ("10 s", "0.125 s") rather than a fixed
// number of decimals, so that a profile's values are shown as written.
class NumberSpinBox : public FocusWheel<QDoubleSpinBox>
{
public:
    NumberSpinBox()
    {
        QLocale l = locale();
        l.setNumberOptions(l.numberOptions() | QLocale::OmitGroupSeparator);
        setLocale(l);
        setDecimals(6);
        setFocusPolicy(Qt::StrongFocus);
        setAccelerated(true);
        // The size hint is made for the largest value; values are short, and the form must fit.
        setMinimumWidth(fontMetrics().averageCharWidth() * 11);
    }

protected:
    QString textFromValue(double value) const override
    {
        return locale().toString(value, 'f', QLocale::FloatingPointShortest);
    }
};

class IntSpinBox : public FocusWheel<QSpinBox>
{
public:
    IntSpinBox()
    {
        setFocusPolicy(Qt::StrongFocus);
        setAccelerated(true);
        setMinimumWidth(fontMetrics().averageCharWidth() * 11);
    }
};

class ComboBox : public FocusWheel<QComboBox>
{
public:
    ComboBox() { setFocusPolicy(Qt::StrongFocus); }
};

// A text of the field table (profilefields.cpp), in ProfileForm's context; empty for none.
QString translated(const char* source);
// The tokens of a list a field holds: "1, 2;4 8" → 1 2 4 8.
QStringList listTokens(const QString& text);
// An input with its unit after it.
QWidget* withUnit(QWidget* input, const QString& unit);
// An input with a button beside it.
QWidget* withButton(QWidget* input, QWidget* button);

} // namespace kp::ui::form
