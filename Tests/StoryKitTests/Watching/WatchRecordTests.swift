import Foundation
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct WatchRecordTests {
    static func result(_ name: String, _ status: StoryStatus, file: String = "s/a.stories") -> StoryResult {
        let story = Story(name: name, location: SourceLocation(file: file, line: 1), steps: [])
        return StoryResult(story: story, status: status, testSteps: [], duration: 0)
    }

    @Test("Failed and undefined stories are remembered until they pass; counts are the last run's")
    func failures() {
        var record = WatchRecord()
        record.note(.runStarted(fileCount: 1))
        for (name, status) in [("one", StoryStatus.passed), ("two", .failed), ("three", .undefined), ("four", .passed)] {
            record.note(.storyFinished(Self.result(name, status)))
        }
        #expect(record.countsText == "2 passed, 1 failed, 1 undefined")
        #expect(record.hasFailed(Self.result("two", .passed).story))
        #expect(record.hasFailed(Self.result("three", .passed).story))
        #expect(!record.hasFailed(Self.result("one", .passed).story))
        #expect(record.hasFailures(in: "s/a.stories"))
        #expect(!record.hasFailures(in: "s/b.stories"))
        record.note(.runStarted(fileCount: 1))
        record.note(.storyFinished(Self.result("two", .passed)))
        #expect(record.countsText == "1 passed")
        #expect(!record.hasFailed(Self.result("two", .passed).story))
        record.forget(file: "s/a.stories")
        #expect(record.isEmpty)
    }

    @Test("A file forgotten (deleted) leaves the last run's counts")
    func forgottenFile() {
        var record = WatchRecord()
        record.note(.runStarted(fileCount: 2))
        record.note(.storyFinished(Self.result("one", .passed)))
        record.note(.storyFinished(Self.result("two", .failed, file: "s/b.stories")))
        #expect(record.countsText == "1 passed, 1 failed")
        record.forget(file: "s/b.stories")
        #expect(record.countsText == "1 passed")
        #expect(record.isEmpty)
    }

    @Test("The status line names the files, the outcome and the time of day")
    func statusLine() throws {
        let time = try #require(Calendar.current.date(from: DateComponents(year: 2026, month: 3, day: 2, hour: 12, minute: 3, second: 4)))
        #expect(WatchRecord.statusLine(fileCount: 12, outcome: "last run: 3 passed, 1 failed", at: time)
            == "watching 12 files — last run: 3 passed, 1 failed at 12:03:04")
        #expect(WatchRecord.statusLine(fileCount: 1, outcome: "build failed", at: time) == "watching 1 file — build failed at 12:03:04")
        #expect(WatchRecord().countsText == "no story ran")
        #expect(WatchRecord.statusLine(fileCount: 0, missing: ["Stories"], outcome: "last run: 1 passed", at: time)
            == "watching 0 files — Stories is gone, waiting for it — last run: 1 passed at 12:03:04")
    }
}
