import Foundation

/// A JSON value of a fixture, read from JSON or from the official YAML test
/// data (`FixtureYAML`).
enum FixtureJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([FixtureJSON])
    case object([String: FixtureJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([FixtureJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: FixtureJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Decodes the value as a `Decodable` type, as if it were read from JSON.
    func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(self))
    }

    /// The object's value for a key, `nil` when absent or not an object.
    subscript(key: String) -> FixtureJSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string, when the value is one.
    var string: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The elements, when the value is an array.
    var array: [FixtureJSON]? {
        if case .array(let array) = self { return array }
        return nil
    }
}

