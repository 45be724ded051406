import Foundation

/// The origin of an http or https URL (RFC 6454): scheme and host in lower case (a trailing dot
/// dropped) and the port, where no port is the scheme's default (80 for http, 443 for https).
/// Credentials are sent only to the origin of a load's first URL.
struct HTTPOrigin: Hashable {
    let scheme: String
    let host: String
    let port: Int?

    init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        var host = url.host?.lowercased() ?? ""
        if host.hasSuffix(".") { host.removeLast() }
        self.host = host
        let defaultPort = ["http": 80, "https": 443][scheme]
        port = url.port ?? defaultPort
    }
}
