#include "client/errorwords.h"

#include <QMetaEnum>
#include <QStringList>

namespace kp {

namespace {

QString words(const char* key)
{
    if (!key)
        return QStringLiteral("unknown network error");
    QString name = QString::fromLatin1(key);
    if (name.endsWith(QLatin1String("Error")) && name.size() > 5)
        name.chop(5);
    QString out;
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name.at(i);
        // A capital starts a word, unless it continues an acronym ("SSL", "TLS").
        if (c.isUpper() && i > 0 && !(name.at(i - 1).isUpper() && (i + 1 == name.size() || name.at(i + 1).isUpper())))
            out += u' ';
        out += c.toLower();
    }
    return out;
}

// A close and a reset read the same to Qt (RemoteHostClosedError) on both transports.
QString closedWords()
{
    return QStringLiteral("the server closed the connection");
}

} // namespace

QString errorWords(QNetworkReply::NetworkError error)
{
    if (error == QNetworkReply::RemoteHostClosedError)
        return closedWords();
    return words(QMetaEnum::fromType<QNetworkReply::NetworkError>().valueToKey(error));
}

QString errorWords(QAbstractSocket::SocketError error)
{
    if (error == QAbstractSocket::RemoteHostClosedError)
        return closedWords();
    return words(QMetaEnum::fromType<QAbstractSocket::SocketError>().valueToKey(error));
}

QString tlsErrorWords(const QList<QSslError>& errors)
{
    QStringList out;
    for (const QSslError& e : errors) {
        const QString w = words(QMetaEnum::fromType<QSslError::SslError>().valueToKey(e.error()));
        if (!out.contains(w))
            out << w;
    }
    return out.join(QStringLiteral(", "));
}

QString largeRequestNote(qint64 bodyBytes)
{
    if (bodyBytes <= kLargeRequestBytes)
        return {};
    return QStringLiteral(" while a %1 MiB request body was being sent; a server or proxy body limit (HTTP 413 "
                          "Payload Too Large, e.g. nginx client_max_body_size) closes a large request this way")
        .arg(double(bodyBytes) / (1024 * 1024), 0, 'f', 1);
}

} // namespace kp
