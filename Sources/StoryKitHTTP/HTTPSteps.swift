import Foundation
import StepLibrarySupport
import StoryKit
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Steps that send HTTP requests with URLSession and check the responses.
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

    /// Sends a request and keeps its response.
    func send(_ method: String, _ path: String, body: DocString?, query: [(String, String)] = []) async throws {
        var request = URLRequest(url: try url(for: path, query: query))
        request.httpMethod = method
        request.timeoutInterval = timeLimit
        for (name, value) in headers { request.setValue(Placeholders.expand(value, in: store), forHTTPHeaderField: name) }
        var summary = "\(method) \(request.url!.absoluteString)"
        if let body {
            let text = Placeholders.expand(body.content, in: store)
            request.httpBody = Data(text.utf8)
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                let isJSON = body.mediaType?.lowercased().contains("json") == true || (try? JSON(parsing: text)) != nil
                request.setValue(isJSON ? "application/json" : "text/plain; charset=utf-8", forHTTPHeaderField: "Content-Type")
            }
            summary += "\n\n" + text
        }
        attach(summary, mediaType: "text/plain", name: "request")
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let data: Data
        let urlResponse: URLResponse
        do {
            (data, urlResponse) = try await session.data(for: request)
        } catch {
            try fail("\(method) \(request.url!.absoluteString) got no response: \(error.localizedDescription)")
        }
        guard let http = urlResponse as? HTTPURLResponse else { try fail("\(method) \(request.url!.absoluteString): not an HTTP response") }
        let headers = http.allHeaderFields.map { ("\($0.key)", "\($0.value)") }
        response = HTTPResponse(request: "\(method) \(request.url!.absoluteString)", status: http.statusCode, headers: headers, body: data)
        let text = String(decoding: data, as: UTF8.self)
        attach("\(http.statusCode)\n" + headers.map { "\($0.0): \($0.1)" }.sorted().joined(separator: "\n") + "\n\n" + text,
            mediaType: "text/plain", name: "response")
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
    func json() throws -> JSON {
        do {
            return try JSON(parsing: text)
        } catch {
            try fail("the response to \(request) is not JSON (\(error)); it is:\n\(text.prefix(2000))")
        }
    }
}
