import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A run stopped by SIGTERM while its file reports are still rendering
/// (they render on a thread of their own, behind the run): every report is
/// written whole, and all of them hold the same stories.
@Suite(.timeLimit(.minutes(10))) struct InterruptedReportsEndToEndTests {
    @Test("SIGTERM amid a burst of stories: all five file reports are complete and agree, exit 143")
    func terminatedWhileReportsRender() async throws {
        let folder = try Binary.temporaryFolder("interrupted-reports")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Many quick stories with a log each (their parts of the reports
        // take longer to render than to run), then one that stops the run.
        let stopAt = 1500
        var text = ""
        for index in 0..<2000 {
            let step = index == stopAt ? "the step sends SIGTERM to its run" : "the step logs \"line \(index) <&>\""
            text += "Story: story \(index)\n  Given \(step)\n\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/burst.stories"))
        let outcome = try await Binary.run(
            [
                "burst.stories", "--junit", "r.xml", "--html", "r.html", "--json", "r.json", "--messages", "r.ndjson",
                "--rerun", "rerun.txt",
            ],
            in: folder, timeout: 120, environment: ["STORYRUN_FIXTURE_STEPS": "faults"])
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == 143, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("(the run was interrupted)"), "\(outcome.output)")

        // JUnit: well-formed, one test case per story that ran.
        let junit = try Data(contentsOf: URL(fileURLWithPath: folder + "/r.xml"))
        let parser = XMLParser(data: junit)
        #expect(parser.parse(), "r.xml is not well-formed: \(String(describing: parser.parserError))")
        let testCases = String(decoding: junit, as: UTF8.self).components(separatedBy: "<testcase ").count - 1
        #expect(testCases >= stopAt, "\(testCases) test cases")
        #expect(testCases < 2000)

        // Cucumber JSON: parses, the same stories and only them (Cucumber
        // JSON has no place for stories not run: Messages says them).
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/r.json"))) as? [[String: Any]])
        #expect(json.allSatisfy { $0.keys.allSatisfy { !$0.hasPrefix("storyrun_run") && $0 != "storyrun_rejected" } })
        let elements = json.reduce(0) { $0 + (($1["elements"] as? [Any])?.count ?? 0) }
        #expect(elements == testCases)

        // Messages: every line an envelope, the same stories, and the run
        // finished unsuccessfully, saying how many stories it did not run.
        let lines = try String(contentsOfFile: folder + "/r.ndjson", encoding: .utf8).split(separator: "\n")
        var finished = 0
        for line in lines {
            let envelope = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if envelope["testCaseFinished"] != nil { finished += 1 }
        }
        #expect(finished == testCases)
        let last = try #require(try JSONSerialization.jsonObject(with: Data((lines.last ?? "").utf8)) as? [String: Any])
        let runFinished = try #require(last["testRunFinished"] as? [String: Any], "the last envelope is not testRunFinished")
        #expect(runFinished["success"] as? Bool == false)
        let exception = runFinished["exception"] as? [String: Any] ?? [:]
        #expect((exception["message"] as? String)?.contains("the run was interrupted") == true, "\(exception)")
        let notRun = (exception["stackTrace"] as? String ?? "").split(separator: "\n")
            .first { $0.hasPrefix("not run: ") }.flatMap { Int($0.dropFirst("not run: ".count)) } ?? 0
        #expect(notRun > 0 && elements + notRun == 2000, "\(elements) ran, \(notRun) not run")

        // HTML: the whole page, the same stories.
        let html = try String(contentsOfFile: folder + "/r.html", encoding: .utf8)
        #expect(html.hasSuffix("</html>\n"))
        #expect(try HTMLPageData.stories(in: html).count == testCases)

        // Rerun: written (the interrupted run names what did not pass).
        #expect(FileManager.default.fileExists(atPath: folder + "/rerun.txt"))
    }

    @Test("In process, a SIGINT from outside that no thread took stops the run, exit 130, and fails no story")
    func pendingInterruptInProcess() async throws {
        let folder = try Binary.temporaryFolder("interrupted-in-process")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // As a Ctrl-C: SIGINT from another process, pending while the
        // step's thread blocks it (unless another thread takes it first):
        // the run's, not the step's, either way.
        var text = ""
        for index in 0..<3000 {
            let step = index == 1500 ? "another process sends signal 2 to the step's process" : "the step logs \"line \(index)\""
            text += "Story: story \(index)\n  Given \(step)\n\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/pending.stories"))
        let outcome = try await Binary.run(
            ["--in-process", "pending.stories", "--junit", "r.xml"], in: folder, timeout: 60,
            environment: ["STORYRUN_FIXTURE_STEPS": "faults"])
        #expect(!outcome.isTimedOut)
        #expect(outcome.status == 130, "\(outcome.output)\(outcome.errorOutput)")
        #expect(outcome.output.contains("(the run was interrupted)"), "\(outcome.output)")
        #expect(!outcome.output.contains("FAILED"), "\(outcome.output)")
        let junit = try String(contentsOfFile: folder + "/r.xml", encoding: .utf8)
        #expect(junit.components(separatedBy: "<testcase ").count - 1 == 1501)
    }
}
