import Foundation
import StoryKit
import Synchronization

/// A story's page: a tab in a browser context of its own (its own cookies,
/// storage and cache), closed with its context when the story ends.
public final class BrowserPage: Sendable {
    let connection: CDPConnection
    let contextID: String
    let targetID: String
    let session: String
    /// The requests the story answers and the ones the page made.
    let network: PageNetwork

    /// The dialogs (alert, confirm, prompt) the page opened, and whether the next are accepted.
    final class Dialogs: Sendable {
        struct State {
            var seen: [String] = []
            var accepts = true
        }

        private let state = Mutex(State())

        func withLock<T>(_ body: (inout State) -> T) -> T { state.withLock { body(&$0) } }
    }

    let dialogs = Dialogs()

    /// The documents (by loader id) that finished loading.
    final class Loads: Sendable {
        private let loaded = Mutex<Set<String>>([])
        private let arrived = DispatchSemaphore(value: 0)

        func insert(_ loader: String) {
            loaded.withLock { _ = $0.insert(loader) }
            arrived.signal()
        }

        func contains(_ loader: String) -> Bool { loaded.withLock { $0.contains(loader) } }

        /// Waits until a document loads (any: the caller looks again), at
        /// most `seconds`, or until the task is cancelled (a step that ran
        /// past `--step-timeout`); throws `CancellationError` then.
        func awaitNext(upTo seconds: Double) async throws {
            try Task.checkCancellation()
            await withTaskCancellationHandler {
                _ = arrived.wait(timeout: .now() + seconds)
            } onCancel: {
                arrived.signal()
            }
            try Task.checkCancellation()
        }
    }

    let loads = Loads()

    /// Opens a blank page in a new browser context of the process's browser
    /// (or takes the one made ahead for this story).
    static func open() throws -> BrowserPage {
        try Browser.newPage()
    }

    /// Opens a blank page in a new browser context.
    init(connection: CDPConnection, timeLimit: Double? = nil) throws {
        self.connection = connection
        let making = CDPTrace.isOn ? CDPTrace.now() : 0
        defer { CDPTrace.log("page made", since: making) }
        contextID = try connection.call("Target.createBrowserContext", [("disposeOnDetach", .bool(true))], timeLimit: timeLimit)
            .string("browserContextId") ?? ""
        do {
            targetID = try connection.call("Target.createTarget", [("url", .string("about:blank")), ("browserContextId", .string(contextID))], timeLimit: timeLimit)
                .string("targetId") ?? ""
            session = try connection.call("Target.attachToTarget", [("targetId", .string(targetID)), ("flatten", .bool(true))], timeLimit: timeLimit)
                .string("sessionId") ?? ""
        } catch {
            connection.post("Target.disposeBrowserContext", [("browserContextId", .string(contextID))])
            throw error
        }
        network = PageNetwork(connection: connection, session: session)
        connection.handleEvents(of: session) { [dialogs, network, connection, session, loads] method, params in
            switch method {
            case "Page.lifecycleEvent" where params.string("name") == "load":
                if let loader = params.string("loaderId") { loads.insert(loader) }
            case "Page.javascriptDialogOpening":
                let accepts = dialogs.withLock { state in
                    state.seen.append(params.string("message") ?? "")
                    return state.accepts
                }
                connection.post("Page.handleJavaScriptDialog", [("accept", .bool(accepts))], session: session)
            case "Fetch.requestPaused":
                network.answer(params)
            default:
                break
            }
        }
        // The desktop Chromium takes its emulated window's bars off the
        // window size (1280x713 of 1280x800); the headless shell does not.
        // The same viewport in both keeps layouts and screenshots alike.
        let viewport: CDPParameters = [
            ("width", .int(Int64(ChromiumProcess.viewport.width))), ("height", .int(Int64(ChromiumProcess.viewport.height))),
            ("deviceScaleFactor", .int(1)), ("mobile", .bool(false)),
        ]
        try connection.callAll(
            [
                ("Page.enable", []), ("Page.setLifecycleEventsEnabled", [("enabled", .bool(true))]), ("Runtime.enable", []),
                ("Emulation.setDeviceMetricsOverride", viewport),
            ], session: session, timeLimit: timeLimit)
    }

    /// Sends a command to this page's session.
    @discardableResult
    func call(_ method: String, _ params: CDPParameters = [], timeLimit: Double? = nil) throws -> CDPObject {
        try connection.call(method, params, session: session, timeLimit: timeLimit)
    }

    /// Closes the page and its context (and so its cookies and storage),
    /// without waiting for the browser to finish: the next story has a
    /// context of its own, and the browser ends with the process.
    func close() {
        connection.handleEvents(of: session, nil)
        guard connection.failure == nil else { return }
        connection.post("Target.disposeBrowserContext", [("browserContextId", .string(contextID))])
    }

    /// The page's current URL.
    func currentURL() throws -> String {
        try evaluate("location.href")?.stringValue ?? ""
    }

    /// Goes to a URL and waits until the document has loaded.
    func navigate(to url: String, timeLimit: Double) async throws {
        let result = try call("Page.navigate", [("url", .string(url))], timeLimit: max(timeLimit, connection.timeLimit))
        if let error = result.string("errorText"), !error.isEmpty {
            throw BrowserError("the browser could not open \(url): \(error)")
        }
        // The new document's load event, else (a navigation within the
        // document has no loader) the document's ready state, checked now and
        // then in case an event is missed.
        let loader = result.string("loaderId")
        let loading = CDPTrace.isOn ? CDPTrace.now() : 0
        defer { CDPTrace.log("load awaited", since: loading) }
        let deadline = Date().addingTimeInterval(timeLimit)
        var checked = loader == nil ? Date.distantPast : Date()
        while Date() < deadline {
            if let loader, loads.contains(loader) { return }
            if loader == nil || Date().timeIntervalSince(checked) > 0.1 {
                if try evaluateIfAlive("document.readyState")?.stringValue == "complete" { return }
                checked = Date()
            }
            if loader != nil {
                // Woken by the load event; short, as it holds its thread.
                try await loads.awaitNext(upTo: 0.01)
            } else {
                try await Task.sleep(nanoseconds: 2_000_000)
            }
        }
        throw BrowserError("\(url) did not finish loading within \(CDPConnection.seconds(timeLimit))")
    }

    /// Runs JavaScript in the page and returns its value (JSON-like), a
    /// promise's value once it settles.
    /// - Throws: ``BrowserError`` with the script's exception.
    func evaluate(_ expression: String) throws -> JSONValue? {
        let result = try call(
            "Runtime.evaluate",
            [("expression", .string(expression)), ("returnByValue", .bool(true)), ("awaitPromise", .bool(true)), ("userGesture", .bool(true))])
        if let exception = result.object("exceptionDetails") {
            let text = exception.object("exception")?.string("description") ?? exception.string("text") ?? "an exception"
            throw BrowserError("the page's script failed: \(text)")
        }
        return result.object("result")?["value"]
    }

    /// Like ``evaluate(_:)``, but nil while the page is between documents
    /// (its context destroyed by a navigation); other failures still throw.
    func evaluateIfAlive(_ expression: String) throws -> JSONValue? {
        do {
            return try evaluate(expression)
        } catch let error as BrowserError where connection.failure == nil && Self.isNavigating(error) {
            return nil
        }
    }

    static func isNavigating(_ error: BrowserError) -> Bool {
        let text = error.description
        return text.contains("context was destroyed") || text.contains("Cannot find context") || text.contains("navigated or closed")
            || text.contains("Cannot find default execution context") || text.contains("Execution context")
    }

    /// A PNG of what the page shows.
    func screenshot() throws -> Data {
        let result = try call("Page.captureScreenshot", [("format", .string("png"))], timeLimit: 5)
        guard let text = result.string("data"), let data = Data(base64Encoded: text) else {
            throw BrowserError("the browser sent no screenshot")
        }
        return data
    }

    /// The page's accessibility tree as indented text.
    func accessibilityTree() throws -> String {
        let result = try call("Accessibility.getFullAXTree", timeLimit: 5)
        return AccessibilityTree(nodes: result["nodes"]?.arrayValue ?? []).rendered()
    }

    /// The messages of the dialogs (alert, confirm, prompt) the page opened.
    var dialogMessages: [String] { dialogs.withLock { $0.seen } }
}
