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
        var contexts: [Any] = []
        for _ in 0..<50 {
            contexts = try connection.call("Target.getBrowserContexts")["browserContextIds"] as? [Any] ?? []
            if contexts.count <= 1 { break }
            usleep(100_000)
        }
        #expect(contexts.count <= 1, "\(contexts.count) browser contexts are open after 8 stories")
        Browser.stop()
        #expect(BrowserHarness.chromiumProcesses().isEmpty)
    }
}
}
