import Foundation
import Testing
@testable import StoryKit

/// Reports written as the run goes: fragments in a spill file, assembled at the end.
@Suite(.timeLimit(.minutes(10))) struct ReportSpillTests {
    @Test("Fragments come back in the order asked for, and a large one is never split")
    func fragmentsInAnyOrder() throws {
        let spill = ReportSpill(near: NSTemporaryDirectory() + "r.xml")
        let first = spill.append("one,")
        let large = spill.append(String(repeating: "x", count: 3 << 20))
        let last = spill.append("two")
        var pieces: [Int] = []
        var text: [UInt8] = []
        try spill.read([last, first, large, last], for: "r.xml") { bytes in
            pieces.append(bytes.count)
            text.append(contentsOf: bytes)
        }
        #expect(pieces.contains(3 << 20))
        #expect(String(decoding: text.prefix(7), as: UTF8.self) == "twoone,")
        #expect(text.count == 3 + 4 + (3 << 20) + 3)
    }

    @Test("Messages ids count up from 1 when stories of two files finish in turn")
    func messagesOfInterleavedFiles() throws {
        let folder = NSTemporaryDirectory() + "storyrun-spill-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func result(_ file: String, _ line: Int) -> StoryResult {
            let location = SourceLocation(file: folder + "/" + file, line: line)
            let step = Step(keyword: "Given", kind: .context, text: "a step", location: SourceLocation(file: location.file, line: line + 1))
            let story = Story(name: "story \(line)", tags: ["@t"], location: location, steps: [step])
            return StoryResult(
                story: story, status: .undefined,
                steps: [StepResult(step: step, status: .undefined, duration: 5, error: nil, match: nil, alsoMatched: [])], duration: 5)
        }
        var reporter = MessagesReporter(path: folder + "/r.ndjson", startTime: Date(timeIntervalSince1970: 0))
        for story in [result("a.stories", 1), result("b.stories", 1), result("a.stories", 4)] { reporter.handle(.storyFinished(story)) }
        reporter.handle(.runFinished(RunSummary()))
        try reporter.finish()
        let lines = try String(contentsOfFile: folder + "/r.ndjson", encoding: .utf8).split(separator: "\n")
        let kinds = lines.map { line in String(line.dropFirst(2).prefix { $0 != "\"" }) }
        #expect(kinds.prefix(9) == ["meta", "source", "gherkinDocument", "pickle", "pickle", "source", "gherkinDocument", "pickle", "testRunStarted"])
        let text = lines.joined(separator: "\n")
        #expect(!text.contains("\\u0001"))
        // Every id once, from 1 up without a gap.
        let ids = try NSRegularExpression(pattern: #""id":"(\d+)""#)
            .matches(in: text, range: NSRange(text.startIndex..., in: text))
            .map { Int((text as NSString).substring(with: $0.range(at: 1)))! }
        #expect(ids.sorted() == Array(1...ids.count))
        // Each test case names a pickle that is there.
        let pickleIDs = try NSRegularExpression(pattern: #""pickleId":"(\d+)""#)
            .matches(in: text, range: NSRange(text.startIndex..., in: text))
            .map { (text as NSString).substring(with: $0.range(at: 1)) }
        #expect(pickleIDs.count == 3)
        for id in pickleIDs { #expect(text.contains(#"{"pickle":{"id":"\#(id)""#)) }
    }
}
