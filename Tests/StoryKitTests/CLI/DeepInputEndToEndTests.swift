import Foundation
import Testing
@testable import StoryKit

/// Deep input through the built executable: a usage error (exit 2) with a
/// message, never a crash, within a time limit.
@Suite(.timeLimit(.minutes(10))) struct DeepInputEndToEndTests {
    static func nested(_ depth: Int, _ open: String = "(", _ inner: String = "a", _ close: String = ")") -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    @Test("match --expression with thousands of nested parentheses is an error, not a stack overflow")
    func matchExpression() async throws {
        let folder = try Binary.temporaryFolder("deep-input")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for depth in [2_000, 40_000] {
            let outcome = try await Binary.run(["match", "--expression", Self.nested(depth), "a"], in: folder, timeout: 30)
            #expect(!outcome.isSignaled && !outcome.isTimedOut)
            #expect(outcome.status == 2)
            #expect(outcome.output.contains("Optionals may not be nested more than 256 deep"))
        }
    }

    @Test("match --regex, --tags and merge refuse deep or long input without crashing")
    func otherEntryPoints() async throws {
        let folder = try Binary.temporaryFolder("deep-input")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let long = String(repeating: "a", count: 100_000)
        var outcome = try await Binary.run(["match", "--regex", long, long], in: folder, timeout: 30)
        #expect(outcome.status == 0 && !outcome.isSignaled)
        outcome = try await Binary.run(["match", "--regex", Self.nested(40_000), "a"], in: folder, timeout: 30)
        #expect(outcome.status == 2 && !outcome.isSignaled)
        let story = Golden.fixture("stories/good/basket.stories")
        outcome = try await Binary.run(
            ["--dry-run", "--tags", String(repeating: "not ", count: 30_000) + "@a", story], in: folder, timeout: 30)
        #expect(outcome.status == 2 && !outcome.isSignaled)
        #expect(outcome.output.contains("Nested more than 1000 deep"))
        try (String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
            .write(toFile: folder + "/deep.json", atomically: false, encoding: .utf8)
        outcome = try await Binary.run(["merge", "deep.json"], in: folder, timeout: 30)
        #expect(outcome.status == 2 && !outcome.isSignaled)
    }
}
