import Foundation

/// When and how long to wait before trying a failed load again: exponential back-off with full
/// jitter, and the server's `Retry-After` honoured.
///
/// Only failures that may pass are retried: connection failures (refused, reset, lost, DNS, a
/// reply that is no HTTP, a body shorter or longer than its `Content-Length`), 5xx statuses and
/// 429 Too Many Requests. Other 4xx statuses, time-outs, too many redirects and bodies over the
/// byte limit fail at once.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included; 1 never retries. Default 3.
    public var maxAttempts: Int
    /// The back-off before the first retry, in seconds. Default 0.5.
    public var baseDelay: TimeInterval
    /// What each further retry multiplies the back-off by. Default 2.
    public var multiplier: Double
    /// The longest back-off, in seconds, before jitter. Default 8.
    public var maxDelay: TimeInterval
    /// The longest `Retry-After` waited for, in seconds; a server that asks for more is not retried.
    /// Default 30.
    public var maxRetryAfter: TimeInterval

    /// A policy with each value at the default its property states unless given.
    public init(
        maxAttempts: Int = 3, baseDelay: TimeInterval = 0.5, multiplier: Double = 2,
        maxDelay: TimeInterval = 8, maxRetryAfter: TimeInterval = 30
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    /// Never retries.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The wait before retry number `retry` (1 for the second attempt), or nil when the server's
    /// `retryAfter` is over `maxRetryAfter`. Full jitter: a uniform share (`jitter`, in 0..<1) of
    /// `min(maxDelay, baseDelay x multiplier^(retry - 1))`, and never less than `retryAfter`.
    public func delay(beforeRetry retry: Int, retryAfter: TimeInterval? = nil, jitter: Double) -> TimeInterval? {
        if let retryAfter, retryAfter > maxRetryAfter { return nil }
        let backOff = min(maxDelay, baseDelay * pow(multiplier, Double(retry - 1)))
        return max(retryAfter ?? 0, backOff * jitter)
    }

    /// The seconds a `Retry-After` header asks for: delta-seconds, or an HTTP-date measured from the
    /// response's `Date` (`served`, else now). Nil when the header is not valid.
    static func retryAfter(_ header: String, served: Date?, now: Date) -> TimeInterval? {
        let text = header.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return TimeInterval(text)
        }
        guard let date = HTTPDate.parse(text, now: now) else { return nil }
        return max(0, date.timeIntervalSince(served ?? now))
    }
}
