import Foundation
import Testing

/// Random suites through the built storyrun (supervised, with workers), with
/// every report and a merge of two shards: `Tests/Consistency/consistency.py`
/// checks each story's status and first failure agree everywhere, and with
/// what the suite told each step and hook to do. `make consistency` runs more.
@Suite(.timeLimit(.minutes(10))) struct ReportConsistencyTests {
    @Test("Every report and a merge of shards agree on each story of random suites", .timeLimit(.minutes(10)))
    func randomSuitesAgree() async throws {
        let storyrun = try #require(Binary.path, "build storyrun first: swift build")
        let folder = try Binary.temporaryFolder("storyrun-consistency")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let seed = Int.random(in: 0..<(1 << 30))
        let outcome = try await Binary.run(
            ["python3", Golden.root + "/Tests/Consistency/consistency.py", storyrun, "--suites", "6", "--seed", "\(seed)"],
            in: folder, executable: "/usr/bin/env", timeout: 150)
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == 0, "seed \(seed):\n\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains(" differ"), "\(outcome.output)\(outcome.errorOutput)")
    }
}
