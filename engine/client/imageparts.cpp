#include "client/imageparts.h"

#include "metrics/phrase.h"
#include "profile/profile.h"

#include <QCache>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutex>

#include <algorithm>
#include <array>
#include <cmath>

namespace kp {

namespace {

quint64 splitMix(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

constexpr int kTile = 16; // pixels per side of a tile of one colour (two JPEG blocks)

// The colour of the tile at (tx, ty): 0xRRGGBB.
quint32 tileColour(quint64 seed, quint64 key, int tx, int ty)
{
    return quint32(splitMix(splitMix(seed ^ splitMix(key)) ^ (quint64(quint32(tx)) << 32 | quint32(ty))) & 0xffffff);
}

void appendBig(QByteArray& out, quint32 value, int bytes)
{
    for (int i = bytes - 1; i >= 0; --i)
        out.append(char((value >> (8 * i)) & 0xff));
}

quint32 crc32(const QByteArray& bytes)
{
    static const std::array<quint32, 256> table = [] {
        std::array<quint32, 256> t {};
        for (quint32 n = 0; n < 256; ++n) {
            quint32 c = n;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xedb88320U ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    quint32 c = 0xffffffffU;
    for (const char ch : bytes)
        c = table[(c ^ quint32(static_cast<unsigned char>(ch))) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffU;
}

void appendChunk(QByteArray& png, const char* type, const QByteArray& data)
{
    appendBig(png, quint32(data.size()), 4);
    const QByteArray typed = QByteArray(type, 4) + data;
    png += typed;
    appendBig(png, crc32(typed), 4);
}

// A JPEG entropy coder: bits most significant first, 0xff bytes stuffed with 0x00 (ITU T.81 F.1.2.3).
class BitWriter
{
public:
    explicit BitWriter(QByteArray& out)
        : m_out(out)
    { }
    void put(quint32 bits, int count)
    {
        for (int i = count - 1; i >= 0; --i) {
            m_byte = (m_byte << 1) | ((bits >> i) & 1);
            if (++m_filled == 8)
                flushByte();
        }
    }
    void finish()
    {
        while (m_filled != 0)
            put(1, 1); // pad with 1-bits
    }

private:
    void flushByte()
    {
        m_out.append(char(m_byte));
        if (m_byte == 0xff)
            m_out.append('\0');
        m_byte = 0;
        m_filled = 0;
    }
    QByteArray& m_out;
    quint32 m_byte = 0;
    int m_filled = 0;
};

// The DC luminance table of ITU T.81 Annex K.3 (categories 0..11); the AC table has the one symbol used,
// end of block, coded as a single 0 bit.
constexpr std::array<quint8, 16> kDcBits { 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0 };
constexpr std::array<quint8, 12> kDcValues { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
constexpr std::array<quint8, 16> kAcBits { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
constexpr quint8 kDcQuant = 8; // a uniform block's DC coefficient is 8·(v − 128): quantized, v − 128

struct HuffCode
{
    quint32 code = 0;
    int length = 0;
};

std::array<HuffCode, 12> dcCodes()
{
    std::array<HuffCode, 12> codes {};
    quint32 code = 0;
    std::size_t k = 0;
    for (int length = 1; length <= 16; ++length) {
        for (int i = 0; i < kDcBits[std::size_t(length - 1)]; ++i)
            codes[kDcValues[k++]] = { code++, length };
        code <<= 1;
    }
    return codes;
}

} // namespace

QByteArray syntheticPng(int width, int height, quint64 seed, quint64 key)
{
    // Truecolour 8-bit rows, each behind filter byte 0 (none).
    // The rows of a band of tiles are equal: one is made per band and repeated.
    QByteArray raw;
    raw.reserve(qsizetype(height) * (qsizetype(width) * 3 + 1));
    QByteArray row;
    for (int y = 0; y < height; ++y) {
        if (y % kTile == 0) {
            row = QByteArray(1, '\0');
            row.reserve(qsizetype(width) * 3 + 1);
            for (int tx = 0; tx * kTile < width; ++tx) {
                const quint32 c = tileColour(seed, key, tx, y / kTile);
                for (int x = tx * kTile; x < std::min(width, (tx + 1) * kTile); ++x)
                    row.append(char(c >> 16)).append(char(c >> 8)).append(char(c));
            }
        }
        raw += row;
    }
    QByteArray png("\x89PNG\r\n\x1a\n", 8);
    QByteArray header;
    appendBig(header, quint32(width), 4);
    appendBig(header, quint32(height), 4);
    header.append(char(8)).append(char(2)).append(char(0)).append(char(0)).append(char(0));
    appendChunk(png, "IHDR", header);
    // qCompress writes a zlib stream behind a 4-byte length of its own.
    appendChunk(png, "IDAT", qCompress(raw, 1).mid(4));
    appendChunk(png, "IEND", {});
    return png;
}

QByteArray syntheticJpeg(int width, int height, quint64 seed, quint64 key)
{
    QByteArray jpeg("\xff\xd8", 2);
    // DQT: one table, every entry kDcQuant (only DC coefficients are ever non-zero).
    jpeg.append("\xff\xdb", 2);
    appendBig(jpeg, 67, 2);
    jpeg.append('\0');
    jpeg.append(QByteArray(64, char(kDcQuant)));
    // SOF0: baseline, 8 bits, three components (Y, Cb, Cr) sampled 1x1, all on table 0.
    jpeg.append("\xff\xc0", 2);
    appendBig(jpeg, 17, 2);
    jpeg.append(char(8));
    appendBig(jpeg, quint32(height), 2);
    appendBig(jpeg, quint32(width), 2);
    jpeg.append(char(3));
    for (int id = 1; id <= 3; ++id)
        jpeg.append(char(id)).append(char(0x11)).append('\0');
    // DHT: DC table 0 and AC table 0.
    jpeg.append("\xff\xc4", 2);
    appendBig(jpeg, quint32(2 + 17 + kDcValues.size() + 17 + 1), 2);
    jpeg.append(char(0x00));
    for (const quint8 b : kDcBits)
        jpeg.append(char(b));
    for (const quint8 v : kDcValues)
        jpeg.append(char(v));
    jpeg.append(char(0x10));
    for (const quint8 b : kAcBits)
        jpeg.append(char(b));
    jpeg.append('\0'); // the one AC symbol: end of block
    // SOS: the three components interleaved, spectral selection 0..63.
    jpeg.append("\xff\xda", 2);
    appendBig(jpeg, 12, 2);
    jpeg.append(char(3));
    for (int id = 1; id <= 3; ++id)
        jpeg.append(char(id)).append('\0');
    jpeg.append('\0').append(char(63)).append('\0');

    static const std::array<HuffCode, 12> codes = dcCodes();
    BitWriter bits(jpeg);
    std::array<int, 3> previous { 0, 0, 0 };
    const int blocksX = (width + 7) / 8;
    const int blocksY = (height + 7) / 8;
    for (int by = 0; by < blocksY; ++by) {
        for (int bx = 0; bx < blocksX; ++bx) {
            const quint32 c = tileColour(seed, key, bx * 8 / kTile, by * 8 / kTile);
            const double r = (c >> 16) & 0xff;
            const double g = (c >> 8) & 0xff;
            const double b = c & 0xff;
            // JFIF's YCbCr.
            const std::array<double, 3> ycc { 0.299 * r + 0.587 * g + 0.114 * b,
                128 - 0.168736 * r - 0.331264 * g + 0.5 * b, 128 + 0.5 * r - 0.418688 * g - 0.081312 * b };
            for (std::size_t k = 0; k < 3; ++k) {
                const int dc = std::clamp(int(std::lround(ycc[k])), 0, 255) - 128;
                const int diff = dc - previous[k];
                previous[k] = dc;
                int magnitude = diff < 0 ? -diff : diff;
                int category = 0;
                while (magnitude > 0) {
                    ++category;
                    magnitude >>= 1;
                }
                bits.put(codes[std::size_t(category)].code, codes[std::size_t(category)].length);
                if (category > 0)
                    bits.put(quint32(diff < 0 ? diff + (1 << category) - 1 : diff), category);
                bits.put(0, 1); // end of block
            }
        }
    }
    bits.finish();
    jpeg.append("\xff\xd9", 2);
    return jpeg;
}

QString imageDataUrl(const QByteArray& bytes, const QString& mediaType)
{
    return QStringLiteral("data:%1;base64,").arg(mediaType) + QString::fromLatin1(bytes.toBase64());
}

QString imageMediaType(const QByteArray& head)
{
    if (head.startsWith("\x89PNG\r\n\x1a\n"))
        return QStringLiteral("image/png");
    if (head.startsWith("\xff\xd8\xff"))
        return QStringLiteral("image/jpeg");
    if (head.startsWith("GIF87a") || head.startsWith("GIF89a"))
        return QStringLiteral("image/gif");
    if (head.size() >= 12 && head.startsWith("RIFF") && head.mid(8, 4) == "WEBP")
        return QStringLiteral("image/webp");
    return {};
}

struct ImageSource::Cache
{
    QMutex mutex;
    QCache<qint64, QStringList> entries { 64 * 1024 * 1024 }; // cost: characters of the data URLs
};

ImageSource::~ImageSource() = default;

namespace {

constexpr qint64 kMaxImageFileBytes = 20 * 1024 * 1024;
constexpr qint64 kMaxImageFolderBytes = 256 * 1024 * 1024;

} // namespace

std::shared_ptr<const ImageSource> ImageSource::fromWorkload(const Workload& w, QString* error)
{
    if (w.imageCount <= 0)
        return nullptr;
    std::shared_ptr<ImageSource> source(new ImageSource);
    source->m_count = w.imageCount;
    source->m_seed = quint64(w.seed);
    source->m_cache = std::make_unique<Cache>();
    if (w.imageDir.isEmpty()) {
        const auto size = parseImageSize(w.imageSize);
        if (!size) {
            *error
                = phrase("Images", "workload.image_size: must be WIDTHxHEIGHT in pixels, got \"%1\"").arg(w.imageSize);
            return nullptr;
        }
        source->m_width = size->first;
        source->m_height = size->second;
        source->m_jpeg = w.imageFormat == u"jpeg";
        return source;
    }
    const QDir dir(w.imageDir);
    if (!dir.exists()) {
        *error = phrase("Images", "image folder %1: no such folder").arg(QDir::toNativeSeparators(w.imageDir));
        return nullptr;
    }
    const QFileInfoList files = dir.entryInfoList(QDir::Files | QDir::Readable, QDir::Name);
    qint64 total = 0;
    for (const QFileInfo& info : files) {
        const QString path = QDir::toNativeSeparators(info.filePath());
        if (info.size() > kMaxImageFileBytes) {
            *error = phrase("Images", "image %1: %2 bytes, over the limit of %3 bytes per image")
                         .arg(path)
                         .arg(info.size())
                         .arg(kMaxImageFileBytes);
            return nullptr;
        }
        total += info.size();
        if (total > kMaxImageFolderBytes) {
            *error = phrase("Images", "image folder %1: over the limit of %2 bytes of images")
                         .arg(QDir::toNativeSeparators(w.imageDir))
                         .arg(kMaxImageFolderBytes);
            return nullptr;
        }
        QFile file(info.filePath());
        if (!file.open(QIODevice::ReadOnly)) {
            *error = phrase("Images", "image %1: %2").arg(path, file.errorString());
            return nullptr;
        }
        const QByteArray bytes = file.readAll();
        const QString type = imageMediaType(bytes.left(16));
        if (type.isEmpty()) {
            *error = phrase("Images", "image %1: not a PNG, JPEG, WebP or GIF image (by its first bytes)").arg(path);
            return nullptr;
        }
        source->m_folder << imageDataUrl(bytes, type);
    }
    if (source->m_folder.isEmpty()) {
        *error = phrase("Images", "image folder %1 holds no images").arg(QDir::toNativeSeparators(w.imageDir));
        return nullptr;
    }
    return source;
}

QStringList ImageSource::urlsFor(qint64 promptIndex) const
{
    QStringList urls;
    if (!m_folder.isEmpty()) {
        for (int i = 0; i < m_count; ++i)
            urls << m_folder[qsizetype((promptIndex * m_count + i) % m_folder.size())];
        return urls;
    }
    {
        QMutexLocker lock(&m_cache->mutex);
        if (const QStringList* cached = m_cache->entries.object(promptIndex))
            return *cached;
    }
    qint64 cost = 0;
    for (int i = 0; i < m_count; ++i) {
        const quint64 key = quint64(promptIndex) * 64 + quint64(i);
        urls << (m_jpeg ? imageDataUrl(syntheticJpeg(m_width, m_height, m_seed, key), QStringLiteral("image/jpeg"))
                        : imageDataUrl(syntheticPng(m_width, m_height, m_seed, key), QStringLiteral("image/png")));
        cost += urls.constLast().size();
    }
    QMutexLocker lock(&m_cache->mutex);
    m_cache->entries.insert(promptIndex, new QStringList(urls), cost);
    return urls;
}

} // namespace kp
