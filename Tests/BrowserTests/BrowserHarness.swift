import Foundation
import StoryKit
import StoryKitBrowser
import StoryKitHTTP
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every browser test, one at a time: they share the process's browser
/// and `BrowserSteps.defaultBaseURL`.
@Suite(.serialized, .timeLimit(.minutes(10)), .enabled(if: BrowserHarness.hasChromium, "Chromium is not installed: make test-tools installs it"))
struct BrowserTests {}

/// Runs stories against pages served by a stub server, in this process,
/// with the real Chromium; a machine without Chromium skips these tests
/// (`make test-tools` installs it) and says so.
enum BrowserHarness {
    /// Whether Chromium is here; prints why the tests are skipped when not.
    static let hasChromium: Bool = {
        let found = Browser.executableFound != nil
        if !found {
            print("SKIPPED: Chromium is not installed here (make test-tools installs Debian's chromium-headless-shell): the browser tests are skipped")
        }
        return found
    }()

    /// What a run printed and its exit status.
    struct Outcome {
        var status: StoryKit.ExitStatus
        var output: String
        /// The file `{folder}/report.html` the run wrote, if it wrote one.
        var report: String
    }

    /// A stub server answering GET for each page.
    static func serve(_ pages: [String: String]) throws -> StubServer {
        let server = try StubServer(name: "app")
        for (path, html) in pages {
            server.answer(StubRule(method: "GET", path: path, status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: html))
        }
        return server
    }

    /// Runs a feature's text against a server, in process; extra arguments go to storyrun.
    static func run(_ feature: String, server: StubServer, arguments: [String] = [], timeLimit: Double = 2) async throws -> Outcome {
        let folder = NSTemporaryDirectory() + "browser-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/page.feature"
        try feature.write(toFile: file, atomically: true, encoding: .utf8)
        BrowserSteps.defaultBaseURL = server.url
        BrowserSteps.defaultTimeLimit = timeLimit
        let lines = Mutex<[String]>([])
        let status = await StoryRun.run(
            arguments: [file, "--in-process", "--strict"] + arguments.map { $0.replacingOccurrences(of: "{folder}", with: folder) },
            steps: [BrowserSteps.self, BrowserTestSteps.self], output: { line in lines.withLock { $0.append(line) } })
        let report = FileManager.default.contents(atPath: folder + "/report.html").map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Outcome(status: status, output: lines.withLock { $0.joined(separator: "\n") }, report: report)
    }

    /// The pids of Chromium processes whose command line names a profile
    /// this test process made (`storykit-chromium-PID-`, left running or
    /// not): another run's browsers on the same machine are not ours.
    static func chromiumProcesses() -> [String] {
        let profile = "storykit-chromium-\(getpid())-"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(profile)
        }
    }
}

/// Steps the tests add: killing or freezing the browser mid-story.
final class BrowserTestSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<BrowserTestSteps>) {
        step("^the browser is killed$") { _ in
            if let pid = Browser.processID { kill(pid, SIGKILL) }
            usleep(200_000)
        }
        step("^I click Go from Swift$") { _ in
            guard let browser = BrowserSteps.current else { try fail("no browser steps in this story yet") }
            try await browser.perform { try await $0.click(Locator(.role, "Go", role: "button"), timeLimit: 2) }
        }
        step("^the browser freezes$") { _ in
            if let pid = Browser.processID { kill(-pid, SIGSTOP) }
        }
    }
}
