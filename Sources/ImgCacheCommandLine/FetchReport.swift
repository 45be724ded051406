import Foundation
import ImgCache

/// The `--json` form of a fetched image.
struct FetchReport {
    let path: String
    let response: ImageSummary

    func object() -> [String: Any] {
        var object: [String: Any] = [
            "path": path,
            "url": response.request.url.absoluteString,
            "pixels": ["width": response.pixelSize.width, "height": response.pixelSize.height],
            "points": ["width": response.pointSize.width, "height": response.pointSize.height],
            "scale": response.scale,
            "frames": response.frameCount,
            "format": response.format.rawValue,
            "bytes": response.byteCount,
            "cache": response.cacheOutcome.rawValue,
            "timings": [
                "loading": response.timings.loading, "decoding": response.timings.decoding,
                "encoding": response.timings.encoding, "total": response.timings.total,
            ],
        ]
        // Whether the target's size was estimated (no source publishes it), never left unsaid.
        if let resolved = try? response.request.target?.resolve() {
            object["estimated"] = resolved.isEstimated
            if let estimate = resolved.estimate {
                object["estimate"] = estimate.basis
                if let error = estimate.expectedErrorPixels { object["expected_error_px"] = error }
            }
        }
        if let timeline = response.request.timeline {
            object["timeline"] = TimelineReport(timeline, size: response.pixelSize, frames: response.frameCount).object()
        }
        if let source = response.source {
            object["source"] = ["format": source.format.rawValue, "width": source.size.width, "height": source.size.height]
            if let frame = source.posterFrame { object["poster_frame"] = frame }
        }
        return object
    }

    func json() throws -> String {
        try Self.json(object())
    }

    /// `value` (an object or an array of them) as one line of JSON, keys sorted.
    static func json(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
