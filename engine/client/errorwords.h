#pragma once

#include <QAbstractSocket>
#include <QNetworkReply>
#include <QString>

namespace kp {

// A network error in English words, from its enum key: "RemoteHostClosedError" → "remote host
// closed". Qt's errorString() is translated once the desktop application installs Qt's catalogue, and
// a request's error message is written to requests.jsonl, which must read the same under any language.
QString errorWords(QNetworkReply::NetworkError error);
QString errorWords(QAbstractSocket::SocketError error);

} // namespace kp
