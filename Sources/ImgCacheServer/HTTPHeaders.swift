/// Header fields in the order they were sent or added, names compared case-insensitively.
///
/// A request's names arrive lower-cased (`HTTPRequest.headers`); a response's are written as given.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field: a name and its value.
    public struct Field: Sendable, Hashable {
        /// As sent or given (lower-cased in a request).
        public var name: String
        /// Without the spaces and tabs around it in a request.
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every field, repeated names included, in order.
    public private(set) var fields: [Field]

    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the field `name` (any case), or nil.
    public subscript(name: String) -> String? {
        let name = name.lowercased()
        return fields.first { $0.name.lowercased() == name }?.value
    }

    /// Every value of the field `name` (any case), in order.
    public func values(for name: String) -> [String] {
        let name = name.lowercased()
        return fields.filter { $0.name.lowercased() == name }.map(\.value)
    }

    /// Adds a field after the others (a name already present is kept: both are sent).
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field `name` (any case) with one field of that value.
    public mutating func set(name: String, value: String) {
        let lowered = name.lowercased()
        fields.removeAll { $0.name.lowercased() == lowered }
        fields.append(Field(name: name, value: value))
    }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}
