import Foundation
import XCTest
@testable import ImgCache

/// The rules of a request header: RFC 9110 token names, no control characters in values, the
/// names the loader keeps for itself, and errors that never show a value.
final class HTTPHeaderFieldTests: XCTestCase {
    private func assertRefused(
        _ make: @autoclosure () throws -> HTTPHeaderField, _ expected: String, secret: String? = nil, line: UInt = #line
    ) {
        XCTAssertThrowsError(try make(), line: line) { error in
            guard case .invalidArgument(let message)? = error as? ImgCacheError else { return XCTFail("\(error)", line: line) }
            XCTAssertEqual(message, expected, line: line)
            if let secret { XCTAssertFalse(message.contains(secret), message, line: line) }
        }
    }

    func testCurlFormIsParsedWithTheValueTrimmed() throws {
        let field = try HTTPHeaderField(parsing: "X-Trace: \t abc 123\t ")
        XCTAssertEqual(field.name, "X-Trace")
        XCTAssertEqual(field.value, "abc 123")
        XCTAssertEqual(try HTTPHeaderField(parsing: "Authorization:Bearer a:b:c"), try HTTPHeaderField(name: "Authorization", value: "Bearer a:b:c"))
        XCTAssertEqual(try HTTPHeaderField(parsing: "X-Empty;"), try HTTPHeaderField(name: "X-Empty", value: ""))
        XCTAssertEqual(try HTTPHeaderField(parsing: "X-Semi: a;"), try HTTPHeaderField(name: "X-Semi", value: "a;"))
        XCTAssertEqual(try HTTPHeaderField(parsing: "x-odd!#$%&'*+.^_`|~0: é ünïcode\tok").value, "é ünïcode\tok")
    }

    func testEveryTokenCharacterIsAllowedInAName() throws {
        let name = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        XCTAssertEqual(try HTTPHeaderField(name: name, value: "v").name, name)
    }

    func testNamesThatAreNotTokensAreRefusedWithoutShowingThem() {
        let rule = "which no name may hold (RFC 9110 token characters only)"
        assertRefused(try HTTPHeaderField(name: "", value: "v"), "header name is empty")
        assertRefused(try HTTPHeaderField(parsing: ": v"), "header name is empty")
        assertRefused(try HTTPHeaderField(parsing: "Bearer s3cret;"), "header name has a space at character 7, \(rule)", secret: "s3cret")
        assertRefused(try HTTPHeaderField(parsing: "X-Trace : v"), "header name has a space at character 8, \(rule)")
        assertRefused(try HTTPHeaderField(name: "X\r\nInjected", value: "v"), "header name has a carriage return (CR) at character 2, \(rule)")
        assertRefused(try HTTPHeaderField(name: "X\0", value: "v"), "header name has a NUL at character 2, \(rule)")
        assertRefused(try HTTPHeaderField(name: "X@Y", value: "v"), "header name has '@' at character 2, \(rule)")
        assertRefused(try HTTPHeaderField(name: "Ünï", value: "v"), "header name has 'Ü' at character 1, \(rule)")
        assertRefused(try HTTPHeaderField(name: ":authority", value: "v"), "header name has ':' at character 1, \(rule)")
    }

    func testControlCharactersInAValueAreRefusedWithoutShowingIt() {
        let rule = "in its value (only tab is allowed among control characters)"
        assertRefused(try HTTPHeaderField(name: "Authorization", value: "Bearer s3cret\r\nX-Evil: 1"),
                      "header 'Authorization' has a carriage return (CR) \(rule)", secret: "s3cret")
        assertRefused(try HTTPHeaderField(name: "Cookie", value: "id=s3cret\nX: 1"), "header 'Cookie' has a line feed (LF) \(rule)", secret: "s3cret")
        assertRefused(try HTTPHeaderField(parsing: "X-Token: s3cret\0"), "header 'X-Token' has a NUL \(rule)", secret: "s3cret")
        assertRefused(try HTTPHeaderField(parsing: "X-Token: s3cret\r"), "header 'X-Token' has a carriage return (CR) \(rule)", secret: "s3cret")
        assertRefused(try HTTPHeaderField(name: "X-Token", value: "a\u{1B}[31m"), "header 'X-Token' has the control character U+001B \(rule)")
        assertRefused(try HTTPHeaderField(name: "X-Token", value: "a\u{7F}"), "header 'X-Token' has the control character U+007F \(rule)")
        assertRefused(try HTTPHeaderField(name: "X-Token", value: "a\u{85}"), "header 'X-Token' has the control character U+0085 \(rule)")
    }

    func testALineWithoutAColonOrAnEmptyValueAfterOneIsRefused() {
        assertRefused(try HTTPHeaderField(parsing: "Authorization Bearer s3cret"),
                      "a header must be 'Name: value' (or 'Name;' for an empty value); this one has no colon", secret: "s3cret")
        assertRefused(try HTTPHeaderField(parsing: "Accept: \t "),
                      "header 'Accept' has no value after its colon: curl would remove that header, which imgcache cannot; write 'Accept;' to send it empty")
        XCTAssertEqual(try HTTPHeaderField(name: "Accept", value: "").value, "", "an empty value is allowed when given as such")
    }

    func testNamesTheLoaderKeepsAreRefusedWhateverTheirCase() {
        let framing = "is set by libcurl and the loader for the connection and the message's framing"
        for name in ["Host", "content-length", "Transfer-Encoding", "Expect", "CONNECTION", "Keep-Alive", "Proxy-Connection",
                     "TE", "Trailer", "Upgrade"] {
            assertRefused(try HTTPHeaderField(name: name, value: "x"), "header '\(name)' \(framing)")
        }
        assertRefused(try HTTPHeaderField(parsing: "Accept-Encoding: br"), "header 'Accept-Encoding' is set by libcurl, which undoes the encodings it asks for")
        assertRefused(try HTTPHeaderField(parsing: "range: bytes=0-99"),
                      "header 'range' would ask for a part of the body, which the loader would take for the whole")
        assertRefused(try HTTPHeaderField(parsing: "If-Range: \"v1\""),
                      "header 'If-Range' would ask for a part of the body, which the loader would take for the whole")
        assertRefused(try HTTPHeaderField(parsing: "If-None-Match: \"v1\""), "header 'If-None-Match' is set from DataRequest.validators")
        assertRefused(try HTTPHeaderField(parsing: "If-Modified-Since: x"), "header 'If-Modified-Since' is set from DataRequest.validators")
        for name in ["Authorization", "Cookie", "Proxy-Authorization", "User-Agent", "Accept", "X-Trace"] {
            XCTAssertNoThrow(try HTTPHeaderField(name: name, value: "v"), name)
        }
    }

    func testTheDictionaryKeepsTheLastOfOneNameWithItsSpelling() throws {
        let fields = try ["X-Trace: 1", "Accept: image/png", "x-trace: 2", "Cookie: a=b"].map { try HTTPHeaderField(parsing: $0) }
        XCTAssertEqual(HTTPHeaderField.dictionary(fields), ["x-trace": "2", "Accept": "image/png", "Cookie": "a=b"])
        XCTAssertEqual(HTTPHeaderField.dictionary([]), [:])
    }

    func testDictionariesAreCheckedWithTheirOwnerNamed() {
        XCTAssertNoThrow(try HTTPHeaderField.check(["X-Trace": "1", "Authorization": "Bearer t"], of: "request"))
        XCTAssertThrowsError(try HTTPHeaderField.check(["X-Trace": "1", "x-trace": "2", "Cookie": "a"], of: "request")) { error in
            XCTAssertEqual(error as? ImgCacheError, .invalidArgument(
                "request headers 'X-Trace' and 'x-trace' are one header: names are compared case-insensitively"))
        }
        XCTAssertThrowsError(try HTTPHeaderField.check(["Host": "a.test"], of: "configuration")) { error in
            XCTAssertEqual(error as? ImgCacheError, .invalidArgument(
                "configuration header 'Host' is set by libcurl and the loader for the connection and the message's framing"))
        }
    }

    func testALoaderWithABadConfigurationHeaderRefusesEveryLoad() async {
        var configuration = DataLoader.Configuration()
        configuration.headers = ["X-Token": "s3cret\nX-Evil: 1"]
        let loader = DataLoader(configuration: configuration)
        do {
            _ = try await loader.load(DataRequest(url: URL(string: "http://127.0.0.1:9/x")!))
            XCTFail("loaded")
        } catch {
            XCTAssertEqual(error as? ImgCacheError, .invalidArgument(
                "configuration header 'X-Token' has a line feed (LF) in its value (only tab is allowed among control characters)"))
        }
    }
}
