import Foundation
import StoryKit
@testable import StoryKitBrowser
import StoryKitHTTP
import Testing

extension BrowserTests {
/// Waits against pages that fight back: ones that replace the globals the
/// page script waits with, a load that never ends, and checks that read
/// nothing from the page (a dialog, a request) while it waits for a change.
@Suite(.timeLimit(.minutes(10))) struct BrowserHostilePageTests {
    @Test("A page without MutationObserver (removed by its own script) still passes and fails checks")
    func noMutationObserver() async throws {
        let server = try BrowserHarness.serve([
            "/": "<!doctype html><script>window.MutationObserver = undefined; window.addEventListener = () => { throw new Error('no') }</script><p>Hello</p>",
        ])
        defer { server.stop() }
        let outcome = try await BrowserHarness.run("""
            Feature: hostile
              Scenario: seen
                When I visit /
                Then I see "Hello"
                And I don't see "Goodbye"
            """, server: server, timeLimit: 1)
        #expect(outcome.status == .success, "\(outcome.output)")
    }

    @Test("A page whose setTimeout never fires (fake timers) fails a check by its limit, naming it, and the browser keeps answering")
    func fakeTimers() async throws {
        let server = try BrowserHarness.serve([
            "/": "<!doctype html><script>window.setTimeout = () => 0; window.clearTimeout = () => {}</script><p>Hello</p>",
        ])
        defer { server.stop() }
        // A short command limit: a wait in the page that never ends shows as a browser that does not answer.
        Browser.stop()
        let limit = Browser.commandTimeLimit
        Browser.commandTimeLimit = 3
        defer {
            Browser.stop()
            Browser.commandTimeLimit = limit
        }
        let outcome = try await BrowserHarness.run("""
            Feature: hostile
              Scenario: never shown
                When I visit /
                Then I see "Goodbye"
            """, server: server, timeLimit: 0.5)
        #expect(outcome.status == .storyFailed, "\(outcome.output)")
        #expect(outcome.output.contains("the page did not show \"Goodbye\" within 0.5 s"), "\(outcome.output)")
        #expect(!outcome.output.contains("did not answer"), "\(outcome.output)")
    }

    @Test("A wait whose check reads nothing from the page (a dialog, a request) waits between checks instead of spinning: fresh document, a change seen before, a page whose Promise is not the browser's")
    func checksOutsideThePage() async throws {
        let server = try BrowserHarness.serve([
            "/": "<!doctype html><p id=p>Hello</p>",
            // Like zone.js: a Promise of the page's own, a thenable that is not the browser's.
            "/zone": "<!doctype html><script>const N = Promise; window.Promise = function Promise(run) { const p = new N(run); this.then = (a, b) => p.then(a, b) }</script><p>Zone</p>",
        ])
        defer { server.stop() }
        let page = try Browser.newPage()
        defer { page.close() }
        let steps = BrowserSteps()
        steps.timeLimit = 0.2
        func checks() async throws -> Int {
            var count = 0
            await #expect(throws: BrowserError.self) {
                try await steps.eventually(page, { count += 1; return false }, { "never" })
            }
            return count
        }
        try await page.navigate(to: server.url + "/", timeLimit: 10)
        // No check ran in this document yet.
        let fresh = try await checks()
        #expect(fresh < 15, "\(fresh) checks in 0.2 s on a fresh document")
        // A check ran, then the page changed once.
        _ = try page.evaluate(PageScript.call("text"))
        _ = try page.evaluate("document.getElementById('p').className = 'changed'; 0")
        let changed = try await checks()
        #expect(changed < 15, "\(changed) checks in 0.2 s after one change")
        try await page.navigate(to: server.url + "/zone", timeLimit: 10)
        _ = try page.evaluate(PageScript.call("text"))
        let zone = try await checks()
        #expect(zone < 15, "\(zone) checks in 0.2 s on a page with its own Promise")
    }

    @Test("A visit whose page never finishes loading stops at --step-timeout, not at the visit's own 10 s limit")
    func visitStopsAtStepTimeout() async throws {
        let server = try BrowserHarness.serve(["/": "<!doctype html><p>Loading</p><img src=/hang>"])
        server.answer(StubRule(method: "GET", path: "/hang", status: 200, headers: [("Content-Type", "image/png")], delay: 30))
        defer { server.stop() }
        let started = Date()
        let outcome = try await BrowserHarness.run("""
            Feature: hostile
              Scenario: endless load
                When I visit /
            """, server: server, arguments: ["--step-timeout", "1"], timeLimit: 1)
        let seconds = Date().timeIntervalSince(started)
        #expect(outcome.status == .storyFailed, "\(outcome.output)")
        #expect(outcome.output.contains("--step-timeout"), "\(outcome.output)")
        #expect(!outcome.output.contains("does not stop when cancelled"), "\(outcome.output)")
        // The visit's own limit is 10 s: stopping well before it is stopping at --step-timeout.
        #expect(seconds < 8, "the visit took \(seconds) s")
    }

    @Test(
        "In the desktop Chromium, a story's page left in the background by a link that opens a new tab keeps its timers on time (throttled, a click waits a second for its frame)",
        .enabled(if: access(BrowserIsolationTests.desktop, X_OK) == 0))
    func backgroundTab() async throws {
        let server = try BrowserHarness.serve([
            "/": #"<!doctype html><a href="/other" target="_blank">Open</a>"#,
            "/other": "<!doctype html><p>Other</p>",
        ])
        defer { server.stop() }
        Browser.stop()
        Browser.executable = BrowserIsolationTests.desktop
        defer {
            Browser.stop()
            Browser.executable = nil
        }
        let page = try Browser.newPage()
        defer { page.close() }
        try await page.navigate(to: server.url + "/", timeLimit: 10)
        try await page.click(Locator(.clickable, "Open"), timeLimit: 5)
        // The new tab is in front now. A throttled page runs a 10 ms timer about a second later.
        var late = 0.0
        for _ in 0..<3 {
            late = max(late, try page.evaluate("new Promise(done => { const t = performance.now(); setTimeout(() => done(performance.now() - t), 10) })")?.doubleValue ?? 0)
        }
        #expect(try page.evaluate("document.visibilityState")?.stringValue == "hidden", "the story's page is not in the background: the test proves nothing")
        #expect(late < 500, "a 10 ms timer fired after \(late) ms in the background page")
    }
}
}
