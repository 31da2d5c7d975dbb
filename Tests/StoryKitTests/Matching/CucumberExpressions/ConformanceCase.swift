import Foundation
import Testing

/// One case of the official Cucumber Expressions conformance data, read from
/// `<conformance>/cucumber-expressions/<stage>/<id>.yaml` (see `Conformance`).
struct ConformanceCase: Sendable, CustomTestStringConvertible {
    /// The fixture's base name, a kebab-case sentence.
    var id: String
    /// The fixture's content (null when it could not be read).
    var json: FixtureJSON

    var testDescription: String { id }

    /// The expression under test.
    var expression: String { json["expression"]?.string ?? "" }
    /// The official error message, when the case expects one.
    var exception: String? { json["exception"]?.string }

    /// The official Cucumber Expressions test data.
    static let root = URL(fileURLWithPath: Conformance.path("cucumber-expressions"))

    /// Reads every case of a stage, such as `cucumber-expression/matching`,
    /// sorted by id; none where the official data is absent.
    static func all(in stage: String) -> [ConformanceCase] {
        let folder = root.appendingPathComponent(stage)
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { name in
            let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
            let json = (try? FixtureYAML.parse(text)) ?? .null
            return ConformanceCase(id: String(name.dropLast(".yaml".count)), json: json)
        }
    }
}

/// The suites of Cucumber expressions, grouped so that
/// `swift test --filter CucumberExpression` runs them all.
@Suite(.timeLimit(.minutes(10))) enum CucumberExpressionsTests {}
