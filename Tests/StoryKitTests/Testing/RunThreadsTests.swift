import Foundation
import Testing
import StoryKit
import StoryrunSteps

/// A run in process ends every thread it starts (its report threads, its
/// story feed's): counted in a test process of its own, where no other test
/// starts or ends threads meanwhile.
@Suite(.timeLimit(.minutes(10))) struct RunThreadsTests {
    static let childVariable = "STORYRUN_TEST_RUN_THREADS"

    static func threadCount() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
    }

    static func run(in folder: String) async -> StoryKit.ExitStatus {
        await StoryRun.run(
            arguments: [Golden.root + "/Fixtures/stories/good/basket.stories", "--in-process", "--strict"]
                + ["--junit", folder + "/r.xml", "--html", folder + "/r.html", "--json", folder + "/r.json", "--messages", folder + "/r.ndjson"],
            steps: StoryrunSteps.fixtures, output: { _ in })
    }

    /// Run only as the child of ``threadsEnd()``.
    @Test("(child process) five runs in process leave no thread behind",
          .enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func child() async throws {
        let folder = try Binary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The first run starts the cooperative pool's threads, which stay.
        #expect(await Self.run(in: folder) == .success)
        try await Task.sleep(for: .milliseconds(300))
        let before = Self.threadCount()
        for _ in 0..<5 { #expect(await Self.run(in: folder) == .success) }
        // A thread that was told to end takes a moment to be gone.
        let end = Date().addingTimeInterval(10)
        while Self.threadCount() > before, Date() < end { try await Task.sleep(for: .milliseconds(50)) }
        #expect(Self.threadCount() <= before, "threads before: \(before), after: \(Self.threadCount())")
    }

    @Test("Runs in process end the threads they start")
    func threadsEnd() async throws {
        let outcome = try await ChildTestProcess.run("RunThreadsTests/child", variable: Self.childVariable)
        #expect(!outcome.isTimedOut)
        #expect(ChildTestProcess.onePassed(outcome), "\(outcome.output)\n\(outcome.errorOutput)")
    }
}
