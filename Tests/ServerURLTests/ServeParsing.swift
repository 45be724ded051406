import Foundation
import ImgCache
import ImgCacheServerURLs
import XCTest

/// Parsers and shorthands the serve URL tests share.
enum ServeParsing {
    /// The key and salt the signed tests use, in hex as `IMGCACHE_KEY` and `IMGCACHE_SALT` hold them.
    static let keyHex = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let saltHex = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"

    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
    }

    static func signingKey() throws -> URLSigningKey {
        try URLSigningKey(key: bytes(hex: keyHex), salt: bytes(hex: saltHex))
    }

    static func signed() throws -> ServeURLParser {
        ServeURLParser(configuration: ServeURLConfiguration(signing: .required(try signingKey())))
    }

    static let unsigned = ServeURLParser(configuration: ServeURLConfiguration(signing: .unsigned))

    /// The source most tests use, and its base64url.
    static let source = "https://images.example.com/photos/harbour.jpg"
    static let sourceURL = URL(string: source)!
    static let encodedSource = "aHR0cHM6Ly9pbWFnZXMuZXhhbXBsZS5jb20vcGhvdG9zL2hhcmJvdXIuanBn"

    /// The unsigned path of `options` (joined by "/") on the usual source, base64-encoded.
    static func path(_ options: [String], extension fileExtension: String = "") -> String {
        "/insecure/" + (options + [encodedSource + (fileExtension.isEmpty ? "" : "." + fileExtension)]).joined(separator: "/")
    }

    /// The request of an unsigned path of `options`; fails the test when refused or a slice.
    static func request(_ options: [String], extension fileExtension: String = "", file: StaticString = #filePath, line: UInt = #line)
        throws -> ImageRequest
    {
        let serve = try unsigned.parse(path: path(options, extension: fileExtension))
        return try XCTUnwrap(serve.imageRequest, "a slice", file: file, line: line)
    }

    /// What `parser` throws for `path`; nil when it parses.
    static func error(_ path: String, parser: ServeURLParser = unsigned) -> ServeURLError? {
        do {
            _ = try parser.parse(path: path)
            return nil
        } catch {
            return error
        }
    }

    /// What the unsigned parser throws for `options` on the usual source.
    static func error(options: [String], extension fileExtension: String = "") -> ServeURLError? {
        error(path(options, extension: fileExtension))
    }

    static func device(_ name: String) throws -> DeviceModel {
        try DeviceCatalog.device(named: name)
    }
}
