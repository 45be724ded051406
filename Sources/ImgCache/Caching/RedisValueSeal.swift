import CCrypto
import CDeflate
import Foundation

/// The tag that ends every frame the Redis tier stores (see `RedisCacheValue`), checked before
/// anything else in the frame is read: an HMAC-SHA256 under the configuration's secret, or
/// without one a CRC-32 that only catches accidental damage. All of the tier's libcrypto and
/// libdeflate calls live here.
struct RedisValueSeal: Sendable {
    /// The secret of the HMAC; nil for a CRC-32.
    private let secret: Data?

    /// Seals with an HMAC-SHA256 under `secret` (non-empty), or with a CRC-32 when it is nil.
    init(secret: Data?) {
        self.secret = secret
    }

    /// The frame's check byte for this seal: 1 for a CRC-32, 2 for an HMAC-SHA256.
    var kind: UInt8 { secret == nil ? 1 : 2 }

    /// Bytes of the tag: 4 for a CRC-32 (big-endian), 32 for an HMAC-SHA256.
    var tagLength: Int { secret == nil ? 4 : 32 }

    /// The tag of `body` (a frame without its tag) stored under `key`: the HMAC covers the key's
    /// length (UInt32 big-endian) and UTF-8 bytes, then the body, so that a frame copied to another
    /// key fails its check; the CRC-32 covers the body alone. Nil only when libcrypto fails (out
    /// of memory).
    func tag(of body: Data, key: String) -> Data? {
        guard let secret else {
            let crc = body.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
            return withUnsafeBytes(of: crc.bigEndian) { Data($0) }
        }
        LibCrypto.initialize()
        var prefix = withUnsafeBytes(of: UInt32(truncatingIfNeeded: key.utf8.count).bigEndian) { Data($0) }
        prefix.append(contentsOf: key.utf8)
        var tag = Data(count: 32)
        let status = tag.withUnsafeMutableBytes { output in
            secret.withUnsafeBytes { secretBytes in
                prefix.withUnsafeBytes { prefixBytes in
                    body.withUnsafeBytes { bodyBytes in
                        imgcache_hmac_sha256(
                            secretBytes.bindMemory(to: UInt8.self).baseAddress, secretBytes.count,
                            prefixBytes.bindMemory(to: UInt8.self).baseAddress, prefixBytes.count,
                            bodyBytes.bindMemory(to: UInt8.self).baseAddress, bodyBytes.count,
                            output.bindMemory(to: UInt8.self).baseAddress)
                    }
                }
            }
        }
        return status == 1 ? tag : nil
    }

    /// True when `frame` (indices from 0) is long enough for a tag and ends with the tag of the
    /// rest under `key`, compared in constant time.
    func verifies(_ frame: Data, key: String) -> Bool {
        guard frame.count >= tagLength else { return false }
        let split = frame.count - tagLength
        guard let expected = tag(of: frame.prefix(split), key: key) else { return false }
        let found = frame.suffix(tagLength)
        return expected.withUnsafeBytes { left in
            found.withUnsafeBytes { right in CRYPTO_memcmp(left.baseAddress, right.baseAddress, tagLength) == 0 }
        }
    }
}
