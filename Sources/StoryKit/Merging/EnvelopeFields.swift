/// An object of a Messages envelope being read into ``MessagesEnvelope``,
/// with the path to it (`testCase.testSteps[0]`) for messages: each
/// accessor gives a member of the schema's type, and throws an
/// ``EnvelopeFields/Problem`` naming the path when it is missing or of
/// another type. Keys it is not asked for are ignored.
struct EnvelopeFields {
    /// A member missing or of the wrong type, in words.
    struct Problem: Error {
        var description: String
    }

    private let members: [(String, JSONValue)]
    private let path: String

    /// The object `value`, found at `path` ("" for the envelope itself).
    init(_ value: JSONValue, at path: String) throws(Problem) {
        guard case .object(let members) = value else {
            throw Problem(description: path.isEmpty ? "not a JSON object" : "\(path) is not an object (it is \(value.kind))")
        }
        self.members = members
        self.path = path
    }

    /// The path of a member of this object.
    private func path(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// A member's value; nil when it is missing or null (as the schema's
    /// optional fields may be).
    private func present(_ key: String) -> JSONValue? {
        for (name, value) in members where name == key {
            if case .null = value { return nil }
            return value
        }
        return nil
    }

    /// A required member's value.
    private func required(_ key: String, _ type: String) throws(Problem) -> JSONValue {
        for (name, value) in members where name == key {
            if case .null = value { throw Problem(description: "\(path(key)) is null, not \(type)") }
            return value
        }
        throw Problem(description: "\(path.isEmpty ? "the envelope" : path) has no \"\(key)\"")
    }

    private func mismatch(_ key: String, _ type: String, _ value: JSONValue) -> Problem {
        let found = value.doubleValue != nil && type == "a whole number" ? "a number with a fraction, or past 64 bits" : value.kind
        return Problem(description: "\(path(key)) is not \(type) (it is \(found))")
    }

    private func string(_ key: String, _ value: JSONValue) throws(Problem) -> String {
        guard case .string(let text) = value else { throw mismatch(key, "a string", value) }
        return text
    }

    private func integer(_ key: String, _ value: JSONValue) throws(Problem) -> Int64 {
        guard let number = value.intValue else { throw mismatch(key, "a whole number", value) }
        return number
    }

    /// A required string.
    func string(_ key: String) throws(Problem) -> String {
        try string(key, try required(key, "a string"))
    }

    /// An optional string.
    func optionalString(_ key: String) throws(Problem) -> String? {
        guard let value = present(key) else { return nil }
        return try string(key, value)
    }

    /// A required whole number.
    func integer(_ key: String) throws(Problem) -> Int64 {
        try integer(key, try required(key, "a whole number"))
    }

    /// An optional whole number.
    func optionalInteger(_ key: String) throws(Problem) -> Int64? {
        guard let value = present(key) else { return nil }
        return try integer(key, value)
    }

    /// A required Boolean.
    func bool(_ key: String) throws(Problem) -> Bool {
        let value = try required(key, "true or false")
        guard case .bool(let truth) = value else { throw mismatch(key, "true or false", value) }
        return truth
    }

    /// A required object, read by `read`.
    func object<T>(_ key: String, _ read: (EnvelopeFields) throws(Problem) -> T) throws(Problem) -> T {
        try read(EnvelopeFields(try required(key, "an object"), at: path(key)))
    }

    /// An optional object, read by `read`.
    func optionalObject<T>(_ key: String, _ read: (EnvelopeFields) throws(Problem) -> T) throws(Problem) -> T? {
        guard let value = present(key) else { return nil }
        return try read(EnvelopeFields(value, at: path(key)))
    }

    /// A required list of objects, each read by `read`.
    func objects<T>(_ key: String, _ read: (EnvelopeFields) throws(Problem) -> T) throws(Problem) -> [T] {
        try list(key, try required(key, "a list"), read)
    }

    /// An optional list of objects, each read by `read`.
    func optionalObjects<T>(_ key: String, _ read: (EnvelopeFields) throws(Problem) -> T) throws(Problem) -> [T]? {
        guard let value = present(key) else { return nil }
        return try list(key, value, read)
    }

    /// An optional list of strings.
    func optionalStrings(_ key: String) throws(Problem) -> [String]? {
        guard let value = present(key) else { return nil }
        guard case .array(let elements) = value else { throw mismatch(key, "a list", value) }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else { throw mismatch("\(key)[\(index)]", "a string", element) }
            strings.append(text)
        }
        return strings
    }

    private func list<T>(_ key: String, _ value: JSONValue, _ read: (EnvelopeFields) throws(Problem) -> T) throws(Problem) -> [T] {
        guard case .array(let elements) = value else { throw mismatch(key, "a list", value) }
        var values: [T] = []
        values.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            values.append(try read(EnvelopeFields(element, at: "\(path(key))[\(index)]")))
        }
        return values
    }
}
