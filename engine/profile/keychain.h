#pragma once

// The desktop keychain (the Secret Service or KWallet over D-Bus, through QtKeychain) as a store
// for API keys: target.api_key "keychain:ENTRY" names the entry ENTRY of the service "Kneepoint".
// Both calls wait for the keychain, up to a few seconds, in a local event loop; they work in any
// thread.

#include <QString>

namespace kp {

inline constexpr QStringView keychainPrefix = u"keychain:";

// "keychain:ENTRY" → true.
bool isKeychainReference(const QString& apiKey);
// "keychain:ENTRY" → "ENTRY" (trimmed); anything else → empty.
QString keychainEntryName(const QString& apiKey);
// "ENTRY" → "keychain:ENTRY".
QString keychainReference(const QString& entry);

struct KeychainResult
{
    QString secret; // read: the stored key
    QString error; // "keychain entry NAME: ..." when the keychain failed; never holds the key
    bool ok() const { return error.isEmpty(); }
};

KeychainResult readKeychainSecret(const QString& entry, int timeoutMs = 5000);
KeychainResult writeKeychainSecret(const QString& entry, const QString& secret, int timeoutMs = 5000);

} // namespace kp
