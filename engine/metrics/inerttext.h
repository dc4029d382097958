#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringView>

namespace kp {

// Text that came from outside — a server's body, an error message in its JSON, a header — made inert
// before anyone sees it: control characters (C0, DEL, C1) and the Unicode controls that reorder or
// hide text (bidirectional overrides and isolates, zero-width joiners aside) become visible escapes,
// "\n", "\r", "\t", "\x1b", "\u202e". A terminal or a label then shows them instead of obeying them:
// "\x1b]0;PWNED\x07\x1b[2J" cannot retitle a terminal or clear it.
QString inertText(QStringView text);
// The same for one line of output of our own that may quote such text: newlines and tabs stay.
QString inertLines(QStringView text);
// The first `limit` bytes of a body, decoded as UTF-8 (invalid bytes become U+FFFD), made inert, with
// "…" when cut.
QString inertExcerpt(QByteArrayView bytes, qsizetype limit);

} // namespace kp
