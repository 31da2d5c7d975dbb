import Foundation

/// Decodes a `Decodable` value from JSON read by StoryKit's own reader
/// (``JSONValue/init(parsingUTF8:)``), in the form ``JSONValueEncoder``
/// writes and Foundation's JSON decoder reads with its default
/// strategies: a missing member or `null` is a nil optional, `Data` is
/// base64, a `URL` a string, an integer may be written `3.0` but not
/// `3.5`, and a number that does not fit its type is an error, not
/// rounded, with one difference from Foundation's decoder: a whole number
/// above `Int64.max` is read as the nearest double (``JSONValue`` has no
/// case for it), so an unsigned integer there is that double's value,
/// rounded (`10000000000000000001` is 10^19), and is refused when it rounds
/// to 2^64 (`18446744073709551615`). Text that is not RFC 8259 JSON, and a
/// number too large for a double, are syntax errors, as in Foundation's.
///
/// Every problem is thrown, never a crash: text that is not JSON as a
/// ``JSONValue/SyntaxError`` (nested more than 200 deep included), a
/// value of the wrong kind, a missing member or a list too short as a
/// `DecodingError` with the coding path to it.
enum JSONValueDecoder {
    /// The value that `json` holds.
    static func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        try DecodingNode(json, parent: nil, key: nil).decode(type)
    }

    /// The value that JSON text, in UTF-8, holds.
    static func decode<T: Decodable>(_ type: T.Type, fromUTF8 bytes: [UInt8]) throws -> T {
        try decode(type, from: JSONValue(parsingUTF8: bytes))
    }
}

/// The `Decoder` of one value, and its single-value container.
final class DecodingNode: Decoder, SingleValueDecodingContainer, NestedCoder {
    let json: JSONValue
    let parent: DecodingNode?
    let key: (any CodingKey)?
    /// Where the last member read from this object was: members are
    /// nearly always read in the order they were written, so the next
    /// is looked for after it first.
    fileprivate var nextMember = 0

    init(_ json: JSONValue, parent: DecodingNode?, key: (any CodingKey)?) {
        self.json = json
        self.parent = parent
        self.key = key
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = json else { throw mismatch([String: Any].self, json, at: codingPath) }
        return KeyedDecodingContainer(KeyedDecoding<Key>(decoder: self, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = json else { throw mismatch([Any].self, json, at: codingPath) }
        return UnkeyedDecoding(decoder: self, elements: elements)
    }

    func singleValueContainer() -> any SingleValueDecodingContainer { self }

    /// `value` decoded as `T`, below this decoder at `key`: the types
    /// Foundation's JSON decoder reads its own way, or the type's own decoding.
    func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, key: (any CodingKey)?) throws -> T {
        // By type, not by cast (see JSONValueEncoder.node(for:key:)).
        if T.self == String.self {
            return unsafeBitCast(try Self.read(value, String.self, at: path(key)) { $0.stringValue }, to: T.self)
        }
        if T.self == Data.self {
            let data = try Self.read(value, Data.self, at: path(key)) { $0.stringValue.flatMap { Data(base64Encoded: $0) } }
            return unsafeBitCast(data, to: T.self)
        }
        if T.self == URL.self {
            return unsafeBitCast(try Self.read(value, URL.self, at: path(key)) { $0.stringValue.flatMap(URL.init(string:)) }, to: T.self)
        }
        return try T(from: DecodingNode(value, parent: self, key: key))
    }

    /// The coding path to `key` below this decoder.
    func path(_ key: (any CodingKey)?) -> [any CodingKey] {
        codingPath + (key.map { [$0] } ?? [])
    }

    /// `value` as `T` by `read`, or the error of a value of another kind.
    static func read<T>(_ value: JSONValue, _ type: T.Type, at path: @autoclosure () -> [any CodingKey], _ read: (JSONValue) -> T?) throws -> T {
        if let result = read(value) { return result }
        throw mismatch(type, value, at: path())
    }

    /// The error of a value that is not a `T`: null, another kind, or a
    /// number that `T` does not hold.
    static func mismatch(_ type: Any.Type, _ value: JSONValue, at path: [any CodingKey]) -> DecodingError {
        if value.isNull {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "null where \(type) should be"))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "\(value.text.prefix(40)) (\(value.kind)) is no \(type)"))
    }

    private func mismatch(_ type: Any.Type, _ value: JSONValue, at path: [any CodingKey]) -> DecodingError {
        Self.mismatch(type, value, at: path)
    }

    /// A whole number that fits `T` (written `3` or `3.0`).
    static func integer<T: FixedWidthInteger>(_ value: JSONValue) -> T? {
        switch value {
        case .int(let number): T(exactly: number)
        case .double(let number): T(exactly: number)
        default: nil
        }
    }

    /// A number that a `Float` holds (not one too large for it).
    static func float(_ value: JSONValue) -> Float? {
        guard let number = value.doubleValue, abs(number) <= Double(Float.greatestFiniteMagnitude) else { return nil }
        return Float(number)
    }

    func decodeNil() -> Bool { json.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try Self.read(json, type, at: codingPath) { $0.boolValue } }
    func decode(_ type: String.Type) throws -> String { try Self.read(json, type, at: codingPath) { $0.stringValue } }
    func decode(_ type: Double.Type) throws -> Double { try Self.read(json, type, at: codingPath) { $0.doubleValue } }
    func decode(_ type: Float.Type) throws -> Float { try Self.read(json, type, at: codingPath, Self.float) }
    func decode(_ type: Int.Type) throws -> Int { try Self.read(json, type, at: codingPath, Self.integer) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Self.read(json, type, at: codingPath, Self.integer) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Self.read(json, type, at: codingPath, Self.integer) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Self.read(json, type, at: codingPath, Self.integer) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Self.read(json, type, at: codingPath, Self.integer) }
    func decode(_ type: UInt.Type) throws -> UInt { try Self.read(json, type, at: codingPath, Self.integer) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Self.read(json, type, at: codingPath, Self.integer) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Self.read(json, type, at: codingPath, Self.integer) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Self.read(json, type, at: codingPath, Self.integer) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Self.read(json, type, at: codingPath, Self.integer) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decode(type, from: json, key: nil) }
}

/// An object's container: members looked up by key.
private struct KeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: DecodingNode
    let members: [(String, JSONValue)]

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.0) } }

    /// The member's value, looked for from the last one read on (then
    /// from the start): nil when there is none.
    private func member(_ key: Key) -> JSONValue? {
        let name = key.stringValue
        let count = members.count
        var index = decoder.nextMember
        for _ in 0..<count {
            if index >= count { index = 0 }
            if members[index].0 == name {
                // Kept on it: `decodeIfPresent` asks for the same key up to three times.
                decoder.nextMember = index
                return members[index].1
            }
            index += 1
        }
        return nil
    }

    /// The member's value; its absence is an error.
    private func required(_ key: Key) throws -> JSONValue {
        guard let value = member(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return value
    }

    private func read<T>(_ key: Key, _ type: T.Type, _ read: (JSONValue) -> T?) throws -> T {
        try DecodingNode.read(try required(key), type, at: decoder.path(key), read)
    }

    func contains(_ key: Key) -> Bool { member(key) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { try required(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(key, type) { $0.boolValue } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(key, type) { $0.stringValue } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(key, type) { $0.doubleValue } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(key, type, DecodingNode.float) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(key, type, DecodingNode.integer) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(key, type, DecodingNode.integer) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(key, type, DecodingNode.integer) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(key, type, DecodingNode.integer) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(key, type, DecodingNode.integer) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(key, type, DecodingNode.integer) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(key, type, DecodingNode.integer) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(key, type, DecodingNode.integer) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(key, type, DecodingNode.integer) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(key, type, DecodingNode.integer) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decode(type, from: try required(key), key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try DecodingNode(try required(key), parent: decoder, key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try DecodingNode(try required(key), parent: decoder, key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = AnyKey("super")
        return DecodingNode(members.first { $0.0 == key.stringValue }?.1 ?? .null, parent: decoder, key: key)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        DecodingNode(member(key) ?? .null, parent: decoder, key: key)
    }
}

/// A list's container: elements read in turn.
private struct UnkeyedDecoding: UnkeyedDecodingContainer {
    let decoder: DecodingNode
    let elements: [JSONValue]
    private(set) var currentIndex = 0

    init(decoder: DecodingNode, elements: [JSONValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element, which `read` takes; moves past it only when read.
    private mutating func next<T>(_ type: T.Type, _ read: (DecodingNode, JSONValue, AnyKey) throws -> T) throws -> T {
        let key = AnyKey(index: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: decoder.path(key), debugDescription: "the list has no more elements"))
        }
        let value = try read(decoder, elements[currentIndex], key)
        currentIndex += 1
        return value
    }

    private mutating func leaf<T>(_ type: T.Type, _ read: (JSONValue) -> T?) throws -> T {
        try next(type) { decoder, value, key in try DecodingNode.read(value, type, at: decoder.path(key), read) }
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try leaf(type) { $0.boolValue } }
    mutating func decode(_ type: String.Type) throws -> String { try leaf(type) { $0.stringValue } }
    mutating func decode(_ type: Double.Type) throws -> Double { try leaf(type) { $0.doubleValue } }
    mutating func decode(_ type: Float.Type) throws -> Float { try leaf(type, DecodingNode.float) }
    mutating func decode(_ type: Int.Type) throws -> Int { try leaf(type, DecodingNode.integer) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try leaf(type, DecodingNode.integer) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try leaf(type, DecodingNode.integer) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try leaf(type, DecodingNode.integer) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try leaf(type, DecodingNode.integer) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try leaf(type, DecodingNode.integer) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try leaf(type, DecodingNode.integer) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try leaf(type, DecodingNode.integer) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try leaf(type, DecodingNode.integer) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try leaf(type, DecodingNode.integer) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next(type) { decoder, value, key in try decoder.decode(type, from: value, key: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) { decoder, value, key in
            try DecodingNode(value, parent: decoder, key: key).container(keyedBy: type)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self) { decoder, value, key in
            try DecodingNode(value, parent: decoder, key: key).unkeyedContainer()
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next((any Decoder).self) { decoder, value, key in DecodingNode(value, parent: decoder, key: key) }
    }
}
