#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>

namespace kp {

struct Workload;

// Synthetic images, encoded here without an image library (the engine links QtCore only): a PNG of
// tiles (zlib through qCompress) or a baseline JPEG whose 8x8 blocks are each one colour. Their tiles'
// colours come from the seed and the key alone, so a key gives the same bytes on every run and another
// key another image.
QByteArray syntheticPng(int width, int height, quint64 seed, quint64 key);
QByteArray syntheticJpeg(int width, int height, quint64 seed, quint64 key);

// "data:image/png;base64,..." for the bytes of an image of that media type.
QString imageDataUrl(const QByteArray& bytes, const QString& mediaType);
// The media type a file's first bytes say it is (PNG, JPEG, GIF, WebP), empty when none of them.
QString imageMediaType(const QByteArray& head);

// The images a workload attaches to each request: image_count synthetic ones (built once per prompt and
// kept in a bounded cache) or image_dir's files (read once, sorted by name, cycled by prompt). Shared by
// the requests of a sweep; thread-safe.
class ImageSource
{
public:
    // Null without images; on failure (a folder that is empty, unreadable, or holds a non-image) error
    // names the folder or the file and the result is null.
    static std::shared_ptr<const ImageSource> fromWorkload(const Workload& workload, QString* error);

    int perRequest() const { return m_count; }
    // The data URLs of the images of the prompt at this index.
    QStringList urlsFor(qint64 promptIndex) const;

    ~ImageSource();

private:
    ImageSource() = default;
    struct Cache;

    int m_count = 0;
    int m_width = 0;
    int m_height = 0;
    bool m_jpeg = false;
    quint64 m_seed = 0;
    QStringList m_folder; // data URLs, sorted by file name
    std::unique_ptr<Cache> m_cache;
};

} // namespace kp
