import Foundation
import Testing
@testable import StoryKit
import StoryrunSteps

/// storyrun's Cucumber JSON against real Cucumber's (Debian's `cucumber`,
/// which `make test` installs) for the features of `Fixtures/cucumber-json`:
/// every field equal but durations, match locations and Ruby's backtraces
/// (see `compare.py`).
@Suite(.timeLimit(.minutes(10))) struct CucumberJSONDifferentialTests {
    static let folder = Golden.fixture("cucumber-json")

    static var cucumber: String? {
        ["/usr/bin/cucumber", "/usr/local/bin/cucumber"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test("Cucumber JSON equals what Cucumber writes for the same features")
    func sameAsCucumber() async throws {
        guard let cucumber = Self.cucumber else {
            Issue.record("cucumber is not installed: `make test` installs Debian's cucumber (apt-get install -y cucumber); skipping the differential test")
            return
        }
        let temporary = NSTemporaryDirectory() + "storyrun-cucumber-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let theirs = temporary + "/cucumber.json"
        // Within a time limit, waited for off the cooperative pool.
        let cucumberRun = try await Binary.tool(
            cucumber, ["--format", "json", "--out", theirs, "--format", "progress", "features"], in: Self.folder, timeout: 120)
        try #require(!cucumberRun.isTimedOut, "cucumber did not finish within 120 seconds")

        // storyrun names files as it is given them: name them as Cucumber
        // does, relative to the fixture folder (without changing the current
        // folder, which other tests running alongside rely on).
        let ours = temporary + "/storyrun.json"
        _ = await StoryRun.run(
            arguments: ["--json", ours, Self.folder + "/features/hooks.feature", Self.folder + "/features/shop.feature"],
            steps: StoryrunSteps.shop, clock: { 0 }, output: { _ in })
        let text = try String(contentsOfFile: ours, encoding: .utf8)
        try text.replacingOccurrences(of: #""uri":"\#(Self.folder)/"#, with: #""uri":""#).write(toFile: ours, atomically: true, encoding: .utf8)
        let (status, output) = try TestStepReportingTests.python([Self.folder + "/compare.py", ours, theirs])
        #expect(status == 0, "\(output)")
        #expect(output.contains("fields compared, 0 differ"), "\(output)")
        print("Cucumber JSON differential: " + output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
