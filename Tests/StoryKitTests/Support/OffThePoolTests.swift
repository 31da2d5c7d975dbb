import Foundation
import Testing

/// Tests that await a child process hold no thread of the cooperative pool
/// (issue 34): more children running at once than the pool has threads
/// still leave an unrelated async task free to run at once. It measures a
/// quiet pool, so it runs alone, when asked:
/// `STORYRUN_OFF_THE_POOL=1 swift test --filter OffThePoolTests` (beside
/// the whole suite, the sync tests still blocking the pool delay it).
@Suite(.timeLimit(.minutes(10)), .enabled(if: ProcessInfo.processInfo.environment["STORYRUN_OFF_THE_POOL"] == "1"))
struct OffThePoolTests {
    @Test("Twice as many children as the pool has threads, awaited at once, leave a quick task free to run")
    func quickTaskNotStarved() async throws {
        let children = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
        let folder = try Binary.temporaryFolder("off-the-pool")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let start = Date()
        let quick = try await withThrowingTaskGroup(of: Double?.self) { group in
            for index in 0..<children {
                let child = folder + "/\(index)"
                try FileManager.default.createDirectory(atPath: child, withIntermediateDirectories: false)
                group.addTask {
                    let outcome = try await Binary.run(["-c", "sleep 3"], in: child, executable: "/bin/sh", timeout: 60)
                    #expect(outcome.status == 0)
                    return nil
                }
            }
            // Let the children start and take whatever threads they take.
            try await Task.sleep(for: .milliseconds(300))
            group.addTask { Date().timeIntervalSince(start) }
            var quick: Double?
            for try await seconds in group { quick = quick ?? seconds }
            return try #require(quick)
        }
        // Blocking the pool, the quick task waits for a child to end (3 s).
        #expect(quick < 2, "a quick task waited \(quick) s behind \(children) children")
    }
}
