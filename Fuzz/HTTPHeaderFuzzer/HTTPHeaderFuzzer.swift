import Foundation
import FuzzDriver
@testable import ImgCache

// Parses fuzzed response headers the way the loader does: freshness (Cache-Control, Expires,
// Age, Date), validators (ETag, Last-Modified), HTTP dates and Retry-After; and each line as a
// request header a caller passes (`HTTPHeaderField(parsing:)`, as `-H` reads it), which either
// is refused or holds no CR, LF or NUL. The input is lines of "Name: value"; the values are
// whatever the fuzzer makes of them.

@_cdecl("LLVMFuzzerTestOneInput")
public func httpHeaderFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    var headers: [String: String] = [:]
    for line in text.split(separator: "\n") {
        if let field = try? HTTPHeaderField(parsing: String(line)) {
            precondition(!(field.name + field.value).unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }, "a header kept CR, LF or NUL")
        }
    }
    for line in text.split(whereSeparator: \.isNewline) {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { continue }
        headers[parts[0].trimmingCharacters(in: .whitespaces).lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
    }
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let freshness = HTTPFreshness(headers: headers, receivedAt: now, defaultTTL: 3600)
    precondition(freshness.expires.timeIntervalSince1970.isFinite, "expiry is not a finite date")
    _ = HTTPValidators(headers: headers)
    for value in headers.values {
        if let date = HTTPDate.parse(value, now: now) { precondition(date.timeIntervalSince1970.isFinite) }
        if let delay = RetryPolicy.retryAfter(value, served: now, now: now) {
            precondition(delay.isFinite && delay >= 0, "Retry-After of \(delay) s")
        }
    }
    return 0
}

@_cdecl("HTTPHeaderFuzzer_main")
public func hTTPHeaderFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, httpHeaderFuzzerTestOneInput)
}
