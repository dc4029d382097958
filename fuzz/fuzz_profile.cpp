// libFuzzer: the profile reader (every layout, JSON and TOML), then what runs on a profile it accepts.
#include "profile/profilestore.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    for (const kp::ProfileFormat format : { kp::ProfileFormat::Json, kp::ProfileFormat::Toml }) {
        const kp::ProfileLoadResult r = kp::ProfileStore::loadFromData(bytes, QStringLiteral("fuzz"), format);
        if (!r.ok())
            continue;
        kp::validateProfile(*r.profile);
        const kp::Profile redacted = kp::redactedProfile(*r.profile);
        // What Kneepoint writes, it reads back.
        const kp::ProfileLoadResult again = kp::ProfileStore::loadFromData(
            kp::ProfileStore::toJson(redacted), QStringLiteral("fuzz-saved"), kp::ProfileFormat::Json);
        if (!again.ok())
            __builtin_trap();
    }
    return 0;
}
