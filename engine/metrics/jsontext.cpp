#include "metrics/jsontext.h"

#include <QChar>
#include <QLocale>

#include <cmath>

namespace kp {

namespace {

char* writeUnicodeEscape(char* out, char16_t u)
{
    static constexpr char hex[] = "0123456789abcdef";
    *out++ = '\\';
    *out++ = 'u';
    *out++ = hex[(u >> 12) & 0xf];
    *out++ = hex[(u >> 8) & 0xf];
    *out++ = hex[(u >> 4) & 0xf];
    *out++ = hex[u & 0xf];
    return out;
}

} // namespace

qsizetype jsonStringSize(QStringView s)
{
    qsizetype n = 2;
    const char16_t* p = s.utf16();
    const char16_t* const end = p + s.size();
    while (p != end) {
        const char16_t u = *p++;
        if (u < 0x80) {
            if (u >= 0x20 && u != u'"' && u != u'\\')
                n += 1;
            else if (u == u'"' || u == u'\\' || u == u'\b' || u == u'\f' || u == u'\n' || u == u'\r' || u == u'\t')
                n += 2;
            else
                n += 6;
        } else if (u < 0x800) {
            n += 2;
        } else if (!QChar::isSurrogate(u)) {
            n += 3;
        } else if (QChar::isHighSurrogate(u) && p != end && QChar::isLowSurrogate(*p)) {
            ++p;
            n += 4;
        } else {
            n += 6;
        }
    }
    return n;
}

char* writeJsonString(char* out, QStringView s)
{
    *out++ = '"';
    const char16_t* p = s.utf16();
    const char16_t* const end = p + s.size();
    while (p != end) {
        const char16_t u = *p++;
        if (u < 0x80) {
            if (u >= 0x20 && u != u'"' && u != u'\\') {
                *out++ = char(u);
                continue;
            }
            char escape = 0;
            switch (u) {
            case u'"':
                escape = '"';
                break;
            case u'\\':
                escape = '\\';
                break;
            case u'\b':
                escape = 'b';
                break;
            case u'\f':
                escape = 'f';
                break;
            case u'\n':
                escape = 'n';
                break;
            case u'\r':
                escape = 'r';
                break;
            case u'\t':
                escape = 't';
                break;
            default:
                break;
            }
            if (escape) {
                *out++ = '\\';
                *out++ = escape;
            } else {
                out = writeUnicodeEscape(out, u);
            }
        } else if (u < 0x800) {
            *out++ = char(0xc0 | (u >> 6));
            *out++ = char(0x80 | (u & 0x3f));
        } else if (!QChar::isSurrogate(u)) {
            *out++ = char(0xe0 | (u >> 12));
            *out++ = char(0x80 | ((u >> 6) & 0x3f));
            *out++ = char(0x80 | (u & 0x3f));
        } else if (QChar::isHighSurrogate(u) && p != end && QChar::isLowSurrogate(*p)) {
            const char32_t c = QChar::surrogateToUcs4(u, *p++);
            *out++ = char(0xf0 | (c >> 18));
            *out++ = char(0x80 | ((c >> 12) & 0x3f));
            *out++ = char(0x80 | ((c >> 6) & 0x3f));
            *out++ = char(0x80 | (c & 0x3f));
        } else {
            out = writeUnicodeEscape(out, u);
        }
    }
    *out++ = '"';
    return out;
}

void appendJsonString(QByteArray& out, QStringView s)
{
    const qsizetype at = out.size();
    out.resize(at + jsonStringSize(s));
    writeJsonString(out.data() + at, s);
}

void appendJsonNumber(QByteArray& out, double d)
{
    if (std::isfinite(d))
        out += QByteArray::number(d, 'g', QLocale::FloatingPointShortest);
    else
        out += "null";
}

} // namespace kp
