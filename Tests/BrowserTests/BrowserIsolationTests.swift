import Foundation
import StoryKit
@testable import StoryKitBrowser
import Testing

extension BrowserTests {
/// Each story's page is made ahead while the story before runs and its
/// context is disposed without waiting: the stories must still not share
/// cookies or storage, and no context may pile up in the browser.
@Suite(.timeLimit(.minutes(10))) struct BrowserIsolationTests {
    static let pages = [
        "/": """
            <!doctype html><body><button onclick="document.cookie = 'seen=yes; path=/'; localStorage.setItem('seen', 'yes');
              sessionStorage.setItem('seen', 'yes'); this.textContent = 'Remembered'">Remember me</button></body>
            """,
        "/show": """
            <!doctype html><body><p id="out"></p><script>
              document.getElementById('out').textContent = 'cookie [' + document.cookie + '] local [' + (localStorage.getItem('seen') || '')
                + '] session [' + (sessionStorage.getItem('seen') || '') + ']';
            </script></body>
            """,
    ]

    @Test("Every story starts with no cookies or storage of the story before; disposed contexts do not pile up; nothing is left running")
    func freshContexts() async throws {
        let ran = try await Self.isolation()
        // The browser found by default ran (a launcher script would stand in between).
        guard ProcessInfo.processInfo.environment["STORYKIT_CHROMIUM"] == nil else { return }
        #expect(ran == Browser.executableFound.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path })
    }

    /// Debian's desktop Chromium, behind its launcher.
    static let desktop = "/usr/lib/chromium/chromium"

    @Test(
        "The desktop Chromium, when the headless shell is the default, runs the same stories as isolated",
        .enabled(if: access(desktop, X_OK) == 0 && Browser.executableFound != desktop))
    func desktopChromium() async throws {
        Browser.stop()
        Browser.executable = Self.desktop
        defer {
            Browser.stop()
            Browser.executable = nil
        }
        let ran = try await Self.isolation()
        #expect(ran == Self.desktop)
    }

    /// Runs eight stories that each leave cookies and storage behind; returns
    /// the executable of the browser that ran them.
    @discardableResult
    static func isolation() async throws -> String {
        let server = try BrowserHarness.serve(Self.pages)
        defer { server.stop() }
        let remember = """
              Scenario: remembering %d
                When I visit /
                And I click "Remember me"
                Then I see "Remembered"
                When I visit /show
                Then I see "cookie [seen=yes] local [yes] session [yes]"

              Scenario: a fresh start %d
                When I visit /show
                Then I see "cookie [] local [] session []"

            """
        let feature = "Feature: isolation\n\n" + (1...4).map { String(format: remember, $0, $0) }.joined()
        let outcome = try await BrowserHarness.run(feature, server: server)
        #expect(outcome.status == .success, "\(outcome.output)")
        #expect(outcome.output.contains("8 passed"), "\(outcome.output)")
        // Disposal is not awaited: give the browser a moment, then at most
        // the page made ahead for a next story may still have a context.
        let connection = try Browser.connection()
        var contexts: [JSONValue] = []
        for _ in 0..<50 {
            contexts = try connection.call("Target.getBrowserContexts")["browserContextIds"]?.arrayValue ?? []
            if contexts.count <= 1 { break }
            usleep(100_000)
        }
        #expect(contexts.count <= 1, "\(contexts.count) browser contexts are open after 8 stories")
        // Whichever the browser, a story's page is 1280x800 (the desktop Chromium's window bars are not taken off it).
        let page = try Browser.newPage()
        let size = try page.evaluate("innerWidth + 'x' + innerHeight")?.stringValue
        page.close()
        #expect(size == "1280x800")
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(try #require(Browser.processID))/exe")
        Browser.stop()
        #expect(BrowserHarness.chromiumProcesses().isEmpty)
        return executable
    }

    @Test("A story's page starts one renderer process: no omnibox popups nor spare renderer for a context that lives one story")
    func oneRendererAPage() async throws {
        Browser.stop()
        defer { Browser.stop() }
        let connection = try Browser.connection()
        let group = try #require(Browser.processID)
        // The renderers of start-up: wait until none started for a second.
        var before = Set(Self.renderers(inGroup: group))
        var quiet = 0
        for _ in 0..<100 where quiet < 5 {
            try await Task.sleep(for: .milliseconds(200))
            let now = Set(Self.renderers(inGroup: group))
            quiet = now == before ? quiet + 1 : 0
            before = now
        }
        let page = try BrowserPage(connection: connection)
        defer { page.close() }
        var started = Set<String>()
        for _ in 0..<15 {  // they start while the page opens, and a little after
            started.formUnion(Set(Self.renderers(inGroup: group)).subtracting(before))
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(started.count == 1, "opening a page started \(started.count) renderer processes")
    }

    /// The pids of the renderer processes in a process group.
    static func renderers(inGroup group: Int32) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int32($0).map { getpgid($0) == group } ?? false }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains("--type=renderer")
        }
    }
}
}
