import Foundation
import StoryKit
import StoryKitBrowser
import Testing

@Suite(.serialized, .timeLimit(.minutes(3)), .enabled(if: BrowserHarness.hasChromium, "Chromium is not installed: make test-tools installs it"))
struct BrowserStepsTests {
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
