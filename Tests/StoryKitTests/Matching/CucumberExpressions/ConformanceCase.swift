import Foundation
import Testing

/// A JSON value of a conformance fixture.
enum FixtureJSON: Decodable, Equatable, Sendable {
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

/// One case of the official Cucumber Expressions conformance data, read from
/// `Fixtures/cucumber-expressions/<stage>/<id>.json`.
struct ConformanceCase: Sendable, CustomTestStringConvertible {
    /// The fixture's base name, a kebab-case sentence.
    var id: String
    /// The fixture's content.
    var json: FixtureJSON

    var testDescription: String { id }

    /// The expression under test.
    var expression: String { json["expression"]?.string ?? "" }
    /// The official error message, when the case expects one.
    var exception: String? { json["exception"]?.string }

    /// The folder holding the converted conformance data.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CucumberExpressions
        .deletingLastPathComponent()  // Matching
        .deletingLastPathComponent()  // StoryKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Fixtures/cucumber-expressions")

    /// Reads every case of a stage, such as `cucumber-expression/matching`,
    /// sorted by id.
    static func all(in stage: String) -> [ConformanceCase] {
        let folder = root.appendingPathComponent(stage)
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { name in
            let data = (try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data()
            let json = (try? JSONDecoder().decode(FixtureJSON.self, from: data)) ?? .null
            return ConformanceCase(id: String(name.dropLast(".json".count)), json: json)
        }
    }
}

/// The suites of Cucumber expressions, grouped so that
/// `swift test --filter CucumberExpression` runs them all.
@Suite(.timeLimit(.minutes(3))) enum CucumberExpressionsTests {}
