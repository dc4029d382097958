#pragma once

// A FIFO made in a test's folder and held open here for reading and writing, so that a command's open of
// it does not wait for a reader; drain() reads back what was written. For the tests that check that a
// writer writes a special file in place instead of replacing it.

#include <QByteArray>
#include <QFile>
#include <QString>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

class HeldFifo
{
public:
    explicit HeldFifo(const QString& path)
    {
        const QByteArray name = QFile::encodeName(path);
        if (::mkfifo(name.constData(), 0600) != 0)
            return;
        m_fd = ::open(name.constData(), O_RDWR | O_NONBLOCK);
        if (m_fd >= 0)
            ::fcntl(m_fd, F_SETPIPE_SZ, 1 << 20); // room for a whole export without a reader in between
    }
    ~HeldFifo()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    HeldFifo(const HeldFifo&) = delete;
    HeldFifo& operator=(const HeldFifo&) = delete;

    bool ok() const { return m_fd >= 0; }

    // Everything written since the last drain.
    QByteArray drain()
    {
        QByteArray out;
        char buffer[65536];
        ssize_t n = 0;
        while ((n = ::read(m_fd, buffer, sizeof buffer)) > 0)
            out.append(buffer, qsizetype(n));
        return out;
    }

    // The file type bits of path (S_IFIFO, S_IFCHR, S_IFREG, ...); 0 when it does not exist.
    static mode_t typeOf(const QString& path)
    {
        struct stat st
        {
        };
        return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_mode & S_IFMT : mode_t(0);
    }

private:
    int m_fd = -1;
};
