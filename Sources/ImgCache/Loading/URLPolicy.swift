import Foundation

/// Which URLs a loader may fetch and follow redirects to: never from https down to http, and, when
/// `allowedHosts` is set, only to the hosts it lists.
///
/// Patterns are exact host names (`images.example.com`, case-insensitive, a trailing dot ignored)
/// or `*.` and a domain (`*.example.com`: every host under example.com, not example.com itself).
/// The check is on the host name in the URL: it does not defend against DNS rebinding (a listed
/// name that resolves to a private address is fetched).
struct URLPolicy: Sendable, Hashable {
    private let exactHosts: Set<String>
    private let domainSuffixes: [String]
    private let restrictsHosts: Bool

    /// - Throws: `invalidArgument` for a pattern that is neither a host name nor `*.` and a domain.
    init(allowedHosts: [String]?) throws {
        var exact = Set<String>(), suffixes: [String] = []
        for pattern in allowedHosts ?? [] {
            let name = Self.normalized(pattern)
            if name.hasPrefix("*.") {
                let domain = String(name.dropFirst(2))
                guard Self.isHostName(domain), domain.contains(".") else {
                    throw ImgCacheError.invalidArgument("allowed host pattern '\(pattern)' needs a domain of two labels or more after '*.'")
                }
                suffixes.append("." + domain)
            } else {
                guard Self.isHostName(name) else {
                    throw ImgCacheError.invalidArgument("allowed host pattern '\(pattern)' is not a host name or '*.domain'")
                }
                exact.insert(name)
            }
        }
        exactHosts = exact
        domainSuffixes = suffixes
        restrictsHosts = allowedHosts != nil
    }

    /// Nil when `url` may be fetched first, else why not.
    func refusal(for url: URL) -> String? {
        guard restrictsHosts else { return nil }
        let host = Self.normalized(url.host ?? "")
        if exactHosts.contains(host) || domainSuffixes.contains(where: { host.hasSuffix($0) }) { return nil }
        return "host '\(host)' is not in the allowed hosts"
    }

    /// Nil when a redirect from `source` to `target` may be followed, else why not.
    func refusal(redirectFrom source: URL, to target: URL) -> String? {
        if source.scheme?.lowercased() == "https" && target.scheme?.lowercased() == "http" {
            return "refused a redirect from https to http (\(target.absoluteString))"
        }
        return refusal(for: target).map { "refused a redirect to \(target.absoluteString): \($0)" }
    }

    private static func normalized(_ host: String) -> String {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        return name
    }

    /// Letters, digits, hyphens and dots, no empty label; IPv4 literals pass, IPv6 ones in brackets too.
    private static func isHostName(_ name: String) -> Bool {
        if name.hasPrefix("[") && name.hasSuffix("]") && name.count > 2 { return true }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return !name.isEmpty && name.count <= 253 && labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}
