import Foundation
import StepLibrarySupport
import StoryKit
import Synchronization

/// Steps that drive a web page in headless Chromium, in the words of a
/// customer: visit, click, fill in, check, choose, select, press, see.
///
/// Each story gets a page in a browser context of its own, opened at its
/// first browser step and closed when the story ends, however it ended;
/// the browser itself (one per worker process) starts with the first
/// story that needs it. Paths are relative to the base URL: the step
/// `the app is at …`, else ``defaultBaseURL``, else `STORYKIT_BASE_URL`.
/// Every action and check waits for its element up to ``defaultTimeLimit``
/// seconds (`the browser waits up to N seconds`). A failed step gets a
/// screenshot and the page's accessibility tree attached.
public final class BrowserSteps: StepDefinitions {
    private static let configured = Mutex<(url: String?, limit: Double)>((nil, 5))

    /// The base URL when no step gives one; set it in `main` before `StoryRun.main(steps:)`.
    public static var defaultBaseURL: String? {
        get { configured.withLock { $0.url } }
        set { configured.withLock { $0.url = newValue } }
    }

    /// Seconds an action or check waits for its element (5 unless set).
    public static var defaultTimeLimit: Double {
        get { configured.withLock { $0.limit } }
        set { configured.withLock { $0.limit = newValue } }
    }

    var baseURL: String?
    var timeLimit = BrowserSteps.defaultTimeLimit
    private var openPage: BrowserPage?

    public required init() {}

    /// The story's page, opened (and the browser started) if need be.
    public func page() throws -> BrowserPage {
        if let openPage { return openPage }
        let opening = CDPTrace.isOn ? CDPTrace.now() : 0
        let page = try BrowserPage.open()
        CDPTrace.log("story page opened", since: opening)
        openPage = page
        store[Self.storeKey] = self
        return page
    }

    static let storeKey = "browser steps"

    /// The story's browser steps, for a custom step in another class, once
    /// a browser step of the story opened the page (`I visit …`); nil before.
    public static var current: BrowserSteps? { StoryStore.current[storeKey] as? BrowserSteps }

    /// Closes the story's page and its browser context.
    func closePage() {
        if let openPage, !openPage.network.newUnexpected().isEmpty {
            log("the page made requests the story gave no answer for (see the steps above)")
        }
        openPage?.close()
        openPage = nil
        CDPTrace.log("story page closed", since: CDPTrace.isOn ? CDPTrace.now() : 0)
    }

    /// Runs a step's work on the page; on failure attaches a screenshot and
    /// the accessibility tree to the step, and fails it with the message.
    public func perform(_ work: (BrowserPage) async throws -> Void) async throws {
        var page: BrowserPage?
        let began = CDPTrace.isOn ? CDPTrace.now() : 0
        defer { CDPTrace.log("step done", since: began) }
        do {
            page = try self.page()
            try await work(page!)
            reportUnexpected(page!)
        } catch {
            if let page {
                reportUnexpected(page)
                attachEvidence(page)
            }
            if let error = error as? BrowserError { try fail(error.description) }
            throw error
        }
    }

    private func reportUnexpected(_ page: BrowserPage) {
        let unexpected = page.network.newUnexpected()
        guard !unexpected.isEmpty else { return }
        log("the page requested what the story gave no answer for (answered 404):\n"
            + unexpected.map { "  " + $0.summary }.joined(separator: "\n"))
    }

    /// Attaches what the page shows: a PNG and the accessibility tree.
    func attachEvidence(_ page: BrowserPage) {
        guard page.connection.failure == nil else { return }
        if let png = try? page.screenshot() { attach(png, mediaType: "image/png", name: "screenshot.png") }
        if let tree = try? page.accessibilityTree() { attach(tree, mediaType: "text/plain", name: "accessibility tree") }
    }

    /// A URL for a path (or a whole URL) after placeholders are replaced.
    func url(for path: String) throws -> String {
        let expanded = Placeholders.expand(path, in: store)
        if expanded.contains("://") || expanded.hasPrefix("about:") || expanded.hasPrefix("data:") { return expanded }
        guard let base = baseURL ?? Self.defaultBaseURL ?? ProcessInfo.processInfo.environment["STORYKIT_BASE_URL"] else {
            try fail("no base URL: write `Given the app is at http://…`, set BrowserSteps.defaultBaseURL or STORYKIT_BASE_URL")
        }
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + (expanded.hasPrefix("/") ? "" : "/") + expanded
    }

    /// Checks until `holds` is true or the time limit passes, then fails
    /// with `message`; between checks, waits for the page to change.
    func eventually(_ page: BrowserPage, _ holds: () throws -> Bool, _ message: () throws -> String) async throws {
        let began = Date()
        let deadline = began.addingTimeInterval(timeLimit)
        while true {
            if try holds() { return }
            guard Date() < deadline else { break }
            try await page.settle(waited: Date().timeIntervalSince(began))
        }
        throw BrowserError(try message())
    }
}
