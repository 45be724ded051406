import CCrypto

/// The one way into libcrypto: every caller in the package (MD5 file names, the Redis tier's value
/// seal, serve's URL signatures) and every owner of a URLSession (libcurl initialises OpenSSL when
/// its first session is made) calls `initialize()` first, so that libcrypto is set up without its
/// exit-time clean-up, whichever of them comes first. That clean-up would free the state of
/// threads still ending while the process exits (see `imgcache_crypto_initialize` in the CCrypto
/// shim).
package enum LibCrypto {
    private static let initialized: Bool = imgcache_crypto_initialize() == 1

    /// Initialises libcrypto once for the process, without exit-time clean-up. Cheap after the
    /// first call. A failure (out of memory at start-up) stops the process: nothing of libcrypto
    /// could be used after it.
    package static func initialize() {
        precondition(initialized, "OPENSSL_init_crypto failed")
    }
}
