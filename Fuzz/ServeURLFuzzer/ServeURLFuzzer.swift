import Foundation
import FuzzDriver
@testable import ImgCache
import ImgCacheServerURLs

// Parses fuzzed serve paths the way `imgcache serve` does, with and without a key. The first
// byte picks how (its value modulo 4), the rest is the path:
//   0  unsigned, the path as it is;
//   1  with a key, the path as it is: it must never be accepted unless its first segment is the
//      right signature;
//   2  with a key, the path signed (its signature put before it), so that the options and the
//      source are reached: the answer must be the unsigned parser's for the same path;
//   3  unsigned, with a 16,384-pixel output limit and a 512-byte path limit.
// Every refusal is a ServeURLError with a status of 400, 403, 404 or 414 and one line of printable
// ASCII that never shows the signature; every request accepted is one the pipeline takes
// (`RequestPlan` under the same limits), an http(s) URL with a host; every slice resolves on a few
// screenshot sizes to a region inside the screenshot, or is refused with a 400.

private let signingKey = try! URLSigningKey(key: Array("imgcache fuzzing key".utf8), salt: Array("salt".utf8))
private let signed = ServeURLParser(configuration: ServeURLConfiguration(signing: .required(signingKey)))
private let unsigned = ServeURLParser(configuration: ServeURLConfiguration(signing: .unsigned))
private let smallLimits = DecodingLimits(maxOutputPixels: 16_384)
private let small = ServeURLParser(configuration: ServeURLConfiguration(signing: .unsigned, maxPathLength: 512, limits: smallLimits))
private let screenshots = [
    PixelSize(width: 1206, height: 2622), PixelSize(width: 1125, height: 2436), PixelSize(width: 640, height: 1136),
    PixelSize(width: 1290, height: 2796), PixelSize(width: 2622, height: 1206),
]

/// The parse of `path`, or its error.
private func outcome(_ parser: ServeURLParser, _ path: String) -> Result<ServeRequest, ServeURLError> {
    Result { () throws(ServeURLError) in try parser.parse(path: path) }
}

/// Checks a refusal's status and message, or that an accepted request is one the pipeline runs.
private func check(_ result: Result<ServeRequest, ServeURLError>, limits: DecodingLimits, hiding signature: String? = nil) {
    switch result {
    case .failure(let error):
        precondition([400, 403, 404, 414].contains(error.httpStatus), "status \(error.httpStatus)")
        let message = error.description
        precondition(message.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }, "a message of other characters")
        precondition(message.utf8.count < 600, "a message of \(message.utf8.count) bytes")
        if let signature { precondition(!message.contains(signature), "a message showed the signature") }
    case .success(let serve):
        let configuration = ImagePipeline.Configuration(limits: limits)
        precondition(["http", "https"].contains(serve.sourceURL.scheme?.lowercased()), "source \(serve.sourceURL)")
        precondition(serve.sourceURL.host?.isEmpty == false, "source without a host")
        switch serve.plan {
        case .ready(let request):
            precondition(request.url == serve.sourceURL)
            do { _ = try RequestPlan(request, configuration) } catch { preconditionFailure("the pipeline refused \(request): \(error)") }
        case .slice(let slice):
            for size in screenshots + [slice.device?.screenPixels].compactMap({ $0 }) {
                do {
                    let request = try slice.request(screenshotSize: size)
                    guard let region = request.sourceRegion, region.fits(in: size) else {
                        preconditionFailure("a slice of \(size) without a region inside it")
                    }
                    _ = try RequestPlan(request, configuration)
                } catch let error as ServeURLError {
                    precondition(error.httpStatus == 400, "a slice refused with \(error.httpStatus)")
                } catch {
                    preconditionFailure("the pipeline refused a slice: \(error)")
                }
            }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func serveURLFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    guard let mode = bytes.first else { return 0 }
    let path = String(decoding: bytes.dropFirst(), as: UTF8.self)
    switch mode % 4 {
    case 0:
        check(outcome(unsigned, path), limits: DecodingLimits())
    case 1:
        let result = outcome(signed, path)
        if case .success = result {
            let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0].dropFirst()
                .split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            precondition(parts.count == 2 && signingKey.signature(forPath: "/" + parts[1]) == parts[0], "a wrong signature passed")
        }
        check(result, limits: DecodingLimits())
    case 2:
        let rest = path.hasPrefix("/") ? path : "/" + path
        let signedPart = String(rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        let signature = signingKey.signature(forPath: signedPart)
        let result = outcome(signed, "/" + signature + rest)
        check(result, limits: DecodingLimits(), hiding: signature)
        if ("/" + signature + rest).utf8.count <= signed.configuration.maxPathLength {
            precondition(result == outcome(unsigned, "/insecure" + rest), "signing changed the answer")
        }
    default:
        check(outcome(small, path), limits: smallLimits)
    }
    return 0
}

@_cdecl("ServeURLFuzzer_main")
public func serveURLFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, serveURLFuzzerTestOneInput)
}
