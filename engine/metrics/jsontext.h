#pragma once

#include <QByteArray>
#include <QStringView>

// JSON text written by hand where QJsonDocument costs too much per call, byte for byte as Qt's JSON
// writer (qjsonwriter.cpp) writes it, so that files and request bodies do not depend on which wrote them.
namespace kp {

// A string as Qt's writer writes it: '"', '\\' and the control characters escaped (\b \f \n \r \t, the
// others as \u00xx), a lone surrogate as \uxxxx, everything else as UTF-8; hex digits in lower case.
qsizetype jsonStringSize(QStringView s); // the bytes writeJsonString writes, quotes included
char* writeJsonString(char* out, QStringView s); // returns the end of what it wrote
void appendJsonString(QByteArray& out, QStringView s);

// A number as Qt's writer writes a double: the shortest form that reads back the same ('g'), null when
// not finite.
void appendJsonNumber(QByteArray& out, double d);

} // namespace kp
