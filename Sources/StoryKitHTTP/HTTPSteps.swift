import Foundation
import StepLibrarySupport
import StoryKit
import Synchronization

/// Steps that send HTTP requests (with ``HTTPClient``) and check the responses.
///
/// The base URL comes from the step `the base URL is …`, else the
/// environment variable `STORYKIT_BASE_URL`, else ``defaultBaseURL``.
/// `{name}` in paths, headers and bodies is replaced by the value stored
/// under `name` (`the response's "id" is stored as "order"`, then
/// `GET /orders/{order}`).
public final class HTTPSteps: StepLibrary {
    private static let configuredBaseURL = Mutex<String?>(nil)

    /// The base URL used when no step and no environment variable gives one;
    /// set it in `main` before `StoryRun.main(steps:)`.
    public static var defaultBaseURL: String? {
        get { configuredBaseURL.withLock { $0 } }
        set { configuredBaseURL.withLock { $0 = newValue } }
    }

    var baseURL: String?
    var headers: [(String, String)] = []
    var timeLimit: Double = 10
    var response: HTTPResponse?

    public required init() {}

    /// The last response, or a failure saying no request was sent.
    func lastResponse() throws -> HTTPResponse {
        guard let response else { try fail("no request was sent in this story yet") }
        return response
    }

    /// The URL of a path (or a whole URL) after placeholders are replaced.
    func url(for path: String, query: [(String, String)]) throws -> URL {
        let expanded = Placeholders.expand(path, in: store)
        var text = expanded
        if !expanded.hasPrefix("http://"), !expanded.hasPrefix("https://") {
            guard let base = baseURL ?? ProcessInfo.processInfo.environment["STORYKIT_BASE_URL"] ?? Self.defaultBaseURL else {
                try fail("no base URL: write `Given the base URL is http://…`, set STORYKIT_BASE_URL or HTTPSteps.defaultBaseURL")
            }
            text = (base.hasSuffix("/") ? String(base.dropLast()) : base) + (expanded.hasPrefix("/") ? "" : "/") + expanded
        }
        guard var components = URLComponents(string: text) else { try fail("\(text) is not a URL") }
        if !query.isEmpty {
            components.queryItems = (components.queryItems ?? []) + query.map { URLQueryItem(name: $0.0, value: $0.1) }
        }
        guard let url = components.url else { try fail("\(text) is not a URL") }
        return url
    }

    /// Sends a request and keeps its response: through ``HTTPClient``, on a
    /// thread of its own, within the story's request time limit.
    func send(_ method: String, _ path: String, body: DocString?, query: [(String, String)] = []) async throws {
        let request = try request(method, path, body: body, query: query)
        var summary = "\(method) \(request.url.absoluteString)"
        if let body = request.body { summary += "\n\n" + String(decoding: body, as: UTF8.self) }
        attach(summary, mediaType: "text/plain", name: "request")
        let answer: HTTPClient.Response
        do {
            answer = try await HTTPClient.send(request, timeLimit: timeLimit)
        } catch {
            try fail("\(method) \(request.url.absoluteString) got no response: \(error)")
        }
        response = HTTPResponse(request: "\(method) \(request.url.absoluteString)", status: answer.status, headers: answer.headers, body: answer.body)
        let text = String(decoding: answer.body, as: UTF8.self)
        attach("\(answer.status)\n" + answer.headers.map { "\($0.0): \($0.1)" }.sorted().joined(separator: "\n") + "\n\n" + text,
            mediaType: "text/plain", name: "response")
    }

    /// The request a step asks for: its URL, the story's headers, its body
    /// (`application/json` when it is JSON, unless a header says otherwise).
    func request(_ method: String, _ path: String, body: DocString?, query: [(String, String)]) throws -> HTTPClient.Request {
        var request = HTTPClient.Request(method: method, url: try url(for: path, query: query))
        request.headers = headers.map { ($0.0, Placeholders.expand($0.1, in: store)) }
        if let body {
            let text = Placeholders.expand(body.content, in: store)
            request.body = Data(text.utf8)
            if request.header("Content-Type") == nil {
                let isJSON = body.mediaType?.lowercased().contains("json") == true || (try? JSONValue(parsing: text)) != nil
                request.headers.append(("Content-Type", isJSON ? "application/json" : "text/plain; charset=utf-8"))
            }
        }
        return request
    }
}

/// A response as the steps check it.
struct HTTPResponse {
    /// The request it answers, as `GET http://…`, for messages.
    var request: String
    var status: Int
    var headers: [(String, String)]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The value of a header, names compared ignoring case.
    func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    /// The body parsed as JSON, or a failure that shows the body.
    func json() throws -> JSONValue {
        do {
            return try JSONValue.parse(text)
        } catch {
            try fail("the response to \(request) is not JSON (\(error)); it is:\n\(text.prefix(2000))")
        }
    }
}
