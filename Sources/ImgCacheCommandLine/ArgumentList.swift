import Foundation

/// The words after the verb, taken off one option at a time. Options are `--name value`,
/// `--name=value` or short `-o value`; whatever is left must be positional arguments.
struct ArgumentList {
    private var words: [String]

    init(_ words: [String]) {
        self.words = words
    }

    /// True if one of `names` is present (and removes it).
    mutating func flag(_ names: String...) -> Bool {
        guard let index = words.firstIndex(where: names.contains) else { return false }
        words.remove(at: index)
        return true
    }

    /// The value of the last occurrence of one of `names`, or nil when absent.
    mutating func value(_ names: String...) throws -> String? {
        var found: String?
        var index = 0
        while index < words.count {
            let word = words[index]
            if let name = names.first(where: { word.hasPrefix($0 + "=") }) {
                found = String(word.dropFirst(name.count + 1))
                words.remove(at: index)
            } else if names.contains(word) {
                guard index + 1 < words.count else { throw UsageError("\(word) needs a value") }
                found = words[index + 1]
                words.removeSubrange(index...index + 1)
            } else {
                index += 1
            }
        }
        return found
    }

    /// The values of every occurrence of `names`, in order (for a repeatable option such as `-H`).
    mutating func values(_ names: String...) throws -> [String] {
        var found: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if let name = names.first(where: { word.hasPrefix($0 + "=") }) {
                found.append(String(word.dropFirst(name.count + 1)))
                words.remove(at: index)
            } else if names.contains(word) {
                guard index + 1 < words.count else { throw UsageError("\(word) needs a value") }
                found.append(words[index + 1])
                words.removeSubrange(index...index + 1)
            } else {
                index += 1
            }
        }
        return found
    }

    /// The value of `names` converted by `parse`, which returns nil for a bad value described by `expected`.
    mutating func value<Value>(
        _ names: String..., expected: String, parse: (String) -> Value?
    ) throws -> Value? {
        var found: String?
        for name in names { if let value = try value(name) { found = value } }
        guard let found else { return nil }
        guard let parsed = parse(found) else {
            throw UsageError("\(names[0]) expects \(expected), got '\(found)'")
        }
        return parsed
    }

    /// An option whose value may be left out: nil when `name` is absent; else its value, given
    /// as `name=VALUE` or as the next word when that word is all digits; else "" (the bare option).
    mutating func optionalNumber(_ name: String) -> String? {
        var found: String?
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.hasPrefix(name + "=") {
                found = String(word.dropFirst(name.count + 1))
                words.remove(at: index)
            } else if word == name {
                let next = index + 1 < words.count ? words[index + 1] : ""
                let isNumber = !next.isEmpty && next.allSatisfy(\.isASCII) && next.allSatisfy(\.isNumber)
                found = isNumber ? next : ""
                words.removeSubrange(index...(isNumber ? index + 1 : index))
            } else {
                index += 1
            }
        }
        return found
    }

    /// True when no word is left.
    var isEmpty: Bool { words.isEmpty }

    /// The remaining words, which must all be positional; `count` of them exactly.
    func positionals(_ count: Int, usage: String) throws -> [String] {
        if let unknown = words.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw UsageError("unknown option \(unknown)")
        }
        guard words.count == count else {
            throw UsageError(words.count < count ? "missing argument; usage: \(usage)" : "unexpected argument '\(words[count])'")
        }
        return words
    }
}

/// A command line that does not fit the verb's usage (exit code 2).
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Parses a byte count: a whole number with an optional unit B, KB, MB or GB (binary: 1 KB = 1024 B).
func parseByteCount(_ text: String) -> Int? {
    let units: [(String, Int)] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]
    let upper = text.uppercased().trimmingCharacters(in: .whitespaces)
    for (suffix, multiplier) in units where upper.hasSuffix(suffix) {
        guard let number = Double(upper.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)),
              number >= 0, number * Double(multiplier) < Double(Int.max) else { return nil }
        return Int(number * Double(multiplier))
    }
    guard let number = Int(upper), number >= 0 else { return nil }
    return number
}
