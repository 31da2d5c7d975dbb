import Foundation
@testable import StoryKitBrowser
import Testing

extension BrowserTests {
/// Between two checks of an action or a `Then`, the page script's `settle`
/// waits for the document's next change instead of a fixed interval.
@Suite(.timeLimit(.minutes(10))) struct BrowserSettleTests {
    @Test("A check that did not hold waits for the page's next change: a mutation or an input wakes it, one made before the wait began is not missed, a still page waits out the limit")
    func settleWakesOnChange() async throws {
        let server = try BrowserHarness.serve(["/": "<!doctype html><body><p id=p>before</p><input id=i></body>"])
        defer { server.stop() }
        let page = try Browser.newPage()
        defer { page.close() }
        try await page.navigate(to: server.url + "/", timeLimit: 10)
        let check = PageScript.call("text")
        func settle(_ ms: Int) throws -> Bool? { try page.evaluate(PageScript.call("settle", "\(ms)"))?.boolValue }

        // A new document: no check ran in it yet, so nothing to wait for.
        #expect(try settle(5000) == true)
        // A still page: the wait ends by its limit, saying nothing changed.
        _ = try page.evaluate(check)
        #expect(try settle(50) == false)
        // A change after the wait began wakes it.
        _ = try page.evaluate(check)
        _ = try page.evaluate("setTimeout(() => { document.getElementById('p').textContent = 'after' }, 100); 0")
        #expect(try settle(5000) == true)
        // A change between the check and the wait (during the round trip) ends the wait at once.
        _ = try page.evaluate(check)
        _ = try page.evaluate("document.getElementById('p').className = 'seen'; 0")
        #expect(try settle(5000) == true)
        // A value typed by script changes no element; its input event counts.
        _ = try page.evaluate(check)
        _ = try page.evaluate("setTimeout(() => { const i = document.getElementById('i'); i.value = 'x'; i.dispatchEvent(new Event('input', { bubbles: true })) }, 100); 0")
        #expect(try settle(5000) == true)
    }
}
}
