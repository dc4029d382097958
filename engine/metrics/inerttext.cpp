#include "metrics/inerttext.h"

namespace kp {

namespace {

bool reordersText(char32_t c)
{
    return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C;
}

QString escaped(QStringView text, bool keepLines)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        const char16_t u = c.unicode();
        if (keepLines && (u == u'\n' || u == u'\t')) {
            out += c;
        } else if (u == u'\n') {
            out += QLatin1String("\\n");
        } else if (u == u'\r') {
            out += QLatin1String("\\r");
        } else if (u == u'\t') {
            out += QLatin1String("\\t");
        } else if (u < 0x20 || u == 0x7F || (u >= 0x80 && u < 0xA0)) {
            out += QStringLiteral("\\x%1").arg(int(u), 2, 16, QLatin1Char('0'));
        } else if (reordersText(u)) {
            out += QStringLiteral("\\u%1").arg(int(u), 4, 16, QLatin1Char('0'));
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

QString inertText(QStringView text)
{
    return escaped(text, false);
}

QString inertLines(QStringView text)
{
    return escaped(text, true);
}

QString inertExcerpt(QByteArrayView bytes, qsizetype limit)
{
    QString text = inertText(QString::fromUtf8(bytes.first(std::min(bytes.size(), limit))));
    if (bytes.size() > limit)
        text += QStringLiteral("…");
    return text;
}

} // namespace kp
