/// One request header, checked: a name that is an RFC 9110 token the loader lets a caller set, and
/// a value without control characters. `DataRequest.headers` and
/// `DataLoader.Configuration.headers` are checked by the same rules when a load starts.
///
/// A name is 1*tchar: letters, digits, `!#$%&'*+-.^_|~` and the backtick, so no space, colon or
/// control character. These names are refused, whatever their case:
/// - `Host`, `Content-Length`, `Transfer-Encoding`, `Expect`, `Connection`, `Keep-Alive`,
///   `Proxy-Connection`, `TE`, `Trailer` and `Upgrade`: the connection and the message's framing
///   belong to libcurl and the loader (hop-by-hop headers, RFC 9110 section 7.6.1);
/// - `Accept-Encoding`: libcurl asks for the encodings it undoes, and the byte limit and length
///   checks count on it;
/// - `Range` and `If-Range`: a partial body would be taken for the whole image;
/// - `If-None-Match` and `If-Modified-Since`: set from `DataRequest.validators`, so that a 304 is
///   only ever the answer to a request that can take one.
///
/// A value may be empty and may hold any character but the control characters (C0, DEL and C1),
/// horizontal tab excepted, so that no CR or LF can start a header or a request of its own.
///
/// Errors are `ImgCacheError.invalidArgument`: they name a header whose name is valid, and never
/// show a value (it may be a password or a token), nor a name that is not valid (it may be a value
/// whose colon was forgotten).
public struct HTTPHeaderField: Sendable, Hashable {
    /// The name as given; the loader compares names case-insensitively.
    public let name: String
    /// The value as given, sent as UTF-8.
    public let value: String

    /// - Throws: `invalidArgument` for a name that is not a token or is refused, or a value with a
    ///   control character (see the type's rules).
    public init(name: String, value: String) throws {
        if let problem = Self.problem(name: name, value: value) {
            throw ImgCacheError.invalidArgument(problem)
        }
        self.name = name
        self.value = value
    }

    /// Reads curl's `-H` form: `Name: value`, the value trimmed of the spaces and tabs around it,
    /// or `Name;` for a header sent with an empty value.
    ///
    /// - Throws: `invalidArgument` for a line with neither, the rules of `init(name:value:)`, and
    ///   `Name:` with nothing after the colon: curl takes that to remove a header it would send,
    ///   which the loader cannot do, so it is refused rather than sent empty (write `Name;`).
    public init(parsing line: String) throws {
        if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            let value = String(line[line.index(after: colon)...]).trimmingSpacesAndTabs()
            if value.isEmpty, Self.nameProblem(name) == nil {
                throw ImgCacheError.invalidArgument(
                    "header '\(name)' has no value after its colon: curl would remove that header, "
                        + "which imgcache cannot; write '\(name);' to send it empty")
            }
            try self.init(name: name, value: value)
        } else if line.hasSuffix(";") {
            try self.init(name: String(line.dropLast()), value: "")
        } else {
            throw ImgCacheError.invalidArgument("a header must be 'Name: value' (or 'Name;' for an empty value); this one has no colon")
        }
    }

    /// `fields` as `DataRequest.headers` or `DataLoader.Configuration.headers` take them: when
    /// several have the same name (whatever its case), the last one is kept, with its spelling.
    public static func dictionary(_ fields: [HTTPHeaderField]) -> [String: String] {
        var byName: [String: HTTPHeaderField] = [:]
        for field in fields { byName[field.name.lowercased()] = field }
        return Dictionary(uniqueKeysWithValues: byName.values.map { ($0.name, $0.value) })
    }

    /// The headers that carry credentials: sent only to the origin of a load's first URL.
    static let credentialNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// Throws `invalidArgument` for the first header of `headers` that breaks the rules, or for two
    /// names that differ only in case (which one would be sent is not defined). `owner` says whose
    /// headers they are in the message ("request", "configuration").
    static func check(_ headers: [String: String], of owner: String) throws {
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let problem = problem(name: name, value: value) {
                throw ImgCacheError.invalidArgument("\(owner) \(problem)")
            }
        }
        let groups = Dictionary(grouping: headers.keys, by: { $0.lowercased() })
        if let same = groups.values.filter({ $0.count > 1 }).map({ $0.sorted() }).min(by: { $0[0] < $1[0] }) {
            let names = same.map { "'\($0)'" }.joined(separator: " and ")
            throw ImgCacheError.invalidArgument("\(owner) headers \(names) are one header: names are compared case-insensitively")
        }
    }

    private static let refusedNames: [String: String] = {
        var reasons: [String: String] = [:]
        for name in ["host", "content-length", "transfer-encoding", "expect", "connection", "keep-alive",
                     "proxy-connection", "te", "trailer", "upgrade"] {
            reasons[name] = "is set by libcurl and the loader for the connection and the message's framing"
        }
        reasons["accept-encoding"] = "is set by libcurl, which undoes the encodings it asks for"
        for name in ["range", "if-range"] {
            reasons[name] = "would ask for a part of the body, which the loader would take for the whole"
        }
        for name in ["if-none-match", "if-modified-since"] {
            reasons[name] = "is set from DataRequest.validators"
        }
        return reasons
    }()

    /// What is wrong with the header, as the end of a message naming it, or nil.
    private static func problem(name: String, value: String) -> String? {
        if let problem = nameProblem(name) { return problem }
        if let reason = refusedNames[name.lowercased()] { return "header '\(name)' \(reason)" }
        for scalar in value.unicodeScalars where scalar.properties.generalCategory == .control && scalar != "\t" {
            return "header '\(name)' has \(describe(control: scalar)) in its value (only tab is allowed among control characters)"
        }
        return nil
    }

    /// Why `name` is not a token, without showing it, or nil.
    private static func nameProblem(_ name: String) -> String? {
        guard !name.isEmpty else { return "header name is empty" }
        for (offset, scalar) in name.unicodeScalars.enumerated() where !isTokenCharacter(scalar) {
            let character = scalar.properties.generalCategory == .control ? describe(control: scalar)
                : scalar == " " ? "a space" : "'\(scalar)'"
            return "header name has \(character) at character \(offset + 1), which no name may hold (RFC 9110 token characters only)"
        }
        return nil
    }

    /// tchar: ``!#$%&'*+-.^_`|~``, digits and ASCII letters.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
    }

    private static func describe(control scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\r": return "a carriage return (CR)"
        case "\n": return "a line feed (LF)"
        case "\0": return "a NUL"
        default: return "the control character U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))"
        }
    }
}

private extension String {
    func trimmingSpacesAndTabs() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }

    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
