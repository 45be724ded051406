import Foundation
import FuzzDriver
import ImgCache
@testable import ImgCacheCommandLine

// Parses fuzzed command lines the way `fetch`, `prefetch` and `decode` read their targets,
// numbers and request options, then resolves what parsed: every word the fuzzer makes (sizes,
// scales, device and widget lists, byte counts, frame counts, headers, query item names, storage
// and formats) must give a value or a usage error, never a trap; no accepted header keeps a CR,
// LF or NUL, and no key policy makes a key with a "#".
// The input is words separated by newlines; a few options are prefixed so that the fuzzer reaches
// the values quickly.

private let options = ["--size", "--scale", "--device", "--widget", "--mode", "--max-frames", "--budget",
                       "--text-size", "--entry", "--allowed-hosts", "-H", "--user-agent", "--ignore-query", "--store",
                       "--format", "--quality"]

@_cdecl("LLVMFuzzerTestOneInput")
public func commandLineFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    var words = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Every other word is an option name, chosen by the word's length, so values land on options.
    for index in stride(from: 0, to: words.count, by: 2) where words[index].count < 40 {
        words[index] = options[words[index].count % options.count]
    }
    _ = parseByteCount(words.last ?? "")
    var arguments = ArgumentList(words)
    do {
        let target = try TargetArguments.parse(&arguments, cacheDirectory: true)
        let requestOptions = try RequestArguments.parse(&arguments, environment: [:])
        let policy = CacheKeyPolicy(ignoredQueryItems: requestOptions.ignoredQueryItems)
        if (try? policy.validate()) != nil {
            let key = policy.key(for: URL(string: "https://example.test/a.jpg?X-Amz-Date=1&w=2#f")!)
            precondition(!key.contains("#"), "an original's key reached the variants' key space: \(key)")
        }
        for request in try target.requests(for: "https://example.test/a.jpg") {
            let prepared = requestOptions.applied(to: request)
            for (name, value) in prepared.headers {
                precondition(!(name + value).unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }, "a header kept CR, LF or NUL")
            }
            _ = try? prepared.target?.resolve()
        }
        _ = try? target.decodingOptions(verb: "decode")
    } catch is UsageError {
    } catch is ImgCacheError {
    } catch {
        preconditionFailure("parsing threw \(error)")
    }
    return 0
}

@_cdecl("CommandLineFuzzer_main")
public func commandLineFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, commandLineFuzzerTestOneInput)
}
