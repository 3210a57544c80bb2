extension FaultServer {
    /// An ordered list of header fields with case-insensitive lookup, as HTTP requires.
    /// Order is kept so responses go out exactly as a test built them.
    public struct Headers: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
        /// The fields in wire order, names as written.
        public private(set) var fields: [(name: String, value: String)]

        public init(_ fields: [(name: String, value: String)] = []) {
            self.fields = fields
        }

        public init(dictionaryLiteral elements: (String, String)...) {
            self.fields = elements.map { (name: $0.0, value: $0.1) }
        }

        /// Builds from a dictionary, sorted by name so the wire order is deterministic.
        public init(_ dictionary: [String: String]) {
            self.fields = dictionary.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        }

        /// The first value of `name`, compared case-insensitively.
        public subscript(name: String) -> String? {
            let key = name.lowercased()
            return fields.first { $0.name.lowercased() == key }?.value
        }

        /// Every value of `name`, in order (e.g. repeated `Set-Cookie`).
        public func values(_ name: String) -> [String] {
            let key = name.lowercased()
            return fields.filter { $0.name.lowercased() == key }.map(\.value)
        }

        public func contains(_ name: String) -> Bool { self[name] != nil }

        /// Replaces every field called `name` with one field (or removes them for nil).
        public mutating func set(_ name: String, _ value: String?) {
            let key = name.lowercased()
            fields.removeAll { $0.name.lowercased() == key }
            if let value { fields.append((name: name, value: value)) }
        }

        /// Adds a field, keeping existing ones of the same name.
        public mutating func add(_ name: String, _ value: String) {
            fields.append((name: name, value: value))
        }

        public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
            fields.makeIterator()
        }

        public static func == (lhs: Headers, rhs: Headers) -> Bool {
            lhs.fields.count == rhs.fields.count
                && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
        }
    }
}
