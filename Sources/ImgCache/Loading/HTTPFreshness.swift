import Foundation

/// How long a response may be used without asking the server again, worked out once when it
/// arrives (RFC 9111 sections 4.2 and 5.2) as an absolute moment a cache can store.
///
/// This is a private cache: `s-maxage`, `public` and `private` change nothing, and no heuristic
/// freshness is guessed from `Last-Modified`; a response that says nothing gets the loader's
/// `defaultTTL` (one hour by default).
public struct HTTPFreshness: Sendable, Hashable {
    /// The response is fresh until this moment and must be revalidated from then on.
    public var expires: Date
    /// `Cache-Control: no-store`: the response must not be stored at all.
    public var isNoStore: Bool
    /// `Cache-Control: no-cache`: the response may be stored but must be revalidated before every
    /// use (and `expires` is the moment it arrived).
    public var requiresRevalidation: Bool

    /// Freshness until `expires`; `isNoStore` and `requiresRevalidation` default false.
    public init(expires: Date, isNoStore: Bool = false, requiresRevalidation: Bool = false) {
        self.expires = expires
        self.isNoStore = isNoStore
        self.requiresRevalidation = requiresRevalidation
    }

    /// True when a stored copy may be used at `date` without revalidating it.
    public func isFresh(at date: Date = Date()) -> Bool {
        !isNoStore && !requiresRevalidation && date < expires
    }

    /// The freshness of a response with `headers` (names in lower case) received at `receivedAt`:
    /// - `no-store` or `no-cache`: expired on arrival, with its flag set;
    /// - else `max-age=N`: `receivedAt + N - Age` (an invalid max-age makes it expired on arrival);
    /// - else `Expires`: as far after `receivedAt` as it is after the response's `Date` (the
    ///   server's clock need not match ours), less `Age`; without a valid `Date`, `Expires` itself;
    ///   an invalid `Expires`, such as `0`, is already expired;
    /// - else `receivedAt + defaultTTL`.
    /// Nothing is ever fresh before it arrived: `expires` is never before `receivedAt`.
    init(headers: [String: String], receivedAt: Date, defaultTTL: TimeInterval) {
        let directives = CacheControl(headers["cache-control"] ?? "")
        let age = headers["age"].flatMap(Self.deltaSeconds) ?? 0
        var lifetime: TimeInterval
        if directives.isNoStore || directives.isNoCache {
            lifetime = 0
        } else if let maxAge = directives.maxAge {
            lifetime = (Self.deltaSeconds(maxAge) ?? 0) - age
        } else if let expiresHeader = headers["expires"] {
            if let expires = HTTPDate.parse(expiresHeader, now: receivedAt) {
                let served = headers["date"].flatMap { HTTPDate.parse($0, now: receivedAt) } ?? receivedAt
                lifetime = expires.timeIntervalSince(served) - age
            } else {
                lifetime = 0
            }
        } else {
            lifetime = defaultTTL
        }
        lifetime = max(0, lifetime)
        self.init(
            expires: receivedAt.addingTimeInterval(lifetime),
            isNoStore: directives.isNoStore,
            requiresRevalidation: directives.isNoCache && !directives.isNoStore)
    }

    /// A delta-seconds value (digits only); values past 2^31 are capped there, as RFC 9111 asks.
    private static func deltaSeconds(_ text: String) -> TimeInterval? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return min(TimeInterval(text) ?? .infinity, 2_147_483_648)
    }
}

/// The `Cache-Control` directives that decide freshness in a private cache.
private struct CacheControl {
    var isNoStore = false
    /// Unqualified `no-cache` only: `no-cache="field"` restricts header fields a cache does not keep.
    var isNoCache = false
    /// The raw `max-age` argument, validated by the caller.
    var maxAge: String?

    /// Splits at commas outside quoted strings; directive names are case-insensitive.
    init(_ header: String) {
        var directives: [Substring] = []
        var start = header.startIndex, inQuotes = false
        for index in header.indices {
            if header[index] == "\"" { inQuotes.toggle() }
            if header[index] == ",", !inQuotes {
                directives.append(header[start..<index])
                start = header.index(after: index)
            }
        }
        directives.append(header[start...])
        for directive in directives {
            let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            var argument = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
            if let quoted = argument, quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") {
                argument = String(quoted.dropFirst().dropLast())
            }
            switch name {
            case "no-store": isNoStore = true
            case "no-cache": isNoCache = isNoCache || argument == nil
            // A repeated max-age is invalid; an empty argument makes the response stale.
            case "max-age": maxAge = maxAge == nil ? (argument ?? "") : ""
            default: break
            }
        }
    }
}
