import Foundation
import StoryKit
import StoryKitBrowser
import Testing

extension BrowserTests {
/// What a web component shows is its flat tree: its shadow root's text,
/// with the host's light children where its slots are (or the slots'
/// fallback when nothing is assigned), and text nodes right under the
/// shadow root. The steps read it in that order, once.
@Suite(.timeLimit(.minutes(10))) struct BrowserShadowSlotTests {
    static let page = """
        <!doctype html><body>
        <greet-line><b>Ada</b></greet-line>
        <bare-text></bare-text>
        <titled-box></titled-box>
        <framed-box><span>Slotted words</span><button>Go</button></framed-box>
        <solo-frame><em>Only slotted</em></solo-frame>
        <save-button role=button tabindex=0></save-button>
        <svg width=200 height=30><text x=0 y=20>Light chart</text></svg>
        <shadow-chart></shadow-chart>
        <section aria-label=Basket><button>Pay</button><bare-text></bare-text></section>
        <p id=out></p>
        <script>
        const define = (tag, html) => customElements.define(tag, class extends HTMLElement {
          constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = html; }
        });
        define('greet-line', '<p>Hello, <slot></slot>!</p>');
        define('bare-text', 'Bare shadow text');
        define('titled-box', '<slot name=title>Default title</slot>');
        define('framed-box', '<div class=frame><slot></slot></div>');
        define('solo-frame', '<div class=frame><slot></slot></div>');
        define('shadow-chart', '<svg width=200 height=30><text x=0 y=20>Shadow chart</text></svg><template><p>Template only</p></template>');
        define('save-button', '<span>Save draft</span>');
        document.querySelector('save-button').addEventListener('click', () => { out.textContent = 'Saved'; });
        document.querySelector('framed-box button').addEventListener('click', () => { out.textContent = 'Went'; });
        </script></body>
        """

    func run(_ steps: String) async throws -> BrowserHarness.Outcome {
        let server = try BrowserHarness.serve(["/": Self.page])
        defer { server.stop() }
        return try await BrowserHarness.run("""
            Feature: slots
              Scenario: slots
                When I visit /
            \(steps)
            """, server: server)
    }

    @Test("Text around a slot reads with the slotted text in its place: \"Hello, Ada!\" is seen")
    func slotInsideText() async throws {
        let outcome = try await run("    Then I see \"Hello, Ada!\"")
        #expect(outcome.status == .success, "\(outcome.output)")
    }

    @Test("Text right under a shadow root (no element around it) is seen")
    func bareShadowText() async throws {
        let outcome = try await run("    Then I see \"Bare shadow text\"")
        #expect(outcome.status == .success, "\(outcome.output)")
    }

    @Test("A slot's fallback text, shown when nothing is assigned to it, is seen")
    func slotFallback() async throws {
        let outcome = try await run("    Then I see \"Default title\"")
        #expect(outcome.status == .success, "\(outcome.output)")
    }

    @Test("Slotted light content is found once, in its element, not again in the shadow element around its slot; a scope that is a host reads its flat tree")
    func slottedFoundOnce() async throws {
        let outcome = try await run("""
                When I click the text "Slotted words"
                And I click the text "Only slotted"
                And I click "Go"
                Then I see "Went"
                And I see "Slotted words" within "css=framed-box"
                And I see "Hello, Ada!" within "css=greet-line"
                And I don't see "Hello" within "css=framed-box"
            """)
        #expect(outcome.status == .success, "\(outcome.output)")
    }

    @Test("SVG text is seen in the light tree of a page with web components and inside a shadow root; a template's content is not")
    func svgAndTemplate() async throws {
        let outcome = try await run("""
                Then I see "Light chart"
                And I see "Shadow chart"
                And I don't see "Template only"
            """)
        #expect(outcome.status == .success, "\(outcome.output)")
    }

    @Test("A CSS selector means what querySelectorAll makes of it on a page with web components: ':scope' is the search's root, not each element")
    func scopeSelector() async throws {
        let outcome = try await run("""
                Then I see one element matching ":scope > body > section"
                When I click "css=:scope > button" within "Basket"
            """)
        #expect(outcome.status == .success, "\(outcome.output)")
    }

    @Test("A custom element with a button's role is named by the text its shadow root shows, as its accessible name is: it is clicked by that name")
    func hostNamedByShadowText() async throws {
        let outcome = try await run("""
                Then I see the button "Save draft"
                When I click "Save draft"
                Then I see "Saved"
            """)
        #expect(outcome.status == .success, "\(outcome.output)")
    }
}
}
