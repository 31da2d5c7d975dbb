import Foundation
import StepLibrarySupport

/// How a stub server answers the requests that match: by method, path
/// (exact, or with `*` for one segment), query and body.
public struct StubRule: Sendable {
    /// The method, such as `POST`.
    public var method: String
    /// The path, with `*` (or `{name}`) standing for one segment, and an
    /// optional query whose pairs the request must include.
    public var path: String
    /// Text the request's body must contain, if any.
    public var bodyContains: String?
    /// The answer's status, headers and body.
    public var status: Int
    public var headers: [(String, String)]
    public var body: String
    /// Seconds to wait before answering.
    public var delay: Double
    /// Whether the rule answers once only (rules are tried in the order given).
    public var isOnce: Bool

    /// Creates a rule.
    public init(
        method: String, path: String, bodyContains: String? = nil, status: Int, headers: [(String, String)] = [],
        body: String = "", delay: Double = 0, isOnce: Bool = false
    ) {
        self.method = method.uppercased()
        self.path = path
        self.bodyContains = bodyContains
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.isOnce = isOnce
    }

    /// The rule as a story would name it: `POST /charges`.
    var name: String { "\(method) \(path)" + (bodyContains.map { " whose body contains \"\($0)\"" } ?? "") }

    /// Whether a request matches the rule.
    func matches(_ request: ReceivedRequest) -> Bool {
        guard request.method == method, Self.path(path, matches: request.target) else { return false }
        if let bodyContains, !request.body.contains(bodyContains) { return false }
        return true
    }

    /// Whether a request target matches a path pattern (``PathPattern``).
    static func path(_ pattern: String, matches target: String) -> Bool {
        PathPattern.path(pattern, matches: target)
    }
}

/// A request a stub server received, as it arrived.
public struct ReceivedRequest: Sendable {
    /// The method, such as `POST`; empty for a request that could not be read.
    public var method: String
    /// The request target: path and query.
    public var target: String
    /// The headers, names as sent.
    public var headers: [(String, String)]
    public var body: String
    /// Whether a rule of the story answered it (not the default 404, not a 400).
    public var wasExpected: Bool
    /// What was wrong with a request answered with 400, if it was.
    public var problem: String?

    /// The value of a header, names compared ignoring case.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    /// The request as a line of a list: `POST /charges {"amount":5}`.
    var summary: String {
        if let problem { return "a bad request (\(problem))" }
        let shown = body.count > 200 ? String(body.prefix(200)) + "…" : body
        return "\(method) \(target)" + (shown.isEmpty ? "" : " " + shown)
    }
}
