import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DataLoader {
    /// What the decoders read, so that CDNs that negotiate formats send nothing else.
    static let accept = (ImageDecoders.mimeTypes + ["*/*;q=0.1"]).joined(separator: ", ")

    /// The request every attempt of `request` sends, and the credential headers among its headers
    /// (sent only to the origin of its URL). Each header set later replaces one of the same name,
    /// whatever its case: the loader's `Accept` and `User-Agent`, then the configuration's headers,
    /// the request's, and the validators. Every header is on the URLRequest, none on the session:
    /// FoundationNetworking sends a session's headers with every redirect, whatever the delegate
    /// answers.
    func urlRequest(for request: DataRequest) -> (request: URLRequest, credentials: [String: String]) {
        var headers: [String: (name: String, value: String)] = [:]
        func set(_ name: String, _ value: String) { headers[name.lowercased()] = (name, value) }
        set("Accept", Self.accept)
        set("User-Agent", configuration.userAgent)
        for (name, value) in configuration.headers { set(name, value) }
        for (name, value) in request.headers { set(name, value) }
        if let etag = request.validators.etag { set("If-None-Match", etag) }
        if let date = request.validators.lastModified { set("If-Modified-Since", date) }
        var urlRequest = URLRequest(url: request.url)
        var credentials: [String: String] = [:]
        for (key, header) in headers {
            urlRequest.setValue(header.value, forHTTPHeaderField: header.name)
            if HTTPHeaderField.credentialNames.contains(key) { credentials[header.name] = header.value }
        }
        return (urlRequest, credentials)
    }
}
