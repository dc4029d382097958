#pragma once

#include <QAbstractSocket>
#include <QNetworkReply>
#include <QString>

namespace kp {

// A network error in English words, from its enum key: "ProxyConnectionRefusedError" → "proxy
// connection refused"; both transports' "remote host closed" (a close or a reset) reads "the server
// closed the connection". Qt's errorString() is translated once the desktop application installs Qt's catalogue, and
// a request's error message is written to requests.jsonl, which must read the same under any language.
QString errorWords(QNetworkReply::NetworkError error);
QString errorWords(QAbstractSocket::SocketError error);

} // namespace kp
