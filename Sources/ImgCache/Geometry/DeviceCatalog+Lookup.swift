import Foundation

extension DeviceCatalog {
    /// The device a model name refers to, e.g. "iPhone 16 Pro", "iphone 16 pro",
    /// "iPad Pro 11-inch (M4)" or "ipad pro 11 m4". Case, spaces, punctuation, "inch" and
    /// "generation"/"gen" are ignored, and "3rd gen" matches "3". An unknown name throws
    /// `unknownDevice` with the three closest model names.
    public static func device(named name: String) throws -> DeviceModel {
        let wanted = normalized(name)
        if let device = devices.first(where: { device in
            normalized(device.name) == wanted || device.models.contains { normalized($0) == wanted }
        }) {
            return device
        }
        let ranked = devices.flatMap(\.models)
            .map { (model: $0, distance: editDistance(normalized($0), wanted)) }
            .sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.model < $1.model }
        throw ImgCacheError.unknownDevice(name: name, suggestions: ranked.prefix(3).map(\.model))
    }

    /// Lower case letters and digits only, with "inch", "generation" and ordinal suffixes removed.
    static func normalized(_ name: String) -> String {
        var text = name.lowercased()
        for word in ["generation", "inch", "gen"] { text = text.replacingOccurrences(of: word, with: " ") }
        let words = text.split { !$0.isLetter && !$0.isNumber }.map { word -> Substring in
            for suffix in ["st", "nd", "rd", "th"] where word.hasSuffix(suffix) && word.dropLast(2).allSatisfy(\.isNumber) && word.count > 2 {
                return word.dropLast(2)
            }
            return word
        }
        return words.joined()
    }

    /// Levenshtein distance between two strings.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
