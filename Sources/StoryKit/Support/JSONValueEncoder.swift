import Foundation

/// Encodes an `Encodable` value as JSON through StoryKit's own JSON layer
/// (``JSONValue``), in the form Foundation's JSON encoder gives it with
/// its default strategies: keys in the order encoded, a nil optional left
/// out (`encodeIfPresent`) or `null` (in a list), an enum's synthesized
/// form (`{"case":{"_0":…}}`), `Data` in base64, a `URL` as its absolute
/// string, a `Date` as seconds since 2001. Strings are escaped as
/// ``JSONValue`` escapes them: control characters too, so that one value
/// is one line.
///
/// Differences, none of which the worker wire meets (it carries no
/// `Double` or `Decimal`, and its `UInt64` durations stay below 2^63 ns,
/// 292 years): a key encoded twice in one object is written twice
/// (``JSONValueDecoder`` then reads one of the two); an unsigned integer
/// above `Int64.max` is written as the nearest double, which reads back
/// rounded, or is refused when it rounds to 2^64 (`UInt64.max`); `-0.0` is
/// written `0` (Foundation's writes `-0`), so it reads back as `+0.0`; a
/// `Decimal` is written in its own `Codable` form, an object
/// (`{"exponent":-1,"length":1,…}`), where Foundation's writes the number
/// (it reads back equal). As in Foundation's, a number that is not finite
/// is an `EncodingError`.
enum JSONValueEncoder {
    /// The value as a ``JSONValue``.
    static func encode(_ value: some Encodable) throws -> JSONValue {
        try node(value).value
    }

    /// Appends the value as compact JSON text in UTF-8 (without building
    /// a ``JSONValue`` first).
    static func write(_ value: some Encodable, into out: inout [UInt8]) throws {
        try node(value).write(into: &out)
    }

    /// The value as compact JSON text in UTF-8.
    static func bytes(_ value: some Encodable) throws -> [UInt8] {
        var out: [UInt8] = []
        try write(value, into: &out)
        return out
    }

    private static func node(_ value: some Encodable) throws -> EncodedNode {
        try EncodingNode(parent: nil, key: nil).node(for: value, key: nil)
    }
}

/// What an encoder's value became: a leaf, or an object or list still
/// being filled (a container may be asked for and filled later, so they
/// are references until the whole value is written).
enum EncodedNode {
    case value(JSONValue)
    case object(EncodedObject)
    case array(EncodedArray)

    /// The node as a ``JSONValue``.
    var value: JSONValue {
        switch self {
        case .value(let value): value
        case .object(let object): .object(object.members.map { ($0.0, $0.1.value) })
        case .array(let array): .array(array.elements.map(\.value))
        }
    }

    /// Appends the node as compact JSON, as ``JSONValue/write(into:)`` would.
    func write(into out: inout [UInt8]) {
        switch self {
        case .value(let value): value.write(into: &out)
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for index in object.members.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(object.members[index].0, into: &out)
                out.append(UInt8(ascii: ":"))
                object.members[index].1.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for index in array.elements.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                array.elements[index].write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }
}

/// An object being encoded, its members in the order encoded.
final class EncodedObject {
    var members: [(String, EncodedNode)] = []
}

/// A list being encoded.
final class EncodedArray {
    var elements: [EncodedNode] = []
}

/// The `Encoder` of one value: it holds what the value became, and is
/// its single-value container too.
final class EncodingNode: Encoder, SingleValueEncodingContainer, NestedCoder {
    private(set) var node: EncodedNode?
    let parent: EncodingNode?
    let key: (any CodingKey)?

    init(parent: EncodingNode?, key: (any CodingKey)?) {
        self.parent = parent
        self.key = key
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The container asked for before of that kind, or a new one (a
    /// value asked for twice fills one object).
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object(let object)? = node { return KeyedEncodingContainer(KeyedEncoding<Key>(encoder: self, object: object)) }
        node = .object(EncodedObject())
        return container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let array)? = node { return UnkeyedEncoding(encoder: self, array: array) }
        node = .array(EncodedArray())
        return unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// What `value` becomes, encoded below this encoder at `key`: the
    /// types Foundation's JSON encoder writes its own way, or the value's own encoding.
    func node<T: Encodable>(for value: T, key: (any CodingKey)?) throws -> EncodedNode {
        // By type, not by cast: a cast would unwrap an optional too, and
        // costs more on every value.
        if T.self == String.self { return .value(.string(unsafeBitCast(value, to: String.self))) }
        if T.self == Data.self { return .value(.string(unsafeBitCast(value, to: Data.self).base64EncodedString())) }
        if T.self == URL.self { return .value(.string(unsafeBitCast(value, to: URL.self).absoluteString)) }
        let child = EncodingNode(parent: self, key: key)
        try value.encode(to: child)
        // A value that encoded nothing is an empty object, as in Foundation's encoder.
        return child.node ?? .object(EncodedObject())
    }

    /// A number of any integer type (above `Int64.max`: the nearest double).
    static func integer(_ value: some BinaryInteger) -> EncodedNode {
        if let exact = Int64(exactly: value) { return .value(.int(exact)) }
        return .value(.double(Double(value)))
    }

    /// A floating-point number; not a number or an infinity is an error.
    func double(_ value: Double, key: (any CodingKey)?) throws -> EncodedNode {
        guard value.isFinite else {
            let path = codingPath + (key.map { [$0] } ?? [])
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: "\(value) is no JSON number"))
        }
        return .value(.double(value))
    }

    /// A `Float` as the double its shortest text names (`0.1`, not
    /// `0.10000000149011612`), as Foundation's encoder writes it.
    func float(_ value: Float, key: (any CodingKey)?) throws -> EncodedNode {
        try double(Double(value.description) ?? Double(value), key: key)
    }

    private func set(_ node: EncodedNode) { self.node = node }

    func encodeNil() { set(.value(.null)) }
    func encode(_ value: Bool) { set(.value(.bool(value))) }
    func encode(_ value: String) { set(.value(.string(value))) }
    func encode(_ value: Double) throws { set(try double(value, key: nil)) }
    func encode(_ value: Float) throws { set(try float(value, key: nil)) }
    func encode(_ value: Int) { set(Self.integer(value)) }
    func encode(_ value: Int8) { set(Self.integer(value)) }
    func encode(_ value: Int16) { set(Self.integer(value)) }
    func encode(_ value: Int32) { set(Self.integer(value)) }
    func encode(_ value: Int64) { set(Self.integer(value)) }
    func encode(_ value: UInt) { set(Self.integer(value)) }
    func encode(_ value: UInt8) { set(Self.integer(value)) }
    func encode(_ value: UInt16) { set(Self.integer(value)) }
    func encode(_ value: UInt32) { set(Self.integer(value)) }
    func encode(_ value: UInt64) { set(Self.integer(value)) }
    func encode<T: Encodable>(_ value: T) throws { set(try node(for: value, key: nil)) }
}

/// An object's container: each member appended as it is encoded.
private struct KeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: EncodingNode
    let object: EncodedObject

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func add(_ node: EncodedNode, _ key: Key) {
        object.members.append((key.stringValue, node))
    }

    mutating func encodeNil(forKey key: Key) { add(.value(.null), key) }
    mutating func encode(_ value: Bool, forKey key: Key) { add(.value(.bool(value)), key) }
    mutating func encode(_ value: String, forKey key: Key) { add(.value(.string(value)), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { add(try encoder.double(value, key: key), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { add(try encoder.float(value, key: key), key) }
    mutating func encode(_ value: Int, forKey key: Key) { add(EncodingNode.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) { add(EncodingNode.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) { add(EncodingNode.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) { add(EncodingNode.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) { add(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) { add(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { add(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { add(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { add(EncodingNode.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) { add(EncodingNode.integer(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { add(try encoder.node(for: value, key: key), key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode(parent: encoder, key: key)
        let container = child.container(keyedBy: keyType)
        if let node = child.node { add(node, key) }
        return container
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode(parent: encoder, key: key)
        let container = child.unkeyedContainer()
        if let node = child.node { add(node, key) }
        return container
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key.stringValue, key: key)
    }

    /// An encoder whose value becomes the member `name` once it is made
    /// (it is filled after this call returns, so a reference is kept).
    private func superEncoder(named name: String, key: (any CodingKey)? = nil) -> any Encoder {
        let child = EncodingNode(parent: encoder, key: key ?? AnyKey(name))
        // Until it is encoded: empty, as a value that encodes nothing.
        object.members.append((name, .object(EncodedObject())))
        let index = object.members.count - 1
        return DeferredEncoder(child: child) { [object] node in object.members[index].1 = node }
    }
}

/// A list's container: each element appended as it is encoded.
private struct UnkeyedEncoding: UnkeyedEncodingContainer {
    let encoder: EncodingNode
    let array: EncodedArray

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.elements.count }

    private var nextKey: AnyKey { AnyKey(index: array.elements.count) }

    private func add(_ node: EncodedNode) {
        array.elements.append(node)
    }

    mutating func encodeNil() { add(.value(.null)) }
    mutating func encode(_ value: Bool) { add(.value(.bool(value))) }
    mutating func encode(_ value: String) { add(.value(.string(value))) }
    mutating func encode(_ value: Double) throws { add(try encoder.double(value, key: nextKey)) }
    mutating func encode(_ value: Float) throws { add(try encoder.float(value, key: nextKey)) }
    mutating func encode(_ value: Int) { add(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int8) { add(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int16) { add(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int32) { add(EncodingNode.integer(value)) }
    mutating func encode(_ value: Int64) { add(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt) { add(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt8) { add(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt16) { add(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt32) { add(EncodingNode.integer(value)) }
    mutating func encode(_ value: UInt64) { add(EncodingNode.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { add(try encoder.node(for: value, key: nextKey)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = EncodingNode(parent: encoder, key: nextKey)
        let container = child.container(keyedBy: keyType)
        if let node = child.node { add(node) }
        return container
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodingNode(parent: encoder, key: nextKey)
        let container = child.unkeyedContainer()
        if let node = child.node { add(node) }
        return container
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode(parent: encoder, key: nextKey)
        add(.object(EncodedObject()))
        let index = array.elements.count - 1
        return DeferredEncoder(child: child) { [array] node in array.elements[index] = node }
    }
}

/// A super encoder: an encoder whose value is put in its place (a member
/// or an element) when it is encoded, since that happens after the
/// container handed it out.
private final class DeferredEncoder: Encoder {
    let child: EncodingNode
    let place: (EncodedNode) -> Void

    init(child: EncodingNode, place: @escaping (EncodedNode) -> Void) {
        self.child = child
        self.place = place
    }

    var codingPath: [any CodingKey] { child.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        defer { placeNode() }
        return child.container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        defer { placeNode() }
        return child.unkeyedContainer()
    }

    /// A single value is set after this returns: placed when it is.
    func singleValueContainer() -> any SingleValueEncodingContainer { DeferredSingleValue(encoder: self) }

    func placeNode() {
        if let node = child.node { place(node) }
    }
}

/// A super encoder's single value, placed as it is set.
private struct DeferredSingleValue: SingleValueEncodingContainer {
    let encoder: DeferredEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ encode: (EncodingNode) throws -> Void) rethrows {
        try encode(encoder.child)
        encoder.placeNode()
    }

    mutating func encodeNil() { set { $0.encodeNil() } }
    mutating func encode(_ value: Bool) { set { $0.encode(value) } }
    mutating func encode(_ value: String) { set { $0.encode(value) } }
    mutating func encode(_ value: Double) throws { try set { try $0.encode(value) } }
    mutating func encode(_ value: Float) throws { try set { try $0.encode(value) } }
    mutating func encode(_ value: Int) { set { $0.encode(value) } }
    mutating func encode(_ value: Int8) { set { $0.encode(value) } }
    mutating func encode(_ value: Int16) { set { $0.encode(value) } }
    mutating func encode(_ value: Int32) { set { $0.encode(value) } }
    mutating func encode(_ value: Int64) { set { $0.encode(value) } }
    mutating func encode(_ value: UInt) { set { $0.encode(value) } }
    mutating func encode(_ value: UInt8) { set { $0.encode(value) } }
    mutating func encode(_ value: UInt16) { set { $0.encode(value) } }
    mutating func encode(_ value: UInt32) { set { $0.encode(value) } }
    mutating func encode(_ value: UInt64) { set { $0.encode(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws { try set { try $0.encode(value) } }
}
