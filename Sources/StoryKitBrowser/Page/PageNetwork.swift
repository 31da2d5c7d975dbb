import Dispatch
import Foundation
import StoryKit
import Synchronization
import StepLibrarySupport

/// The page's requests answered from the story with the DevTools `Fetch`
/// domain: once a story declares an answer, every request the page makes
/// pauses in the browser; one that matches an answer gets it, a script's
/// request (fetch, XMLHttpRequest) that matches none gets a 404 naming it
/// and is recorded as unexpected, and the rest (the page, its scripts,
/// styles and images) go on to the real server.
final class PageNetwork: Sendable {
    /// An answer the story declared.
    struct Rule: Sendable {
        var method: String
        var path: String
        var status: Int
        var body: String
        var contentType: String?
        var delay: Double
        var isOnce: Bool
        var uses = 0

        var name: String { "\(method) \(path)" }
    }

    /// A request the page made while answers were declared.
    struct Request: Sendable {
        var method: String
        /// The path and query (`/api/items?page=2`).
        var target: String
        var url: String
        var body: String
        var wasExpected: Bool

        var summary: String {
            let shown = body.count > 200 ? String(body.prefix(200)) + "…" : body
            return "\(method) \(target)" + (shown.isEmpty ? "" : " " + shown)
        }
    }

    private struct State {
        var rules: [Rule] = []
        var requests: [Request] = []
        var isEnabled = false
        var reported = 0
    }

    private let state = Mutex(State())
    private let connection: CDPConnection
    private let session: String

    init(connection: CDPConnection, session: String) {
        self.connection = connection
        self.session = session
    }

    /// Adds an answer (tried in the order added), turning interception on.
    func add(_ rule: Rule) throws {
        let wasEnabled = state.withLock { state in
            state.rules.append(rule)
            defer { state.isEnabled = true }
            return state.isEnabled
        }
        if !wasEnabled {
            try connection.call(
                "Fetch.enable", [("patterns", .array([.object([("urlPattern", .string("*")), ("requestStage", .string("Request"))])]))], session: session)
        }
    }

    var requests: [Request] { state.withLock { $0.requests } }
    var ruleNames: [String] { state.withLock { $0.rules.map(\.name) } }

    /// The unexpected requests not reported yet (each is reported once).
    func newUnexpected() -> [Request] {
        state.withLock { state in
            let unexpected = state.requests.filter { !$0.wasExpected }
            defer { state.reported = unexpected.count }
            return Array(unexpected.dropFirst(state.reported))
        }
    }

    /// Answers a paused request (on the connection's reading thread).
    func answer(_ params: CDPObject) {
        guard let id = params.string("requestId"), let request = params.object("request") else { return }
        let url = request.string("url") ?? ""
        let method = request.string("method") ?? "GET"
        let target = Self.target(of: url)
        let body = request.string("postData") ?? ""
        let type = params.string("resourceType") ?? ""
        let isScripted = ["XHR", "Fetch", "EventSource"].contains(type)
        let rule = state.withLock { state -> Rule? in
            let index = state.rules.indices.first {
                !(state.rules[$0].isOnce && state.rules[$0].uses > 0) && state.rules[$0].method == method
                    && Self.path(state.rules[$0].path, matches: state.rules[$0].path.hasPrefix("http") ? url : target)
            }
            if let index { state.rules[index].uses += 1 }
            if index != nil || isScripted {
                state.requests.append(Request(method: method, target: target, url: url, body: body, wasExpected: index != nil))
            }
            return index.map { state.rules[$0] }
        }
        if let rule {
            fulfill(id, status: rule.status, body: rule.body, type: rule.contentType ?? Self.guessType(rule.body), after: rule.delay)
        } else if isScripted {
            let known = ruleNames
            let text = "the story has no answer for \(method) \(target)"
                + (known.isEmpty ? "" : " (it answers: \(known.joined(separator: "; ")))")
            fulfill(id, status: 404, body: text + "\n", type: "text/plain; charset=utf-8", after: 0)
        } else {
            connection.post("Fetch.continueRequest", [("requestId", .string(id))], session: session)
        }
    }

    private func fulfill(_ id: String, status: Int, body: String, type: String, after delay: Double) {
        let headers: [JSONValue] = [
            .object([("name", .string("Content-Type")), ("value", .string(type))]),
            .object([("name", .string("Access-Control-Allow-Origin")), ("value", .string("*"))]),
        ]
        let params: CDPParameters = [
            ("requestId", .string(id)), ("responseCode", .int(Int64(status))), ("responseHeaders", .array(headers)),
            ("body", .string(Data(body.utf8).base64EncodedString())),
        ]
        let send = { @Sendable [connection, session] in
            connection.post("Fetch.fulfillRequest", params, session: session)
        }
        if delay > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: send)
        } else {
            send()
        }
    }

    private static func guessType(_ body: String) -> String {
        let first = body.first { !$0.isWhitespace }
        if first == "{" || first == "[" { return "application/json" }
        if first == "<" { return "text/html; charset=utf-8" }
        return "text/plain; charset=utf-8"
    }

    /// A URL's path and query.
    static func target(of url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// Whether a target matches a path pattern, as a stub server's rules do
    /// (``PathPattern``).
    static func path(_ pattern: String, matches target: String) -> Bool {
        PathPattern.path(pattern, matches: target)
    }
}
