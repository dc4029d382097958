#pragma once

#include <QAbstractSocket>
#include <QList>
#include <QNetworkReply>
#include <QSslError>
#include <QString>

namespace kp {

// A network error in English words, from its enum key: "ProxyConnectionRefusedError" → "proxy
// connection refused"; both transports' "remote host closed" (a close or a reset) reads "the server
// closed the connection". Qt's errorString() is translated once the desktop application installs Qt's catalogue, and
// a request's error message is written to requests.jsonl, which must read the same under any language.
QString errorWords(QNetworkReply::NetworkError error);
QString errorWords(QAbstractSocket::SocketError error);

// Why a certificate was refused, in the same English words from the errors' enum keys, each once:
// "self signed certificate", "host name mismatch, certificate expired". Empty for no errors.
QString tlsErrorWords(const QList<QSslError>& errors);

// A request body past this size may still be on its way when a server or proxy refuses it from its
// headers alone (413 Payload Too Large from a body limit) and closes the connection.
constexpr qint64 kLargeRequestBytes = 1024 * 1024;

// What a broken connection's message adds when the request body was that large and no answer was
// read: "" for a smaller body.
QString largeRequestNote(qint64 bodyBytes);

} // namespace kp
