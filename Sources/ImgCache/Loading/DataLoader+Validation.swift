import Foundation

extension DataLoader.Configuration {
    /// Throws `invalidArgument` naming the first setting out of its range: byte limit 1 byte to
    /// 2 GiB; bytes of a body in memory 0 to 2 GiB; time-outs finite and from 1 ms to a day; 0 to 20 redirects; a default TTL finite and
    /// not negative; the retry policy's own ranges; allowed-host and allowed-private-host patterns (see `allowedHosts`);
    /// headers (see `HTTPHeaderField`).
    func validate() throws {
        guard (1...(Int(Int32.max))).contains(maxBytes) else {
            throw ImgCacheError.invalidArgument("download byte limit \(maxBytes) is not in 1...\(Int32.max)")
        }
        guard (0...(Int(Int32.max))).contains(maxBodyBytesInMemory) else {
            throw ImgCacheError.invalidArgument("body bytes in memory \(maxBodyBytesInMemory) is not in 0...\(Int32.max)")
        }
        for (name, seconds) in [("connect", connectTimeout), ("idle", requestTimeout), ("overall", overallTimeout)] {
            guard seconds.isFinite, (0.001...86_400).contains(seconds) else {
                throw ImgCacheError.invalidArgument("\(name) time-out \(seconds) s is not in 0.001...86400 s")
            }
        }
        guard (0...20).contains(maxRedirects) else {
            throw ImgCacheError.invalidArgument("redirect limit \(maxRedirects) is not in 0...20")
        }
        guard defaultTTL.isFinite, defaultTTL >= 0 else {
            throw ImgCacheError.invalidArgument("default TTL \(defaultTTL) s must be finite and not negative")
        }
        try retryPolicy.validate()
        _ = try URLPolicy(allowedHosts: allowedHosts)
        _ = try HostPatterns(allowedPrivateHosts, setting: "allowed private host")
        try HTTPHeaderField.check(headers, of: "configuration")
    }
}

extension RetryPolicy {
    /// Throws `invalidArgument` unless 1 to 10 attempts, and finite, non-negative delays (a
    /// multiplier of at least 1).
    func validate() throws {
        guard (1...10).contains(maxAttempts) else {
            throw ImgCacheError.invalidArgument("retry attempts \(maxAttempts) is not in 1...10")
        }
        let delays = [baseDelay, maxDelay, maxRetryAfter]
        guard delays.allSatisfy({ $0.isFinite && $0 >= 0 }), multiplier.isFinite, multiplier >= 1 else {
            throw ImgCacheError.invalidArgument("retry delays must be finite and not negative, the multiplier at least 1")
        }
    }
}
