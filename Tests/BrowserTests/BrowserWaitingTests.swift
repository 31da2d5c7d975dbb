import Foundation
import StoryKit
@testable import StoryKitBrowser
import Testing

extension BrowserTests {
@Suite(.timeLimit(.minutes(10))) struct BrowserWaitingTests {
    static let late = """
        <!doctype html><title>Late</title><body><button>Nevermind</button><a href="/x">Never again</a>
        <script>setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Continue';
          b.onclick = () => { document.body.insertAdjacentHTML('beforeend', '<p>Continued</p>') }; document.body.append(b) }, 300)</script>
        </body>
        """

    @Test("An element that appears after 300 ms is waited for; one that never does fails within the limit, naming the closest candidates")
    func waiting() async throws {
        let server = try BrowserHarness.serve(["/": Self.late])
        defer { server.stop() }
        let appears = try await BrowserHarness.run("""
            Feature: waiting
              Scenario: late button
                When I visit /
                And I click "Continue"
                Then I see "Continued"
            """, server: server)
        #expect(appears.status == .success, "\(appears.output)")
        let started = Date()
        let never = try await BrowserHarness.run("""
            Feature: waiting
              Scenario: missing button
                When I visit /
                And I click "Nevrmind"
            """, server: server, timeLimit: 1)
        let seconds = Date().timeIntervalSince(started)
        #expect(never.status == .storyFailed, "\(never.output)")
        #expect(never.output.contains("found no button or link \"Nevrmind\" within 1 s; the closest on the page:\n"
            + "        button \"Nevermind\" (button)\n        link \"Never again\" (a)"), "\(never.output)")
        // A name that is part of several is ambiguous: each is named.
        let partial = try await BrowserHarness.run("""
            Feature: waiting
              Scenario: part of two names
                When I visit /
                And I click "Never"
            """, server: server, timeLimit: 0.5)
        #expect(partial.output.contains("2 elements match a button or link \"Never\":"), "\(partial.output)")
        #expect(seconds < 8, "the step waited \(seconds) s")
    }

    @Test("Several matches fail and are named, unless the step asks for the first; a hidden match is named as hidden")
    func strictness() async throws {
        let page = """
            <!doctype html><body><form id="a"><button type=button onclick="document.title='A'">Save</button></form>
            <form id="b" aria-label="Other"><button type=button onclick="document.title='B'">Save</button></form>
            <button style="display:none">Delete</button></body>
            """
        let server = try BrowserHarness.serve(["/": page])
        defer { server.stop() }
        let ambiguous = try await BrowserHarness.run("""
            Feature: strict
              Scenario: two saves
                When I visit /
                And I click "Save"
            """, server: server)
        #expect(ambiguous.status == .storyFailed)
        #expect(ambiguous.output.contains("2 elements match a button or link \"Save\":"), "\(ambiguous.output)")
        #expect(ambiguous.output.contains("button \"Save\" (button)"), "\(ambiguous.output)")
        let first = try await BrowserHarness.run("""
            Feature: strict
              Scenario: the first save, and one within a region
                When I visit /
                And I click the first "Save"
                Then the title is "A"
                When I click "Save" within "Other"
                Then the title is "B"
            """, server: server)
        #expect(first.status == .success, "\(first.output)")
        let hidden = try await BrowserHarness.run("""
            Feature: strict
              Scenario: hidden
                When I visit /
                And I click "Delete"
            """, server: server, timeLimit: 0.5)
        #expect(hidden.output.contains("hidden ones match: button \"Delete\""), "\(hidden.output)")
    }

    @Test("A page that alerts, and pages that navigate away (a link, and a script)")
    func alertsAndNavigation() async throws {
        let server = try BrowserHarness.serve([
            "/": """
                <!doctype html><body><button onclick="alert('Saved!'); document.body.insertAdjacentHTML('beforeend', '<p>After the alert</p>')">Save</button>
                <button onclick="document.title = confirm('Sure?') ? 'yes' : 'no'">Delete</button>
                <a href="/next">Next</a></body>
                """,
            "/next": "<!doctype html><title>Next</title><body><h1>Second page</h1></body>",
            "/moving": "<!doctype html><body>Moving on<script>setTimeout(() => location.href = '/next', 200)</script></body>",
        ])
        defer { server.stop() }
        let outcome = try await BrowserHarness.run("""
            Feature: dialogs and navigation
              Scenario: alert
                When I visit /
                And I click "Save"
                Then the page alerted "Saved!"
                And I see "After the alert"
                When I will dismiss the next dialog
                And I click "Delete"
                Then the title is "no"
                When I click "Next"
                Then I see "Second page"
                And I am on /next
                And the title is "Next"

              Scenario: a page that moves on by itself
                When I visit /moving
                Then I see the heading "Second page"
                And I am on /next
            """, server: server)
        #expect(outcome.status == .success, "\(outcome.output)")
    }

    @Test("A browser killed mid-story fails the step saying so; the next story gets a new browser; nothing is left running")
    func crashedBrowser() async throws {
        let server = try BrowserHarness.serve(["/": "<!doctype html><body><button>Go</button></body>"])
        defer { server.stop() }
        let outcome = try await BrowserHarness.run("""
            Feature: crash
              Scenario: killed
                When I visit /
                And the browser is killed
                And I click "Go"

              Scenario: after the crash
                When I visit /
                Then I see the button "Go"
            """, server: server)
        #expect(outcome.status == .storyFailed)
        #expect(outcome.output.contains("stopped: it was killed by SIGKILL"), "\(outcome.output)")
        #expect(outcome.output.contains("the next story starts a new one"), "\(outcome.output)")
        #expect(outcome.output.contains("1 passed, 1 failed"), "\(outcome.output)")
        Browser.stop()
        #expect(BrowserHarness.chromiumProcesses().isEmpty)
    }

    @Test("A browser that stops answering fails the step within the command time limit and is replaced")
    func frozenBrowser() async throws {
        let server = try BrowserHarness.serve(["/": "<!doctype html><body><button>Go</button></body>"])
        defer { server.stop() }
        Browser.stop()
        Browser.commandTimeLimit = 2
        defer { Browser.commandTimeLimit = 10 }
        let outcome = try await BrowserHarness.run("""
            Feature: freeze
              Scenario: frozen
                When I visit /
                And the browser freezes
                And I click "Go"

              Scenario: after the freeze
                When I visit /
                Then I see the button "Go"
            """, server: server)
        #expect(outcome.output.contains("did not answer Runtime.evaluate within 2 s: it was stopped"), "\(outcome.output)")
        #expect(outcome.output.contains("1 passed, 1 failed"), "\(outcome.output)")
        Browser.stop()
        #expect(BrowserHarness.chromiumProcesses().isEmpty)
    }

    @Test("Chromium exits by itself when its pipe closes (a worker that died leaves no browser)")
    func pipeClosed() throws {
        let process = try ChromiumProcess(executable: ChromiumProcess.findExecutable(nil)!)
        let connection = CDPConnection(process: process, timeLimit: 30)
        try connection.call("Browser.getVersion")
        // As when this process dies: the browser's end reads end of file.
        shutdown(process.descriptor, Int32(SHUT_RDWR))
        let reason = process.exitReason(waiting: 10)
        #expect(reason != nil, "Chromium still runs after its pipe closed")
        process.stop()
    }
}
}
