import Foundation
import ImgCache
import ImgCacheServerURLs
import XCTest

/// The path around the options: its shape, bytes and length, and the source in both encodings.
final class ServePathTests: XCTestCase {
    private let url = ServeParsing.sourceURL

    func testPlainAndBase64SourcesDecodeToTheSameURL() throws {
        let escaped = "https%3A%2F%2Fimages.example.com%2Fphotos%2Fharbour.jpg"
        let encoded = ServeParsing.encodedSource
        let paths = [
            "/insecure/rs:fit:10:10/plain/" + escaped,
            "/insecure/rs:fit:10:10/plain/https://images.example.com/photos/harbour.jpg",
            "/insecure/rs:fit:10:10/plain/https:%2F%2Fimages.example.com/photos/harbour.jpg@",
            "/insecure/rs:fit:10:10/" + encoded,
            "/insecure/rs:fit:10:10/" + encoded + ".",
            // Split by "/" anywhere, as imgproxy allows.
            "/insecure/rs:fit:10:10/" + encoded.prefix(16) + "/" + encoded.dropFirst(16).prefix(16) + "/" + encoded.dropFirst(32),
        ]
        for path in paths {
            let serve = try ServeParsing.unsigned.parse(path: path)
            XCTAssertEqual(serve.sourceURL, url, path)
            XCTAssertEqual(serve.imageRequest, ImageRequest(url: url, target: .pixels(PixelSize(width: 10, height: 10))), path)
        }
        // Padding is optional.
        let padded = Data("https://images.example.com/a.png".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        XCTAssertTrue(padded.hasSuffix("="))
        XCTAssertEqual(try ServeParsing.unsigned.parse(path: "/x/" + padded + ".png").imageRequest,
                       ImageRequest(url: URL(string: "https://images.example.com/a.png")!, outputFormat: .png))
    }

    func testExtensionsFollowTheSource() throws {
        let plain = "/insecure/plain/https%3A%2F%2Fimages.example.com%2Fa.gif"
        XCTAssertEqual(try ServeParsing.unsigned.parse(path: plain + "@png").imageRequest?.outputFormat, .png)
        XCTAssertEqual(try ServeParsing.unsigned.parse(path: plain + "@jpg").imageRequest?.outputFormat, .jpeg(quality: 85))
        XCTAssertEqual(try ServeParsing.unsigned.parse(path: plain).imageRequest?.outputFormat, .automatic)
        XCTAssertEqual(try ServeParsing.unsigned.parse(path: ServeParsing.path([], extension: "gif")).imageRequest?.outputFormat, .gif)
        // A plain source's query and "@" are percent-encoded; the path's own query is left out.
        let query = "/insecure/plain/https%3A%2F%2Fimages.example.com%2Fa.jpg%3Fsize%3Dl%26by%3D%40me@png?cb=1"
        XCTAssertEqual(try ServeParsing.unsigned.parse(path: query).imageRequest,
                       ImageRequest(url: URL(string: "https://images.example.com/a.jpg?size=l&by=@me")!, outputFormat: .png))
    }

    func testPathsThatAreNoImageURLAreNotFound() {
        let cases: [(String, ServeURLError)] = [
            ("", .notFound("a serve path starts with '/'")),
            ("insecure/plain/x", .notFound("a serve path starts with '/'")),
            ("/", .notFound("no signature segment: /SIGNATURE/OPTIONS/SOURCE")),
            ("/insecure", .notFound("no signature segment: /SIGNATURE/OPTIONS/SOURCE")),
            ("//plain/https%3A%2F%2Fa.example%2Fb.jpg", .notFound("no signature segment: /SIGNATURE/OPTIONS/SOURCE")),
            ("/insecure/", .notFound("no source URL after the options")),
            ("/insecure/rs:fit:10:10", .notFound("no source URL after the options")),
            ("/insecure/rs:fit:10:10/", .notFound("no source URL after the options")),
            ("/insecure/fit/300/200/ce/0/" + ServeParsing.encodedSource,
             .notFound("imgproxy's basic URL format (/SIGNATURE/fit/300/200/ce/0/SOURCE) is not supported: write rs:fit:300:200")),
        ]
        for (path, expected) in cases {
            XCTAssertEqual(ServeParsing.error(path), expected, path)
            XCTAssertEqual(expected.httpStatus, 404)
        }
    }

    func testSourcesThatDoNotDecodeAreBadRequests() {
        let cases: [(String, ServeURLError)] = [
            ("plain/", .invalidSource("the source URL is empty")),
            ("plain/@png", .invalidSource("the source URL is empty")),
            ("plain/https%3A%2F%2Fa.example%2Fb.jpg@png@jpg", .invalidSource("several '@': write an '@' of the source URL as %40")),
            ("plain/https%3A%2F%2Fa.example%2Fb%zz.jpg", .invalidSource("a '%' is not followed by two hex digits")),
            ("plain/https%3A%2F%2Fa.example%2Fb.jpg%4", .invalidSource("a '%' is not followed by two hex digits")),
            ("plain/https%3A%2F%2Fa.example%2Fb.jpg%", .invalidSource("a '%' is not followed by two hex digits")),
            ("plain/https%3A%2F%2Fa.example%2F%FF.jpg", .invalidSource("the decoded URL is not UTF-8")),
            ("plain/https%3A%2F%2Fa.example%2Fb.jpg%0A", .invalidSource("the decoded URL holds a control character")),
            ("plain/https%3A%2F%2Fa.example%2Fb.jpg%00", .invalidSource("the decoded URL holds a control character")),
            ("plain/https%3A%2F%2Fa.example%2F%25zz.jpg", .invalidSource("a '%' in the decoded URL is not followed by two hex digits")),
            ("plain/ftp%3A%2F%2Fa.example%2Fb.jpg", .invalidSource("'ftp://a.example/b.jpg' is no http or https URL")),
            ("plain/file%3A%2F%2F%2Fetc%2Fpasswd", .invalidSource("'file:///etc/passwd' is no http or https URL")),
            ("plain/javascript%3Aalert(1)", .invalidSource("'javascript:alert(1)' is no http or https URL")),
            ("plain/images.example.com%2Fb.jpg", .invalidSource("'images.example.com/b.jpg' is no http or https URL")),
            ("plain/http%3A%2F%2F%2Fb.jpg", .invalidSource("'http:///b.jpg' has no host")),
            ("enc/jwV3wUD9r4VBIzgv/ang3Hbh0vPpcm5cc", .invalidSource("encrypted sources (enc/) are not supported: plain/ or base64url")),
            ("aHR0cHM6Ly9hLmV4YW1wbGUvYi5qcGc+", .invalidSource("'aHR0cHM6Ly9hLmV4YW1wbGUvYi5qcGc+' is not base64url (A-Z, a-z, 0-9, - and _)")),
            ("aHR0cHM6Ly9hLmV4YW1wbGUvYi5qcGcxx", .invalidSource("'aHR0cHM6Ly9hLmV4YW1wbGUvYi5qcGcxx' is not base64url (A-Z, a-z, 0-9, - and _)")),
            // "https://a.example/b.jp" with its last character's unused bits set: not canonical.
            ("aHR0cHM6Ly9hLmV4YW1wbGUvYi5qcB", .invalidSource("'aHR0cHM6Ly9hLmV4YW1wbGUvYi5qcB' is not base64url (A-Z, a-z, 0-9, - and _)")),
            ("aHR0cHM6Ly9hLmV4YW1wbGUvYi5qcGc.png.jpg", .invalidSource("several '.': a base64url source has one '.', before its extension")),
            (".png", .invalidSource("the source URL is empty")),
            ("_w", .invalidSource("the decoded URL is not UTF-8")),
            ("aGVsbG8", .invalidSource("'hello' is no http or https URL")),
        ]
        for (source, expected) in cases {
            XCTAssertEqual(ServeParsing.error("/insecure/w:10/" + source), expected, source)
            XCTAssertEqual(expected.httpStatus, 400)
        }
        XCTAssertNotNil(try? ServeParsing.unsigned.parse(path: "/insecure/w:10/aHR0cHM6Ly9hLmV4YW1wbGUvYi5qcA"))
    }

    /// A decoded source may hold what a URL cannot as it is (spaces, non-ASCII): it is
    /// percent-encoded as a browser sends it; escapes already there are kept.
    func testDecodedSourcesArePercentEncodedWhereAURLMustBe() throws {
        let cases = [
            ("https%3A%2F%2Fa.example%2Fmy%20cat.jpg", "https://a.example/my%20cat.jpg"),
            ("https%3A%2F%2Fa.example%2Fmy%2520cat.jpg", "https://a.example/my%20cat.jpg"),
            ("https%3A%2F%2Fa.example%2Fcaf%C3%A9.jpg", "https://a.example/caf%C3%A9.jpg"),
            ("https%3A%2F%2Fa.example%2F%7Bx%7D%22.jpg", "https://a.example/%7Bx%7D%22.jpg"),
            ("HTTP%3A%2F%2Fa.example%3A8080%2Fb.jpg%23frag", "HTTP://a.example:8080/b.jpg#frag"),
        ]
        for (plain, expected) in cases {
            XCTAssertEqual(try ServeParsing.unsigned.parse(path: "/insecure/plain/" + plain).sourceURL.absoluteString, expected, plain)
        }
    }

    func testPathsWithBytesNoURLHoldsAreBadRequests() {
        for (path, byte) in [("/insecure/w:10/plain/http://a.example/my cat.jpg", "20"), ("/insecure/w:10\n/x", "A"),
                             ("/insecure/w:10/plain/http://a.example/café.jpg", "C3"), ("/insecure/\u{7F}", "7F"), ("\t", "9")] {
            XCTAssertEqual(
                ServeParsing.error(path), .malformedPath("byte 0x\(byte) is no URL character: percent-encode it"), path.debugDescription)
        }
    }

    func testOverlongPathsAreRefusedBeforeAnythingElse() throws {
        let source = "/plain/https%3A%2F%2Fa.example%2F"
        let name = String(repeating: "a", count: 8192 - "/insecure/w:10".utf8.count - source.utf8.count)
        let atLimit = "/insecure/w:10" + source + name
        XCTAssertEqual(atLimit.utf8.count, 8192)
        XCTAssertEqual(try ServeParsing.unsigned.parse(path: atLimit).sourceURL.absoluteString, "https://a.example/" + name)
        XCTAssertEqual(ServeParsing.error(atLimit + "a"), .pathTooLong(length: 8193, limit: 8192))
        XCTAssertEqual(ServeParsing.error(atLimit + "\n"), .pathTooLong(length: 8193, limit: 8192))
        XCTAssertEqual(ServeURLError.pathTooLong(length: 8193, limit: 8192).httpStatus, 414)
        XCTAssertEqual(ServeParsing.error(String(repeating: "/", count: 1_000_000)), .pathTooLong(length: 1_000_000, limit: 8192))
        let signed = try ServeParsing.signed()
        XCTAssertEqual(ServeParsing.error("/" + String(repeating: "A", count: 9000), parser: signed), .pathTooLong(length: 9001, limit: 8192))
        let small = ServeURLParser(configuration: ServeURLConfiguration(signing: .unsigned, maxPathLength: 64))
        let path = ServeParsing.path(["w:10"])
        XCTAssertEqual(ServeParsing.error(path, parser: small), .pathTooLong(length: path.utf8.count, limit: 64))
    }

    /// Every message is one line of printable ASCII, quoting at most 48 characters of the URL.
    func testMessagesAreOneLineAndQuoteLittle() {
        let hostile = [
            "/insecure/" + String(repeating: "%0A", count: 200) + ":1/x",
            "/insecure/cp:" + String(repeating: "z", count: 300) + "/x",
            "/insecure/plain/" + String(repeating: "%E2%80%AE", count: 100),
            "/insecure/" + String(repeating: "%0D", count: 100),
        ]
        for path in hostile {
            guard let error = ServeParsing.error(path) else { return XCTFail("\(path) parsed") }
            let message = error.description
            XCTAssertTrue(message.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }, message)
            XCTAssertLessThan(message.count, 200, message)
        }
    }
}
