import CCrypto
import ImgCache

/// The key and salt serve URLs are signed with, as imgproxy's `IMGPROXY_KEY` and `IMGPROXY_SALT`
/// (`IMGCACHE_KEY` and `IMGCACHE_SALT` hold them in hex; the caller decodes them). A signature is
/// the URL-safe Base64, without padding, of HMAC-SHA256(key, salt + path), path being everything
/// after the signature segment, its leading "/" included: 43 characters.
///
/// Neither printing nor `dump` shows the bytes.
public struct URLSigningKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let key: [UInt8]
    private let salt: [UInt8]

    /// Bytes of an HMAC-SHA256 signature: 32.
    static let signatureBytes = 32

    /// - Throws: `ImgCacheError.invalidArgument` when the key or the salt is empty (imgproxy's
    ///   clients then sign nothing), or when libcrypto refuses HMAC-SHA256 with this key (a FIPS
    ///   configuration and a key under 112 bits); the message never shows the bytes.
    public init(key: [UInt8], salt: [UInt8]) throws {
        guard !key.isEmpty, !salt.isEmpty else {
            throw ImgCacheError.invalidArgument("the URL signing key and salt must both be at least one byte")
        }
        self.key = key
        self.salt = salt
        guard mac(of: []) != nil else {
            throw ImgCacheError.invalidArgument("libcrypto refused HMAC-SHA256 with this \(key.count)-byte URL signing key")
        }
    }

    /// The signature of `path` (everything after the signature segment, from its "/"), as the
    /// first segment of a signed URL: 43 base64url characters.
    public func signature(forPath path: String) -> String {
        // `init` made a MAC with this key: libcrypto fails after that only when out of memory.
        guard let mac = mac(of: Array(path.utf8)) else { preconditionFailure("HMAC-SHA256 failed") }
        return Base64URL.encode(mac)
    }

    /// What checking a signature found.
    enum Check: Equatable {
        case valid
        /// Not base64url, or longer than a signature.
        case malformed
        /// Fewer bytes than a full signature: imgproxy's `IMGPROXY_SIGNATURE_SIZE`, or `insecure`.
        case truncated
        case mismatch
    }

    /// Whether `signature` is the signature of `path`, compared in constant time (CRYPTO_memcmp).
    func check(signature: some Collection<UInt8>, path: some Collection<UInt8>) -> Check {
        guard let given = Base64URL.decode(signature), given.count <= Self.signatureBytes else { return .malformed }
        guard given.count == Self.signatureBytes else { return .truncated }
        guard let expected = mac(of: Array(path)) else { return .mismatch }
        return CRYPTO_memcmp(given, expected, Self.signatureBytes) == 0 ? .valid : .mismatch
    }

    /// HMAC-SHA256(key, salt + message); nil when libcrypto fails.
    private func mac(of message: [UInt8]) -> [UInt8]? {
        LibCrypto.initialize()
        let input = salt + message
        var output = [UInt8](repeating: 0, count: Self.signatureBytes)
        var length = 0
        let result = key.withUnsafeBytes { key in
            input.withUnsafeBufferPointer { input in
                EVP_Q_mac(
                    nil, "HMAC", nil, "SHA256", nil, key.baseAddress, key.count, input.baseAddress, input.count,
                    &output, Self.signatureBytes, &length)
            }
        }
        return result != nil && length == Self.signatureBytes ? output : nil
    }

    /// `URLSigningKey(32-byte key, 32-byte salt)`: the lengths, never the bytes.
    public var description: String { "URLSigningKey(\(key.count)-byte key, \(salt.count)-byte salt)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
