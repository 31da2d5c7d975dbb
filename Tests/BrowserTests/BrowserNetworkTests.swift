import Foundation
import StoryKit
import StoryKitBrowser
import Testing

extension BrowserTests {
@Suite(.timeLimit(.minutes(10))) struct BrowserNetworkTests {
    static let shop = """
        <!doctype html><title>Orders</title><body>
        <section aria-label="Basket"><ul id="items"></ul><p id="status">Loading…</p></section>
        <form id="order"><fieldset><legend>Delivery</legend>
          <label><input type="radio" name="speed" value="fast"> Express</label>
          <label><input type="radio" name="speed" value="slow" checked> Standard</label></fieldset>
          <input name="note" placeholder="A note for the courier">
          <button>Order</button></form>
        <script>
        fetch('/api/items').then(r => r.json()).then(items => {
          document.getElementById('items').innerHTML = items.map(i => '<li>' + i.name + '</li>').join('');
          document.getElementById('status').textContent = items.length + ' items';
        });
        document.getElementById('order').onsubmit = async e => {
          e.preventDefault();
          const speed = document.querySelector('input[name=speed]:checked').value;
          const answer = await fetch('/api/orders', { method: 'POST', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ speed, note: e.target.note.value }) });
          document.getElementById('status').textContent = answer.ok ? 'Ordered' : 'Failed: ' + answer.status;
        };
        </script></body>
        """

    @Test("The page's API answered from the story, checked afterwards; a radio button, a placeholder, Enter, counts, regions")
    func stubbedAPI() async throws {
        let server = try BrowserHarness.serve(["/": Self.shop])
        defer { server.stop() }
        let outcome = try await BrowserHarness.run("""
            Feature: ordering
              Scenario: the basket loads and an order is sent
                Given the API answers GET /api/items with status 200 and:
                  ```json
                  [{"name": "Milk"}, {"name": "Bread"}]
                  ```
                And the API answers POST /api/orders with status 201 after 100 ms
                When I visit /
                Then I see 2 list items within "Basket"
                And I see "Milk" within "Basket"
                And I do not see "Butter"
                And I see 1 element matching "css=#items li:first-child"
                When I choose "Express"
                Then the "Express" radio button is chosen
                When I fill in "A note for the courier" with "ring twice"
                And I press the Enter key
                Then I see "Ordered"
                And the page requested GET /api/items once
                And the page requested POST /api/orders with JSON:
                  ```json
                  {"note": "ring twice", "speed": "fast"}
                  ```
                And the page made no unexpected requests
            """, server: server)
        #expect(outcome.status == .success, "\(outcome.output)")
    }

    @Test("A request the story did not expect is answered 404 and reported; a wrong JSON check lists what was requested")
    func unexpectedRequests() async throws {
        let server = try BrowserHarness.serve(["/": Self.shop])
        defer { server.stop() }
        let outcome = try await BrowserHarness.run("""
            Feature: ordering
              Scenario: no answer for the items
                Given the API answers POST /api/orders with status 201
                When I visit /
                Then I see "Failed" 
            """.replacingOccurrences(of: "\"Failed\" ", with: "\"Loading\""), server: server)
        #expect(outcome.status == .success, "\(outcome.output)")
        let failing = try await BrowserHarness.run("""
            Feature: ordering
              Scenario: no answer for the items
                Given the API answers POST /api/orders with status 201
                When I visit /
                And I click "Order"
                Then I see "Ordered"
                And the page made no unexpected requests
            """, server: server)
        #expect(failing.status == .storyFailed)
        #expect(failing.output.contains("the page made 1 request(s) the story gave no answer for:\n        GET /api/items"), "\(failing.output)")
    }

    @Test("A failed step carries a screenshot (PNG) and the accessibility tree into the HTML report; a step prints the tree")
    func evidence() async throws {
        let server = try BrowserHarness.serve(["/": "<!doctype html><title>T</title><body><h1>Hello</h1><button>Sign in</button></body>"])
        defer { server.stop() }
        let outcome = try await BrowserHarness.run("""
            Feature: evidence
              Scenario: printing and failing
                When I visit /
                And I print the page's accessibility tree
                Then I see "Goodbye"
            """, server: server, arguments: ["--html", "{folder}/report.html", "--format", "pretty"], timeLimit: 0.5)
        #expect(outcome.status == .storyFailed)
        #expect(outcome.output.contains("button \"Sign in\""), "\(outcome.output)")
        #expect(outcome.output.contains("the page did not show \"Goodbye\" within 0.5 s; it shows:"), "\(outcome.output)")
        #expect(outcome.output.contains("Hello\n") && outcome.output.contains("Sign in"), "\(outcome.output)")
        #expect(outcome.output.contains("heading \"Hello\" level 1"), "\(outcome.output)")
        // The failed step's screenshot is a PNG shown inline; the tree is attached beside it.
        #expect(outcome.report.contains("data:image/png;base64,iVBORw0KGgo"), "no PNG in the HTML report")
        #expect(outcome.report.contains("accessibility tree"))
        // The page holds the run as JSON (its script shows it): the tree's text is a JSON string there.
        #expect(outcome.report.contains(#"heading \"Hello\" level 1"#), "no accessibility tree in the HTML report's data")
    }
}
}
