import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The address check of `DataLoader.Configuration.refusesPrivateAddresses`: each hop's host (the
/// first URL's and every redirect's) is resolved by the loader before a request is sent, and
/// the hop is refused when any of its addresses is not on the public internet
/// (`IPAddress.nonPublicRange`), unless `allowedPrivateHosts` names the host.
///
/// An IP address is read as the system reads one (getaddrinfo with `AI_NUMERICHOST`, so every
/// spelling libcurl accepts, such as `2130706433` or `0x7f.1`, is the address it stands for), at
/// once. A name is looked up on a thread of its own (getaddrinfo has no time-out) and the
/// verdict comes back when it answers; the caller bounds the wait (a `Transfer` by its hop's
/// connect time-out) and never blocks for it.
///
/// An http hop to a name that passes is sent to the first IPv4 address checked: its URL names
/// that address, and its `Host` header the host, so libcurl makes no lookup of its own that could
/// answer differently (DNS rebinding). A name with IPv6 addresses only is refused for http:
/// FoundationNetworking loads no URL that names an IPv6 address (it finds libcurl's spelling of
/// the host, in brackets, different from the URL's). An https hop cannot be pinned through URLSession (libcurl would check the
/// server's certificate against the address, and send it as SNI), so libcurl resolves its name
/// again when it connects: a name that answers a public address to the check and a private one
/// to libcurl passes, but the TLS handshake with the private address fails unless that server
/// holds a certificate valid for the name.
struct AddressScreen: Sendable {
    /// Resolves a name: getaddrinfo, or a test's double.
    typealias LookUp = @Sendable (_ host: String) throws(SocketAddress.LookupFailure) -> [SocketAddress]

    /// What to do with a hop.
    enum Verdict: Sendable {
        /// Send this request: the hop's, pinned to the address checked when it is http.
        case send(URLRequest)
        /// Refused; why.
        case refuse(String)
        /// The host has no address: getaddrinfo's words.
        case unresolved(String)
    }

    private let allowedPrivateHosts: HostPatterns
    private let lookUp: LookUp

    /// - Parameters:
    ///   - allowedPrivateHosts: patterns (as `HostPatterns` reads them) of hosts that may have
    ///     private addresses.
    ///   - lookUp: resolves names; default getaddrinfo.
    /// - Throws: `invalidArgument` for a pattern that is neither a host name nor `*.` and a domain.
    init(allowedPrivateHosts: [String], lookUp: @escaping LookUp = { host throws(SocketAddress.LookupFailure) in
        try SocketAddress.lookUp(host, service: "0", numericOnly: false)
    }) throws {
        self.allowedPrivateHosts = try HostPatterns(allowedPrivateHosts, setting: "allowed private host")
        self.lookUp = lookUp
    }

    /// Calls `completion` once with the verdict on `request`'s host: before returning for an IP
    /// address (or a URL without a host), from a lookup's thread for a name.
    func screen(_ request: URLRequest, completion: @escaping @Sendable (Verdict) -> Void) {
        guard let url = request.url, let host = url.host, !host.isEmpty else {
            return completion(.unresolved("no host"))
        }
        if let address = IPAddress(literal: host) {
            return completion(verdict(on: request, addresses: [address], resolved: false))
        }
        let lookUp = self.lookUp
        let lookup = PendingLookup<SocketAddress.LookupFailure>.started {
            Result { () throws(SocketAddress.LookupFailure) in try lookUp(host) }
        }
        lookup.notify { outcome in
            switch outcome {
            case .success(let addresses):
                completion(verdict(on: request, addresses: addresses.compactMap(\.ipAddress), resolved: true))
            case .failure(let failure):
                completion(.unresolved(failure.description))
            }
        }
    }

    /// The verdict on `request` whose host has `addresses` (looked up when `resolved`, else
    /// written in the URL).
    private func verdict(on request: URLRequest, addresses: [IPAddress], resolved: Bool) -> Verdict {
        guard let url = request.url, !addresses.isEmpty else { return .unresolved("no IP address") }
        let host = HostPatterns.host(of: url)
        if !allowedPrivateHosts.matches(url) {
            for address in addresses {
                guard let range = address.nonPublicRange else { continue }
                return .refuse("host '\(host)' \(resolved ? "resolves to" : "is") \(address), which is not a public address (\(range))")
            }
        }
        guard resolved, url.scheme?.lowercased() == "http" else {
            // An address in the URL is what libcurl connects to (FoundationNetworking loads only
            // the spelling libcurl writes back the same). FoundationNetworking copies the headers
            // of a redirected request into the next one: no `Host` of a pinned hop goes on.
            var request = request
            request.setValue(nil, forHTTPHeaderField: "Host")
            return .send(request)
        }
        guard let ipv4 = addresses.first(where: { $0.bytes.count == 4 }), let pinned = Self.pinned(request, to: ipv4) else {
            return .refuse(
                "host '\(host)' has no IPv4 address to send the request to (URLSession on Linux loads no URL naming an IPv6 address)")
        }
        return .send(pinned)
    }

    /// `request` sent to the IPv4 `address`: its URL's host replaced by the address, the host (and
    /// the port, unless 80) in a `Host` header, as libcurl would have sent it. Nil when the URL
    /// cannot be rebuilt.
    private static func pinned(_ request: URLRequest, to address: IPAddress) -> URLRequest? {
        guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let host = components.percentEncodedHost
        else { return nil }
        let port = components.port.map { $0 == 80 ? "" : ":\($0)" } ?? ""
        components.percentEncodedHost = address.description
        guard let pinnedURL = components.url else { return nil }
        var pinned = request
        pinned.url = pinnedURL
        pinned.setValue(host + port, forHTTPHeaderField: "Host")
        return pinned
    }
}
