/// One processing option of a serve path, `name:argument1:argument2...` as written (options are
/// never percent-decoded, as in imgproxy), with strict readers for its arguments: each refuses
/// what it cannot read with `ServeURLError.invalidOption` naming the option as written.
struct ServeOption {
    /// The name as written, e.g. `rs` or `resize`.
    let name: String
    let arguments: [String]

    /// The option of a path segment holding at least one ":" (the path is printable ASCII).
    init(segment: some Collection<UInt8>) {
        let parts = segment.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        name = String(decoding: parts[0], as: UTF8.self)
        arguments = parts.dropFirst().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The error for this option, naming it as written.
    func invalid(_ detail: String) -> ServeURLError {
        .invalidOption(name: ServeURLError.quote(name), detail: detail)
    }

    /// Refuses an argument count outside `counts`.
    func expect(_ counts: ClosedRange<Int>, _ usage: String) throws(ServeURLError) {
        guard counts.contains(arguments.count) else {
            let expected = counts.count == 1 ? "\(counts.lowerBound)" : "\(counts.lowerBound) to \(counts.upperBound)"
            throw invalid("takes \(expected) argument\(counts.upperBound == 1 ? "" : "s") (\(usage)), not \(arguments.count)")
        }
    }

    /// True when the argument at `index` is absent or empty: inside imgproxy's meta-options
    /// (`rs`, `s`) it keeps the value set before.
    func isOmitted(_ index: Int) -> Bool {
        index >= arguments.count || arguments[index].isEmpty
    }

    /// The argument at `index` (present: see `expect`), refused when empty.
    func word(_ index: Int, _ what: String) throws(ServeURLError) -> String {
        let argument = arguments[index]
        guard !argument.isEmpty else { throw invalid("\(what) is empty") }
        return argument
    }

    /// A whole number in `range`: ASCII digits only (no sign, no spaces), at most 18 of them.
    func wholeNumber(_ index: Int, _ what: String, in range: ClosedRange<Int>) throws(ServeURLError) -> Int {
        let argument = try word(index, what)
        guard argument.utf8.count <= 18, argument.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(argument) else {
            throw invalid("\(what) '\(ServeURLError.quote(argument))' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        guard range.contains(value) else {
            throw invalid("\(what) \(value) is not in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// A decimal number above 0 and at most `maximum` (see `decimal`).
    func positiveDecimal(_ index: Int, _ what: String, maximum: Int) throws(ServeURLError) -> Double {
        let argument = try word(index, what)
        guard let value = Self.decimal(argument) else {
            throw invalid("\(what) '\(ServeURLError.quote(argument))' is not a decimal number such as 2 or 2.5")
        }
        guard value > 0, value <= Double(maximum) else { throw invalid("\(what) \(argument) is not above 0 and at most \(maximum)") }
        return value
    }

    /// A fraction from 0 to 1 (see `decimal`): `0`, `1`, `0.25`, `.25`, `1.0`.
    func fraction(_ index: Int, _ what: String) throws(ServeURLError) -> Double {
        let argument = try word(index, what)
        guard let value = Self.decimal(argument), (0...1).contains(value) else {
            throw invalid("\(what) '\(ServeURLError.quote(argument))' is not a fraction from 0 to 1 such as 0.25")
        }
        return value
    }

    /// `text` as a decimal number: digits with an optional fraction (`2`, `2.5`, `.5`), no sign,
    /// exponent, `inf` or `nan`, at most 18 characters; nil otherwise.
    private static func decimal(_ text: String) -> Double? {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let digitsOnly = parts.allSatisfy { $0.allSatisfy { (0x30...0x39).contains($0) } }
        guard text.utf8.count <= 18, parts.count <= 2, digitsOnly, parts.last?.isEmpty == false else { return nil }
        return Double(parts.count == 2 && parts[0].isEmpty ? "0" + text : text)
    }

    /// A boolean as imgproxy (Go's strconv.ParseBool) writes one: 1, t, T, true, True, TRUE, or
    /// 0, f, F, false, False, FALSE. imgproxy takes anything else as false; this refuses it.
    func bool(_ index: Int, _ what: String) throws(ServeURLError) -> Bool {
        let argument = try word(index, what)
        switch argument {
        case "1", "t", "T", "true", "True", "TRUE": return true
        case "0", "f", "F", "false", "False", "FALSE": return false
        default: throw invalid("\(what) '\(ServeURLError.quote(argument))' is not 1, t, true, 0, f or false")
        }
    }

    /// The value of `T` named by the argument at `index`, refused with the names there are.
    func choice<T: RawRepresentable & CaseIterable>(_ index: Int, _ what: String, of type: T.Type) throws(ServeURLError) -> T
    where T.RawValue == String {
        let argument = try word(index, what)
        guard let value = T(rawValue: argument) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw invalid("\(what) '\(ServeURLError.quote(argument))' is not one of \(names)")
        }
        return value
    }
}
