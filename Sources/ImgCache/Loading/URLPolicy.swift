import Foundation

/// Which URLs a loader may fetch and follow redirects to: never from https down to http, and, when
/// `allowedHosts` is set, only to the hosts it lists (`HostPatterns`).
///
/// The check is on the host name in the URL: it does not look at addresses (a listed name that
/// resolves to a private address is fetched unless `AddressScreen` refuses it).
struct URLPolicy: Sendable, Hashable {
    private let allowedHosts: HostPatterns?

    /// - Throws: `invalidArgument` for a pattern that is neither a host name nor `*.` and a domain.
    init(allowedHosts: [String]?) throws {
        self.allowedHosts = try allowedHosts.map { try HostPatterns($0, setting: "allowed host") }
    }

    /// Nil when `url` may be fetched first, else why not.
    func refusal(for url: URL) -> String? {
        guard let allowedHosts, !allowedHosts.matches(url) else { return nil }
        return "host '\(HostPatterns.host(of: url))' is not in the allowed hosts"
    }

    /// Nil when a redirect from `source` to `target` may be followed, else why not.
    func refusal(redirectFrom source: URL, to target: URL) -> String? {
        if source.scheme?.lowercased() == "https" && target.scheme?.lowercased() == "http" {
            return "refused a redirect from https to http (\(target.absoluteString))"
        }
        return refusal(for: target).map { "refused a redirect to \(target.absoluteString): \($0)" }
    }
}
