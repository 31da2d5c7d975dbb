import Foundation
import Testing
@testable import StoryKit

/// Long texts from step code are cut in every report as JUnit cuts its
/// failures: at ``Attachment/reportLimit`` bytes, with a note.
@Suite(.timeLimit(.minutes(10))) struct ReportTextTests {
    /// The note's end (the message holds a little more than the 3 MB).
    static let note = " bytes, reports keep the first 1048576)"

    @Test("A text over the limit keeps its first bytes, never half a character, and says it was cut")
    func cut() {
        #expect(ReportText.cut("short") == "short")
        let long = String(repeating: "é", count: 1 << 20)
        let cut = ReportText.cut(long)
        #expect(cut.hasPrefix(String(repeating: "é", count: 1 << 19)))
        #expect(cut.hasSuffix("\n(failure cut: 2097152 bytes, reports keep the first 1048576)"))
        #expect(cut.utf8.count < (1 << 20) + 100)
    }

    @Test("A step's printed output in the terminal is cut as attachments are")
    func printed() {
        let attachment = Attachment(
            body: String(repeating: "y", count: 3 << 20), encoding: .identity, mediaType: Attachment.logMediaType, name: "output")
        let lines = TextReporter.printed([attachment], style: .plain)
        #expect(lines.joined().utf8.count < (1 << 20) + 200)
        #expect(lines.last?.contains("(attachment cut: 3145728 bytes, reports keep the first 1048576)") == true)
    }

    /// Before, a 3 MB failure message went whole into the terminal (3 MB),
    /// the Cucumber JSON report (3 MB) and Messages (6 MB: twice).
    @Test("A 3 MB failure message is cut with a note in the terminal, Cucumber JSON and Messages; each report still reads")
    func hugeFailure() async throws {
        let folder = try Binary.temporaryFolder("report-text")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("Story: huge\n  Given the step fails with a 3 MB message on one line\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/h.stories"))
        let outcome = try await Binary.run(
            ["h.stories", "--json", "r.json", "--messages", "r.ndjson", "--format", "github"], in: folder, timeout: 50,
            environment: ["STORYRUN_FIXTURE_STEPS": "faults"])
        #expect(outcome.status == 1, "\(outcome.errorOutput)")
        #expect(outcome.output.utf8.count < 3 << 20, "\(outcome.output.utf8.count) bytes of terminal output")
        #expect(outcome.output.contains("(failure cut: 31") && outcome.output.contains(Self.note))
        let json = try Data(contentsOf: URL(fileURLWithPath: folder + "/r.json"))
        #expect(json.count < 2 << 20, "\(json.count) bytes of Cucumber JSON")
        #expect((try? JSONSerialization.jsonObject(with: json)) != nil)
        #expect(String(decoding: json, as: UTF8.self).contains(Self.note))
        let messages = try Data(contentsOf: URL(fileURLWithPath: folder + "/r.ndjson"))
        #expect(messages.count < 3 << 20, "\(messages.count) bytes of Messages")
        for line in messages.split(separator: UInt8(ascii: "\n")) {
            #expect((try? JSONSerialization.jsonObject(with: Data(line))) != nil)
        }
        #expect(String(decoding: messages, as: UTF8.self).contains(Self.note))
    }
}
