import Foundation
import Testing

/// Runs one Swift Testing test of this very test binary in a process of its
/// own (the test guards itself with `variable`, so it runs only there):
/// for what only a whole process shows, its exit or its thread count.
enum ChildTestProcess {
    static func run(
        _ test: String, variable: String, environment: [String: String] = [:], timeout: Double = 60
    ) async throws -> Binary.Outcome {
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try await Binary.run(
            ["--testing-library", "swift-testing", "--filter", test],
            in: folder, executable: testBinary, timeout: timeout,
            environment: environment.merging([variable: "1"]) { $1 })
    }

    /// Whether the test process's output says exactly one test ran and passed.
    static func onePassed(_ outcome: Binary.Outcome) -> Bool {
        let text = outcome.output + outcome.errorOutput
        return outcome.status == 0 && text.contains("Test run with 1 test") && text.contains("passed")
    }
}
