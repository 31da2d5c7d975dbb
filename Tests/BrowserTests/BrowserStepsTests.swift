import Foundation
import StoryKit
import StoryKitBrowser
import Synchronization
import Testing

extension BrowserTests {
@Suite(.timeLimit(.minutes(10))) struct BrowserStepsTests {
    static let signIn = """
        <!doctype html><html><head><title>Sign in</title></head><body>
        <main><h1>Welcome</h1>
        <form id="login" onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Hello, ' + this.email.value">
          <label for="email">Email</label><input id="email" name="email" placeholder="you@example.com">
          <label>Password <input type="password" name="password"></label>
          <label><input type="checkbox" name="remember"> Remember me</label>
          <select name="plan" aria-label="Plan"><option>Free</option><option>Pro</option></select>
          <button type="submit">Sign in</button>
          <a href="/signup">Sign up</a>
        </form>
        <p id="out"></p></main></body></html>
        """

    @Test("A story signs in: fill in, check, select, click, see")
    func signIn() async throws {
        let server = try BrowserHarness.serve(["/": Self.signIn])
        defer { server.stop() }
        let outcome = try await BrowserHarness.run("""
            Feature: sign in
              Scenario: signing in
                When I visit /
                Then the title is "Sign in"
                When I fill in "Email" with "ann@example.com"
                And I fill in "Password" with "secret"
                And I check "Remember me"
                And I select "Pro" from "Plan"
                And I click "Sign in"
                Then I see "Hello, ann@example.com"
                And the "Email" field contains "ann@example.com"
                And the "Remember me" checkbox is checked
                And "Pro" is selected in "Plan"
                And I am on /
            """, server: server)
        #expect(outcome.status == .success, "\(outcome.output)")
    }
}
}

extension BrowserTests.BrowserStepsTests {
    static let controls = """
        <!doctype html><html><head><title>Controls</title></head><body>
        <nav aria-label="Menu"><a href="#top">Top</a></nav>
        <label><input type="checkbox" name="news" checked> Newsletter</label>
        <label>Search <input name="q"></label>
        <button disabled>Publish</button><button onclick="this.textContent = 'Went'">Go</button>
        <table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>
        <p id="keys"></p>
        <form aria-label="Shadowing"><input name="title" aria-label="Title"><input name="id" aria-label="Id"></form>
        <script>document.addEventListener('keydown', e => document.getElementById('keys').textContent += e.key + ' ')</script>
        </body></html>
        """

    @Test("The other steps: uncheck, type, keys, disabled, roles, counts, title and URL, a custom step in Swift")
    func remainingSteps() async throws {
        let server = try BrowserHarness.serve(["/": Self.controls])
        defer { server.stop() }
        let outcome = try await BrowserHarness.run("""
            Feature: controls
              Scenario: every control
                Given the browser waits up to 2 seconds
                When I visit /
                Then the "Newsletter" checkbox is checked
                When I uncheck "Newsletter"
                Then the "Newsletter" checkbox is not checked
                And the "Search" field is empty
                When I click the field "Search"
                And I type "pears"
                Then the "Search" field contains "pears"
                When I press the Escape key
                And I press the ArrowDown key
                Then I see "Escape ArrowDown"
                And the button "Publish" is disabled
                And the button "Go" is enabled
                And I see 2 rows
                And I see 4 cells
                And I see the link "Top" within "Menu"
                And I do not see the button "Gone"
                When I click the link "Top"
                Then the URL contains "#top"
                When I click Go from Swift
                Then I see the button "Went"
                And the page title is "Controls"
                When I fill in "Title" with "Fields named title and id"
                Then I see the field "Title" within "Shadowing"
            """, server: server)
        #expect(outcome.status == .success, "\(outcome.output)")
    }
}

extension BrowserTests.BrowserStepsTests {
    @Test("Every phrasing the README's step table shows matches exactly one step (storyrun check)")
    func everyPhrasingMatchesOnce() async throws {
        let folder = NSTemporaryDirectory() + "browser-check-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let steps = [
            "the app is at http://127.0.0.1:1", "the browser waits up to 2 seconds", "I visit /", "I go to /a", "I open http://x/",
            "I click \"Save\"", "I press \"Save\"", "I tap on \"Save\"", "I click the first \"Save\"", "I click the button \"Save\"",
            "I click the first link \"Home\"", "I click \"Save\" within \"Basket\"", "I click the element \"css=.x\"",
            "I fill in \"Email\" with \"a@b\"", "I check \"Terms\"", "I uncheck \"Terms\"", "I choose \"Express\"",
            "I select \"Pro\" from \"Plan\"", "I press the Enter key", "I type \"abc\"", "I will dismiss the next dialog",
            "I will accept the next dialog", "the page alerted \"Saved\"", "I see an alert saying \"Saved\"", "I see \"Hello\"",
            "I do not see \"Hello\"", "I should not see \"Hello\" within \"Basket\"", "I see the button \"Save\"", "I see a dialog \"Sure?\"",
            "I do not see the heading \"Gone\"", "the \"Email\" field contains \"a\"", "the \"Email\" field is empty",
            "the \"Terms\" checkbox is checked", "the \"Terms\" checkbox is not checked", "the \"Express\" radio button is chosen",
            "\"Pro\" is selected in \"Plan\"", "the button \"Save\" is disabled", "the link \"Home\" is enabled", "the title is \"T\"",
            "the page title is \"T\"", "I am on /todos", "the URL contains \"#top\"", "I see 3 list items", "I see no rows within \"Basket\"",
            "I see 2 elements matching \"css=li\"", "the API answers GET /api/items with status 200",
            "the API answers once POST /api/orders with status 201 after 100 ms", "the page requested GET /api/items",
            "the page requested GET /api/items once", "the page requested GET /api/items 3 times", "the page made no unexpected requests",
            "I print the page", "show me the page",
        ]
        let feature = "Feature: phrasings\n  Scenario: all\n" + steps.map { "    * \($0)\n" }.joined()
        try feature.write(toFile: folder + "/all.feature", atomically: true, encoding: .utf8)
        let lines = Mutex<[String]>([])
        let status = await StoryRun.run(arguments: ["check", folder + "/all.feature"], steps: [BrowserSteps.self]) { line in
            lines.withLock { $0.append(line) }
        }
        #expect(status == .success, "\(lines.withLock { $0.joined(separator: "\n") })")
    }
}
