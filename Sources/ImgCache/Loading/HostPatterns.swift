import Foundation

/// A list of host patterns, as `DataLoader.Configuration.allowedHosts` and
/// `allowedPrivateHosts` take them: exact host names (`images.example.com`, case-insensitive, a
/// trailing dot ignored; an IP address as the URL writes it, IPv6 in brackets) or `*.` and a
/// domain (`*.example.com`: every host under example.com, not example.com itself).
struct HostPatterns: Sendable, Hashable {
    private let exactHosts: Set<String>
    private let domainSuffixes: [String]

    /// - Parameter setting: the setting's name in errors ("allowed host", "allowed private host").
    /// - Throws: `invalidArgument` for a pattern that is neither a host name nor `*.` and a domain.
    init(_ patterns: [String], setting: String) throws {
        var exact = Set<String>(), suffixes: [String] = []
        for pattern in patterns {
            let name = Self.normalized(pattern)
            if name.hasPrefix("*.") {
                let domain = String(name.dropFirst(2))
                guard Self.isHostName(domain), domain.contains(".") else {
                    throw ImgCacheError.invalidArgument("\(setting) pattern '\(pattern)' needs a domain of two labels or more after '*.'")
                }
                suffixes.append("." + domain)
            } else {
                guard Self.isHostName(name) else {
                    throw ImgCacheError.invalidArgument("\(setting) pattern '\(pattern)' is not a host name or '*.domain'")
                }
                exact.insert(name)
            }
        }
        exactHosts = exact
        domainSuffixes = suffixes
    }

    /// Whether `url`'s host matches a pattern.
    func matches(_ url: URL) -> Bool {
        let host = Self.host(of: url)
        return exactHosts.contains(host) || domainSuffixes.contains(where: { host.hasSuffix($0) })
    }

    /// `url`'s host as patterns are compared with it: in lower case, without a trailing dot,
    /// an IPv6 address in brackets.
    static func host(of url: URL) -> String {
        let host = normalized(url.host ?? "")
        return host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
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
